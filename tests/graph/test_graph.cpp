// Graph view model (graph/): graphs of the examples (nodes, edges, boxes),
// linear chains folded on big graphs,
// diff colours after FoldConstant and FuseOps, collapse/expand, layouts from
// Graphviz and their cache, SVG golden files, `save graph` and --graph-dir,
// and the errors for what cannot be drawn.
//
// To regenerate the SVG goldens after an intended change:
//   PASSLAB_UPDATE_GOLDEN=1 build/tests/test_graph "[golden]"  (then look at them)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/text/parser.h"
#include "core/analysis/type_infer.h"
#include "core/workbench/workbench.h"
#include "graph/graph_export.h"
#include "graph/graph_style.h"
#include "graph/graphviz_layout.h"
#include "graph/layout_service.h"
#include "passes/registry.h"
#include "repl/batch.h"
#include "repl/interpreter.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::readFile;
using passlab::testing::sharedBuiltinRegistry;
using namespace passlab::graph;
namespace fs = std::filesystem;

namespace {

const std::string kSource = PASSLAB_SOURCE_DIR;

IRModule loadTyped(const std::string& path) {
  return inferTypes(parseModule(readFile(path), path));
}

std::string allText(const CommandResult& r) { return r.output() + r.error(); }

size_t countKind(const FunctionGraph& g, NodeKind kind) {
  return static_cast<size_t>(std::count_if(g.nodes.begin(), g.nodes.end(), [&](const Node& n) { return n.kind == kind; }));
}

size_t countStatus(const SideDiff& d, DiffStatus s) {
  return static_cast<size_t>(std::count(d.nodes.begin(), d.nodes.end(), s));
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "test_graph" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

/// The seed-000 pipeline recorded to the end.
std::unique_ptr<Workbench> seed000() {
  auto wb = std::make_unique<Workbench>(sharedBuiltinRegistry());
  wb->load(kSource + "/examples/seed000/cnn_fp32.relay");
  wb->setPipeline("InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps");
  wb->run();
  return wb;
}

}  // namespace

TEST_CASE("Graph: the cnn_block example has its ops, params, chips and edges", "[graph]") {
  IRModule mod = loadTyped(kSource + "/examples/cnn_block.relay");
  auto g = buildGraph(mod, "main");
  CHECK(g->nodes.size() == 24);
  CHECK(countKind(*g, NodeKind::Param) == 7);
  CHECK(g->opCount() == 11);
  CHECK(countKind(*g, NodeKind::Projection) == 1);
  CHECK(countKind(*g, NodeKind::GlobalCall) == 2);
  CHECK(countKind(*g, NodeKind::Constant) == 2);
  CHECK(countKind(*g, NodeKind::Output) == 1);
  CHECK(g->edges.size() == 24);
  CHECK(g->clusters.empty());
  // The scalar constants of `multiply(%1, 1f)` and `add(%2, 0f)` are chips on their ops.
  CHECK(g->laidOutCount() == 22);
  for (const Node& n : g->nodes)
    if (n.kind == NodeKind::Constant) {
      REQUIRE(n.chipOf >= 0);
      CHECK(g->nodes[static_cast<size_t>(n.chipOf)].kind == NodeKind::Op);
    }
  // Labels: op name, key attributes, output type; the external call names its codegen.
  auto it = std::find_if(g->nodes.begin(), g->nodes.end(), [](const Node& n) { return n.title == "nn.conv2d"; });
  REQUIRE(it != g->nodes.end());
  CHECK(it->type == "(1, 4, 8, 8) f32");
  CHECK(std::find(it->details.begin(), it->details.end(), "channels=4") != it->details.end());
  auto ext = std::find_if(g->nodes.begin(), g->nodes.end(), [](const Node& n) { return n.title == "@ext_block"; });
  REQUIRE(ext != g->nodes.end());
  CHECK(std::find(ext->details.begin(), ext->details.end(), "Compiler=\"ccompiler\"") != ext->details.end());
}

TEST_CASE("Graph: FuseOps draws each fused function as a box, new on the after side", "[graph][diff]") {
  auto wb = seed000();
  int fuse = wb->eventOfPass(4);
  REQUIRE(fuse > 0);
  EventGraphs gr = eventGraphs(*wb, fuse);
  REQUIRE(gr.before);
  REQUIRE(gr.after);
  CHECK(gr.before->clusters.empty());
  REQUIRE(gr.after->clusters.size() >= 4);
  for (const Cluster& c : gr.after->clusters) {
    CHECK(c.kind == ClusterKind::Fused);
    CHECK(c.label.rfind("fused: ", 0) == 0);
    CHECK(c.size >= 1);
  }
  // Every op is still there, now inside a box.
  CHECK(gr.after->opCount() == gr.before->opCount());
  size_t inBoxes = 0;
  for (const Node& n : gr.after->nodes)
    if (n.kind == NodeKind::Op && n.cluster >= 0) ++inBoxes;
  CHECK(inBoxes == gr.after->opCount());
  // The boxes are new and the ops in them moved there (the matcher pairs them with the ops before).
  for (DiffStatus s : gr.diff.after.clusters) CHECK(s == DiffStatus::Inserted);
  size_t moved = countStatus(gr.diff.after, DiffStatus::Moved);
  CHECK(moved * 2 > gr.after->opCount());
  // None stayed where it was: moved, or (where the matcher gives up) inserted.
  for (size_t i = 0; i < gr.after->nodes.size(); ++i)
    if (gr.after->nodes[i].kind == NodeKind::Op)
      CHECK((gr.diff.after.nodes[i] == DiffStatus::Moved || gr.diff.after.nodes[i] == DiffStatus::Inserted));
  for (size_t i = 0; i < gr.after->nodes.size(); ++i)
    if (gr.diff.after.nodes[i] == DiffStatus::Moved) {
      int p = gr.diff.after.partner[i];
      REQUIRE(p >= 0);
      CHECK(gr.before->nodes[static_cast<size_t>(p)].title == gr.after->nodes[i].title);
    }
  // Params are the same nodes on both sides, partnered.
  for (size_t i = 0; i < gr.after->nodes.size(); ++i)
    if (gr.after->nodes[i].kind == NodeKind::Param) {
      CHECK(gr.diff.after.nodes[i] == DiffStatus::Unchanged);
      int p = gr.diff.after.partner[i];
      REQUIRE(p >= 0);
      CHECK(gr.diff.before.partner[static_cast<size_t>(p)] == static_cast<int>(i));
    }
}

TEST_CASE("Graph: after FuseOps a big graph starts with its groups collapsed, counted in ops", "[graph][scale]") {
  // 60 blocks of conv2d+add+relu: 180 ops, past kCollapseGroupsAbove laid-out nodes.
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n";
  std::string prev = "%x";
  for (int i = 0; i < 60; ++i) {
    std::string a = "%" + std::to_string(3 * i), b = "%" + std::to_string(3 * i + 1), c = "%" + std::to_string(3 * i + 2);
    text += "  " + a + " = nn.conv2d(" + prev + ", %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);\n";
    text += "  " + b + " = add(" + a + ", 1f);\n";
    text += "  " + c + " = nn.relu(" + b + ");\n";
    prev = c;
  }
  text += "  " + prev + "\n}\n";
  Workbench wb(sharedBuiltinRegistry());
  wb.loadText(text, "chain.relay");
  wb.setPipeline("InferType,FuseOps");
  wb.run();
  int fuse = wb.eventOfPass(1);
  EventGraphs gr = eventGraphs(wb, fuse);
  REQUIRE(gr.after->laidOutCount() > kCollapseGroupsAbove);
  CollapseState c = defaultCollapse(*gr.after);
  REQUIRE(c.size() == gr.after->clusters.size());
  REQUIRE(!c.empty());
  for (size_t i = 0; i < c.size(); ++i) CHECK(c[i]);
  // A collapsed box says how many ops it holds.
  CHECK(collapsedLines(*gr.after, 0).back() == "3 ops");
  // The before side has no function boxes: its 180-op run is one chain, collapsed.
  REQUIRE(gr.before->clusters.size() == 1);
  CHECK(gr.before->clusters[0].kind == ClusterKind::Chain);
  CHECK(gr.before->clusters[0].ops == 180);
  CHECK(defaultCollapse(*gr.before) == CollapseState{true});
  // FuseOps only moved the chain's ops: the chain is moved, not deleted.
  CHECK(gr.diff.before.clusters[0] == DiffStatus::Moved);
  // The count is said in ops, not nodes plus edges.
  CHECK(describeGraphDiff(gr.before.get(), gr.diff.before, gr.after.get(), gr.diff.after) ==
        "180 ops: 180 moved into 60 boxes; 0 rewritten");
  // Collapsed, the drawing is a few boxes tall per group, not a 180-op strip.
  Layout collapsed = layoutGraph(*gr.after, c);
  Layout open = layoutGraph(*gr.after, CollapseState(c.size(), false));
  CHECK(collapsed.height * 2 < open.height);
}

TEST_CASE("Graph: FoldConstant colours the folded constants and the computations they replace", "[graph][diff]") {
  auto wb = seed000();
  int fold = wb->eventOfPass(3);
  REQUIRE(fold > 0);
  EventGraphs gr = eventGraphs(*wb, fold);
  // The casts and the constant subgraph (transpose, add, shape_of, ...) are gone.
  size_t castsBefore = 0, castsAfter = 0;
  for (const Node& n : gr.before->nodes) castsBefore += n.title == "cast";
  for (const Node& n : gr.after->nodes) castsAfter += n.title == "cast";
  CHECK(castsAfter < castsBefore);
  CHECK(gr.diff.matched);
  CHECK(countStatus(gr.diff.before, DiffStatus::Folded) > 0);
  // The folded constants are new: folded;
  // constants the pass did not touch stay unchanged, and none is "deleted".
  size_t newConstants = 0;
  for (size_t i = 0; i < gr.after->nodes.size(); ++i) {
    if (gr.after->nodes[i].kind != NodeKind::Constant) continue;
    DiffStatus s = gr.diff.after.nodes[i];
    newConstants += s == DiffStatus::Folded;
    CHECK(s != DiffStatus::Deleted);
  }
  CHECK(newConstants > 0);
  // Each folded cast is gone from the after side: coloured on the before side.
  size_t castsChanged = 0;
  for (size_t i = 0; i < gr.before->nodes.size(); ++i)
    castsChanged += gr.before->nodes[i].title == "cast" && gr.diff.before.nodes[i] != DiffStatus::Unchanged;
  CHECK(castsChanged >= castsBefore - castsAfter);
  // A folded op's partner is the constant that replaced it.
  for (size_t i = 0; i < gr.before->nodes.size(); ++i) {
    if (gr.diff.before.nodes[i] != DiffStatus::Folded || gr.before->nodes[i].kind != NodeKind::Op) continue;
    int p = gr.diff.before.partner[i];
    if (p >= 0) CHECK(gr.after->nodes[static_cast<size_t>(p)].kind == NodeKind::Constant);
  }
  // Colours follow the status.
  CHECK(nodeBorder(DiffStatus::Deleted) != nodeBorder(DiffStatus::Unchanged));
  CHECK(nodeFill(NodeKind::Op, DiffStatus::Inserted) != nodeFill(NodeKind::Op, DiffStatus::Unchanged));
}

TEST_CASE("Graph: an untouched function is one graph on both sides, nothing coloured", "[graph][diff]") {
  auto wb = std::make_unique<Workbench>(sharedBuiltinRegistry());
  wb->load(kSource + "/examples/cnn_block.relay");
  wb->setPipeline("InferType,SimplifyExpr");
  wb->run();
  int simplify = wb->eventOfPass(1);
  EventGraphs ext = eventGraphs(*wb, simplify, "@ext_block");
  CHECK(ext.before == ext.after);
  CHECK(ext.diff.after.changedCount() == 0);
  EventGraphs main = eventGraphs(*wb, simplify, "main");
  CHECK(main.before != main.after);
  CHECK(main.diff.before.changedCount() > 0);
  CHECK(main.diff.after.changedCount() > 0);
  CHECK(changedGraphFunctions(wb->event(simplify).before, wb->event(simplify).after) == std::vector<std::string>{"main"});
}

TEST_CASE("Graph: collapsing a box hides its nodes behind one box, expanding restores them", "[graph][layout]") {
  auto wb = seed000();
  EventGraphs gr = eventGraphs(*wb, wb->eventOfPass(4));
  const FunctionGraph& g = *gr.after;
  CollapseState expanded(g.clusters.size(), false);
  CollapseState collapsed = expanded;
  collapsed[0] = true;
  Layout open = layoutGraph(g, expanded);
  Layout shut = layoutGraph(g, collapsed);
  CHECK(open.boxes.size() == g.laidOutCount());
  CHECK(open.frames.size() == g.clusters.size());
  CHECK(shut.boxes.size() == g.laidOutCount() - static_cast<size_t>(g.clusters[0].size) + 1);
  CHECK(shut.frames.size() == g.clusters.size() - 1);
  CHECK(shut.boxOfCluster[0] >= 0);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].chipOf >= 0) continue;
    bool hidden = g.inside(static_cast<int>(i), 0);
    CHECK((shut.boxOfNode[i] < 0) == hidden);
    CHECK(open.boxOfNode[i] >= 0);
    if (hidden) CHECK(visibleOwner(g, collapsed, static_cast<int>(i)) == std::pair<int, int>{-1, 0});
  }
  // Boxes sit inside the drawing and inside their frames.
  for (const Layout::Box& b : open.boxes) {
    CHECK(b.x - b.w / 2 >= -1);
    CHECK(b.x + b.w / 2 <= open.width + 1);
    CHECK(b.y - b.h / 2 >= -1);
    CHECK(b.y + b.h / 2 <= open.height + 1);
  }
  for (const Layout::Frame& f : open.frames)
    for (size_t i = 0; i < g.nodes.size(); ++i)
      if (g.nodes[i].chipOf < 0 && g.inside(static_cast<int>(i), f.cluster)) {
        const Layout::Box& b = open.boxes[static_cast<size_t>(open.boxOfNode[i])];
        CHECK(b.x >= f.x0);
        CHECK(b.x <= f.x1);
        CHECK(b.y >= f.y0);
        CHECK(b.y <= f.y1);
      }
  // Every edge has a path ending in an arrow.
  for (const Layout::Path& p : open.edges) {
    CHECK(p.points.size() >= 4);
    CHECK(p.arrow);
  }
  // Big boxes start collapsed, small ones open.
  CollapseState start = defaultCollapse(g, 2);
  for (size_t c = 0; c < g.clusters.size(); ++c) CHECK(start[c] == (g.clusters[c].size > 2));
  REQUIRE(g.laidOutCount() < kCollapseAllAbove);
}

