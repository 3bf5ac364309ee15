// View model of the Graph panel: the dataflow graph of one function before and
// after the selected event, side by side, coloured by what the event changed
// (graph/graph_diff.h), laid out by Graphviz on a worker thread
// (graph/layout_service.h). Holds per side the graph, its diff, which boxes are
// collapsed, the layout once it is ready, and the camera (pan and zoom); and
// the selection with its partner on the other side, search, follow mode, and
// the mapping between nodes and lines of the printed IR. No ImGui in here:
// the panel (gui/panels/graph_panel.cpp) draws what this says.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/workbench/workbench.h"
#include "graph/graph_diff.h"
#include "graph/graph_model.h"
#include "graph/layout_service.h"
#include "gui/model/printed_text.h"

namespace passlab::gui {

/// Pan and zoom of one canvas: `zoom` pixels per point, (x, y) the graph point
/// at the canvas's top-left corner.
struct GraphCamera {
  float zoom = 1.f;
  float x = 0, y = 0;
};

/// A rectangle in graph coordinates.
struct GraphRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// A side's minimap: the whole drawing scaled into the canvas's bottom-right
/// corner, with the part the camera shows as a rectangle. Canvas pixels.
struct GraphMinimap {
  /// The minimap's rectangle on the canvas.
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  /// Minimap pixels per graph point.
  float scale = 0;
  /// The camera's view, clipped to the minimap.
  GraphRect view;
  /// The canvas point of graph point (gx, gy), and back.
  float toX(float gx) const { return x0 + gx * scale; }
  float toY(float gy) const { return y0 + gy * scale; }
  float graphX(float px) const { return (px - x0) / scale; }
  float graphY(float py) const { return (py - y0) / scale; }
  bool contains(float px, float py) const { return px >= x0 && px <= x1 && py >= y0 && py <= y1; }
};

/// A box of the drawing as a minimap dot: its centre and half-size in canvas
/// pixels, and its colour (packed as the panel likes; 0 is not a colour).
struct MinimapDot {
  float x = 0, y = 0, halfW = 0, halfH = 0;
  uint32_t colour = 0;
};

/// A filled rectangle of the minimap, canvas pixels.
struct MinimapRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  uint32_t colour = 0;
  friend bool operator==(const MinimapRect&, const MinimapRect&) = default;
};

/// The rectangles that draw `dots` on minimap `m`: a dot no bigger than a
/// pixel cell (half-size ≤ 1.5) becomes its cell, 2 × 2 pixels, the last
/// colour given to a cell winning; cells of one colour next to each other
/// along a row are one rectangle, and rows of identical runs one rectangle.
/// Larger dots follow, as they are. Thousands of boxes land on a few hundred
/// minimap pixels, and every rectangle is two triangles a software rasteriser
/// sets up each frame: a chain of 3,540 boxes is a few dozen rectangles.
std::vector<MinimapRect> minimapRects(const GraphMinimap& m, const std::vector<MinimapDot>& dots);

/// One side (before or after) of the Graph panel.
struct GraphSide {
  /// Null when the function does not exist on this side.
  std::shared_ptr<const graph::FunctionGraph> graph;
  graph::SideDiff diff;
  graph::CollapseState collapse;
  /// The layout for `collapse`, or null while it is computed.
  std::shared_ptr<const graph::Layout> layout;
  bool pending = false;
  std::string error;
  GraphCamera camera;
  /// Fit (or follow) the camera when the next layout arrives.
  bool refit = true;
  /// Canvas size in pixels, as the panel last drew it.
  float canvasW = 0, canvasH = 0;
};

/// A node of one side (-1 = none).
struct GraphPick {
  Side side = Side::After;
  int node = -1;
  bool valid() const { return node >= 0; }
  friend bool operator==(const GraphPick&, const GraphPick&) = default;
};

/// The Graph panel's model.
class GraphViewModel {
 public:
  GraphViewModel();
  ~GraphViewModel();

  /// Shows `function` ("" = @main or the first changed function) at event
  /// `event`. Cheap when nothing changed; graphs of functions the event did
  /// not touch come from the cache, so does their layout.
  void update(const Workbench& wb, int event, const std::string& function);
  /// Picks up finished layouts; call once per frame before drawing.
  void poll();
  /// The function shown ("" when none), the graph-level functions of the event, and why nothing is shown.
  const std::string& function() const { return function_; }
  const std::vector<std::string>& functions() const { return functions_; }
  const std::string& message() const { return message_; }
  int event() const { return event_; }

