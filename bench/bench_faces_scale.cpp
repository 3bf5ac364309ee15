// Figures of the faces on a real model (issue 30): how many diff lines each
// changed event marks as changed and as moved (plain and aligned), the graph
// the Graph view and the report draw for @main before and after each event
// (nodes, boxes, collapsed boxes, SVG size in points whole and cut into pages,
// bytes, and the size without chains and constant expressions folded), and the size
// of the HTML report. Prints tables; asserts nothing.
//   bench_faces_scale MODEL.onnx [--input-shape NAME=D0,D1,...] [--pass-pipeline=SPEC]
//   bench_faces_scale --synthetic N [--pass-pipeline=SPEC]
// Defaults: the pipeline InferType,SimplifyInference,FoldConstant,FuseOps, as in
// the issue; MODEL from `/usr/bin/python3 bench/make_mobilenetv3_onnx.py m.onnx --dynamic`.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench/synthetic_model.h"
#include "core/trace/moved_lines.h"
#include "core/trace/change_summary.h"
#include "core/workbench/workbench.h"
#include "graph/graph_export.h"
#include "graph/graphviz_layout.h"
#include "graph/svg_pages.h"
#include "passes/registry.h"
#include "repl/batch_report.h"
#include "repl/model_files.h"
#include "report/html_report.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace passlab;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

/// Lines of a unified diff starting with one of `marks` (file headers excluded).
size_t marked(const std::string& diff, const char* marks) {
  size_t n = 0, at = 0;
  while (at < diff.size()) {
    size_t nl = diff.find('\n', at);
    if (nl == std::string::npos) nl = diff.size();
    std::string_view line(diff.data() + at, nl - at);
    bool header = line.rfind("+++", 0) == 0 || line.rfind("---", 0) == 0;
    if (!line.empty() && !header && std::string_view(marks).find(line[0]) != std::string_view::npos) ++n;
    at = nl + 1;
  }
  return n;
}