TEST_CASE("Graph: the layout service answers from its cache and never blocks", "[graph][layout]") {
  auto wb = seed000();
  EventGraphs gr = eventGraphs(*wb, wb->eventOfPass(4));
  LayoutService service;
  CollapseState c = defaultCollapse(*gr.after);
  LayoutService::Result first = service.request(gr.after, c);
  if (!first.layout) CHECK(first.pending);
  service.waitIdle();
  LayoutService::Result second = service.request(gr.after, c);
  REQUIRE(second.layout);
  CHECK_FALSE(second.pending);
  CHECK(second.layout->boxes.size() == gr.after->laidOutCount());
  CHECK(service.request(gr.after, c).layout == second.layout);
  CHECK(service.stats().layouts == 1);
  CHECK(service.stats().hits >= 2);
  // Another collapse state is another layout.
  CollapseState all(gr.after->clusters.size(), true);
  CHECK_FALSE(service.request(gr.after, all).layout);
  service.waitIdle();
  CHECK(service.request(gr.after, all).layout);
  CHECK(service.stats().layouts == 2);
}

TEST_CASE("Graph: SVG of two small graphs matches the golden files", "[graph][golden]") {
  fs::path dir = fs::path(kSource) / "tests" / "golden" / "graph";
  struct Case {
    const char* name;
    const char* pipeline;
  };
  auto [name, pipeline] = GENERATE(Case{"chain", ""}, Case{"fused", "InferType,FuseOps"});
  auto wb = std::make_unique<Workbench>(sharedBuiltinRegistry());
  wb->load((dir / (std::string(name) + ".relay")).string());
  if (*pipeline) {
    wb->setPipeline(pipeline);
    wb->run();
  }
  std::string svg = eventGraphText(*wb, wb->cursor(), "main", Side::After);
  std::string dot = eventGraphText(*wb, wb->cursor(), "main", Side::After, GraphFormat::Dot);
  // Deterministic: the same graph renders byte-identically twice.
  CHECK(eventGraphText(*wb, wb->cursor(), "main", Side::After) == svg);
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(dot.find("digraph") != std::string::npos);
  fs::path golden = dir / (std::string(name) + ".svg");
  if (std::getenv("PASSLAB_UPDATE_GOLDEN") && std::string(std::getenv("PASSLAB_UPDATE_GOLDEN")) == "1") {
    std::ofstream(golden, std::ios::binary) << svg;
  }
  INFO("golden " << golden.string());
  CHECK(svg == readFile(golden));
}

