// The command interpreter: runs lines and scripts against a Workbench, offers
// completion from the commands' syntax data, and renders help. Reusable by the
// GUI console: it never touches stdin, stdout or the terminal.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/workbench/workbench.h"
#include "repl/command.h"
#include "repl/style.h"

namespace passlab {

/// Completion candidates for the word under the cursor.
struct Completion {
  /// Byte offset in the line where the word being completed starts.
  size_t start = 0;
  /// Full replacement words, sorted and unique.
  std::vector<std::string> candidates;
  /// Whether a unique completion should be followed by a space (not inside a
  /// pipeline spec, which goes on with ',', nor after a directory).
  bool appendSpace = true;
};

/// One update of a long command's status line.
struct StatusUpdate {
  /// What it is doing ("build: optimizing @fused_conv2d (12 of 81)").
  std::string text;
  /// Steps done and their total, when the command knows them (total 0: no known end).
  size_t done = 0, total = 0;
};

/// Runs commands.
class CommandInterpreter {
 public:
  /// Receives each script line's result as soon as it finishes (echo included).
  using LineSink = std::function<void(const CommandResult&)>;

  /// An interpreter over `workbench` with the builtin commands.
  explicit CommandInterpreter(Workbench& workbench, Style style = Style::plain());

  /// Runs one line. Blank lines and `#` comments do nothing. Any exception a
  /// command lets escape becomes an error result; the interpreter stays usable.
  CommandResult runLine(std::string_view line);

  /// Runs a script: each line is echoed as `(passlab) LINE` then run. Stops at
  /// the first failing line unless `keepGoing` (then the result is still an
  /// error if any line failed). `name` is used in the stop message.
  CommandResult runScript(const std::string& text, const std::string& name, bool keepGoing, const LineSink& sink = nullptr);
  /// Reads and runs a script file (an unreadable file is an error result).
  CommandResult runScriptFile(const std::string& path, bool keepGoing, const LineSink& sink = nullptr);

  /// Loads module text pasted at the prompt (repl/paste.h) through the load
  /// path, as `load` would a file named "<paste>".
  CommandResult loadPasted(std::string text);

  /// Completion for `line` with the cursor at byte `cursor`.
  Completion complete(std::string_view line, size_t cursor) const;
  /// Candidates of one completion kind that start with `prefix`.
  std::vector<std::string> candidates(const SyntaxItem& slot, std::string_view prefix) const;

  /// The commands, in help order.
  const std::vector<Command>& commands() const { return commands_; }
  /// A command by name or alias, or null.
  const Command* find(std::string_view nameOrAlias) const;
  /// `help`: one line per command.
  std::string helpIndex() const;
  /// `help CMD`: syntax, aliases and the help text.
  std::string helpFor(const Command& command) const;
  /// docs/commands.md, generated from the command objects.
  std::string commandsMarkdown() const;

  Workbench& workbench() { return workbench_; }
  const Style& style() const { return style_; }
  void setStyle(Style style) { style_ = style; }
  /// Where long commands (build, run, reduce, save report, numeric) report
  /// progress: a terminal status line in the interactive REPL, the GUI's
  /// progress bar, null elsewhere (scripts and transcripts stay quiet).
  std::function<void(const StatusUpdate&)> statusLine;
  /// The prompt the REPL shows.
  static constexpr const char* kPrompt = "(passlab) ";

 private:
  Workbench& workbench_;
  Style style_;
  std::vector<Command> commands_;
  int sourceDepth_ = 0;
};

/// Settings that `set` accepts besides registered config keys (for completion and help).
std::vector<std::string> settingKeys();

}  // namespace passlab
