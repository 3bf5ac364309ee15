// The Relax VM builtins VMShapeLower's output calls (vm_builtins.cpp).
#pragma once

#include <optional>
#include <string>

#include "core/interp/kernel_util.h"

namespace passlab::kernels {

/// Runs the VM builtin `name` (a call_packed or call_builtin_with_ctx callee
/// such as "vm.builtin.match_shape") on `call`'s arguments; nullopt when the
/// interpreter has no builtin of that name.
std::optional<Value> runVmBuiltin(const KernelCall& call, const std::string& name);

/// The value of R.str("..") / R.dtype(".."): the text's bytes as a 1-d uint8 tensor.
NDArray vmStringValue(const std::string& text);

}  // namespace passlab::kernels
