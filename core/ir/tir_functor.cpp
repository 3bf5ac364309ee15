#include "core/ir/tir_functor.h"

#include <algorithm>

namespace passlab::tir {

void StmtExprVisitor::visitChildren(const PrimExpr& e) {
  forEachChild(e, [this](const PrimExpr& c) { visit(c); });
}

void StmtExprVisitor::visitChildren(const Stmt& s) {
  forEachChild(s, [this](const Stmt& c) { visit(c); }, [this](const PrimExpr& c) { visit(c); });
}

void preOrderVisit(const Stmt& root, const std::function<bool(const Stmt&)>& onStmt,
                   const std::function<bool(const PrimExpr&)>& onExpr) {
  // Pointers into the tree (the fields of live nodes), so the walk costs no
  // reference counting; exactly one of the two is set.
  struct Item {
    const Stmt* stmt;
    const PrimExpr* expr;
  };
  std::vector<Item> stack;
  if (root) stack.push_back({&root, nullptr});
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    size_t first = stack.size();
    if (item.stmt) {
      if (!onStmt(*item.stmt)) continue;
      forEachChild(
          *item.stmt, [&](const Stmt& c) { stack.push_back({&c, nullptr}); }, [&](const PrimExpr& c) { stack.push_back({nullptr, &c}); });
    } else {
      if (!onExpr(*item.expr)) continue;
      forEachChild(*item.expr, [&](const PrimExpr& c) {
        if (c) stack.push_back({nullptr, &c});
      });
    }
    // Children were pushed in order; the first must come off the stack first.
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first), stack.end());
  }
}

bool anyExpr(const PrimExpr& e, const std::function<bool(const PrimExpr&)>& pred) {
  if (!e) return false;
  if (pred(e)) return true;
  bool found = false;
  forEachChild(e, [&](const PrimExpr& c) { found = found || anyExpr(c, pred); });
  return found;
}

bool StmtExprMutator::mutateAll(std::vector<PrimExpr>& v) {
  bool changed = false;
  for (PrimExpr& e : v) {
    PrimExpr m = mutate(e);
    if (m != e) {
      e = std::move(m);
      changed = true;
    }
  }
  return changed;
}

PrimExpr StmtExprMutator::mutateChildren(const PrimExpr& e) {
  switch (e->kind) {
    case PrimExprKind::IntImm:
    case PrimExprKind::FloatImm:
    case PrimExprKind::Var: return e;
    case PrimExprKind::Binary: {
      const auto& b = static_cast<const BinaryNode&>(*e);
      PrimExpr x = mutate(b.a), y = mutate(b.b);
      if (x == b.a && y == b.b) return e;
      return std::make_shared<const BinaryNode>(b.op, std::move(x), std::move(y), b.dtype);
    }
    case PrimExprKind::Not: {
      const auto& n = static_cast<const NotNode&>(*e);
      PrimExpr x = mutate(n.a);
      return x == n.a ? e : logicalNot(std::move(x));
    }
    case PrimExprKind::Select: {
      const auto& s = static_cast<const SelectNode&>(*e);
      PrimExpr c = mutate(s.cond), t = mutate(s.trueValue), f = mutate(s.falseValue);
      if (c == s.cond && t == s.trueValue && f == s.falseValue) return e;
      return select(std::move(c), std::move(t), std::move(f));
    }
    case PrimExprKind::Cast: {
      const auto& c = static_cast<const CastNode&>(*e);
      PrimExpr v = mutate(c.value);
      return v == c.value ? e : cast(c.dtype, std::move(v));
    }
    case PrimExprKind::Call: {
      const auto& c = static_cast<const CallNode&>(*e);
      std::vector<PrimExpr> args = c.args;
      return mutateAll(args) ? call(c.dtype, c.callee, std::move(args), c.isGlobal) : e;
    }
    case PrimExprKind::Load: {
      const auto& l = static_cast<const LoadNode&>(*e);
      std::vector<PrimExpr> idx = l.indices;
      return mutateAll(idx) ? load(l.buffer, std::move(idx)) : e;
    }
    case PrimExprKind::Let: {
      const auto& l = static_cast<const LetNode&>(*e);
      PrimExpr v = mutate(l.value), body = mutate(l.body);
      if (v == l.value && body == l.body) return e;
      return let(l.var, std::move(v), std::move(body));
    }
  }
  return e;
}

