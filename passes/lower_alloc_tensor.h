// LowerAllocTensor: TVM's relax.transform.LowerAllocTensor.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The LowerAllocTensor pass: every `R.builtin.alloc_tensor(shape, dtype,
/// device, scope)` that memory planning left (a function's outputs, tensors
/// it could not plan) gets a storage of its own, as TVM lowers it:
///
///     storage: R.Object = R.memory.alloc_storage(R.shape([bytes]), device, scope, R.dtype("uint8"))
///     x = R.memory.alloc_tensor(storage, 0, shape, dtype, device)
///
/// bytes = elements x dtype size. Functions without such an allocation keep
/// their identity.
PassPtr createLowerAllocTensorPass();

}  // namespace passlab
