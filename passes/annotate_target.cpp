#include "passes/annotate_target.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/byoc_util.h"
#include "passes/external_codegen.h"
#include "passes/opt_util.h"
#include "core/pass/remark_rules.h"

namespace passlab {

namespace {

/// Composite-pattern matches claim their nodes first, so an op a codegen does
/// not take alone (bias_add) is still offloaded as part of conv2d+bias_add+relu.
std::unordered_map<const ExprNode*, const ExternalCodegen*> claimPatterns(const Function& fn,
                                                                           const std::vector<const ExternalCodegen*>& codegens) {
  std::unordered_map<const ExprNode*, const ExternalCodegen*> claimed;
  std::unordered_map<const ExprNode*, int> uses = opt_util::useCounts(fn);
  postOrderVisit(
      fn,
      [&](const Expr& e) {
        if (!as<CallNode>(e) || claimed.count(e.get())) return;
        for (const ExternalCodegen* cg : codegens)
          for (const CompositePattern& pattern : cg->patterns) {
            std::vector<const ExprNode*> nodes;
            Expr node = e;
            for (size_t i = pattern.chain.size(); i-- > 0;) {
              const CallNode* call = opt_util::callTo(node, pattern.chain[i]);
              if (!call || claimed.count(node.get()) || (i + 1 < pattern.chain.size() && uses[node.get()] != 1)) break;
              nodes.push_back(node.get());
              if (i > 0) {
                if (call->args.empty()) break;
                node = call->args[0];
              }
            }
            if (nodes.size() != pattern.chain.size()) continue;
            for (const ExprNode* n : nodes) claimed[n] = cg;
            return;
          }
      },
      [&](const Expr& e) { return e == fn || e->kind != ExprKind::Function; });
  return claimed;
}

class Annotator final : public ExprMutator {
 public:
  Annotator(const Function& root, std::vector<const ExternalCodegen*> codegens)
      : root_(root), codegens_(std::move(codegens)), claimed_(claimPatterns(root, codegens_)) {}
  int regions() const { return regions_; }
  /// Records a remark per op call (taken, refused, unsupported) in `ctx`.
  void explainInto(PassContext& ctx, const std::string& pass, const std::string& function) {
    ctx_ = &ctx;
    pass_ = &pass;
    function_ = function;
  }

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    // Fused groups and regions that already exist keep their bodies.
    if (e->kind == ExprKind::Function && e != root_) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    const CallNode* call = as<CallNode>(rebuilt);
    if (!call || !call->op()) return rebuilt;
    const ExternalCodegen* codegen = nullptr;
    const bool claimed = claimed_.count(original.get()) != 0;
    if (claimed) codegen = claimed_.at(original.get());
    for (size_t i = 0; !codegen && i < codegens_.size(); ++i)
      if (codegens_[i]->supports(*call)) codegen = codegens_[i];
    if (ctx_) explain(original, *call, codegen, claimed);
    if (!codegen) return rebuilt;
    const CallNode& before = static_cast<const CallNode&>(*original);
    std::vector<Var> params;
    std::vector<Expr> inner, outer;
    for (size_t i = 0; i < call->args.size(); ++i) {
      const Expr& arg = call->args[i];
      if (arg->kind == ExprKind::Constant) {
        inner.push_back(arg);
        continue;
      }
      Var p = makeVar(codegen->name + "_in" + std::to_string(params.size()), before.args[i]->checkedType);
      params.push_back(p);
      inner.push_back(p);
      outer.push_back(arg);
    }
    AttrDict attrs;
    attrs.set(fn_attr::kCompiler, AttrValue::string(codegen->name));
    Expr body = makeCall(call->callee, std::move(inner), call->attrs, call->span);
    ++regions_;
    return makeCall(makeFunction(std::move(params), body, original->checkedType, std::move(attrs)), std::move(outer), {}, call->span);
  }