TEST_CASE("Graph: what cannot be drawn is a clear error", "[graph][errors]") {
  IRModule mod = loadTyped(kSource + "/examples/cnn_block.relay");
  CHECK_THROWS_WITH(buildGraph(mod, "nope"), Catch::Contains("no function @nope") && Catch::Contains("@ext_block"));
  auto wb = std::make_unique<Workbench>(sharedBuiltinRegistry());
  wb->load(kSource + "/examples/seed004/multi_target.relay");
  std::string prim;
  for (const auto& [name, fn] : wb->moduleAt(0, Side::After)->functions)
    if (as<PrimFuncNode>(fn)) prim = name;
  REQUIRE_FALSE(prim.empty());
  CHECK_THROWS_WITH(eventGraphs(*wb, 0, prim), Catch::Contains("PrimFunc") && Catch::Contains("show @" + prim));
  CHECK_THROWS_AS(eventGraphs(*wb, 99, "main"), WorkbenchError);
  CHECK_THROWS_WITH(graphFormatOf("out.png"), Catch::Contains(".svg or .dot"));
}

TEST_CASE("Graph: save graph writes SVG and DOT, and reports bad input without stopping", "[graph][repl]") {
  fs::path dir = scratch("save");
  Workbench wb(sharedBuiltinRegistry());
  CommandInterpreter repl(wb);
  REQUIRE(repl.runLine("load " + kSource + "/examples/seed000/cnn_fp32.relay").ok());
  REQUIRE(repl.runLine("pipeline InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps").ok());
  REQUIRE(repl.runLine("step 5").ok());
  CommandResult svg = repl.runLine("save graph " + (dir / "main.svg").string());
  REQUIRE(svg.ok());
  CHECK(allText(svg).find("wrote the graph of @main after #") != std::string::npos);
  CHECK(readFile(dir / "main.svg").find("fused: ") != std::string::npos);
  CommandResult dot = repl.runLine("save graph @main --event 1 --before " + (dir / "main.dot").string());
  REQUIRE(dot.ok());
  CHECK(allText(dot).find("before #1") != std::string::npos);
  CHECK(readFile(dir / "main.dot").find("digraph") != std::string::npos);
  CommandResult unknown = repl.runLine("save graph @nope " + (dir / "x.svg").string());
  CHECK_FALSE(unknown.ok());
  CHECK(allText(unknown).find("no function @nope") != std::string::npos);
  CommandResult badEvent = repl.runLine("save graph --event 999 " + (dir / "x.svg").string());
  CHECK_FALSE(badEvent.ok());
  CommandResult badExt = repl.runLine("save graph " + (dir / "x.png").string());
  CHECK_FALSE(badExt.ok());
  CHECK(allText(badExt).find(".svg or .dot") != std::string::npos);
  CHECK(repl.runLine("info").ok());  // the session goes on
}

