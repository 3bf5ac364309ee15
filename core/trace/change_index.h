// The node matchings of module pairs and their one-line change summaries,
// each computed once. The matcher is the workbench's most expensive query
// (a 700-op FuseOps takes tens of milliseconds), and every face asks it about
// the same few pairs: the diff, the change list, the graph colours, the trace
// JSON and the report. They all ask this index instead of calling
// matchModules themselves, so a pair is matched once however many faces show it.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/module.h"
#include "core/analysis/node_match.h"
#include "core/trace/change_summary.h"

namespace passlab {

/// Cached matchings and summaries (see the file comment). Not thread-safe,
/// like the workbench that owns one.
class ChangeIndex {
 public:
  /// Keeps the `matchingsKept` most recently used matchings: a face flips
  /// between a few events, and each matching holds two node-index maps.
  explicit ChangeIndex(size_t matchingsKept = 6);

  /// The matching of `before` against `after` (matchModules), cached.
  std::shared_ptr<const ModuleEdits> edits(const IRModule& before, const IRModule& after) const;
  /// The matching with every node listed (MatchOptions::keepAll): for a full
  /// edit script, asked for rarely and larger, so never cached.
  std::shared_ptr<const ModuleEdits> allEdits(const IRModule& before, const IRModule& after) const;
  /// changeSummary of the pair ("grouped 412 ops into 96 Primitive
  /// functions; 0 ops rewritten"), kept for the life of the index. A summary
  /// made without a cached matching does not enter the matching cache:
  /// summarizing a whole trace would evict the pairs a user is looking at.
  std::string summary(const IRModule& before, const IRModule& after) const;

  /// Forgets everything (a new input, or snapshots discarded).
  void clear();

 private:
  struct Matching {
    IRModule before;
    IRModule after;
    std::shared_ptr<const ModuleEdits> edits;
  };
  struct Summary {
    // Held so the addresses in the key cannot be reused by other modules.
    IRModule before;
    IRModule after;
    std::string line;
  };
  size_t matchingsKept_;
  mutable std::vector<Matching> matchings_;  // most recent first
  mutable std::map<std::pair<const IRModuleNode*, const IRModuleNode*>, Summary> summaries_;
};

}  // namespace passlab
