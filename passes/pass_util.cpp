#include "passes/pass_util.h"

#include "core/ir/functor.h"
#include "core/ir/tir.h"

namespace passlab::pass_util {

bool PurityAnalysis::impure(const Expr& root) {
  if (!root) return false;
  if (auto known = impure_.find(root.get()); known != impure_.end()) return known->second;
  std::vector<Expr> children;
  postOrderVisit(
      root,
      [&](const Expr& e) {
        if (impure_.count(e.get())) return;
        bool impure = false;
        if (const CallNode* call = as<CallNode>(e)) {
          const OpDef* op = call->op();
          impure = op && op->stateful;
        }
        // Building a closure runs nothing; its body's effects happen at its calls.
        if (!impure && e->kind != ExprKind::Function) {
          children.clear();
          appendChildren(e, children);
          for (const Expr& c : children) {
            auto it = c ? impure_.find(c.get()) : impure_.end();
            if (it != impure_.end() && it->second) {
              impure = true;
              break;
            }
          }
        }
        impure_[e.get()] = impure;
      },
      // Subtrees analysed by an earlier query are not walked again.
      [&](const Expr& e) { return !impure_.count(e.get()); });
  return impure_.at(root.get());
}

namespace {

/// Collects `@callee` names from TIR, iteratively (loop nests can be deep).
void collectTirCalls(const tir::Stmt& root, std::set<std::string>& out) {
  std::vector<tir::Stmt> stmts{root};
  std::vector<tir::PrimExpr> exprs;
  auto pushExpr = [&](const tir::PrimExpr& e) {
    if (e) exprs.push_back(e);
  };
  while (!stmts.empty() || !exprs.empty()) {
    if (!exprs.empty()) {
      tir::PrimExpr e = exprs.back();
      exprs.pop_back();
      switch (e->kind) {
        case tir::PrimExprKind::Binary: {
          auto* b = tir::as<tir::BinaryNode>(e);
          pushExpr(b->a);
          pushExpr(b->b);
          break;
        }
        case tir::PrimExprKind::Not: pushExpr(tir::as<tir::NotNode>(e)->a); break;
        case tir::PrimExprKind::Select: {
          auto* s = tir::as<tir::SelectNode>(e);
          pushExpr(s->cond);
          pushExpr(s->trueValue);
          pushExpr(s->falseValue);
          break;
        }
        case tir::PrimExprKind::Cast: pushExpr(tir::as<tir::CastNode>(e)->value); break;
        case tir::PrimExprKind::Call: {
          auto* c = tir::as<tir::CallNode>(e);
          if (c->isGlobal) out.insert(c->callee);
          for (const auto& a : c->args) pushExpr(a);
          break;
        }
        case tir::PrimExprKind::Load:
          for (const auto& i : tir::as<tir::LoadNode>(e)->indices) pushExpr(i);
          break;
        case tir::PrimExprKind::IntImm:
        case tir::PrimExprKind::FloatImm:
        case tir::PrimExprKind::Var: break;
      }
      continue;
    }
    tir::Stmt s = stmts.back();
    stmts.pop_back();
    if (!s) continue;
    switch (s->kind) {
      case tir::StmtKind::Store: {
        auto* st = tir::as<tir::StoreNode>(s);
        for (const auto& i : st->indices) pushExpr(i);
        pushExpr(st->value);
        break;
      }
      case tir::StmtKind::For: {
        auto* f = tir::as<tir::ForNode>(s);
        pushExpr(f->min);
        pushExpr(f->extent);
        stmts.push_back(f->body);
        break;
      }
      case tir::StmtKind::LetStmt: {
        auto* l = tir::as<tir::LetStmtNode>(s);
        pushExpr(l->value);
        stmts.push_back(l->body);
        break;
      }
      case tir::StmtKind::IfThenElse: {
        auto* i = tir::as<tir::IfThenElseNode>(s);
        pushExpr(i->cond);
        stmts.push_back(i->thenCase);
        stmts.push_back(i->elseCase);
        break;
      }
      case tir::StmtKind::Allocate: stmts.push_back(tir::as<tir::AllocateNode>(s)->body); break;
      case tir::StmtKind::AllocateConst: stmts.push_back(tir::as<tir::AllocateConstNode>(s)->body); break;
      case tir::StmtKind::Seq:
        for (const auto& c : tir::as<tir::SeqNode>(s)->stmts) stmts.push_back(c);
        break;
      case tir::StmtKind::Evaluate: pushExpr(tir::as<tir::EvaluateNode>(s)->value); break;
      case tir::StmtKind::Block: {
        auto* b = tir::as<tir::BlockNode>(s);
        for (const tir::BlockIterVar& iv : b->iterVars) {
          pushExpr(iv.min);
          pushExpr(iv.extent);
          pushExpr(iv.binding);
        }
        pushExpr(b->predicate);
        stmts.push_back(b->init);
        stmts.push_back(b->body);
        break;
      }
    }
  }
}

}  // namespace

std::set<std::string> referencedGlobals(const Expr& fn) {
  std::set<std::string> out;
  if (const PrimFuncNode* prim = as<PrimFuncNode>(fn)) {
    collectTirCalls(prim->body, out);
    return out;
  }
  postOrderVisit(fn, [&](const Expr& e) {
    if (const GlobalVarNode* g = as<GlobalVarNode>(e)) out.insert(g->name);
  });
  return out;
}

bool isConstantFilledWith(const Expr& e, double value) {
  const ConstantNode* c = as<ConstantNode>(e);
  if (!c || !c->data.defined()) return false;
  int64_t n = c->data.numElements();
  for (int64_t i = 0; i < n; ++i)
    if (c->data.getAsDouble(i) != value) return false;
  return true;
}

const TensorTypeNode* staticTensorType(const Expr& e) { return e ? staticTensorType(e->checkedType) : nullptr; }

const TensorTypeNode* staticTensorType(const Type& type) {
  const TensorTypeNode* t = as<TensorTypeNode>(type);
  if (!t || t->hasDynamicDim()) return nullptr;
  return t;
}

}  // namespace passlab::pass_util
