// Helpers shared by the interpreter tests: building arrays, running one op
// through the graph evaluator, and comparing results.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/interp/interpreter.h"
#include "core/ir/expr.h"

namespace passlab::testing {

/// An array of `dtype` and `shape` holding `values` (each rounded to the dtype).
inline NDArray makeArray(DataType dtype, std::vector<int64_t> shape, const std::vector<double>& values) {
  NDArray a(dtype, std::move(shape));
  REQUIRE(static_cast<int64_t>(values.size()) == a.numElements());
  for (size_t i = 0; i < values.size(); ++i) a.setFromDouble(static_cast<int64_t>(i), values[i]);
  return a;
}

/// A float32 array.
inline NDArray f32(std::vector<int64_t> shape, const std::vector<double>& values) {
  return makeArray(DTypeCode::Float32, std::move(shape), values);
}

/// Uniform random values in [lo, hi), rounded to the dtype (integers: truncated).
inline NDArray randomArray(DataType dtype, std::vector<int64_t> shape, uint32_t seed, double lo = -1.0, double hi = 1.0) {
  NDArray a(dtype, std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < a.numElements(); ++i) a.setFromDouble(i, dtype.isFloat() ? dist(rng) : std::floor(dist(rng)));
  return a;
}

/// All elements as doubles.
inline std::vector<double> toDoubles(const NDArray& a) {
  std::vector<double> out(static_cast<size_t>(a.numElements()));
  for (int64_t i = 0; i < a.numElements(); ++i) out[i] = a.getAsDouble(i);
  return out;
}

/// Evaluates one op call on constant arguments through the graph evaluator
/// (attributes canonicalized by the op schema, as the parser would).
inline Value runOpValue(OpId op, const std::vector<NDArray>& args, const AttrDict& attrs = {}) {
  std::vector<Expr> argExprs;
  for (const NDArray& a : args) argExprs.push_back(makeConstant(a));
  return evaluateExpr(makeOpCall(op, std::move(argExprs), attrs));
}

/// Like runOpValue for ops that return one tensor.
inline NDArray runOp(OpId op, const std::vector<NDArray>& args, const AttrDict& attrs = {}) {
  Value v = runOpValue(op, args, attrs);
  REQUIRE(v.isTensor());
  return v.tensor();
}

/// Largest |a - b| over all elements (shapes must match).
inline double maxAbsDiff(const NDArray& a, const NDArray& b) {
  REQUIRE(a.shape() == b.shape());
  double m = 0;
  for (int64_t i = 0; i < a.numElements(); ++i) m = std::max(m, std::fabs(a.getAsDouble(i) - b.getAsDouble(i)));
  return m;
}

/// Checks shape, dtype and every element against `expected` within `tolerance`.
inline void requireValues(const NDArray& actual, DataType dtype, const std::vector<int64_t>& shape,
                          const std::vector<double>& expected, double tolerance = 0.0) {
  REQUIRE(actual.dtype() == dtype);
  REQUIRE(actual.shape() == shape);
  REQUIRE(actual.numElements() == static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i);
    if (std::isnan(expected[i])) {
      CHECK(std::isnan(actual.getAsDouble(static_cast<int64_t>(i))));
    } else {
      CHECK(actual.getAsDouble(static_cast<int64_t>(i)) == Approx(expected[i]).margin(tolerance).epsilon(tolerance));
    }
  }
}

/// Ints as an attribute array.
inline AttrValue ints(const std::vector<int64_t>& v) { return AttrValue::ints(v); }

}  // namespace passlab::testing