Stmt StmtExprMutator::mutateChildren(const Stmt& s) {
  switch (s->kind) {
    case StmtKind::Store: {
      const auto& st = static_cast<const StoreNode&>(*s);
      std::vector<PrimExpr> idx = st.indices;
      bool changed = mutateAll(idx);
      PrimExpr v = mutate(st.value);
      if (!changed && v == st.value) return s;
      return store(st.buffer, std::move(idx), std::move(v));
    }
    case StmtKind::For: {
      const auto& f = static_cast<const ForNode&>(*s);
      PrimExpr mn = mutate(f.min), ext = mutate(f.extent);
      Stmt body = mutate(f.body);
      if (mn == f.min && ext == f.extent && body == f.body) return s;
      return forLoop(f.var, std::move(mn), std::move(ext), f.forKind, std::move(body));
    }
    case StmtKind::LetStmt: {
      const auto& l = static_cast<const LetStmtNode&>(*s);
      PrimExpr v = mutate(l.value);
      Stmt body = mutate(l.body);
      if (v == l.value && body == l.body) return s;
      return letStmt(l.var, std::move(v), std::move(body));
    }
    case StmtKind::IfThenElse: {
      const auto& i = static_cast<const IfThenElseNode&>(*s);
      PrimExpr c = mutate(i.cond);
      Stmt t = mutate(i.thenCase), f = mutate(i.elseCase);
      if (c == i.cond && t == i.thenCase && f == i.elseCase) return s;
      return ifThenElse(std::move(c), std::move(t), std::move(f));
    }
    case StmtKind::Allocate: {
      const auto& a = static_cast<const AllocateNode&>(*s);
      Stmt body = mutate(a.body);
      return body == a.body ? s : allocate(a.buffer, std::move(body));
    }
    case StmtKind::AllocateConst: {
      const auto& a = static_cast<const AllocateConstNode&>(*s);
      Stmt body = mutate(a.body);
      return body == a.body ? s : allocateConst(a.buffer, a.data, std::move(body));
    }
    case StmtKind::Seq: {
      const auto& q = static_cast<const SeqNode&>(*s);
      std::vector<Stmt> parts = q.stmts;
      bool changed = false;
      for (Stmt& p : parts) {
        Stmt m = mutate(p);
        if (m != p) {
          p = std::move(m);
          changed = true;
        }
      }
      return changed ? seq(std::move(parts)) : s;
    }
    case StmtKind::Evaluate: {
      const auto& ev = static_cast<const EvaluateNode&>(*s);
      PrimExpr v = mutate(ev.value);
      return v == ev.value ? s : evaluate(std::move(v));
    }
    case StmtKind::Assert: {
      const auto& a = static_cast<const AssertStmtNode&>(*s);
      PrimExpr c = mutate(a.cond);
      Stmt body = mutate(a.body);
      if (c == a.cond && body == a.body) return s;
      return assertStmt(std::move(c), a.errorKind, a.message, std::move(body));
    }
    case StmtKind::Block: {
      const auto& b = static_cast<const BlockNode&>(*s);
      bool changed = false;
      auto upd = [&](PrimExpr& e) {
        PrimExpr m = mutate(e);
        if (m != e) {
          e = std::move(m);
          changed = true;
        }
      };
      std::vector<BlockIterVar> ivs = b.iterVars;
      for (BlockIterVar& iv : ivs) {
        upd(iv.min);
        upd(iv.extent);
        upd(iv.binding);
      }
      PrimExpr pred = b.predicate;
      upd(pred);
      std::vector<BufferRegion> reads = b.reads, writes = b.writes;
      for (auto* regions : {&reads, &writes})
        for (BufferRegion& r : *regions)
          for (auto& [mn, ext] : r.ranges) {
            upd(mn);
            upd(ext);
          }
      Stmt init = mutate(b.init), body = mutate(b.body);
      if (!changed && init == b.init && body == b.body) return s;
      return block(b.name, std::move(ivs), std::move(pred), std::move(reads), std::move(writes), b.allocBuffers, std::move(init),
                   std::move(body), b.annotations);
    }
  }
  return s;
}

namespace {
class Substituter final : public StmtExprMutator {
 public:
  explicit Substituter(const std::vector<std::pair<const VarNode*, PrimExpr>>& map) : map_(map) {}
  using StmtExprMutator::mutate;
  PrimExpr mutate(const PrimExpr& e) override {
    if (const auto* v = as<VarNode>(e))
      for (const auto& [from, to] : map_)
        if (from == v) return to;
    return StmtExprMutator::mutate(e);
  }

 private:
  const std::vector<std::pair<const VarNode*, PrimExpr>>& map_;
};
}  // namespace

Stmt substitute(const Stmt& s, const std::vector<std::pair<const VarNode*, PrimExpr>>& map) {
  if (map.empty()) return s;
  return Substituter(map).mutate(s);
}

PrimExpr substitute(const PrimExpr& e, const std::vector<std::pair<const VarNode*, PrimExpr>>& map) {
  if (map.empty()) return e;
  return Substituter(map).mutate(e);
}

}  // namespace passlab::tir
