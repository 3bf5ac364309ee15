// The graph of a real model stays legible (issue 30): constant expressions
// (the batch-norm arithmetic SimplifyInference leaves on the weights) fold
// into a chip on their reader, and a picture taller than a page is cut
// between node rows into pages set side by side (graph/svg_pages.h), in
// `save graph`, --graph-dir and the report.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "core/analysis/type_infer.h"
#include "core/text/parser.h"
#include "core/workbench/workbench.h"
#include "graph/graph_export.h"
#include "graph/graph_style.h"
#include "graph/graphviz_layout.h"
#include "graph/svg_pages.h"
#include "passes/registry.h"
#include "repl/batch_report.h"
#include "repl/interpreter.h"
#include "report/html_report.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::readFile;
using passlab::testing::sharedBuiltinRegistry;
using namespace passlab::graph;
namespace fs = std::filesystem;

namespace {

/// Residual blocks of conv2d + batch_norm + relu, `blocks` times, with the
/// batch norm's four constant vectors written inline (what an ONNX import gives).
std::string batchNormModel(int blocks) {
  std::string vec = "const(Tensor[(4), float32], [1, 2, 3, 4])";
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n";
  std::string prev = "%x";
  for (int i = 0; i < blocks; ++i) {
    std::string a = "%" + std::to_string(4 * i), b = "%" + std::to_string(4 * i + 1), c = "%" + std::to_string(4 * i + 2),
                d = "%" + std::to_string(4 * i + 3);
    text += "  " + a + " = nn.conv2d(" + prev + ", %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);\n";
    text += "  " + b + " = nn.batch_norm(" + a + ", " + vec + ", " + vec + ", " + vec + ", " + vec + ");\n";
    text += "  " + c + " = nn.relu(" + b + ".0);\n";
    text += "  " + d + " = add(" + c + ", " + prev + ");\n";
    prev = d;
  }
  return text + "  " + prev + "\n}\n";
}

/// A residual stack whose graph, drawn without folding, is thousands of points tall.
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

double svgAttr(const std::string& svg, const std::string& name) {
  size_t at = svg.find("<svg");
  at = svg.find(" " + name + "=\"", at);
  return at == std::string::npos ? 0 : std::atof(svg.c_str() + at + name.size() + 3);
}

/// Node ids (`id="n12"`, `id="c3"`) of class="node" groups, with how often each occurs.
std::map<std::string, int> nodeIds(const std::string& svg) {
  std::map<std::string, int> out;
  static const std::regex node("<g id=\"([a-z0-9_]+)\" class=\"node\">");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), node); it != std::sregex_iterator(); ++it) ++out[(*it)[1]];
  return out;
}

/// The heights of the nested page viewports (`<svg x=".." y="20.00" width=".." height="H"`).
std::vector<double> pageHeights(const std::string& svg) {
  std::vector<double> out;
  static const std::regex page("<svg x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"[0-9.]+\" height=\"([0-9.]+)\" viewBox");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), page); it != std::sregex_iterator(); ++it)
    out.push_back(std::stod((*it)[1]));
  return out;
}

}  // namespace

TEST_CASE("Graph: constant expressions fold into a chip on their reader", "[graph][constexpr]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.loadText(batchNormModel(1), "bn.relay");
  wb.setPipeline("InferType,SimplifyInference,FoldConstant");
  wb.run();
  // After SimplifyInference: scale = expand_dims(gamma / sqrt(var + eps)), shift = expand_dims(beta - mean * ...).
  EventGraphs simplified = eventGraphs(wb, wb.eventOfPass(1));
  const FunctionGraph& g = *simplified.after;
  // Drawn: %x, %w, conv2d, multiply, add, relu, the residual add, output; the 9 ops on constants are chips.
  CHECK(g.laidOutCount() == 8);
  CHECK(g.opCount() == 14);
  std::vector<std::string> chips;
  for (const Node& n : g.nodes) {
    if (n.constOps > 0) {
      CHECK(n.kind == NodeKind::Op);
      CHECK(n.chipOf >= 0);
    }
    // Every constant and constant expression shows through a drawn node.
    if (n.kind == NodeKind::Constant || n.constOps > 0) {
      auto [visible, box] = visibleOwner(g, defaultCollapse(g), static_cast<int>(&n - g.nodes.data()));
      REQUIRE(visible >= 0);
      CHECK(g.nodes[static_cast<size_t>(visible)].chipOf < 0);
      CHECK(g.nodes[static_cast<size_t>(visible)].constOps == 0);
    }
  }
  for (const Node& n : g.nodes)
    for (int c : n.chips)
      if (n.chipOf < 0) chips.push_back(n.title + " " + chipText(g.nodes[static_cast<size_t>(c)]));
  std::sort(chips.begin(), chips.end());
  // The two roots count the ops behind them once each: 9 in all, as FoldConstant folds.
  CHECK(chips == std::vector<std::string>{"add =4 ops (4, 1, 1) f32", "multiply =5 ops (4, 1, 1) f32"});
  // The same picture as after FoldConstant, where the chips are the folded constants.
  EventGraphs foldedGraphs = eventGraphs(wb, wb.eventOfPass(2));
  CHECK(foldedGraphs.after->laidOutCount() == g.laidOutCount());
  // The SVG draws the chips on their readers and no box for the arithmetic.
  std::string svg = graphText(simplified, Side::After);
  CHECK(svg.find("=5 ops (4, 1, 1) f32") != std::string::npos);
  CHECK(svg.find(">sqrt<") == std::string::npos);
  // Switched off, every op is a node of its own.
  BuildOptions flat;
  flat.foldConstantExprs = false;
  auto unfolded = buildGraph(wb.event(wb.eventOfPass(1)).after, "main", flat);
  CHECK(unfolded->laidOutCount() > g.laidOutCount() + 8);
  for (const Node& n : unfolded->nodes) CHECK(n.constOps == 0);
}

