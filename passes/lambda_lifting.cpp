#include "passes/lambda_lifting.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "core/pass/remark_rules.h"

namespace passlab {

namespace {

bool isCompilerFunction(const Expr& e) {
  const auto* fn = as<FunctionNode>(e);
  return fn && fn->attrs.contains(fn_attr::kCompiler);
}

/// Children of `e` in use positions: binders (let variables, parameters,
/// dataflow variables) are excluded. Indices into appendChildren's layout.
std::vector<size_t> usePositions(const Expr& e, size_t numChildren) {
  std::vector<size_t> out;
  switch (e->kind) {
    case ExprKind::Let: return {1, 2};
    case ExprKind::Function: return {numChildren - 1};
    case ExprKind::Dataflow:
      for (size_t i = 1; i + 1 < numChildren; i += 2) out.push_back(i);
      out.push_back(numChildren - 1);
      return out;
    default:
      for (size_t i = 0; i < numChildren; ++i) out.push_back(i);
      return out;
  }
}

/// What is known about one function to lift.
struct Lifted {
  std::string global;
  /// Captured variables, in order of first use.
  std::vector<Var> captured;
};

/// Lifts the inner functions of one global.
class Lifter final : public ExprMutator {
 public:
  Lifter(std::string outer, std::set<std::string>& taken) : outer_(std::move(outer)), taken_(taken) {}

  /// Analyses `fn` (the global) and decides names and captures; throws for closures that escape.
  void analyse(const FunctionNode& root) {
    std::unordered_map<const ExprNode*, int> calleeUses, allUses;
    std::vector<const FunctionNode*> inner;  // post-order: innermost first
    std::vector<Expr> children;
    postOrderVisit(
        root.body,
        [&](const Expr& e) {
          if (const auto* let = as<LetNode>(e); let && as<FunctionNode>(let->value) && !isCompilerFunction(let->value))
            letVarOf_[let->value.get()] = let->var.get();
          if (const auto* fn = as<FunctionNode>(e); fn && !isCompilerFunction(e)) inner.push_back(fn);
        },
        [](const Expr& e) { return !isCompilerFunction(e); });
    // Most functions have nothing to lift (every Relax module after its
    // first LambdaLifting): the uses are counted only when something is.
    if (inner.empty()) return;
    postOrderVisit(
        root.body,
        [&](const Expr& e) {
          if (isCompilerFunction(e)) return;
          children.clear();
          appendChildren(e, children);
          for (size_t i : usePositions(e, children.size())) ++allUses[children[i].get()];
          if (const auto* call = as<CallNode>(e)) ++calleeUses[call->callee.get()];
        },
        [](const Expr& e) { return !isCompilerFunction(e); });
    for (const FunctionNode* fn : inner) {
      auto letVar = letVarOf_.find(fn);
      Lifted lifted;
      std::string base = outer_ + "_" + (letVar != letVarOf_.end() ? static_cast<const VarNode*>(letVar->second)->name : "lifted");
      lifted.global = base;
      for (int n = 1; taken_.count(lifted.global); ++n) lifted.global = base + "_" + std::to_string(n);
      taken_.insert(lifted.global);
      lifted.captured = capturedBy(*fn, letVar != letVarOf_.end() ? letVar->second : nullptr);
      // The value is used through its let variable, or directly where it stands.
      const ExprNode* handle = letVar != letVarOf_.end() ? letVar->second : fn;
      int values = allUses[handle] - calleeUses[handle];
      if (!lifted.captured.empty() && values > 0)
        throwError(fn->span,
                   "LambdaLifting: " + (letVar != letVarOf_.end() ? "%" + static_cast<const VarNode*>(letVar->second)->name
                                                                  : std::string("an inner function")) +
                       " captures %" + lifted.captured[0]->name +
                       " and is used as a value, which needs a closure; only calls to capturing functions can be lifted",
                   "lift.escaping-closure");
      byNode_[fn] = lifted;
      if (letVar != letVarOf_.end()) byVar_[letVar->second] = lifted;
    }
  }

  /// Whether analyse found no inner function to lift (mutate would then return the body as it is).
  bool nothingToLift() const { return byNode_.empty(); }

  /// The globals created, in creation order.
  std::vector<std::pair<std::string, Expr>> globals;

