// The node matcher: pairs the nodes of two module snapshots and turns the
// pairing into an edit script per function (what core/trace/change_summary.h
// turns into a one-line change summary and a renumbering-proof text diff).
//
// Matching runs in phases, cheapest and surest first:
//  1. pointer identity — unchanged subtrees are shared between snapshots, and
//     functions whose pointer did not change are not even visited, so the cost
//     is proportional to what changed;
//  2. leaves — parameters of same-named functions by position, globals by
//     name, constants by their bytes;
//  3. bottom-up — an unmatched node whose op/kind equals that of a before node
//     using the same (matched) inputs is its counterpart; all inputs matching and
//     equal attributes make an exact match, at least half of them an update
//     (GumTree's bottom-up phase, with inputs instead of descendants: our graphs
//     are DAGs);
//  4. top-down recovery — children in the same slot of a matched pair, with the
//     same op/kind, are matched as updates; then bottom-up again.
// Parameters of a function called from exactly one place (a fused Primitive
// literal, a lifted or partitioned global) stand for that call's arguments,
// so ops that FuseOps, PartitionGraph, LambdaLifting or OutlineCompilerFunctions
// move into a new function (and Inline or DefuseOps back out of one) still see
// their original inputs: they are matched, as moves.
//
// Passes never compute any of this; the workbench computes it lazily per event
// and caches it (Workbench::edits).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"
#include "core/support/pointer_index.h"

namespace passlab {

/// What happened to one node between two snapshots.
enum class EditKind : uint8_t {
  /// Matched, same enclosing function, nothing changed.
  Kept,
  /// Matched, same enclosing function, attributes, inputs or type changed (see EditChange).
  Updated,
  /// Only in the after snapshot.
  Inserted,
  /// Only in the before snapshot.
  Deleted,
  /// Matched, but now in another function (a new Primitive function, a lifted
  /// global, back in the caller); may also carry EditChange bits.
  Moved,
  /// Deleted, and its value now comes from a constant inserted in its place
  /// (FoldConstant); NodeEdit::after is that constant.
  Folded,
};
/// "kept", "updated", "inserted", "deleted", "moved", "folded".
const char* editKindName(EditKind k);

/// What changed in an Updated or Moved pair (bit set).
enum EditChange : uint8_t {
  kAttrsChanged = 1,   ///< op-call or function attributes differ
  kInputsRewired = 2,  ///< some input is not the counterpart of the before input in that slot
  kTypeChanged = 4,    ///< inferred (or declared) type differs
  kDataChanged = 8,    ///< constant bytes differ
  kArityChanged = 16,  ///< number of inputs differs
  /// The type is known on one side only (a pass that does not re-infer types):
  /// recorded, but on its own it leaves the node Kept.
  kTypeUnknown = 32,
};

/// One node of either snapshot and what happened to it. Nodes of functions
/// whose pointer is the same on both sides have no record (they are kept).
struct NodeEdit {
  EditKind kind = EditKind::Kept;
  /// EditChange bits (Updated and Moved).
  uint8_t changes = 0;
  /// The node in the before snapshot (null for Inserted).
  const ExprNode* before = nullptr;
  /// The node in the after snapshot (null for Deleted; the replacing constant for Folded).
  const ExprNode* after = nullptr;
  /// Global function holding `before` / `after`, index into ModuleEdits::functionNames (-1 when absent).
  int32_t beforeFunction = -1;
  int32_t afterFunction = -1;
};

/// Counts per edit kind.
struct EditCounts {
  uint32_t kept = 0, updated = 0, inserted = 0, deleted = 0, moved = 0, folded = 0;
  uint32_t total() const { return kept + updated + inserted + deleted + moved + folded; }
  /// Everything but kept.
  uint32_t changed() const { return updated + inserted + deleted + moved + folded; }
  EditCounts& operator+=(const EditCounts& o);
  bool operator==(const EditCounts& o) const = default;
};

/// A statement-level edit of a PrimFunc (coarse: the top-level statements of
/// its body, i.e. loop nests, stores, allocations).
struct StmtEdit {
  EditKind kind = EditKind::Kept;
  /// Null on the side where the statement is absent.
  const tir::StmtNode* before = nullptr;
  const tir::StmtNode* after = nullptr;
  /// "for", "store", "allocate", "allocate_const", "let", "if", "seq", "evaluate".
  const char* what = "";
};

/// What happened to one global function, with its edit script.
struct FunctionEdit {
  enum class Kind : uint8_t {
    /// Same pointer on both sides.
    Kept,
    /// Present on both sides under the same name, different pointer.
    Changed,
    /// Only in after (not a renamed before function).
    Added,
    /// Only in before (not renamed).
    Removed,
    /// A before function that now lives under another name (its node matched).
    Renamed,
  };
  Kind kind = Kind::Kept;
  /// Name in the after module ("" when Removed).
  std::string name;
  /// Name in the before module ("" when Added; differs from `name` when Renamed).
  std::string beforeName;
  /// A PrimFunc (its edits are in `stmts`, not `nodes`).
  bool primFunc = false;
  /// Op calls by kind: after-side records counted in the function holding the
  /// after node, Deleted/Folded ones in the function that held the before node.
  EditCounts ops;
  /// Every node kind (calls, tuples, constants, functions, variables, ...).
  EditCounts nodes;
  /// Indices into ModuleEdits::edits of the non-kept records of this function
  /// (with `all`, also the kept ones), in after (then before) post-order.
  std::vector<uint32_t> edits;
  /// PrimFuncs: statement-level edits.
  std::vector<StmtEdit> stmts;
  /// Function attribute keys added, removed or changed (values: the attribute timeline).
  std::vector<std::string> attrKeysChanged;
};

/// Options of the matcher.
struct MatchOptions {
  /// Match across functions (moves). Off: every node stays in its function.
  bool moves = true;
  /// Keep Kept records in FunctionEdit::edits as well (for `changes --all`).
  bool keepAll = false;
};

/// Node -> index (core/support/pointer_index.h, typed for graph nodes):
/// matching a 100k-op module does several lookups per node in tables far
/// larger than the caches.
class NodeIdMap {
 public:
  /// `get`'s answer for an absent node.
  static constexpr uint32_t kAbsent = PointerIndex::kAbsent;
  /// The index of `e`, kAbsent when absent (or null).
  uint32_t get(const ExprNode* e) const { return index_.find(e); }
  /// Whether `e` is present.
  bool has(const ExprNode* e) const { return index_.contains(e); }
  /// Records `e` -> `id` unless `e` is present; true when recorded. One probe sequence.
  bool insert(const ExprNode* e, uint32_t id) { return e && index_.insert(e, id).second; }
  /// Records `e` -> `id` (`e` must be absent and not null).
  void put(const ExprNode* e, uint32_t id) { index_.put(e, id); }
  /// Room for `n` entries without growing.
  void reserve(size_t n) { index_.reserve(n); }
  /// Replaces every value v by `to[v]` (PointerIndex::remap).
  void remap(const std::vector<uint32_t>& to) { index_.remap(to); }
  /// Number of entries.
  size_t size() const { return index_.size(); }

