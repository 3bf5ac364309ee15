#include "core/ir/functor.h"

#include "core/support/pointer_index.h"

namespace passlab {

void appendChildren(const Expr& e, std::vector<Expr>& out) {
  switch (e->kind) {
    case ExprKind::Var:
    case ExprKind::GlobalVar:
    case ExprKind::Constant:
    case ExprKind::Op:
    case ExprKind::PrimFunc:
      return;
    case ExprKind::Call: {
      auto* c = as<CallNode>(e);
      out.push_back(c->callee);
      out.insert(out.end(), c->args.begin(), c->args.end());
      return;
    }
    case ExprKind::Tuple: {
      auto* t = as<TupleNode>(e);
      out.insert(out.end(), t->fields.begin(), t->fields.end());
      return;
    }
    case ExprKind::TupleGetItem: out.push_back(as<TupleGetItemNode>(e)->tuple); return;
    case ExprKind::Let: {
      auto* l = as<LetNode>(e);
      out.push_back(l->var);
      out.push_back(l->value);
      out.push_back(l->body);
      return;
    }
    case ExprKind::If: {
      auto* i = as<IfNode>(e);
      out.push_back(i->cond);
      out.push_back(i->thenBranch);
      out.push_back(i->elseBranch);
      return;
    }
    case ExprKind::Function: {
      auto* f = as<FunctionNode>(e);
      out.insert(out.end(), f->params.begin(), f->params.end());
      out.push_back(f->body);
      return;
    }
    case ExprKind::Dataflow: {
      auto* d = as<DataflowNode>(e);
      for (const Binding& b : d->bindings) {
        out.push_back(b.var);
        out.push_back(b.value);
      }
      out.push_back(d->body);
      return;
    }
  }
}

namespace {

/// A scratch vector for one traversal, taken from a per-thread pool and given
/// back empty when the traversal ends: passes traverse once per binding, and
/// a fresh stack per call was an allocation or two each time. Nested
/// traversals (a rewrite that traverses) each take their own.
template <class T>
class Scratch {
 public:
  Scratch() {
    std::vector<std::vector<T>>& pool = freeList();
    if (!pool.empty()) {
      v_ = std::move(pool.back());
      pool.pop_back();
    }
  }
  ~Scratch() {
    v_.clear();
    // A huge one (a 100k-node walk) is not kept alive for the next small walk.
    if (v_.capacity() <= 4096) freeList().push_back(std::move(v_));
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::vector<T>& operator*() { return v_; }

 private:
  static std::vector<std::vector<T>>& freeList() {
    thread_local std::vector<std::vector<T>> pool;
    return pool;
  }
  std::vector<T> v_;
};

/// The nodes a walk has visited: a short array searched linearly while the
/// walk is small (a binding's value, a call of a few variables), the flat
/// hash set once it is not (a 100k-op module has ~300k nodes, and a
/// node-based set cost a malloc and a cache miss per node).
class VisitedSet {
 public:
  bool contains(const ExprNode* n) const {
    if (small_ <= kSmall) {
      for (size_t i = 0; i < small_; ++i)
        if (few_[i] == n) return true;
      return false;
    }
    return many_.count(n) != 0;
  }
  void insert(const ExprNode* n) {
    if (small_ < kSmall) {
      few_[small_++] = n;
      return;
    }
    if (small_ == kSmall) {
      for (const ExprNode* f : few_) many_.insert(f);
      ++small_;
    }
    many_.insert(n);
  }

 private:
  static constexpr size_t kSmall = 16;
  const ExprNode* few_[kSmall];
  size_t small_ = 0;  // kSmall + 1 once the nodes live in many_
  PointerSet many_;
};

}  // namespace

void postOrderVisit(const Expr& root, const std::function<void(const Expr&)>& visit,
                    const std::function<bool(const Expr&)>& enter) {
  if (!root) return;
  VisitedSet done;
  // Each frame: node and whether its children were already pushed.
  Scratch<std::pair<Expr, bool>> stackScratch;
  Scratch<Expr> childrenScratch;
  std::vector<std::pair<Expr, bool>>& stack = *stackScratch;
  std::vector<Expr>& children = *childrenScratch;
  stack.emplace_back(root, false);
  while (!stack.empty()) {
    auto& [node, expanded] = stack.back();
    if (done.contains(node.get())) {
      stack.pop_back();
      continue;
    }
    if (expanded) {
      Expr n = std::move(node);
      stack.pop_back();
      done.insert(n.get());
      visit(n);
      continue;
    }
    expanded = true;
    if (enter && !enter(node)) continue;
    children.clear();
    appendChildren(node, children);
    // Push in reverse so children are visited in evaluation order.
    for (auto it = children.rbegin(); it != children.rend(); ++it)
      if (*it && !done.contains(it->get())) stack.emplace_back(std::move(*it), false);
  }
}

template <class T>
static bool sameAll(const std::vector<T>& a, const std::vector<Expr>& b, size_t offset) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[offset + i]) return false;
  return true;
}

static Var asVarOrThrow(const Expr& e, const Span& where) {
  if (auto v = std::dynamic_pointer_cast<const VarNode>(e)) return v;
  throwError(where, "internal: a binding position was rewritten to a non-variable", "internal");
}

