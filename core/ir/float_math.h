// Float math: the unary functions of ops.def's PASSLAB_FLOAT_MATH_OP category
// and the other float intrinsics of TIR (the list is float_intrinsics.def),
// evaluated once for every layer that needs their reference value (the graph
// interpreter's kernels, the TIR interpreter). Each is computed in double;
// callers round once to their type.
#pragma once

#include <string_view>

#include "core/ir/op.h"

namespace passlab {

/// A unary float function on doubles.
using FloatMathFn = double (*)(double);

/// The reference function of a unary TIR intrinsic ("exp", "rsqrt",
/// "sigmoid", "fabs", "floor", ...), or null for names that are not one.
FloatMathFn floatMathFunction(std::string_view intrinsic);

/// The intrinsic of a float-math op (`exp` for OpId::Exp), or "" for ops
/// outside the category.
std::string_view floatMathIntrinsic(OpId id);

/// True for the ops of the float-math category.
inline bool isFloatMathOp(OpId id) { return !floatMathIntrinsic(id).empty(); }

}  // namespace passlab
