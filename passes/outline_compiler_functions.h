// OutlineCompilerFunctions: lifts inlined Compiler functions back to globals.
#pragma once

#include <string>

#include "core/pass/pass.h"

namespace passlab {

/// Options (pipeline: `OutlineCompilerFunctions{compiler=ccompiler}`).
struct OutlineCompilerFunctionsOptions {
  /// Only functions of this codegen ("" = every `Compiler` function).
  std::string compiler;
};

/// TVM's OutlineCompilerFunctions (apache/tvm#11474). Every call to a
/// function literal carrying `Compiler` (what Inline leaves of a partition)
/// becomes a call to a global holding that function, attributes kept —
/// `Inline=1` included, so Inline could push it back. The global's name is the
/// literal's `global_symbol` when free, else `tvmgen_default_<compiler>_main_<k>`.
/// Structurally equal literals (compared with their `global_symbol` left out)
/// share one global: a cache keyed by structural hash, checked with structural
/// equality, maps each to the first global made for it. Literals inside
/// functions FunctionPass skips are left alone (skips recorded). Typed after.
PassPtr createOutlineCompilerFunctionsPass(const OutlineCompilerFunctionsOptions& options = {});

}  // namespace passlab
