// Module text pasted at the REPL prompt: Relay text or TVMScript copied from
// TVM's output goes straight in, without a file. The REPL notices a line that
// starts module text instead of a command, collects the lines that follow and
// loads them through the one load path (Workbench::loadText), which decides
// the syntax from the content.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace passlab {

/// Collects one pasted module, line by line.
class ModulePaste {
 public:
  /// What a line did to the paste.
  enum class Feed : uint8_t {
    Continue,       ///< taken; the paste goes on
    Done,           ///< taken, and it ended the paste
    DoneNotTaken,   ///< the paste ended before this line, which is a command to run
  };

  /// True when `line` starts module text rather than a command: `#[version`,
  /// `def @`, `# from tvm.script`, `from tvm.script import`, `import tvm`,
  /// `@I.ir_module`, `@R.function`, `@T.prim_func`.
  static bool startsModuleText(std::string_view line);

  /// True while a paste is being collected.
  bool active() const { return active_; }

  /// Feeds one raw line (indentation kept). The paste ends at two empty lines
  /// in a row (both syntaxes put one between functions), or before an
  /// unindented line outside any bracket whose first word `isCommand`
  /// accepts; the end of input ends it too.
  Feed feed(std::string_view line, const std::function<bool(std::string_view)>& isCommand);

  /// The text collected so far; the paste is over and starts empty again.
  std::string take();

 private:
  bool active_ = false;
  std::string text_;
  int depth_ = 0;  // open braces, brackets and parentheses
  bool lastBlank_ = false;
};

}  // namespace passlab