TEST_CASE("Graph: a constant expression read by several ops stays a node, its subtree folded into it", "[graph][constexpr]") {
  IRModule mod = inferTypes(parseModule(
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(4), float32], %y: Tensor[(4), float32]) {\n"
      "  %0 = sqrt(const(Tensor[(4), float32], [1, 2, 3, 4]));\n"
      "  %1 = negative(%0);\n"
      "  %2 = multiply(%x, %1);\n"
      "  %3 = add(%y, %1);\n"
      "  (%2, %3)\n"
      "}\n",
      "shared.relay"));
  auto g = buildGraph(mod, "main");
  auto negative = std::find_if(g->nodes.begin(), g->nodes.end(), [](const Node& n) { return n.title == "negative"; });
  auto sqrt = std::find_if(g->nodes.begin(), g->nodes.end(), [](const Node& n) { return n.title == "sqrt"; });
  REQUIRE(negative != g->nodes.end());
  REQUIRE(sqrt != g->nodes.end());
  CHECK(negative->chipOf < 0);      // drawn, with edges to both readers
  CHECK(negative->constOps == 2);   // and the sqrt behind it
  CHECK(sqrt->chipOf == static_cast<int>(negative - g->nodes.begin()));
  CHECK(negative->chips.size() == 1);
}

TEST_CASE("Graph: page cuts are balanced and fall between node rows", "[graph][pages]") {
  struct Case {
    double height;
    std::vector<std::pair<double, double>> bands;
    double max;
    std::vector<double> cuts;
  };
  auto [height, bands, max, cuts] = GENERATE(values<Case>({
      {1000, {}, 2000, {}},                                // fits
      {3000, {}, 2000, {1500}},                            // two equal pages
      {4000, {}, 1500, {1333.3333, 2666.6667}},            // three
      {3960, {}, 2000, {1320, 2640}},                      // three rather than two brim-full
      {3000, {{1400, 1600}}, 2000, {1394}},                // not through the box: in the gap above it
      {3000, {{1400, 1600}, {1395, 1450}}, 2000, {1606}},  // overlapping boxes merge; below them is nearer
      {3000, {{0, 2990}}, 2000, {2000}},                   // one box taller than a page: cut through it
      {5000, {{100, 200}, {2450, 2550}, {4000, 4100}}, 3000, {2444}},
  }));
  std::vector<double> got = pageCuts(height, bands, max);
  REQUIRE(got.size() == cuts.size());
  double prev = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i] == Approx(cuts[i]).margin(0.01));
    CHECK(got[i] - prev <= max);
    prev = got[i];
  }
  CHECK(height - prev <= std::max(max, 2990.0));
}

