#include "core/ir/float_math.h"

#include <cmath>
#include <utility>

namespace passlab {

namespace {

/// The reference function of every unary intrinsic of float_intrinsics.def;
/// the float-math ops of ops.def must all be here (tests/core/test_ops.cpp checks it).
constexpr std::pair<std::string_view, FloatMathFn> kFunctions[] = {
#define PASSLAB_FLOAT_UNARY(name, reference, lowering, llvm, oneInstruction, libmvec, libm) \
  {#name, [](double v) -> double { return reference; }},
#include "core/ir/float_intrinsics.def"
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
