// Generic traversals of TIR, the one place that knows each node's children:
//   forEachChild     the direct children of a statement or expression;
//   preOrderVisit    every node under a statement, iteratively;
//   StmtExprVisitor  a recursive visitor to override per kind;
//   StmtExprMutator  a rebuilding mutator (unchanged subtrees stay shared).
// Passes, analyses and code generators walk TIR through these, so a new node
// kind (blocks were one) is taught here and nowhere else; only code that
// really does something different per kind (printers, the interpreter, the
// LLVM emitter) switches on StmtKind/PrimExprKind itself.
#pragma once

#include <functional>

#include "core/ir/tir.h"

namespace passlab::tir {

/// Calls `onExpr` on each operand of `e`, in evaluation order (binary: a, b;
/// select: cond, true, false; call: args; load: indices; let: value, body;
/// a let's variable is a binder, not an operand).
template <class OnExpr>
void forEachChild(const PrimExpr& e, OnExpr&& onExpr) {
  switch (e->kind) {
    case PrimExprKind::IntImm:
    case PrimExprKind::FloatImm:
    case PrimExprKind::Var: return;
    case PrimExprKind::Binary: {
      const auto& b = static_cast<const BinaryNode&>(*e);
      onExpr(b.a);
      onExpr(b.b);
      return;
    }
    case PrimExprKind::Not: onExpr(static_cast<const NotNode&>(*e).a); return;
    case PrimExprKind::Select: {
      const auto& s = static_cast<const SelectNode&>(*e);
      onExpr(s.cond);
      onExpr(s.trueValue);
      onExpr(s.falseValue);
      return;
    }
    case PrimExprKind::Cast: onExpr(static_cast<const CastNode&>(*e).value); return;
    case PrimExprKind::Call:
      for (const PrimExpr& a : static_cast<const CallNode&>(*e).args) onExpr(a);
      return;
    case PrimExprKind::Load:
      for (const PrimExpr& i : static_cast<const LoadNode&>(*e).indices) onExpr(i);
      return;
    case PrimExprKind::Let: {
      const auto& l = static_cast<const LetNode&>(*e);
      onExpr(l.value);
      onExpr(l.body);
      return;
    }
  }
}

/// Calls `onStmt` on each sub-statement and `onExpr` on each expression of
/// `s`, in the order they run; absent parts (an if without else, a block
/// without predicate or init) are skipped. Store: indices, value. For: min,
/// extent, body. LetStmt: value, body. IfThenElse: cond, then, else.
/// Allocate(Const), Seq: the body or parts. Assert: cond, body. Block: each iteration variable's
/// min, extent and binding, the predicate, read then write regions, init, body.
template <class OnStmt, class OnExpr>
void forEachChild(const Stmt& s, OnStmt&& onStmt, OnExpr&& onExpr) {
  auto expr = [&](const PrimExpr& e) {
    if (e) onExpr(e);
  };
  auto stmt = [&](const Stmt& c) {
    if (c) onStmt(c);
  };
  switch (s->kind) {
    case StmtKind::Store: {
      const auto& st = static_cast<const StoreNode&>(*s);
      for (const PrimExpr& i : st.indices) expr(i);
      expr(st.value);
      return;
    }
    case StmtKind::For: {
      const auto& f = static_cast<const ForNode&>(*s);
      expr(f.min);
      expr(f.extent);
      stmt(f.body);
      return;
    }
    case StmtKind::LetStmt: {
      const auto& l = static_cast<const LetStmtNode&>(*s);
      expr(l.value);
      stmt(l.body);
      return;
    }
    case StmtKind::IfThenElse: {
      const auto& i = static_cast<const IfThenElseNode&>(*s);
      expr(i.cond);
      stmt(i.thenCase);
      stmt(i.elseCase);
      return;
    }
    case StmtKind::Allocate: stmt(static_cast<const AllocateNode&>(*s).body); return;
    case StmtKind::AllocateConst: stmt(static_cast<const AllocateConstNode&>(*s).body); return;
    case StmtKind::Seq:
      for (const Stmt& part : static_cast<const SeqNode&>(*s).stmts) stmt(part);
      return;
    case StmtKind::Evaluate: expr(static_cast<const EvaluateNode&>(*s).value); return;
    case StmtKind::Assert: {
      const auto& a = static_cast<const AssertStmtNode&>(*s);
      expr(a.cond);
      stmt(a.body);
      return;
    }
    case StmtKind::Block: {
      const auto& b = static_cast<const BlockNode&>(*s);
      for (const BlockIterVar& iv : b.iterVars) {
        expr(iv.min);
        expr(iv.extent);
        expr(iv.binding);
      }
      expr(b.predicate);
      for (const auto* regions : {&b.reads, &b.writes})
        for (const BufferRegion& r : *regions)
          for (const auto& [mn, ext] : r.ranges) {
            expr(mn);
            expr(ext);
          }
      stmt(b.init);
      stmt(b.body);
      return;
    }
  }
}

/// Calls `onStmt` on `root` and every statement under it and `onExpr` on every
/// expression, parents before children, children in forEachChild order. A
/// callback returning false skips what lies under that node. Iterative, so
/// long sequences and deep nests do not grow the C stack.
void preOrderVisit(const Stmt& root, const std::function<bool(const Stmt&)>& onStmt,
                   const std::function<bool(const PrimExpr&)>& onExpr);

/// True when `pred` holds for `e` or one of its sub-expressions (stops at the first).
bool anyExpr(const PrimExpr& e, const std::function<bool(const PrimExpr&)>& pred);

/// Visits every statement and expression in pre-order. Override visit() for
/// the kinds of interest and call visitChildren() to keep descending.
class StmtExprVisitor {
 public:
  virtual ~StmtExprVisitor() = default;
  /// Visits `e` (null is skipped).
  virtual void visit(const PrimExpr& e) { if (e) visitChildren(e); }
  /// Visits `s` (null is skipped).
  virtual void visit(const Stmt& s) { if (s) visitChildren(s); }

 protected:
  /// Visits the operands of `e`.
  void visitChildren(const PrimExpr& e);
  /// Visits the sub-statements and expressions of `s`; for a block its
  /// bindings, domains, predicate, regions, init and body.
  void visitChildren(const Stmt& s);
};

/// Rebuilds statements and expressions bottom-up. A node is rebuilt only when a
/// child changed, so unchanged subtrees stay shared (and mutate() returns its
/// argument when nothing changed).
class StmtExprMutator {
 public:
  virtual ~StmtExprMutator() = default;
  /// `e` with its children mutated (null stays null).
  virtual PrimExpr mutate(const PrimExpr& e) { return e ? mutateChildren(e) : e; }
  /// `s` with its children mutated (null stays null).
  virtual Stmt mutate(const Stmt& s) { return s ? mutateChildren(s) : s; }

 protected:
  /// `e` rebuilt from its mutated operands, or `e` itself.
  PrimExpr mutateChildren(const PrimExpr& e);
  /// `s` rebuilt from its mutated children, or `s` itself.
  Stmt mutateChildren(const Stmt& s);
  /// Mutates each of `v`; true when one changed.
  bool mutateAll(std::vector<PrimExpr>& v);
};

/// `s` with every use of the variables in `map` replaced by their values
/// (shares what does not mention them).
Stmt substitute(const Stmt& s, const std::vector<std::pair<const VarNode*, PrimExpr>>& map);
/// `e` with the variables of `map` replaced.
PrimExpr substitute(const PrimExpr& e, const std::vector<std::pair<const VarNode*, PrimExpr>>& map);

}  // namespace passlab::tir
