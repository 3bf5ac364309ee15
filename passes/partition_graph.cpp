#include "passes/partition_graph.h"

#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/pass/registry.h"
#include "passes/byoc_util.h"
#include "passes/external_codegen.h"
#include "passes/opt_util.h"
#include "core/pass/remark_rules.h"

namespace passlab {

namespace {

/// Wraps the composite-pattern matches of a partition body into Composite functions.
class CompositeFormer final : public ExprMutator {
 public:
  CompositeFormer(const Expr& body, const ExternalCodegen& codegen, int& counter)
      : codegen_(codegen), counter_(counter), uses_(opt_util::useCounts(body)) {}

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (e->kind == ExprKind::Function) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    for (const CompositePattern& pattern : codegen_.patterns)
      if (std::optional<Expr> out = match(pattern, original, rebuilt)) return *out;
    return rebuilt;
  }

 private:
  /// The chain of `pattern` ending at `original` (root last), or nullopt.
  std::optional<Expr> match(const CompositePattern& pattern, const Expr& original, const Expr& rebuilt) {
    // Walk the rebuilt chain (children already rewritten) and check single use on the original nodes.
    std::vector<const CallNode*> chain(pattern.chain.size());
    Expr node = rebuilt, orig = original;
    for (size_t i = pattern.chain.size(); i-- > 0;) {
      const CallNode* call = opt_util::callTo(node, pattern.chain[i]);
      const CallNode* origCall = opt_util::callTo(orig, pattern.chain[i]);
      if (!call || !origCall) return std::nullopt;
      if (i + 1 < pattern.chain.size()) {
        auto u = uses_.find(orig.get());
        if (u == uses_.end() || u->second != 1) return std::nullopt;
      }
      chain[i] = call;
      if (i > 0) {
        if (call->args.empty() || origCall->args.empty()) return std::nullopt;
        node = call->args[0];
        orig = origCall->args[0];
      }
    }
    const int g = counter_++;
    std::vector<Var> params;
    std::vector<Expr> args;
    Expr inner;
    for (size_t i = 0; i < chain.size(); ++i) {
      std::vector<Expr> innerArgs;
      for (size_t a = 0; a < chain[i]->args.size(); ++a) {
        if (i > 0 && a == 0) {
          innerArgs.push_back(inner);
          continue;
        }
        const Expr& arg = chain[i]->args[a];
        // Constants stay inside, so a pass scoped to the codegen can still fold them.
        if (arg->kind == ExprKind::Constant) {
          innerArgs.push_back(arg);
          continue;
        }
        Var p = makeVar("FunctionVar_" + std::to_string(g) + "_" + std::to_string(params.size()), arg->checkedType);
        params.push_back(p);
        args.push_back(arg);
        innerArgs.push_back(p);
      }
      inner = makeCall(chain[i]->callee, std::move(innerArgs), chain[i]->attrs, chain[i]->span);
    }
    AttrDict attrs;
    attrs.set("PartitionedFromPattern", AttrValue::string(pattern.partitionedFromPattern()));
    attrs.set(fn_attr::kComposite, AttrValue::string(pattern.name));
    return makeCall(makeFunction(std::move(params), inner, original->checkedType, std::move(attrs)), std::move(args));
  }

