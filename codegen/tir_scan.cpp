// Scans of TIR trees the LLVM emitter decides on (see tir_scan.h).
#include "codegen/tir_scan.h"
#include "core/ir/tir_functor.h"
#include "core/ir/tir_lower_blocks.h"

#include <algorithm>

#include "codegen/codegen.h"

namespace passlab::codegen {

using namespace tir;

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

const PrimExpr& stripCasts(const PrimExpr& e) {
  const PrimExpr* p = &e;
  while ((*p)->kind == PrimExprKind::Cast) p = &static_cast<const CastNode&>(**p).value;
  return *p;
}

/// Whether `st` is `buf[i] = buf[i] + x * y` (either order of the sum, casts
/// around the terms): one multiply-accumulate of a reduction.
bool isMultiplyAccumulate(const StoreNode& st) {
  const auto* sum = as<BinaryNode>(stripCasts(st.value));
  if (!sum || sum->op != BinaryOp::Add) return false;
  auto readsTarget = [&](const PrimExpr& e) {
    const auto* l = as<LoadNode>(stripCasts(e));
    return l && l->buffer == st.buffer;
  };
  auto isProduct = [](const PrimExpr& e) {
    const auto* m = as<BinaryNode>(stripCasts(e));
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
