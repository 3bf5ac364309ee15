// The reference interpreter: evaluates graph-level functions (Relay-like
// expressions with dataflow blocks and the later-phase calls) and low-level
// PrimFuncs on concrete NDArrays. FoldConstant, the numeric-check instrument
// and the code generators' tests all compare against it.
//
// Graph-level evaluation is iterative (an explicit task stack, no C++
// recursion on expression depth), so 100k-op chains evaluate like short ones.
// Nodes shared in the DAG are evaluated once per function invocation, and an
// intermediate tensor is released as soon as its last consumer has run, so
// memory follows the live set, not the model size.
//
// Runtime errors (a shape that does not fit, an unsupported attribute value,
// a missing function) are DiagnosticErrors located at the offending call,
// with rule "interp.runtime" (or "interp.unsupported" for constructs the
// interpreter cannot run, such as external packed functions).
#pragma once

#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/interp/value.h"
#include "core/ir/module.h"

namespace passlab {

/// Values of free variables for evaluateExpr, keyed by variable identity.
using Environment = std::unordered_map<const VarNode*, Value>;

/// Calls the module-level function `function` of `mod` (graph-level Function,
/// or a PrimFunc, whose buffer arguments are then written in place and whose
/// result is the empty tuple) with `args`. Tensor arguments are checked
/// against the parameters' declared types.
Value evaluate(const IRModule& mod, const std::string& function, const std::vector<Value>& args);

/// Evaluates a standalone expression. Free variables take their values from
/// `env`; calls to globals resolve in `mod` (may be null when there are none).
Value evaluateExpr(const Expr& expr, const Environment& env = {}, const IRModule& mod = nullptr);

/// Runs the PrimFunc `function` of `mod`. `args` follow its parameters: a
/// tensor for each buffer parameter (its storage is written in place: pass
/// fresh arrays for outputs) and a 0-d tensor for each scalar parameter.
void evaluatePrimFunc(const IRModule& mod, const std::string& function, std::span<const NDArray> args);

namespace interp_detail {
/// Runs `fn` (a PrimFunc of `mod`) as described for evaluatePrimFunc; stores
/// into the first `readOnlyCount` buffers are errors. Throws DiagnosticError.
void runPrimFunc(const IRModule& mod, const PrimFuncNode& fn, const std::string& name, std::span<const NDArray> args,
                 size_t readOnlyCount);
}  // namespace interp_detail

}  // namespace passlab
