// `run --host` on a MobileNetV3-style model imported from ONNX at 96x96
// (bench/make_mobilenetv3_onnx.py --dynamic, bound with --input-shape), after
// the default pipeline has lowered it: the whole command (JIT compile, the
// compiled run, the reference, the comparison) with the graph-level reference,
// again with its outputs cached, and, with --tir, against the TIR interpreter
// (tens of seconds). Prints figures; asserts nothing.
//
// The JIT reuses kernel objects from its cache directory: run with
// PASSLAB_CACHE_DIR=off for a cold compile (2.5 s of the first figure then).
//
// Usage: bench_run_reference [--tir] [MODEL.onnx]   (default: generates one with /usr/bin/python3)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench/generated_model.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/interpreter.h"

using namespace passlab;

namespace {

/// CPU time of the whole process (every thread: the JIT and the kernels may use
/// several), user + system, in seconds; on a loaded machine it says more than wall time.
double processCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// Runs `line`, prints its first output line, the wall and the CPU time; exits on failure.
double timed(CommandInterpreter& interpreter, const std::string& line) {
  double cpu0 = processCpuSeconds();
  auto t0 = std::chrono::steady_clock::now();
  CommandResult r = interpreter.runLine(line);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu = processCpuSeconds() - cpu0;
  if (!r.ok()) {
    std::fprintf(stderr, "`%s` failed:\n%s%s", line.c_str(), r.output().c_str(), r.error().c_str());
    std::exit(1);
  }
  std::string out = r.output();
  std::printf("  %-34s %8.2f s wall %8.2f s cpu   %s\n", line.c_str(), s, cpu, out.substr(0, out.find('\n')).c_str());
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  bool tir = false;
  std::string model;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--tir") tir = true;
    else model = a;
  }
  if (model.empty()) {
    model = passlab::bench::generateMobileNetV3Model();
    if (model.empty()) return 1;
  }
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb(registry);
  CommandInterpreter interpreter(wb);
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) == 3) std::printf("load average %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  std::printf("run --host on %s, input 1x3x96x96\n", model.c_str());
  timed(interpreter, "load --input-shape \"input=1,3,96,96\" \"" + model + "\"");
  // The pipeline the codegen tests build with: FuseOps' groups become PrimFuncs called through call_tir.
  timed(interpreter, "pipeline InferType,SimplifyInference,FoldConstant,FuseOps,LambdaLifting,LegalizeOps");
  timed(interpreter, "run");
  timed(interpreter, "run --host");
  timed(interpreter, "run --host");
  if (tir) timed(interpreter, "run --host --tir-reference");
  if (getloadavg(load, 3) == 3) std::printf("load average %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  return 0;
}
