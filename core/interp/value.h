// Runtime values of the reference interpreter: tensors, tuples and closures.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/expr.h"
#include "core/ir/ndarray.h"

namespace passlab {

struct Closure;

/// A runtime value. Tensors share their storage (copying a Value is cheap);
/// tuples and closures are immutable and shared as well.
class Value {
 public:
  /// What a Value holds.
  enum class Kind : uint8_t { Tensor, Tuple, Closure };

  /// An empty tuple (the unit value `()`).
  Value() : kind_(Kind::Tuple) {}
  /// A tensor value. Implicit so kernels can return an NDArray directly.
  Value(NDArray tensor) : kind_(Kind::Tensor), tensor_(std::move(tensor)) {}  // NOLINT(google-explicit-constructor)
  /// A tuple of values.
  static Value tuple(std::vector<Value> fields);
  /// A closure value.
  static Value closure(Closure c);

  /// Which alternative is held.
  Kind kind() const { return kind_; }
  bool isTensor() const { return kind_ == Kind::Tensor; }
  bool isTuple() const { return kind_ == Kind::Tuple; }
  bool isClosure() const { return kind_ == Kind::Closure; }

  /// The tensor (undefined NDArray when this is not a tensor).
  const NDArray& tensor() const { return tensor_; }
  /// The tuple fields (empty for non-tuples).
  const std::vector<Value>& fields() const;
  /// The closure (null for non-closures).
  const Closure* closure() const { return closure_.get(); }

  /// "Tensor[(1, 3), float32]", "(T0, T1)" or "closure @f": for error messages.
  std::string describe() const;

 private:
  Kind kind_;
  NDArray tensor_;
  std::shared_ptr<const std::vector<Value>> fields_;
  std::shared_ptr<const Closure> closure_;
};

/// Variable bindings. A function invocation's scope holds its parameters and
/// the variables it binds; its parent is the scope its closure captured.
struct Scope {
  /// Bindings made in this scope, keyed by variable identity (never by name).
  std::unordered_map<const VarNode*, Value> bindings;
  /// The enclosing scope (null at the outermost level).
  std::shared_ptr<Scope> parent;

  /// The value bound to `var` here or in an enclosing scope, or null.
  const Value* find(const VarNode* var) const;
};

/// A function value: a graph-level Function with the values of its free
/// variables, or a module-level function (graph-level or PrimFunc) named by a
/// GlobalVar.
///
/// Closures capture only their free variables, copied when the closure is
/// created (flat closures), so a closure never holds its creator's scope and
/// no reference cycle can form through scopes. A recursive local function
/// (`let %f = fn (...) { ... %f(...) ... }`) does not capture itself either:
/// `recursiveVar` names %f and each call binds it to the closure afresh.
struct Closure {
  /// The FunctionNode or PrimFuncNode to run.
  Expr function;
  /// Values of the function's free variables (null for module-level functions).
  std::shared_ptr<Scope> captured;
  /// Name of the module-level function, empty for a local closure.
  std::string globalName;
  /// The let-bound variable through which the body calls itself, or null.
  const VarNode* recursiveVar = nullptr;
};

}  // namespace passlab