  const ExternalCodegen& codegen_;
  int& counter_;
  std::unordered_map<const ExprNode*, int> uses_;
};

/// Lifts the regions of one function into globals added to `functions`.
class Partitioner final : public ExprMutator {
 public:
  Partitioner(const Function& root, std::map<std::string, Expr>& functions, std::map<std::string, int>& counters, int& composites)
      : root_(root), functions_(functions), counters_(counters), composites_(composites) {}
  int lifted() const { return lifted_; }
  /// Records a remark per region lifted from `function` in `ctx`.
  void explainInto(PassContext& ctx, const std::string& pass, const std::string& function) {
    ctx_ = &ctx;
    pass_ = &pass;
    function_ = function;
  }

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (e->kind == ExprKind::Function && e != root_) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    const FunctionNode* region = byoc::regionCallee(rebuilt);
    if (!region || region->attrs.contains(fn_attr::kGlobalSymbol)) return rebuilt;
    const CallNode& call = static_cast<const CallNode&>(*rebuilt);
    const std::string compiler = byoc::compilerOf(*region);
    int& next = counters_[compiler];
    const int k = next;
    std::string name = byoc::freshGlobalName(compiler, next, functions_);
    std::vector<Var> params;
    std::unordered_map<const ExprNode*, Expr> map;
    for (size_t j = 0; j < region->params.size(); ++j) {
      const Var& old = region->params[j];
      Type type = old->annotation ? old->annotation : (j < call.args.size() ? call.args[j]->checkedType : nullptr);
      Var p = makeVar(compiler + "_" + std::to_string(k) + "_i" + std::to_string(j), type);
      params.push_back(p);
      map[old.get()] = p;
    }
    Expr body = byoc::Substituter(std::move(map)).mutate(region->body);
    inferExprType(body);  // composite matching reads types of the arguments
    if (const ExternalCodegen* codegen = ExternalCodegenRegistry::global().find(compiler))
      body = CompositeFormer(body, *codegen, composites_).mutate(body);
    AttrDict attrs = region->attrs;
    attrs.set(fn_attr::kCompiler, AttrValue::string(compiler));
    attrs.set(fn_attr::kPrimitive, AttrValue::integer(1));
    attrs.set(fn_attr::kInline, AttrValue::integer(1));
    attrs.set(fn_attr::kGlobalSymbol, AttrValue::string(name));
    functions_[name] = makeFunction(std::move(params), body, region->retType, std::move(attrs), region->span);
    ++lifted_;
    if (ctx_)
      ctx_->remark(makeRemark(*pass_, RemarkRule::ByocPartitioned, function_, {original},
                              "the " + compiler + " region lifted to @" + name + " (Compiler, Primitive, Inline, global_symbol)"));
    return makeCall(makeGlobalVar(name), call.args, call.attrs, call.span);
  }

 private:
  Function root_;
  std::map<std::string, Expr>& functions_;
  std::map<std::string, int>& counters_;
  int& composites_;
  int lifted_ = 0;
  PassContext* ctx_ = nullptr;  // remarks on: where they go
  const std::string* pass_ = nullptr;
  std::string function_;
};

/// What PartitionGraph is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& partitionGraphDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "PartitionGraph";
    r.info.optLevel = 0;
    r.info.required = {"AnnotateTarget"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Lifts every compiler region to a global @tvmgen_default_<codegen>_main_<k> with Compiler, Primitive=1, "
        "Inline=1 and global_symbol; composite patterns inside become Composite functions.";
    r.info.guarantees =
        "No compiler region without a global_symbol remains; each partition is called in place with the region's "
        "arguments and the module type-checks.";
    r.create = [](const AttrDict&) { return createPartitionGraphPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kPartitionGraphRegistrar(partitionGraphDeclaration);

class PartitionGraphPass final : public Pass {
 public:
  const PassInfo& info() const override { return partitionGraphDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    std::map<std::string, Expr> functions = mod->functions;
    std::map<std::string, int> counters;
    int composites = 0;
    bool changed = false;
    for (const auto& [name, fn] : mod->functions) {
      const FunctionNode* node = as<FunctionNode>(fn);
      if (!node) continue;
      if (std::optional<std::string> reason = opt_util::skipReasonOrPrimitive(*node)) {
        ctx.notifySkip({info().name, name, *reason});
        continue;
      }
      Function function = std::static_pointer_cast<const FunctionNode>(fn);
      opt_util::ensureTyped(function, mod);
      Partitioner partitioner(function, functions, counters, composites);
      if (ctx.remarksEnabled()) partitioner.explainInto(ctx, info().name, name);
      Expr out = partitioner.mutate(function);
      if (partitioner.lifted() == 0 || out == fn) continue;
      functions[name] = out;
      changed = true;
    }
    if (!changed) return mod;
    return inferTypes(makeModule(std::move(functions), mod->attrs));
  }
};

}  // namespace

PassPtr createPartitionGraphPass() { return std::make_shared<PartitionGraphPass>(); }

}  // namespace passlab
