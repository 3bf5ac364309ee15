// The console: the REPL's own command objects and CommandInterpreter inside
// the GUI, with a scrollback log, history (Up/Down) and TAB completion. Lines
// starting with `gui` go to the GUI's extra commands (gui_commands.h), which
// use the same Command/CommandResult types; everything else goes to the
// interpreter unchanged, so a console line does exactly what it does in
// `passlab`.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "repl/interpreter.h"

namespace passlab::gui {

/// One line of the console's scrollback.
struct ConsoleLine {
  /// An echoed command line, command output, or error text.
  enum class Kind : uint8_t { Echo, Output, Error };
  Kind kind = Kind::Output;
  /// One line, without its newline.
  std::string text;
};

/// The result of pressing TAB.
struct CompletionEdit {
  /// The line after completion.
  std::string line;
  /// Where the cursor goes.
  size_t cursor = 0;
  /// Every candidate when more than one remains (shown to the user), else empty.
  std::vector<std::string> candidates;
};

/// Console state and behaviour, independent of ImGui.
class ConsoleModel {
 public:
  /// A console running `interpreter`'s commands plus `extra` (the `gui` command).
  ConsoleModel(CommandInterpreter& interpreter, std::vector<Command> extra);

  /// Runs one line as typed by the user: echoed, recorded in history, output logged.
  CommandResult submit(const std::string& line);
  /// Runs a line without recording it in history (scripts); still logged.
  CommandResult execute(const std::string& line);

  /// Scrollback lines (oldest first; capped at `kMaxLines`).
  const std::deque<ConsoleLine>& lines() const { return lines_; }
  /// Incremented whenever lines are appended (the panel scrolls to the bottom).
  uint64_t revision() const { return revision_; }
  /// Appends text to the log (restore messages, notes from the GUI).
  void log(ConsoleLine::Kind kind, std::string_view text);
  /// Empties the scrollback.
  void clear();

  /// History, oldest first.
  const std::vector<std::string>& history() const { return history_; }
  /// Up arrow: the previous history entry ("" and no change when there is none).
  /// `current` is what the input holds, kept to come back to with Down.
  std::string historyPrevious(const std::string& current);
  /// Down arrow: the next history entry, or the line being typed before browsing.
  std::string historyNext();

  /// TAB at byte `cursor` of `line`: the longest common completion, and the
  /// candidates when ambiguous.
  CompletionEdit complete(const std::string& line, size_t cursor) const;

  /// The extra commands (for help).
  const std::vector<Command>& extraCommands() const { return extra_; }

  /// Scrollback limit.
  static constexpr size_t kMaxLines = 20000;

 private:
  CommandResult dispatch(std::string_view line);
  const Command* findExtra(std::string_view name) const;

  CommandInterpreter& interpreter_;
  std::vector<Command> extra_;
  std::deque<ConsoleLine> lines_;
  uint64_t revision_ = 0;
  std::vector<std::string> history_;
  /// Position while browsing history (history_.size() = not browsing).
  size_t historyPos_ = 0;
  std::string draft_;
};

}  // namespace passlab::gui
