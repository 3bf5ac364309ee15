// BindSymbolicVars: TVM's relax.transform.BindSymbolicVars(binding_map,
// func_name), with integer values: every shape variable named in the map is
// replaced by its value in the Relax functions that define it (parameter and
// binding types, match_cast types, op attributes such as out_shape, newshape
// and tir_vars), and the shapes become static where nothing symbolic is left.
// What `run --host --bind n=3` applies to a copy of a symbolic module so the
// host JIT and the C/Hexagon code generators, which need static entry shapes,
// can compile it.
#pragma once

#include <map>
#include <string>

#include "core/pass/pass.h"

namespace passlab {

/// What BindSymbolicVars binds.
struct BindSymbolicVarsOptions {
  /// The one function to bind in; empty: every Relax function of the module.
  std::string funcName;
  /// Variable name -> value (TVM's binding_map with string keys).
  std::map<std::string, int64_t> values;
};

/// Parses `n=3;m=4` (also `,` as separator) into a binding map. Throws a
/// DiagnosticError (rule "pipeline") naming a malformed entry.
std::map<std::string, int64_t> parseSymbolicBindings(const std::string& text);

/// The BindSymbolicVars pass. As TVM's: a name that no function defines, or
/// that one function defines twice, is an error naming it; so is a function
/// name not in the module.
PassPtr createBindSymbolicVarsPass(const BindSymbolicVarsOptions& options);

}  // namespace passlab
