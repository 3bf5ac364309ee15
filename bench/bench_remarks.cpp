// Cost of pass remarks (core/pass/remark.h) on synthetic models of 10k and
// 100k ops: the pipeline InferType,FoldConstant,FuseOps recorded by a trace,
// with remarks off (what every run pays: one flag test per place a pass would
// remark) and on (remarks built and kept on the events), best of three runs;
// then the time to query them as the REPL's `remarks` does (every remark named
// by printing each event's module once, grouped by rule). The best of 7 runs
// (3 for models over 20k ops), off and on alternating, so load on a shared
// machine hits both alike; times are this thread's CPU time. The last column
// is the median over the runs of each on run's time over the off run just
// before it: on a loaded machine the best-of-N times can come from different
// quiet moments, the pairs' median does not. Prints a table; asserts nothing.
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench/synthetic_model.h"
#include "core/pass/registry.h"
#include "core/text/parser.h"
#include "core/trace/trace.h"
#include "core/workbench/remarks.h"
#include "passes/registry.h"

namespace {

/// CPU time of this thread in milliseconds: on a machine shared with other
/// builds, wall time mostly measures the wait for a core.
double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

const char* kPipeline = "InferType,FoldConstant,FuseOps";

struct Run {
  /// The pipeline alone, and the pipeline plus dropping what it recorded (a
  /// remark keeps the nodes it names alive, so with remarks on some nodes are
  /// freed when the trace goes rather than during the passes).
  double ms = 0;
  double withFreeMs = 0;
  size_t remarks = 0;
  std::shared_ptr<passlab::Trace> trace;
};

Run runOnce(const passlab::IRModule& mod, const passlab::PassRegistry& registry, bool remarks, bool keep) {
  passlab::PassPtr pipeline = passlab::parsePipeline(kPipeline, registry);
  auto ctx = passlab::PassContext::create("bench");
  ctx->setRemarksEnabled(remarks);
  Run run;
  run.trace = std::make_shared<passlab::Trace>(mod);
  ctx->instruments().push_back(std::make_shared<passlab::TraceInstrument>(run.trace));
  double t0 = cpuMs();
  {
    passlab::IRModule out = mod;
    for (const passlab::PassPtr& pass : pipeline->subPasses()) out = passlab::runPass(*pass, out, *ctx);
  }
  run.ms = cpuMs() - t0;
  for (const passlab::TraceEvent& e : run.trace->events()) run.remarks += e.remarks.size();
  if (!keep) {
    ctx->instruments().clear();
    run.trace.reset();
  }
  run.withFreeMs = cpuMs() - t0;
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes = {10000, 100000};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  }
  passlab::PassRegistry registry;
  passlab::registerBuiltinPasses(registry);
  std::printf("pipeline %s\n", kPipeline);
  std::printf("%-8s %10s %10s %7s %12s %12s %7s %9s %10s %12s\n", "ops", "off ms", "on ms", "ratio", "off+free ms", "on+free ms",
              "ratio", "remarks", "query ms", "pair median");
  for (size_t n : sizes) {
    passlab::IRModule mod = passlab::parseModule(passlab::bench::syntheticModelText(n), "synthetic.relay");
    double off = 1e300, on = 1e300, offFree = 1e300, onFree = 1e300;
    size_t count = 0;
    std::vector<double> pairs;
    // Alternate so that load from other processes hits both sides alike.
    const int reps = n <= 20000 ? 7 : 3;
    for (int i = 0; i < reps; ++i) {
      Run a = runOnce(mod, registry, false, false);
      off = std::min(off, a.ms);
      offFree = std::min(offFree, a.withFreeMs);
      Run b = runOnce(mod, registry, true, false);
      on = std::min(on, b.ms);
      onFree = std::min(onFree, b.withFreeMs);
      count = b.remarks;
      pairs.push_back(b.ms / a.ms);
    }
    Run kept = runOnce(mod, registry, true, true);
    std::vector<int> order;
    for (const passlab::TraceEvent& e : kept.trace->events()) order.push_back(e.id);
    double t0 = cpuMs();
    std::vector<passlab::RemarkHit> hits = passlab::findRemarks(*kept.trace, order, passlab::PrintOptions{}, {});
    std::vector<passlab::RemarkEventSummary> summary = passlab::summarizeRemarks(hits);
    double queryMs = cpuMs() - t0;
    std::sort(pairs.begin(), pairs.end());
    const double pairMedian = pairs.size() % 2 ? pairs[pairs.size() / 2] : (pairs[pairs.size() / 2 - 1] + pairs[pairs.size() / 2]) / 2;
    std::printf("%-8zu %10.1f %10.1f %6.3fx %12.1f %12.1f %6.3fx %9zu %10.1f %11.3fx\n", n, off, on, on / off, offFree, onFree,
                onFree / offFree, count, queryMs, pairMedian);
    if (hits.size() != count || summary.empty()) std::printf("  (query found %zu remarks)\n", hits.size());
  }
  return 0;
}
