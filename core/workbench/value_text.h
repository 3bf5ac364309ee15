// Attribute values typed by a user (REPL `set`, reproducer headers) and back.
#pragma once

#include <string>
#include <string_view>

#include "core/ir/attrs.h"

namespace passlab {

/// Parses the printed form of an attribute value, as AttrValue::toString writes
/// it and as users type it: None, True/False (also true/false/on/off), integers,
/// floats (`0.5`, `1f`), quoted strings with C escapes, `[a, b]` arrays and
/// `{"k": v}` dictionaries. Any other bare word is taken as a string, so
/// `set target llvm` works without quotes. Throws std::invalid_argument with a
/// message naming the offending text when the input is malformed.
AttrValue parseAttrValueText(std::string_view text);

/// Parses `text` for a slot of kind `kind` (a registered config key or a pass
/// option): a String slot takes the text verbatim unless it is quoted; Bool
/// accepts True/False/true/false/on/off/1/0; Int and Float accept numbers.
/// Throws std::invalid_argument naming the expected kind on a mismatch.
AttrValue parseAttrValueAs(std::string_view text, AttrValue::Kind kind);

/// "bool", "int", "float", "string", "array", "dict" or "none".
std::string_view attrKindName(AttrValue::Kind kind);

}  // namespace passlab
