// The reduce command: shrink the module at the cursor while a predicate keeps
// holding after the rest of the pipeline (core/workbench/reduce.h).
#include <cstdio>
#include <fstream>

#include "core/workbench/reduce.h"
#include "core/workbench/reproducer.h"
#include "repl/command_util.h"
#include "core/support/strings.h"

namespace passlab {
namespace {

using namespace command_util;

std::string plural(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

std::string secondsText(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

void runReduce(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  const Command& self = *ctx.interpreter.find("reduce");
  bool noTime = args.takeFlag("--no-time");
  std::string outPath, reproPath;
  ReduceOptions options;
  std::vector<std::string> words;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& w = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw WorkbenchError("'" + w + "' needs a value");
      return args[++i];
    };
    if (w == "-o") {
      outPath = value();
    } else if (w == "--repro") {
      reproPath = value();
    } else if (w == "--max-runs") {
      options.maxRuns = parseCount(value());
    } else if (w == "--only") {
      for (std::string& item : splitList(value())) options.reductions.push_back(std::move(item));
    } else {
      words.push_back(w);
    }
  }
  if (words.empty()) return result.fail(usage(self));
  BisectPredicate predicate = parseBisectPredicate(words);
  Workbench& wb = ctx.workbench;
  std::function<void(const ReduceProgress&)> progress;
  if (ctx.interpreter.statusLine)
    progress = [&ctx](const ReduceProgress& p) {
      ctx.interpreter.statusLine({"reduce round " + std::to_string(p.round) + " " + p.reduction + " (chunk " + std::to_string(p.chunk) +
                                  "): " + std::to_string(p.opsBefore) + " -> " + std::to_string(p.opsNow) + " ops, " +
                                  std::to_string(p.runs) + " runs, " + secondsText(p.seconds) + "  (Ctrl-C keeps the best so far)"});
    };
  ReduceJob job = reduceJobAt(wb);
  ReduceResult r = reduceAtCursor(wb, predicate, options, progress);

  std::string out = "reduce: " + describeBisectPredicate(r.predicate) + ", after " + job.pipeline + "\n";
  out += "  ops " + std::to_string(r.opsBefore) + " -> " + std::to_string(r.opsAfter) + ", functions " +
         std::to_string(r.functionsBefore) + " -> " + std::to_string(r.functionsAfter) + "; " +
         plural(r.runs, "pipeline run", "pipeline runs") + ", " + plural(r.illTyped, "ill-typed candidate", "ill-typed candidates") +
         " skipped, " + plural(r.rounds, "round", "rounds") + (noTime ? "" : ", " + secondsText(r.seconds)) + "\n";
  std::string kept;
  for (const ReductionStats& s : r.reductions)
    if (s.tried > 0) kept += (kept.empty() ? "" : ", ") + s.name + " " + std::to_string(s.accepted) + "/" + std::to_string(s.tried);
  if (!kept.empty()) out += "  kept/tried: " + kept + "\n";
  if (r.interrupted) out += ctx.style.yellow("  stopped early (" + r.stopReason + "): the best module so far is kept") + "\n";
  out += "  still holds: " + r.detail + "\n";
  if (outPath.empty()) out += r.text;
  if (!outPath.empty()) {
    std::ofstream file(outPath, std::ios::binary);
    file << r.text;
    if (!file) throw WorkbenchError("cannot write '" + outPath + "'");
    out += "wrote the reduced module to " + outPath + "\n";
  }
  if (!reproPath.empty()) {
    std::string written = writeReproducer(reproPath, r.reproducer);
    out += "wrote a reproducer to " + written + "; replay with `passlab --reproduce " + reproPath + "`\n";
  }
  result.out(out);
}

}  // namespace

void addReduceCommands(std::vector<Command>& out) {
  Command c;
  c.name = "reduce";
  c.syntax = {"reduce fails [<pass>] [<rule>] [-o <file>] [--repro <file>] [--max-runs <n>] [--only <reductions>] [--no-time]",
              "reduce diag <rule> [-o <file>] [--repro <file>]", "reduce numeric [>] <threshold> [abs|rel] [-o <file>]",
              "reduce attr [@<function>] <attr> [present|absent|<value>] [-o <file>]", "reduce wellformed [-o <file>]"};
  c.summary = "Shrink the module at the cursor while a predicate keeps holding after the rest of the pipeline";
  c.help = "Takes the module at the cursor (at a failed or nested event: the module before its top-level pass) and the "
           "pipeline passes from there on, with the current configuration, and shrinks the module delta-debugging "
           "style until no reduction keeps the predicate true: remove functions, replace calls by new parameters "
           "(cutting what fed them), bypass calls (an argument of the same type or zeros stand in), inline "
           "single-use functions, drop attributes, shrink constants and parameter shapes. Each reduction tries "
           "halves, quarters, ... of its targets at once; every candidate is type-checked before the pipeline runs "
           "on it in a scratch workbench (the trace here is not touched). Predicates are bisect's: `fails [PASS] "
           "[RULE]` (without RULE, pinned to the original failure's rule so the reduction cannot slip to another "
           "bug), `diag RULE`, `numeric [>] T` (the candidate against itself before the pipeline), `attr`, "
           "`wellformed` (not `differs FILE`: any shrinking of the input changes the output, so it would hold for almost "
           "every candidate; `bisect differs FILE` takes it). Prints a summary and the reduced module (`-o FILE` writes it there instead), `--repro FILE` a "
           "reproducer that replays the pipeline and re-checks the predicate (`passlab --reproduce FILE`). "
           "`--max-runs N` bounds the pipeline runs, `--only inputs,bypass` picks reductions; Ctrl-C stops and "
           "keeps the best module so far.";
  c.run = runReduce;
  out.push_back(std::move(c));
}

}  // namespace passlab