 private:
  void explain(const Expr& original, const CallNode& call, const ExternalCodegen* codegen, bool claimed) {
    const std::string op(call.op()->name);
    RemarkRule rule;
    std::string message;
    if (codegen) {
      rule = claimed ? RemarkRule::ByocPattern : RemarkRule::ByocTaken;
      message = op + " given to " + codegen->name + (claimed ? " as part of a composite pattern" : "");
    } else {
      rule = RemarkRule::ByocOpUnsupported;
      std::string names;
      for (const ExternalCodegen* cg : codegens_) {
        names += (names.empty() ? "" : ", ") + cg->name;
        if (std::find(cg->ops.begin(), cg->ops.end(), call.op()->id) != cg->ops.end()) {
          rule = RemarkRule::ByocRefused;
          message = op + " stays with the main compiler: " + cg->name + " refuses this call (" +
                    (cg->refuse ? cg->refuse(call) : std::string("refused")) + ")";
          break;
        }
      }
      if (rule == RemarkRule::ByocOpUnsupported) message = op + " stays with the main compiler: not an op of " + names;
    }
    ctx_->remark(makeRemark(*pass_, rule, function_, {original}, std::move(message)));
  }

  Function root_;
  std::vector<const ExternalCodegen*> codegens_;
  PassContext* ctx_ = nullptr;  // remarks on: where they go
  const std::string* pass_ = nullptr;
  std::string function_;
  std::unordered_map<const ExprNode*, const ExternalCodegen*> claimed_;
  int regions_ = 0;
};

/// What AnnotateTarget is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& annotateTargetDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = "AnnotateTarget";
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Marks each op call an external codegen takes (alone or in one of its composite patterns) as a one-op "
        "compiler region: a call to a function literal with Compiler=\"<codegen>\".";
    r.info.guarantees =
        "Every op call outside skipped functions and nested function literals that a listed codegen supports is "
        "inside a region of the first such codegen; types are unchanged.";
    r.options = {{"compilers", Kind::Array, stringArrayValue(AnnotateTargetOptions{}.compilers),
                  "external codegens to offload to, in priority order"}};
    r.create = [](const AttrDict& options) {
      AnnotateTargetOptions o;
      if (options.contains("compilers")) o.compilers = optionStrings(options, "compilers");
      return createAnnotateTargetPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kAnnotateTargetRegistrar(annotateTargetDeclaration);

class AnnotateTargetPass final : public Pass {
 public:
  explicit AnnotateTargetPass(AnnotateTargetOptions options) : options_in_(std::move(options)) {
    for (const std::string& name : options_in_.compilers) {
      const ExternalCodegen* cg = ExternalCodegenRegistry::global().find(name);
      if (!cg) {
        std::string known;
        for (const std::string& n : ExternalCodegenRegistry::global().names()) known += (known.empty() ? "" : ", ") + n;
        throwError({}, "AnnotateTarget: unknown external codegen '" + name + "'; registered: " + known, "pipeline");
      }
      codegens_.push_back(cg);
    }
    if (options_in_.compilers != AnnotateTargetOptions{}.compilers) {
      std::vector<AttrValue> names;
      for (const std::string& n : options_in_.compilers) names.push_back(AttrValue::string(n));
      options_.set("compilers", AttrValue::array(std::move(names)));
    }
  }

  const PassInfo& info() const override { return annotateTargetDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    const std::string& name = info().name;
    std::vector<AttrValue> names;
    for (const std::string& n : options_in_.compilers) names.push_back(AttrValue::string(n));
    ctx.recordOption("compilers", AttrValue::array(std::move(names)), name);
    return opt_util::mapFunctions(mod, ctx, name, [&](const Function& fn, const std::string& global) -> Function {
      opt_util::ensureTyped(fn, mod);
      Annotator annotator(fn, codegens_);
      if (ctx.remarksEnabled()) annotator.explainInto(ctx, name, global);
      Expr out = annotator.mutate(fn);
      if (annotator.regions() == 0 || out == fn) return fn;
      Function result = std::static_pointer_cast<const FunctionNode>(out);
      inferExprType(result, &mod);
      return result;
    });
  }

 private:
  AnnotateTargetOptions options_in_;
  std::vector<const ExternalCodegen*> codegens_;
};

}  // namespace

PassPtr createAnnotateTargetPass(const AnnotateTargetOptions& options) { return std::make_shared<AnnotateTargetPass>(options); }

}  // namespace passlab
