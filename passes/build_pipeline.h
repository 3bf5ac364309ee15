// The one pipeline that takes an imported or parsed graph-level module to the
// phase-2 module codegen::build compiles (PrimFuncs and a call_tir entry).
// The REPL scripts, the tests and the conformance runner all spell it from
// here, so a change to the lowering road is made once.
#pragma once

#include <string_view>
#include <vector>

#include "core/ir/module.h"
#include "core/pass/pass.h"
#include "core/pass/registry.h"

namespace passlab {

/// The pipeline text: InferType, SimplifyInference (batch_norm and friends
/// have no lowering of their own), FoldConstant, FuseOps, LambdaLifting and
/// LegalizeOps, in that order.
std::string_view defaultBuildPipeline();

/// The named pipelines (`pipeline relay.default`, `--pass-pipeline=relax.default`):
/// relay.default is defaultBuildPipeline(); relax.default and relax.zero are
/// TVM's relax pipelines (python/tvm/relax/pipeline.py) restricted to the passes
/// passlab has; docs/pipelines.md lists the ones it lacks. registerBuiltinPasses
/// adds them to a registry.
const std::vector<NamedPipeline>& builtinNamedPipelines();

/// Runs defaultBuildPipeline() on `mod` under `ctx` (every pass through
/// runPass, so instruments and the trace see it). Throws PassFailure, e.g.
/// with rule "legalize.unsupported-op" naming an op that has no lowering.
IRModule lowerForBuild(const IRModule& mod, PassContext& ctx);

}  // namespace passlab
