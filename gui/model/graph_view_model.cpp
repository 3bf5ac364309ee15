#include "gui/model/graph_view_model.h"

#include <algorithm>
#include <cctype>

namespace passlab::gui {

namespace {
constexpr size_t kGraphCache = 24;
constexpr float kMinZoom = 0.02f, kMaxZoom = 4.f;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

GraphViewModel::GraphViewModel() : service_(std::make_unique<graph::LayoutService>()) {}

GraphViewModel::~GraphViewModel() = default;

std::shared_ptr<const graph::FunctionGraph> GraphViewModel::graphFor(const IRModule& mod, const std::string& name) {
  Expr fn = mod ? mod->lookup(name) : nullptr;
  if (!fn || !as<FunctionNode>(fn)) return nullptr;
  auto it = graphs_.find(fn.get());
  if (it != graphs_.end()) {
    // Labels of global calls show the callee's attributes: still the same callees?
    bool same = true;
    for (const auto& [callee, expr] : it->second->callees) same &= mod->lookup(callee) == expr;
    if (same) return it->second;
  }
  auto g = graph::buildGraph(mod, name);
  graphs_[fn.get()] = g;
  graphOrder_.erase(std::remove(graphOrder_.begin(), graphOrder_.end(), fn.get()), graphOrder_.end());
  graphOrder_.push_back(fn.get());
  while (graphOrder_.size() > kGraphCache) {
    graphs_.erase(graphOrder_.front());
    graphOrder_.erase(graphOrder_.begin());
  }
  return g;
}

void GraphViewModel::update(const Workbench& wb, int event, const std::string& function) {
  if (!wb.loaded()) {
    if (before_ || after_ || event_ != -1) {
      sides_ = {};
      before_.reset();
      after_.reset();
      event_ = -1;
      function_.clear();
      functions_.clear();
      selected_ = hovered = {};
      hits_.clear();
    }
    message_ = "Load a model to see its graph.";
    return;
  }
  const TraceEvent& ev = wb.event(event);
  if (ev.before == before_ && ev.after == after_ && function == requested_ && event == event_) return;
  const bool sameFunctionRequest = function == requested_;
  before_ = ev.before;
  after_ = ev.after;
  requested_ = function;
  event_ = event;
  functions_.clear();
  for (const IRModule& m : {ev.after, ev.before})
    if (m)
      for (const auto& [name, fn] : m->functions)
        if (as<FunctionNode>(fn) && std::find(functions_.begin(), functions_.end(), name) == functions_.end())
          functions_.push_back(name);
  std::sort(functions_.begin(), functions_.end());
  std::string name = function;
  if (!name.empty() && name[0] == '@') name.erase(0, 1);
  if (name.empty()) name = graph::defaultGraphFunction(ev.after, ev.changedFunctions);
  if (name.empty()) name = graph::defaultGraphFunction(ev.before, ev.changedFunctions);
  message_.clear();
  const std::string previous = function_;
  function_ = name;
  std::array<std::shared_ptr<const graph::FunctionGraph>, 2> graphs;
  try {
    if (name.empty()) throw graph::GraphError("This module has no graph-level function to draw.");
    Expr inBefore = ev.before ? ev.before->lookup(name) : nullptr, inAfter = ev.after ? ev.after->lookup(name) : nullptr;
    if (!inBefore && !inAfter)
      throw graph::GraphError("No function @" + name + " at event #" + std::to_string(event) + ".");
    if (as<PrimFuncNode>(inAfter ? inAfter : inBefore))
      throw graph::GraphError("@" + name + " is a PrimFunc (a TIR loop nest): the graph view draws graph-level "
                              "functions. Its loops are in the IR view and the Codegen panel.");
    graphs[0] = graphFor(ev.before, name);
    graphs[1] = graphFor(ev.after, name);
  } catch (const graph::GraphError& e) {
    message_ = e.what();
  }
  // The workbench caches the node matching per event (the IR view's aligned diff uses it too).
  std::shared_ptr<const ModuleEdits> edits;
  if (graphs[0] && graphs[1] && graphs[0] != graphs[1]) edits = wb.edits(event, Side::Before, event, Side::After);
  graph::GraphDiff diff = graph::diffGraphs(ev.before, graphs[0], ev.after, graphs[1], edits.get());
  for (int i = 0; i < 2; ++i) {
    GraphSide& s = sides_[static_cast<size_t>(i)];
    const bool sameGraph = s.graph && s.graph == graphs[static_cast<size_t>(i)];
    s.diff = i == 0 ? std::move(diff.before) : std::move(diff.after);
    if (!sameGraph) {
      s.graph = graphs[static_cast<size_t>(i)];
      s.collapse = s.graph ? graph::defaultCollapse(*s.graph) : graph::CollapseState{};
      s.layout.reset();
      s.error.clear();
      s.pending = false;
    }
    // A new function starts from the whole picture; another event of the same
    // function keeps the camera unless following the change.
    if (!sameGraph || follow || previous != function_ || !sameFunctionRequest) s.refit = true;
  }
  if (selected_.valid()) {
    const GraphSide& s = side(selected_.side);
    if (!s.graph || static_cast<size_t>(selected_.node) >= s.graph->nodes.size()) selected_ = {};
  }
  hovered = {};
  hits_.clear();
  request(Side::Before);
  request(Side::After);
}

void GraphViewModel::request(Side which) {
  GraphSide& s = side(which);
  if (!s.graph) {
    s.pending = false;
    return;
  }
  graph::LayoutService::Result r = service_->request(s.graph, s.collapse);
  if (r.layout) s.layout = r.layout;
  s.pending = r.pending;
  s.error = r.error;
}

void GraphViewModel::poll() {
  for (Side which : {Side::Before, Side::After}) {
    GraphSide& s = side(which);
    if (s.pending || (s.graph && (!s.layout || s.layout->boxOfNode.size() != s.graph->nodes.size()))) request(which);
    if (!s.layout || !s.refit || s.canvasW <= 0) continue;
    s.refit = false;
    std::optional<GraphRect> changed = follow ? changedRegion(which) : std::nullopt;
    if (changed)
      focus(which, *changed);
    else
      fit(which);
  }
}

void GraphViewModel::fit(Side which) {
  GraphSide& s = side(which);
  if (!s.layout) {
    s.refit = true;
    return;
  }
  focus(which, GraphRect{0, 0, s.layout->width, s.layout->height}, 1.5f, kFitMinZoom, true);
}

void GraphViewModel::focus(Side which, const GraphRect& r, float maxZoom, float minZoom, bool anchorTop) {
  GraphSide& s = side(which);
  if (s.canvasW <= 0 || s.canvasH <= 0) return;
  const float margin = 24.f;
  float w = std::max(1.f, r.x1 - r.x0), h = std::max(1.f, r.y1 - r.y0);
  float zoom = std::min((s.canvasW - margin) / w, (s.canvasH - margin) / h);
  // A huge graph fits at a zoom where nothing is readable: start readable at the change.
  zoom = std::clamp(zoom, std::min(minZoom, maxZoom), maxZoom);
  s.camera.zoom = zoom;
  s.camera.x = (r.x0 + r.x1) / 2 - s.canvasW / 2 / zoom;
  s.camera.y = (r.y0 + r.y1) / 2 - s.canvasH / 2 / zoom;
  if (anchorTop && h * zoom > s.canvasH - margin) s.camera.y = r.y0 - margin / 2 / zoom;
}

void GraphViewModel::zoomTo(float zoom) {
  zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
  GraphPick partner = partnerOf(selected_);
  for (Side which : {Side::Before, Side::After}) {
    GraphSide& s = side(which);
    GraphCamera& c = s.camera;
    float cx = c.x + s.canvasW / 2 / c.zoom, cy = c.y + s.canvasH / 2 / c.zoom;
    GraphPick on = selected_.side == which ? selected_ : partner.side == which ? partner : GraphPick{};
    int box = boxOf(on);
    if (box >= 0) cx = s.layout->boxes[static_cast<size_t>(box)].x, cy = s.layout->boxes[static_cast<size_t>(box)].y;
    c.zoom = zoom;
    c.x = cx - s.canvasW / 2 / zoom;
    c.y = cy - s.canvasH / 2 / zoom;
    s.refit = false;
  }
}

void GraphViewModel::zoomAt(Side which, float factor, float px, float py) {
  GraphCamera& c = side(which).camera;
  float gx = c.x + px / c.zoom, gy = c.y + py / c.zoom;
  c.zoom = std::clamp(c.zoom * factor, kMinZoom, kMaxZoom);
  c.x = gx - px / c.zoom;
  c.y = gy - py / c.zoom;
}

std::vector<MinimapRect> minimapRects(const GraphMinimap& m, const std::vector<MinimapDot>& dots) {
  const int cols = std::max(1, static_cast<int>(m.x1 - m.x0) + 4), rows = std::max(1, static_cast<int>(m.y1 - m.y0) + 4);
  std::vector<uint32_t> cell(static_cast<size_t>(cols) * static_cast<size_t>(rows), 0);
  std::vector<MinimapRect> big;
  for (const MinimapDot& d : dots) {
    if (d.colour == 0) continue;
    if (d.halfW > 1.5f || d.halfH > 1.5f) {
      big.push_back(MinimapRect{d.x - d.halfW, d.y - d.halfH, d.x + d.halfW, d.y + d.halfH, d.colour});
      continue;
    }
    const int cx = std::clamp(static_cast<int>(d.x - m.x0) + 2, 0, cols - 1), cy = std::clamp(static_cast<int>(d.y - m.y0) + 2, 0, rows - 1);
    cell[static_cast<size_t>(cy) * static_cast<size_t>(cols) + static_cast<size_t>(cx)] = d.colour;
  }
  // Runs along each row; a run equal to one open in the row above extends it.
  std::vector<MinimapRect> out;
  std::vector<size_t> open, next;  // indices into `out` of the runs ending at the previous row
  for (int y = 0; y < rows; ++y) {
    next.clear();
    for (int x = 0; x < cols;) {
      const uint32_t c = cell[static_cast<size_t>(y) * static_cast<size_t>(cols) + static_cast<size_t>(x)];
      int end = x + 1;
      while (end < cols && cell[static_cast<size_t>(y) * static_cast<size_t>(cols) + static_cast<size_t>(end)] == c) ++end;
      if (c != 0) {
        // Cell (x, y) is the 2 × 2 dot centred on pixel x0 + x - 2 (as the dot was drawn).
        const float rx0 = m.x0 + static_cast<float>(x - 2) - 1, rx1 = m.x0 + static_cast<float>(end - 1 - 2) + 1;
        const float ry0 = m.y0 + static_cast<float>(y - 2) - 1, ry1 = m.y0 + static_cast<float>(y - 2) + 1;
        auto same = std::find_if(open.begin(), open.end(), [&](size_t k) {
          return out[k].x0 == rx0 && out[k].x1 == rx1 && out[k].colour == c && out[k].y1 == ry1 - 1;
        });
        if (same != open.end()) {
          out[*same].y1 = ry1;
          next.push_back(*same);
        } else {
          out.push_back(MinimapRect{rx0, ry0, rx1, ry1, c});
          next.push_back(out.size() - 1);
        }
      }
      x = end;
    }
    open.swap(next);
  }
  out.insert(out.end(), big.begin(), big.end());
  return out;
}

std::optional<GraphMinimap> GraphViewModel::minimap(Side which, float maxW, float maxH) const {
  const GraphSide& s = side(which);
  if (!s.layout || s.canvasW <= 0 || s.canvasH <= 0 || s.layout->width <= 0 || s.layout->height <= 0) return std::nullopt;
  const GraphCamera& c = s.camera;
  GraphRect view{c.x, c.y, c.x + s.canvasW / c.zoom, c.y + s.canvasH / c.zoom};
  const float w = s.layout->width, h = s.layout->height;
  if (view.x0 <= 0 && view.y0 <= 0 && view.x1 >= w && view.y1 >= h) return std::nullopt;
  // A quarter of the canvas's width at most, so it never hides much of what it
  // maps; a tall graph's minimap runs down the right edge like a scrollbar.
  maxW = std::min(maxW, s.canvasW / 4), maxH = std::min(maxH, s.canvasH - 16);
  if (maxW < 16 || maxH < 16) return std::nullopt;
  GraphMinimap m;
  m.scale = std::min(maxW / w, maxH / h);
  const float mw = w * m.scale, mh = h * m.scale, pad = 8.f;
  m.x1 = s.canvasW - pad;
  m.y1 = s.canvasH - pad;
  m.x0 = m.x1 - mw;
  m.y0 = m.y1 - mh;
  m.view = GraphRect{std::clamp(m.toX(view.x0), m.x0, m.x1), std::clamp(m.toY(view.y0), m.y0, m.y1),
                     std::clamp(m.toX(view.x1), m.x0, m.x1), std::clamp(m.toY(view.y1), m.y0, m.y1)};
  return m;
}

void GraphViewModel::centreAt(Side which, float gx, float gy) {
  GraphSide& s = side(which);
  s.camera.x = gx - s.canvasW / 2 / s.camera.zoom;
  s.camera.y = gy - s.canvasH / 2 / s.camera.zoom;
  s.refit = false;
}

std::optional<GraphRect> GraphViewModel::changedRegion(Side which) const {
  const GraphSide& s = side(which);
  if (!s.layout || !s.graph) return std::nullopt;
  std::optional<GraphRect> r;
  auto add = [&](const graph::Layout::Box& b) {
    GraphRect box{b.x - b.w / 2, b.y - b.h / 2, b.x + b.w / 2, b.y + b.h / 2};
    if (!r) {
      r = box;
    } else {
      r->x0 = std::min(r->x0, box.x0), r->y0 = std::min(r->y0, box.y0);
      r->x1 = std::max(r->x1, box.x1), r->y1 = std::max(r->y1, box.y1);
    }
  };
  for (const graph::Layout::Box& b : s.layout->boxes) {
    graph::DiffStatus st = graph::DiffStatus::Unchanged;
    if (b.node >= 0 && static_cast<size_t>(b.node) < s.diff.nodes.size()) st = s.diff.nodes[static_cast<size_t>(b.node)];
    if (b.cluster >= 0 && static_cast<size_t>(b.cluster) < s.diff.clusters.size()) st = s.diff.clusters[static_cast<size_t>(b.cluster)];
    if (st != graph::DiffStatus::Unchanged) add(b);
  }
  // Everything changed: that is the whole picture, not a region to follow.
  if (r && (r->x1 - r->x0) * (r->y1 - r->y0) > 0.6f * s.layout->width * s.layout->height) return std::nullopt;
  return r;
}

void GraphViewModel::toggle(Side which, int cluster) {
  GraphSide& s = side(which);
  if (!s.graph || cluster < 0 || static_cast<size_t>(cluster) >= s.collapse.size()) return;
  s.collapse[static_cast<size_t>(cluster)] = !s.collapse[static_cast<size_t>(cluster)];
  request(which);
}

void GraphViewModel::setAllCollapsed(bool collapsed) {
  for (Side which : {Side::Before, Side::After}) {
    GraphSide& s = side(which);
    if (!s.graph) continue;
    s.collapse.assign(s.graph->clusters.size(), collapsed);
    s.refit = true;
    request(which);
  }
}

void GraphViewModel::select(GraphPick pick) {
  selected_ = pick;
}

GraphPick GraphViewModel::partnerOf(GraphPick pick) const {
  if (!pick.valid()) return {};
  const GraphSide& s = side(pick.side);
  if (static_cast<size_t>(pick.node) >= s.diff.partner.size()) return {};
  int p = s.diff.partner[static_cast<size_t>(pick.node)];
  if (p < 0) return {};
  return GraphPick{pick.side == Side::Before ? Side::After : Side::Before, p};
}

int GraphViewModel::boxOf(GraphPick pick) const {
  if (!pick.valid()) return -1;
  const GraphSide& s = side(pick.side);
  if (!s.layout || !s.graph || static_cast<size_t>(pick.node) >= s.graph->nodes.size()) return -1;
  auto [node, cluster] = graph::visibleOwner(*s.graph, s.collapse, pick.node);
  if (node >= 0 && static_cast<size_t>(node) < s.layout->boxOfNode.size()) return s.layout->boxOfNode[static_cast<size_t>(node)];
  if (cluster >= 0 && static_cast<size_t>(cluster) < s.layout->boxOfCluster.size())
    return s.layout->boxOfCluster[static_cast<size_t>(cluster)];
  return -1;
}

int GraphViewModel::boxAt(Side which, float gx, float gy) const {
  const GraphSide& s = side(which);
  if (!s.layout) return -1;
  const auto& boxes = s.layout->boxes;
  for (size_t i = 0; i < boxes.size(); ++i) {
    const graph::Layout::Box& b = boxes[i];
    if (std::abs(gx - b.x) <= b.w / 2 && std::abs(gy - b.y) <= b.h / 2) return static_cast<int>(i);
  }
  return -1;
}

void GraphViewModel::centreOn(GraphPick pick) {
  int box = boxOf(pick);
  if (box < 0) return;
  GraphSide& s = side(pick.side);
  const graph::Layout::Box& b = s.layout->boxes[static_cast<size_t>(box)];
  float zoom = std::max(s.camera.zoom, 0.8f);
  s.camera.zoom = zoom;
  s.camera.x = b.x - s.canvasW / 2 / zoom;
  s.camera.y = b.y - s.canvasH / 2 / zoom;
}

size_t GraphViewModel::search(const std::string& text) {
  hits_.clear();
  hitIndex_ = 0;
  std::string q = lower(text);
  if (q.empty()) return 0;
  for (Side which : {Side::After, Side::Before}) {
    const GraphSide& s = side(which);
    if (!s.graph) continue;
    for (size_t i = 0; i < s.graph->nodes.size(); ++i) {
      const graph::Node& n = s.graph->nodes[i];
      bool match = false;
      for (const std::string& line : n.lines()) match |= lower(line).find(q) != std::string::npos;
      if (match) hits_.push_back(GraphPick{which, static_cast<int>(i)});
    }
  }
  if (!hits_.empty()) {
    select(hits_[0]);
    centreOn(hits_[0]);
  }
  return hits_.size();
}

void GraphViewModel::nextHit() {
  if (hits_.empty()) return;
  hitIndex_ = (hitIndex_ + 1) % hits_.size();
  select(hits_[hitIndex_]);
  centreOn(hits_[hitIndex_]);
}

uint32_t GraphViewModel::lineOf(GraphPick pick, const PrintedText& printed) const {
  if (!pick.valid()) return 0;
  const GraphSide& s = side(pick.side);
  if (!s.graph || static_cast<size_t>(pick.node) >= s.graph->nodes.size()) return 0;
  const graph::Node& n = s.graph->nodes[static_cast<size_t>(pick.node)];
  if (!n.ir) return 0;
  return printed.nodes.line(n.ir);
}

GraphPick GraphViewModel::pickOf(Side which, const ExprNode* ir) const {
  const GraphSide& s = side(which);
  if (!s.graph || !ir) return {};
  auto it = s.graph->nodeOf.find(ir);
  return it == s.graph->nodeOf.end() ? GraphPick{} : GraphPick{which, it->second};
}

GraphPick GraphViewModel::nodeAtLine(Side which, uint32_t line, const PrintedText& printed) const {
  const GraphSide& s = side(which);
  if (!s.graph || line == 0) return {};
  // The node whose printed text starts on the line; an op binding beats the
  // arguments printed inline with it (constants, projections).
  GraphPick best;
  int bestRank = 99;
  for (size_t i = 0; i < s.graph->nodes.size(); ++i) {
    const graph::Node& n = s.graph->nodes[i];
    if (!n.ir) continue;
    if (printed.nodes.line(n.ir) != line) continue;
    // A folded constant expression is an op drawn as a chip: its reader's line wins.
    int rank = n.chipOf >= 0 ? 2 : n.kind == graph::NodeKind::Op || n.kind == graph::NodeKind::GlobalCall ? 0 : 1;
    if (rank < bestRank) best = GraphPick{which, static_cast<int>(i)}, bestRank = rank;
  }
  return best;
}

}  // namespace passlab::gui