Expr rebuildWithChildren(const Expr& e, const std::vector<Expr>& ch) {
  switch (e->kind) {
    case ExprKind::Var:
    case ExprKind::GlobalVar:
    case ExprKind::Constant:
    case ExprKind::Op:
    case ExprKind::PrimFunc:
      return e;
    case ExprKind::Call: {
      auto* c = as<CallNode>(e);
      if (ch[0] == c->callee && sameAll(c->args, ch, 1)) return e;
      return makeCall(ch[0], std::vector<Expr>(ch.begin() + 1, ch.end()), c->attrs, c->span);
    }
    case ExprKind::Tuple: {
      auto* t = as<TupleNode>(e);
      if (sameAll(t->fields, ch, 0)) return e;
      return makeTuple(ch, t->span);
    }
    case ExprKind::TupleGetItem: {
      auto* t = as<TupleGetItemNode>(e);
      if (ch[0] == t->tuple) return e;
      return makeTupleGetItem(ch[0], t->index, t->span);
    }
    case ExprKind::Let: {
      auto* l = as<LetNode>(e);
      if (ch[0] == l->var && ch[1] == l->value && ch[2] == l->body) return e;
      return makeLet(asVarOrThrow(ch[0], l->span), ch[1], ch[2], l->span);
    }
    case ExprKind::If: {
      auto* i = as<IfNode>(e);
      if (ch[0] == i->cond && ch[1] == i->thenBranch && ch[2] == i->elseBranch) return e;
      return makeIf(ch[0], ch[1], ch[2], i->span);
    }
    case ExprKind::Function: {
      auto* f = as<FunctionNode>(e);
      size_t n = f->params.size();
      if (sameAll(f->params, ch, 0) && ch[n] == f->body) return e;
      std::vector<Var> params;
      for (size_t i = 0; i < n; ++i) params.push_back(asVarOrThrow(ch[i], f->span));
      return makeFunction(std::move(params), ch[n], f->retType, f->attrs, f->span);
    }
    case ExprKind::Dataflow: {
      auto* d = as<DataflowNode>(e);
      bool same = ch.back() == d->body;
      for (size_t i = 0; same && i < d->bindings.size(); ++i)
        same = ch[2 * i] == d->bindings[i].var && ch[2 * i + 1] == d->bindings[i].value;
      if (same) return e;
      std::vector<Binding> bindings;
      for (size_t i = 0; i < d->bindings.size(); ++i) bindings.push_back({asVarOrThrow(ch[2 * i], d->span), ch[2 * i + 1]});
      return makeDataflow(std::move(bindings), ch.back(), d->span);
    }
  }
  return e;
}

Expr ExprMutator::mutate(const Expr& root) {
  if (!root) return root;
  if (auto it = memo_.find(root.get()); it != memo_.end()) return it->second;
  // `nodes` holds the root, then each expanded node's children in a run that
  // the node's frame owns (stack discipline: a child's run lies above its
  // parent's and is gone when the child is done). A frame's memo slot is
  // made when the node is expanded, so a node costs one hash lookup there and
  // one per use as a child; the slot stays put (memo_ is node-based) and
  // takes the result without another lookup. A slot is empty only while its
  // node is in progress, which no traversal of a DAG meets again.
  struct Frame {
    size_t at;              ///< the node: nodes[at]
    Expr* slot = nullptr;   ///< its memo entry, once expanded
    size_t first = 0;       ///< its children: nodes[first..]
  };
  Scratch<Expr> nodesScratch, childrenScratch;
  Scratch<Frame> framesScratch;
  std::vector<Expr>& nodes = *nodesScratch;
  std::vector<Expr>& children = *childrenScratch;
  std::vector<Frame>& frames = *framesScratch;
  nodes.push_back(root);
  frames.push_back({0});
  Expr* rootSlot = nullptr;
  try {
    while (!frames.empty()) {
      Frame& f = frames.back();
      if (!f.slot) {
        auto [it, fresh] = memo_.try_emplace(nodes[f.at].get());
        if (!fresh) {
          frames.pop_back();
          continue;
        }
        f.slot = &it->second;
        if (!rootSlot) rootSlot = f.slot;
        if (std::optional<Expr> replaced = preVisit(nodes[f.at])) {
          *f.slot = std::move(*replaced);
          frames.pop_back();
          continue;
        }
        const size_t first = nodes.size();
        f.first = first;
        const Expr node = nodes[f.at];  // (appending may move nodes[f.at])
        appendChildren(node, nodes);
        // Pushed in reverse so children are visited in evaluation order (f is not used after this).
        // (A child done before is popped at its first lookup.)
        for (size_t i = nodes.size(); i-- > first;)
          if (nodes[i]) frames.push_back({i});
        continue;
      }
      const Frame done = f;
      children.clear();
      for (size_t i = done.first; i < nodes.size(); ++i) children.push_back(nodes[i] ? memo_.find(nodes[i].get())->second : nullptr);
      const Expr& node = nodes[done.at];
      Expr rebuilt = rebuildWithChildren(node, children);
      *done.slot = rewrite(node, rebuilt);
      frames.pop_back();
      nodes.resize(done.first);
    }
  } catch (...) {
    // The nodes in progress get no result: forget their empty slots, so a
    // later mutate of them (after the error was handled) starts afresh.
    for (const Frame& f : frames)
      if (f.slot && !*f.slot) memo_.erase(nodes[f.at].get());
    throw;
  }
  return *rootSlot;
}

size_t countOpCalls(const Expr& root) {
  size_t n = 0;
  postOrderVisit(root, [&n](const Expr& e) {
    if (auto* c = as<CallNode>(e); c && c->op()) ++n;
  });
  return n;
}

}  // namespace passlab
