// AnnotateTarget: marks the op calls an external codegen takes.
#pragma once

#include <string>
#include <vector>

#include "core/pass/pass.h"

namespace passlab {

/// Options (pipeline: `AnnotateTarget{compilers=[ccompiler]}`).
struct AnnotateTargetOptions {
  /// External codegens to offload to, in priority order (names of the
  /// ExternalCodegenRegistry, passes/external_codegen.h).
  std::vector<std::string> compilers = {"ccompiler"};
};

/// TVM's AnnotateTarget. Every op call of a graph-level function that one of
/// the codegens takes (ExternalCodegen::supports), or that belongs to one of
/// its composite patterns, becomes a one-op compiler region: a call to a
/// function literal with `Compiler="<codegen>"` (the representation is
/// described in passes/byoc_util.h). Constant arguments stay inside the
/// region; other arguments become its parameters. Nested function literals
/// (fused groups, existing regions) are left alone, as are the functions
/// FunctionPass skips and Primitive ones (each skip recorded). Results are typed.
/// An unknown codegen name is a DiagnosticError listing the registered ones.
PassPtr createAnnotateTargetPass(const AnnotateTargetOptions& options = {});

}  // namespace passlab
