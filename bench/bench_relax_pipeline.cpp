// relax.default on a real imported model: the MobileNetV3-shaped ONNX model
// (bench/make_mobilenetv3_onnx.py --dynamic, bound to 1x3x96x96) imported,
// printed as TVMScript and read back (a Relax module), then run through
// relax.default as it is (LegalizeOps writes batch_norm's own kernel), and
// after DecomposeOpsForInference (batch_norm as elementwise ops, which TVM's
// relax.build pipelines for inference run first) relax.default and
// relax.zero; and, on the same model in Relay form, relay.default. Each
// figure is the best of N runs of the pipeline on a bare context (no
// instruments), both as wall time and as this thread's CPU time (the machine
// is shared: CPU time is what a pass costs, wall time what a user waits).
// Prints a table and the load average; asserts nothing.
//
// Usage: bench_relax_pipeline [MODEL.onnx] [--runs N] [--only SPEC]
//   (default model: generates one with /usr/bin/python3; --only times that one pipeline
//   on the Relax form, or on the Relay form when SPEC starts with "relay.")
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench/generated_model.h"
#include "core/frontend/onnx_importer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "passes/registry.h"

using namespace passlab;

namespace {

size_t opCalls(const IRModule& mod) {
  size_t n = 0;
  for (const auto& [name, fn] : mod->functions)
    if (as<FunctionNode>(fn))
      postOrderVisit(fn, [&](const Expr& e) {
        const auto* c = as<CallNode>(e);
        n += c && c->op() ? 1 : 0;
      });
  return n;
}

struct Figure {
  double bestMs = 0;     ///< wall
  double bestCpuMs = 0;  ///< this thread's CPU time
  IRModule out;
};

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

Figure timePipeline(const PassRegistry& registry, const std::string& spec, const IRModule& mod, int runs) {
  PassPtr pipeline = parsePipeline(spec, registry, "bench");
  Figure f;
  for (int i = 0; i < runs; ++i) {
    PassContextPtr ctx = PassContext::create();
    f.out = nullptr;  // the previous run's output is freed outside the timed region
    auto t0 = std::chrono::steady_clock::now();
    double c0 = threadCpuMs();
    f.out = runPass(*pipeline, mod, *ctx);
    double cpu = threadCpuMs() - c0;
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    f.bestMs = i == 0 ? ms : std::min(f.bestMs, ms);
    f.bestCpuMs = i == 0 ? cpu : std::min(f.bestCpuMs, cpu);
  }
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::string model;
  std::string only;
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "usage: bench_relax_pipeline [MODEL.onnx] [--runs N] [--only SPEC] (unknown option '%s')\n", a.c_str());
      return 2;
    } else model = a;
  }
  if (model.empty()) {
    model = passlab::bench::generateMobileNetV3Model();
    if (model.empty()) return 1;
  }
  PassRegistry registry;
  registerBuiltinPasses(registry);
  OnnxImportOptions options;
  options.inputShapes["input"] = {1, 3, 96, 96};
  IRModule relay;
  try {
    relay = importOnnx(model, options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_relax_pipeline: %s\n", e.what());
    return 1;
  }
  PrintOptions tvmscript;
  tvmscript.syntax = TextSyntax::TVMScript;
  std::string text = printModule(relay, tvmscript);
  IRModule relax = parseModule(text, "mobilenetv3.py");
  std::printf("%s: %zu ops (Relay form), %zu ops (Relax form, %zu bytes of TVMScript); best of %d runs\n", model.c_str(),
              opCalls(relay), opCalls(relax), text.size(), runs);
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) == 3) std::printf("load average: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  std::printf("%-50s %10s %10s %10s\n", "pipeline", "wall ms", "CPU ms", "ops after");
  auto row = [&](const std::string& spec, const IRModule& mod) {
    try {
      Figure f = timePipeline(registry, spec, mod, runs);
      std::printf("%-50s %10.1f %10.1f %10zu\n", spec.c_str(), f.bestMs, f.bestCpuMs, opCalls(f.out));
    } catch (const std::exception& e) {
      std::printf("%-50s   failed: %s\n", spec.c_str(), e.what());
    }
  };
  if (!only.empty()) {
    row(only, only.rfind("relay.", 0) == 0 ? relay : relax);
    return 0;
  }
  row("relax.default", relax);
  row("DecomposeOpsForInference", relax);
  row("DecomposeOpsForInference,relax.default", relax);
  row("DecomposeOpsForInference,relax.zero", relax);
  row("relay.default", relay);
  return 0;
}
