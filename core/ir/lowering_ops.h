// The ops that belong to lowering rather than to the model: destination-passing
// calls, the purity wrappers and the VM's runtime builtins. Passes that must
// leave them alone (FuseOps, LegalizeOps) and the phase-2 well-formed rule that
// admits them ask here, so the set is written once.
#pragma once

#include "core/ir/op.h"

namespace passlab {

/// True for call_tir, call_dps_packed, call_pure_packed, invoke_pure_closure
/// and the vm.builtin.* ops.
inline bool isLoweringBuiltin(OpId id) {
  switch (id) {
    case OpId::CallTir:
    case OpId::CallDpsPacked:
    case OpId::CallPurePacked:
    case OpId::InvokePureClosure:
    case OpId::VmAllocStorage:
    case OpId::VmAllocTensor:
    case OpId::VmCallTir: return true;
    default: return false;
  }
}

}  // namespace passlab
