// Cost of pass remarks (core/pass/remark.h) on synthetic models of 10k and
// 100k ops: the pipeline InferType,FoldConstant,FuseOps recorded by a trace,
// with remarks off (what every run pays: one flag test per place a pass would
// remark) and on (remarks built and kept on the events), best of three runs;
// then the time to query them as the REPL's `remarks` does (every remark named
// by printing each event's module once, grouped by rule). Prints a table;
// asserts nothing.
#include <algorithm>
#include <chrono>
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

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

const char* kPipeline = "InferType,FoldConstant,FuseOps";

struct Run {
  double ms = 0;
  size_t remarks = 0;
  std::shared_ptr<passlab::Trace> trace;
};

Run runOnce(const passlab::IRModule& mod, const passlab::PassRegistry& registry, bool remarks) {
  passlab::PassPtr pipeline = passlab::parsePipeline(kPipeline, registry);
  auto ctx = passlab::PassContext::create("bench");
  ctx->setRemarksEnabled(remarks);
  Run run;
  run.trace = std::make_shared<passlab::Trace>(mod);
  ctx->instruments().push_back(std::make_shared<passlab::TraceInstrument>(run.trace));
  auto t0 = Clock::now();
  passlab::IRModule out = mod;
  for (const passlab::PassPtr& pass : pipeline->subPasses()) out = passlab::runPass(*pass, out, *ctx);
  run.ms = msSince(t0);
  for (const passlab::TraceEvent& e : run.trace->events()) run.remarks += e.remarks.size();
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
  std::printf("pipeline %s, best of 3\n", kPipeline);
  std::printf("%-8s %10s %10s %7s %9s %10s\n", "ops", "off ms", "on ms", "ratio", "remarks", "query ms");
  for (size_t n : sizes) {
    passlab::IRModule mod = passlab::parseModule(passlab::bench::syntheticModelText(n), "synthetic.relay");
    double off = 1e300, on = 1e300;
    Run kept;
    // Alternate so that neither side gets the warmer caches.
    for (int i = 0; i < 3; ++i) {
      off = std::min(off, runOnce(mod, registry, false).ms);
      Run r = runOnce(mod, registry, true);
      on = std::min(on, r.ms);
      kept = std::move(r);
    }
    std::vector<int> order;
    for (const passlab::TraceEvent& e : kept.trace->events()) order.push_back(e.id);
    auto t0 = Clock::now();
    std::vector<passlab::RemarkHit> hits = passlab::findRemarks(*kept.trace, order, passlab::PrintOptions{}, {});
    std::vector<passlab::RemarkEventSummary> summary = passlab::summarizeRemarks(hits);
    double queryMs = msSince(t0);
    std::printf("%-8zu %10.1f %10.1f %6.3fx %9zu %10.1f\n", n, off, on, on / off, kept.remarks, queryMs);
    if (hits.size() != kept.remarks || summary.empty()) std::printf("  (query found %zu remarks)\n", hits.size());
  }
  return 0;
}