/// `width="555pt" height="4690pt"` of a Graphviz SVG, as "555x4690".
std::string svgSize(const std::string& svg) {
  auto attr = [&](const char* name) {
    size_t at = svg.find("<svg");
    at = at == std::string::npos ? at : svg.find(std::string(name) + "=\"", at);
    return at == std::string::npos ? 0.0 : std::atof(svg.c_str() + at + std::char_traits<char>::length(name) + 2);
  };
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0fx%.0f", attr("width"), attr("height"));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  std::string model, pipeline = "InferType,SimplifyInference,FoldConstant,FuseOps";
  std::vector<std::string> shapes;
  size_t synthetic = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--input-shape" && i + 1 < argc) {
      shapes.push_back(argv[++i]);
    } else if (a.rfind("--pass-pipeline=", 0) == 0) {
      pipeline = a.substr(16);
    } else if (a == "--synthetic" && i + 1 < argc) {
      synthetic = static_cast<size_t>(std::atoll(argv[++i]));
    } else if (a[0] != '-') {
      model = a;
    } else {
      std::fprintf(stderr, "usage: bench_faces_scale MODEL.onnx [--input-shape N=D,...] [--pass-pipeline=SPEC] | --synthetic N\n");
      return 2;
    }
  }
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb(registry);
  try {
    if (synthetic) {
      wb.loadText(bench::syntheticModelText(synthetic), "synthetic");
    } else {
      if (model.empty()) {
        std::fprintf(stderr, "bench_faces_scale: give MODEL.onnx or --synthetic N\n");
        return 2;
      }
      LoadModelOptions o;
      for (const std::string& s : shapes) addInputShapeBinding(s, o.onnx);
      loadModelInto(wb, model, {}, o);
    }
    wb.setPipeline(pipeline);
    auto start = Clock::now();
    wb.run();
    std::printf("model %s, pipeline %s: %zu events, run %.0f ms\n\n", synthetic ? "synthetic" : model.c_str(), pipeline.c_str(),
                wb.trace().events().size(), msSince(start));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_faces_scale: %s\n", e.what());
    return 1;
  }

  std::printf("%-28s %9s %9s %9s %9s %9s %8s\n", "event", "plain+-", "algn+-", "algn<>", "changed%", "diffKB", "ms");
  for (const TraceEvent& ev : wb.trace().events()) {
    if (ev.parent >= 0 || ev.status != EventStatus::Changed || wb.builds().isCodegen(ev.id)) continue;
    auto start = Clock::now();
    std::string aligned = wb.alignedDiff(ev.id, Side::Before, ev.id, Side::After);
    double ms = msSince(start);
    std::string plain = wb.diff(ev.id, Side::Before, ev.id, Side::After);
    size_t changed = marked(aligned, "+-"), moved = marked(aligned, "<>");
    std::printf("%-28s %9zu %9zu %9zu %8.1f%% %9.1f %8.1f\n", ("#" + std::to_string(ev.id) + " " + ev.pass).c_str(), marked(plain, "+-"),
                changed, moved, changed + moved ? 100.0 * static_cast<double>(changed) / static_cast<double>(changed + moved) : 0.0,
                static_cast<double>(aligned.size()) / 1024.0, ms);
  }

  std::printf("\n%-28s %-7s %6s %6s %9s %12s %6s %12s %9s %8s %14s\n", "graph of @main", "side", "nodes", "boxes", "collapsed", "whole pt",
              "pages", "paged pt", "svg KB", "ms", "unfolded pt");
  for (const TraceEvent& ev : wb.trace().events()) {
    if (ev.parent >= 0 || ev.status != EventStatus::Changed || wb.builds().isCodegen(ev.id)) continue;
    for (Side side : {Side::Before, Side::After}) {
      try {
        auto start = Clock::now();
        graph::EventGraphs g = graph::eventGraphs(wb, ev.id, "main");
        std::string whole = graph::graphText(g, side, graph::GraphFormat::Svg, 0.0);
        graph::SvgPages paged = graph::paginateSvg(whole);
        const std::string& svg = paged.svg;
        double ms = msSince(start);
        const auto& fg = g.graph(side);
        graph::CollapseState c = graph::defaultCollapse(*fg);
        size_t collapsed = 0;
        for (bool b : c) collapsed += b;
        // The same graph without linear chains or constant expressions folded, for comparison.
        graph::BuildOptions flat;
        flat.foldChainsAbove = SIZE_MAX;
        flat.foldConstantExprs = false;
        auto unfolded = graph::buildGraph(side == Side::Before ? ev.before : ev.after, "main", flat);
        std::string flatSvg = graph::renderSvg(*unfolded, graph::defaultCollapse(*unfolded), nullptr);
        std::printf("%-28s %-7s %6zu %6zu %9zu %12s %6d %12s %9.1f %8.0f %14s\n", ("#" + std::to_string(ev.id) + " " + ev.pass).c_str(),
                    side == Side::Before ? "before" : "after", fg->laidOutCount(), fg->clusters.size(), collapsed, svgSize(whole).c_str(),
                    paged.pages, svgSize(svg).c_str(), static_cast<double>(svg.size()) / 1024.0, ms, svgSize(flatSvg).c_str());
      } catch (const std::exception& e) {
        std::printf("%-28s %-7s %s\n", ("#" + std::to_string(ev.id) + " " + ev.pass).c_str(), side == Side::Before ? "before" : "after",
                    e.what());
      }
    }
  }

  auto start = Clock::now();
  ReportStats stats;
  std::string html = renderHtmlReport(wb, reportOptions(wb), &stats);
  std::printf("\nreport: %.2f MB (%zu bytes), %d diffs, %d texts, %d graphs, %.0f ms\n", static_cast<double>(html.size()) / (1024.0 * 1024.0),
              html.size(), stats.diffs, stats.texts, stats.graphs, msSince(start));
  return 0;
}