TEST_CASE("Graph: a tall SVG is cut into pages side by side, every node on exactly one page", "[graph][pages]") {
  IRModule mod = inferTypes(parseModule(residualModel(40), "residual.relay"));
  BuildOptions flat;
  flat.foldChainsAbove = SIZE_MAX;
  auto g = buildGraph(mod, "main", flat);
  std::string whole = renderSvg(*g, defaultCollapse(*g), nullptr);
  const double height = svgAttr(whole, "height"), width = svgAttr(whole, "width");
  REQUIRE(height > 3 * kSvgPageHeightPt);
  SvgPages paged = paginateSvg(whole);
  const int pages = static_cast<int>(std::ceil(height / (0.95 * kSvgPageHeightPt)));
  CHECK(paged.pages == pages);
  CHECK(paged.pageHeight <= kSvgPageHeightPt + 20);
  CHECK(svgAttr(paged.svg, "height") == Approx(paged.pageHeight).margin(0.01));
  CHECK(svgAttr(paged.svg, "width") == Approx(pages * width + (pages - 1) * 24).margin(0.5));
  std::vector<double> heights = pageHeights(paged.svg);
  REQUIRE(heights.size() == static_cast<size_t>(pages));
  double sum = 0;
  for (double h : heights) {
    CHECK(h <= kSvgPageHeightPt);
    CHECK(h >= 0.8 * height / pages);  // balanced
    sum += h;
  }
  CHECK(sum == Approx(height).margin(0.5));
  // No cut goes through a node: each node is drawn on one page, and every node is there.
  std::map<std::string, int> before = nodeIds(whole), after = nodeIds(paged.svg);
  CHECK(before.size() == g->laidOutCount());
  CHECK(after == before);
  CHECK(paged.svg.find("page 1 of " + std::to_string(pages) + "; continues at the top of page 2") != std::string::npos);
  // Edges crossing a cut are on both pages, with their ids made unique.
  CHECK(paged.svg.find("id=\"p2_edge") != std::string::npos);
  // Short pictures and SVG not written by Graphviz come back as they are.
  CHECK(paginateSvg(whole, 0).svg == whole);
  CHECK(paginateSvg(whole, height + 1).pages == 1);
  const std::string other = "<svg width=\"10pt\" height=\"9000pt\" viewBox=\"0 0 10 9000\"><rect/></svg>";
  CHECK(paginateSvg(other).svg == other);
}

TEST_CASE("Graph: save graph cuts a tall graph into pages unless --whole; the report shows it", "[graph][pages][repl]") {
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "test_graph_pages";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // 50 batch-normed residual blocks: tall even with chains and constant expressions folded
  // (and small enough a diff for the report to draw: ReportOptions::maxGraphNodes).
  Workbench wb(sharedBuiltinRegistry());
  CommandInterpreter repl(wb);
  std::ofstream(dir / "bn.relay") << batchNormModel(50);
  REQUIRE(repl.runLine("load " + (dir / "bn.relay").string()).ok());
  REQUIRE(repl.runLine("pipeline InferType,SimplifyInference").ok());
  REQUIRE(repl.runLine("run").ok());
  CommandResult paged = repl.runLine("save graph --event 2 " + (dir / "paged.svg").string());
  REQUIRE(paged.ok());
  CommandResult whole = repl.runLine("save graph --event 2 --whole " + (dir / "whole.svg").string());
  REQUIRE(whole.ok());
  std::string p = readFile(dir / "paged.svg"), w = readFile(dir / "whole.svg");
  REQUIRE(svgAttr(w, "height") > kSvgPageHeightPt);
  CHECK(paged.output().find(" pages) to ") != std::string::npos);
  CHECK(whole.output().find(" pages)") == std::string::npos);
  CHECK(svgAttr(p, "height") <= kSvgPageHeightPt + 20);
  CHECK(nodeIds(p) == nodeIds(w));
  // The report embeds the paged picture and leaves no graph out.
  ReportStats stats;
  std::string html = renderHtmlReport(wb, reportOptions(wb), &stats);
  CHECK(stats.graphs == 2);
  CHECK(html.find("left out") == std::string::npos);
  CHECK(html.find("continues at the top of page 2") != std::string::npos);
}

TEST_CASE("Graph: after LegalizeOps each call_tir names its kernel in a chip and the calls fold into chains", "[graph][chains]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.loadText(residualModel(100), "residual.relay");
  wb.setPipeline("InferType,FuseOps,LambdaLifting,LegalizeOps");
  wb.run();
  EventGraphs legalized = eventGraphs(wb, wb.eventOfPass(3));
  const FunctionGraph& g = *legalized.after;
  size_t globals = 0, chips = 0;
  for (const Node& n : g.nodes) {
    if (n.kind != NodeKind::Global) continue;
    ++globals;
    if (n.chipOf < 0) continue;
    ++chips;
    CHECK(g.nodes[static_cast<size_t>(n.chipOf)].title == "call_tir");
    CHECK(chipText(n).rfind("@fused_", 0) == 0);
  }
  CHECK(globals >= 100);
  CHECK(chips == globals);
  // Chains of argument tuple and call: far shorter than drawn one by one.
  REQUIRE(g.laidOutCount() > kFoldChainsAbove);
  bool tupleInChain = false;
  for (const Node& n : g.nodes)
    if (n.kind == NodeKind::Tuple && n.cluster >= 0) tupleInChain |= g.clusters[static_cast<size_t>(n.cluster)].kind == ClusterKind::Chain;
  CHECK(tupleInChain);
  BuildOptions flat;
  flat.foldChainsAbove = SIZE_MAX;
  auto unfolded = buildGraph(wb.event(wb.eventOfPass(3)).after, "main", flat);
  const double folded = svgAttr(renderSvg(g, defaultCollapse(g), nullptr), "height");
  const double whole = svgAttr(renderSvg(*unfolded, defaultCollapse(*unfolded), nullptr), "height");
  CHECK(folded * 2 < whole);
}
