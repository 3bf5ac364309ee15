// The Graph panel: the dataflow graph of one function before | after the
// selected event, drawn with ImGui draw lists from the positions Graphviz
// computed (the layout runs on a worker: until it is ready the canvas says so,
// and the frame never waits). Only what is on screen is drawn, and labels only
// when they would be readable, so a 5,000-node graph pans at frame rate.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "graph/graph_style.h"
#include "gui/panels/panels.h"

namespace passlab::gui {
namespace {

using graph::DiffStatus;

ImU32 im(graph::Colour c) { return IM_COL32(c.r, c.g, c.b, c.a); }

const ImU32 kSelection = IM_COL32(255, 213, 74, 255);
const ImU32 kPartner = IM_COL32(255, 213, 74, 150);

/// Everything one canvas needs to map graph points to the screen.
struct Canvas {
  ImDrawList* dl;
  ImVec2 origin;
  ImVec2 size;
  GraphCamera cam;
  ImVec2 toScreen(float gx, float gy) const {
    return ImVec2(origin.x + (gx - cam.x) * cam.zoom, origin.y + (gy - cam.y) * cam.zoom);
  }
  /// The visible part of the graph, in graph coordinates.
  bool visible(float x0, float y0, float x1, float y1) const {
    float vx0 = cam.x, vy0 = cam.y, vx1 = cam.x + size.x / cam.zoom, vy1 = cam.y + size.y / cam.zoom;
    return x1 >= vx0 && x0 <= vx1 && y1 >= vy0 && y0 <= vy1;
  }
};

DiffStatus nodeStatus(const GraphSide& s, int node) {
  return static_cast<size_t>(node) < s.diff.nodes.size() ? s.diff.nodes[static_cast<size_t>(node)] : DiffStatus::Unchanged;
}
DiffStatus clusterStatus(const GraphSide& s, int c) {
  return static_cast<size_t>(c) < s.diff.clusters.size() ? s.diff.clusters[static_cast<size_t>(c)] : DiffStatus::Unchanged;
}

/// Status shown on a node's border: its own, or Updated when one of its chips changed.
DiffStatus borderStatus(const GraphSide& s, int node) {
  DiffStatus st = nodeStatus(s, node);
  if (st == DiffStatus::Unchanged)
    for (int c : s.graph->nodes[static_cast<size_t>(node)].chips)
      if (nodeStatus(s, c) != DiffStatus::Unchanged) return nodeStatus(s, c) == DiffStatus::Folded ? DiffStatus::Folded : DiffStatus::Updated;
  return st;
}

void drawLines(const Canvas& c, const std::vector<std::string>& lines, float gx, float gy, float fontPx, ImU32 first, ImU32 rest) {
  ImFont* font = ImGui::GetFont();
  float lineH = static_cast<float>(graph::kLineHeight) * c.cam.zoom;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    float w = font->CalcTextSizeA(fontPx, FLT_MAX, 0.f, line.c_str()).x;
    ImVec2 p = c.toScreen(gx, gy);
    c.dl->AddText(font, fontPx, ImVec2(std::floor(p.x - w / 2), std::floor(p.y + lineH * static_cast<float>(i))), i == 0 ? first : rest,
                  line.c_str());
  }
}

float distanceToBezier(const std::vector<graph::Point>& pts, ImVec2 m, const Canvas& c) {
  float best = 1e9f;
  for (size_t k = 0; k + 3 < pts.size(); k += 3) {
    ImVec2 p0 = c.toScreen(pts[k].x, pts[k].y), p1 = c.toScreen(pts[k + 1].x, pts[k + 1].y);
    ImVec2 p2 = c.toScreen(pts[k + 2].x, pts[k + 2].y), p3 = c.toScreen(pts[k + 3].x, pts[k + 3].y);
    for (int i = 0; i <= 12; ++i) {
      float t = static_cast<float>(i) / 12.f, u = 1 - t;
      float x = u * u * u * p0.x + 3 * u * u * t * p1.x + 3 * u * t * t * p2.x + t * t * t * p3.x;
      float y = u * u * u * p0.y + 3 * u * u * t * p1.y + 3 * u * t * t * p2.y + t * t * t * p3.y;
      best = std::min(best, std::hypot(x - m.x, y - m.y));
    }
  }
  return best;
}

}  // namespace

