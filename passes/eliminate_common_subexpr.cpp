#include "passes/eliminate_common_subexpr.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/functor.h"
#include "passes/registry.h"

namespace passlab {

namespace {

/// The scope each node belongs to: the function, a branch of an `if`, or a
/// nested function. A node reached from several places keeps the first scope
/// found (in evaluation order). Scopes form a tree through `parent`.
class Scopes {
 public:
  explicit Scopes(const Function& fn) : root_(fn.get()) {
    parent_[root_] = nullptr;
    std::vector<std::pair<Expr, const ExprNode*>> work{{fn->body, root_}};
    std::vector<Expr> children;
    while (!work.empty()) {
      auto [e, scope] = std::move(work.back());
      work.pop_back();
      if (!e || !scopeOf_.emplace(e.get(), scope).second) continue;
      // Pushed in reverse so that evaluation order decides who reaches a node first.
      if (const IfNode* i = as<IfNode>(e)) {
        openScope(i->elseBranch.get(), scope);
        openScope(i->thenBranch.get(), scope);
        work.emplace_back(i->elseBranch, i->elseBranch.get());
        work.emplace_back(i->thenBranch, i->thenBranch.get());
        work.emplace_back(i->cond, scope);
        continue;
      }
      if (const FunctionNode* f = as<FunctionNode>(e)) {
        openScope(e.get(), scope);
        work.emplace_back(f->body, e.get());
        continue;
      }
      children.clear();
      appendChildren(e, children);
      for (auto it = children.rbegin(); it != children.rend(); ++it) work.emplace_back(*it, scope);
    }
  }

  /// The scope of `node` (the function's own scope for nodes not seen).
  const ExprNode* scopeOf(const ExprNode* node) const {
    auto it = scopeOf_.find(node);
    return it == scopeOf_.end() ? root_ : it->second;
  }
  /// The enclosing scope, or null at the function.
  const ExprNode* parent(const ExprNode* scope) const {
    auto it = parent_.find(scope);
    return it == parent_.end() ? nullptr : it->second;
  }

 private:
  void openScope(const ExprNode* scope, const ExprNode* enclosing) { parent_.emplace(scope, enclosing); }

  const ExprNode* root_;
  std::unordered_map<const ExprNode*, const ExprNode*> scopeOf_;
  std::unordered_map<const ExprNode*, const ExprNode*> parent_;
};

struct TableKey {
  const ExprNode* scope;
  size_t hash;
  bool operator==(const TableKey& o) const { return scope == o.scope && hash == o.hash; }
};
struct TableKeyHash {
  size_t operator()(const TableKey& k) const { return std::hash<const void*>()(k.scope) * 31 + k.hash; }
};

size_t callHash(const CallNode& call) {
  size_t h = std::hash<const void*>()(call.callee.get());
  for (const Expr& a : call.args) h = h * 1000003u ^ std::hash<const void*>()(a.get());
  return h * 31 + call.attrs.hash();
}

bool sameCall(const CallNode& a, const CallNode& b) {
  if (a.callee != b.callee || a.args.size() != b.args.size() || a.attrs != b.attrs) return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (a.args[i] != b.args[i]) return false;
  return true;
}

class CommonSubexprEliminator final : public ExprMutator {
 public:
  CommonSubexprEliminator(const Scopes& scopes, const std::set<OpId>& skipOps) : scopes_(scopes), skipOps_(skipOps) {}

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (const LetNode* let = as<LetNode>(e)) {
      letOfValue_.emplace(let->value.get(), e.get());
      openLets_.insert(e.get());
    }
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    // Merging keeps every type, so a rebuilt node inherits its original's type.
    if (rebuilt != original && !rebuilt->checkedType && original->checkedType) rebuilt->checkedType = original->checkedType;
    switch (original->kind) {
      case ExprKind::Call: return mergeCall(original, rebuilt);
      case ExprKind::Let: return aliasLet(original, rebuilt);
      case ExprKind::Dataflow: return aliasBindings(rebuilt);
      default: return rebuilt;
    }
  }

