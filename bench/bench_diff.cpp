// Node matcher figures: match + summary + aligned diff on 10k- and 100k-op
// modules after FoldConstant and after FuseOps (time, and memory against one
// snapshot's), and lines marked changed by the plain line diff vs the aligned
// diff for the examples and a generated model. Prints tables; asserts nothing.
// Usage: bench_diff [--match-only | --aligned-only] [--reps N] [--only fold|fuse] [ops...]   (default 10000 100000)
//   --match-only: only the matcher + summary (best of N, default 5), for perf/callgrind runs.
//   --aligned-only: only the aligned diff after one matching (best of N, thread CPU and wall, with
//   its parts), and the load average, since wall time on a shared machine says little alone.
#include <malloc.h>
#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/synthetic_model.h"
#include "core/analysis/type_infer.h"
#include "core/pass/pass.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "core/trace/diff.h"
#include "core/trace/change_summary.h"
#include "core/trace/moved_lines.h"
#include "passes/registry.h"

namespace {

using namespace passlab;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

/// Bytes the allocator holds right now.
double allocatedMiB() { return static_cast<double>(mallinfo2().uordblks) / (1024.0 * 1024.0); }

/// The synthetic CNN-shaped chain with a foldable constant subexpression every
/// 25 ops (`add(%v, multiply(c, c))`), so FoldConstant has work spread over the graph.
std::string foldableModelText(size_t numOps) {
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 16), float32]) {\n";
  std::string prev = "%x";
  size_t n = 0, ops = 0;
  while (ops < numOps) {
    std::string name = "%" + std::to_string(n++);
    if (ops % 25 == 24 && ops + 2 <= numOps) {
      std::string c = "%" + std::to_string(n++);
      text += "  " + name + " = multiply(const(Tensor[(16), float32], [" + std::to_string(ops % 7) +
              ", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]), 2f);\n";
      text += "  " + c + " = add(" + prev + ", " + name + ");\n";
      prev = c;
      ops += 2;
      continue;
    }
    const char* op = ops % 3 == 0 ? "nn.relu" : ops % 3 == 1 ? "sigmoid" : "tanh";
    text += "  " + name + " = " + op + "(" + prev + ");\n";
    prev = name;
    ++ops;
  }
  return text + "  " + prev + "\n}\n";
}

size_t countLines(const std::string& diff) {
  size_t n = 0;
  size_t start = 0;
  while (start < diff.size()) {
    size_t nl = diff.find('\n', start);
    if (nl == std::string::npos) nl = diff.size();
    if (nl > start && (diff[start] == '+' || diff[start] == '-') && diff.compare(start, 3, "+++") != 0 &&
        diff.compare(start, 3, "---") != 0)
      ++n;
    start = nl + 1;
  }
  return n;
}

PassRegistry& registry() {
  static PassRegistry r = [] {
    PassRegistry reg;
    registerBuiltinPasses(reg);
    return reg;
  }();
  return r;
}

IRModule runSpec(const IRModule& mod, const std::string& spec) {
  auto ctx = PassContext::create();
  ctx->optLevel = 3;
  IRModule out = mod;
  for (const PassPtr& p : parsePipeline(spec, registry())->subPasses()) out = runPass(*p, out, *ctx);
  return out;
}

/// CPU time of this thread, in ms: other processes' load leaves it nearly untouched.
double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

/// Minor page faults of this thread so far.
long minorFaults() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_minflt;
}

/// Matcher + summary only, best of `reps` (wall and thread CPU), with the
/// per-op cost (flat when growth is linear) and the page faults of the best run.
void benchMatchOnly(const char* label, size_t ops, const IRModule& before, const IRModule& after, int reps) {
  double matchMs = 1e30, summaryMs = 1e30, cpuMs = 1e30;
  long faults = 0;
  for (int rep = 0; rep < reps; ++rep) {
    long f0 = minorFaults();
    double c0 = threadCpuMs();
    auto t0 = Clock::now();
    auto edits = matchModules(before, after);
    double m = msSince(t0);
    t0 = Clock::now();
    std::string summary = changeSummary(*edits);
    double s = msSince(t0);
    double c = threadCpuMs() - c0;
    if (m + s < matchMs + summaryMs) faults = minorFaults() - f0;
    matchMs = std::min(matchMs, m);
    summaryMs = std::min(summaryMs, s);
    cpuMs = std::min(cpuMs, c);
  }
  std::printf("%-26s %9.1f %9.1f %10.1f %10.1f %10.2f %10ld\n", label, matchMs, summaryMs, matchMs + summaryMs, cpuMs,
              1e6 * cpuMs / static_cast<double>(ops), faults);
}