void GraphPanel::draw(GuiSession& session) {
  if (!session.workbench().loaded()) {
    // A failed load at start says why here, not only in the Console tab.
    emptyState(session.loadError().empty()
                   ? "No model loaded.\nOpen one with File > Open, pass it on the command line, or `load FILE` in the console."
                   : "No model loaded.\n" + session.loadError());
    return;
  }
  GraphViewModel& model = session.graphModel();
  model.poll();
  drawToolbar(session, model);
  // A line selected in the IR view selects its node here.
  const ViewState& view = session.view();
  if (view.highlight && (!lastHighlight_ || lastHighlight_->side != view.highlight->side ||
                         lastHighlight_->lines.first != view.highlight->lines.first)) {
    lastHighlight_ = view.highlight;
    const IrDiffModel& ir = session.irDiff();
    if (ir.valid()) {
      Side side = view.highlight->side;
      GraphPick pick = model.nodeAtLine(side, view.highlight->lines.first, side == Side::Before ? ir.before() : ir.after());
      if (pick.valid() && !(pick == model.selected())) {
        model.select(pick);
        revealSelection_ = true;
      }
    }
  }
  if (!model.message().empty()) {
    emptyState(model.message());
    return;
  }
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = 6.f;
  const float h = std::max(60.f, ImGui::GetContentRegionAvail().y);
  const float w = std::floor((avail - gap) / 2);
  drawCanvas(session, model, Side::Before, w, h);
  ImGui::SameLine(0, gap);
  drawCanvas(session, model, Side::After, avail - gap - w, h);
  revealSelection_ = false;
}

void GraphPanel::drawToolbar(GuiSession& session, GraphViewModel& model) {
  ViewState& view = session.view();
  ImGui::SetNextItemWidth(charWidth() * 24);
  std::string current = model.function().empty() ? "(none)" : "@" + model.function();
  if (ImGui::BeginCombo("##graphfn", current.c_str())) {
    if (ImGui::Selectable("(default: @main / changed)", view.graphFunction.empty())) view.graphFunction.clear();
    for (const std::string& f : model.functions())
      if (ImGui::Selectable(("@" + f).c_str(), f == model.function())) view.graphFunction = f;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("Fit")) model.fitAll();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Show the whole graph on both sides (F over a canvas); a graph too long to read\n"
                      "that way starts at its inputs at a legible zoom and scrolls");
  ImGui::SameLine();
  // The graph lives in the bottom tabs: give it (nearly) the whole window, and back.
  const bool tall = view.bottomFraction > 0.8f;
  if (ImGui::Button(tall ? "Restore" : "Full height")) {
    view.bottomFraction = tall ? 0.32f : 0.88f;
    model.fitAll();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip(tall ? "Give the IR view its space back" : "Let the graph fill the window");
  ImGui::SameLine();
  if (ImGui::Button("Collapse")) model.setAllCollapsed(true);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Collapse every box (fused functions, Compiler regions, nested functions)");
  ImGui::SameLine();
  if (ImGui::Button("Expand")) model.setAllCollapsed(false);
  ImGui::SameLine();
  ImGui::Checkbox("Follow", &model.follow);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("After each step, recentre on what the pass changed");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(charWidth() * 18);
  if (ImGui::InputTextWithHint("##graphsearch", "find op or name", &search_, ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (search_ == searched_ && !model.searchHits().empty()) {
      model.nextHit();
    } else {
      searched_ = search_;
      size_t n = model.search(search_);
      session.setStatus(std::to_string(n) + " graph nodes match '" + search_ + "'", n == 0);
    }
    ImGui::SetKeyboardFocusHere(-1);
  }
  // Legend and counts.
  struct LegendItem {
    DiffStatus status;
    const char* name;
  };
  static const LegendItem legend[] = {{DiffStatus::Inserted, "inserted"}, {DiffStatus::Deleted, "deleted"},
                                      {DiffStatus::Updated, "updated"},   {DiffStatus::Moved, "moved"},
                                      {DiffStatus::Folded, "folded"}};
  for (const LegendItem& l : legend) {
    ImGui::SameLine();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float sz = ImGui::GetTextLineHeight() * 0.8f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + sz, p.y + 2 + sz), im(graph::nodeBorder(l.status)), 2.f);
    ImGui::Dummy(ImVec2(sz, sz));
    ImGui::SameLine(0, 3);
    ImGui::TextDisabled("%s", l.name);
  }
  const GraphSide& after = model.side(Side::After);
  const GraphSide& before = model.side(Side::Before);
  if (after.graph || before.graph) {
    ImGui::SameLine();
    const GraphSide& s = after.graph ? after : before;
    // What changed in words about ops ("408 ops: 405 moved into 81 boxes; 0 rewritten"), not a node+edge ratio.
    std::string line = "| " + graph::describeGraphDiff(before.graph.get(), before.diff, after.graph.get(), after.diff) + " | " +
                       std::to_string(s.graph->laidOutCount()) + " nodes, " + std::to_string(s.graph->clusters.size()) + " boxes" +
                       (model.pending() ? " | laying out..." : "");
    ImGui::TextDisabled("%s", line.c_str());
  }
}

