// FoldConstant: evaluates constant subexpressions at compile time.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The teaching switch: when true, FoldConstant's evaluation module inherits
/// the module's `executor` (and `runtime`) attribute, as TVM's FoldConstant
/// historically leaked it, so the nested FuseOps reads link-params from the
/// module being compiled although its own context is a clean CPU one.
inline constexpr const char* kFoldConstantLeakKey = "relay.FoldConstant.inherit_executor_leak";
/// Largest value (bytes) FoldConstant computes; larger constant subexpressions
/// stay unfolded with a warning (an enormous fold would exhaust memory).
inline constexpr const char* kFoldConstantMaxBytesKey = "relay.FoldConstant.max_value_bytes";
/// Its default: 256 MiB, far above any weight of the models passlab targets.
inline constexpr int64_t kFoldConstantDefaultMaxBytes = int64_t(1) << 28;
/// Name of the child context FoldConstant evaluates in.
inline constexpr const char* kFoldConstantEvalContext = "FoldConstant.eval";
/// Target of that context: evaluation always happens on the CPU.
inline constexpr const char* kFoldConstantEvalTarget = "llvm";

/// The FoldConstant function pass (TVM's FoldConstant, behaviour only):
///  * every call to an op whose arguments are all constants (or tuples of
///    constants) is replaced by its value, except calls with no arguments
///    (folding `zeros(...)` would only store a big tensor), stateful ops,
///    later-phase calls (call_tir, packed calls, VM builtins) and everything
///    inside `Primitive` functions (fused kernels are left as they are);
///  * shape_of of a tensor with a static type becomes a constant without
///    evaluating anything;
///  * `let %x = <constant>; body` drops the binding and uses the constant;
///  * `t.N` of a literal tuple becomes field N; `if` on a constant condition
///    becomes the branch taken.
/// Evaluation works as TVM's: the maximal constant subexpressions of a function
/// become the fields of `@main` of a fresh module, which is prepared by a
/// nested pipeline (InferType, FuseOps) in a child context named
/// "FoldConstant.eval" with a clean configuration and target "llvm", then run
/// by the reference interpreter. The nested passes record their own config
/// reads and appear in the trace as FoldConstant's children. The fresh module
/// carries no executor attribute unless relay.FoldConstant.inherit_executor_leak
/// is set. A function needs at most a few such evaluations (one, plus one per
/// round of `if`s whose condition only became constant by folding). When the
/// evaluation fails, a warning diagnostic says so and the function stays unfolded.
/// A subexpression whose result or any intermediate value would exceed
/// relay.FoldConstant.max_value_bytes is not evaluated (a warning names it).
/// Results computed from placeholder constants (TVM metadata references loaded
/// without data) are marked as derived from placeholders.
/// Results are typed; functions with nothing to fold are returned unchanged.
PassPtr createFoldConstantPass();

}  // namespace passlab
