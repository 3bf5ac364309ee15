#include "passes/to_non_dataflow.h"

#include <unordered_map>

#include "core/ir/functor.h"
#include "core/pass/registry.h"

namespace passlab {

namespace {

/// Replaces dataflow variables by ordinary ones and blocks by let chains, in one
/// post-order walk: the replacement of a block's variables is decided before its
/// children are visited, so every use below it already sees the new variable.
class DataflowFlattener final : public ExprMutator {
 protected:
  std::optional<Expr> preVisit(const Expr& original) override {
    if (const auto* df = as<DataflowNode>(original))
      for (const Binding& b : df->bindings)
        if (b.var->isDataflow && !renamed_.count(b.var.get())) {
          Var fresh = makeVar(b.var->name, b.var->annotation, false, b.var->span);
          // Types stay known, so a later pass need not run InferType just for this.
          if (b.var->checkedType) fresh->checkedType = b.var->checkedType;
          renamed_.emplace(b.var.get(), std::move(fresh));
        }
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    if (original->kind == ExprKind::Var) {
      auto it = renamed_.find(original.get());
      return it != renamed_.end() ? it->second : rebuilt;
    }
    // Renaming a variable changes nothing about the types of the nodes above it.
    if (rebuilt != original && !rebuilt->checkedType && original->checkedType) rebuilt->checkedType = original->checkedType;
    const auto* df = as<DataflowNode>(rebuilt);
    if (!df) return rebuilt;
    Expr out = df->body;
    for (size_t i = df->bindings.size(); i-- > 0;) {
      const Binding& b = df->bindings[i];
      Type bodyType = out ? out->checkedType : nullptr;
      out = makeLet(b.var, b.value, out, original->span);
      if (bodyType) out->checkedType = bodyType;
    }
    return out;
  }

 private:
  std::unordered_map<const ExprNode*, Var> renamed_;
};

/// What ToNonDataflow is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& toNonDataflowDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "ToNonDataflow";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering};
    r.info.description = "Turns every dataflow block into a chain of let bindings; dataflow variables become ordinary ones.";
    r.info.guarantees = "No dataflow block and no dataflow variable remains outside skipped functions.";
    r.create = [](const AttrDict&) { return createToNonDataflowPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kToNonDataflowRegistrar(toNonDataflowDeclaration);

class ToNonDataflowPass final : public FunctionPass {
 public:
  const PassInfo& info() const override { return toNonDataflowDeclaration().info; }

  Function runOnFunction(const Function& fn, const std::string&, const IRModule&, PassContext&) const override {
    bool hasDataflow = false;
    postOrderVisit(fn, [&](const Expr& e) { hasDataflow = hasDataflow || e->kind == ExprKind::Dataflow; });
    if (!hasDataflow) return fn;
    DataflowFlattener flatten;
    Expr out = flatten.mutate(fn);
    return std::static_pointer_cast<const FunctionNode>(out);
  }
};

}  // namespace

PassPtr createToNonDataflowPass() { return std::make_shared<ToNonDataflowPass>(); }

}  // namespace passlab