/// One canvas for one frame: where it is, what it shows, and what the mouse is over.
struct GraphCanvas {
  Canvas c;
  Side which = Side::Before;
  GraphSide* side = nullptr;
  const graph::Layout* layout = nullptr;
  const graph::FunctionGraph* graph = nullptr;
  std::optional<GraphMinimap> minimap;
  bool hovered = false;
  bool active = false;
  /// The mouse in graph coordinates.
  float gx = 0, gy = 0;
  /// The box and the edge under the mouse (-1: none).
  int hoverBox = -1;
  int hoverEdge = -1;
};

namespace {

/// Expanded clusters as framed rectangles with their label strip.
void drawFrames(const GraphCanvas& v) {
  const Canvas& c = v.c;
  const float z = c.cam.zoom, fontPx = static_cast<float>(graph::kFontSize) * z;
  for (const graph::Layout::Frame& f : v.layout->frames) {
    if (!c.visible(f.x0, f.y0, f.x1, f.y1)) continue;
    const graph::Cluster& cl = v.graph->clusters[static_cast<size_t>(f.cluster)];
    DiffStatus st = clusterStatus(*v.side, f.cluster);
    ImVec2 a = c.toScreen(f.x0, f.y0), b = c.toScreen(f.x1, f.y1);
    c.dl->AddRectFilled(a, b, im(graph::clusterFill(cl.kind)), 4.f * z);
    c.dl->AddRect(a, b, im(graph::clusterBorder(cl.kind, st)), 4.f * z, 0, st == DiffStatus::Unchanged ? 1.f : 2.f);
    if (fontPx >= 6.f)
      c.dl->AddText(ImGui::GetFont(), fontPx, ImVec2(a.x + 4 * z, a.y + 2 * z), im(graph::dimTextColour()), ("[-] " + cl.label).c_str());
  }
}

/// Edges on screen (those touching the selected box lit); sets the edge under the mouse.
void drawEdges(GraphCanvas& v, int selBox) {
  const Canvas& c = v.c;
  const float z = c.cam.zoom;
  const ImGuiIO& io = ImGui::GetIO();
  const ImU32 edgeCol = im(graph::edgeColour());
  float hoverEdgeDist = 5.f;
  for (size_t i = 0; i < v.layout->edges.size(); ++i) {
    const graph::Layout::Path& p = v.layout->edges[i];
    if (p.points.size() < 4) continue;
    float x0 = p.points[0].x, y0 = p.points[0].y, x1 = x0, y1 = y0;
    for (const graph::Point& q : p.points) x0 = std::min(x0, q.x), y0 = std::min(y0, q.y), x1 = std::max(x1, q.x), y1 = std::max(y1, q.y);
    if (p.arrow) x0 = std::min(x0, p.tip.x), y0 = std::min(y0, p.tip.y), x1 = std::max(x1, p.tip.x), y1 = std::max(y1, p.tip.y);
    if (!c.visible(x0, y0, x1, y1)) continue;
    bool lit = selBox >= 0 && (p.from == selBox || p.to == selBox);
    ImU32 col = lit ? kSelection : edgeCol;
    float thick = lit ? 2.f : 1.2f;
    for (size_t k = 0; k + 3 < p.points.size(); k += 3)
      c.dl->AddBezierCubic(c.toScreen(p.points[k].x, p.points[k].y), c.toScreen(p.points[k + 1].x, p.points[k + 1].y),
                           c.toScreen(p.points[k + 2].x, p.points[k + 2].y), c.toScreen(p.points[k + 3].x, p.points[k + 3].y), col, thick,
                           z < 0.3f ? 4 : 0);
    if (p.arrow) {
      ImVec2 tip = c.toScreen(p.tip.x, p.tip.y), base = c.toScreen(p.points.back().x, p.points.back().y);
      float dx = tip.x - base.x, dy = tip.y - base.y, len = std::max(0.01f, std::hypot(dx, dy));
      float nx = -dy / len * len * 0.45f, ny = dx / len * len * 0.45f;
      c.dl->AddTriangleFilled(tip, ImVec2(base.x + nx, base.y + ny), ImVec2(base.x - nx, base.y - ny), col);
    }
    if (v.hovered && v.hoverBox < 0 && io.MousePos.x >= c.origin.x + (x0 - c.cam.x) * z - 6 &&
        io.MousePos.x <= c.origin.x + (x1 - c.cam.x) * z + 6 && io.MousePos.y >= c.origin.y + (y0 - c.cam.y) * z - 6 &&
        io.MousePos.y <= c.origin.y + (y1 - c.cam.y) * z + 6) {
      float d = distanceToBezier(p.points, io.MousePos, c);
      if (d < hoverEdgeDist) hoverEdgeDist = d, v.hoverEdge = static_cast<int>(i);
    }
  }
}

/// A collapsed box: its label and op count inside a double border.
void drawCollapsedBox(const GraphCanvas& v, const graph::Layout::Box& b, ImVec2 a, ImVec2 e, float fontPx) {
  const Canvas& c = v.c;
  const float z = c.cam.zoom;
  const graph::Cluster& cl = v.graph->clusters[static_cast<size_t>(b.cluster)];
  DiffStatus st = clusterStatus(*v.side, b.cluster);
  c.dl->AddRectFilled(a, e, im(graph::clusterFill(cl.kind)), 3.f * z);
  ImU32 border = im(graph::clusterBorder(cl.kind, st));
  c.dl->AddRect(a, e, border, 3.f * z, 0, st == DiffStatus::Unchanged ? 1.5f : 2.5f);
  c.dl->AddRect(ImVec2(a.x + 3, a.y + 3), ImVec2(e.x - 3, e.y - 3), border, 3.f * z, 0, 1.f);
  if (fontPx >= 6.f)
    drawLines(c, graph::collapsedLines(*v.graph, b.cluster), b.x, b.y - b.h / 2 + static_cast<float>(graph::kPadY), fontPx,
              im(graph::textColour()), im(graph::dimTextColour()));
}

/// A node: fill and border by status, its label lines and its constant chips.
void drawNodeBox(const GraphCanvas& v, const graph::Layout::Box& b, ImVec2 a, ImVec2 e, float fontPx) {
  const Canvas& c = v.c;
  const float z = c.cam.zoom;
  const GraphSide& s = *v.side;
  const graph::FunctionGraph& g = *v.graph;
  const graph::Node& n = g.nodes[static_cast<size_t>(b.node)];
  DiffStatus st = borderStatus(s, b.node);
  float round = n.kind == graph::NodeKind::Param || n.kind == graph::NodeKind::Output ? 8.f * z : 2.f * z;
  c.dl->AddRectFilled(a, e, im(graph::nodeFill(n.kind, nodeStatus(s, b.node))), round);
  c.dl->AddRect(a, e, im(graph::nodeBorder(st)), round, 0, st == DiffStatus::Unchanged ? 1.f : 2.5f);
  if (fontPx < 6.f) return;
  drawLines(c, n.lines(), b.x, b.y - b.h / 2 + static_cast<float>(graph::kPadY), fontPx, im(graph::textColour()), im(graph::dimTextColour()));
  // Constant chips along the bottom.
  float cx = b.x - b.w / 2 + static_cast<float>(graph::kPadX);
  float cy = b.y + b.h / 2 - static_cast<float>(graph::kPadY + graph::kChipRowHeight) + 1;
  for (int chip : n.chips) {
    std::string t = graph::chipText(g.nodes[static_cast<size_t>(chip)]);
    float cw = static_cast<float>(t.size() * graph::kCharWidth * 0.85 + 6);
    ImVec2 ca = c.toScreen(cx, cy), ce = c.toScreen(cx + cw, cy + static_cast<float>(graph::kChipRowHeight) - 2);
    DiffStatus cs = nodeStatus(s, chip);
    c.dl->AddRectFilled(ca, ce, im(graph::chipFill(cs)), 5.f * z);
    if (cs != DiffStatus::Unchanged) c.dl->AddRect(ca, ce, im(graph::nodeBorder(cs)), 5.f * z, 0, 1.5f);
    c.dl->AddText(ImGui::GetFont(), fontPx * 0.85f, ImVec2(ca.x + 3 * z, ca.y + 1 * z), im(graph::textColour()), t.c_str());
    cx += cw + 4;
  }
}

/// Boxes on screen, with the selection, its partner and the hovered box outlined.
void drawBoxes(const GraphCanvas& v, const GraphViewModel& model, int selBox) {
  const Canvas& c = v.c;
  const float fontPx = static_cast<float>(graph::kFontSize) * c.cam.zoom;  // 0.6 em per character: kCharWidth
  const GraphPick partner = model.partnerOf(model.selected().valid() ? model.selected() : model.hovered);
  const int partnerBox = partner.side == v.which ? model.boxOf(partner) : -1;
  const GraphPick hoverPartner = model.partnerOf(model.hovered);
  const int hoverPartnerBox = hoverPartner.side == v.which ? model.boxOf(hoverPartner) : -1;
  for (size_t i = 0; i < v.layout->boxes.size(); ++i) {
    const graph::Layout::Box& b = v.layout->boxes[i];
    if (!c.visible(b.x - b.w / 2, b.y - b.h / 2, b.x + b.w / 2, b.y + b.h / 2)) continue;
    ImVec2 a = c.toScreen(b.x - b.w / 2, b.y - b.h / 2), e = c.toScreen(b.x + b.w / 2, b.y + b.h / 2);
    if (b.cluster >= 0)
      drawCollapsedBox(v, b, a, e, fontPx);
    else
      drawNodeBox(v, b, a, e, fontPx);
    const int box = static_cast<int>(i);
    if (box == selBox) c.dl->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(e.x + 3, e.y + 3), kSelection, 4.f, 0, 3.f);
    if (box == partnerBox || box == hoverPartnerBox) c.dl->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(e.x + 3, e.y + 3), kPartner, 4.f, 0, 3.f);
    if (box == v.hoverBox) c.dl->AddRect(a, e, IM_COL32(255, 255, 255, 160), 2.f, 0, 1.f);
  }
}

