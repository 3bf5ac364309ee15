// Figures for the HTML report (report/html_report.h): the time to write it
// and its size, for the example scenarios and for synthetic models of 700,
// 10k and 100k ops run through the default build pipeline. The report is
// written after the run, so the pipeline's own time is shown apart.
// Prints a table; asserts nothing.
//   bench_report [--quick]   (--quick: leave out the 100k-op model)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "bench/synthetic_model.h"
#include "core/workbench/workbench.h"
#include "passes/build_pipeline.h"
#include "passes/registry.h"
#include "repl/interpreter.h"
#include "report/html_report.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace passlab;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

std::shared_ptr<PassRegistry> builtinRegistry() {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  return registry;
}

void printRow(const std::string& name, const Workbench& wb, double runMs) {
  // The first report pays for the node matching of every event (cached
  // afterwards, as in an interactive session); the second is the writer alone.
  auto start = Clock::now();
  ReportStats stats;
  std::string html = renderHtmlReport(wb, {}, &stats);
  double firstMs = msSince(start);
  start = Clock::now();
  html = renderHtmlReport(wb, {}, &stats);
  double againMs = msSince(start);
  std::printf("%-28s %7zu %9.0f %10.0f %10.0f %10.2f %7d %7d %7d\n", name.c_str(), wb.trace().events().size(), runMs, firstMs,
              againMs, static_cast<double>(stats.bytes) / (1024.0 * 1024.0), stats.changedEvents, stats.diffs, stats.texts);
  std::fflush(stdout);
}

void syntheticRow(size_t ops) {
  Workbench wb(builtinRegistry());
  wb.loadText(bench::syntheticModelText(ops), "synthetic");
  wb.setPipeline(defaultBuildPipeline());
  auto start = Clock::now();
  wb.run();
  double runMs = msSince(start);
  printRow("synthetic " + std::to_string(ops) + " ops", wb, runMs);
}

void exampleRow(const std::string& source, const std::string& script) {
  Workbench wb(builtinRegistry());
  CommandInterpreter interpreter(wb);
  std::filesystem::path cwd = std::filesystem::current_path();
  std::filesystem::current_path(source);
  auto start = Clock::now();
  interpreter.runLine("source --keep-going " + script);
  double runMs = msSince(start);
  std::filesystem::current_path(cwd);
  printRow(script, wb, runMs);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  std::printf("HTML report: write time and size (pipeline: %s for the synthetic models)\n",
              std::string(defaultBuildPipeline()).c_str());
  std::printf("%-28s %7s %9s %10s %10s %10s %7s %7s %7s\n", "run", "events", "run ms", "report ms", "again ms", "MiB", "changed",
              "diffs", "texts");
  for (const char* example : {"seed000", "seed001", "seed002", "seed003", "seed004"})
    exampleRow(PASSLAB_SOURCE_DIR, std::string("examples/") + example + "/run.cmds");
  syntheticRow(700);
  syntheticRow(10000);
  if (!quick) syntheticRow(100000);
  return 0;
}
