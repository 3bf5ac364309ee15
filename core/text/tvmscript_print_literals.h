// The literals of TVMScript as TVM's printer writes them (internal to the
// TVMScript printer: core/text/tvmscript_print*.cpp).
#pragma once

#include <string>

#include "core/ir/attrs.h"
#include "core/ir/type.h"

namespace passlab::text::script_literals {

/// `s` as a Python double-quoted string literal.
std::string quoted(const std::string& s);
/// A float as TVM prints attribute floats (%.17g, always with a '.' or exponent).
std::string attrFloat(double v);
/// A float as Python's repr writes it (the shortest text that reads back;
/// `float("inf")` and `float("nan")` for the non-finite).
std::string reprFloat(double v);
/// Appends an attribute value as a Python literal (None, True, 1, 0.5, "s", [..], {..}).
void literal(std::string& out, const AttrValue& v);
/// Appends a list of dims as R.shape writes it: ints, and symbolic dims (held
/// as their text, shape::toAttr) unquoted: `[n, 8]`.
void dimsLiteral(std::string& out, const AttrValue& v);
/// A Relax type as TVM prints it. In a function's signature (`signature`),
/// a dimension that mentions a shape variable prints as a string (`"n"`,
/// `"n * 2"`), as TVM's printer does for the variables a signature defines;
/// `mainSpelling` writes TVM main's names (`R.Any` for `R.Object`).
std::string typeText(const Type& t, bool signature = false, bool mainSpelling = false);

}  // namespace passlab::text::script_literals
