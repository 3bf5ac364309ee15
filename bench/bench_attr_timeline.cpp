// Figures for the attribute timeline (Workbench::attrTimeline) on synthetic
// models: the seed-003 pipeline (partition for ccompiler, inline, outline,
// mark extern) turns the chain into thousands of partition functions whose
// Compiler/Primitive/Inline/global_symbol/Extern attributes change at
// several events. Times the whole table, a changed-only table, a key filter
// and a one-function filter (best of 5 each; the passes themselves are run
// once, before timing). Prints a table; asserts nothing. Target: < 100 ms at 100k ops.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "bench/synthetic_model.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

/// CPU time of this thread in milliseconds: on a shared machine wall time
/// mostly measures the other processes.
double cpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct Timing {
  double wallMs = 1e300;
  double cpuMs = 1e300;
};

/// Best of `runs` timings of building a table with `query`, in milliseconds.
/// The tables are kept until all runs are done: what a face pays is building
/// the table it keeps, not freeing the previous one.
Timing bestOf(int runs, const passlab::Workbench& wb, const passlab::AttrTimelineQuery& query, passlab::AttrTimeline* keep = nullptr) {
  Timing best;
  std::vector<passlab::AttrTimeline> tables;
  tables.reserve(static_cast<size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    Clock::time_point start = Clock::now();
    double cpuStart = cpuMs();
    tables.push_back(wb.attrTimeline(query));
    best.cpuMs = std::min(best.cpuMs, cpuMs() - cpuStart);
    best.wallMs = std::min(best.wallMs, msSince(start));
  }
  if (keep) *keep = std::move(tables.back());
  return best;
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
  const std::string spec =
      "InferType,AnnotateTarget,MergeCompilerRegions,PartitionGraph,Inline,OutlineCompilerFunctions,"
      "MarkCompilerFunctionsAsExtern";

  std::printf("%-8s %8s %6s %7s %5s %18s %18s %18s %18s\n", "ops", "pipe s", "funcs", "rows", "cols", "full cpu/wall ms",
              "changed cpu/wall", "keys cpu/wall", "one fn cpu/wall");
  for (size_t n : sizes) {
    passlab::Workbench wb(registry);
    wb.loadText(passlab::bench::syntheticModelText(n), "synthetic.relay");
    wb.setPipeline(spec);
    Clock::time_point start = Clock::now();
    wb.run();
    double pipelineSeconds = msSince(start) / 1000;
    size_t functions = wb.moduleAt(wb.cursor(), passlab::Side::After)->functions.size();

    passlab::AttrTimeline full;
    Timing fullMs = bestOf(5, wb, {}, &full);
    passlab::AttrTimelineQuery changed;
    changed.changedOnly = true;
    Timing changedMs = bestOf(5, wb, changed);
    passlab::AttrTimelineQuery keys;
    keys.keys = {"Compiler", "Extern"};
    Timing keysMs = bestOf(5, wb, keys);
    passlab::AttrTimelineQuery one;
    one.function = "tvmgen_default_ccompiler_main_0";
    Timing oneMs = bestOf(5, wb, one);
    auto cell = [](const Timing& t) {
      static char buf[4][32];
      static int next = 0;
      char* out = buf[next++ % 4];
      std::snprintf(out, 32, "%.2f/%.2f", t.cpuMs, t.wallMs);
      return out;
    };
    std::printf("%-8zu %8.2f %6zu %7zu %5zu %18s %18s %18s %18s\n", n, pipelineSeconds, functions, full.rows.size(),
                full.events.size(), cell(fullMs), cell(changedMs), cell(keysMs), cell(oneMs));
  }
  return 0;
}
