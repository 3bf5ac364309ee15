// What a pass changed, on the graphs of one function before and after it:
// a status per node and per box on each side, and each node's partner on the
// other side. The graphs themselves stay shared and immutable; a GraphDiff
// belongs to one (before, after) pair.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/node_match.h"
#include "graph/graph_model.h"

namespace passlab::graph {

/// How a node fared at the event.
enum class DiffStatus : uint8_t {
  Unchanged,  ///< the same node on both sides
  Inserted,   ///< only on the after side
  Deleted,    ///< only on the before side
  Updated,    ///< the same node with other attributes, inputs or type
  Moved,      ///< the same node in another place (another box or function)
  Folded,     ///< a constant on the after side that replaced computed nodes (FoldConstant)
};

/// "unchanged", "inserted", "deleted", "updated", "moved", "folded".
const char* diffStatusName(DiffStatus status);

/// One side of a diff.
struct SideDiff {
  /// Per node of that side's graph.
  std::vector<DiffStatus> nodes;
  /// Per node: the partner node on the other side (-1: none).
  std::vector<int> partner;
  /// Per cluster: Inserted/Deleted when the whole box is new/gone, Updated when
  /// something inside changed, else Unchanged.
  std::vector<DiffStatus> clusters;
  /// Nodes with a status other than Unchanged.
  size_t changedCount() const;
};

/// Both sides.
struct GraphDiff {
  SideDiff before;
  SideDiff after;
  /// True when computed by the node matcher; false when both sides are one
  /// graph (nothing changed, nothing to match).
  bool matched = false;
};

/// Diffs two graphs of the same function (either may be null: a function added
/// or removed by the pass — every node of the other side is then inserted or
/// deleted) from the node matcher's pairing of the modules they come from:
/// `edits` when given (the workbench caches it per event), else computed here
/// (matchModules costs what changed).
GraphDiff diffGraphs(const IRModule& beforeMod, const std::shared_ptr<const FunctionGraph>& before,
                     const IRModule& afterMod, const std::shared_ptr<const FunctionGraph>& after,
                     const ModuleEdits* edits = nullptr);

/// The diff in words, counting op nodes (not parameters, constants or edges):
/// "408 ops: 405 moved into 81 new boxes; 0 rewritten", "52 ops: 3 updated,
/// 2 inserted", "120 ops: unchanged". Either graph may be null.
std::string describeGraphDiff(const FunctionGraph* before, const SideDiff& beforeDiff, const FunctionGraph* after,
                              const SideDiff& afterDiff);
/// A diff in which every node of `g` is Unchanged (a side shown on its own).
SideDiff unchangedSide(const FunctionGraph& g);

}  // namespace passlab::graph
