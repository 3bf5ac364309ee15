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

void postOrderVisit(const Expr& root, const std::function<void(const Expr&)>& visit,
                    const std::function<bool(const Expr&)>& enter) {
  if (!root) return;
  // A flat set: a 100k-op module has ~300k nodes, and a node-based set cost a
  // malloc and a cache miss per node (15% of an aligned diff's time).
  PointerSet done;
  // Each frame: node and whether its children were already pushed.
  std::vector<std::pair<Expr, bool>> stack;
  std::vector<Expr> children;
  stack.emplace_back(root, false);
  while (!stack.empty()) {
    auto [node, expanded] = stack.back();
    if (done.count(node.get())) {
      stack.pop_back();
      continue;
    }
    if (expanded) {
      stack.pop_back();
      done.insert(node.get());
      visit(node);
      continue;
    }
    stack.back().second = true;
    if (enter && !enter(node)) continue;
    children.clear();
    appendChildren(node, children);
    // Push in reverse so children are visited in evaluation order.
    for (auto it = children.rbegin(); it != children.rend(); ++it)
      if (*it && !done.count(it->get())) stack.emplace_back(*it, false);
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
  std::vector<std::pair<Expr, bool>> stack;
  std::vector<Expr> children;
  stack.emplace_back(root, false);
  while (!stack.empty()) {
    auto [node, expanded] = stack.back();
    if (memo_.count(node.get())) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      if (std::optional<Expr> replaced = preVisit(node)) {
        memo_[node.get()] = *replaced;
        stack.pop_back();
        continue;
      }
      stack.back().second = true;
      children.clear();
      appendChildren(node, children);
      for (auto it = children.rbegin(); it != children.rend(); ++it)
        if (*it && !memo_.count(it->get())) stack.emplace_back(*it, false);
      continue;
    }
    stack.pop_back();
    children.clear();
    appendChildren(node, children);
    for (Expr& c : children) c = c ? memo_.at(c.get()) : c;
    Expr rebuilt = rebuildWithChildren(node, children);
    memo_[node.get()] = rewrite(node, rebuilt);
  }
  return memo_.at(root.get());
}

size_t countOpCalls(const Expr& root) {
  size_t n = 0;
  postOrderVisit(root, [&n](const Expr& e) {
    if (auto* c = as<CallNode>(e); c && c->op()) ++n;
  });
  return n;
}

}  // namespace passlab
