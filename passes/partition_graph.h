// PartitionGraph: lifts compiler regions into global external functions.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// TVM's PartitionGraph. Every compiler region (passes/byoc_util.h) of a
/// graph-level function becomes a global `@tvmgen_default_<compiler>_main_<k>`
/// (k counts up per codegen, skipping names in use) with parameters
/// `%<compiler>_<k>_i<j>` and the attributes TVM gives it — `Compiler`,
/// `Primitive=1`, `Inline=1`, `global_symbol` — and is called in place.
/// Inside it, the matches of the codegen's composite patterns become function
/// literals with `PartitionedFromPattern` and `Composite` and parameters
/// `%FunctionVar_<g>_<j>` (g counts matches over the module) for their
/// non-constant arguments, as MergeComposite makes them in TVM; constants stay
/// inside so that passes scoped to the codegen can fold them. Regions that already have a
/// `global_symbol` (inlined partitions) are left to OutlineCompilerFunctions.
/// The module is typed afterwards; skips are recorded as FunctionPass does.
PassPtr createPartitionGraphPass();

}  // namespace passlab
