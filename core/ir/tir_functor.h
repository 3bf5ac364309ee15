// Generic traversals of TIR: a visitor and a rebuilding mutator over every
// statement and expression kind, so passes over PrimFuncs handle every node
// (blocks included) without writing their own switch.
#pragma once

#include "core/ir/tir.h"

namespace passlab::tir {

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
