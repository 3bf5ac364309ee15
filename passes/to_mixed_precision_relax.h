// ToMixedPrecision in Relax form: TVM's relax.transform.ToMixedPrecision
// (out_dtype) on a Relax (TVMScript) module. R.astype bindings carry values
// between float32 and float16; the op's policy decides which it computes in.
#pragma once

#include <string>
#include <vector>

#include "core/ir/module.h"
#include "core/pass/pass.h"

namespace passlab {

/// TVM's Relax mixed-precision policy of an op (TMixedPrecisionPolicy).
enum class RelaxMixedPolicy : uint8_t {
  Always,  ///< conv2d, conv2d_transpose, matmul, dense: float16 inputs, out_dtype accumulation
  Follow,  ///< elementwise, broadcast and data-movement ops, pools, layer_norm: float16 when every input can be
  None,    ///< no policy (softmax, batch_norm, reductions, ...): its inputs in their original dtype
};

/// The policy of `op` in TVM's Relax op registry.
RelaxMixedPolicy relaxMixedPolicy(OpId op);

/// `fn` with its dataflow blocks rewritten by TVM's two steps:
///  * backward: a tensor used only as an input of Always ops is stored in
///    float16 (a parameter is cast at the start of each dataflow block);
///  * forward: an Always op gets float16 inputs and out_dtype `outDtype`
///    (its dataflow result is stored in float16, cast if out_dtype is
///    float32); a Follow op computes in float16 when every tensor input is
///    float16 or a float constant in float16's range, else in float32 (its
///    float16 inputs cast back); an op with no policy sees each input in its
///    original dtype. Block outputs keep their original dtype (cast back).
/// Casts are fresh R.astype bindings per use, as TVM emits them. Remarks
/// (amp.always, amp.follow, amp.follow-kept, amp.never-list) go to `ctx` when
/// remarks are on. Parameters named in `fp16InputNames` (TVM's
/// fp16_input_names) become float16 parameters of the same name, used as they
/// are where float16 is wanted and cast back where the original dtype is. A
/// named parameter that is not a float tensor, or that is used outside a
/// dataflow block, is refused. Returns `fn` itself when nothing changed.
Function toMixedPrecisionRelax(const Function& fn, const IRModule& mod, DataType outDtype,
                               const std::vector<std::string>& fp16InputNames, PassContext& ctx,
                               const std::string& pass, const std::string& global);

}  // namespace passlab
