// Reference kernels: one per op of core/ir/ops.def, for every dtype of dtype.h.
//
// Numerics, chosen to be exact where IEEE allows and TVM-like elsewhere:
//  - Elementwise float16 ops are computed in float (+ - * / sqrt, comparisons,
//    min/max) or double (exp, log, tanh, sigmoid, erf, power, rsqrt) and rounded
//    to half once. For + - * / and sqrt, float carries 24 >= 2*11+2 bits, so
//    computing in float and rounding to half equals the correctly rounded half
//    result; the double path rounds the libm result once with Half::fromDouble.
//  - conv2d, conv2d_transpose, dense, matmul, batch_matmul, sum, mean and the
//    pools accumulate float16 and float32 in float32 and round once to the
//    output dtype: the same scheme as TVM's float16 schedules with
//    out_dtype="float32" followed by a cast. float64 accumulates in double and
//    integers in 64-bit two's complement, wrapped to the output dtype.
//  - The normalizations (batch_norm, layer_norm, softmax) and resize compute
//    in double and round once.
//  - Integer arithmetic wraps (two's complement); integer division truncates
//    toward zero and division by zero is an error. float -> int casts truncate
//    toward zero and saturate; NaN becomes 0.
#pragma once

#include <span>
#include <stdexcept>
#include <string>

#include "core/interp/value.h"
#include "core/ir/op.h"

namespace passlab {

/// Raised by a kernel (bad argument at run time, unsupported attribute value).
/// The message starts with the op name; the interpreter re-raises it as a
/// DiagnosticError located at the call.
struct KernelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What kernels that run other functions of the module (call_tir and the VM
/// builtins) need from the interpreter.
class KernelHost {
 public:
  virtual ~KernelHost() = default;
  /// Runs the PrimFunc named `name` in destination-passing style: `buffers`
  /// are its buffer arguments in parameter order (inputs, then outputs),
  /// and the outputs are written in place. A store into one of the first
  /// `readOnlyCount` buffers is an error: those may be constants of the module.
  virtual void callPrimFunc(const std::string& name, std::span<const NDArray> buffers, size_t readOnlyCount) = 0;
};

/// Runs the reference kernel of `op` on evaluated arguments. Ops that call
/// functions (call_tir, call_dps_packed, vm.builtin.call_tir) need `host`;
/// call_pure_packed and invoke_pure_closure call closures and are evaluated by
/// the graph interpreter itself (they raise KernelError here).
Value runKernel(const OpDef& op, std::span<const Value> args, const AttrDict& attrs, KernelHost* host = nullptr);

}  // namespace passlab
