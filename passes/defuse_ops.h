// DefuseOps: the inverse of FuseOps.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The DefuseOps pass (TVM's DefuseOps): every call to a `Primitive` function
/// literal is replaced by the function's body with the call's arguments
/// substituted for its parameters, so FuseOps followed by DefuseOps gives back
/// the unfused expression (structurally equal; constants that link_params-off
/// FuseOps turned into parameters return inline as the arguments they were
/// passed as). External-codegen functions are skipped; functions without fused
/// calls are returned unchanged (same pointer).
PassPtr createDefuseOpsPass();

}  // namespace passlab
