// Small helpers shared by the pass manager's .cpp files (not part of the public API).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/attrs.h"

namespace passlab::pass_detail {

/// "bool", "int", "float", "string", "array", "dict", "none".
std::string_view kindName(AttrValue::Kind kind);

/// `value` as `kind`, allowing the lossless coercions int→float and 0/1→bool;
/// nullopt when the value has another kind.
std::optional<AttrValue> coerceToKind(const AttrValue& value, AttrValue::Kind kind);

/// The candidate closest to `name` by edit distance (case-insensitive), when it
/// is close enough to be a plausible typo; nullopt otherwise.
std::optional<std::string> closestName(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace passlab::pass_detail
