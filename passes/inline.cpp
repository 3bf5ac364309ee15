#include "passes/inline.h"

#include <functional>
#include <unordered_map>

#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/pass_util.h"
#include "core/pass/remark_rules.h"

namespace passlab {

namespace {

/// Copies a function body with parameters replaced by arguments and every
/// variable bound inside the body replaced by a fresh one.
class Instantiator final : public ExprMutator {
 public:
  Instantiator(const FunctionNode& callee, const std::vector<Expr>& args) {
    for (size_t i = 0; i < callee.params.size(); ++i) replacement_[callee.params[i].get()] = args[i];
    // Fresh binders: let variables, dataflow variables and nested function parameters.
    postOrderVisit(callee.body, [&](const Expr& e) {
      if (const LetNode* let = as<LetNode>(e)) renew(let->var);
      if (const DataflowNode* df = as<DataflowNode>(e))
        for (const Binding& b : df->bindings) renew(b.var);
      if (const FunctionNode* fn = as<FunctionNode>(e))
        for (const Var& p : fn->params) renew(p);
    });
  }

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    if (original->kind == ExprKind::Var) {
      auto it = replacement_.find(original.get());
      if (it != replacement_.end()) return it->second;
    }
    if (rebuilt != original && !rebuilt->checkedType && original->checkedType) rebuilt->checkedType = original->checkedType;
    return rebuilt;
  }

 private:
  void renew(const Var& v) {
    if (!replacement_.count(v.get())) replacement_[v.get()] = makeVar(v->name, v->annotation, v->isDataflow, v->span);
  }
  std::unordered_map<const ExprNode*, Expr> replacement_;
};

/// Replaces calls to the inline functions in `resolved` by instantiated bodies.
class CallInliner final : public ExprMutator {
 public:
  explicit CallInliner(const std::function<const FunctionNode*(const std::string&)>& resolved) : resolved_(resolved) {}
  /// Records a remark per call of a global function of `function` in `ctx`.
  void explainInto(PassContext& ctx, const std::string& pass, const std::string& function) {
    ctx_ = &ctx;
    pass_ = &pass;
    function_ = function;
  }

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    const CallNode* call = as<CallNode>(rebuilt);
    const GlobalVarNode* global = call ? as<GlobalVarNode>(call->callee) : nullptr;
    if (!global) return rebuilt;
    const FunctionNode* callee = resolved_(global->name);
    if (!callee || callee->params.size() != call->args.size()) {
      if (ctx_)
        remark(!callee ? RemarkRule::InlineNotMarked : RemarkRule::InlineArity, original,
               !callee ? "call to @" + global->name + " kept: @" + global->name + " is not marked Inline (or is an Extern stub)"
                       : "call to @" + global->name + " kept: " + std::to_string(call->args.size()) + " arguments for " +
                             std::to_string(callee->params.size()) + " parameters");
      return rebuilt;
    }
    if (ctx_)
      remark(RemarkRule::InlineInlined, original,
             "@" + global->name + (callee->attrs.contains(fn_attr::kCompiler) ? " inlined whole as a function literal (Compiler=" +
                                                                                    callee->attrs.find(fn_attr::kCompiler)->toString() + ")"
                                                                              : " inlined (marked Inline)"));
    if (callee->attrs.contains(fn_attr::kCompiler)) return inlineAsLiteral(*callee, *call, original);
    Instantiator instantiate(*callee, call->args);
    Expr body = instantiate.mutate(callee->body);
    if (!body->checkedType && original->checkedType) body->checkedType = original->checkedType;
    return body;
  }

  /// TVM keeps an external function whole when inlining it: the call site
  /// calls a copy of the function (attributes and all) in place, since only the
  /// codegen may look inside. Each site gets its own parameters.
  static Expr inlineAsLiteral(const FunctionNode& callee, const CallNode& call, const Expr& original) {
    std::vector<Expr> freshParams;
    std::vector<Var> params;
    for (const Var& p : callee.params) {
      params.push_back(makeVar(p->name, p->annotation, p->isDataflow, p->span));
      freshParams.push_back(params.back());
    }
    Instantiator instantiate(callee, freshParams);
    Function copy = makeFunction(std::move(params), instantiate.mutate(callee.body), callee.retType, callee.attrs, callee.span);
    Expr out = makeCall(copy, call.args, call.attrs, call.span);
    if (original->checkedType) out->checkedType = original->checkedType;
    return out;
  }

