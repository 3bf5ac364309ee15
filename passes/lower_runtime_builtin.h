// LowerRuntimeBuiltin: TVM's relax.transform.LowerRuntimeBuiltin (VMBuiltinLower
// before TVM renamed it), the Relax ops that become VM builtins.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The LowerRuntimeBuiltin pass, on every Relax function (nested values included):
///  * `R.memory.alloc_storage(size, device, scope, dtype)` becomes
///    `R.vm.alloc_storage(size, device, R.dtype("uint8"), scope)` (the VM
///    allocates bytes);
///  * `R.memory.alloc_tensor(...)` becomes `R.vm.alloc_tensor(...)`, same arguments;
///  * `R.memory.kill_storage(s)` / `R.memory.kill_tensor(t)` become `R.vm.kill_object(..)`;
///  * `R.reshape(x, shape)` becomes
///    `R.call_packed("vm.builtin.reshape", x, R.shape([..]), sinfo_args=(T,))`
///    with the result's static shape (a symbolic one is a located error).
/// An `R.builtin.alloc_tensor` still present is an error naming
/// LowerAllocTensor, as in TVM. The module moves from phase 2 to phase 3 (the
/// transition passlab's VMBuiltinLower makes on its own lowering). Not done
/// yet: shape_of, tensor_to_shape, to_vdevice, closures and call_tir_dyn.
PassPtr createLowerRuntimeBuiltinPass();

}  // namespace passlab
