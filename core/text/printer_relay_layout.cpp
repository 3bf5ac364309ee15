// The Relay-form printer's layout: DFS, scope assignment, numbering and aligned
// names (see printer_relay_graph.h for the whole design).
#include <algorithm>

#include "core/text/printer_relay_graph.h"

namespace passlab::text::relay_graph {

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
}  // namespace passlab::text::relay_graph