 private:
  Expr mergeCall(const Expr& original, const Expr& rebuilt) {
    const CallNode* call = as<CallNode>(rebuilt);
    const OpDef* op = call->op();
    if (!op || op->stateful || skipOps_.count(op->id)) return rebuilt;
    size_t hash = callHash(*call);
    const ExprNode* scope = scopes_.scopeOf(original.get());
    for (const ExprNode* s = scope; s; s = scopes_.parent(s)) {
      auto it = table_.find({s, hash});
      if (it == table_.end()) continue;
      for (const Expr& candidate : it->second)
        if (sameCall(*as<CallNode>(candidate), *call)) return candidate;
    }
    table_[{scope, hash}].push_back(rebuilt);
    firstOriginal_.emplace(rebuilt.get(), original.get());
    return rebuilt;
  }

  /// `let %b = <same call as an enclosing let %a>` becomes `let %b = %a`.
  Expr aliasLet(const Expr& original, const Expr& rebuilt) {
    openLets_.erase(original.get());
    const LetNode* now = as<LetNode>(rebuilt);
    auto first = firstOriginal_.find(now->value.get());
    if (first == firstOriginal_.end()) return rebuilt;
    auto owner = letOfValue_.find(first->second);
    if (owner == letOfValue_.end() || owner->second == original.get() || !openLets_.count(owner->second)) return rebuilt;
    const LetNode* binder = static_cast<const LetNode*>(owner->second);
    return makeLet(now->var, binder->var, now->body, now->span);
  }

  /// Within a dataflow block, a binding whose value is the node an earlier binding
  /// bound becomes an alias of that binding's variable.
  Expr aliasBindings(const Expr& rebuilt) {
    const DataflowNode* df = as<DataflowNode>(rebuilt);
    std::unordered_map<const ExprNode*, Var> boundBy;
    std::vector<Binding> bindings = df->bindings;
    bool changed = false;
    for (Binding& b : bindings) {
      if (!as<CallNode>(b.value)) continue;
      auto [it, inserted] = boundBy.emplace(b.value.get(), b.var);
      if (!inserted) {
        b.value = it->second;
        changed = true;
      }
    }
    return changed ? makeDataflow(std::move(bindings), df->body, df->span) : rebuilt;
  }

  const Scopes& scopes_;
  const std::set<OpId>& skipOps_;
  std::unordered_map<TableKey, std::vector<Expr>, TableKeyHash> table_;
  // A call kept in the table -> the original node it came from.
  std::unordered_map<const ExprNode*, const ExprNode*> firstOriginal_;
  // Original let value -> the let binding it; and the lets being rewritten (ancestors).
  std::unordered_map<const ExprNode*, const ExprNode*> letOfValue_;
  std::unordered_set<const ExprNode*> openLets_;
};

class EliminateCommonSubexprPass final : public FunctionPass {
 public:
  explicit EliminateCommonSubexprPass(const EliminateCommonSubexprOptions& options) {
    for (const std::string& name : options.skipOps) {
      const OpDef* op = findOp(name);
      if (!op) throwError({}, "EliminateCommonSubexpr: unknown op '" + name + "' in skip_ops", "pipeline");
      skipOps_.insert(op->id);
    }
    if (!options.skipOps.empty()) {
      std::vector<AttrValue> names;
      for (const std::string& n : options.skipOps) names.push_back(AttrValue::string(n));
      options_.set("skip_ops", AttrValue::array(std::move(names)));
    }
  }

  const PassInfo& info() const override { return builtinPassInfo("EliminateCommonSubexpr"); }

  Function runOnFunction(const Function& fn, const std::string&, const IRModule&, PassContext&) const override {
    Scopes scopes(fn);
    CommonSubexprEliminator eliminator(scopes, skipOps_);
    Expr result = eliminator.mutate(fn);
    if (result == fn) return fn;
    return std::static_pointer_cast<const FunctionNode>(result);
  }

 protected:
  IRModule finishModule(const IRModule& mod, PassContext& ctx) const override {
    std::vector<AttrValue> names;
    for (OpId id : skipOps_) names.push_back(AttrValue::string(std::string(opDef(id).name)));
    ctx.recordOption("skip_ops", AttrValue::array(std::move(names)), info().name);
    return mod;
  }

 private:
  std::set<OpId> skipOps_;
};

}  // namespace

PassPtr createEliminateCommonSubexprPass(const EliminateCommonSubexprOptions& options) {
  return std::make_shared<EliminateCommonSubexprPass>(options);
}

}  // namespace passlab
