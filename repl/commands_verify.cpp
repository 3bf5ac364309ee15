// The `verify` command: the well-formed checker on the module at the cursor,
// the verify-each instrument, and the list of rules (seed 002).
#include "core/analysis/well_formed.h"
#include "repl/command_util.h"
#include "repl/format.h"

namespace passlab {
namespace {

using namespace command_util;

/// Every violation: its rule and function, then the located message with the source line.
std::string formatViolations(const std::vector<Diagnostic>& found) {
  std::string out;
  for (const Diagnostic& d : found) {
    out += "  [" + d.rule + "]" + (d.function.empty() ? "" : " in @" + d.function) + "\n";
    std::string rendered = d.render();
    if (!rendered.empty() && rendered.back() != '\n') rendered += '\n';
    for (size_t start = 0; start < rendered.size();) {
      size_t end = rendered.find('\n', start);
      out += "    " + rendered.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  return out;
}

std::string formatRules() {
  std::string out;
  for (const WellFormedRule& r : wellFormedRules())
    out += r.id + std::string(r.id.size() < 28 ? 28 - r.id.size() : 1, ' ') +
           (r.fromPhase == 0 ? std::string("always    ") : "phase >= " + std::to_string(r.fromPhase)) + "  " + r.description + "\n";
  return out;
}

void runVerify(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  Workbench& wb = ctx.workbench;
  if (!args.empty() && args[0] == "rules") {
    if (tooMany(ctx, args, 1, "verify", result)) return;
    return result.out(formatRules());
  }
  if (!args.empty() && args[0] == "each") {
    if (args.size() == 1) return result.out(std::string("verify-each: ") + (wb.verifyEach() ? "on" : "off") + "\n");
    if (args.size() != 2 || (args[1] != "on" && args[1] != "off")) return result.fail(usage(*ctx.interpreter.find("verify")));
    int discarded = wb.setVerifyEach(args[1] == "on");
    std::string out = std::string("verify-each ") + args[1] +
                      (args[1] == "on" ? ": the well-formed checker runs around every pass; violations are event diagnostics"
                                       : "");
    if (discarded > 0) out += " (" + std::to_string(discarded) + " later events discarded)";
    return result.out(out + "\n");
  }
  bool before = args.takeFlag("--before");
  if (tooMany(ctx, args, 0, "verify", result)) return;
  int id = wb.cursor();
  Side side = before ? Side::Before : Side::After;
  std::vector<Diagnostic> found = wb.wellFormed(id, side);
  std::string where = "#" + std::to_string(id) + " " + wb.event(id).pass + (before ? " (before)" : "") + ", phase " +
                      std::to_string(wb.moduleAt(id, side)->phase());
  if (found.empty()) return result.out(where + ": well formed\n");
  result.out(where + ": " + std::to_string(found.size()) + (found.size() == 1 ? " violation\n" : " violations\n") +
             formatViolations(found));
}

}  // namespace

void addVerifyCommands(std::vector<Command>& out) {
  Command c;
  c.name = "verify";
  c.syntax = {"verify [--before]", "verify each [on|off]", "verify rules"};
  c.summary = "Run the well-formed checker on the module at the cursor, or around every pass";
  c.help = "Reports every violation of the module at the cursor (after the event, or `--before` it) with its rule "
           "id, function and location; the phase invariants follow the module's `phase` attribute. `verify each on` "
           "installs the verify-each instrument: the checker runs before the first pass and after every pass that "
           "changed the module, and each violation becomes a diagnostic of that event, so `break diag wf.RULE` stops "
           "there (turning it on rewrites the future). `verify rules` lists the rules and the phases they apply in.";
  c.run = runVerify;
  out.push_back(std::move(c));
}

}  // namespace passlab
