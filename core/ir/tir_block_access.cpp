#include "core/ir/tir_block_access.h"

#include <unordered_set>

#include "core/analysis/structural_equal.h"
#include "core/ir/tir_functor.h"

namespace passlab::tir {

namespace {

/// Accesses of one buffer: the common index tuple, or none once they differ.
struct Access {
  Buffer buffer;
  std::vector<PrimExpr> indices;
  bool whole = false;
};

class AccessCollector final : public StmtExprVisitor {
 public:
  std::vector<Access> reads, writes;
  std::unordered_set<const VarNode*> inner;
  std::unordered_set<const BufferNode*> local;

  using StmtExprVisitor::visit;
  void visit(const PrimExpr& e) override {
    if (!e) return;
    if (const auto* l = as<LoadNode>(e)) note(reads, l->buffer, l->indices);
    if (const auto* let = as<tir::LetNode>(e)) inner.insert(let->var.get());
    visitChildren(e);
  }
  void visit(const Stmt& s) override {
    if (!s) return;
    switch (s->kind) {
      case StmtKind::Store: {
        const auto* st = as<StoreNode>(s);
        // The value first: `C[i] = C[i] + x` reads C before it writes it.
        visit(st->value);
        for (const PrimExpr& i : st->indices) visit(i);
        note(writes, st->buffer, st->indices);
        return;
      }
      case StmtKind::For: inner.insert(as<ForNode>(s)->var.get()); break;
      case StmtKind::LetStmt: inner.insert(as<LetStmtNode>(s)->var.get()); break;
      case StmtKind::Allocate: local.insert(as<AllocateNode>(s)->buffer.get()); break;
      case StmtKind::AllocateConst: local.insert(as<AllocateConstNode>(s)->buffer.get()); break;
      case StmtKind::Block: {
        const auto* b = as<BlockNode>(s);
        for (const BlockIterVar& iv : b->iterVars) inner.insert(iv.var.get());
        for (const Buffer& a : b->allocBuffers) local.insert(a.get());
        break;
      }
      default: break;
    }
    visitChildren(s);
  }

 private:
  void note(std::vector<Access>& list, const Buffer& b, const std::vector<PrimExpr>& indices) {
    for (Access& a : list) {
      if (a.buffer != b) continue;
      if (!a.whole && !sameIndices(a.indices, indices)) a.whole = true;
      return;
    }
    list.push_back({b, indices, indices.size() != b->shape.size()});
  }
  static bool sameIndices(const std::vector<PrimExpr>& x, const std::vector<PrimExpr>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!structuralEqual(x[i], y[i])) return false;
    return true;
  }
};

/// True when `e` mentions a variable of `vars`.
bool mentions(const PrimExpr& e, const std::unordered_set<const VarNode*>& vars) {
  struct Finder final : StmtExprVisitor {
    const std::unordered_set<const VarNode*>& vars;
    bool found = false;
    explicit Finder(const std::unordered_set<const VarNode*>& v) : vars(v) {}
    using StmtExprVisitor::visit;
    void visit(const PrimExpr& x) override {
      if (!x || found) return;
      if (const auto* v = as<VarNode>(x); v && vars.count(v)) found = true;
      visitChildren(x);
    }
  } f(vars);
  f.visit(e);
  return f.found;
}

}  // namespace

std::pair<std::vector<BufferRegion>, std::vector<BufferRegion>> detectBlockAccess(const Stmt& init, const Stmt& body,
                                                                                  const std::vector<Buffer>& allocated) {
  AccessCollector c;
  for (const Buffer& a : allocated) c.local.insert(a.get());
  c.visit(init);
  c.visit(body);
  auto regions = [&](const std::vector<Access>& list) {
    std::vector<BufferRegion> out;
    for (const Access& a : list) {
      if (c.local.count(a.buffer.get())) continue;
      bool whole = a.whole;
      for (const PrimExpr& i : a.indices) whole = whole || mentions(i, c.inner);
      BufferRegion r{a.buffer, {}};
      for (size_t d = 0; d < a.buffer->shape.size(); ++d) {
        if (whole) {
          r.ranges.emplace_back(intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, a.buffer->shape[d]));
        } else {
          const PrimExpr& i = a.indices[d];
          r.ranges.emplace_back(i, intImm(i->dtype.isBool() ? DataType(DTypeCode::Int32) : i->dtype, 1));
        }
      }
      out.push_back(std::move(r));
    }
    return out;
  };
  return {regions(c.reads), regions(c.writes)};
}

}  // namespace passlab::tir
