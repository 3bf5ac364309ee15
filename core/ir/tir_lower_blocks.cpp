#include "core/ir/tir_lower_blocks.h"

#include "core/ir/tir_functor.h"

namespace passlab::tir {

namespace {

class BlockFinder final : public StmtExprVisitor {
 public:
  bool found = false;
  using StmtExprVisitor::visit;
  void visit(const Stmt& s) override {
    if (found || !s) return;
    if (s->kind == StmtKind::Block) {
      found = true;
      return;
    }
    visitChildren(s);
  }
  // Expressions never hold statements.
  void visit(const PrimExpr&) override {}
};

/// A binding simple enough to copy into every use: evaluating it twice costs
/// nothing, and substituting keeps index patterns visible to the code generators.
bool substitutable(const BlockIterVar& iv) {
  const PrimExpr& b = iv.binding;
  return b->dtype == iv.var->dtype && (b->kind == PrimExprKind::Var || b->kind == PrimExprKind::IntImm);
}

class BlockLowerer final : public StmtExprMutator {
 public:
  using StmtExprMutator::mutate;
  Stmt mutate(const Stmt& s) override {
    if (!s) return s;
    if (s->kind != StmtKind::Block) return StmtExprMutator::mutate(s);
    const auto& b = static_cast<const BlockNode&>(*s);
    // Inner blocks first: their bindings may use this block's variables,
    // which the substitution below then reaches.
    Stmt body = mutate(b.body);
    if (b.init) {
      Stmt init = mutate(b.init);
      PrimExpr cond;
      for (const BlockIterVar& iv : b.iterVars) {
        if (iv.iterKind != IterKind::Reduce) continue;
        PrimExpr atMin = binary(BinaryOp::EQ, iv.var, iv.min);
        cond = cond ? binary(BinaryOp::And, cond, atMin) : atMin;
      }
      Stmt first = cond ? ifThenElse(cond, init) : init;
      body = seq({first, body});
    }
    for (auto it = b.allocBuffers.rbegin(); it != b.allocBuffers.rend(); ++it) body = allocate(*it, body);
    if (b.predicate) body = ifThenElse(b.predicate, body);
    std::vector<std::pair<const VarNode*, PrimExpr>> subst;
    for (const BlockIterVar& iv : b.iterVars)
      if (iv.binding && substitutable(iv)) subst.emplace_back(iv.var.get(), iv.binding);
    body = substitute(body, subst);
    for (auto it = b.iterVars.rbegin(); it != b.iterVars.rend(); ++it)
      if (it->binding && !substitutable(*it)) body = letStmt(it->var, substitute(it->binding, subst), body);
    return body;
  }
};

}  // namespace

bool hasBlocks(const Stmt& s) {
  BlockFinder f;
  f.visit(s);
  return f.found;
}

Stmt lowerBlocks(const Stmt& s) {
  if (!hasBlocks(s)) return s;
  return BlockLowerer().mutate(s);
}

PrimFunc lowerBlocks(const PrimFunc& fn) {
  if (!fn || !hasBlocks(fn->body)) return fn;
  return makePrimFunc(fn->params, lowerBlocks(fn->body), fn->attrs, fn->span);
}

IRModule lowerBlocks(const IRModule& mod) {
  IRModule out = mod;
  for (const auto& [name, fn] : mod->functions) {
    if (fn->kind != ExprKind::PrimFunc) continue;
    auto prim = std::static_pointer_cast<const PrimFuncNode>(fn);
    PrimFunc lowered = lowerBlocks(prim);
    if (lowered != prim) out = withFunction(out, name, lowered);
  }
  return out;
}

}  // namespace passlab::tir
