// The only Graphviz user (see graphviz_layout.h).
#include "graph/graphviz_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <graphviz/gvplugin.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <set>
#include <unordered_map>

#include "graph/graph_style.h"

extern "C" {
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
extern gvplugin_library_t gvplugin_core_LTX_library;
}

namespace passlab::graph {
namespace {

/// Graphviz is not thread-safe: one layout or render at a time, process-wide.
std::mutex& graphvizLock() {
  static std::mutex m;
  return m;
}

/// One context for the process, with the dot layout and the core renderers
/// (svg, dot) built in and nothing loaded on demand.
GVC_t* context() {
  static GVC_t* gvc = [] {
    static lt_symlist_t builtins[] = {
        {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
        {"gvplugin_core_LTX_library", &gvplugin_core_LTX_library},
        {nullptr, nullptr},
    };
    // Graphviz prints warnings (e.g. about cluster sizes) to stderr; the
    // workbench reports failures itself.
    agseterr(AGERR);
    return gvContextPlugins(builtins, 0);
  }();
  return gvc;
}

char* s(const char* text) { return const_cast<char*>(text); }

/// Object ids in creation order. cgraph's default discipline uses the address
/// of each name's string as its id and orders subgraphs by id, so clusters
/// came out (and were laid out) in heap order: the same graph gave different
/// SVG from run to run. Sequential ids make both depend on the graph only.
struct IdState {
  std::unordered_map<std::string, IDTYPE> ids;
  std::deque<std::string> names;  // names[(id / 2) - 1] for even ids
  IDTYPE anonymous = 1;
};
IdState* pendingIdState = nullptr;  // handed to idOpen by agopen (under the Graphviz lock)

void* idOpen(Agraph_t*, Agdisc_t*) { return pendingIdState; }
long idMap(void* state, int, char* str, IDTYPE* id, int createflag) {
  auto* st = static_cast<IdState*>(state);
  if (!str) {
    *id = st->anonymous;
    st->anonymous += 2;
    return 1;
  }
  auto it = st->ids.find(str);
  if (it != st->ids.end()) {
    *id = it->second;
    return 1;
  }
  if (!createflag) return 0;
  st->names.emplace_back(str);
  *id = static_cast<IDTYPE>(2 * st->names.size());
  st->ids.emplace(str, *id);
  return 1;
}
long idAlloc(void*, int, IDTYPE) { return 0; }
void idFree(void*, int, IDTYPE) {}
char* idPrint(void* state, int, IDTYPE id) {
  auto* st = static_cast<IdState*>(state);
  if (id % 2 != 0 || id == 0 || id / 2 > st->names.size()) return nullptr;
  return st->names[id / 2 - 1].data();
}
void idClose(void*) {}
void idRegister(void*, int, void*) {}

Agiddisc_t sequentialIds = {idOpen, idMap, idAlloc, idFree, idPrint, idClose, idRegister};

std::string inches(double points) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", points / 72.0);
  return buf;
}

/// A cgraph graph built from a FunctionGraph, with the boxes it maps to.
class AgBuild {
 public:
  AgBuild(const FunctionGraph& g, const CollapseState& collapse, const SideDiff* diff, bool styled)
      : g_(g), collapse_(collapse), diff_(diff), styled_(styled) {
    disc_ = {&AgMemDisc, &sequentialIds, &AgIoDisc};
    pendingIdState = &ids_;
    graph_ = agopen(s("g"), Agdirected, &disc_);
    pendingIdState = nullptr;
    const size_t nodes = g.laidOutCount();
    graphAttr("rankdir", "TB");
    graphAttr("nodesep", "0.18");
    graphAttr("ranksep", "0.3");
    // Beyond a few hundred nodes dot spends its time in network simplex (ranks
    // and x coordinates), crossing minimisation and spline routing. Bounded
    // passes keep a 700-node function well under a second and a 5,000-node one
    // to about two seconds of CPU (bench/bench_graph.cpp), still readable;
    // small graphs get dot's full effort and curved edges.
    if (nodes > 300) {
      graphAttr("mclimit", "0.1");
      graphAttr("nslimit", "1");
      graphAttr("nslimit1", "1");
      graphAttr("searchsize", "10");
      graphAttr("splines", nodes > 1500 ? "line" : "polyline");
      if (nodes > 1500) graphAttr("remincross", "false");
    }
    if (styled_) {
      graphAttr("bgcolor", backgroundColour().hex().c_str());
      graphAttr("fontname", "Courier");
      graphAttr("fontsize", "10");
      graphAttr("fontcolor", textColour().hex().c_str());
      graphAttr("labeljust", "l");
    }
    nShape_ = agattr(graph_, AGNODE, s("shape"), s("box"));
    agattr(graph_, AGNODE, s("fixedsize"), s("true"));
    nWidth_ = agattr(graph_, AGNODE, s("width"), s("0.75"));
    nHeight_ = agattr(graph_, AGNODE, s("height"), s("0.5"));
    nLabel_ = agattr(graph_, AGNODE, s("label"), s(""));
    if (styled_) {
      agattr(graph_, AGNODE, s("fontname"), s("Courier"));
      agattr(graph_, AGNODE, s("fontsize"), s("10"));
      agattr(graph_, AGNODE, s("fontcolor"), s(textColour().hex().c_str()));
      nStyle_ = agattr(graph_, AGNODE, s("style"), s("filled"));
      nFill_ = agattr(graph_, AGNODE, s("fillcolor"), s("#000000"));
      nColor_ = agattr(graph_, AGNODE, s("color"), s(nodeBorder(DiffStatus::Unchanged).hex().c_str()));
      nPen_ = agattr(graph_, AGNODE, s("penwidth"), s("1"));
      nId_ = agattr(graph_, AGNODE, s("id"), s(""));
      agattr(graph_, AGEDGE, s("color"), s(edgeColour().hex().c_str()));
      agattr(graph_, AGEDGE, s("arrowsize"), s("0.6"));
      eTooltip_ = agattr(graph_, AGEDGE, s("tooltip"), s(""));
    }
    build();
  }
  ~AgBuild() {
    if (graph_) agclose(graph_);
  }
  AgBuild(const AgBuild&) = delete;
  AgBuild& operator=(const AgBuild&) = delete;

