// Traversal and rewriting of graph-level expressions.
//
// Real models are long chains (`%99999 = add(%99998, ...)`), so every traversal
// here is iterative with an explicit stack: depth is bounded by memory, not by
// the C++ stack. Shared subexpressions (a DAG) are visited once.
#pragma once

#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/ir/expr.h"
#include "core/ir/tir.h"

namespace passlab {

/// Appends the direct children of `e` in evaluation order (callee, args; let
/// var, value, body; function params then body; ...). PrimFuncs have none
/// at this level.
void appendChildren(const Expr& e, std::vector<Expr>& out);

/// Calls `visit(node)` on every node reachable from `root`, children before
/// parents, each node once. `enter(node)` may return false to skip a node's
/// children (the node itself is still visited); by default every node is entered.
void postOrderVisit(const Expr& root, const std::function<void(const Expr&)>& visit,
                    const std::function<bool(const Expr&)>& enter = nullptr);

/// Rebuilds `e` with new children, sharing `e` itself when every child is
/// pointer-identical to the old one. `children` has the layout of appendChildren.
Expr rebuildWithChildren(const Expr& e, const std::vector<Expr>& children);

/// Post-order rewriter in the style of Halide's IRMutator and TVM's
/// MixedModeMutator: each node is rebuilt only when a child changed, then
/// handed to `rewrite`. Results are memoized per node, so a DAG stays a DAG.
class ExprMutator {
 public:
  virtual ~ExprMutator() = default;
  /// The rewritten form of `e`.
  Expr mutate(const Expr& e);

 protected:
  /// Called before a node's children are visited. Returning a value replaces
  /// the node without visiting its children.
  virtual std::optional<Expr> preVisit(const Expr& /*original*/) { return std::nullopt; }
  /// Called after the children: `rebuilt` is the node with rewritten children
  /// (pointer-equal to `original` when nothing below changed). Returns the final form.
  virtual Expr rewrite(const Expr& /*original*/, const Expr& rebuilt) { return rebuilt; }
  /// Forgets memoized results (for reuse across functions with different scopes).
  void clearMemo() { memo_.clear(); }

 private:
  std::unordered_map<const ExprNode*, Expr> memo_;
};

/// Counts the call nodes to ops reachable from `root` (shared nodes once).
size_t countOpCalls(const Expr& root);

}  // namespace passlab