/// The minimap in the canvas's corner: every box as a dot (changed ones in their
/// colour, the selection in yellow), the viewport as a rectangle.
void drawMinimap(const GraphCanvas& v, int selBox) {
  if (!v.minimap) return;
  const GraphMinimap& m = *v.minimap;
  const Canvas& c = v.c;
  auto at = [&](float px, float py) { return ImVec2(c.origin.x + px, c.origin.y + py); };
  c.dl->AddRectFilled(at(m.x0 - 2, m.y0 - 2), at(m.x1 + 2, m.y1 + 2), IM_COL32(14, 15, 18, 225), 3.f);
  c.dl->AddRect(at(m.x0 - 2, m.y0 - 2), at(m.x1 + 2, m.y1 + 2), IM_COL32(90, 94, 104, 255), 3.f);
  const ImU32 plain = IM_COL32(120, 126, 138, 255);
  // Dots merged into runs of one colour (minimapRects): the same picture with
  // a fraction of the triangles a software rasteriser sets up every frame.
  static std::vector<MinimapDot> dots;  // scratch of the UI thread, reused every frame
  dots.clear();
  std::optional<MinimapDot> selected;
  for (size_t i = 0; i < v.layout->boxes.size(); ++i) {
    const graph::Layout::Box& b = v.layout->boxes[i];
    DiffStatus st = b.cluster >= 0 ? clusterStatus(*v.side, b.cluster) : borderStatus(*v.side, b.node);
    MinimapDot d{m.toX(b.x), m.toY(b.y), std::max(1.f, b.w * m.scale / 2), std::max(1.f, b.h * m.scale / 2),
                 st == DiffStatus::Unchanged ? plain : im(graph::nodeBorder(st))};
    if (static_cast<int>(i) == selBox)
      selected = d;
    else
      dots.push_back(d);
  }
  for (const MinimapRect& r : minimapRects(m, dots)) c.dl->AddRectFilled(at(r.x0, r.y0), at(r.x1, r.y1), r.colour);
  if (selected)
    c.dl->AddRectFilled(at(selected->x - selected->halfW, selected->y - selected->halfH), at(selected->x + selected->halfW, selected->y + selected->halfH),
                        kSelection);
  c.dl->AddRectFilled(at(m.view.x0, m.view.y0), at(m.view.x1, m.view.y1), IM_COL32(255, 213, 74, 40));
  c.dl->AddRect(at(m.view.x0, m.view.y0), at(m.view.x1, m.view.y1), IM_COL32(255, 213, 74, 220), 0.f, 0, 1.5f);
}

