// The default build pipeline (see build_pipeline.h).
#include "passes/build_pipeline.h"

#include "core/pass/registry.h"
#include "passes/registry.h"

namespace passlab {

std::string_view defaultBuildPipeline() { return "InferType,SimplifyInference,FoldConstant,FuseOps,LambdaLifting,LegalizeOps"; }

IRModule lowerForBuild(const IRModule& mod, PassContext& ctx) {
  // Built once (the passes are immutable); the registry lives as long as they do.
  static const PassRegistry registry = [] {
    PassRegistry r;
    registerBuiltinPasses(r);
    return r;
  }();
  static const PassPtr pipeline = parsePipeline(defaultBuildPipeline(), registry, "defaultBuildPipeline");
  return runPass(*pipeline, mod, ctx);
}

}  // namespace passlab
