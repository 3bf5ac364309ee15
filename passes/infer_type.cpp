#include "passes/infer_type.h"

#include "core/analysis/type_infer.h"
#include "core/pass/registry.h"

namespace passlab {

namespace {

/// What InferType is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& inferTypeDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "InferType";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering, Phase::Build};
    r.info.description = "Infers the type of every expression of every graph-level function.";
    r.info.guarantees = "Every expression of every graph-level function has a checked type; the module object is returned as is.";
    r.create = [](const AttrDict&) { return createInferTypePass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kInferTypeRegistrar(inferTypeDeclaration);

class InferTypePass final : public Pass {
 public:
  const PassInfo& info() const override { return inferTypeDeclaration().info; }
  IRModule run(const IRModule& mod, PassContext& /*ctx*/) const override { return inferTypes(mod); }
};

}  // namespace

PassPtr createInferTypePass() { return std::make_shared<InferTypePass>(); }

}  // namespace passlab
