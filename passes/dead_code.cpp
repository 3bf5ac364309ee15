#include "passes/dead_code.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/pass_util.h"
#include "passes/legalize_relax.h"
#include "core/pass/remark_rules.h"
#include "core/trace/remark_nodes.h"

namespace passlab {

namespace {

/// Which bindings must stay: those whose variable is reached from the function
/// result, and those whose value is impure. A binding's value is only explored
/// once its variable is found to be used, so chains of dead bindings die
/// together; purity is computed only for the values left over.
class Liveness {
 public:
  explicit Liveness(const Function& fn) {
    std::vector<Expr> work{fn->body};
    explore(work);
    // Whatever is still pending is unused. Impure values stay anyway, and what
    // they use becomes live, which can keep further bindings: repeat until stable.
    pass_util::PurityAnalysis purity;
    bool grew = true;
    while (grew) {
      grew = false;
      for (auto it = pending_.begin(); it != pending_.end();) {
        std::vector<Expr> values;
        for (const Expr& value : it->second)
          if (purity.impure(value)) values.push_back(value);
        if (values.empty()) {
          ++it;
          continue;
        }
        keptImpure_.insert(it->first);
        std::vector<Expr> rest;
        for (const Expr& value : it->second)
          if (!purity.impure(value)) rest.push_back(value);
        work.insert(work.end(), values.begin(), values.end());
        if (rest.empty()) {
          it = pending_.erase(it);
        } else {
          it->second = std::move(rest);
          ++it;
        }
        grew = true;
      }
      if (grew) explore(work);
    }
    for (const auto& [var, values] : pending_) deadBindings_ += values.size();
  }

  /// True when the binding of `var` must stay.
  bool keep(const VarNode* var) const { return live_.count(var) || keptImpure_.count(var); }
  /// True when some binding can go.
  bool anyDead() const { return deadBindings_ > 0; }

 private:
  void explore(std::vector<Expr>& work) {
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

  void bind(const VarNode* var, const Expr& value, std::vector<Expr>& work) {
    if (live_.count(var) || keptImpure_.count(var))
      work.push_back(value);
    else
      pending_[var].push_back(value);
  }

  std::unordered_set<const ExprNode*> visited_;
  std::unordered_set<const VarNode*> live_;
  std::unordered_set<const VarNode*> keptImpure_;
  std::unordered_map<const VarNode*, std::vector<Expr>> pending_;
  size_t deadBindings_ = 0;
};

class DeadBindingRemover final : public ExprMutator {
 public:
  explicit DeadBindingRemover(const Liveness& liveness) : liveness_(liveness) {}
  /// Records a remark per removed binding of `function` in `ctx`.
  void explainInto(PassContext& ctx, const std::string& pass, const std::string& function) {
    ctx_ = &ctx;
    pass_ = &pass;
    function_ = function;
  }

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    if (const LetNode* let = as<LetNode>(original)) {
      if (!liveness_.keep(let->var.get())) {
        removed(let->var, let->value);
        return as<LetNode>(rebuilt)->body;
      }
      return rebuilt;
    }
    if (const DataflowNode* df = as<DataflowNode>(original)) {
      const DataflowNode* now = as<DataflowNode>(rebuilt);
      std::vector<Binding> kept;
      for (size_t i = 0; i < df->bindings.size(); ++i)
        if (liveness_.keep(df->bindings[i].var.get()))
          kept.push_back(now->bindings[i]);
        else
          removed(df->bindings[i].var, df->bindings[i].value);
      if (kept.size() == df->bindings.size()) return rebuilt;
      if (kept.empty()) return now->body;
      return makeDataflow(std::move(kept), now->body, now->span);
    }
    return rebuilt;
  }

 private:
  void removed(const Var& var, const Expr& value) {
    if (ctx_)
      ctx_->remark(makeRemark(*pass_, RemarkRule::DceBinding, function_, {value},
                              "binding of %" + var->name + " (" + describeNode(value) + ") removed: nothing uses it"));
  }

  const Liveness& liveness_;
  PassContext* ctx_ = nullptr;  // remarks on: where they go
  const std::string* pass_ = nullptr;
  std::string function_;
};

/// What DeadCodeElimination is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& deadCodeDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    DeadCodeEliminationOptions defaults;
    PassRegistration r;
    r.info.name = "DeadCodeElimination";
    r.level = PassLevel::Function;
    r.info.optLevel = 1;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering};
    r.info.description =
        "Removes let and dataflow bindings whose variable is unused and whose value is pure. On a Relax module "
        "(TVMScript), as TVM's Relax DCE, public functions are entries too and unreachable private functions go.";
    r.info.guarantees =
        "No unused pure binding remains; functions with nothing to remove are unchanged (same pointer). "
        "With remove_unused_functions, every global is reachable from an entry function.";
    r.options = {
        {"remove_unused_functions", Kind::Bool, AttrValue::boolean(defaults.removeUnusedFunctions),
         "also remove global functions no entry function reaches"},
        {"entry_functions", Kind::Array, stringArrayValue(defaults.entryFunctions), "roots kept by remove_unused_functions"},
    };
    r.create = [](const AttrDict& options) {
      DeadCodeEliminationOptions o;
      o.removeUnusedFunctions = options.getBool("remove_unused_functions");
      if (options.contains("entry_functions")) o.entryFunctions = optionStrings(options, "entry_functions");
      return createDeadCodeEliminationPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kDeadCodeRegistrar(deadCodeDeclaration);

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

  const PassInfo& info() const override { return deadCodeDeclaration().info; }

  Function runOnFunction(const Function& fn, const std::string& name, const IRModule&, PassContext& ctx) const override {
    Liveness liveness(fn);
    if (!liveness.anyDead()) return fn;
    DeadBindingRemover remover(liveness);
    if (ctx.remarksEnabled()) remover.explainInto(ctx, info().name, name);
    Expr result = remover.mutate(fn);
    if (result == fn) return fn;
    return std::static_pointer_cast<const FunctionNode>(result);
  }

 protected:
  IRModule finishModule(const IRModule& mod, PassContext& ctx) const override {
    const std::string& pass = info().name;
    ctx.recordOption("remove_unused_functions", AttrValue::boolean(settings_.removeUnusedFunctions), pass);
    // TVM's Relax DeadCodeElimination: every public function is an entry too, and
    // private functions no entry reaches always go.
    const bool relax = isRelaxModule(mod);
    if (!settings_.removeUnusedFunctions && !relax) return mod;
    std::vector<std::string> work;
    for (const std::string& entry : settings_.entryFunctions)
      if (mod->lookup(entry)) work.push_back(entry);
    if (relax)
      for (const auto& [name, fn] : mod->functions)
        if (functionAttrs(fn).contains(fn_attr::kGlobalSymbol) && std::find(work.begin(), work.end(), name) == work.end())
          work.push_back(name);
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
    for (const auto& [name, fn] : mod->functions) {
      if (reachable.count(name)) {
        kept.emplace(name, fn);
      } else if (ctx.remarksEnabled()) {
        std::string entries;
        for (const std::string& e : settings_.entryFunctions) entries += (entries.empty() ? "@" : ", @") + e;
        ctx.remark(makeRemark(pass, RemarkRule::DceFunction, name, {fn}, "@" + name + " removed: not reachable from " + entries));
      }
    }
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
