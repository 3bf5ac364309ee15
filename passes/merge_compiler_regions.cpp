#include "passes/merge_compiler_regions.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/pass/registry.h"
#include "passes/byoc_util.h"
#include "passes/opt_util.h"
#include "core/pass/remark_rules.h"

namespace passlab {

namespace {

class RegionMerger final : public ExprMutator {
 public:
  RegionMerger(const Function& root) : root_(root), uses_(byoc::distinctUsers(root)) {}
  int merges() const { return merges_; }
  /// Records a remark per region next to a consumer region in `ctx`.
  void explainInto(PassContext& ctx, const std::string& pass, const std::string& function) {
    ctx_ = &ctx;
    pass_ = &pass;
    function_ = function;
  }

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    // Region bodies are merged as wholes, never entered.
    if (e->kind == ExprKind::Function && e != root_) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    const FunctionNode* consumer = byoc::regionCallee(rebuilt);
    if (!consumer) return rebuilt;
    const std::string compiler = byoc::compilerOf(*consumer);
    const CallNode& before = static_cast<const CallNode&>(*original);
    const CallNode& call = static_cast<const CallNode&>(*rebuilt);
    if (consumer->params.size() != call.args.size()) return rebuilt;

    std::vector<Var> params;
    std::vector<Expr> args;
    std::unordered_map<const ExprNode*, Var> paramOfArg;
    auto paramFor = [&](const Var& old, const Expr& arg) -> Expr {
      auto [it, added] = paramOfArg.try_emplace(arg.get(), nullptr);
      if (added) {
        it->second = makeVar(old->name, old->annotation, false, old->span);
        params.push_back(it->second);
        args.push_back(arg);
      }
      return it->second;
    };
    std::unordered_map<const ExprNode*, Expr> consumerMap;
    // A producer passed twice (multiply(%0, %0)) is merged once and used twice.
    std::unordered_map<const ExprNode*, Expr> mergedBodies;
    bool merged = false;
    for (size_t i = 0; i < call.args.size(); ++i) {
      const FunctionNode* producer = byoc::regionCallee(call.args[i]);
      auto uses = uses_.find(before.args[i].get());
      // A producer passed twice (multiply(%0, %0)) is explained once.
      bool repeated = std::find(before.args.begin(), before.args.begin() + static_cast<std::ptrdiff_t>(i), before.args[i]) !=
                      before.args.begin() + static_cast<std::ptrdiff_t>(i);
      if (ctx_ && producer && !repeated)
        explain(before.args[i], original, byoc::compilerOf(*producer), compiler, uses == uses_.end() ? 0 : uses->second);
      if (producer && byoc::compilerOf(*producer) == compiler && uses != uses_.end() && uses->second == 1) {
        auto [body, added] = mergedBodies.try_emplace(call.args[i].get(), nullptr);
        if (added) {
          const CallNode& inner = static_cast<const CallNode&>(*call.args[i]);
          std::unordered_map<const ExprNode*, Expr> producerMap;
          for (size_t j = 0; j < producer->params.size() && j < inner.args.size(); ++j)
            producerMap[producer->params[j].get()] = paramFor(producer->params[j], inner.args[j]);
          body->second = byoc::Substituter(std::move(producerMap)).mutate(producer->body);
        }
        consumerMap[consumer->params[i].get()] = body->second;
        merged = true;
        continue;
      }
      consumerMap[consumer->params[i].get()] = paramFor(consumer->params[i], call.args[i]);
    }
    if (!merged) return rebuilt;
    ++merges_;
    Expr body = byoc::Substituter(std::move(consumerMap)).mutate(consumer->body);
    Function fn = makeFunction(std::move(params), body, consumer->retType, consumer->attrs, consumer->span);
    return makeCall(fn, std::move(args), call.attrs, call.span);
  }

 private:
  void explain(const Expr& producer, const Expr& consumer, const std::string& from, const std::string& to, int uses) {
    RemarkRule rule = RemarkRule::ByocMerged;
    std::string message = "the " + from + " region merged into its consumer's " + to + " region";
    if (from != to) {
      rule = RemarkRule::ByocMergeOtherCompiler;
      message = "not merged: a " + from + " region feeds a " + to + " region";
    } else if (uses != 1) {
      rule = RemarkRule::ByocMergeShared;
      message = "not merged: the " + from + " region's value has " + std::to_string(uses) + " users";
    }
    ctx_->remark(makeRemark(*pass_, rule, function_, {producer, consumer}, std::move(message)));
  }

  Function root_;
  PassContext* ctx_ = nullptr;  // remarks on: where they go
  const std::string* pass_ = nullptr;
  std::string function_;
  std::unordered_map<const ExprNode*, int> uses_;
  int merges_ = 0;
};

/// What MergeCompilerRegions is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& mergeCompilerRegionsDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "MergeCompilerRegions";
    r.info.optLevel = 0;
    r.info.required = {"AnnotateTarget"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Merges a compiler region into the region of the same codegen that consumes it when it has no other user.";
    r.info.guarantees =
        "No region has an argument that is a single-use region of the same codegen; every region has one output, "
        "so no merge creates a cycle through the main compiler's ops.";
    r.create = [](const AttrDict&) { return createMergeCompilerRegionsPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kMergeCompilerRegionsRegistrar(mergeCompilerRegionsDeclaration);

class MergeCompilerRegionsPass final : public Pass {
 public:
  const PassInfo& info() const override { return mergeCompilerRegionsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    const std::string& name = info().name;
    return opt_util::mapFunctions(mod, ctx, name, [&](const Function& fn, const std::string& global) -> Function {
      RegionMerger merger(fn);
      if (ctx.remarksEnabled()) merger.explainInto(ctx, name, global);
      Expr out = merger.mutate(fn);
      if (merger.merges() == 0 || out == fn) return fn;
      Function result = std::static_pointer_cast<const FunctionNode>(out);
      inferExprType(result, &mod);
      return result;
    });
  }
};

}  // namespace

PassPtr createMergeCompilerRegionsPass() { return std::make_shared<MergeCompilerRegionsPass>(); }

}  // namespace passlab
