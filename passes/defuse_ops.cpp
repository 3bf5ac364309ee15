#include "passes/defuse_ops.h"

#include <unordered_map>

#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/opt_util.h"

namespace passlab {

namespace {

void keepType(const Expr& original, const Expr& result) {
  if (result != original && !result->checkedType) result->checkedType = original->checkedType;
}

/// Replaces parameters by arguments in a fused function's body.
class ParamSubstituter final : public ExprMutator {
 public:
  explicit ParamSubstituter(std::unordered_map<const ExprNode*, Expr> values) : values_(std::move(values)) {}

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (auto it = values_.find(e.get()); it != values_.end()) return it->second;
    return std::nullopt;
  }
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    keepType(original, rebuilt);
    return rebuilt;
  }

 private:
  std::unordered_map<const ExprNode*, Expr> values_;
};

class Defuser final : public ExprMutator {
 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    keepType(original, rebuilt);
    const CallNode* call = as<CallNode>(rebuilt);
    const FunctionNode* fn = call ? as<FunctionNode>(call->callee) : nullptr;
    if (!fn || !opt_util::isPrimitive(*fn) || fn->params.size() != call->args.size()) return rebuilt;
    std::unordered_map<const ExprNode*, Expr> values;
    for (size_t i = 0; i < fn->params.size(); ++i) values.emplace(fn->params[i].get(), call->args[i]);
    ParamSubstituter substituter(std::move(values));
    return substituter.mutate(fn->body);
  }
};

/// What DefuseOps is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& defuseOpsDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "DefuseOps";
    r.level = PassLevel::Function;
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description = "Inlines every call to a Primitive function literal: the inverse of FuseOps.";
    r.info.guarantees = "No call to a Primitive function literal remains outside skipped functions.";
    r.create = [](const AttrDict&) { return createDefuseOpsPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kDefuseOpsRegistrar(defuseOpsDeclaration);

class DefuseOpsPass final : public Pass {
 public:
  const PassInfo& info() const override { return defuseOpsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    return opt_util::mapFunctions(
        mod, ctx, info().name,
        [](const Function& fn, const std::string&) -> Function {
          bool fused = false;
          postOrderVisit(fn, [&](const Expr& e) {
            const CallNode* c = as<CallNode>(e);
            const FunctionNode* callee = c ? as<FunctionNode>(c->callee) : nullptr;
            fused = fused || (callee && opt_util::isPrimitive(*callee));
          });
          if (!fused) return fn;
          Defuser defuser;
          Expr out = defuser.mutate(fn);
          return out == fn ? fn : std::static_pointer_cast<const FunctionNode>(out);
        },
        defaultFunctionSkipReason);
  }
};

}  // namespace

PassPtr createDefuseOpsPass() { return std::make_shared<DefuseOpsPass>(); }

}  // namespace passlab
