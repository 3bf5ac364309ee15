// Analyses shared by several built-in passes: purity, references to globals,
// constant values and static types.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"

namespace passlab::pass_util {

/// Which expressions may have side effects when evaluated: a call to a stateful
/// op (OpDef::stateful), or any node with such a call below it. Creating a
/// function value is pure whatever its body does. Calls to globals and local
/// functions count as pure, as in Relay. Computed on demand for the subtrees
/// asked about, each node once across queries.
class PurityAnalysis {
 public:
  /// True when evaluating `e` may have a side effect.
  bool impure(const Expr& e);

 private:
  std::unordered_map<const ExprNode*, bool> impure_;
};

/// Names of the globals referenced from `fn`: GlobalVar nodes of a graph-level
/// function, `@name(...)` calls of a PrimFunc.
std::set<std::string> referencedGlobals(const Expr& fn);

/// True when `e` is a constant whose every element equals `value` (any dtype).
bool isConstantFilledWith(const Expr& e, double value);

/// The static tensor type of `e` (checkedType), or null when unknown, not a
/// tensor, or with a dynamic dimension.
const TensorTypeNode* staticTensorType(const Expr& e);
/// `t` as a tensor type with every dimension known, or null.
const TensorTypeNode* staticTensorType(const Type& t);

}  // namespace passlab::pass_util