void benchOne(const char* label, const IRModule& before, const IRModule& after, double snapshotMiB) {
  // Best of 3 for time; memory of the matching held while the diff is made.
  double matchMs = 1e30, summaryMs = 1e30, alignedMs = 1e30, plainMs = 1e30, heldMiB = 0;
  std::string summary;
  size_t plainLines = 0, alignedLines = 0;
  for (int rep = 0; rep < 3; ++rep) {
    double base = allocatedMiB();
    auto t0 = Clock::now();
    auto edits = matchModules(before, after);
    double m = msSince(t0);
    heldMiB = allocatedMiB() - base;
    t0 = Clock::now();
    summary = changeSummary(*edits);
    double s = msSince(t0);
    t0 = Clock::now();
    std::string aligned = alignedDiff(*edits, "before", "after");
    double a = msSince(t0);
    t0 = Clock::now();
    std::string plain = unifiedDiff(printModule(before), printModule(after), "before", "after");
    double p = msSince(t0);
    matchMs = std::min(matchMs, m);
    summaryMs = std::min(summaryMs, s);
    alignedMs = std::min(alignedMs, a);
    plainMs = std::min(plainMs, p);
    plainLines = countLines(plain);
    alignedLines = countLines(aligned);
  }
  std::printf("%-26s %9.1f %9.1f %10.1f %10.1f %10.1f %9.1f %9.1f %8zu %8zu\n", label, matchMs, summaryMs, alignedMs,
              matchMs + summaryMs + alignedMs, plainMs, heldMiB, snapshotMiB, plainLines, alignedLines);
  std::printf("    %s\n", summary.substr(0, 150).c_str());
  // Where the aligned diff's time goes (one run): the two prints with ranges and
  // names, then the line diff with moves marked, then the unified text.
  auto edits = matchModules(before, after);
  auto t0 = Clock::now();
  AlignedPrinted printed = printAlignedWithRanges(*edits);
  double printMs = msSince(t0);
  t0 = Clock::now();
  AlignedLines lines = passlab::alignedLines(*edits);
  double linesMs = msSince(t0);
  t0 = Clock::now();
  std::string text = renderUnifiedDiff(lines.lines, "before", "after");
  double renderMs = msSince(t0);
  std::printf("    aligned diff: prints %.0f ms, prints + line diff + moves %.0f ms, render %.0f ms (%zu lines)\n", printMs, linesMs,
              renderMs, lines.lines.size());
}

/// The aligned diff alone (the matching is done once, outside the timing):
/// best of `reps` in thread CPU and wall, and its parts in thread CPU.
void benchAlignedOnly(const char* label, const IRModule& before, const IRModule& after, int reps) {
  auto edits = matchModules(before, after);
  double cpu = 1e30, wall = 1e30, printCpu = 1e30, linesCpu = 1e30, renderCpu = 1e30;
  size_t marked = 0;
  for (int rep = 0; rep < reps; ++rep) {
    double c0 = threadCpuMs();
    auto t0 = Clock::now();
    std::string aligned = alignedDiff(*edits, "before", "after");
    wall = std::min(wall, msSince(t0));
    cpu = std::min(cpu, threadCpuMs() - c0);
    marked = countLines(aligned);
    c0 = threadCpuMs();
    AlignedPrinted printed = printAlignedWithRanges(*edits);
    printCpu = std::min(printCpu, threadCpuMs() - c0);
    c0 = threadCpuMs();
    AlignedLines lines = passlab::alignedLines(*edits);
    linesCpu = std::min(linesCpu, threadCpuMs() - c0);
    c0 = threadCpuMs();
    std::string text = renderUnifiedDiff(lines.lines, "before", "after");
    renderCpu = std::min(renderCpu, threadCpuMs() - c0);
  }
  std::printf("%-26s %10.1f %10.1f %10.1f %14.1f %10.1f %9zu\n", label, cpu, wall, printCpu, linesCpu, renderCpu, marked);
}