/// The hovered box's label, chips and status; else the hovered edge's tensor shape.
void drawTooltip(const GraphCanvas& v, const GraphViewModel& model) {
  const GraphSide& s = *v.side;
  const graph::FunctionGraph& g = *v.graph;
  if (v.hoverBox >= 0 && !ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    const graph::Layout::Box& b = v.layout->boxes[static_cast<size_t>(v.hoverBox)];
    ImGui::BeginTooltip();
    if (b.cluster >= 0) {
      for (const std::string& line : graph::collapsedLines(g, b.cluster)) ImGui::TextUnformatted(line.c_str());
      ImGui::TextDisabled("%s; click to expand", graph::diffStatusName(clusterStatus(s, b.cluster)));
    } else {
      const graph::Node& n = g.nodes[static_cast<size_t>(b.node)];
      for (const std::string& line : n.lines()) ImGui::TextUnformatted(line.c_str());
      for (int chip : n.chips) {
        const graph::Node& in = g.nodes[static_cast<size_t>(chip)];
        if (in.constOps > 0)
          ImGui::TextDisabled("const expr: %d op%s ending in %s, %s (%s)", in.constOps, in.constOps == 1 ? "" : "s", in.title.c_str(),
                              in.type.c_str(), graph::diffStatusName(nodeStatus(s, chip)));
        else
          ImGui::TextDisabled("%s %s %s (%s)", graph::nodeKindName(in.kind), in.kind == graph::NodeKind::Constant ? "" : in.title.c_str(),
                              in.type.c_str(), graph::diffStatusName(nodeStatus(s, chip)));
      }
      GraphPick p = model.partnerOf(GraphPick{v.which, b.node});
      ImGui::TextDisabled("%s%s; click to show its line", graph::diffStatusName(nodeStatus(s, b.node)),
                          p.valid() ? ", partner highlighted" : "");
    }
    ImGui::EndTooltip();
  } else if (v.hoverEdge >= 0) {
    const graph::Layout::Path& p = v.layout->edges[static_cast<size_t>(v.hoverEdge)];
    if (p.edge >= 0) ImGui::SetTooltip("%s", g.edges[static_cast<size_t>(p.edge)].shape.c_str());
  }
}

}  // namespace

