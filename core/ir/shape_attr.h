// Symbolic dimensions inside op attributes. Op attributes are plain values,
// so a symbolic dimension of an out_shape, a reshape target, an R.shape value
// or an allocation size is held as its TVMScript text ("n * 2"); a static one
// stays an int. The type relations read the text back into PrimExprs
// (variables by name: a function never declares a name twice) and the
// interpreter evaluates it under the shape variables a call has bound.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/attrs.h"
#include "core/ir/shape_expr.h"

namespace passlab::shape {

/// The attribute form of `d`: an int when constant, else its text.
AttrValue toAttr(const Dim& d);
/// An attribute list of dims (toAttr of each).
AttrValue toAttrList(const std::vector<Dim>& dims);
/// Reads dimension text ("n * 2", "(h - 3) // 2 + 1", "T.max(n, 1)"); names
/// resolve through `lookup`. Null when the text is not a dimension.
Dim parse(std::string_view text, const std::function<tir::Var(const std::string&)>& lookup);
/// The dims of an attribute list: ints are constants, texts symbolic dims
/// whose variables are those of `scope` with the same name, or new variables
/// of that name; null for anything else.
std::vector<Dim> dimsOfAttr(const AttrValue& list, const std::vector<tir::Var>& scope);
/// True when an attribute list (or a list of lists) holds a symbolic text.
bool attrHasSymbolic(const AttrValue& list);
/// Values of shape variables by name: what the interpreter knows at run time.
using NameEnv = std::map<std::string, int64_t>;
/// The list with each text evaluated under `env` (nested lists alike);
/// nullopt when a variable is unbound.
std::optional<AttrValue> evaluateAttr(const AttrValue& list, const NameEnv& env);
/// Adds what `env` binds to `names` under the variables' names.
void addNames(const Env& env, NameEnv& names);

}  // namespace passlab::shape