  /// Remarks: each inner function of `body` (analysed) lifted or kept, and why.
  void explain(const Expr& body, PassContext& ctx, const std::string& pass) const {
    postOrderVisit(
        body,
        [&](const Expr& e) {
          if (!as<FunctionNode>(e)) return;
          if (isCompilerFunction(e)) {
            ctx.remark(makeRemark(pass, RemarkRule::LiftCompilerFunction, outer_, {e},
                                  "not lifted: fn with Compiler=" + as<FunctionNode>(e)->attrs.find(fn_attr::kCompiler)->toString() +
                                      " is an external region"));
            return;
          }
          const Lifted* lifted = find(byNode_, e.get());
          if (!lifted) return;
          std::string captured;
          for (const Var& c : lifted->captured) captured += (captured.empty() ? "" : ", ") + ("%" + c->name);
          ctx.remark(makeRemark(pass, RemarkRule::LiftLifted, outer_, {e},
                                "lifted to @" + lifted->global +
                                    (captured.empty() ? " (captures nothing)" : " (captures " + captured + ": passed as leading parameters)")));
        },
        [](const Expr& e) { return !isCompilerFunction(e); });
  }

 protected:
  std::optional<Expr> preVisit(const Expr& original) override {
    if (isCompilerFunction(original)) return original;  // external regions are not entered
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    Expr out = substituteUses(rebuilt);
    if (const auto* let = as<LetNode>(out); let && byVar_.count(let->var.get())) return let->body;
    if (const auto* call = as<CallNode>(out)) {
      const Lifted* target = nullptr;
      if (const auto* v = as<VarNode>(call->callee)) target = find(byVar_, v);
      if (const auto* gv = as<GlobalVarNode>(call->callee)) target = find(byGlobal_, gv->name);
      if (target && !target->captured.empty()) {
        std::vector<Expr> args(target->captured.begin(), target->captured.end());
        args.insert(args.end(), call->args.begin(), call->args.end());
        return makeCall(globalVar(target->global), std::move(args), call->attrs, call->span);
      }
    }
    if (const auto* fn = as<FunctionNode>(out); fn && original->kind == ExprKind::Function) {
      auto it = byNode_.find(original.get());
      if (it == byNode_.end()) return out;
      lift(*fn, it->second);
      return globalVar(it->second.global);
    }
    return out;
  }

 private:
  template <class Map, class Key>
  static const Lifted* find(const Map& map, const Key& key) {
    auto it = map.find(key);
    return it != map.end() ? &it->second : nullptr;
  }

  Expr globalVar(const std::string& name) {
    auto [it, fresh] = globalVars_.emplace(name, nullptr);
    if (fresh) it->second = makeGlobalVar(name);
    return it->second;
  }

  /// Variables used in `fn` but bound outside it; a lifted function it uses
  /// contributes its own captures instead of its variable.
  std::vector<Var> capturedBy(const FunctionNode& fn, const ExprNode* self) {
    std::unordered_set<const ExprNode*> bound, seen;
    std::vector<Var> used;
    std::vector<Expr> children;
    postOrderVisit(std::shared_ptr<const ExprNode>(std::shared_ptr<const ExprNode>{}, &fn), [&](const Expr& e) {
      if (const auto* let = as<LetNode>(e)) bound.insert(let->var.get());
      if (const auto* f = as<FunctionNode>(e))
        for (const Var& p : f->params) bound.insert(p.get());
      if (const auto* df = as<DataflowNode>(e))
        for (const Binding& b : df->bindings) bound.insert(b.var.get());
      if (e->kind == ExprKind::Var && seen.insert(e.get()).second) used.push_back(std::static_pointer_cast<const VarNode>(e));
    });
    std::vector<Var> out;
    std::unordered_set<const ExprNode*> added;
    auto add = [&](const Var& v) {
      if (!bound.count(v.get()) && added.insert(v.get()).second) out.push_back(v);
    };
    for (const Var& v : used) {
      if (v.get() == self) continue;
      if (const Lifted* other = find(byVar_, v.get())) {
        for (const Var& c : other->captured) add(c);
      } else if (!bound.count(v.get())) {
        add(v);
      }
    }
    return out;
  }

