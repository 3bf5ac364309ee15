// LegalizeOps: every op call and every fused Primitive function becomes a
// PrimFunc called through call_tir (phase 1 -> 2).
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The LegalizeOps pass.
///
/// Per graph-level function (external-codegen, Extern and SkipOptimization
/// functions are skipped, the skip recorded), every call to an op of the table
/// becomes `call_tir(@prim, (inputs...), out_shape=..., out_dtype=...)`, and so
/// does every call of a `Primitive=1` function literal from FuseOps — the fused
/// function as a whole becomes one PrimFunc. Calls already in destination-passing
/// form (call_tir, VM builtins) are left alone. The module's `phase` becomes 2.
///
/// Form of the PrimFuncs produced (what code generators can rely on):
///  * Parameters: one buffer per call_tir input, in order, then one buffer per
///    output; a buffer parameter's data variable has the buffer's name and dtype.
///    Rank-0 tensors are buffers of shape () indexed with no indices.
///  * Attributes: `global_symbol` (the global's name). No `target`: BindTarget
///    sets it.
///  * Statements: For (serial, parallel, vectorized), Store, Seq, Allocate
///    (scratch, never read before written: intermediates of a fused group and
///    small accumulators), AllocateConst (linked constants), IfThenElse (a
///    guard around the loads of padded windows, so no load is ever out of
///    bounds, speculative or not), LetStmt (binds a finished conv2d/dense
///    element for the elementwise ops fused after it). No Evaluate, no calls
///    of other PrimFuncs.
///  * Expressions: int32 index arithmetic (+ - * floordiv floormod min max and
///    comparisons), Loads with one index per buffer dimension, Cast, Select
///    (both operands are safe to evaluate), and float intrinsics of the
///    operand's dtype: exp, log, sqrt, rsqrt, tanh, sigmoid, erf, fabs, round
///    (ties to even), floor, ceil, pow. float16 arithmetic happens in float16;
///    sums of float16/float32 data accumulate in float32 and are cast once.
///  * Schedule: on host targets (target kind other than `hexagon`, or none) the
///    outermost loop of extent > 1 is `parallel`; elementwise nests vectorize
///    their innermost loop; conv2d keeps a row accumulator over the innermost
///    output axis with the reduction (input channel, kernel row, kernel column)
///    outside a vectorized loop over it; dense accumulates 8 vectorized partial
///    sums along K; matmul with a (K, N) operand a vectorized row over N.
///  * Fusion inside a group: an elementwise result with one elementwise user
///    is computed inline in that user's expression (no buffer); a conv2d or
///    matmul whose single-use chain of same-shape elementwise ops ends in one
///    op applies that chain to each element as it leaves the accumulator, so
///    conv2d + bias_add + relu is one loop nest writing the output once.
///
/// Devices and lowered calls (TVM's TE compiler): an `on_device` annotation is
/// dropped (device planning has recorded it in the parameters' and functions'
/// virtual devices); `device_copy` stays. A call of an `Extern` function
/// becomes `call_lowered(@f, (args...))`, the form TVM gives calls the TE
/// compiler does not lower itself. With relay.LegalizeOps.call_form =
/// "call_lowered", calls of the PrimFuncs made here take that form too
/// (the outputs are the PrimFunc's buffers after the inputs) instead of call_tir.
///
/// Constants: a rank-0 constant becomes an immediate. Other constants of a
/// lowered call follow link_params, decided as FuseOps decides it
/// (resolveLinkParams: relay.FuseOps.link_params, then the executor's
/// `link-params`, then the target's, every read recorded): on, the constant is
/// embedded in its PrimFunc as an AllocateConst with its exact bits (float16
/// included); off, it becomes a parameter and is passed at the call_tir.
///
/// Ops without a lowering (batch_norm and layer_norm before SimplifyInference,
/// split, take, resize2d, conv2d_transpose, shape_of) and fused functions with
/// lets, projections or nested calls fail the pass with one diagnostic per call
/// (rule `legalize.unsupported-op`) naming the op, located at the call.
PassPtr createLegalizeOpsPass();

/// Config key: "call_tir" (default) or "call_lowered", the form of the calls
/// of lowered PrimFuncs.
inline constexpr const char* kLegalizeCallFormKey = "relay.LegalizeOps.call_form";

}  // namespace passlab