void GraphPanel::drawCanvas(GuiSession& session, GraphViewModel& model, Side which, float width, float height) {
  GraphSide& s = model.side(which);
  s.canvasW = width;
  s.canvasH = height;
  ImGui::PushID(which == Side::Before ? "before" : "after");
  GraphCanvas v;
  v.c = Canvas{ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), ImVec2(width, height), s.camera};
  v.which = which;
  v.side = &s;
  ImGui::InvisibleButton("##canvas", v.c.size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
  v.hovered = ImGui::IsItemHovered();
  v.active = ImGui::IsItemActive();
  const Canvas& c = v.c;
  ImVec2 end(c.origin.x + width, c.origin.y + height);
  c.dl->PushClipRect(c.origin, end, true);
  fillOpaqueRect(c.dl, c.origin, end, im(graph::backgroundColour()));
  c.dl->AddRect(c.origin, end, IM_COL32(60, 64, 72, 255));
  char title[96];
  std::snprintf(title, sizeof title, "%s #%d", which == Side::Before ? "before" : "after", model.event());
  auto finish = [&](const char* message) {
    if (message) {
      ImVec2 ts = ImGui::CalcTextSize(message);
      c.dl->AddText(ImVec2(c.origin.x + (width - ts.x) / 2, c.origin.y + (height - ts.y) / 2), im(graph::dimTextColour()), message);
    }
    c.dl->AddText(ImVec2(c.origin.x + 6, c.origin.y + 4), im(graph::dimTextColour()), title);
    c.dl->PopClipRect();
    ImGui::PopID();
  };
  if (!s.graph) return finish(which == Side::Before ? "(the pass added this function)" : "(the pass removed this function)");
  if (!s.error.empty()) return finish(s.error.c_str());
  if (!s.layout) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "laying out %zu nodes...", s.graph->laidOutCount());
    return finish(buf);
  }
  v.layout = s.layout.get();
  v.graph = s.graph.get();
  handleInput(session, model, v);
  revealSelection(model, v);
  v.minimap = model.minimap(which);
  const int selBox = model.selected().side == which ? model.boxOf(model.selected()) : -1;
  drawFrames(v);
  drawEdges(v, selBox);
  drawBoxes(v, model, selBox);
  drawMinimap(v, selBox);
  finish(nullptr);
  drawTooltip(v, model);
}

