// Printing graph-level functions in TVM's graph form.
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
#include <algorithm>
#include <limits>

#include "core/text/printer_impl.h"

namespace passlab::text {

namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

/// How a node is used by the parent that first reaches it.
enum class Role : uint8_t { Operand, Tail, LetValue, BindingValue, Decl };
/// How a node is printed.
enum class Status : uint8_t { Atomic, Root, Bound, Inline, Chain };
/// Scope items and DFS events.
enum class ItemKind : uint8_t { Bind, LetHeader, DataflowOpen, DataflowBinding, DataflowClose };

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

struct Item {
  ItemKind kind;
  uint32_t node;
  uint32_t index;
};

struct Scope {
  int32_t parent = -1;
  int32_t depth = 0;
  uint32_t root = kNone;
  /// The root is the let/dataflow owning this block: its header is this block's.
  bool rootIsOwner = false;
  std::vector<Item> items;
};

bool isAtomic(ExprKind k) {
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

uint32_t GraphPrinter::idOf(const ExprNode* e) {
  auto [id, inserted] = ids_.insert(e, static_cast<uint32_t>(nodes_.size()));
  if (inserted) {
    nodes_.emplace_back();
    nodes_.back().expr = e;
  }
  return id;
}

void GraphPrinter::dfs(uint32_t root) {
  // Frame kinds: 0 enter, 1 exit, 2.. marker events (ItemKind + 2).
  struct Frame {
    uint32_t id;
    uint8_t what;
    uint32_t index;
  };
  std::vector<Frame> stack{{root, 0, 0}};
  std::vector<Frame> children;
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    if (f.what == 1) {
      postOrder_.push_back(f.id);
      events_.push_back({ItemKind::Bind, f.id, 0});
      continue;
    }
    if (f.what >= 2) {
      events_.push_back({static_cast<ItemKind>(f.what - 2), f.id, f.index});
      continue;
    }
    if (nodes_[f.id].visited) continue;
    nodes_[f.id].visited = true;
    const ExprNode* e = nodes_[f.id].expr;
    children.clear();
    uint32_t parent = f.id;
    nodes_[parent].firstChild = static_cast<uint32_t>(childIds_.size());
    auto edge = [&](const Expr& childExpr, Role role, int slot) {
      // A null child (malformed IR) is printed as a placeholder rather than crashing.
      if (!childExpr) {
        childIds_.push_back(kNone);
        return;
      }
      uint32_t c = idOf(childExpr.get());
      childIds_.push_back(c);
      NodeInfo& n = nodes_[c];
      if (n.uses++ == 0) n.role = role;
      if (role == Role::Decl) n.declared = true;
      if (role == Role::Decl && e->kind == ExprKind::Dataflow) n.dataflowDependent = true;
      if (e->kind == ExprKind::Let && slot == 2)
        children.push_back({parent, static_cast<uint8_t>(2 + static_cast<int>(ItemKind::LetHeader)), 0});
      if (e->kind == ExprKind::Dataflow && slot == 0 && role == Role::Decl)
        children.push_back({parent, static_cast<uint8_t>(2 + static_cast<int>(ItemKind::DataflowOpen)), 0});
      if (e->kind == ExprKind::Dataflow && role == Role::Tail) {
        if (as<DataflowNode>(e)->bindings.empty())
          children.push_back({parent, static_cast<uint8_t>(2 + static_cast<int>(ItemKind::DataflowOpen)), 0});
        children.push_back({parent, static_cast<uint8_t>(2 + static_cast<int>(ItemKind::DataflowClose)), 0});
      }
      children.push_back({c, 0, 0});
      if (e->kind == ExprKind::Dataflow && role == Role::BindingValue)
        children.push_back({parent, static_cast<uint8_t>(2 + static_cast<int>(ItemKind::DataflowBinding)),
                            static_cast<uint32_t>(slot / 2)});
    };
    forEachChild(e, edge);
    nodes_[parent].numChildren = static_cast<uint32_t>(childIds_.size()) - nodes_[parent].firstChild;
    // Like TVM, visit a call's arguments before its callee, so a function
    // literal is bound right before the call that uses it.
    if (e->kind == ExprKind::Call && children.size() > 1) std::rotate(children.begin(), children.begin() + 1, children.end());
    stack.push_back({f.id, 1, 0});
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
}

int32_t GraphPrinter::newScope(int32_t parent, uint32_t root, bool rootIsOwner) {
  Scope s;
  s.parent = parent;
  s.depth = parent < 0 ? 0 : scopes_[parent].depth + 1;
  s.root = root;
  s.rootIsOwner = rootIsOwner;
  scopes_.push_back(std::move(s));
  return static_cast<int32_t>(scopes_.size() - 1);
}

int32_t GraphPrinter::lca(int32_t a, int32_t b) const {
  if (a < 0) return b;
  if (b < 0) return a;
  while (scopes_[a].depth > scopes_[b].depth) a = scopes_[a].parent;
  while (scopes_[b].depth > scopes_[a].depth) b = scopes_[b].parent;
  while (a != b) {
    a = scopes_[a].parent;
    b = scopes_[b].parent;
  }
  return a;
}

uint32_t GraphPrinter::bodyOf(uint32_t id) const {
  // The body is the last child of a let or dataflow node.
  const NodeInfo& n = nodes_[id];
  if (n.expr->kind != ExprKind::Let && n.expr->kind != ExprKind::Dataflow) return id;
  return childIds_[n.firstChild + n.numChildren - 1];
}

uint32_t GraphPrinter::tailOf(const Scope& s) const {
  uint32_t id = s.root;
  if (id != kNone && s.rootIsOwner) id = bodyOf(id);
  while (id != kNone && nodes_[id].status == Status::Chain) id = bodyOf(id);
  return id;
}

void GraphPrinter::assignScopes(uint32_t root, bool rootIsDef) {
  for (auto it = postOrder_.rbegin(); it != postOrder_.rend(); ++it) {
    uint32_t id = *it;
    NodeInfo& n = nodes_[id];
    const ExprNode* e = n.expr;
    ExprKind k = e->kind;
    if (rootIsDef && id == root) {
      n.status = Status::Root;
      n.ownScope = 0;
    } else if (isAtomic(k)) {
      n.status = Status::Atomic;
      continue;
    } else {
      if (n.scope < 0) n.scope = 0;
      bool single = n.uses == 1;
      if (single && n.role == Role::Tail && (k == ExprKind::Let || k == ExprKind::Dataflow))
        n.status = Status::Chain;
      else if (single && (n.role == Role::Tail || n.role == Role::LetValue || n.role == Role::BindingValue))
        n.status = Status::Inline;
      else
        n.status = Status::Bound;
      if (k == ExprKind::Function) {
        n.ownScope = newScope(n.scope, childIds_[n.firstChild + n.numChildren - 1], false);
      } else if (k == ExprKind::If) {
        n.ownScope = newScope(n.scope, child(id, 1), false);
        newScope(n.scope, child(id, 2), false);
      } else if (k == ExprKind::Let || k == ExprKind::Dataflow) {
        if (n.status == Status::Chain) {
          n.chainScope = n.scope;
        } else {
          n.ownScope = newScope(n.scope, id, true);
          n.chainScope = n.ownScope;
        }
      }
    }
    const int32_t scope = n.scope, ownScope = n.ownScope, chainScope = n.chainScope;
    const uint32_t first = n.firstChild, count = n.numChildren;
    for (uint32_t slot = 0; slot < count; ++slot) {
      uint32_t c = childIds_[first + slot];
      if (c == kNone) continue;
      int32_t candidate = scope;
      switch (k) {
        case ExprKind::Function:
          if (slot + 1 < count) continue;  // parameters are declarations
          candidate = ownScope;
          break;
        case ExprKind::If: candidate = slot == 0 ? scope : slot == 1 ? ownScope : ownScope + 1; break;
        case ExprKind::Let:
          if (slot == 0) continue;  // the bound variable
          candidate = chainScope;
          break;
        case ExprKind::Dataflow:
          if (slot + 1 < count && slot % 2 == 0) continue;  // binding variables
          candidate = chainScope;
          break;
        default: break;
      }
      NodeInfo& cn = nodes_[c];
      cn.scope = lca(cn.scope, candidate);
    }
  }
  // A dataflow block holds only the bindings that need its variables; the
  // others reached while walking its values are printed before it.
  for (uint32_t id : postOrder_) {
    NodeInfo& n = nodes_[id];
    if (n.dataflowDependent || isAtomic(n.expr->kind)) continue;
    for (uint32_t slot = 0; slot < n.numChildren; ++slot) {
      uint32_t c = childIds_[n.firstChild + slot];
      if (c != kNone && nodes_[c].dataflowDependent) n.dataflowDependent = true;
    }
  }
  std::vector<std::vector<Item>> held(scopes_.size());
  std::vector<bool> holding(scopes_.size(), false);
  for (const Item& ev : events_) {
    const NodeInfo& n = nodes_[ev.node];
    if (ev.kind == ItemKind::Bind) {
      if (n.status != Status::Bound) continue;
      if (holding[n.scope] && n.dataflowDependent)
        held[n.scope].push_back(ev);
      else
        scopes_[n.scope].items.push_back(ev);
      continue;
    }
    int32_t s = n.chainScope;
    if (ev.kind == ItemKind::DataflowOpen) holding[s] = true;
    if (!holding[s]) {
      scopes_[s].items.push_back(ev);
      continue;
    }
    held[s].push_back(ev);
    if (ev.kind == ItemKind::DataflowClose) {
      scopes_[s].items.insert(scopes_[s].items.end(), held[s].begin(), held[s].end());
      held[s].clear();
      holding[s] = false;
    }
  }
}

void GraphPrinter::ownedScopes(uint32_t id, int32_t* first, int* count) const {
  const NodeInfo& n = nodes_[id];
  *first = n.ownScope;
  *count = 0;
  if (n.status != Status::Bound && n.status != Status::Inline) return;
  switch (n.expr->kind) {
    case ExprKind::Function: *count = 1; break;
    case ExprKind::If: *count = 2; break;
    case ExprKind::Let:
    case ExprKind::Dataflow: *count = 1; break;
    default: break;
  }
}

void GraphPrinter::number() {
  struct Step {
    int32_t scope;
    uint32_t item;
    uint32_t assign;
  };
  std::vector<Step> stack{{0, 0, kNone}};
  int32_t next = 0;
  auto pushOwned = [&](uint32_t id) {
    int32_t first;
    int count;
    ownedScopes(id, &first, &count);
    for (int i = count - 1; i >= 0; --i) stack.push_back({first + i, 0, kNone});
  };
  while (!stack.empty()) {
    Step s = stack.back();
    stack.pop_back();
    if (s.assign != kNone) {
      nodes_[s.assign].number = next++;
      continue;
    }
    const Scope& scope = scopes_[s.scope];
    if (s.item < scope.items.size()) {
      const Item& item = scope.items[s.item];
      stack.push_back({s.scope, s.item + 1, kNone});
      if (item.kind == ItemKind::Bind) {
        stack.push_back({0, 0, item.node});
        pushOwned(item.node);
      } else if (item.kind == ItemKind::LetHeader) {
        uint32_t v = child(item.node, 1);
        if (v != kNone && nodes_[v].status == Status::Inline) pushOwned(v);
      } else if (item.kind == ItemKind::DataflowBinding) {
        uint32_t v = child(item.node, 2 * item.index + 1);
        if (v != kNone && nodes_[v].status == Status::Inline) pushOwned(v);
      }
    } else {
      uint32_t t = tailOf(scope);
      if (t != kNone && nodes_[t].status == Status::Inline) pushOwned(t);
    }
  }
}

void GraphPrinter::analyze(const Expr& root, bool rootIsDef) {
  uint32_t rootId = idOf(root.get());
  scopes_.clear();
  if (rootIsDef) {
    newScope(-1, kNone, false);
  } else {
    newScope(-1, rootId, false);
    nodes_[rootId].uses = 1;
    nodes_[rootId].role = Role::Tail;
    nodes_[rootId].scope = 0;
  }
  dfs(rootId);
  if (rootIsDef) scopes_[0].root = childIds_[nodes_[rootId].firstChild + nodes_[rootId].numChildren - 1];
  assignScopes(rootId, rootIsDef);
  number();
  if (options_.alignedNames) assignAlignedNames();
}

void GraphPrinter::assignAlignedNames() {
  // Requested names first, in number order (a clash keeps the first), then fresh
  // numbers from freshBase for the rest, skipping every name already taken.
  // Almost every name is a number: those are taken in a bitmap, the others by
  // view, so no name is copied (a 100k-op print names ~300k nodes).
  const AlignedNames& a = *options_.alignedNames;
  std::vector<uint32_t> bound;
  for (uint32_t id = 0; id < nodes_.size(); ++id)
    if (nodes_[id].number >= 0 && !isAtomic(nodes_[id].expr->kind)) bound.push_back(id);
  std::sort(bound.begin(), bound.end(), [&](uint32_t x, uint32_t y) { return nodes_[x].number < nodes_[y].number; });
  aligned_.assign(nodes_.size(), AlignedName{});
  std::vector<bool> usedNumbers;
  std::unordered_set<std::string_view> usedOthers;
  // The decimal number a name spells as to_string would write it (-1: not one).
  auto numberOf = [](std::string_view n) -> int64_t {
    if (n.empty() || n.size() > 9 || (n.size() > 1 && n[0] == '0')) return -1;
    int64_t v = 0;
    for (char c : n) {
      if (c < '0' || c > '9') return -1;
      v = v * 10 + (c - '0');
    }
    return v;
  };
  auto take = [&](std::string_view n) {
    const int64_t k = numberOf(n);
    if (k < 0) return usedOthers.insert(n).second;
    if (static_cast<size_t>(k) >= usedNumbers.size()) usedNumbers.resize(static_cast<size_t>(k) + 1, false);
    if (usedNumbers[static_cast<size_t>(k)]) return false;
    usedNumbers[static_cast<size_t>(k)] = true;
    return true;
  };
  std::vector<uint32_t> fresh;
  for (uint32_t id : bound) {
    std::string_view n = a.find(nodes_[id].expr);
    if (!n.empty() && take(n))
      aligned_[id].text = n;
    else
      fresh.push_back(id);
  }
  size_t next = a.freshBase;
  for (uint32_t id : fresh) {
    while (next < usedNumbers.size() && usedNumbers[next]) ++next;
    if (next >= usedNumbers.size()) usedNumbers.resize(next + 1, false);
    usedNumbers[next] = true;
    aligned_[id].number = static_cast<int64_t>(next++);
  }
}

void GraphPrinter::appendBound(std::string& out, uint32_t id) {
  if (!aligned_.empty()) {
    const AlignedName& n = aligned_[id];
    if (n.number >= 0)
      appendNumber(out, n.number);
    else
      out += n.text;
  } else {
    appendNumber(out, nodes_[id].number);
  }
}

// ---- Printing -------------------------------------------------------------------

void GraphPrinter::appendTypeComment(std::string& out, const Type& t) {
  if (!options_.typeComments || !t) return;
  out += " /* ty=";
  appendType(out, t);
  out += " */";
}

void GraphPrinter::appendVarDecl(std::string& out, const VarNode* v, bool showInferred) {
  out += '%';
  out += varName(v);
  if (options_.recordNames && w_.ranges()) w_.ranges()->nodes.recordName(v, varName(v));
  if (!v->virtualDevice.isNone()) {
    out += " {virtual_device=";
    out += v->virtualDevice.toString();
    out += '}';
  }
  // Parameters show their inferred type as TVM does after InferType; let and
  // dataflow variables only a declared one (their value carries a ty comment).
  const Type& t = v->annotation ? v->annotation : showInferred && options_.typeComments ? v->checkedType : v->annotation;
  if (t) {
    out += ": ";
    appendType(out, t);
  }
}

void GraphPrinter::appendFunctionHeader(std::string& out, const FunctionNode& fn) {
  out += '(';
  bool first = true;
  for (const Var& p : fn.params) {
    if (!first) out += ", ";
    first = false;
    w_.rangeStart(p.get());
    appendVarDecl(out, p.get(), true);
  }
  for (const auto& [key, value] : fn.attrs.entries()) {
    if (!first) out += ", ";
    first = false;
    appendAttr(out, key, value);
  }
  out += ')';
  Type ret = fn.retType;
  if (!ret && options_.typeComments)
    if (auto* ft = as<FuncTypeNode>(fn.checkedType)) ret = ft->ret;
  if (ret) {
    out += " -> ";
    appendType(out, ret);
  }
  out += " {";
}

void GraphPrinter::appendRef(std::string& out, uint32_t id) {
  if (id == kNone) {
    out += "(?)";
    return;
  }
  const NodeInfo& n = nodes_[id];
  const ExprNode* e = n.expr;
  switch (e->kind) {
    case ExprKind::Var:
      out += '%';
      out += varName(as<VarNode>(e));
      return;
    case ExprKind::GlobalVar:
      out += '@';
      out += sanitizeName(as<GlobalVarNode>(e)->name, NameKind::Global);
      return;
    case ExprKind::Op: out += as<OpNode>(e)->def->name; return;
    case ExprKind::Constant:
      w_.rangeStart(e);
      if (printsAsReference(as<ConstantNode>(e)->data, options_.constants))
        w_.appendConstantRef(out, as<ConstantNode>(e)->data);
      else
        appendConstant(out, as<ConstantNode>(e)->data, options_.typeComments);
      if (as<ConstantNode>(e)->data.isPlaceholder()) w_.notePlaceholder(as<ConstantNode>(e)->data.placeholderIndex());
      w_.rangeEnd(e);
      return;
    case ExprKind::PrimFunc: out += "meta[tir.PrimFunc][0]"; return;  // not expressible inside a graph function
    default:
      out += '%';
      appendBound(out, id);
      return;
  }
}

void GraphPrinter::emitExpr(uint32_t id, std::string_view terminator) {
  const NodeInfo& n = nodes_[id];
  const ExprNode* e = n.expr;
  std::string& out = w_.out();
  w_.rangeStart(e);
  auto scopeTasks = [&](int32_t scope) {
    pending_.push_back({Task::Indent, 0, 0, 1, {}, nullptr});
    pending_.push_back({Task::ScopeItem, scope, 0, 0, {}, nullptr});
    pending_.push_back({Task::Indent, 0, 0, -1, {}, nullptr});
  };
  // Operands in slot order, starting at `from`.
  auto appendOperands = [&](uint32_t from) {
    for (uint32_t slot = from; slot < n.numChildren; ++slot) {
      if (slot > from) out += ", ";
      appendRef(out, childIds_[n.firstChild + slot]);
    }
  };
  switch (e->kind) {
    case ExprKind::Call: {
      auto* c = as<CallNode>(e);
      appendRef(out, child(id, 0));
      out += '(';
      appendOperands(1);
      bool first = n.numChildren <= 1;
      for (const auto& [key, value] : c->attrs.entries()) {
        if (!first) out += ", ";
        first = false;
        appendAttr(out, key, value);
      }
      out += ')';
      break;
    }
    case ExprKind::Tuple:
      out += '(';
      appendOperands(0);
      if (n.numChildren == 1) out += ',';
      out += ')';
      break;
    case ExprKind::TupleGetItem:
      appendRef(out, child(id, 0));
      out += '.';
      appendNumber(out, as<TupleGetItemNode>(e)->index);
      break;
    case ExprKind::Function:
    case ExprKind::If:
    case ExprKind::Let:
    case ExprKind::Dataflow: {
      pending_.clear();
      if (auto* fn = as<FunctionNode>(e)) {
        out += "fn ";
        appendFunctionHeader(out, *fn);
        scopeTasks(n.ownScope);
      } else if (e->kind == ExprKind::If) {
        out += "if (";
        appendRef(out, child(id, 0));
        out += ") {";
        scopeTasks(n.ownScope);
        pending_.push_back({Task::Line, 0, 0, 0, "} else {", nullptr});
        scopeTasks(n.ownScope + 1);
      } else {
        out += '{';
        scopeTasks(n.ownScope);
      }
      w_.endLine();
      std::string closing = "}";
      if (!options_.hiddenTypes || !options_.hiddenTypes->count(e)) appendTypeComment(closing, e->checkedType);
      closing += terminator;
      pending_.push_back({Task::Line, 0, 0, 0, std::move(closing), e});
      for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) tasks_.push_back(std::move(*it));
      pending_.clear();
      return;
    }
    default: appendRef(out, id); break;
  }
  if (!options_.hiddenTypes || !options_.hiddenTypes->count(e)) appendTypeComment(out, e->checkedType);
  out += terminator;
  w_.rangeEnd(e);
  w_.endLine();
}

void GraphPrinter::printItem(const Item& item) {
  std::string& out = w_.out();
  const NodeInfo& n = nodes_[item.node];
  switch (item.kind) {
    case ItemKind::Bind:
      w_.beginLine();
      w_.rangeStart(n.expr);
      out += '%';
      {
        size_t at = out.size();
        appendBound(out, item.node);
        if (options_.recordNames && w_.ranges()) w_.ranges()->nodes.recordName(n.expr, std::string_view(out).substr(at));
      }
      out += " = ";
      emitExpr(item.node, ";");
      return;
    case ItemKind::LetHeader: {
      auto* l = as<LetNode>(n.expr);
      w_.beginLine();
      w_.rangeStart(l);
      out += "let ";
      w_.rangeStart(l->var.get());
      appendVarDecl(out, l->var.get(), false);
      out += " = ";
      uint32_t v = child(item.node, 1);
      if (v != kNone && nodes_[v].status == Status::Inline) {
        emitExpr(v, ";");
      } else {
        appendRef(out, v);
        out += ';';
        w_.endLine();
      }
      return;
    }
    case ItemKind::DataflowOpen:
      w_.beginLine();
      w_.rangeStart(n.expr);
      out += "dataflow {";
      w_.endLine();
      w_.indent(1);
      return;
    case ItemKind::DataflowBinding: {
      const Binding& b = as<DataflowNode>(n.expr)->bindings[item.index];
      w_.beginLine();
      if (!b.var->isDataflow) out += "output ";
      w_.rangeStart(b.var.get());
      appendVarDecl(out, b.var.get(), false);
      out += " = ";
      uint32_t v = child(item.node, 2 * item.index + 1);
      if (v != kNone && nodes_[v].status == Status::Inline) {
        emitExpr(v, ";");
      } else {
        appendRef(out, v);
        out += ';';
        w_.endLine();
      }
      return;
    }
    case ItemKind::DataflowClose:
      w_.indent(-1);
      w_.beginLine();
      out += '}';
      w_.rangeEnd(n.expr);
      w_.endLine();
      return;
  }
}

void GraphPrinter::printTail(const Scope& s) {
  uint32_t t = tailOf(s);
  w_.beginLine();
  if (t != kNone && nodes_[t].status == Status::Inline) {
    emitExpr(t, "");
  } else {
    appendRef(w_.out(), t);
    w_.endLine();
  }
}

void GraphPrinter::run(int32_t scope) {
  tasks_.push_back({Task::ScopeItem, scope, 0, 0, {}, nullptr});
  while (!tasks_.empty()) {
    Task task = std::move(tasks_.back());
    tasks_.pop_back();
    switch (task.kind) {
      case Task::Indent: w_.indent(task.delta); break;
      case Task::Line:
        w_.beginLine();
        w_.text(task.text);
        if (task.rangeNode) w_.rangeEnd(task.rangeNode);
        w_.endLine();
        break;
      case Task::ScopeItem: {
        const Scope& s = scopes_[task.scope];
        if (task.item < s.items.size()) {
          tasks_.push_back({Task::ScopeItem, task.scope, task.item + 1, 0, {}, nullptr});
          printItem(s.items[task.item]);
        } else {
          printTail(s);
        }
        break;
      }
    }
  }
}

void GraphPrinter::printFreeVars() {
  for (uint32_t id : postOrder_) {
    const NodeInfo& n = nodes_[id];
    if (n.expr->kind != ExprKind::Var || n.declared) continue;
    w_.beginLine();
    w_.text("free_var ");
    w_.rangeStart(n.expr);
    appendVarDecl(w_.out(), as<VarNode>(n.expr), true);
    w_.text(";");
    w_.endLine();
  }
}

void GraphPrinter::printDef(const std::string& name, const Expr& fnExpr) {
  auto* fn = as<FunctionNode>(fnExpr);
  if (!fn) {
    // Not a function: print it as a parameterless one so the text stays readable.
    w_.text("def @" + sanitizeName(name, NameKind::Global) + "() {");
    w_.endLine();
    w_.indent(1);
    printStandalone(fnExpr);
    w_.indent(-1);
    w_.text("}");
    w_.endLine();
    return;
  }
  analyze(fnExpr, true);
  w_.rangeStart(fn);
  std::string header = "def @" + sanitizeName(name, NameKind::Global);
  w_.text(header);
  appendFunctionHeader(w_.out(), *fn);
  w_.endLine();
  w_.indent(1);
  printFreeVars();
  run(0);
  w_.indent(-1);
  w_.text("}");
  w_.rangeEnd(fn);
  w_.endLine();
}

void GraphPrinter::printStandalone(const Expr& e) {
  analyze(e, false);
  printFreeVars();
  run(0);
}

}  // namespace

void printGraphFunction(TextWriter& w, const PrintOptions& options, const std::string& name, const Expr& fn) {
  GraphPrinter printer(w, options);
  printer.printDef(name, fn);
}

void printStandaloneExpr(TextWriter& w, const PrintOptions& options, const Expr& e) {
  GraphPrinter printer(w, options);
  printer.printStandalone(e);
}

}  // namespace passlab::text
