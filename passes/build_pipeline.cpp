// The default build pipeline (see build_pipeline.h).
#include "passes/build_pipeline.h"

#include "core/pass/registry.h"
#include "passes/registry.h"

namespace passlab {

std::string_view defaultBuildPipeline() { return "InferType,SimplifyInference,FoldConstant,FuseOps,LambdaLifting,LegalizeOps"; }

const std::vector<NamedPipeline>& builtinNamedPipelines() {
  static const std::vector<NamedPipeline> table = {
      {"relay.default", std::string(defaultBuildPipeline()),
       "the default build pipeline: a graph-level module to PrimFuncs and a call_tir entry (what `build` runs)"},
      // TVM v0.26 relax.pipeline.default_build_pipeline: DispatchSampling, DispatchSortScan,
      // LegalizeOps, RewriteDataflowReshape, ToNonDataflow, RemovePurityChecking,
      // CallTIRRewrite, StaticPlanBlockMemory, RewriteCUDAGraph, LowerAllocTensor,
      // KillAfterLastUse, LowerRuntimeBuiltin, ComputePrimValue, VMShapeLower,
      // AttachGlobalSymbol: passlab's are these, in TVM's order. LambdaLifting first
      // is passlab's phase 0 -> 1 step LegalizeOps needs (TVM's modules carry no
      // phase; on a module without inner functions it changes nothing).
      {"relax.default",
       "LambdaLifting,LegalizeOps,ToNonDataflow,RemovePurityChecking,CallTIRRewrite,StaticPlanBlockMemory,"
       "LowerAllocTensor,KillAfterLastUse,LowerRuntimeBuiltin,VMShapeLower",
       "TVM's relax default_build_pipeline, the 9 of its 15 passes passlab has, after LambdaLifting (docs/pipelines.md)"},
      // TVM v0.26 relax.pipeline.zero_pipeline: LegalizeOps, AnnotateTIROpPattern,
      // FoldConstant, FuseOps, FuseTIR (then MetaScheduleApplyDatabase when a
      // database is current), after LambdaLifting as above. On a Relax module
      // LegalizeOps, FuseOps and FuseTIR take TVM's Relax forms and FoldConstant
      // folds call_tirs of constants on the TIR interpreter.
      {"relax.zero", "LambdaLifting,LegalizeOps,AnnotateTIROpPattern,FoldConstant,FuseOps,FuseTIR",
       "TVM's relax zero_pipeline: LegalizeOps, AnnotateTIROpPattern, FoldConstant, FuseOps, FuseTIR, after "
       "LambdaLifting (docs/pipelines.md)"},
  };
  return table;
}

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
