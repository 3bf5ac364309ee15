// Check commands: numeric (the numeric-check results), bisect, and the
// `set numeric-check ...` setting.
#include <cstdlib>

#include "repl/command_util.h"
#include "repl/format_checks.h"

namespace passlab {
namespace {

using namespace command_util;

void runBisect(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  const Command& self = *ctx.interpreter.find("bisect");
  if (args.empty()) return result.fail(usage(self));
  BisectPredicate predicate = parseBisectPredicate(args.words());
  if (!predicate.pass.empty() && !ctx.workbench.registry().find(predicate.pass))
    return result.fail("unknown pass '" + predicate.pass + "' in the fails predicate");
  BisectResult found = ctx.workbench.bisect(predicate);
  result.out(formatBisect(ctx.workbench, predicate, found, ctx.style));
}

}  // namespace

void runSetNumericCheck(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  // args: numeric-check on|off [seed N | inputs FILE] [@function]
  Workbench& wb = ctx.workbench;
  const std::string function = args.takeFunction();
  if (args.size() < 2 || (args[1] != "on" && args[1] != "off"))
    return result.fail("usage: set numeric-check on [seed <N> | inputs <file>] [@<function>] | set numeric-check off");
  if (args[1] == "off") {
    if (args.size() > 2) return result.fail("unexpected argument '" + args[2] + "' after off");
    wb.setNumericCheck(std::nullopt);
    return result.out("numeric check off\n");
  }
  NumericCheckOptions options;
  if (!function.empty()) options.function = function;
  for (size_t i = 2; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return result.fail("'" + args[i] + "' needs a value");
    if (args[i] == "seed") {
      char* end = nullptr;
      unsigned long seed = std::strtoul(args[i + 1].c_str(), &end, 10);
      if (args[i + 1].empty() || *end != '\0') return result.fail("expected a seed number, got '" + args[i + 1] + "'");
      options.seed = static_cast<uint32_t>(seed);
    } else if (args[i] == "inputs") {
      options.inputsFile = args[i + 1];
    } else {
      return result.fail("unexpected '" + args[i] + "' (seed N or inputs FILE)");
    }
  }
  wb.setNumericCheck(options);
  int checked = 0;
  if (wb.loaded())
    for (const TraceEvent& ev : wb.trace().events()) checked += ev.numeric && ev.id > 0;
  result.out("numeric check on: " + describeNumericCheck(options) + "; @" + options.function +
             " is compared with #0 after every pass of the root context" +
             (checked ? " (" + std::to_string(checked) + " recorded " + (checked == 1 ? "event" : "events") + " checked now)" : "") + "\n");
}

void addCheckCommands(std::vector<Command>& out) {
  {
    Command c;
    c.name = "numeric";
    c.syntax = {"numeric"};
    c.summary = "Numeric-check results: max abs/rel error of every checked event against #0";
    c.help = "With `set numeric-check on [seed N | inputs FILE]`, the interpreter runs @main on the same inputs "
             "after every pass of the root context and compares every output with the loaded module's (#0). The "
             "relative error of an output is its max abs error over its largest |reference| value. `break numeric "
             "THRESHOLD` stops at the first event above a bound; `bisect numeric THRESHOLD` finds the pass.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (tooMany(ctx, args, 0, "numeric", result)) return;
      result.out(formatNumericTable(ctx.workbench, ctx.style));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "bisect";
    c.syntax = {"bisect numeric <threshold> [abs|rel]", "bisect wellformed", "bisect attr <attr> [present|absent|<value>] [@<function>]",
                "bisect fails [<pass>] [<rule>]", "bisect diag [<rule>]", "bisect differs <file>"};
    c.summary = "Find the first pipeline pass after which a predicate holds (binary search over prefixes)";
    c.help = "Records the rest of the pipeline (without moving the cursor), then binary-searches the top-level "
             "events for the first one whose module satisfies the predicate, evaluating it O(log n) times: "
             "`numeric T` — the numeric-check error (relative by default) exceeds T, or the module cannot be "
             "compared; `wellformed` — the well-formed checker or type inference reports a problem; `attr KEY` — "
             "some function (or @FUNCTION) has attribute KEY, `absent` — none has it, VALUE — it has that printed "
             "value; `fails [PASS] [RULE]` — a pass (PASS, nested ones included) failed, with an error of rule RULE when given; "
             "`diag [RULE]` — a diagnostic with that rule id (any error without one) was reported by an event up to "
             "there; `differs FILE` — the module is not structurally equal to FILE's (TVM's rules, as `expect`: the first "
             "pass after which the module no longer is FILE's). Assumes that once the predicate holds it keeps holding. The cursor moves to the event found. "
             "`reduce` takes the same predicates.";
    c.run = runBisect;
    out.push_back(std::move(c));
  }
}

}  // namespace passlab
