// StaticPlanBlockMemory: TVM's relax.transform.StaticPlanBlockMemory, storage
// reuse among the allocations of a function.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The StaticPlanBlockMemory pass, TVM's token planning for static shapes. In
/// every Relax function, each `R.builtin.alloc_tensor` gets a storage token
/// (bytes = elements x dtype size, its dtype and scope). A token is live from
/// its allocation to the last call to a PrimFunc or packed function that
/// uses it (through variables, tuples, projections and R.reshape, which shares
/// its input's storage); then its storage is free for later allocations of
/// the same dtype and scope: the smallest free one at least as large, within
/// 16x, else the largest smaller one within 16x, enlarged. Tokens that are
/// returned, used by any other call, used in another block or inside an if or
/// a nested function are not planned (their alloc_tensor stays). Each storage
/// becomes, before its first tensor:
///
///     storage: R.Object = R.memory.alloc_storage(R.shape([bytes]), R.prim_value(0), R.str("global"), R.dtype(D))
///
/// and each planned allocation `R.memory.alloc_tensor(storage, 0, shape, dtype, 0)`.
/// Remarks (memplan.*) say for each allocation why it reused a storage or
/// took a new one. Symbolic shapes are not planned (left as they are).
PassPtr createStaticPlanBlockMemoryPass();

}  // namespace passlab
