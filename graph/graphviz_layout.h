// The Graphviz wrapper: lays out a FunctionGraph with the `dot` engine
// (libgvc + cgraph) and renders it as SVG or DOT. The only file of the project
// that includes Graphviz headers is graphviz_layout.cpp.
//
// Graphviz keeps global state and is not thread-safe: every call below takes
// one process-wide lock, so layouts may be requested from any thread (the GUI
// runs them on a worker, graph/layout_service.h) but run one at a time.
// Only the built-in dot layout and core renderers are used (no plugins are
// loaded, no fonts measured), so the same graph always gives the same layout
// and byte-identical SVG.
#pragma once

#include <string>
#include <vector>

#include "graph/graph_diff.h"
#include "graph/graph_model.h"

namespace passlab::graph {

/// A point in layout coordinates: points (1/72 inch), origin at the top left, y down.
struct Point {
  float x = 0, y = 0;
};

/// Positions computed by Graphviz for a graph drawn with a collapse state.
struct Layout {
  /// Size of the whole drawing.
  float width = 0, height = 0;
  /// A drawn box: a node, or a collapsed cluster standing for its nodes.
  struct Box {
    int node = -1;     ///< model node (-1 for a collapsed cluster)
    int cluster = -1;  ///< the collapsed cluster (-1 for a node)
    /// Centre and size.
    float x = 0, y = 0, w = 0, h = 0;
  };
  std::vector<Box> boxes;
  /// Per model node: its box (-1 when hidden in a collapsed cluster, or a chip).
  std::vector<int> boxOfNode;
  /// Per cluster: the box of its collapsed form (-1 when expanded or hidden).
  std::vector<int> boxOfCluster;
  /// An expanded cluster's rectangle (label at the top left).
  struct Frame {
    int cluster = -1;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  };
  /// Outer clusters first, so drawing in order nests them.
  std::vector<Frame> frames;
  /// An edge between two boxes.
  struct Path {
    int from = -1, to = -1;  ///< boxes
    int edge = -1;           ///< a model edge it stands for (its shape is the label)
    /// Cubic Bézier: p0, then three points per segment.
    std::vector<Point> points;
    /// Arrow tip (the arrow runs from the last point to it); valid when `arrow`.
    Point tip;
    bool arrow = false;
  };
  std::vector<Path> edges;
  /// Milliseconds the layout took (graph building and dot).
  double ms = 0;
};

/// Lays out `g` with `collapse` (missing flags count as expanded). Throws
/// GraphError when Graphviz fails.
Layout layoutGraph(const FunctionGraph& g, const CollapseState& collapse);

/// The graph as DOT text with the colours and boxes of the view, unlaid
/// (`dot -Tsvg` renders it). `diff` (may be null) colours the nodes.
std::string graphToDot(const FunctionGraph& g, const CollapseState& collapse, const SideDiff* diff);

/// The graph laid out and rendered as SVG by Graphviz, with the view's colours
/// and boxes; every node's SVG id is `n<index>` (collapsed boxes `c<index>`),
/// edges carry their tensor shape as tooltip.
std::string renderSvg(const FunctionGraph& g, const CollapseState& collapse, const SideDiff* diff);

}  // namespace passlab::graph
