// Helpers shared by the optimization passes (SimplifyInference, FoldConstant,
// FuseOps, DefuseOps, ToMixedPrecision, ConvertLayout, FoldScaleAxis): op-call
// matching, scalar constants, typed construction and TVM's bias expansion.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"
#include "core/pass/pass.h"

namespace passlab::opt_util {

/// `e` as a call to op `id`, or null.
const CallNode* callTo(const Expr& e, OpId id);

/// A rank-0 constant of `dtype` holding `value` (rounded to the dtype).
Expr scalarConstant(DataType dtype, double value);

/// The attribute `key` of an op call (the schema default when the call omits it).
const AttrValue& callAttr(const CallNode& call, std::string_view key);

/// The static tensor type of `e` (from checkedType), or null.
const TensorTypeNode* tensorTypeOf(const Expr& e);

/// Makes sure every node of `fn` carries a type: runs inference when the body
/// has none (passes may run on a module nobody type-checked). Throws the
/// inference's DiagnosticError when `fn` does not type-check.
void ensureTyped(const Function& fn, const IRModule& mod);

/// TVM's ExpandBiasToMatchAxis: a 1-d per-channel vector `bias` reshaped with
/// expand_dims so that it broadcasts along `axis` of a rank-`ndim` tensor
/// ((C) → (C, 1, 1) for axis 1 of a 4-d tensor; unchanged for the last axis).
Expr expandBiasToMatchAxis(const Expr& bias, int64_t ndim, int64_t axis);

/// `axis` made non-negative for rank `ndim` (nullopt when out of range).
std::optional<int64_t> normalizedAxis(int64_t axis, int64_t ndim);

/// True when `fn` carries a non-zero `Primitive` attribute (a fused group).
bool isPrimitive(const FunctionNode& fn);

/// The nodes of `fn` that other nodes use, counted per user (a node used twice
/// by one call counts twice), for passes that must know whether a value has
/// consumers besides the one being rewritten. Nested functions are included.
std::unordered_map<const ExprNode*, int> useCounts(const Expr& root);

/// The skip reason of TVM's function-pass rule extended to fused groups: a
/// `Compiler`, `SkipOptimization` or `Extern` function, or a `Primitive` one.
std::optional<std::string> skipReasonOrPrimitive(const FunctionNode& fn);

/// Applies `transform` to every graph-level function of `mod` that `skip`
/// does not exclude (default: skipReasonOrPrimitive), recording each skip on
/// `ctx` for `pass`, as FunctionPass does. Returns `mod` itself when no
/// function changed (transform returned its argument), else a module sharing
/// every unchanged function.
IRModule mapFunctions(const IRModule& mod, PassContext& ctx, const std::string& pass,
                      const std::function<Function(const Function&, const std::string&)>& transform,
                      const std::function<std::optional<std::string>(const FunctionNode&)>& skip = skipReasonOrPrimitive);

}  // namespace passlab::opt_util
