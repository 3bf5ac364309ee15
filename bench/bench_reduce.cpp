// The reducer on its two targets: a generated model with one planted failure
// (nn.layer_norm, which LegalizeOps cannot lower, deep inside a CNN-shaped
// chain), reduced from the loaded module and from the failed pass; and the
// seed-000 leak (relay.FoldConstant.inherit_executor_leak) reduced to what
// still triggers provenance.module-attr-leak. Prints ops before -> after, the
// reduction ratio, pipeline runs and wall time.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "bench/synthetic_model.h"
#include "core/workbench/reduce.h"
#include "passes/registry.h"

using namespace passlab;

namespace {

void report(const char* what, const ReduceResult& r) {
  std::printf("%-52s %6d -> %3d ops  (%6.1fx)  %4d runs  %5d ill-typed  %2d rounds  %7.2f s%s\n", what, r.opsBefore, r.opsAfter,
              r.opsAfter > 0 ? static_cast<double>(r.opsBefore) / r.opsAfter : 0.0, r.runs, r.illTyped, r.rounds, r.seconds,
              r.interrupted ? "  (stopped early)" : "");
  std::string kept;
  for (const ReductionStats& s : r.reductions)
    if (s.tried) kept += " " + s.name + " " + std::to_string(s.accepted) + "/" + std::to_string(s.tried);
  std::printf("    kept/tried:%s\n", kept.c_str());
}

BisectPredicate parse(const char* text) {
  std::vector<std::string> words;
  std::string w;
  for (const char* p = text;; ++p) {
    if (*p == ' ' || *p == '\0') {
      if (!w.empty()) words.push_back(w);
      w.clear();
      if (*p == '\0') break;
    } else {
      w += *p;
    }
  }
  return parseBisectPredicate(words);
}

}  // namespace

int main(int argc, char** argv) {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  const char* lowering = "InferType,FuseOps,LambdaLifting,LegalizeOps";
  const size_t sizes[] = {1000, 2000};
  const size_t count = argc > 1 && std::string(argv[1]) == "--quick" ? 1 : 2;

  for (size_t i = 0; i < count; ++i) {
    const size_t ops = sizes[i];
    Workbench wb(registry);
    wb.loadText(bench::syntheticModelTextWithFailure(ops, ops * 7 / 10), "planted.relay");
    wb.setPipeline(lowering);
    std::string title = std::to_string(ops) + "-op model, layer_norm at 70%, from #0 (" + "4 passes)";
    report(title.c_str(), reduceAtCursor(wb, parse("fails LegalizeOps")));
    auto t0 = std::chrono::steady_clock::now();
    wb.run();
    double runMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    title = std::to_string(ops) + "-op model, from the failed LegalizeOps";
    report(title.c_str(), reduceAtCursor(wb, parse("fails")));
    std::printf("    (one pipeline run on the full model: %.0f ms)\n", runMs);
  }

  Workbench wb(registry);
  wb.load(std::string(PASSLAB_SOURCE_DIR) + "/examples/seed000/cnn_fp32.relay");
  wb.setPipeline("InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps");
  wb.setTarget("hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b");
  wb.setModuleAttr("executor", "kind", AttrValue::string("graph"));
  wb.setModuleAttr("executor", "link-params", AttrValue::integer(1));
  wb.setConfig("relay.FoldConstant.inherit_executor_leak", AttrValue::boolean(true));
  ReduceResult leak = reduceAtCursor(wb, parse("diag provenance.module-attr-leak"));
  report("seed 000 leak: diag provenance.module-attr-leak", leak);
  std::printf("--- reduced seed-000 module ---\n%s", leak.text.c_str());
  return 0;
}
