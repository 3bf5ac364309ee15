// BindTarget: the target attribute as the single source of truth (seed 004).
#pragma once

#include <string>

#include "core/pass/pass.h"

namespace passlab {

/// Options of BindTarget (pipeline: `BindTarget{target="hexagon -mcpu=hexagonv68"}`).
struct BindTargetOptions {
  /// The target to bind, TVM style; empty takes the context's target.
  std::string target;
};

/// The BindTarget pass: every PrimFunc and every graph-level function without a
/// `target` attribute gets the bound target. A function that already has one
/// keeps it — the attribute is the single source of truth for where code runs —
/// and when it names another target, a warning diagnostic (rule
/// `bind-target.conflict`, naming both targets) says that BindTarget refused to
/// overwrite it. External (Compiler/Extern) functions are skipped with the skip
/// recorded. No target at all, or a malformed target string, fails the pass.
PassPtr createBindTargetPass(const BindTargetOptions& options = {});

/// True when two target strings denote the same target: same kind and the same
/// options with the same values, whatever their spacing (both must parse).
bool sameTarget(const std::string& a, const std::string& b);

}  // namespace passlab