void exampleLines(const char* path, const std::string& spec) {
  IRModule mod = parseModuleFile(std::string(PASSLAB_SOURCE_DIR) + "/" + path);
  auto ctx = PassContext::create();
  ctx->optLevel = 3;
  IRModule cur = mod;
  for (const PassPtr& p : parsePipeline(spec, registry())->subPasses()) {
    IRModule next = runPass(*p, cur, *ctx);
    if (next != cur) {
      auto edits = matchModules(cur, next);
      size_t plain = countLines(unifiedDiff(printModule(cur), printModule(next), "a", "b"));
      size_t aligned = countLines(alignedDiff(*edits, "a", "b"));
      std::printf("  %-34s %-24s %6zu %8zu   %s\n", path, p->info().name.c_str(), plain, aligned,
                  changeSummary(*edits).substr(0, 90).c_str());
    }
    cur = next;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  bool matchOnly = false, alignedOnly = false;
  int reps = 5;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--match-only") matchOnly = true;
    else if (a == "--aligned-only") alignedOnly = true;
    else if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else sizes.push_back(static_cast<size_t>(std::atoll(argv[i])));
  }
  if (sizes.empty()) sizes = {10000, 100000};
  registry();
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) == 3) std::printf("load average %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  if (alignedOnly) {
    std::printf("%-26s %10s %10s %10s %14s %10s %9s\n", "module", "cpu ms", "wall ms", "prints cpu", "+lines+moves", "render cpu",
                "marked ±");
    for (size_t n : sizes) {
      if (only != "fuse") {
        IRModule mod = runSpec(parseModule(foldableModelText(n), "fold.relay"), "InferType");
        benchAlignedOnly(("FoldConstant " + std::to_string(n / 1000) + "k").c_str(), mod, runSpec(mod, "FoldConstant"), reps);
      }
      if (only != "fold") {
        IRModule mod = runSpec(parseModule(bench::syntheticModelText(n), "synthetic.relay"), "InferType");
        benchAlignedOnly(("FuseOps " + std::to_string(n / 1000) + "k").c_str(), mod, runSpec(mod, "FuseOps"), reps);
      }
    }
    if (getloadavg(load, 3) == 3) std::printf("load average %.2f %.2f %.2f\n", load[0], load[1], load[2]);
    return 0;
  }
  if (matchOnly) {
    std::printf("%-26s %9s %9s %10s %10s %10s %10s\n", "module", "match ms", "summ ms", "total ms", "cpu ms", "cpu ns/op", "faults");
    for (size_t n : sizes) {
      if (only != "fuse") {
        IRModule mod = runSpec(parseModule(foldableModelText(n), "fold.relay"), "InferType");
        benchMatchOnly(("FoldConstant " + std::to_string(n / 1000) + "k").c_str(), n, mod, runSpec(mod, "FoldConstant"), reps);
      }
      if (only != "fold") {
        IRModule mod = runSpec(parseModule(bench::syntheticModelText(n), "synthetic.relay"), "InferType");
        benchMatchOnly(("FuseOps " + std::to_string(n / 1000) + "k").c_str(), n, mod, runSpec(mod, "FuseOps"), reps);
      }
    }
    return 0;
  }
  std::printf("%-26s %9s %9s %10s %10s %10s %9s %9s %8s %8s\n", "module", "match ms", "summ ms", "aligned ms",
              "total ms", "plain ms", "held MiB", "snap MiB", "plain ±", "aligned ±");
  for (size_t n : sizes) {
    // FoldConstant on the foldable chain.
    if (only != "fuse") {
      double m0 = allocatedMiB();
      IRModule mod = parseModule(foldableModelText(n), "fold.relay");
      mod = runSpec(mod, "InferType");
      double snapshot = allocatedMiB() - m0;
      IRModule folded = runSpec(mod, "FoldConstant");
      benchOne(("FoldConstant " + std::to_string(n / 1000) + "k").c_str(), mod, folded, snapshot);
    }
    // FuseOps on the CNN-shaped synthetic model.
    if (only != "fold") {
      double m0 = allocatedMiB();
      IRModule mod = parseModule(bench::syntheticModelText(n), "synthetic.relay");
      mod = runSpec(mod, "InferType");
      double snapshot = allocatedMiB() - m0;
      IRModule fused = runSpec(mod, "FuseOps");
      benchOne(("FuseOps " + std::to_string(n / 1000) + "k").c_str(), mod, fused, snapshot);
    }
  }
  if (!only.empty()) return 0;
  std::printf("\nlines marked changed: plain line diff vs aligned diff\n");
  std::printf("  %-34s %-24s %6s %8s   %s\n", "model", "pass", "plain", "aligned", "summary");
  exampleLines("examples/seed000/cnn_fp32.relay", "InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps");
  exampleLines("examples/cnn_block.relay", "InferType,SimplifyExpr,EliminateCommonSubexpr,DeadCodeElimination,FuseOps");
  exampleLines("examples/seed001/cnn_nhwc.relay",
               "InferType,AnnotateTarget{compilers=[ccompiler]},MergeCompilerRegions,PartitionGraph,"
               "ConvertLayout{data_layout=NHWC,kernel_layout=OHWI}");
  exampleLines("examples/seed003/two_blocks.relay",
               "InferType,AnnotateTarget,MergeCompilerRegions,PartitionGraph,Inline,OutlineCompilerFunctions,"
               "MarkCompilerFunctionsAsExtern");
  exampleLines("examples/seed002/model.relay", "LambdaLifting,InferType,ToNonDataflow,LegalizeOps,SimplifyExpr");
  return 0;
}
