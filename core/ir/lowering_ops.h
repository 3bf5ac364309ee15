// The ops that belong to lowering rather than to the model: destination-passing
// calls, the purity wrappers and the VM's runtime builtins. Passes that must
// leave them alone (FuseOps, LegalizeOps) and the phase-2 well-formed rule that
// admits them ask here, so the set is written once.
#pragma once

#include "core/ir/op.h"

namespace passlab {

/// True for the lowering ops of ops.def (PASSLAB_LOWERING_OP and
/// PASSLAB_TVM_LOWERED_OP): call_tir, call_dps_packed, the purity wrappers,
/// vm.builtin.*, device_copy, and TVM's call_lowered with the memory.* and vm.*
/// builtins of its memory planning.
inline bool isLoweringBuiltin(OpId id) {
  switch (id) {
#define PASSLAB_OP(id, name, pattern)
#define PASSLAB_LOWERING_OP(id, name, pattern) case OpId::id:
#include "core/ir/ops.def"
#undef PASSLAB_OP
      return true;
    default: return false;
  }
}

/// True for the forms TVM's own lowering and memory planning print
/// (PASSLAB_TVM_LOWERED_OP: call_lowered, memory.*, vm.shape_of/invoke_tvm_op/
/// reshape_tensor): what a module holds only once it is lowered.
inline bool isTvmLoweredForm(OpId id) {
  switch (id) {
#define PASSLAB_OP(id, name, pattern)
#define PASSLAB_TVM_LOWERED_OP(id, name) case OpId::id:
#include "core/ir/ops.def"
#undef PASSLAB_OP
      return true;
    default: return false;
  }
}

}  // namespace passlab