TEST_CASE("Graph: --graph-dir writes one SVG per changed function per pass", "[graph][batch]") {
  fs::path dir = scratch("batch");
  BatchOptions o;
  o.input = kSource + "/examples/cnn_block.relay";
  o.pipeline = "InferType,SimplifyExpr,FuseOps";
  o.hasPipeline = true;
  o.output = (dir / "out.relay").string();
  o.graphDir = (dir / "graphs").string();
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  REQUIRE(runBatch(o, *sharedBuiltinRegistry(), out, err) == 0);
  std::fclose(out);
  std::fclose(err);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir / "graphs")) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  REQUIRE_FALSE(files.empty());
  CHECK(std::find(files.begin(), files.end(), "002-SimplifyExpr-main.svg") != files.end());
  for (const std::string& f : files) {
    CHECK(f.size() > 8);
    CHECK(readFile(dir / "graphs" / f).find("<svg") != std::string::npos);
  }
}

namespace {

/// `blocks` residual blocks: conv2d → add → relu, then the block's input added
/// back (a join), on one shared weight (a broadcast chip, not an edge).
std::string residualModel(int blocks) {
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n";
  std::string prev = "%x";
  for (int i = 0; i < blocks; ++i) {
    std::string a = "%" + std::to_string(4 * i), b = "%" + std::to_string(4 * i + 1), c = "%" + std::to_string(4 * i + 2),
                d = "%" + std::to_string(4 * i + 3);
    text += "  " + a + " = nn.conv2d(" + prev + ", %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);\n";
    text += "  " + b + " = add(" + a + ", 1f);\n";
    text += "  " + c + " = nn.relu(" + b + ");\n";
    text += "  " + d + " = add(" + c + ", " + prev + ");\n";
    prev = d;
  }
  return text + "  " + prev + "\n}\n";
}

/// The height attribute of an SVG, in points.
double svgHeight(const std::string& svg) {
  size_t at = svg.find("height=\"");
  return at == std::string::npos ? 0 : std::stod(svg.substr(at + 8));
}

}  // namespace

