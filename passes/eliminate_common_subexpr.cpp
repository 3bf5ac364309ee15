#include "passes/eliminate_common_subexpr.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "core/pass/remark_rules.h"

namespace passlab {

namespace {

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

/// Merges calls bottom-up. Scopes come from the traversal itself: ExprMutator
/// visits depth-first (preVisit on the way down, rewrite on the way up), so a
/// stack of the `if` branches and nested functions being visited gives, at each
/// call, the innermost scope it was first reached in and all enclosing ones.
class CommonSubexprEliminator final : public ExprMutator {
 public:
  CommonSubexprEliminator(const Function& root, const std::set<OpId>& skipOps) : skipOps_(skipOps) {
    scopes_.push_back(root.get());
  }
  /// Records a remark per merged (or skipped) call of `function` in `ctx`.
  void explainInto(PassContext& ctx, const std::string& pass, const std::string& function) {
    ctx_ = &ctx;
    pass_ = &pass;
    function_ = function;
  }

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (branches_.count(e.get()) || (e->kind == ExprKind::Function && e.get() != scopes_.front())) scopes_.push_back(e.get());
    if (const IfNode* i = as<IfNode>(e)) {
      branches_.insert(i->thenBranch.get());
      branches_.insert(i->elseBranch.get());
    }
    if (const LetNode* let = as<LetNode>(e)) {
      letOfValue_.emplace(let->value.get(), e.get());
      openLets_.insert(e.get());
    }
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    // Merging keeps every type, so a rebuilt node inherits its original's type.
    if (rebuilt != original && !rebuilt->checkedType && original->checkedType) rebuilt->checkedType = original->checkedType;
    Expr result = rebuilt;
    switch (original->kind) {
      case ExprKind::Call: result = mergeCall(original, rebuilt); break;
      case ExprKind::Let: result = aliasLet(original, rebuilt); break;
      case ExprKind::Dataflow: result = aliasBindings(rebuilt); break;
      default: break;
    }
    // A scope ends with the node that opened it.
    if (scopes_.size() > 1 && scopes_.back() == original.get()) scopes_.pop_back();
    return result;
  }

 private:
  Expr mergeCall(const Expr& original, const Expr& rebuilt) {
    const CallNode* call = as<CallNode>(rebuilt);
    const OpDef* op = call->op();
    if (!op || op->stateful || skipOps_.count(op->id)) {
      if (ctx_ && op && skipOps_.count(op->id))
        ctx_->remark(makeRemark(*pass_, RemarkRule::CseSkipOp, function_, {original},
                                std::string(op->name) + " is never merged: it is listed in skip_ops"));
      return rebuilt;
    }
    size_t hash = callHash(*call);
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      auto [begin, end] = table_.equal_range({*s, hash});
      for (auto it = begin; it != end; ++it)
        if (sameCall(*as<CallNode>(it->second), *call)) {
          if (ctx_) {
            auto first = originalOf_.find(it->second.get());
            std::vector<Expr> nodes{original};
            if (first != originalOf_.end()) nodes.push_back(first->second);
            ctx_->remark(makeRemark(*pass_, RemarkRule::CseMerged, function_, std::move(nodes),
                                    std::string(op->name) + " merged with an equal earlier call"));
          }
          return it->second;
        }
    }
    table_.emplace(TableKey{scopes_.back(), hash}, rebuilt);
    if (ctx_) originalOf_.emplace(rebuilt.get(), original);
    // Only let values can become the target of an alias (aliasLet).
    if (!letOfValue_.empty() && letOfValue_.count(original.get())) firstOriginal_.emplace(rebuilt.get(), original.get());
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

  const std::set<OpId>& skipOps_;
  // The function, then the if-branches / nested functions being visited (innermost last).
  std::vector<const ExprNode*> scopes_;
  std::unordered_set<const ExprNode*> branches_;
  std::unordered_multimap<TableKey, Expr, TableKeyHash> table_;
  // A let value kept in the table -> the original node it came from.
  std::unordered_map<const ExprNode*, const ExprNode*> firstOriginal_;
  // Original let value -> the let binding it; and the lets being rewritten (ancestors).
  std::unordered_map<const ExprNode*, const ExprNode*> letOfValue_;
  std::unordered_set<const ExprNode*> openLets_;
  PassContext* ctx_ = nullptr;  // remarks on: where they go
  const std::string* pass_ = nullptr;
  std::string function_;
  std::unordered_map<const ExprNode*, Expr> originalOf_;  // remarks: table entry -> the node it was in the input
};

/// What EliminateCommonSubexpr is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& eliminateCommonSubexprDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = "EliminateCommonSubexpr";
    r.level = PassLevel::Function;
    r.info.optLevel = 3;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description = "Merges repeated pure op calls with equal attributes and identical arguments.";
    r.info.guarantees = "No two pure op calls in one scope have the same op, attributes and argument nodes; stateful ops are untouched.";
    r.options = {{"skip_ops", Kind::Array, AttrValue::array({}), "op names never merged (besides stateful ops)"}};
    r.create = [](const AttrDict& options) {
      EliminateCommonSubexprOptions o;
      o.skipOps = optionStrings(options, "skip_ops");
      return createEliminateCommonSubexprPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kEliminateCommonSubexprRegistrar(eliminateCommonSubexprDeclaration);

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

  const PassInfo& info() const override { return eliminateCommonSubexprDeclaration().info; }

  Function runOnFunction(const Function& fn, const std::string& name, const IRModule&, PassContext& ctx) const override {
    CommonSubexprEliminator eliminator(fn, skipOps_);
    if (ctx.remarksEnabled()) eliminator.explainInto(ctx, info().name, name);
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
