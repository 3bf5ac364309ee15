// The op table: one entry per op in ops.def, with attribute schema, type
// relation and fusion pattern. Later layers (interpreter, legalization) switch
// on OpId so the compiler tells them when an op is missing.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/attrs.h"
#include "core/ir/type.h"

namespace passlab {

/// Every op, generated from ops.def.
enum class OpId : uint16_t {
#define PASSLAB_OP(id, name, pattern) id,
#include "core/ir/ops.def"
#undef PASSLAB_OP
};

/// Number of ops in the table.
inline constexpr size_t kNumOps = 0
#define PASSLAB_OP(id, name, pattern) +1
#include "core/ir/ops.def"
#undef PASSLAB_OP
    ;

/// TVM's fusion pattern kinds, ordered as TVM orders them (smaller fuses more freely).
enum class FusionPattern : uint8_t { ElemWise = 0, Broadcast = 1, Injective = 2, CommReduce = 3, OutEWiseFusable = 4, Opaque = 8 };

/// Name of a pattern ("elemwise", "broadcast", ...).
std::string_view fusionPatternName(FusionPattern p);

/// Error raised by a type relation; the caller attaches the call's span.
struct TypeRelationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One field of an op's attribute schema.
struct AttrField {
  /// TVM's attribute name ("strides", "data_layout", ...).
  std::string name;
  /// Kind a value must have (None is accepted when `nullable`). An Int is
  /// accepted where a Float is expected and a Bool where an Int is expected.
  AttrValue::Kind kind = AttrValue::Kind::Int;
  /// Value used when the call does not give one; printing omits default values.
  AttrValue defaultValue;
  /// Whether None is a legal value.
  bool nullable = false;
  /// A call must give this attribute (TVM fields without a default, e.g.
  /// reshape's newshape, clip's a_min); `defaultValue` is then None.
  bool required = false;
  /// Further kinds accepted unchanged (split's indices_or_sections is an Int or
  /// an Array). Otherwise an Int given for an Array field becomes a one-element array.
  std::vector<AttrValue::Kind> alsoAccepts = {};
};

/// Computes the result type of a call from its argument types and attributes
/// (all argument types known). Throws TypeRelationError with a message that
/// names the shapes involved.
using TypeRelation = Type (*)(std::span<const Type> args, const AttrDict& attrs);

/// One op of the table.
struct OpDef {
  OpId id;
  /// Relay name: "add", "nn.conv2d", ...
  std::string_view name;
  FusionPattern pattern;
  /// Attribute schema in TVM's order (the printer prints non-default attributes in this order).
  std::vector<AttrField> attrs;
  /// Number of arguments; -1 for variadic (checked by the relation).
  int numArgs = -1;
  /// Type relation.
  TypeRelation relation = nullptr;
  /// True for ops with side effects or that must not be constant-folded.
  bool stateful = false;
};

/// The entry for `id`.
const OpDef& opDef(OpId id);
/// The entry named `name`, or null.
const OpDef* findOp(std::string_view name);
/// All ops in ops.def order.
std::span<const OpDef> allOps();

/// Checks `attrs` against the schema: unknown keys and values of the wrong kind
/// are errors (message names the key and the op). Returns the attributes in
/// schema order with defaults removed, the canonical form stored in calls.
AttrDict canonicalizeAttrs(const OpDef& op, const AttrDict& attrs);
/// The value of `key` in canonical `attrs`, or the schema default.
const AttrValue& attrOrDefault(const OpDef& op, const AttrDict& attrs, std::string_view key);

/// Checks the argument count against `op.numArgs` and runs the op's relation.
/// Errors are TypeRelationErrors whose message starts with the op name
/// ("nn.conv2d: ..."), so callers only attach the span.
Type inferOpCallType(const OpDef& op, std::span<const Type> args, const AttrDict& attrs);

}  // namespace passlab
