// Internal to the Relay-form printer: the graph printer shared by its
// layout (printer_relay_layout.cpp: where each binding goes and its number)
// and its emission (printer_relay.cpp). Nothing outside core/text includes it.
//
// Every non-atomic node is bound once as `%N = ...;` and referenced by number;
// a scope's result and single-use let/dataflow values are written inline; a
// single-use let or dataflow block in result position continues its block.
//
// Where a binding goes: each node is printed in the innermost scope that
// contains all of its uses (the lowest common ancestor of its use scopes), so a
// node shared between the two branches of an `if` is bound before the `if`,
// and a node used only inside a function literal stays inside it. Within a
// scope, bindings appear in DFS post-order, which puts every operand before
// its users and every let/dataflow header between its value and its body.
// Numbers count bindings as they are completed (a function literal's inner
// bindings come before the literal itself), as TVM numbers them.
//
// Four passes, all iterative: DFS (post-order, use counts, header events),
// scope assignment in reverse post-order (users before operands), numbering,
// and printing driven by an explicit task stack.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/text/printer_impl.h"

namespace passlab::text::relay_graph {

/// "No node": an absent child, tail or root.
inline constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

/// How a node is used by the parent that first reaches it.
enum class Role : uint8_t { Operand, Tail, LetValue, BindingValue, Decl };
/// How a node is printed.
enum class Status : uint8_t { Atomic, Root, Bound, Inline, Chain };
/// Scope items and DFS events.
enum class ItemKind : uint8_t { Bind, LetHeader, DataflowOpen, DataflowBinding, DataflowClose };

/// What the layout learns about one node: its children, uses, role, scope and number.
struct NodeInfo {
  const ExprNode* expr = nullptr;
  /// Children in forEachChild order: childIds_[firstChild .. firstChild + numChildren).
  uint32_t firstChild = 0;
  uint32_t numChildren = 0;
  uint32_t uses = 0;
  Role role = Role::Operand;
  Status status = Status::Bound;
  bool declared = false;
  bool visited = false;
  /// Declared by a dataflow binding, or (transitively) uses such a variable.
  bool dataflowDependent = false;
  int32_t scope = -1;
  int32_t ownScope = -1;
  int32_t chainScope = -1;
  int32_t number = -1;
};

/// One line-producing entry of a scope: a binding, a let header or a dataflow bracket.
struct Item {
  ItemKind kind;
  uint32_t node;
  uint32_t index;
};

/// A block of bindings: a function body, a let or dataflow body, an if branch.
struct Scope {
  int32_t parent = -1;
  int32_t depth = 0;
  uint32_t root = kNone;
  /// The root is the let/dataflow owning this block: its header is this block's.
  bool rootIsOwner = false;
  std::vector<Item> items;
};

/// Atomic nodes are printed where they are used, never bound to a number.
inline bool isAtomic(ExprKind k) {
  return k == ExprKind::Var || k == ExprKind::GlobalVar || k == ExprKind::Constant || k == ExprKind::Op ||
         k == ExprKind::PrimFunc;
}

/// Calls f(child, role, slot) for each child of `e` in evaluation order.
template <class F>
void forEachChild(const ExprNode* e, F&& f) {
  switch (e->kind) {
    case ExprKind::Call: {
      auto* c = as<CallNode>(e);
      f(c->callee, Role::Operand, 0);
      for (size_t i = 0; i < c->args.size(); ++i) f(c->args[i], Role::Operand, static_cast<int>(i + 1));
      return;
    }
    case ExprKind::Tuple: {
      auto* t = as<TupleNode>(e);
      for (size_t i = 0; i < t->fields.size(); ++i) f(t->fields[i], Role::Operand, static_cast<int>(i));
      return;
    }
    case ExprKind::TupleGetItem: f(as<TupleGetItemNode>(e)->tuple, Role::Operand, 0); return;
    case ExprKind::Let: {
      auto* l = as<LetNode>(e);
      f(l->var, Role::Decl, 0);
      f(l->value, Role::LetValue, 1);
      f(l->body, Role::Tail, 2);
      return;
    }
    case ExprKind::If: {
      auto* i = as<IfNode>(e);
      f(i->cond, Role::Operand, 0);
      f(i->thenBranch, Role::Tail, 1);
      f(i->elseBranch, Role::Tail, 2);
      return;
    }
    case ExprKind::Function: {
      auto* fn = as<FunctionNode>(e);
      for (size_t i = 0; i < fn->params.size(); ++i) f(fn->params[i], Role::Decl, static_cast<int>(i));
      f(fn->body, Role::Tail, static_cast<int>(fn->params.size()));
      return;
    }
    case ExprKind::Dataflow: {
      auto* d = as<DataflowNode>(e);
      for (size_t i = 0; i < d->bindings.size(); ++i) {
        f(d->bindings[i].var, Role::Decl, static_cast<int>(2 * i));
        f(d->bindings[i].value, Role::BindingValue, static_cast<int>(2 * i + 1));
      }
      f(d->body, Role::Tail, static_cast<int>(2 * d->bindings.size()));
      return;
    }
    default: return;
  }
}

/// Prints one graph-level function or expression: analyze() lays it out, run() writes it.
class GraphPrinter {
 public:
  GraphPrinter(TextWriter& w, const PrintOptions& options) : w_(w), options_(options) {}

