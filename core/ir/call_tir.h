// R.call_tir_inplace in passlab's IR: a call_tir with an `inplace_indices`
// attribute. Output i is then argument inplace_indices[i], written in place
// by the PrimFunc (-1: a fresh output), and the PrimFunc takes the arguments
// followed by the fresh outputs only. One op rather than two, because every
// pass that handles call_tir must decide what an in-place one means; they ask
// here.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/expr.h"

namespace passlab {

/// The attribute naming the in-place arguments (TVM's CallTIRInplaceAttrs).
inline constexpr const char* kInplaceIndicesAttr = "inplace_indices";

/// True for a call_tir_inplace: a call_tir with inplace_indices.
bool isInplaceCallTir(const CallNode& call);
/// Its in-place indices, one per output (empty for anything else).
std::vector<int64_t> inplaceIndices(const CallNode& call);

}  // namespace passlab
