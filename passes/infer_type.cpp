#include "passes/infer_type.h"

#include "core/analysis/type_infer.h"
#include "passes/registry.h"

namespace passlab {

namespace {

class InferTypePass final : public Pass {
 public:
  const PassInfo& info() const override { return builtinPassInfo("InferType"); }
  IRModule run(const IRModule& mod, PassContext& /*ctx*/) const override { return inferTypes(mod); }
};

}  // namespace

PassPtr createInferTypePass() { return std::make_shared<InferTypePass>(); }

}  // namespace passlab
