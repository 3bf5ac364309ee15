// Figures for the pass manager and the workbench on synthetic models:
//  - a 20-pass pipeline run with full tracing (the workbench) vs. with no
//    instruments at all (runPass on a bare context): time ratio;
//  - the memory of every snapshot in the trace relative to one module, counted
//    as distinct IR nodes reachable from all snapshots / nodes of one module
//    (snapshots share unchanged structure, so this is what they cost);
//  - step and back latency on the recorded trace.
// Prints a table; asserts nothing.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "bench/synthetic_model.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "core/text/parser.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

/// Twenty passes that each walk the whole model; several of them rewrite it.
std::string twentyPassPipeline() {
  std::string spec;
  for (int i = 0; i < 5; ++i) spec += std::string(i ? "," : "") + "InferType,SimplifyExpr,EliminateCommonSubexpr,DeadCodeElimination";
  return spec;
}

/// Adds every node reachable from the functions of `mod` to `seen`.
void collectNodes(const passlab::IRModule& mod, std::unordered_set<const passlab::ExprNode*>& seen) {
  for (const auto& [name, fn] : mod->functions)
    passlab::postOrderVisit(fn, [&seen](const passlab::Expr& e) { seen.insert(e.get()); },
                            [&seen](const passlab::Expr& e) { return !seen.count(e.get()); });
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes = {10000, 100000};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  }
  auto registry = std::make_shared<passlab::PassRegistry>();
  passlab::registerBuiltinPasses(*registry);
  const std::string spec = twentyPassPipeline();

  std::printf("%-8s %12s %12s %7s %12s %10s %10s %10s\n", "ops", "bare ms", "traced ms", "ratio", "snap/module", "back ms",
              "step ms", "replay ms");
  for (size_t n : sizes) {
    std::string text = passlab::bench::syntheticModelText(n);

    // No instruments: the pipeline on a bare root context.
    passlab::IRModule mod = passlab::parseModule(text, "synthetic.relay");
    passlab::PassPtr pipeline = passlab::parsePipeline(spec, *registry);
    auto bareCtx = passlab::PassContext::create("bench");
    auto t0 = Clock::now();
    passlab::IRModule bareResult = passlab::runPass(*pipeline, mod, *bareCtx);
    double bareMs = msSince(t0);

    // Full tracing: the workbench runs the same pipeline pass by pass.
    passlab::Workbench bench(registry);
    bench.loadText(text, "synthetic.relay");
    bench.setPipeline(spec);
    t0 = Clock::now();
    bench.run();
    double tracedMs = msSince(t0);

    // Snapshot cost: distinct nodes across all snapshots vs. one module.
    std::unordered_set<const passlab::ExprNode*> all;
    for (const passlab::TraceEvent& e : bench.trace().events()) {
      if (e.before) collectNodes(e.before, all);
      if (e.after) collectNodes(e.after, all);
    }
    std::unordered_set<const passlab::ExprNode*> one;
    collectNodes(bench.trace().events().back().after, one);
    double snapshotRatio = one.empty() ? 0 : static_cast<double>(all.size()) / static_cast<double>(one.size());

    // Latency of moves on the recorded trace: back, then forward over recorded events.
    const int kMoves = 10;
    t0 = Clock::now();
    for (int i = 0; i < kMoves; ++i) bench.back(1);
    double backMs = msSince(t0) / kMoves;
    t0 = Clock::now();
    for (int i = 0; i < kMoves; ++i) bench.step(1);
    double replayMs = msSince(t0) / kMoves;
    // A step that really runs a pass: reload (a fresh trace) and run the first pass.
    bench.loadText(text, "synthetic.relay");
    bench.setPipeline(spec);
    t0 = Clock::now();
    bench.step(1);
    double stepMs = msSince(t0);

    std::printf("%-8zu %12.1f %12.1f %7.2f %12.2f %10.3f %10.3f %10.3f\n", n, bareMs, tracedMs, tracedMs / bareMs,
                snapshotRatio, backMs, stepMs, replayMs);
    (void)bareResult;
  }
  std::printf("(snap/module: distinct IR nodes held by all snapshots / nodes of one module)\n");
  return 0;
}
