#include "graph/graph_style.h"

#include <algorithm>
#include <cstdio>

namespace passlab::graph {

std::string Colour::hex() const {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

Colour backgroundColour() { return {18, 19, 22}; }
Colour textColour() { return {225, 228, 232}; }
Colour dimTextColour() { return {150, 156, 166}; }
Colour edgeColour() { return {128, 136, 150}; }

Colour nodeFill(NodeKind kind, DiffStatus status) {
  switch (status) {
    case DiffStatus::Inserted: return {28, 72, 40};
    case DiffStatus::Deleted: return {92, 32, 36};
    case DiffStatus::Updated: return {88, 70, 22};
    case DiffStatus::Moved: return {58, 44, 96};
    case DiffStatus::Folded: return {20, 72, 80};
    case DiffStatus::Unchanged: break;
  }
  switch (kind) {
    case NodeKind::Param: return {34, 62, 52};
    case NodeKind::Constant: return {70, 58, 36};
    case NodeKind::Op: return {38, 52, 78};
    case NodeKind::GlobalCall:
    case NodeKind::Call: return {66, 48, 88};
    case NodeKind::Output: return {52, 56, 64};
    default: return {46, 49, 56};
  }
}

Colour nodeBorder(DiffStatus status) {
  switch (status) {
    case DiffStatus::Inserted: return {63, 185, 80};
    case DiffStatus::Deleted: return {248, 81, 73};
    case DiffStatus::Updated: return {210, 153, 34};
    case DiffStatus::Moved: return {163, 113, 247};
    case DiffStatus::Folded: return {57, 197, 207};
    case DiffStatus::Unchanged: break;
  }
  return {96, 104, 118};
}

Colour clusterFill(ClusterKind kind) {
  switch (kind) {
    case ClusterKind::Fused: return {26, 34, 48};
    case ClusterKind::Compiler: return {40, 28, 52};
    case ClusterKind::Function: return {30, 31, 35};
    case ClusterKind::Chain: return {34, 36, 40};
  }
  return {30, 31, 35};
}

Colour clusterBorder(ClusterKind kind, DiffStatus status) {
  if (status != DiffStatus::Unchanged) return nodeBorder(status);
  switch (kind) {
    case ClusterKind::Fused: return {74, 110, 160};
    case ClusterKind::Compiler: return {160, 110, 200};
    case ClusterKind::Function: return {112, 112, 112};
    case ClusterKind::Chain: return {96, 120, 104};
  }
  return {112, 112, 112};
}

Colour chipFill(DiffStatus status) { return nodeFill(NodeKind::Constant, status); }

std::string chipText(const Node& constant) {
  if (constant.constOps > 0) {
    // "=5 ops (16, 1, 1) f32": what the folded arithmetic yields, and how much of it there is.
    std::string t = "=" + (constant.constOps == 1 ? constant.title : std::to_string(constant.constOps) + " ops") + " " + constant.type;
    if (t.size() > kExprChipMaxChars) t = t.substr(0, kExprChipMaxChars - 2) + "..";
    return t;
  }
  if (constant.kind == NodeKind::Global)  // call_tir's kernel: its name tells kernels apart
    return constant.title.size() > kExprChipMaxChars ? constant.title.substr(0, kExprChipMaxChars - 2) + ".." : constant.title;
  if (constant.kind != NodeKind::Constant) return constant.title.size() > kChipMaxChars ? constant.title.substr(0, kChipMaxChars - 2) + ".." : constant.title;
  std::string t = constant.type.empty() ? constant.title : constant.type;
  if (constant.title.size() > 6 && constant.title.rfind("const ", 0) == 0) t = constant.title.substr(6) + " " + t;
  if (t.size() > kChipMaxChars) t = t.substr(0, kChipMaxChars - 2) + "..";
  return t;
}

namespace {
size_t widest(const std::vector<std::string>& lines) {
  size_t w = 0;
  for (const std::string& l : lines) w = std::max(w, l.size());
  return w;
}
}  // namespace

BoxSize nodeBoxSize(const FunctionGraph& g, int node) {
  const Node& n = g.nodes[static_cast<size_t>(node)];
  std::vector<std::string> lines = n.lines();
  double w = static_cast<double>(widest(lines)) * kCharWidth;
  double chipsW = 0;
  for (int c : n.chips) chipsW += static_cast<double>(chipText(g.nodes[static_cast<size_t>(c)]).size()) * kCharWidth * 0.85 + 8;
  w = std::max(w, chipsW);
  double h = static_cast<double>(lines.size()) * kLineHeight + (n.chips.empty() ? 0 : kChipRowHeight);
  return {std::max(w + 2 * kPadX, 36.0), h + 2 * kPadY};
}

std::vector<std::string> collapsedLines(const FunctionGraph& g, int cluster) {
  const Cluster& c = g.clusters[static_cast<size_t>(cluster)];
  // Ops are what a reader counts ("fused: nn.conv2d+add: 3 ops"); a box of no op counts its nodes.
  if (c.ops > 0) return {"[+] " + c.label, std::to_string(c.ops) + (c.ops == 1 ? " op" : " ops")};
  return {"[+] " + c.label, std::to_string(c.size) + " nodes"};
}

BoxSize collapsedBoxSize(const FunctionGraph& g, int cluster) {
  std::vector<std::string> lines = collapsedLines(g, cluster);
  return {static_cast<double>(widest(lines)) * kCharWidth + 2 * kPadX,
          static_cast<double>(lines.size()) * kLineHeight + 2 * kPadY};
}

}  // namespace passlab::graph
