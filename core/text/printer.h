// Deterministic printer for the Relay-compatible text format.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/module.h"
#include "core/text/constant_refs.h"
#include "core/text/tvmscript.h"

namespace passlab {

/// Where a node was printed: 1-based line/column of its first and last character.
struct TextRange {
  uint32_t line = 0, column = 0, endLine = 0, endColumn = 0;
};

/// A printed module together with the map from IR node to its text range, so the
/// faces can point at the exact line of a node (diagnostics, GUI highlighting).
struct PrintedModule {
  std::string text;
  /// Graph-level nodes (key: ExprNode*) and functions.
  std::unordered_map<const void*, TextRange> ranges;
  /// First line of each global function's definition (name without '@').
  std::unordered_map<std::string, uint32_t> functionLines;
  /// With PrintOptions::recordNames: the name (without '%') each bound node and
  /// variable of a graph-level function was printed under (first print wins).
  std::unordered_map<const void*, std::string> names;
};

/// Names for an aligned print (core/trace/node_match.h): a diff prints the after
/// snapshot with the before snapshot's names so renumbering is not a change.
struct AlignedNames {
  /// Node (bound expression or variable) → name without '%'. A name already
  /// taken in the same function falls back to a fresh one.
  std::unordered_map<const void*, std::string> names;
  /// Bound nodes without an entry are numbered from here (above every before number).
  uint32_t freshBase = 0;
};

/// Nodes whose `/* ty=... */` comment an aligned diff leaves out (a type known on
/// one side only, e.g. after a pass that does not re-infer types, is not a change).
using HiddenTypes = std::unordered_set<const void*>;

/// Options for printing.
struct PrintOptions {
  /// Which syntax to print (every face honours it: show, diffs, reports, -o).
  TextSyntax syntax = TextSyntax::Relay;
  /// For TVMScript: the TVM spelling (releases or main) to print in.
  TvmScriptSpelling spelling = TvmScriptSpelling::Release;
  /// Emit `/* ty=... */` comments after bindings whose type is known (as TVM does).
  bool typeComments = true;
  /// Emit the `#[version = "0.0.5"]` header.
  bool versionHeader = true;
  /// Record PrintedModule::names (printModuleWithRanges only).
  bool recordNames = false;
  /// Print with these names instead of the canonical ones (diffs only; null = canonical).
  const AlignedNames* alignedNames = nullptr;
  /// Leave out the type comments of these nodes (diffs only; null = none).
  const HiddenTypes* hiddenTypes = nullptr;
  /// Large constants as `meta[relay.Constant][N]` (the default) or inline; the
  /// rule is printsAsReference (core/text/constant_refs.h).
  ConstantStyle constants = ConstantStyle::Ref;
  /// Where N comes from: the session's numbering, so a constant keeps its
  /// number across events and both sides of a diff agree. Null: this print
  /// numbers its own constants from 0 in print order.
  ConstantNumbering* numbering = nullptr;
  /// Append TVM's `#[metadata]` section with the referenced constants' data,
  /// so the text loads back losslessly (files: -o, save module, reproducers).
  /// The constants are then numbered from 0 by this print (a section is an
  /// array indexed by N), `numbering` is not used, and a module holding
  /// placeholders (references loaded without data) prints its real constants
  /// inline instead, since a section would have to give the placeholders data.
  bool metadataSection = false;
};

/// Prints a module. Deterministic: the same module always prints the same text,
/// and variable names are made unique stably. parse(print(m)) prints identically.
std::string printModule(const IRModule& mod, const PrintOptions& options = {});
/// Prints a module and records node → text ranges.
PrintedModule printModuleWithRanges(const IRModule& mod, const PrintOptions& options = {});
/// Prints a module and records PrintedModule::names (no ranges): the before side of an aligned diff.
PrintedModule printModuleWithNames(const IRModule& mod, const PrintOptions& options = {});
/// Prints one global function of a module as `def @name...` (empty if absent).
std::string printFunction(const IRModule& mod, const std::string& name, const PrintOptions& options = {});
/// Prints an expression on its own (bindings numbered from %0).
std::string printExpr(const Expr& e, const PrintOptions& options = {});

}  // namespace passlab
