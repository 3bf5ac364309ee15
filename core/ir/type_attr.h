// A Relax type held in an op attribute. Op attributes are plain values, and
// most ops describe their result with out_shape/out_dtype (a static tensor or
// a tuple of them). The VM's packed calls also return shapes (make_shape:
// R.Shape(ndim=3)), prim values (R.Prim("int64")), tensors of a known rank
// only (the shape heap: R.Tensor(dtype="int64", ndim=1)) and objects, so
// R.call_packed and R.call_builtin_with_ctx keep such a result type whole in
// an `out_type` attribute: a dictionary with a "kind" and the type's fields.
#pragma once

#include <optional>

#include "core/ir/attrs.h"
#include "core/ir/type.h"

namespace passlab::type_attr {

/// The attribute form of `t`, or nullopt when `t` has none (function and
/// storage types, and symbolic tensor dims, which call results never carry
/// here).
std::optional<AttrValue> encode(const Type& t);
/// The type an `out_type` attribute describes; null when `v` is not one.
Type decode(const AttrValue& v);

}  // namespace passlab::type_attr