  GraphSide& side(Side s) { return sides_[s == Side::Before ? 0 : 1]; }
  const GraphSide& side(Side s) const { return sides_[s == Side::Before ? 0 : 1]; }
  /// True while some side waits for its layout.
  bool pending() const { return sides_[0].pending || sides_[1].pending; }
  /// The layout worker (the app wakes its loop from its callback).
  graph::LayoutService& layouts() { return *service_; }

  // ---- Camera --------------------------------------------------------------
  /// Fits the whole drawing of a side into its canvas, but never below
  /// kFitMinZoom: a graph too long for that starts at its top (the inputs) at a
  /// legible zoom and scrolls, instead of shrinking to a strip.
  void fit(Side s);
  /// The smallest zoom Fit goes to: labels at 8 px (the panel stops drawing text below 6 px).
  static constexpr float kFitMinZoom = 0.8f;
  /// Fits both sides.
  void fitAll() { fit(Side::Before), fit(Side::After); }
  /// Zooms a side by `factor` around the canvas point (px, py).
  void zoomAt(Side s, float factor, float px, float py);
  /// Sets both sides' zoom (pixels per point), centred on the selection and its
  /// partner where there is one, else on the current centre.
  void zoomTo(float zoom);
  /// Centres a side on a graph rectangle, zoomed to fit it (never closer than
  /// `maxZoom`, never further than `minZoom`); a rectangle that does not fit at
  /// `minZoom` shows its top centre when `anchorTop`, else its centre.
  void focus(Side s, const GraphRect& r, float maxZoom = 1.5f, float minZoom = 0.12f, bool anchorTop = false);
  /// Follow mode: after each step, recentre on what changed.
  bool follow = true;
  /// The minimap of a side on its canvas, at most `maxW` × `maxH` pixels: none
  /// while there is no layout, or when the whole drawing is on screen.
  std::optional<GraphMinimap> minimap(Side s, float maxW = 160.f, float maxH = 640.f) const;
  /// Centres a side's camera on graph point (gx, gy), keeping the zoom (a click in the minimap).
  void centreAt(Side s, float gx, float gy);
  /// The bounding rectangle of the changed boxes of a side (none when nothing changed or no layout).
  std::optional<GraphRect> changedRegion(Side s) const;

  // ---- Boxes ---------------------------------------------------------------
  /// Collapses or expands cluster `c` of a side (re-layout off-thread).
  void toggle(Side s, int cluster);
  /// Collapses (true) or expands every box on both sides.
  void setAllCollapsed(bool collapsed);

  // ---- Selection -------------------------------------------------------------
  /// Selects a node (its partner on the other side is highlighted too).
  void select(GraphPick pick);
  const GraphPick& selected() const { return selected_; }
  /// The partner of a pick on the other side (invalid when none).
  GraphPick partnerOf(GraphPick pick) const;
  /// Hover (set by the panel each frame).
  GraphPick hovered;
  /// The layout box that shows a node on its side now (-1: none or hidden).
  int boxOf(GraphPick pick) const;
  /// The box under graph point (gx, gy) of a side (-1: none).
  int boxAt(Side s, float gx, float gy) const;

  // ---- Search ----------------------------------------------------------------
  /// Finds nodes whose label contains `text` (case-insensitive), after side
  /// first; selects and centres the first. Returns the number of matches.
  size_t search(const std::string& text);
  const std::vector<GraphPick>& searchHits() const { return hits_; }
  /// Moves to the next search hit.
  void nextHit();

  // ---- The printed IR ----------------------------------------------------------
  /// The line of a node in the printed module of its side (0: not printed).
  uint32_t lineOf(GraphPick pick, const PrintedText& printed) const;
  /// The graph node of a side that shows IR node `ir` (invalid when the side does not draw it).
  GraphPick pickOf(Side s, const ExprNode* ir) const;
  /// The node printed on `line` of a side's printed module (invalid when none).
  GraphPick nodeAtLine(Side s, uint32_t line, const PrintedText& printed) const;

 private:
  std::shared_ptr<const graph::FunctionGraph> graphFor(const IRModule& mod, const std::string& name);
  void request(Side s);
  void centreOn(GraphPick pick);

  std::unique_ptr<graph::LayoutService> service_;
  std::array<GraphSide, 2> sides_;
  IRModule before_, after_;
  std::string requested_;
  std::string function_;
  std::vector<std::string> functions_;
  std::string message_;
  int event_ = -1;
  GraphPick selected_;
  std::vector<GraphPick> hits_;
  size_t hitIndex_ = 0;
  /// Graphs by function node, with the callees they were built against.
  std::unordered_map<const ExprNode*, std::shared_ptr<const graph::FunctionGraph>> graphs_;
  std::vector<const ExprNode*> graphOrder_;
};

}  // namespace passlab::gui
