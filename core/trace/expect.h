// Comparing a module with an expected one (`--expect=FILE`, REPL `expect FILE`,
// the reducer's `differs FILE`): TVM's tvm.ir.assert_structural_equal rules
// (core/analysis/structural_equal.h) with the node matcher's aligned diff when
// they differ.
#pragma once

#include <string>

#include "core/ir/module.h"
#include "core/text/printer.h"

namespace passlab {

/// Loads the expected module from `path` through the one load path
/// (parseModuleFile: Relay text or TVMScript) and infers its types as `load`
/// does, so types known on the actual side are known on this one too (an
/// expected module that does not type-check is compared as written). A file
/// that does not load is a located DiagnosticError. `origin` gets its syntax.
IRModule loadExpectedModule(const std::string& path, TextOrigin* origin = nullptr);

/// The outcome of expectModule.
struct ExpectOutcome {
  bool equal = false;
  /// When not equal: the aligned unified diff, expected side first (`---`),
  /// actual second (`+++`), never empty (a difference the printout cannot show
  /// is named in words).
  std::string diff;
};

/// Compares `actual` with `expected` under structural equality: bound
/// variables match by position (names are free), globals by name, attributes,
/// types and constants exactly. passlab's own `phase` module attribute is
/// bookkeeping a hand-written expected module cannot know and is not compared.
/// `options` chooses the syntax of the diff.
ExpectOutcome expectModule(const IRModule& actual, const IRModule& expected, const std::string& actualLabel,
                           const std::string& expectedLabel, const PrintOptions& options = {});

}  // namespace passlab
