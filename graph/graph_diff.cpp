#include "graph/graph_diff.h"

#include <algorithm>

namespace passlab::graph {

const char* diffStatusName(DiffStatus status) {
  switch (status) {
    case DiffStatus::Unchanged: return "unchanged";
    case DiffStatus::Inserted: return "inserted";
    case DiffStatus::Deleted: return "deleted";
    case DiffStatus::Updated: return "updated";
    case DiffStatus::Moved: return "moved";
    case DiffStatus::Folded: return "folded";
  }
  return "?";
}

size_t SideDiff::changedCount() const {
  return static_cast<size_t>(std::count_if(nodes.begin(), nodes.end(), [](DiffStatus s) { return s != DiffStatus::Unchanged; }));
}

SideDiff unchangedSide(const FunctionGraph& g) {
  SideDiff d;
  d.nodes.assign(g.nodes.size(), DiffStatus::Unchanged);
  d.partner.assign(g.nodes.size(), -1);
  d.clusters.assign(g.clusters.size(), DiffStatus::Unchanged);
  return d;
}

namespace {

/// Box status from the statuses of the nodes inside: new or gone as a whole
/// when every node is, updated when any is changed.
void clusterStatus(const FunctionGraph& g, SideDiff& d, DiffStatus whole) {
  std::vector<int> changed(g.clusters.size(), 0);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].chipOf >= 0 && d.nodes[i] == DiffStatus::Unchanged) continue;
    if (d.nodes[i] == DiffStatus::Unchanged) continue;
    for (int c = g.nodes[i].cluster; c >= 0; c = g.clusters[static_cast<size_t>(c)].parent) ++changed[static_cast<size_t>(c)];
  }
  for (size_t c = 0; c < g.clusters.size(); ++c) {
    if (changed[c] == 0) continue;
    d.clusters[c] = changed[c] >= g.clusters[c].size ? whole : DiffStatus::Updated;
  }
}

}  // namespace

GraphDiff diffGraphs(const IRModule&, const std::shared_ptr<const FunctionGraph>& before, const IRModule&,
                     const std::shared_ptr<const FunctionGraph>& after) {
  GraphDiff d;
  if (before) d.before = unchangedSide(*before);
  if (after) d.after = unchangedSide(*after);
  if (before && after && before->fn == after->fn) {
    for (size_t i = 0; i < before->nodes.size(); ++i) d.before.partner[i] = d.after.partner[i] = static_cast<int>(i);
    return d;
  }
  // Pointer identity: a pass rebuilds only what changed, so an IR node present
  // on both sides is the same node.
  if (after) {
    for (size_t i = 0; i < after->nodes.size(); ++i) {
      const Node& n = after->nodes[i];
      int p = -1;
      if (before) {
        if (n.ir) {
          auto it = before->nodeOf.find(n.ir);
          if (it != before->nodeOf.end()) p = it->second;
        } else if (n.kind == NodeKind::Output) {
          // The output of the function: partner of the other side's output.
          for (size_t j = before->nodes.size(); j-- > 0;)
            if (before->nodes[j].kind == NodeKind::Output) {
              p = static_cast<int>(j);
              break;
            }
        }
      }
      d.after.partner[i] = p;
      if (p >= 0) d.before.partner[static_cast<size_t>(p)] = static_cast<int>(i);
      d.after.nodes[i] = p >= 0 ? DiffStatus::Unchanged : DiffStatus::Inserted;
    }
  }
  if (before)
    for (size_t i = 0; i < before->nodes.size(); ++i)
      if (d.before.partner[i] < 0) d.before.nodes[i] = DiffStatus::Deleted;
  // The output node is Updated when what feeds it changed.
  if (before && after)
    for (size_t i = 0; i < after->nodes.size(); ++i) {
      if (after->nodes[i].kind != NodeKind::Output || d.after.partner[i] < 0) continue;
      bool same = false;
      for (const Edge& e : after->edges)
        if (e.to == static_cast<int>(i)) same = d.after.nodes[static_cast<size_t>(e.from)] == DiffStatus::Unchanged;
      if (!same) d.after.nodes[i] = d.before.nodes[static_cast<size_t>(d.after.partner[i])] = DiffStatus::Updated;
    }
  if (before) clusterStatus(*before, d.before, DiffStatus::Deleted);
  if (after) clusterStatus(*after, d.after, DiffStatus::Inserted);
  return d;
}

}  // namespace passlab::graph