  Agraph_t* graph() const { return graph_; }
  const std::vector<Agnode_t*>& boxNodes() const { return boxNodes_; }
  const std::vector<Layout::Box>& boxes() const { return boxes_; }
  const std::vector<int>& boxOfNode() const { return boxOfNode_; }
  const std::vector<int>& boxOfCluster() const { return boxOfCluster_; }
  const std::vector<std::pair<int, Agraph_t*>>& subgraphs() const { return subgraphs_; }
  struct AgEdge {
    Agedge_t* e;
    int from, to, edge;
  };
  const std::vector<AgEdge>& edges() const { return edges_; }

 private:
  void graphAttr(const char* name, const char* value) { agattr(graph_, AGRAPH, s(name), s(value)); }

  bool collapsed(int c) const { return static_cast<size_t>(c) < collapse_.size() && collapse_[static_cast<size_t>(c)]; }

  DiffStatus nodeStatus(int n) const {
    return diff_ && static_cast<size_t>(n) < diff_->nodes.size() ? diff_->nodes[static_cast<size_t>(n)] : DiffStatus::Unchanged;
  }
  DiffStatus clusterStatus(int c) const {
    return diff_ && static_cast<size_t>(c) < diff_->clusters.size() ? diff_->clusters[static_cast<size_t>(c)] : DiffStatus::Unchanged;
  }

  /// The subgraph of expanded cluster `c` (created with its ancestors on first use).
  Agraph_t* subgraphOf(int c) {
    if (c < 0) return graph_;
    auto it = sub_.find(c);
    if (it != sub_.end()) return it->second;
    const Cluster& cl = g_.clusters[static_cast<size_t>(c)];
    Agraph_t* parent = subgraphOf(cl.parent);
    std::string name = "cluster_" + std::to_string(c);
    Agraph_t* sg = agsubg(parent, s(name.c_str()), 1);
    if (styled_) {
      DiffStatus st = clusterStatus(c);
      agsafeset(sg, s("label"), s(cl.label.c_str()), s(""));
      agsafeset(sg, s("style"), s("filled,rounded"), s(""));
      agsafeset(sg, s("fillcolor"), s(clusterFill(cl.kind).hex().c_str()), s(""));
      agsafeset(sg, s("color"), s(clusterBorder(cl.kind, st).hex().c_str()), s(""));
      agsafeset(sg, s("penwidth"), s(st == DiffStatus::Unchanged ? "1" : "2"), s(""));
      agsafeset(sg, s("id"), s(("cl" + std::to_string(c)).c_str()), s(""));
    } else {
      // The view draws the label itself; reserve its line.
      agsafeset(sg, s("label"), s(cl.label.c_str()), s(""));
      agsafeset(sg, s("fontname"), s("Courier"), s(""));
      agsafeset(sg, s("fontsize"), s("10"), s(""));
    }
    sub_.emplace(c, sg);
    subgraphs_.emplace_back(c, sg);
    return sg;
  }

  void setSize(Agnode_t* n, BoxSize size) {
    agxset(n, nWidth_, s(inches(size.width).c_str()));
    agxset(n, nHeight_, s(inches(size.height).c_str()));
  }

