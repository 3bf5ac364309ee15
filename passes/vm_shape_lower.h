// VMShapeLower: TVM's relax.transform.VMShapeLower, the last step of the Relax
// VM build before codegen. A function's boundary checks and symbolic shape
// computations become calls of the VM's runtime builtins.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The VMShapeLower pass, per Relax function (after LambdaLifting; a nested
/// function is an error, as in TVM), following TVM's vm_shape_lower.cc:
///  * every symbolic dimension the function mentions (in its parameter and
///    return types, R.match_cast types and R.shape values) gets a slot of a
///    shape heap, `shape_heap = R.call_builtin_with_ctx(
///    "vm.builtin.alloc_shape_heap", (R.prim_value(N),), ...)`, or
///    `R.null_value()` when there is none;
///  * each parameter is checked against its type (vm.builtin.check_tensor_info,
///    check_shape_info, check_prim_value_info, check_tuple_info through its
///    fields, check_func_info) and its shape matched (vm.builtin.match_shape
///    with TVM's MatchShapeCode: 0 assert equal to an immediate, 1 store to
///    the heap, 2 no-op, 3 assert equal to a heap slot); a parameter past the
///    function's `num_input` is checked only when its shape is symbolic;
///  * expressions over the matched variables (`k + 1`, `n * n`) are computed
///    into their slots by private host PrimFuncs `shape_func` (attribute
///    tir.is_host_func), called as soon as their variables are known;
///  * an R.match_cast whose value's type does not already fit checks and
///    matches the same way; the binding itself stays;
///  * a symbolic R.shape value becomes vm.builtin.make_shape (MakeShapeCode:
///    0 immediate, 1 load from the heap);
///  * the returned value is checked against the return type when its own
///    type does not already fit.
/// Option `emit_err_ctx` (TVM's, default true): the checks' last argument is
/// TVM's "ErrorContext(fn=.., loc=param[i], param=.., annotation=..)" text;
/// false gives "" as TVM's tests use. Where passlab differs: its VM
/// allocation ops keep their shapes as attributes, which the interpreter
/// evaluates from the bound shape variables, so their symbolic shapes get
/// slots but no make_shape; and when several expressions become computable at
/// once, the shape function stores them in slot order (TVM's order follows a
/// hash map).
PassPtr createVMShapeLowerPass(bool emitErrorContext = true);

}  // namespace passlab
