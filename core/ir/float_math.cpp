#include "core/ir/float_math.h"

#include <cmath>
#include <utility>

namespace passlab {

namespace {

double rsqrt(double v) { return 1.0 / std::sqrt(v); }
double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

/// Every unary intrinsic by name; the float-math ops of ops.def must all be here
/// (tests/test_ops.cpp checks it).
constexpr std::pair<std::string_view, FloatMathFn> kFunctions[] = {
    {"exp", [](double v) { return std::exp(v); }},     {"exp2", [](double v) { return std::exp2(v); }},
    {"log", [](double v) { return std::log(v); }},     {"log2", [](double v) { return std::log2(v); }},
    {"sqrt", [](double v) { return std::sqrt(v); }},   {"rsqrt", rsqrt},
    {"tanh", [](double v) { return std::tanh(v); }},   {"sigmoid", sigmoid},
    {"erf", [](double v) { return std::erf(v); }},     {"fabs", [](double v) { return std::fabs(v); }},
    {"abs", [](double v) { return std::fabs(v); }},    {"round", [](double v) { return std::nearbyint(v); }},
    {"nearbyint", [](double v) { return std::nearbyint(v); }}, {"floor", [](double v) { return std::floor(v); }},
    {"ceil", [](double v) { return std::ceil(v); }},   {"trunc", [](double v) { return std::trunc(v); }},
    {"sin", [](double v) { return std::sin(v); }},     {"cos", [](double v) { return std::cos(v); }},
    {"tan", [](double v) { return std::tan(v); }},     {"asin", [](double v) { return std::asin(v); }},
    {"acos", [](double v) { return std::acos(v); }},   {"atan", [](double v) { return std::atan(v); }},
    {"sinh", [](double v) { return std::sinh(v); }},   {"cosh", [](double v) { return std::cosh(v); }},
    {"asinh", [](double v) { return std::asinh(v); }}, {"acosh", [](double v) { return std::acosh(v); }},
    {"atanh", [](double v) { return std::atanh(v); }},
};

}  // namespace

FloatMathFn floatMathFunction(std::string_view intrinsic) {
  for (const auto& [name, fn] : kFunctions)
    if (name == intrinsic) return fn;
  return nullptr;
}

std::string_view floatMathIntrinsic(OpId id) {
  switch (id) {
#define PASSLAB_OP(id, name, pattern)
#define PASSLAB_FLOAT_MATH_OP(id, name, intrinsic) \
  case OpId::id: return #intrinsic;
#include "core/ir/ops.def"
#undef PASSLAB_OP
    default: return "";
  }
}

}  // namespace passlab
