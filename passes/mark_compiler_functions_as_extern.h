// MarkCompilerFunctionsAsExtern: compiled external functions become stubs.
#pragma once

#include <string>

#include "core/pass/pass.h"

namespace passlab {

/// Options (pipeline: `MarkCompilerFunctionsAsExtern{compiler=ccompiler}`).
struct MarkCompilerFunctionsAsExternOptions {
  /// Only functions of this codegen ("" = every `Compiler` function).
  std::string compiler;
};

/// TVM's MarkCompilerFunctionsAsExtern (apache/tvm#11474, as revised by
/// #11619). Every global function with a `Compiler` attribute (of the chosen
/// codegen) has been compiled by now, so it becomes an `Extern=1` stub: every
/// other attribute — Compiler, Primitive, Inline, global_symbol — is dropped
/// and the body, no longer meaningful to the main compiler, is kept only for
/// the reference interpreter. Calls `@f(args)` are rebuilt unchanged in form:
/// since #11619 the lowering to call_lowered happens later, where dynamic
/// shapes are known. Function passes skip Extern functions from then on.
PassPtr createMarkCompilerFunctionsAsExternPass(const MarkCompilerFunctionsAsExternOptions& options = {});

}  // namespace passlab