TEST_CASE("Graph: a big graph folds each run of single-input, single-use ops into a chain box", "[graph][chains]") {
  IRModule mod = inferTypes(parseModule(residualModel(50), "residual.relay"));
  auto g = buildGraph(mod, "main");
  REQUIRE(g->laidOutCount() > kFoldChainsAbove);
  // One chain per block: conv2d → add → relu. The residual add reads two values: it ends the run.
  size_t chains = 0;
  for (size_t c = 0; c < g->clusters.size(); ++c) {
    const Cluster& cl = g->clusters[c];
    REQUIRE(cl.kind == ClusterKind::Chain);
    CHECK(cl.ops == 3);
    CHECK(cl.size == 3);
    CHECK(cl.parent == -1);
    CHECK(cl.function == nullptr);
    CHECK(cl.label == "chain: nn.conv2d+add+nn.relu");
    CHECK(collapsedLines(*g, static_cast<int>(c)) == std::vector<std::string>{"[+] chain: nn.conv2d+add+nn.relu", "3 ops"});
    ++chains;
  }
  CHECK(chains == 50);
  // Inside a chain, each node after the first reads only its predecessor, and each but the last feeds only the next.
  std::vector<int> drawnIn(g->nodes.size(), 0), drawnOut(g->nodes.size(), 0);
  for (const Edge& e : g->edges) {
    const Node& from = g->nodes[static_cast<size_t>(e.from)];
    if (from.chipOf >= 0 || from.broadcast) continue;
    ++drawnIn[static_cast<size_t>(e.to)];
    ++drawnOut[static_cast<size_t>(e.from)];
    if (from.cluster >= 0 && g->nodes[static_cast<size_t>(e.to)].cluster == from.cluster) {
      CHECK(drawnIn[static_cast<size_t>(e.to)] == 1);
    }
  }
  size_t joins = 0;
  for (size_t i = 0; i < g->nodes.size(); ++i) {
    const Node& n = g->nodes[i];
    if (n.kind != NodeKind::Op) continue;
    if (n.cluster < 0) {
      CHECK(n.title == "add");  // the residual joins stay outside
      CHECK(drawnIn[i] == 2);
      ++joins;
    } else {
      CHECK(drawnOut[i] == 1);
    }
  }
  CHECK(joins == 50);
  // Chains start collapsed, and the collapsed drawing is far shorter than the open one.
  CollapseState start = defaultCollapse(*g);
  CHECK(std::all_of(start.begin(), start.end(), [](bool b) { return b; }));
  Layout shut = layoutGraph(*g, start);
  Layout open = layoutGraph(*g, CollapseState(start.size(), false));
  CHECK(shut.boxes.size() == g->laidOutCount() - 100);
  CHECK(shut.height * 1.5 < open.height);
  // A node inside a collapsed chain is shown by the chain's box.
  for (size_t i = 0; i < g->nodes.size(); ++i)
    if (g->nodes[i].cluster >= 0) CHECK(visibleOwner(*g, start, static_cast<int>(i)).second == g->nodes[i].cluster);
}

