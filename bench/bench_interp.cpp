// Throughput of the reference interpreter's heaviest kernels, one thread:
// conv2d (1x64x56x56, 3x3, 64 filters, pad 1) and dense (1x1024 and 64x1024
// by 1024x1024), float32 and float16. Prints a table; asserts nothing.
//
// Each figure is the best of several timed runs of a whole op call through
// evaluateExpr (constant arguments), so it includes layout handling and the
// float16 conversions, not just the GEMM.
//
// Then whole-model evaluation of the synthetic 10k- and 100k-op models
// (bench/synthetic_model.h): wall time and peak resident memory, which shows
// that intermediates are released as the evaluation goes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "bench/synthetic_model.h"
#include "core/interp/interpreter.h"
#include "core/ir/expr.h"
#include "core/text/parser.h"

using namespace passlab;

namespace {

NDArray randomArray(DataType dtype, std::vector<int64_t> shape, uint32_t seed) {
  NDArray a(dtype, std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int64_t i = 0; i < a.numElements(); ++i) a.setFromDouble(i, dist(rng));
  return a;
}

struct Measurement {
  double bestSeconds = 0;
  int runs = 0;
};

/// Runs `call` until at least `minRuns` runs and `minSeconds` have passed; keeps the best time.
Measurement measure(const Expr& call, int minRuns = 3, double minSeconds = 1.0) {
  evaluateExpr(call);  // warm-up: page in buffers, settle the caches
  Measurement m;
  m.bestSeconds = 1e30;
  double total = 0;
  while (m.runs < minRuns || total < minSeconds) {
    auto start = std::chrono::steady_clock::now();
    Value v = evaluateExpr(call);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m.bestSeconds = std::min(m.bestSeconds, s);
    total += s;
    ++m.runs;
  }
  return m;
}

void report(const char* op, const std::string& shape, DataType dtype, double flops, const Measurement& m) {
  std::printf("%-10s %-34s %-8s %10.3f ms %8.2f GFLOP/s  (best of %d)\n", op, shape.c_str(), std::string(dtype.name()).c_str(),
              m.bestSeconds * 1e3, flops / m.bestSeconds / 1e9, m.runs);
}

/// Peak resident set size of this process so far, in MiB.
double peakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

/// Parses the synthetic model of `numOps` ops and evaluates @main once on random inputs.
void evaluateSyntheticModel(size_t numOps) {
  IRModule mod = parseModule(bench::syntheticModelText(numOps), "synthetic");
  const FunctionNode* main = mod->lookupFunction("main");
  std::vector<Value> args;
  uint32_t seed = 10;
  for (const Var& p : main->params) {
    const auto* type = as<TensorTypeNode>(p->annotation);
    // Small weights keep the long chain of residual blocks finite.
    NDArray a = randomArray(type->dtype, type->shape, seed++);
    for (int64_t i = 0; i < a.numElements(); ++i) a.setFromDouble(i, a.getAsDouble(i) * 0.05);
    args.emplace_back(a);
  }
  double before = peakRssMiB();
  auto start = std::chrono::steady_clock::now();
  Value out = evaluate(mod, "main", args);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-10s %-34s %-8s %10.3f s  %8.0f ops/s  peak RSS %.0f MiB (%.0f MiB before evaluation)\n", "model",
              (std::to_string(numOps) + "-op synthetic @main").c_str(), "float32", s, static_cast<double>(numOps) / s, peakRssMiB(),
              before);
}

}  // namespace

int main() {
  std::printf("passlab interpreter kernels, one thread\n");
  std::printf("%-10s %-34s %-8s %13s %16s\n", "op", "shape", "dtype", "time", "throughput");
  for (DTypeCode code : {DTypeCode::Float32, DTypeCode::Float16}) {
    DataType dtype = code;
    // conv2d: 2 * N * O * OH * OW * C * KH * KW flops.
    NDArray data = randomArray(dtype, {1, 64, 56, 56}, 1);
    NDArray weight = randomArray(dtype, {64, 64, 3, 3}, 2);
    Expr conv = makeOpCall(OpId::Conv2D, {makeConstant(data), makeConstant(weight)},
                           {{"padding", AttrValue::ints({1, 1})}, {"channels", AttrValue::integer(64)},
                            {"kernel_size", AttrValue::ints({3, 3})}});
    report("conv2d", "1x64x56x56 * 64x64x3x3, pad 1", dtype, 2.0 * 64 * 56 * 56 * 64 * 9, measure(conv));

    for (int64_t batch : {int64_t{1}, int64_t{64}}) {
      NDArray x = randomArray(dtype, {batch, 1024}, 3);
      NDArray w = randomArray(dtype, {1024, 1024}, 4);
      Expr dense = makeOpCall(OpId::Dense, {makeConstant(x), makeConstant(w)}, {{"units", AttrValue::integer(1024)}});
      std::string shape = std::to_string(batch) + "x1024 * 1024x1024";
      report("dense", shape, dtype, 2.0 * static_cast<double>(batch) * 1024 * 1024, measure(dense, batch == 1 ? 20 : 3));
    }
  }
  for (size_t ops : {size_t{10000}, size_t{100000}}) evaluateSyntheticModel(ops);
  return 0;
}