 private:
  void remark(RemarkRule rule, const Expr& node, std::string message) {
    ctx_->remark(makeRemark(*pass_, rule, function_, {node}, std::move(message)));
  }

  const std::function<const FunctionNode*(const std::string&)>& resolved_;
  PassContext* ctx_ = nullptr;  // remarks on: where they go
  const std::string* pass_ = nullptr;
  std::string function_;
};

/// What Inline is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& inlineDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "Inline";
    r.info.optLevel = 1;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description = "Inlines calls to global functions marked Inline=1 and removes those left unused.";
    r.info.guarantees = "No call to a global function with a non-zero Inline attribute remains outside skipped functions.";
    r.create = [](const AttrDict&) { return createInlinePass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kInlineRegistrar(inlineDeclaration);

class InlinePass final : public Pass {
 public:
  const PassInfo& info() const override { return inlineDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    const std::string& pass = info().name;
    std::map<std::string, Function> inlinable;
    for (const auto& [name, fn] : mod->functions) {
      const FunctionNode* f = as<FunctionNode>(fn);
      if (!f || f->attrs.getInt(fn_attr::kInline, 0) == 0) continue;
      // An extern stub has no body worth inlining; the skip is recorded below, once.
      // Compiler functions are inlined whole, as function literals (see CallInliner).
      if (f->attrs.getInt(fn_attr::kExtern, 0) != 0) continue;
      inlinable.emplace(name, std::static_pointer_cast<const FunctionNode>(fn));
    }
    if (inlinable.empty()) return mod;

    // Inline functions first get their own inline calls resolved (depth-first;
    // the chain of inline functions is short, unlike expression chains).
    std::map<std::string, Function> resolved;
    std::set<std::string> inProgress;
    std::function<const FunctionNode*(const std::string&)> lookup = [&](const std::string& name) -> const FunctionNode* {
      auto done = resolved.find(name);
      if (done != resolved.end()) return done->second.get();
      auto candidate = inlinable.find(name);
      if (candidate == inlinable.end()) return nullptr;
      if (!inProgress.insert(name).second)
        throwError(candidate->second->span, "cannot inline @" + name + ": it is recursive (through inline functions)", "inline.recursive");
      CallInliner inliner(lookup);
      if (ctx.remarksEnabled()) inliner.explainInto(ctx, pass, name);
      Expr body = inliner.mutate(candidate->second);
      inProgress.erase(name);
      return resolved.emplace(name, std::static_pointer_cast<const FunctionNode>(body)).first->second.get();
    };

    std::map<std::string, Expr> functions = mod->functions;
    bool changed = false;
    for (auto& [name, fn] : functions) {
      const FunctionNode* f = as<FunctionNode>(fn);
      if (!f) continue;
      if (std::optional<std::string> reason = defaultFunctionSkipReason(*f)) {
        bool markedInline = f->attrs.getInt(fn_attr::kInline, 0) != 0;
        bool inlinedWhole = inlinable.count(name) != 0;
        ctx.notifySkip({pass, name,
                        inlinedWhole   ? *reason + "; inlined whole into its callers, nothing inlined into it"
                        : markedInline ? "marked Inline but " + *reason + "; not inlined"
                                       : *reason});
        continue;
      }
      Expr updated;
      if (inlinable.count(name)) {
        lookup(name);
        updated = resolved.at(name);
      } else {
        CallInliner inliner(lookup);
        if (ctx.remarksEnabled()) inliner.explainInto(ctx, pass, name);
        updated = inliner.mutate(fn);
      }
      if (updated != fn) {
        fn = updated;
        changed = true;
      }
    }

    // Remove inline functions nothing refers to any more (TVM's Inline does the same).
    std::set<std::string> referenced;
    for (const auto& [name, fn] : functions)
      for (const std::string& callee : pass_util::referencedGlobals(fn))
        if (callee != name) referenced.insert(callee);
    for (const auto& [name, fn] : inlinable) {
      if (name == "main" || referenced.count(name)) continue;
      functions.erase(name);
      changed = true;
    }
    return changed ? makeModule(std::move(functions), mod->attrs) : mod;
  }
};

}  // namespace

PassPtr createInlinePass() { return std::make_shared<InlinePass>(); }

}  // namespace passlab