  void build() {
    boxOfNode_.assign(g_.nodes.size(), -1);
    boxOfCluster_.assign(g_.clusters.size(), -1);
    std::string name;
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      const Node& node = g_.nodes[i];
      if (node.chipOf >= 0) continue;
      auto [visible, box] = visibleOwner(g_, collapse_, static_cast<int>(i));
      if (visible < 0) {
        if (boxOfCluster_[static_cast<size_t>(box)] < 0) addCollapsed(box);
        boxOfNode_[i] = -1;
        continue;
      }
      name = "n" + std::to_string(i);
      Agnode_t* n = agnode(graph_, s(name.c_str()), 1);
      if (node.cluster >= 0) agsubnode(subgraphOf(node.cluster), n, 1);
      setSize(n, nodeBoxSize(g_, static_cast<int>(i)));
      if (styled_) styleNode(n, static_cast<int>(i));
      boxOfNode_[i] = static_cast<int>(boxes_.size());
      boxes_.push_back(Layout::Box{static_cast<int>(i), -1, 0, 0, 0, 0});
      boxNodes_.push_back(n);
    }
    std::set<std::pair<int, int>> seen;
    for (size_t i = 0; i < g_.edges.size(); ++i) {
      const Edge& e = g_.edges[i];
      const Node& from = g_.nodes[static_cast<size_t>(e.from)];
      if (from.chipOf >= 0 || from.broadcast) continue;
      int a = boxFor(e.from), b = boxFor(e.to);
      if (a < 0 || b < 0 || a == b || !seen.insert({a, b}).second) continue;
      Agedge_t* edge = agedge(graph_, boxNodes_[static_cast<size_t>(a)], boxNodes_[static_cast<size_t>(b)], nullptr, 1);
      if (styled_ && !e.shape.empty()) agxset(edge, eTooltip_, s(e.shape.c_str()));
      edges_.push_back(AgEdge{edge, a, b, static_cast<int>(i)});
    }
  }

  int boxFor(int node) const {
    auto [visible, cluster] = visibleOwner(g_, collapse_, node);
    return visible >= 0 ? boxOfNode_[static_cast<size_t>(visible)] : boxOfCluster_[static_cast<size_t>(cluster)];
  }

  void addCollapsed(int c) {
    const Cluster& cl = g_.clusters[static_cast<size_t>(c)];
    std::string name = "c" + std::to_string(c);
    Agnode_t* n = agnode(graph_, s(name.c_str()), 1);
    if (cl.parent >= 0) agsubnode(subgraphOf(cl.parent), n, 1);
    setSize(n, collapsedBoxSize(g_, c));
    if (styled_) {
      std::string label;
      for (const std::string& line : collapsedLines(g_, c)) label += (label.empty() ? "" : "\n") + line;
      DiffStatus st = clusterStatus(c);
      agxset(n, nLabel_, s(label.c_str()));
      agxset(n, nStyle_, s("filled,dashed"));
      agxset(n, nFill_, s(clusterFill(cl.kind).hex().c_str()));
      agxset(n, nColor_, s(clusterBorder(cl.kind, st).hex().c_str()));
      agxset(n, nPen_, s(st == DiffStatus::Unchanged ? "1.5" : "2.5"));
      agxset(n, nId_, s(name.c_str()));
    }
    boxOfCluster_[static_cast<size_t>(c)] = static_cast<int>(boxes_.size());
    boxes_.push_back(Layout::Box{-1, c, 0, 0, 0, 0});
    boxNodes_.push_back(n);
  }

  void styleNode(Agnode_t* n, int i) {
    const Node& node = g_.nodes[static_cast<size_t>(i)];
    std::string label;
    for (const std::string& line : node.lines()) label += (label.empty() ? "" : "\n") + line;
    if (!node.chips.empty()) {
      std::string chips;
      for (int c : node.chips) chips += (chips.empty() ? "" : " ") + ("[" + chipText(g_.nodes[static_cast<size_t>(c)]) + "]");
      label += "\n" + chips;
    }
    DiffStatus st = nodeStatus(i);
    // A chip's status shows on its consumer when the consumer itself is unchanged.
    if (st == DiffStatus::Unchanged)
      for (int c : node.chips)
        if (nodeStatus(c) != DiffStatus::Unchanged) st = DiffStatus::Updated;
    agxset(n, nLabel_, s(label.c_str()));
    bool rounded = node.kind == NodeKind::Param || node.kind == NodeKind::Output || node.kind == NodeKind::Constant;
    agxset(n, nStyle_, s(rounded ? "filled,rounded" : "filled"));
    agxset(n, nFill_, s(nodeFill(node.kind, nodeStatus(i)).hex().c_str()));
    agxset(n, nColor_, s(nodeBorder(st).hex().c_str()));
    agxset(n, nPen_, s(st == DiffStatus::Unchanged ? "1" : "2.5"));
    agxset(n, nId_, s(("n" + std::to_string(i)).c_str()));
  }

