// Commands as data: name, aliases, syntax, help and completion, plus the
// result object every command writes into (never stdout), so the same command
// objects serve the REPL prompt, `source` scripts, `passlab --script` and the
// GUI console.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/workbench/workbench.h"
#include "repl/style.h"

namespace passlab {

class CommandInterpreter;

/// How a command ended.
enum class CommandStatus : uint8_t {
  Ok,     ///< did what was asked
  Error,  ///< refused or failed (a script stops here unless --keep-going)
  Quit,   ///< asked the session to end
};

/// What a command produced: output and error text in the order written, and a status.
struct CommandResult {
  /// A run of output or error text.
  struct Chunk {
    bool error = false;
    std::string text;
  };
  std::vector<Chunk> chunks;
  CommandStatus status = CommandStatus::Ok;

  /// Appends output text.
  void out(std::string_view text);
  /// Appends error text without changing the status (e.g. a warning).
  void err(std::string_view text);
  /// Reports an error: `error: MESSAGE` (newline added) and status Error.
  void fail(std::string_view message);
  /// Appends another result's chunks (for `source`); an error there makes this one an error.
  void append(const CommandResult& other);
  /// All output text, all error text.
  std::string output() const;
  std::string error() const;
  bool ok() const { return status != CommandStatus::Error; }
};

/// What an argument slot completes to.
enum class CompletionKind : uint8_t {
  None,          ///< free text (a number, a value, a pipeline spec)
  Literal,       ///< one of the fixed words of the slot
  Command,       ///< a command name or alias
  PassName,      ///< a registered pass
  Pipeline,      ///< a pipeline spec: the pass after the last ',' completes
  FunctionName,  ///< a global function of the module at the cursor (completed with '@')
  ConfigKey,     ///< a registered config key or a setting (opt_level, target, executor.*, ...)
  FilePath,      ///< a path on disk
  EventId,       ///< an event id of the trace
  AttrKey,       ///< an attribute key seen on a function or the module
  DiagRule,      ///< a diagnostic rule id seen in the trace
  BreakpointId,  ///< an existing breakpoint's id
};

/// The arguments of one invocation, split like a shell (double quotes group).
class CommandArgs {
 public:
  /// Splits `line` (without the command word) into words, remembering where each begins.
  explicit CommandArgs(std::string_view line);
  size_t size() const { return words_.size(); }
  bool empty() const { return words_.empty(); }
  const std::string& operator[](size_t i) const { return words_[i]; }
  /// The raw text from word `i` to the end of the line (quotes kept), for
  /// arguments that are free text: `set target hexagon -mcpu=hexagonv68`.
  std::string rest(size_t i) const;
  /// Removes a flag wherever it is; true when it was present.
  bool takeFlag(std::string_view flag);
  /// Removes and returns the first word starting with '@' (without the '@'), or "".
  std::string takeFunction();
  /// The words.
  const std::vector<std::string>& words() const { return words_; }

 private:
  std::string line_;
  std::vector<std::string> words_;
  std::vector<size_t> starts_;
};

/// Everything a command may touch.
struct CommandContext {
  Workbench& workbench;
  CommandInterpreter& interpreter;
  const Style& style;
};

/// A command. Syntax forms are both the usage text and the completion data:
///   `word` a literal, `a|b` alternatives, `<name>` a placeholder whose name
///   gives its completion (pass, function, key, file, event, attr, rule,
///   breakpoint, command; anything else is free text), `@<function>` a function
///   written with '@', `[item]` optional, `<name>...` repeatable.
struct Command {
  /// The name users type.
  std::string name;
  /// Other names (`s` for stepin).
  std::vector<std::string> aliases;
  /// Usage forms, each starting with the name, e.g. "break pass <pass>".
  std::vector<std::string> syntax;
  /// One line for `help`.
  std::string summary;
  /// Paragraphs for `help CMD` and docs/commands.md.
  std::string help;
  /// The behaviour.
  std::function<void(CommandContext& ctx, CommandArgs& args, CommandResult& result)> run;
};

/// One slot of a parsed syntax form.
struct SyntaxItem {
  CompletionKind kind = CompletionKind::Literal;
  /// Literal alternatives (kind Literal), or the placeholder name.
  std::vector<std::string> words;
  bool optional = false;
  bool repeat = false;
  /// Completions are written with this prefix ("@" for functions).
  std::string prefix;
};

/// Parses one syntax form (without its leading command name) into slots.
std::vector<SyntaxItem> parseSyntax(std::string_view form);

/// The completion kind of a placeholder name ("pass" → PassName, ...).
CompletionKind placeholderKind(std::string_view name);

/// The slots a word at position `index` can fill, given the words before it,
/// over all of `command`'s forms.
std::vector<SyntaxItem> slotsAt(const Command& command, const std::vector<std::string>& before);

/// Every command of the REPL, in help order (defined across repl/commands_*.cpp).
std::vector<Command> builtinCommands();
/// Navigation commands (repl/commands_nav.cpp).
void addNavigationCommands(std::vector<Command>& out);
/// Inspection commands (repl/commands_view.cpp).
void addViewCommands(std::vector<Command>& out);
/// Session commands: load, pipeline, set, save, source, help, quit (repl/commands_session.cpp).
void addSessionCommands(std::vector<Command>& out);
/// Check commands: numeric, bisect (repl/commands_check.cpp).
void addCheckCommands(std::vector<Command>& out);
/// The reduce command (repl/commands_reduce.cpp).
void addReduceCommands(std::vector<Command>& out);
/// Edit and continue: edit, branches (repl/commands_edit.cpp).
void addEditCommands(std::vector<Command>& out);
/// `diff --branch bN [EVENT] [@FUNCTION]` (the flag already taken; repl/commands_edit.cpp).
void runDiffBranch(CommandContext& ctx, CommandArgs& args, CommandResult& result);
/// The verify command: well-formed checker and verify-each (repl/commands_verify.cpp).
void addVerifyCommands(std::vector<Command>& out);
/// The expect command: structural equality with a module in a file (repl/commands_expect.cpp).
void addExpectCommands(std::vector<Command>& out);
/// Pass remarks: remarks, why-not (repl/commands_remarks.cpp).
void addRemarkCommands(std::vector<Command>& out);
/// Code generation: `build` (repl/commands_codegen.cpp).
void addCodegenCommands(std::vector<Command>& out);
/// True for the words `show` hands to runCodegenShow: llvm, llvm-opt, asm, c.
bool isCodegenView(const std::string& word);
/// `show llvm|llvm-opt|asm|c [@function]`: generated code of the last build.
void runCodegenShow(CommandContext& ctx, CommandArgs& args, CommandResult& result);
/// `show [@function]` at a codegen event (Workbench::build): a build's summary, a stage's code.
void showCodegenEvent(CommandContext& ctx, int id, const std::string& function, CommandResult& result);
/// True when `run` was given --host or --hexagon (execute compiled code).
bool isCodegenRun(const CommandArgs& args);
/// `run --host|--hexagon [--seed N] [@function]`: build, execute, compare with the interpreter.
void runCodegenRun(CommandContext& ctx, CommandArgs& args, CommandResult& result);
/// `set numeric-check on [seed N | inputs FILE] [@FUNCTION]` / `set numeric-check off`;
/// `args` starts with the word numeric-check (repl/commands_check.cpp).
void runSetNumericCheck(CommandContext& ctx, CommandArgs& args, CommandResult& result);

}  // namespace passlab