 private:
  PointerIndex index_;
};

/// The matching of two snapshots, with edit scripts and counts.
struct ModuleEdits {
  IRModule before, after;
  /// Global names referenced by NodeEdit::beforeFunction/afterFunction.
  std::vector<std::string> functionNames;
  /// Every record: matched pairs (kept, updated, moved), inserted, deleted, folded.
  std::vector<NodeEdit> edits;
  /// One entry per global function of either side, kept ones included, sorted by name.
  std::vector<FunctionEdit> functions;
  /// Whole-module counts: op calls, and all nodes.
  EditCounts ops, nodes;
  /// Number of distinct new functions (literals or globals) that moved ops went into / came out of.
  uint32_t movedIntoFunctions = 0, movedOutOfFunctions = 0;
  /// Moved ops that went into a new function / came out of a function that is gone.
  uint32_t movedIntoOps = 0, movedOutOfOps = 0;
  /// Attributes of the destination functions of moves ("Primitive", "Compiler", ...) for the summary.
  std::string moveDestinationKind;
  /// Distinct constants that folded ops were replaced by, and matched ops that now read a new constant.
  uint32_t foldConstants = 0, newConstantInputs = 0;
  /// Global-level edits.
  uint32_t globalsAdded = 0, globalsRemoved = 0, globalsRenamed = 0;
  /// Whether module attributes differ.
  bool moduleAttrsChanged = false;

  /// The record of an after node (null for nodes of unchanged functions, which are kept,
  /// and for nodes that are not matched units such as ops).
  const NodeEdit* findAfter(const ExprNode* node) const;
  /// The record of a before node (same convention).
  const NodeEdit* findBefore(const ExprNode* node) const;
  /// The before counterpart of an after node (itself for nodes of unchanged functions
  /// that exist on both sides; null when inserted).
  const ExprNode* beforeOf(const ExprNode* after) const;
  /// The after counterpart of a before node (null when deleted or folded).
  const ExprNode* afterOf(const ExprNode* before) const;
  /// The edit of one global (by after name, or before name when removed); null when absent.
  const FunctionEdit* function(const std::string& name) const;
  /// Name of NodeEdit::beforeFunction / afterFunction ("" for -1).
  const std::string& functionName(int32_t index) const;

  /// Lookup tables, filled by matchModules.
  NodeIdMap afterIndex, beforeIndex;
};

/// Matches the nodes of `before` and `after`. Never throws on well-typed or
/// untyped modules; cost is proportional to the changed functions.
std::shared_ptr<const ModuleEdits> matchModules(const IRModule& before, const IRModule& after,
                                                const MatchOptions& options = {});

}  // namespace passlab