  IdState ids_;
  Agdisc_t disc_{};
  const FunctionGraph& g_;
  const CollapseState& collapse_;
  const SideDiff* diff_;
  bool styled_;
  Agraph_t* graph_ = nullptr;
  Agsym_t *nShape_ = nullptr, *nWidth_ = nullptr, *nHeight_ = nullptr, *nLabel_ = nullptr;
  Agsym_t *nStyle_ = nullptr, *nFill_ = nullptr, *nColor_ = nullptr, *nPen_ = nullptr, *nId_ = nullptr;
  Agsym_t* eTooltip_ = nullptr;
  std::unordered_map<int, Agraph_t*> sub_;
  std::vector<std::pair<int, Agraph_t*>> subgraphs_;
  std::vector<Layout::Box> boxes_;
  std::vector<Agnode_t*> boxNodes_;
  std::vector<int> boxOfNode_, boxOfCluster_;
  std::vector<AgEdge> edges_;
};

/// Runs dot on `b`; GraphError when it fails.
void runDot(AgBuild& b) {
  if (gvLayout(context(), b.graph(), "dot") != 0) throw GraphError("Graphviz could not lay out the graph");
}

}  // namespace

Layout layoutGraph(const FunctionGraph& g, const CollapseState& collapse) {
  const auto t0 = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(graphvizLock());
  AgBuild b(g, collapse, nullptr, false);
  runDot(b);
  Layout out;
  const boxf bb = GD_bb(b.graph());
  const double top = bb.UR.y;
  auto conv = [&](pointf p) { return Point{static_cast<float>(p.x - bb.LL.x), static_cast<float>(top - p.y)}; };
  out.width = static_cast<float>(bb.UR.x - bb.LL.x);
  out.height = static_cast<float>(bb.UR.y - bb.LL.y);
  out.boxes = b.boxes();
  out.boxOfNode = b.boxOfNode();
  out.boxOfCluster = b.boxOfCluster();
  for (size_t i = 0; i < out.boxes.size(); ++i) {
    Agnode_t* n = b.boxNodes()[i];
    Point c = conv(ND_coord(n));
    Layout::Box& box = out.boxes[i];
    box.x = c.x;
    box.y = c.y;
    box.w = static_cast<float>(ND_width(n) * 72.0);
    box.h = static_cast<float>(ND_height(n) * 72.0);
  }
  // Subgraphs were created outer before inner, so frames nest when drawn in order.
  for (const auto& [cluster, sg] : b.subgraphs()) {
    const boxf r = GD_bb(sg);
    Point a = conv(r.LL), c = conv(r.UR);
    out.frames.push_back(Layout::Frame{cluster, a.x, c.y, c.x, a.y});
  }
  for (const AgBuild::AgEdge& e : b.edges()) {
    Layout::Path p;
    p.from = e.from;
    p.to = e.to;
    p.edge = e.edge;
    const splines* spl = ED_spl(e.e);
    if (spl && spl->size > 0) {
      const bezier& bz = spl->list[0];
      p.points.reserve(static_cast<size_t>(bz.size));
      for (int k = 0; k < bz.size; ++k) p.points.push_back(conv(bz.list[k]));
      if (bz.eflag) {
        p.arrow = true;
        p.tip = conv(bz.ep);
      }
    }
    out.edges.push_back(std::move(p));
  }
  gvFreeLayout(context(), b.graph());
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

std::string graphToDot(const FunctionGraph& g, const CollapseState& collapse, const SideDiff* diff) {
  std::lock_guard<std::mutex> lock(graphvizLock());
  AgBuild b(g, collapse, diff, true);
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  if (!f) throw GraphError("cannot write DOT text");
  agwrite(b.graph(), f);
  std::fclose(f);
  std::string out(buf, len);
  std::free(buf);
  return out;
}

std::string renderSvg(const FunctionGraph& g, const CollapseState& collapse, const SideDiff* diff) {
  std::lock_guard<std::mutex> lock(graphvizLock());
  AgBuild b(g, collapse, diff, true);
  runDot(b);
  char* data = nullptr;
  unsigned int len = 0;
  int rc = gvRenderData(context(), b.graph(), "svg", &data, &len);
  std::string out = rc == 0 && data ? std::string(data, len) : std::string();
  if (data) gvFreeRenderData(data);
  gvFreeLayout(context(), b.graph());
  if (rc != 0) throw GraphError("Graphviz could not render SVG");
  return out;
}

}  // namespace passlab::graph
