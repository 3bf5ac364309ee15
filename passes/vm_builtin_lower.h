// VMBuiltinLower: destination-passing calls become VM runtime builtins; the
// module enters phase 3 (build).
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The VMBuiltinLower module pass, the 2 -> 3 phase transition (seed 002). In
/// every graph-level function not left to an external codegen (Compiler, Extern)
/// it lowers the destination-passing calls and puts the body in A-normal form.
///
/// The form code generation consumes (phase 3), per `call_tir` output of
/// static type Tensor[S, D]:
///
///     let %storage = vm.builtin.alloc_storage(size=<bytes of S x D>);
///     let %alloc = vm.builtin.alloc_tensor(%storage, shape=S, dtype="D");
///     let %_ = vm.builtin.call_tir(@prim, (%in0, ..., %alloc));
///
/// and the call's value is `%alloc` (a tuple `(%alloc, %alloc_1)` for several
/// outputs, each with its own storage, in output order). `call_dps_packed(%f,
/// (%in...))` gets the same allocations and becomes the plain (impure) call
/// `%f(%in..., %alloc)`. Inputs are the fields of the argument tuple, projected
/// one by one when the tuple is a variable. Every other non-atomic operand is
/// bound to a fresh `%t` first, so after the pass call operands, if conditions
/// and projected tuples are variables, constants, globals or tuples of those;
/// each function body is a let chain ending in an atom. Sizes are exact byte
/// counts (no alignment padding beyond the storage's `alignment` attribute).
///
/// Errors (DiagnosticError at the call): an output with a dynamic dimension, an
/// ill-formed out_shape/out_dtype, a dataflow block (run ToNonDataflow first).
/// Sets the module attribute `phase` to 3; functions with nothing to lower and
/// already in A-normal form keep their identity. New nodes are untyped.
PassPtr createVMBuiltinLowerPass();

}  // namespace passlab
