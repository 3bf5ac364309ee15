// Scans of TIR trees the LLVM emitter decides on (see tir_scan.h).
#include "codegen/tir_scan.h"
#include "core/ir/tir_functor.h"
#include "core/ir/tir_lower_blocks.h"

#include <algorithm>
#include <optional>

#include "codegen/codegen.h"

namespace passlab::codegen {

using namespace tir;

namespace {
const PrimExpr& stripCastsOf(const PrimExpr& e) {
  const PrimExpr* p = &e;
  while ((*p)->kind == PrimExprKind::Cast) p = &static_cast<const CastNode&>(**p).value;
  return *p;
}
}  // namespace

bool hasSideEffectsOrLoads(const PrimExpr& e) {
  return anyExpr(e, [](const PrimExpr& x) {
    const auto* c = as<tir::CallNode>(x);
    return x->kind == PrimExprKind::Load || (c && c->isGlobal);
  });
}

bool usesFloat(const PrimExpr& e) {
  return anyExpr(e, [](const PrimExpr& x) { return x->dtype.isFloat(); });
}

namespace {
/// preOrderVisit with blocks seen as what they run (tir::lowerBlocks): the
/// emitter asks its questions of the code it will generate.
void visitLowered(const Stmt& s, const std::function<bool(const Stmt&)>& onStmt, const std::function<bool(const PrimExpr&)>& onExpr) {
  preOrderVisit(
      s,
      [&](const Stmt& t) {
        if (t->kind != StmtKind::Block) return onStmt(t);
        visitLowered(tir::lowerBlocks(t), onStmt, onExpr);
        return false;
      },
      onExpr);
}
}  // namespace

bool usesFloat(const Stmt& s) {
  // The values a statement computes: stored values, let values, conditions,
  // evaluated calls. Loop bounds and store indices are addresses, not values.
  bool found = false;
  visitLowered(
      s,
      [&](const Stmt& t) {
        if (const auto* st = as<StoreNode>(t)) {
          found = found || st->buffer->dtype.isFloat() || usesFloat(st->value);
          return false;
        }
        if (const auto* f = as<ForNode>(t)) {
          found = found || usesFloat(f->body);
          return false;
        }
        return !found;
      },
      [&](const PrimExpr& e) {
        found = found || usesFloat(e);
        return false;
      });
  return found;
}

bool anyStatement(const Stmt& s, const std::function<bool(const Stmt&)>& pred) {
  bool found = false;
  visitLowered(
      s,
      [&](const Stmt& t) {
        found = found || pred(t);
        return !found;
      },
      [](const PrimExpr&) { return false; });
  return found;
}

bool containsVectorizedLoop(const Stmt& s) {
  return anyStatement(s, [](const Stmt& t) {
    return t->kind == StmtKind::For && static_cast<const ForNode&>(*t).forKind == ForKind::Vectorized;
  });
}

namespace {

/// How far `e` moves per step of `v`, when `e` is affine in `v` with a
/// constant coefficient (other variables and loads not involving `v` are
/// constants here); nullopt otherwise.
std::optional<int64_t> stepOf(const PrimExpr& e, const tir::VarNode* v) {
  auto involves = [&](const PrimExpr& x) { return anyExpr(x, [&](const PrimExpr& y) { return y.get() == v; }); };
  switch (e->kind) {
    case PrimExprKind::Var: return e.get() == v ? 1 : 0;
    case PrimExprKind::IntImm: return 0;
    case PrimExprKind::Cast: return stepOf(static_cast<const CastNode&>(*e).value, v);
    case PrimExprKind::Binary: {
      const auto& b = static_cast<const BinaryNode&>(*e);
      if (b.op == BinaryOp::Add || b.op == BinaryOp::Sub) {
        std::optional<int64_t> x = stepOf(b.a, v), y = stepOf(b.b, v);
        if (!x || !y) return std::nullopt;
        return b.op == BinaryOp::Add ? *x + *y : *x - *y;
      }
      if (b.op == BinaryOp::Mul) {
        const auto* ca = as<IntImmNode>(b.a);
        const auto* cb = as<IntImmNode>(b.b);
        if (ca || cb) {
          std::optional<int64_t> s = stepOf(ca ? b.b : b.a, v);
          if (!s) return std::nullopt;
          return *s * (ca ? ca->value : cb->value);
        }
      }
      return involves(e) ? std::nullopt : std::optional<int64_t>(0);
    }
    default: return involves(e) ? std::nullopt : std::optional<int64_t>(0);
  }
}

/// How far the element offset of buffer[indices] moves per step of `v`
/// (row-major over the buffer's shape; a flat index into a shaped buffer is
/// the offset itself).
std::optional<int64_t> offsetStep(const BufferNode& b, const std::vector<PrimExpr>& indices, const tir::VarNode* v) {
  if (indices.size() == 1) return stepOf(indices[0], v);
  if (indices.size() != b.shape.size()) return std::nullopt;
  int64_t total = 0, stride = 1;
  for (size_t d = indices.size(); d-- > 0;) {
    std::optional<int64_t> s = stepOf(indices[d], v);
    if (!s) return std::nullopt;
    total += *s * stride;
    stride *= b.shape[d];
  }
  return total;
}

}  // namespace

bool isStridedCopy(const Stmt& body, const tir::VarNode* v) {
  bool copyOnly = true, strided = false;
  auto look = [&](const BufferNode& b, const std::vector<PrimExpr>& indices) {
    std::optional<int64_t> s = offsetStep(b, indices, v);
    if (!s) copyOnly = false;  // not affine: no judgement
    else if (*s > 1 || *s < -1) strided = true;
  };
  visitLowered(
      body,
      [&](const Stmt& t) {
        switch (t->kind) {
          case StmtKind::Store: {
            const auto& st = static_cast<const StoreNode&>(*t);
            const PrimExpr& value = stripCastsOf(st.value);
            if (const auto* l = as<LoadNode>(value)) look(*l->buffer, l->indices);
            else if (value->kind != PrimExprKind::IntImm && value->kind != PrimExprKind::FloatImm) copyOnly = false;
            look(*st.buffer, st.indices);
            return false;
          }
          case StmtKind::For:
            if (static_cast<const ForNode&>(*t).forKind != ForKind::Serial) copyOnly = false;
            return copyOnly;
          case StmtKind::Seq:
          case StmtKind::IfThenElse: return copyOnly;
          default: copyOnly = false; return false;
        }
      },
      [](const PrimExpr&) { return false; });
  return copyOnly && strided;
}

namespace {
/// Adds the callees of the calls in `s` to `out`, in order: PrimFuncs (`global`) or intrinsics.
void collectCalls(const Stmt& s, std::vector<std::string>& out, bool global) {
  visitLowered(
      s, [](const Stmt&) { return true; },
      [&](const PrimExpr& e) {
        if (const auto* c = as<tir::CallNode>(e); c && c->isGlobal == global) out.push_back(c->callee);
        return true;
      });
}
}  // namespace

int64_t staticWork(const Stmt& s) {
  if (!s) return 0;
  constexpr int64_t kCap = int64_t{1} << 50;  // no overflow for any nest
  switch (s->kind) {
    case StmtKind::Store:
    case StmtKind::Evaluate:
      return 1;
    case StmtKind::For: {
      const auto& f = static_cast<const ForNode&>(*s);
      const auto* extent = as<IntImmNode>(f.extent);
      const int64_t n = extent ? std::max<int64_t>(extent->value, 0) : 1, body = staticWork(f.body);
      return n > 0 && body > kCap / n ? kCap : n * body;
    }
    case StmtKind::LetStmt:
      return staticWork(static_cast<const LetStmtNode&>(*s).body);
    case StmtKind::IfThenElse: {
      const auto& i = static_cast<const IfThenElseNode&>(*s);
      return std::max(staticWork(i.thenCase), staticWork(i.elseCase));
    }
    case StmtKind::Allocate:
      return staticWork(static_cast<const AllocateNode&>(*s).body);
    case StmtKind::AllocateConst:
      return staticWork(static_cast<const AllocateConstNode&>(*s).body);
    case StmtKind::Seq: {
      int64_t total = 0;
      for (const Stmt& t : static_cast<const SeqNode&>(*s).stmts) total = std::min(kCap, total + staticWork(t));
      return total;
    }
    case StmtKind::Block: {
      const auto& b = static_cast<const BlockNode&>(*s);
      return std::min(kCap, staticWork(b.init) + staticWork(b.body));
    }
    case StmtKind::Assert:
      return staticWork(static_cast<const AssertStmtNode&>(*s).body);
  }
  return 1;
}

void collectGlobalCalls(const Stmt& s, std::vector<std::string>& out) { collectCalls(s, out, true); }

void collectIntrinsicCalls(const Stmt& s, std::vector<std::string>& out) { collectCalls(s, out, false); }

}  // namespace passlab::codegen

