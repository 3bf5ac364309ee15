// DeadCodeElimination: drops bindings nothing uses.
#pragma once

#include <string>
#include <vector>

#include "core/pass/pass.h"

namespace passlab {

/// Options of DeadCodeElimination (pipeline: `DeadCodeElimination{remove_unused_functions=true}`).
struct DeadCodeEliminationOptions {
  /// Also remove global functions that no entry function reaches (off by default:
  /// a module may be a library whose other functions are called from outside).
  bool removeUnusedFunctions = false;
  /// The roots kept by removeUnusedFunctions.
  std::vector<std::string> entryFunctions = {"main"};
};

/// The DeadCodeElimination function pass: removes `let` bindings and dataflow-block
/// bindings whose variable is never used and whose value is pure (no stateful op
/// call), transitively in one sweep (a binding used only by dead bindings is dead
/// too). A dataflow block left empty is removed. Functions with nothing to remove
/// keep their identity (same pointer).
PassPtr createDeadCodeEliminationPass(const DeadCodeEliminationOptions& options = {});

}  // namespace passlab