void GraphPanel::handleInput(GuiSession& session, GraphViewModel& model, GraphCanvas& v) {
  GraphSide& s = *v.side;
  Canvas& c = v.c;
  const graph::Layout& L = *v.layout;
  ImGuiIO& io = ImGui::GetIO();
  const Side which = v.which;
  // A press in the minimap moves the view there, and keeps moving it while dragged.
  std::optional<GraphMinimap> map = model.minimap(which);
  const float mx = io.MousePos.x - c.origin.x, my = io.MousePos.y - c.origin.y;
  if (ImGui::IsItemActivated() && map && map->contains(mx, my)) minimapDrag_ = which;
  if (v.active && minimapDrag_ == which && map) {
    model.centreAt(which, map->graphX(std::clamp(mx, map->x0, map->x1)), map->graphY(std::clamp(my, map->y0, map->y1)));
    c.cam = s.camera;
  } else if (v.active && (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.f) || ImGui::IsMouseDragging(ImGuiMouseButton_Right, 3.f) ||
                          ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 3.f))) {
    s.camera.x -= io.MouseDelta.x / s.camera.zoom;
    s.camera.y -= io.MouseDelta.y / s.camera.zoom;
    c.cam = s.camera;
    dragged_ = true;
  }
  if (v.hovered && io.MouseWheel != 0.f) {
    model.zoomAt(which, std::pow(1.15f, io.MouseWheel), mx, my);
    c.cam = s.camera;
  }
  if (v.hovered && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home), false)) model.fit(which);
  if (v.hovered && !io.WantTextInput && ImGui::IsKeyPressed('F', false)) model.fit(which);
  v.gx = c.cam.x + mx / c.cam.zoom;
  v.gy = c.cam.y + my / c.cam.zoom;
  const bool overMap = map && map->contains(mx, my);
  v.hoverBox = v.hovered && !overMap ? model.boxAt(which, v.gx, v.gy) : -1;
  if (v.hoverBox >= 0 && L.boxes[static_cast<size_t>(v.hoverBox)].node >= 0)
    model.hovered = GraphPick{which, L.boxes[static_cast<size_t>(v.hoverBox)].node};
  else if (v.hovered)
    model.hovered = {};
  const bool released = ImGui::IsItemDeactivated();
  if (released && !dragged_ && !minimapDrag_ && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) clickAt(session, model, v);
  if (released) {
    dragged_ = false;
    minimapDrag_.reset();
  }
}

