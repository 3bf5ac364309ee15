#include "graph/graph_diff.h"

#include <algorithm>
#include <unordered_set>

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

std::string describeGraphDiff(const FunctionGraph* before, const SideDiff& beforeDiff, const FunctionGraph* after,
                              const SideDiff& afterDiff) {
  size_t ops = 0, moved = 0, updated = 0, inserted = 0, folded = 0, deleted = 0, newBoxes = 0;
  auto count = [](const FunctionGraph& g, const SideDiff& side, auto&& f) {
    for (size_t i = 0; i < g.nodes.size() && i < side.nodes.size(); ++i)
      if (g.nodes[i].kind == NodeKind::Op) f(side.nodes[i]);
  };
  if (after) {
    count(*after, afterDiff, [&](DiffStatus s) {
      ++ops;
      moved += s == DiffStatus::Moved;
      updated += s == DiffStatus::Updated;
      inserted += s == DiffStatus::Inserted;
    });
    for (size_t c = 0; c < after->clusters.size() && c < afterDiff.clusters.size(); ++c)
      if (after->clusters[c].kind != ClusterKind::Chain)  // a chain is a way of drawing, not a box the pass made
        newBoxes += afterDiff.clusters[c] == DiffStatus::Inserted ||
                    (afterDiff.clusters[c] != DiffStatus::Unchanged && after->clusters[c].kind != ClusterKind::Function);
    for (size_t i = 0; i < after->nodes.size() && i < afterDiff.nodes.size(); ++i) folded += afterDiff.nodes[i] == DiffStatus::Folded;
  }
  if (before) count(*before, beforeDiff, [&](DiffStatus s) { deleted += s == DiffStatus::Deleted || s == DiffStatus::Folded; });
  if (!after && before) ops = static_cast<size_t>(before->opCount());
  std::string out = std::to_string(ops) + (ops == 1 ? " op" : " ops") + ": ";
  std::string edits;
  auto add = [&](size_t n, const char* what) {
    if (n) edits += (edits.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(updated, "updated");
  add(inserted, "inserted");
  add(deleted, "deleted");
  add(folded, "folded into constants");
  if (moved) {
    out += std::to_string(moved) + " moved";
    if (newBoxes) out += " into " + std::to_string(newBoxes) + (newBoxes == 1 ? " box" : " boxes");
    return out + "; " + (edits.empty() ? "0 rewritten" : edits);
  }
  return out + (edits.empty() ? "unchanged" : edits);
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
/// when every node is, updated when any is changed. A chain is not a function
/// the pass made or removed: it is Moved when its nodes were only moved.
void clusterStatus(const FunctionGraph& g, SideDiff& d, DiffStatus whole) {
  std::vector<int> changed(g.clusters.size(), 0), moved(g.clusters.size(), 0);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (d.nodes[i] == DiffStatus::Unchanged) continue;
    for (int c = g.nodes[i].cluster; c >= 0; c = g.clusters[static_cast<size_t>(c)].parent) {
      ++changed[static_cast<size_t>(c)];
      moved[static_cast<size_t>(c)] += d.nodes[i] == DiffStatus::Moved;
    }
  }
  for (size_t c = 0; c < g.clusters.size(); ++c) {
    if (changed[c] == 0) continue;
    if (g.clusters[c].kind == ClusterKind::Chain)
      d.clusters[c] = moved[c] == changed[c] ? DiffStatus::Moved : DiffStatus::Updated;
    else
      d.clusters[c] = changed[c] >= g.clusters[c].size ? whole : DiffStatus::Updated;
  }
}

}  // namespace

namespace {

DiffStatus statusOf(EditKind k) {
  switch (k) {
    case EditKind::Kept: return DiffStatus::Unchanged;
    case EditKind::Updated: return DiffStatus::Updated;
    case EditKind::Inserted: return DiffStatus::Inserted;
    case EditKind::Deleted: return DiffStatus::Deleted;
    case EditKind::Moved: return DiffStatus::Moved;
    case EditKind::Folded: return DiffStatus::Folded;
  }
  return DiffStatus::Unchanged;
}

int outputOf(const FunctionGraph& g) {
  for (size_t j = g.nodes.size(); j-- > 0;)
    if (g.nodes[j].kind == NodeKind::Output) return static_cast<int>(j);
  return -1;
}

int producerOf(const FunctionGraph& g, int node) {
  for (const Edge& e : g.edges)
    if (e.to == node) return e.from;
  return -1;
}

}  // namespace

GraphDiff diffGraphs(const IRModule& beforeMod, const std::shared_ptr<const FunctionGraph>& before,
                     const IRModule& afterMod, const std::shared_ptr<const FunctionGraph>& after,
                     const ModuleEdits* edits) {
  GraphDiff d;
  if (before) d.before = unchangedSide(*before);
  if (after) d.after = unchangedSide(*after);
  if (before && after && before == after) {
    for (size_t i = 0; i < before->nodes.size(); ++i) d.before.partner[i] = d.after.partner[i] = static_cast<int>(i);
    return d;
  }
  std::shared_ptr<const ModuleEdits> owned;
  if (!edits) {
    owned = matchModules(beforeMod, afterMod);
    edits = owned.get();
  }
  d.matched = true;
  // Constants that replaced folded computations.
  std::unordered_set<const ExprNode*> foldedInto;
  for (const NodeEdit& e : edits->edits)
    if (e.kind == EditKind::Folded && e.after) foldedInto.insert(e.after);

  if (after) {
    for (size_t i = 0; i < after->nodes.size(); ++i) {
      const Node& n = after->nodes[i];
      if (!n.ir) continue;
      DiffStatus st = DiffStatus::Unchanged;
      const ExprNode* other = nullptr;
      if (const NodeEdit* rec = edits->findAfter(n.ir)) {
        st = statusOf(rec->kind);
        other = rec->kind == EditKind::Inserted ? nullptr : rec->before;
      } else {
        other = edits->beforeOf(n.ir);
        if (!other && !(before && before->nodeOf.count(n.ir))) st = DiffStatus::Inserted;
        if (!other && before && before->nodeOf.count(n.ir)) other = n.ir;
      }
      if (foldedInto.count(n.ir) && st != DiffStatus::Unchanged) st = DiffStatus::Folded;
      d.after.nodes[i] = st;
      if (before && other) {
        auto it = before->nodeOf.find(other);
        if (it != before->nodeOf.end()) d.after.partner[i] = it->second;
      }
    }
  }
  if (before) {
    for (size_t i = 0; i < before->nodes.size(); ++i) {
      const Node& n = before->nodes[i];
      if (!n.ir) continue;
      DiffStatus st = DiffStatus::Unchanged;
      const ExprNode* other = nullptr;
      if (const NodeEdit* rec = edits->findBefore(n.ir)) {
        st = statusOf(rec->kind);
        other = rec->kind == EditKind::Deleted ? nullptr : rec->after;
      } else {
        other = edits->afterOf(n.ir);
        if (!other && after && after->nodeOf.count(n.ir)) other = n.ir;
        if (!other) st = DiffStatus::Deleted;
      }
      d.before.nodes[i] = st;
      if (after && other) {
        auto it = after->nodeOf.find(other);
        if (it != after->nodeOf.end()) {
          d.before.partner[i] = it->second;
          // Pairs point at each other (a folded op's partner is its constant,
          // which points back at the first op folded into it).
          int& back = d.after.partner[static_cast<size_t>(it->second)];
          if (back < 0) back = static_cast<int>(i);
        }
      }
    }
  }
  // The outputs pair up; updated when what feeds them is not the same value.
  if (before && after) {
    int ob = outputOf(*before), oa = outputOf(*after);
    if (ob >= 0 && oa >= 0) {
      d.before.partner[static_cast<size_t>(ob)] = oa;
      d.after.partner[static_cast<size_t>(oa)] = ob;
      int pb = producerOf(*before, ob), pa = producerOf(*after, oa);
      bool same = pa >= 0 && pb >= 0 && d.after.partner[static_cast<size_t>(pa)] == pb &&
                  d.after.nodes[static_cast<size_t>(pa)] == DiffStatus::Unchanged;
      if (!same) d.before.nodes[static_cast<size_t>(ob)] = d.after.nodes[static_cast<size_t>(oa)] = DiffStatus::Updated;
    }
  } else if (after) {
    int oa = outputOf(*after);
    if (oa >= 0) d.after.nodes[static_cast<size_t>(oa)] = DiffStatus::Inserted;
  } else if (before) {
    int ob = outputOf(*before);
    if (ob >= 0) d.before.nodes[static_cast<size_t>(ob)] = DiffStatus::Deleted;
  }
  if (before) clusterStatus(*before, d.before, DiffStatus::Deleted);
  if (after) clusterStatus(*after, d.after, DiffStatus::Inserted);
  return d;
}

}  // namespace passlab::graph
