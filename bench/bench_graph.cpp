// Figures for graph/ (prints, asserts nothing): building the graph of @main,
// its Graphviz dot layout on the layout worker (wall time from the request to
// the finished layout), and SVG rendering, for synthetic CNN-like functions of
// about 700 and 5,000 nodes, before and after FuseOps (boxes).
// Usage: build/bench/bench_graph [OPS...]   (default: 600 4300, ~700 and ~5,000 nodes)
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/synthetic_model.h"
#include "core/analysis/type_infer.h"
#include "core/pass/pass.h"
#include "core/text/parser.h"
#include "graph/graph_export.h"
#include "graph/graphviz_layout.h"
#include "graph/layout_service.h"
#include "passes/registry.h"

using namespace passlab;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

/// CPU time of the process (all threads): on a loaded machine the wall time of
/// a layout says more about the other processes than about dot.
double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

void measure(const char* what, const IRModule& mod, bool svg) {
  auto t0 = Clock::now();
  auto g = graph::buildGraph(mod, "main");
  double buildMs = msSince(t0);
  graph::CollapseState collapse = graph::defaultCollapse(*g);
  size_t collapsed = 0;
  for (bool c : collapse) collapsed += c;
  graph::LayoutService service;
  t0 = Clock::now();
  double c0 = cpuMs();
  auto first = service.request(g, collapse);
  double requestMs = msSince(t0);
  service.waitIdle();
  double layoutMs = msSince(t0), layoutCpu = cpuMs() - c0;
  auto done = service.request(g, collapse);
  std::printf("  %-22s %5zu nodes %5zu edges %4zu boxes (%zu collapsed): build %.1f ms, request %.3f ms (returns %s), "
              "layout on the worker %.0f ms wall, %.0f ms CPU\n",
              what, g->laidOutCount(), g->edges.size(), g->clusters.size(), collapsed, buildMs, requestMs,
              first.layout ? "the layout" : "pending", layoutMs, layoutCpu);
  (void)done;
  if (!g->clusters.empty()) {
    graph::CollapseState open(g->clusters.size(), false);
    t0 = Clock::now();
    c0 = cpuMs();
    graph::Layout l = graph::layoutGraph(*g, open);
    std::printf("  %-22s every box expanded: layout %.0f ms wall, %.0f ms CPU (%zu boxes drawn)\n", "", msSince(t0), cpuMs() - c0,
                l.boxes.size());
  }
  if (svg) {
    t0 = Clock::now();
    c0 = cpuMs();
    std::string text = graph::renderSvg(*g, collapse, nullptr);
    std::printf("  %-22s SVG (layout + render) %.0f ms wall, %.0f ms CPU (%zu KB)\n", "", msSince(t0), cpuMs() - c0, text.size() / 1024);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {600, 4300};
  PassRegistry registry;
  registerBuiltinPasses(registry);
  for (size_t ops : sizes) {
    std::printf("synthetic model, %zu ops in @main\n", ops);
    IRModule mod = inferTypes(parseModule(bench::syntheticModelText(ops), "synthetic.relay"));
    measure("before FuseOps:", mod, ops <= 1000);
    auto ctx = PassContext::create("bench");
    IRModule fused = runPass(*registry.create("FuseOps"), mod, *ctx);
    measure("after FuseOps:", fused, ops <= 1000);
  }
  return 0;
}
