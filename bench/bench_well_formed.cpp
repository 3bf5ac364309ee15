// Figures for the well-formed checker on the synthetic models (10k and 100k
// ops): the checker on the typed ingestion module (phase 0, the rules every
// phase shares) and on the same module claiming phase 3, where every phase
// invariant runs and every op call is a violation. Prints a table; asserts
// nothing (target: < 100 ms at 100k ops).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/synthetic_model.h"
#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/ir/functor.h"
#include "core/text/parser.h"

namespace {

using Clock = std::chrono::steady_clock;

/// Best of `reps` runs, to keep other load on the machine out of the figure.
template <class F>
double bestOf(int reps, F&& f) {
  double best = 1e300;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace passlab;
  std::vector<size_t> sizes = {10000, 100000};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  }
  std::printf("%-8s %10s %12s %12s %14s\n", "ops", "nodes", "phase0 ms", "phase3 ms", "phase3 diags");
  for (size_t n : sizes) {
    IRModule mod = inferTypes(parseModule(bench::syntheticModelText(n), "synthetic.relay"));
    size_t nodes = 0;
    postOrderVisit(mod->lookup("main"), [&](const Expr&) { ++nodes; });
    size_t clean = 0, violations = 0;
    double phase0 = bestOf(5, [&] { clean = checkWellFormed(mod).size(); });
    IRModule lowered = withModuleAttrs(mod, {{"phase", AttrValue::integer(3)}});
    double phase3 = bestOf(5, [&] { violations = checkWellFormed(lowered).size(); });
    if (clean != 0) std::printf("unexpected: %zu violations in the ingestion module\n", clean);
    std::printf("%-8zu %10zu %12.1f %12.1f %14zu\n", n, nodes, phase0, phase3, violations);
  }
  return 0;
}