namespace passlab::codegen {

namespace {

/// Whether `st` is `buf[i] = buf[i] + x * y` (either order of the sum, casts
/// around the terms): one multiply-accumulate of a reduction.
bool isMultiplyAccumulate(const StoreNode& st) {
  const auto* sum = as<BinaryNode>(stripCastsOf(st.value));
  if (!sum || sum->op != BinaryOp::Add) return false;
  auto readsTarget = [&](const PrimExpr& e) {
    const auto* l = as<LoadNode>(stripCastsOf(e));
    return l && l->buffer == st.buffer;
  };
  auto isProduct = [](const PrimExpr& e) {
    const auto* m = as<BinaryNode>(stripCastsOf(e));
    return m && m->op == BinaryOp::Mul;
  };
  return (readsTarget(sum->a) && isProduct(sum->b)) || (readsTarget(sum->b) && isProduct(sum->a));
}

int64_t macFlops(const Stmt& s, int64_t trips) {
  if (!s) return 0;
  if (const auto* st = as<StoreNode>(s)) return st->value->dtype.isFloat() && isMultiplyAccumulate(*st) ? 2 * trips : 0;
  if (const auto* f = as<ForNode>(s)) {
    const auto* extent = as<IntImmNode>(f->extent);
    return macFlops(f->body, extent ? trips * extent->value : trips);
  }
  // One branch runs: count the costlier.
  if (const auto* i = as<IfThenElseNode>(s)) return std::max(macFlops(i->thenCase, trips), i->elseCase ? macFlops(i->elseCase, trips) : 0);
  if (s->kind == StmtKind::Block) return macFlops(tir::lowerBlocks(s), trips);
  int64_t n = 0;
  forEachChild(s, [&](const Stmt& c) { n += macFlops(c, trips); }, [](const PrimExpr&) {});
  return n;
}

}  // namespace

int64_t multiplyAccumulateFlops(const IRModule& mod, const std::string& primFunc) {
  const auto* fn = passlab::as<PrimFuncNode>(mod->lookup(primFunc));
  return fn ? macFlops(fn->body, 1) : 0;
}

}  // namespace passlab::codegen