TEST_CASE("Graph: chain folding keeps small graphs as written and can be switched off", "[graph][chains]") {
  IRModule small = inferTypes(parseModule(residualModel(10), "small.relay"));
  auto g = buildGraph(small, "main");
  REQUIRE(g->laidOutCount() <= kFoldChainsAbove);
  CHECK(g->clusters.empty());
  BuildOptions always;
  always.foldChainsAbove = 0;
  CHECK(buildGraph(small, "main", always)->clusters.size() == 10);
  BuildOptions longer;
  longer.foldChainsAbove = 0;
  longer.minChain = 4;  // no run here is 4 long
  CHECK(buildGraph(small, "main", longer)->clusters.empty());
  IRModule big = inferTypes(parseModule(residualModel(50), "residual.relay"));
  BuildOptions never;
  never.foldChainsAbove = SIZE_MAX;
  auto flat = buildGraph(big, "main", never);
  CHECK(flat->clusters.empty());
  // The saved SVG (and the report's graph) draws the folded form: much shorter.
  auto folded = buildGraph(big, "main");
  double foldedPt = svgHeight(renderSvg(*folded, defaultCollapse(*folded), nullptr));
  double flatPt = svgHeight(renderSvg(*flat, defaultCollapse(*flat), nullptr));
  REQUIRE(foldedPt > 0);
  CHECK(foldedPt * 1.5 < flatPt);
}

