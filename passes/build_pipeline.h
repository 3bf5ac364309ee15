// The one pipeline that takes an imported or parsed graph-level module to the
// phase-2 module codegen::build compiles (PrimFuncs and a call_tir entry).
// The REPL scripts, the tests and the conformance runner all spell it from
// here, so a change to the lowering road is made once.
#pragma once

#include <string_view>

#include "core/ir/module.h"
#include "core/pass/pass.h"

namespace passlab {

/// The pipeline text: InferType, SimplifyInference (batch_norm and friends
/// have no lowering of their own), FoldConstant, FuseOps, LambdaLifting and
/// LegalizeOps, in that order.
std::string_view defaultBuildPipeline();

/// Runs defaultBuildPipeline() on `mod` under `ctx` (every pass through
/// runPass, so instruments and the trace see it). Throws PassFailure, e.g.
/// with rule "legalize.unsupported-op" naming an op that has no lowering.
IRModule lowerForBuild(const IRModule& mod, PassContext& ctx);

}  // namespace passlab
