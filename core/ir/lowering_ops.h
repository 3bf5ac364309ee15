// The ops that belong to lowering rather than to the model: destination-passing
// calls, the purity wrappers and the VM's runtime builtins. Passes that must
// leave them alone (FuseOps, LegalizeOps) and the phase-2 well-formed rule that
// admits them ask here, so the set is written once.
#pragma once

#include "core/ir/op.h"

namespace passlab {

/// True for call_tir, call_dps_packed, call_pure_packed, invoke_pure_closure,
/// the vm.builtin.* ops, TVM's call_lowered with the memory.* and vm.* builtins
/// of its memory planning, and device_copy (a runtime copy that lowering keeps).
inline bool isLoweringBuiltin(OpId id) {
  switch (id) {
    case OpId::DeviceCopy:
    case OpId::CallLowered:
    case OpId::MemoryAllocStorage:
    case OpId::MemoryAllocTensor:
    case OpId::MemoryKill:
    case OpId::VmShapeOf:
    case OpId::VmInvokeTvmOp:
    case OpId::VmReshapeTensor:
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

/// True for the forms TVM's own lowering and memory planning print
/// (call_lowered, memory.*, vm.shape_of/invoke_tvm_op/reshape_tensor): what a
/// module holds only once it is lowered.
inline bool isTvmLoweredForm(OpId id) {
  switch (id) {
    case OpId::CallLowered:
    case OpId::MemoryAllocStorage:
    case OpId::MemoryAllocTensor:
    case OpId::MemoryKill:
    case OpId::VmShapeOf:
    case OpId::VmInvokeTvmOp:
    case OpId::VmReshapeTensor: return true;
    default: return false;
  }
}

}  // namespace passlab
