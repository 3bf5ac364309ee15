// The `expect` command: is the module at the cursor structurally equal to a
// module in a file (TVM's Before/Expected test idiom)? See core/trace/expect.h.
#include "core/trace/expect.h"
#include "repl/command_util.h"

namespace passlab {
namespace {

using namespace command_util;

void runExpect(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  if (args.size() != 1) return result.fail(usage(*ctx.interpreter.find("expect")));
  Workbench& wb = ctx.workbench;
  const std::string& path = args[0];
  // A file that does not load is a DiagnosticError: the interpreter reports it located.
  TextOrigin origin;
  IRModule expected = loadExpectedModule(path, &origin);
  int id = wb.cursor();
  std::string label = "#" + std::to_string(id) + " " + wb.event(id).pass;
  PrintOptions options;
  options.syntax = origin.syntax;
  options.spelling = origin.spelling;
  ExpectOutcome outcome = expectModule(wb.moduleAt(id, Side::After), expected, label, path, options);
  if (outcome.equal) return result.out(label + " matches " + path + "\n");
  result.out(outcome.diff);
  result.fail(label + " does not match " + path);
}

}  // namespace

void addExpectCommands(std::vector<Command>& out) {
  Command c;
  c.name = "expect";
  c.syntax = {"expect <file>"};
  c.summary = "Check that the module at the cursor is structurally equal to the module in FILE";
  c.help = "FILE is Relay text or TVMScript (loaded like `load`). The comparison is TVM's structural equality: "
           "bound variables match by position (their names are free), global functions by name, ops, attributes, "
           "types and constants exactly; passlab's `phase` attribute is not compared. Equal: `matches FILE`. "
           "Otherwise an error with the aligned diff (expected side `---`, the cursor's module `+++`), printed in "
           "FILE's syntax, so only real differences show. A FILE that does not load is a located error. "
           "Batch mode: `--expect=FILE` checks the module after the pipeline (exit 1 when it differs).";
  c.run = runExpect;
  out.push_back(std::move(c));
}

}  // namespace passlab
