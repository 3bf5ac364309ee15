// How graphs look, shared by the GUI's drawing and the SVG Graphviz renders:
// colours per node kind, box kind and diff status, and the text metrics node
// sizes are computed from. One table, so the picture in the GUI and the SVG in
// a report agree. No ImGui and no Graphviz here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph_diff.h"
#include "graph/graph_model.h"

namespace passlab::graph {

/// An 8-bit sRGB colour.
struct Colour {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Colour&, const Colour&) = default;
  /// `#rrggbb` (alpha ignored), as Graphviz and SVG spell it.
  std::string hex() const;
};

/// Background behind the graph.
Colour backgroundColour();
/// Label text.
Colour textColour();
/// Dimmed text (types, attributes).
Colour dimTextColour();
/// Edges.
Colour edgeColour();
/// Fill of a node of `kind` with `status`.
Colour nodeFill(NodeKind kind, DiffStatus status);
/// Border of a node with `status` (unchanged: a neutral grey).
Colour nodeBorder(DiffStatus status);
/// Fill and border of a box.
Colour clusterFill(ClusterKind kind);
Colour clusterBorder(ClusterKind kind, DiffStatus status);
/// Fill of a constant chip with `status`.
Colour chipFill(DiffStatus status);

/// Text metrics of node labels, in points (1/72 inch, Graphviz's unit): a
/// monospace font of `kFontSize`, each character `kCharWidth` wide.
inline constexpr double kFontSize = 10.0;
inline constexpr double kCharWidth = 6.0;
inline constexpr double kLineHeight = 12.0;
inline constexpr double kPadX = 8.0;
inline constexpr double kPadY = 5.0;
/// Height of the row of constant chips under a node's label.
inline constexpr double kChipRowHeight = 13.0;
/// Characters of a chip label ("(64, 3, 3, 3) f16" may be clipped).
inline constexpr size_t kChipMaxChars = 18;
/// Characters of a constant expression's chip ("=5 ops (16, 1, 1) f32") and of a global's.
inline constexpr size_t kExprChipMaxChars = 28;

/// Size of a node's box in points (label lines, chips).
struct BoxSize {
  double width = 0, height = 0;
};
BoxSize nodeBoxSize(const FunctionGraph& g, int node);
/// The box of a collapsed cluster: its label and "N nodes".
BoxSize collapsedBoxSize(const FunctionGraph& g, int cluster);
/// Label lines of a collapsed cluster.
std::vector<std::string> collapsedLines(const FunctionGraph& g, int cluster);
/// Text of a chip: the constant's shape and dtype, or a constant expression's
/// op count (its op when alone) and result type, clipped.
std::string chipText(const Node& constant);

}  // namespace passlab::graph
