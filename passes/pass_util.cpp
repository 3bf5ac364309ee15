#include "passes/pass_util.h"

#include "core/ir/functor.h"
#include "core/ir/tir_functor.h"

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

/// Collects `@callee` names from TIR.
void collectTirCalls(const tir::Stmt& root, std::set<std::string>& out) {
  tir::preOrderVisit(
      root, [](const tir::Stmt&) { return true; },
      [&](const tir::PrimExpr& e) {
        if (const auto* c = tir::as<tir::CallNode>(e); c && c->isGlobal) out.insert(c->callee);
        return true;
      });
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