  void printDef(const std::string& name, const Expr& fnExpr);
  void printStandalone(const Expr& e);

 private:
  // ---- Analysis ----
  uint32_t idOf(const ExprNode* e);
  /// The id of child `slot` of node `id` (slots as in forEachChild).
  uint32_t child(uint32_t id, size_t slot) const { return childIds_[nodes_[id].firstChild + slot]; }
  void analyze(const Expr& root, bool rootIsDef);
  void dfs(uint32_t root);
  void assignScopes(uint32_t root, bool rootIsDef);
  int32_t newScope(int32_t parent, uint32_t root, bool rootIsOwner);
  int32_t lca(int32_t a, int32_t b) const;
  uint32_t bodyOf(uint32_t id) const;
  uint32_t tailOf(const Scope& s) const;
  void ownedScopes(uint32_t id, int32_t* first, int* count) const;
  void number();
  void assignAlignedNames();

  // ---- Printing ----
  struct Task {
    enum Kind : uint8_t { ScopeItem, Line, Indent } kind;
    int32_t scope = 0;
    uint32_t item = 0;
    int delta = 0;
    std::string text;
    const void* rangeNode = nullptr;
  };
  void run(int32_t scope);
  void printItem(const Item& item);
  void printTail(const Scope& s);
  void emitExpr(uint32_t id, std::string_view terminator);
  void appendRef(std::string& out, uint32_t id);
  /// `%N` of a bound node, or its aligned name.
  void appendBound(std::string& out, uint32_t id);
  void appendVarDecl(std::string& out, const VarNode* v, bool showInferred);
  void appendFunctionHeader(std::string& out, const FunctionNode& fn);
  void appendTypeComment(std::string& out, const Type& t);
  const std::string& varName(const VarNode* v) {
    if (const AlignedNames* a = options_.alignedNames) {
      std::string_view n = a->find(v);
      if (!n.empty()) return names_.nameFor(v, n);
    }
    return names_.nameFor(v, v->name);
  }
  void printFreeVars();

  TextWriter& w_;
  const PrintOptions& options_;
  std::vector<NodeInfo> nodes_;
  PointerIndex ids_;
  std::vector<uint32_t> childIds_;
  std::vector<uint32_t> postOrder_;
  std::vector<Item> events_;
  std::vector<Scope> scopes_;
  NameTable names_;
  std::vector<Task> tasks_;
  std::vector<Task> pending_;  // tasks of one expression, in forward order
  /// Aligned printing: the name of each bound node, by node id: a number, or
  /// (number < 0) a view of the AlignedNames' text, which outlives the print.
  struct AlignedName {
    std::string_view text;
    int64_t number = -1;
  };
  std::vector<AlignedName> aligned_;
};

}  // namespace passlab::text::relay_graph
