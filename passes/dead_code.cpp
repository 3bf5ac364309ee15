#include "passes/dead_code.h"

#include <unordered_map>
#include <unordered_set>

#include "core/ir/functor.h"
#include "passes/pass_util.h"
#include "passes/registry.h"

namespace passlab {

namespace {

/// Which binding variables are live: reached from the function result, or bound to
/// an impure value. A pure binding's value is only explored once its variable is
/// found to be used, so chains of dead bindings die together.
class Liveness {
 public:
  Liveness(const Function& fn, const pass_util::PurityAnalysis& purity) : purity_(purity) {
    std::vector<Expr> work{fn->body};
    std::vector<Expr> children;
    while (!work.empty()) {
      Expr e = std::move(work.back());
      work.pop_back();
      if (!e || !visited_.insert(e.get()).second) continue;
      switch (e->kind) {
        case ExprKind::Var: {
          const VarNode* v = as<VarNode>(e);
          live_.insert(v);
          if (auto it = pending_.find(v); it != pending_.end()) {
            for (Expr& value : it->second) work.push_back(std::move(value));
            pending_.erase(it);
          }
          break;
        }
        case ExprKind::Let: {
          const LetNode* let = as<LetNode>(e);
          work.push_back(let->body);
          bind(let->var.get(), let->value, work);
          break;
        }
        case ExprKind::Dataflow: {
          const DataflowNode* df = as<DataflowNode>(e);
          work.push_back(df->body);
          for (const Binding& b : df->bindings) bind(b.var.get(), b.value, work);
          break;
        }
        case ExprKind::Function:
          // Parameters are definitions, not uses.
          work.push_back(as<FunctionNode>(e)->body);
          break;
        default:
          children.clear();
          appendChildren(e, children);
          for (Expr& c : children) work.push_back(std::move(c));
      }
    }
  }

  /// True when the binding of `var` to `value` must stay.
  bool keep(const VarNode* var, const Expr& value) const { return live_.count(var) || purity_.impure(value); }

 private:
  void bind(const VarNode* var, const Expr& value, std::vector<Expr>& work) {
    if (keep(var, value))
      work.push_back(value);
    else
      pending_[var].push_back(value);
  }

  const pass_util::PurityAnalysis& purity_;
  std::unordered_set<const ExprNode*> visited_;
  std::unordered_set<const VarNode*> live_;
  std::unordered_map<const VarNode*, std::vector<Expr>> pending_;
};

class DeadBindingRemover final : public ExprMutator {
 public:
  explicit DeadBindingRemover(const Liveness& liveness) : liveness_(liveness) {}

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    if (const LetNode* let = as<LetNode>(original)) {
      if (!liveness_.keep(let->var.get(), let->value)) return as<LetNode>(rebuilt)->body;
      return rebuilt;
    }
    if (const DataflowNode* df = as<DataflowNode>(original)) {
      const DataflowNode* now = as<DataflowNode>(rebuilt);
      std::vector<Binding> kept;
      for (size_t i = 0; i < df->bindings.size(); ++i)
        if (liveness_.keep(df->bindings[i].var.get(), df->bindings[i].value)) kept.push_back(now->bindings[i]);
      if (kept.size() == df->bindings.size()) return rebuilt;
      if (kept.empty()) return now->body;
      return makeDataflow(std::move(kept), now->body, now->span);
    }
    return rebuilt;
  }

 private:
  const Liveness& liveness_;
};

class DeadCodeEliminationPass final : public FunctionPass {
 public:
  explicit DeadCodeEliminationPass(DeadCodeEliminationOptions options) : settings_(std::move(options)) {
    // Only options that differ from the defaults are stored, so pipelineText stays short.
    DeadCodeEliminationOptions defaults;
    if (settings_.removeUnusedFunctions != defaults.removeUnusedFunctions)
      options_.set("remove_unused_functions", AttrValue::boolean(settings_.removeUnusedFunctions));
    if (settings_.entryFunctions != defaults.entryFunctions) {
      std::vector<AttrValue> names;
      for (const std::string& n : settings_.entryFunctions) names.push_back(AttrValue::string(n));
      options_.set("entry_functions", AttrValue::array(std::move(names)));
    }
  }

  const PassInfo& info() const override { return builtinPassInfo("DeadCodeElimination"); }

  Function runOnFunction(const Function& fn, const std::string&, const IRModule&, PassContext&) const override {
    pass_util::PurityAnalysis purity(fn);
    Liveness liveness(fn, purity);
    DeadBindingRemover remover(liveness);
    Expr result = remover.mutate(fn);
    if (result == fn) return fn;
    return std::static_pointer_cast<const FunctionNode>(result);
  }

 protected:
  IRModule finishModule(const IRModule& mod, PassContext& ctx) const override {
    const std::string& pass = info().name;
    ctx.recordOption("remove_unused_functions", AttrValue::boolean(settings_.removeUnusedFunctions), pass);
    if (!settings_.removeUnusedFunctions) return mod;
    std::vector<std::string> work;
    for (const std::string& entry : settings_.entryFunctions)
      if (mod->lookup(entry)) work.push_back(entry);
    if (work.empty()) {
      Diagnostic d;
      d.severity = Severity::Warning;
      d.rule = "dce.no-entry";
      d.message = "DeadCodeElimination: none of the entry functions exists; no function removed";
      ctx.notifyDiagnostic(d);
      return mod;
    }
    std::unordered_set<std::string> reachable(work.begin(), work.end());
    while (!work.empty()) {
      std::string name = std::move(work.back());
      work.pop_back();
      Expr fn = mod->lookup(name);
      if (!fn) continue;
      for (const std::string& callee : pass_util::referencedGlobals(fn))
        if (reachable.insert(callee).second) work.push_back(callee);
    }
    std::map<std::string, Expr> kept;
    for (const auto& [name, fn] : mod->functions)
      if (reachable.count(name)) kept.emplace(name, fn);
    if (kept.size() == mod->functions.size()) return mod;
    return makeModule(std::move(kept), mod->attrs);
  }

 private:
  DeadCodeEliminationOptions settings_;
};

}  // namespace

PassPtr createDeadCodeEliminationPass(const DeadCodeEliminationOptions& options) {
  return std::make_shared<DeadCodeEliminationPass>(options);
}

}  // namespace passlab