void GraphPanel::clickAt(GuiSession& session, GraphViewModel& model, const GraphCanvas& v) {
  const graph::Layout& L = *v.layout;
  if (v.hoverBox >= 0) {
    const graph::Layout::Box& b = L.boxes[static_cast<size_t>(v.hoverBox)];
    if (b.cluster >= 0) {
      model.toggle(v.which, b.cluster);  // a collapsed box opens
      return;
    }
    GraphPick pick{v.which, b.node};
    model.select(pick);
    const IrDiffModel& ir = session.irDiff();
    if (ir.valid()) {
      uint32_t line = model.lineOf(pick, v.which == Side::Before ? ir.before() : ir.after());
      if (line > 0 && session.goToLine(v.which, line)) lastHighlight_ = session.view().highlight;
    }
    return;
  }
  // A click on a box's label strip collapses the box.
  for (auto it = L.frames.rbegin(); it != L.frames.rend(); ++it)
    if (v.gx >= it->x0 && v.gx <= it->x1 && v.gy >= it->y0 && v.gy <= it->y0 + 14.f) {
      model.toggle(v.which, it->cluster);
      break;
    }
}

void GraphPanel::revealSelection(GraphViewModel& model, GraphCanvas& v) {
  // Reveal a selection made elsewhere (the IR view, search, a remark) when it is off screen.
  if (!revealSelection_ || model.selected().side != v.which) return;
  int box = model.boxOf(model.selected());
  if (box < 0) return;
  const graph::Layout::Box& b = v.layout->boxes[static_cast<size_t>(box)];
  if (v.c.visible(b.x, b.y, b.x, b.y)) return;
  model.centreAt(v.which, b.x, b.y);
  v.c.cam = v.side->camera;
}

template <>
std::unique_ptr<Panel> makeTabPanel<PanelId::Graph>() {
  return std::make_unique<GraphPanel>();
}

}  // namespace passlab::gui
