// ToMixedPrecision: float32 graphs computed in float16 where it is safe.
#pragma once

#include <string>
#include <vector>

#include "core/ir/op.h"
#include "core/pass/pass.h"

namespace passlab {

/// Options of ToMixedPrecision (pipeline: `ToMixedPrecision{mixed_precision_type=float16}`).
struct ToMixedPrecisionOptions {
  /// The reduced type; float16 is the one the IR has.
  std::string mixedPrecisionType = "float16";
  /// The accumulation dtype of Always ops in the Relax form (TVM's relax
  /// ToMixedPrecision(out_dtype=...)): float32 or float16.
  std::string outDtype = "float32";
  /// Relax form: names of function parameters that already hold float16
  /// values (TVM's fp16_input_names); they become float16 parameters.
  std::vector<std::string> fp16InputNames;
};

/// Config keys read by ToMixedPrecision.
inline constexpr const char* kKeepOrigOutputDtypeKey = "relay.ToMixedPrecision.keep_orig_output_dtype";
inline constexpr const char* kAccumulationDtypeKey = "relay.ToMixedPrecision.accumulation_dtype";

/// TVM's op categories.
enum class MixedPrecisionCategory : uint8_t {
  Always,  ///< always computed in float16 (conv2d, dense, matmul): the compute-heavy ops
  Follow,  ///< computed in float16 when its inputs already are (elementwise, data movement, pooling)
  Never,   ///< kept in float32 (exp, softmax, reductions, normalization, and every op not listed)
};

/// The category of `op` (TVM's default always/follow/never lists, restricted to
/// the ops of this IR; ops in no list are Never, as TVM assumes).
MixedPrecisionCategory mixedPrecisionCategory(OpId op);

/// The ToMixedPrecision pass (TVM's ToMixedPrecision, behaviour only). Per
/// graph-level function (external-codegen and Primitive functions skipped):
///  * Always ops get their float32 arguments in float16; conv2d/dense-like ops
///    accumulate in relay.ToMixedPrecision.accumulation_dtype (their out_dtype;
///    default float16) and the result is cast to float16 when that differs;
///  * Follow ops run in float16 when every floating-point argument that is not
///    constant already is, else in float32 (float16 arguments cast back);
///    constants and expressions computed from constants only follow the others;
///  * Never ops get float16 arguments cast back to float32.
/// Float32 constants used in float16 are converted into real float16 constants
/// (rounded to nearest even), not wrapped in casts; a constant expression gets a
/// cast, which FoldConstant then folds; casts are shared per value,
/// and cast(cast(x, float16), float32) of a float32 x is x. Values crossing a
/// binding (let, if, a nested function's result, a call to another function)
/// keep their original dtype. Function parameters keep their types; @main's
/// result is float16 unless relay.ToMixedPrecision.keep_orig_output_dtype is
/// set, and other global functions always keep their result type so callers
/// stay valid. Results are typed; a function with no float32 computation is
/// returned unchanged. On a Relax (TVMScript) module the Relax form runs
/// instead (passes/to_mixed_precision_relax.h), with out_dtype.
PassPtr createToMixedPrecisionPass(const ToMixedPrecisionOptions& options = {});

}  // namespace passlab