  /// Replaces uses (never binders) of lifted let variables by their globals.
  Expr substituteUses(const Expr& e) {
    if (byVar_.empty()) return e;
    std::vector<Expr> children;
    appendChildren(e, children);
    bool changed = false;
    for (size_t i : usePositions(e, children.size())) {
      const auto* v = as<VarNode>(children[i]);
      const Lifted* lifted = v ? find(byVar_, v) : nullptr;
      // Capturing functions are only ever callees (checked in analyse); their calls are rewritten whole.
      if (lifted && lifted->captured.empty()) {
        children[i] = globalVar(lifted->global);
        changed = true;
      }
    }
    return changed ? rebuildWithChildren(e, children) : e;
  }

  /// Makes the global of `fn` (already rewritten inside): captures become fresh leading parameters.
  void lift(const FunctionNode& fn, const Lifted& lifted) {
    std::vector<Var> params;
    Expr body = fn.body;
    if (!lifted.captured.empty()) {
      std::unordered_map<const ExprNode*, Expr> fresh;
      for (const Var& c : lifted.captured) {
        params.push_back(makeVar(c->name, c->annotation, false, c->span));
        fresh[c.get()] = params.back();
      }
      struct Rename final : ExprMutator {
        std::unordered_map<const ExprNode*, Expr>* map;
        Expr rewrite(const Expr& o, const Expr& r) override {
          auto it = map->find(o.get());
          return it != map->end() ? it->second : r;
        }
      } rename;
      rename.map = &fresh;
      body = rename.mutate(body);
    }
    params.insert(params.end(), fn.params.begin(), fn.params.end());
    globals.emplace_back(lifted.global, makeFunction(std::move(params), body, fn.retType, fn.attrs, fn.span));
    byGlobal_[lifted.global] = lifted;
  }

  std::string outer_;
  std::set<std::string>& taken_;
  std::unordered_map<const ExprNode*, const ExprNode*> letVarOf_;  // function literal -> its let variable
  std::unordered_map<const ExprNode*, Lifted> byNode_;             // function literal -> what it becomes
  std::unordered_map<const ExprNode*, Lifted> byVar_;              // let variable -> what its function becomes
  std::unordered_map<std::string, Lifted> byGlobal_;
  std::unordered_map<std::string, Expr> globalVars_;
};

/// What LambdaLifting is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& lambdaLiftingDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "LambdaLifting";
    r.aliases = {"LambdaLift"};
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion};
    r.info.phaseAfter = Phase::Optimization;
    r.info.description =
        "Lifts every inner function (except those with a Compiler attribute) to a new global; captured variables "
        "become leading parameters. Moves the module from phase 0 to phase 1.";
    r.info.guarantees =
        "No inner function remains outside Compiler functions; the module is in phase 1. A capturing function used "
        "as a value is an error (no closures).";
    r.create = [](const AttrDict&) { return createLambdaLiftingPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kLambdaLiftingRegistrar(lambdaLiftingDeclaration);

class LambdaLiftingPass final : public Pass {
 public:
  const PassInfo& info() const override { return lambdaLiftingDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    std::map<std::string, Expr> functions = mod->functions;
    std::set<std::string> taken;
    for (const auto& [name, fn] : functions) taken.insert(name);
    std::vector<std::pair<std::string, Expr>> added;
    for (auto& [name, fn] : functions) {
      const auto* node = as<FunctionNode>(fn);
      if (!node) continue;
      if (std::optional<std::string> reason = defaultFunctionSkipReason(*node)) {
        ctx.notifySkip({info().name, name, *reason});
        continue;
      }
      Lifter lifter(name, taken);
      lifter.analyse(*node);
      if (ctx.remarksEnabled()) lifter.explain(node->body, ctx, info().name);
      if (lifter.nothingToLift()) continue;  // saves rebuilding-nothing over every node
      Expr body = lifter.mutate(node->body);
      if (body == node->body) continue;
      fn = makeFunction(node->params, body, node->retType, node->attrs, node->span);
      added.insert(added.end(), lifter.globals.begin(), lifter.globals.end());
    }
    for (auto& [name, fn] : added) functions[name] = std::move(fn);
    AttrDict attrs = mod->attrs;
    // A forced out-of-phase run never moves the module back to an earlier phase.
    attrs.set(module_attr::kPhase, AttrValue::integer(std::max<int64_t>(mod->phase(), 1)));
    return makeModule(std::move(functions), std::move(attrs));
  }
};

}  // namespace

PassPtr createLambdaLiftingPass() { return std::make_shared<LambdaLiftingPass>(); }

}  // namespace passlab
