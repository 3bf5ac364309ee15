// Scoped passes: a function-level pass run on the functions of one external
// codegen only (seed 001: ConvertLayout HWIO->OHWI inside ccompiler functions
// while the convolutions left to the main compiler keep their layout).
#pragma once

#include <string>

#include "core/pass/pass.h"

namespace passlab {

/// `inner` restricted to the graph-level functions whose `Compiler` attribute
/// is `compiler` (pipeline: `ConvertLayout{compiler=ccompiler, ...}`).
///
/// Function passes skip `Compiler` functions by default (TVM's
/// FunctionPassNode::SkipFunction), because a generic rewrite may produce ops
/// the codegen cannot take. Scoping turns that around for one codegen, as the
/// seed's maintainers suggest ("an external IR module"): the pass runs on a
/// module holding only that codegen's functions, with `Compiler` and the BYOC
/// `Primitive` marker taken off so the pass does not skip them, and every
/// function it changed is put back with its attributes restored (functions it
/// added are added; functions it dropped are kept, since the view has no entry
/// function to judge reachability by). All other
/// functions are untouched (same pointers) and recorded as skipped with the
/// reason. The wrapper reports the inner pass's info; its options are
/// `compiler` followed by the inner pass's own, so pipelineText round-trips.
PassPtr scopeToCompiler(PassPtr inner, std::string compiler);

}  // namespace passlab
