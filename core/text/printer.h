// Deterministic printer for the Relay-compatible text format.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/module.h"
#include "core/support/pointer_index.h"
#include "core/text/constant_refs.h"
#include "core/text/tvmscript.h"

namespace passlab {

/// Where a node was printed: 1-based line/column of its first and last character.
struct TextRange {
  uint32_t line = 0, column = 0, endLine = 0, endColumn = 0;
};

/// Where each node of one print was printed and under what name, in flat
/// arrays indexed by the order nodes were first recorded (a 100k-op module
/// records ~300k nodes: one hash-table node and one std::string per entry
/// was half of an aligned diff's time). Names live in one character pool.
class PrintedNodes {
 public:
  /// The text range of `node`; null when it was not printed with a range.
  const TextRange* range(const void* node) const {
    uint32_t id = index_.find(node);
    return id < ranges_.size() && ranges_[id].line != 0 ? &ranges_[id] : nullptr;
  }
  /// The 1-based first line of `node`, 0 when it has no range.
  uint32_t line(const void* node) const {
    const TextRange* r = range(node);
    return r ? r->line : 0;
  }
  /// The name (without '%') `node` was printed under; empty when none was
  /// recorded (a recorded name is never empty). Valid while this object lives.
  std::string_view name(const void* node) const {
    uint32_t id = index_.find(node);
    if (id >= names_.size() || names_[id].length == 0) return {};
    return std::string_view(pool_).substr(names_[id].offset, names_[id].length);
  }
  /// Calls f(node, range) for every node with a range, in print order.
  template <class F>
  void forEachRange(F&& f) const {
    for (size_t id = 0; id < ranges_.size(); ++id)
      if (ranges_[id].line != 0) f(keys_[id], ranges_[id]);
  }
  /// Calls f(node, name) for every named node, in print order.
  template <class F>
  void forEachName(F&& f) const {
    for (size_t id = 0; id < names_.size(); ++id)
      if (names_[id].length != 0) f(keys_[id], std::string_view(pool_).substr(names_[id].offset, names_[id].length));
  }
  /// Number of named nodes.
  size_t nameCount() const { return nameCount_; }

  /// Printer side: `node` starts at line:column (the first start wins).
  void startRange(const void* node, uint32_t line, uint32_t column) {
    if (!node) return;
    TextRange& r = rangeOf(idOf(node));
    if (r.line == 0) {
      r.line = line;
      r.column = column;
    }
  }
  /// Printer side: `node`'s last character is at line:column (ignored unless started, and once).
  void endRange(const void* node, uint32_t line, uint32_t column) {
    uint32_t id = index_.find(node);
    if (id >= ranges_.size() || ranges_[id].line == 0 || ranges_[id].endLine != 0) return;
    ranges_[id].endLine = line;
    ranges_[id].endColumn = column;
  }
  /// Printer side: `node` printed under `name` (the first name wins; empty is ignored).
  void recordName(const void* node, std::string_view name) {
    if (!node || name.empty()) return;
    uint32_t id = idOf(node);
    if (names_.size() <= id) names_.resize(keys_.size());
    if (names_[id].length != 0) return;
    names_[id] = {static_cast<uint32_t>(pool_.size()), static_cast<uint32_t>(name.size())};
    pool_.append(name);
    ++nameCount_;
  }

 private:
  struct NameRef {
    uint32_t offset = 0, length = 0;
  };
  uint32_t idOf(const void* node) {
    auto [id, added] = index_.insert(node, static_cast<uint32_t>(keys_.size()));
    if (added) keys_.push_back(node);
    return id;
  }
  TextRange& rangeOf(uint32_t id) {
    if (ranges_.size() <= id) ranges_.resize(keys_.size());
    return ranges_[id];
  }
  PointerIndex index_;
  std::vector<const void*> keys_;
  /// By id; shorter than keys_ when the last nodes have none.
  std::vector<TextRange> ranges_;
  std::vector<NameRef> names_;
  std::string pool_;
  size_t nameCount_ = 0;
};

/// A printed module together with where each node was printed, so the faces
/// can point at the exact line of a node (diagnostics, GUI highlighting).
struct PrintedModule {
  std::string text;
  /// Graph-level nodes, functions and TIR statements: text ranges; with
  /// PrintOptions::recordNames also the name (without '%') each bound node and
  /// variable of a graph-level function was printed under (first print wins).
  PrintedNodes nodes;
  /// First line of each global function's definition (name without '@').
  std::unordered_map<std::string, uint32_t> functionLines;
};

/// Names for an aligned print (core/trace/node_match.h): a diff prints the after
/// snapshot with the before snapshot's names so renumbering is not a change.
/// A node's name is its override when it has one, else the name the base print
/// (the before side) gave it: the before names are looked up there, not copied.
class AlignedNames {
 public:
  AlignedNames() = default;
  /// Names from `base` (which must outlive this object) unless overridden.
  explicit AlignedNames(const PrintedModule* base) : base_(base) {}
  /// Not copyable: overrides may view names it owns.
  AlignedNames(const AlignedNames&) = delete;
  AlignedNames& operator=(const AlignedNames&) = delete;
  AlignedNames(AlignedNames&&) = default;
  AlignedNames& operator=(AlignedNames&&) = default;
  /// Looks names up in `base` (which must outlive this object) unless overridden.
  void setBase(const PrintedModule* base) { base_ = base; }
  /// The name `node` prints under (without '%'); empty: none requested.
  std::string_view find(const void* node) const {
    uint32_t id = overrides_.find(node);
    if (id != PointerIndex::kAbsent) return values_[id];
    return base_ ? base_->nodes.name(node) : std::string_view();
  }
  /// Gives `node` the name `name`, which must outlive this object (a name of
  /// the base print, or a literal); empty: no name, even if the base has one.
  void setView(const void* node, std::string_view name) {
    auto [id, added] = overrides_.insert(node, static_cast<uint32_t>(values_.size()));
    if (added)
      values_.push_back(name);
    else
      values_[id] = name;
  }
  /// Gives `node` a copy of `name`.
  void set(const void* node, std::string name) { setView(node, owned_.emplace_back(std::move(name))); }
  /// `node` takes no name from this table.
  void erase(const void* node) { setView(node, {}); }
  /// Bound nodes without a name are numbered from here (above every before number).
  uint32_t freshBase = 0;

 private:
  const PrintedModule* base_ = nullptr;
  PointerIndex overrides_;
  std::vector<std::string_view> values_;
  std::deque<std::string> owned_;
};

/// Nodes whose `/* ty=... */` comment an aligned diff leaves out (a type known on
/// one side only, e.g. after a pass that does not re-infer types, is not a change).
using HiddenTypes = PointerSet;

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