TEST_CASE("Graph: after FuseOps a run of fused boxes is one chain; no chain is drawn inside a fused box", "[graph][chains]") {
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n";
  std::string prev = "%x";
  for (int i = 0; i < 60; ++i) {
    std::string a = "%" + std::to_string(3 * i), b = "%" + std::to_string(3 * i + 1), c = "%" + std::to_string(3 * i + 2);
    text += "  " + a + " = nn.conv2d(" + prev + ", %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);\n";
    text += "  " + b + " = add(" + a + ", 1f);\n";
    text += "  " + c + " = nn.relu(" + b + ");\n";
    prev = c;
  }
  text += "  " + prev + "\n}\n";
  Workbench wb(sharedBuiltinRegistry());
  wb.loadText(text, "chain.relay");
  wb.setPipeline("InferType,FuseOps");
  wb.run();
  EventGraphs gr = eventGraphs(wb, wb.eventOfPass(1));
  const FunctionGraph& g = *gr.after;
  REQUIRE(g.clusters.size() == 61);
  const int chain = 60;
  REQUIRE(g.clusters[chain].kind == ClusterKind::Chain);
  CHECK(g.clusters[chain].label == "chain of 60 boxes");
  CHECK(g.clusters[chain].children.size() == 60);
  CHECK(g.clusters[chain].ops == 180);
  CHECK(collapsedLines(g, chain) == std::vector<std::string>{"[+] chain of 60 boxes", "180 ops"});
  for (int c = 0; c < chain; ++c) {
    CHECK(g.clusters[static_cast<size_t>(c)].kind == ClusterKind::Fused);
    CHECK(g.clusters[static_cast<size_t>(c)].parent == chain);
  }
  // Nothing inside a fused box is chained, and the chain only moved: it is not a box FuseOps made.
  for (const Node& n : g.nodes)
    if (n.cluster >= 0 && n.kind == NodeKind::Op) CHECK(g.clusters[static_cast<size_t>(n.cluster)].kind == ClusterKind::Fused);
  CHECK(gr.diff.after.clusters[chain] == DiffStatus::Moved);
  CHECK(describeGraphDiff(gr.before.get(), gr.diff.before, gr.after.get(), gr.diff.after) == "180 ops: 180 moved into 60 boxes; 0 rewritten");
  // Collapsed, the whole function is one box; expanding the chain shows its boxes, still collapsed.
  CollapseState start = defaultCollapse(g);
  Layout shut = layoutGraph(g, start);
  CHECK(shut.boxes.size() == 4);  // %x, the shared %w (drawn once, without edges), the chain, the output
  start[chain] = false;
  Layout open = layoutGraph(g, start);
  CHECK(open.boxes.size() == 63);
  CHECK(open.frames.size() == 1);
}
