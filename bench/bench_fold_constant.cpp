// FoldConstant figures: the 10k-op synthetic model (nothing to fold: the cost
// of the analysis alone) and models with N foldable constant chains
// (shape_of -> cast -> strided_slice -> concatenate -> reshape, as exported
// CNNs carry), folded with one nested InferType,FuseOps evaluation. Prints a
// table; asserts nothing. Usage: bench_fold_constant [synthetic_ops] [chains...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/synthetic_model.h"
#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/pass.h"
#include "core/text/parser.h"
#include "core/trace/trace.h"
#include "passes/fold_constant.h"
#include "passes/registry.h"

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

/// `chains` independent constant chains, each feeding a run-time add, the
/// shape plumbing ONNX exporters leave around reshapes.
std::string shapeChainModel(int chains) {
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 64, 14, 14), float32], %y: Tensor[(1, 4), float32]) {\n";
  std::string acc = "%y";
  for (int i = 0; i < chains; ++i) {
    std::string n = std::to_string(i);
    text += "  %s" + n + " = shape_of(%x);\n";
    text += "  %c" + n + " = cast(%s" + n + ", dtype=\"float32\");\n";
    text += "  %l" + n + " = strided_slice(%c" + n + ", begin=[1], end=[4]);\n";
    text += "  %k" + n + " = concatenate((%l" + n + ", const(Tensor[(1), float32], [" + std::to_string(i) + "])));\n";
    text += "  %r" + n + " = reshape(%k" + n + ", newshape=[1, 4]);\n";
    text += "  %a" + n + " = add(" + acc + ", %r" + n + ");\n";
    acc = "%a" + n;
  }
  return text + "  " + acc + "\n}\n";
}

struct Figure {
  double ms = 0;
  size_t opsBefore = 0, opsAfter = 0;
  size_t nestedEvents = 0;
};

/// Best of `reps` FoldConstant runs on a typed module, with a trace recording.
Figure foldBestOf(const passlab::IRModule& mod, int reps) {
  Figure best;
  best.ms = 1e300;
  passlab::PassPtr fold = passlab::createFoldConstantPass();
  for (int i = 0; i < reps; ++i) {
    auto ctx = passlab::PassContext::create();
    auto trace = std::make_shared<passlab::Trace>(mod);
    ctx->instruments().push_back(std::make_shared<passlab::TraceInstrument>(trace));
    auto t0 = Clock::now();
    passlab::IRModule out = passlab::runPass(*fold, mod, *ctx);
    double ms = msSince(t0);
    if (ms < best.ms) {
      best.ms = ms;
      best.opsBefore = passlab::countOpCalls(mod->lookup("main"));
      best.opsAfter = passlab::countOpCalls(out->lookup("main"));
      best.nestedEvents = trace->events().size() - 2;
    }
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  // Registers the passes' config keys (FoldConstant reads its teaching switch).
  passlab::PassRegistry registry;
  passlab::registerBuiltinPasses(registry);
  size_t syntheticOps = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000;
  std::vector<int> chainCounts = {300, 1000};
  if (argc > 2) {
    chainCounts.clear();
    for (int i = 2; i < argc; ++i) chainCounts.push_back(std::atoi(argv[i]));
  }
  std::printf("%-28s %10s %10s %10s %8s\n", "model", "ops", "ops after", "fold ms", "nested");
  {
    passlab::IRModule mod = passlab::inferTypes(passlab::parseModule(passlab::bench::syntheticModelText(syntheticOps), "synthetic.relay"));
    Figure f = foldBestOf(mod, 3);
    std::printf("%-28s %10zu %10zu %10.2f %8zu\n", ("synthetic " + std::to_string(syntheticOps)).c_str(), f.opsBefore, f.opsAfter, f.ms,
                f.nestedEvents);
  }
  for (int chains : chainCounts) {
    passlab::IRModule mod = passlab::inferTypes(passlab::parseModule(shapeChainModel(chains), "chains.relay"));
    Figure f = foldBestOf(mod, 3);
    std::printf("%-28s %10zu %10zu %10.2f %8zu\n", (std::to_string(chains) + " shape chains").c_str(), f.opsBefore, f.opsAfter, f.ms,
                f.nestedEvents);
  }
  return 0;
}
