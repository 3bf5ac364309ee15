// Scans of TIR trees the LLVM emitter decides on (see tir_scan.h).
#include "codegen/tir_scan.h"
#include "core/ir/tir_lower_blocks.h"

#include <algorithm>

#include "codegen/codegen.h"

namespace passlab::codegen {

using namespace tir;

bool hasSideEffectsOrLoads(const PrimExpr& e) {
  switch (e->kind) {
    case PrimExprKind::Load: return true;
    case PrimExprKind::Call: {
      const auto& c = static_cast<const tir::CallNode&>(*e);
      if (c.isGlobal) return true;
      for (const PrimExpr& a : c.args)
        if (hasSideEffectsOrLoads(a)) return true;
      return false;
    }
    case PrimExprKind::Binary: {
      const auto& n = static_cast<const BinaryNode&>(*e);
      return hasSideEffectsOrLoads(n.a) || hasSideEffectsOrLoads(n.b);
    }
    case PrimExprKind::Not: return hasSideEffectsOrLoads(static_cast<const NotNode&>(*e).a);
    case PrimExprKind::Cast: return hasSideEffectsOrLoads(static_cast<const CastNode&>(*e).value);
    case PrimExprKind::Select: {
      const auto& s = static_cast<const SelectNode&>(*e);
      return hasSideEffectsOrLoads(s.cond) || hasSideEffectsOrLoads(s.trueValue) || hasSideEffectsOrLoads(s.falseValue);
    }
    default: return false;
  }
}

bool usesFloat(const PrimExpr& e) {
  if (e->dtype.isFloat()) return true;
  switch (e->kind) {
    case PrimExprKind::Binary: {
      const auto& n = static_cast<const BinaryNode&>(*e);
      return usesFloat(n.a) || usesFloat(n.b);
    }
    case PrimExprKind::Not: return usesFloat(static_cast<const NotNode&>(*e).a);
    case PrimExprKind::Cast: return usesFloat(static_cast<const CastNode&>(*e).value);
    case PrimExprKind::Select: {
      const auto& s = static_cast<const SelectNode&>(*e);
      return usesFloat(s.cond) || usesFloat(s.trueValue) || usesFloat(s.falseValue);
    }
    case PrimExprKind::Call:
      for (const PrimExpr& a : static_cast<const tir::CallNode&>(*e).args)
        if (usesFloat(a)) return true;
      return false;
    case PrimExprKind::Load:
      for (const PrimExpr& i : static_cast<const LoadNode&>(*e).indices)
        if (usesFloat(i)) return true;
      return false;
    default: return false;
  }
}
bool usesFloat(const Stmt& s) {
  if (!s) return false;
  switch (s->kind) {
    case StmtKind::Store: return static_cast<const StoreNode&>(*s).buffer->dtype.isFloat() || usesFloat(static_cast<const StoreNode&>(*s).value);
    case StmtKind::For: return usesFloat(static_cast<const ForNode&>(*s).body);
    case StmtKind::LetStmt: return usesFloat(static_cast<const LetStmtNode&>(*s).value) || usesFloat(static_cast<const LetStmtNode&>(*s).body);
    case StmtKind::IfThenElse: {
      const auto& i = static_cast<const IfThenElseNode&>(*s);
      return usesFloat(i.cond) || usesFloat(i.thenCase) || usesFloat(i.elseCase);
    }
    case StmtKind::Allocate: return usesFloat(static_cast<const AllocateNode&>(*s).body);
    case StmtKind::AllocateConst: return usesFloat(static_cast<const AllocateConstNode&>(*s).body);
    case StmtKind::Seq:
      for (const Stmt& p : static_cast<const SeqNode&>(*s).stmts)
        if (usesFloat(p)) return true;
      return false;
    case StmtKind::Evaluate: return usesFloat(static_cast<const EvaluateNode&>(*s).value);
    case StmtKind::Block: return usesFloat(tir::lowerBlocks(s));
  }
  return false;
}


namespace {
/// Adds the callees of `e`'s calls to `out`: PrimFuncs (`global`) or intrinsics.
void callsIn(const PrimExpr& e, std::vector<std::string>& out, bool global) {
  switch (e->kind) {
    case PrimExprKind::Call: {
      const auto& c = static_cast<const tir::CallNode&>(*e);
      if (c.isGlobal == global) out.push_back(c.callee);
      for (const PrimExpr& a : c.args) callsIn(a, out, global);
      return;
    }
    case PrimExprKind::Binary: {
      const auto& n = static_cast<const BinaryNode&>(*e);
      callsIn(n.a, out, global);
      callsIn(n.b, out, global);
      return;
    }
    case PrimExprKind::Not: return callsIn(static_cast<const NotNode&>(*e).a, out, global);
    case PrimExprKind::Cast: return callsIn(static_cast<const CastNode&>(*e).value, out, global);
    case PrimExprKind::Select: {
      const auto& s = static_cast<const SelectNode&>(*e);
      callsIn(s.cond, out, global);
      callsIn(s.trueValue, out, global);
      callsIn(s.falseValue, out, global);
      return;
    }
    case PrimExprKind::Load:
      for (const PrimExpr& i : static_cast<const LoadNode&>(*e).indices) callsIn(i, out, global);
      return;
    default: return;
  }
}
}  // namespace

bool anyStatement(const Stmt& s, const std::function<bool(const Stmt&)>& pred) {
  if (!s) return false;
  if (pred(s)) return true;
  switch (s->kind) {
    case StmtKind::For: return anyStatement(static_cast<const ForNode&>(*s).body, pred);
    case StmtKind::LetStmt: return anyStatement(static_cast<const LetStmtNode&>(*s).body, pred);
    case StmtKind::IfThenElse: {
      const auto& i = static_cast<const IfThenElseNode&>(*s);
      return anyStatement(i.thenCase, pred) || anyStatement(i.elseCase, pred);
    }
    case StmtKind::Allocate: return anyStatement(static_cast<const AllocateNode&>(*s).body, pred);
    case StmtKind::AllocateConst: return anyStatement(static_cast<const AllocateConstNode&>(*s).body, pred);
    case StmtKind::Seq:
      for (const Stmt& p : static_cast<const SeqNode&>(*s).stmts)
        if (anyStatement(p, pred)) return true;
      return false;
    case StmtKind::Store:
    case StmtKind::Evaluate: return false;
    case StmtKind::Block: return anyStatement(tir::lowerBlocks(s), pred);
  }
  return false;
}

bool containsVectorizedLoop(const Stmt& s) {
  return anyStatement(s, [](const Stmt& t) {
    return t->kind == StmtKind::For && static_cast<const ForNode&>(*t).forKind == ForKind::Vectorized;
  });
}

namespace {
void collectCalls(const Stmt& s, std::vector<std::string>& out, bool global) {
  if (!s) return;
  switch (s->kind) {
    case StmtKind::Store: {
      const auto& st = static_cast<const StoreNode&>(*s);
      for (const PrimExpr& i : st.indices) callsIn(i, out, global);
      return callsIn(st.value, out, global);
    }
    case StmtKind::For: {
      const auto& f = static_cast<const ForNode&>(*s);
      callsIn(f.min, out, global);
      callsIn(f.extent, out, global);
      return collectCalls(f.body, out, global);
    }
    case StmtKind::LetStmt: {
      const auto& l = static_cast<const LetStmtNode&>(*s);
      callsIn(l.value, out, global);
      return collectCalls(l.body, out, global);
    }
    case StmtKind::IfThenElse: {
      const auto& i = static_cast<const IfThenElseNode&>(*s);
      callsIn(i.cond, out, global);
      collectCalls(i.thenCase, out, global);
      return collectCalls(i.elseCase, out, global);
    }
    case StmtKind::Allocate: return collectCalls(static_cast<const AllocateNode&>(*s).body, out, global);
    case StmtKind::AllocateConst: return collectCalls(static_cast<const AllocateConstNode&>(*s).body, out, global);
    case StmtKind::Seq:
      for (const Stmt& p : static_cast<const SeqNode&>(*s).stmts) collectCalls(p, out, global);
      return;
    case StmtKind::Evaluate: return callsIn(static_cast<const EvaluateNode&>(*s).value, out, global);
    case StmtKind::Block: return collectCalls(tir::lowerBlocks(s), out, global);
  }
}
}  // namespace

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
  switch (s->kind) {
    case StmtKind::Store: {
      const auto& st = static_cast<const StoreNode&>(*s);
      return st.value->dtype.isFloat() && isMultiplyAccumulate(st) ? 2 * trips : 0;
    }
    case StmtKind::For: {
      const auto& f = static_cast<const ForNode&>(*s);
      const auto* extent = as<IntImmNode>(f.extent);
      return macFlops(f.body, extent ? trips * extent->value : trips);
    }
    case StmtKind::LetStmt: return macFlops(static_cast<const LetStmtNode&>(*s).body, trips);
    case StmtKind::IfThenElse: {
      const auto& i = static_cast<const IfThenElseNode&>(*s);
      return std::max(macFlops(i.thenCase, trips), macFlops(i.elseCase, trips));
    }
    case StmtKind::Allocate: return macFlops(static_cast<const AllocateNode&>(*s).body, trips);
    case StmtKind::AllocateConst: return macFlops(static_cast<const AllocateConstNode&>(*s).body, trips);
    case StmtKind::Seq: {
      int64_t n = 0;
      for (const Stmt& p : static_cast<const SeqNode&>(*s).stmts) n += macFlops(p, trips);
      return n;
    }
    case StmtKind::Evaluate: return 0;
    case StmtKind::Block: return macFlops(tir::lowerBlocks(s), trips);
  }
  return 0;
}

}  // namespace

int64_t multiplyAccumulateFlops(const IRModule& mod, const std::string& primFunc) {
  const auto* fn = passlab::as<PrimFuncNode>(mod->lookup(primFunc));
  return fn ? macFlops(fn->body, 1) : 0;
}

}  // namespace passlab::codegen
