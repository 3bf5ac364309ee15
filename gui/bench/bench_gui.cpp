// Figures for passlab-gui (run under Xvfb with Mesa; prints, asserts nothing):
//  1. frame time (median, p99, max) over 600 frames while scrolling the IR
//     diff of the 100k-op synthetic model (mouse wheel over the IR view);
//  2. time from a step key (F10) to the finished new frame on the 10k-op
//     model: steps that run a pass, steps back, and steps that replay;
//  3. (`bench_gui graph [OPS]`) the Graph panel on a ~5,000-node function:
//     frame times while its layout runs on the worker, then while panning it.
// Usage: xvfb-run -a -s "-screen 0 1600x1000x24" build/gui/bench_gui [OPS_SCROLL] [OPS_STEP]
//        xvfb-run -a -s "-screen 0 1600x1000x24" build/gui/bench_gui graph [OPS]
// The graph bench also prints the pixels the rasteriser shades in the last
// frame, by window; PASSLAB_BENCH_SHOT=FILE.png writes that frame, and
// PASSLAB_BENCH_CMD="gui panel console" (console commands, separated by ';')
// runs before the panning starts (with the Console tab in front: the window
// without the graph); PASSLAB_BENCH_DENSE=1 pans from the middle of the graph
// rather than its top; PASSLAB_BENCH_PAN=before drags the before canvas.
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/synthetic_model.h"
#include "gui/app/app.h"

namespace {

using Clock = std::chrono::steady_clock;
using passlab::gui::Action;
using passlab::gui::GuiApp;

double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

struct Stats {
  double median = 0, p99 = 0, max = 0, mean = 0;
};

Stats statsOf(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.median = v[v.size() / 2];
  s.p99 = v[std::min(v.size() - 1, static_cast<size_t>(v.size() * 0.99))];
  s.max = v.back();
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  return s;
}

/// Per-frame samples: wall time, the UI's share, and this process's CPU time
/// (all threads, llvmpipe's included), which says how much of the wall time
/// was spent waiting for a core on a loaded machine.
struct FrameSamples {
  std::vector<double> wall, ui, cpu, uiCpu;
  /// The GL side (draw calls, glFinish) and what ImGui handed it: vertices, draw commands.
  std::vector<double> render, vertices, commands;
  /// Pixels redrawn (the damaged part of the window's retained picture).
  std::vector<double> redrawn;
};

double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/// Pixels the rasteriser shades for the last frame's draw data (each
/// triangle's area, scaled by the part of its bounding box inside its clip
/// rectangle), in total and by draw list.
double shadedPixels(const ImDrawData* dd, bool print = false) {
  double total = 0;
  if (!dd) return 0;
  for (int l = 0; l < dd->CmdListsCount; ++l) {
    const ImDrawList* list = dd->CmdLists[l];
    double listArea = 0;
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      if (cmd.UserCallback) continue;
      for (unsigned i = 0; i + 2 < cmd.ElemCount; i += 3) {
        const ImDrawVert* v[3];
        for (int k = 0; k < 3; ++k) v[k] = &list->VtxBuffer[static_cast<int>(cmd.VtxOffset + list->IdxBuffer[static_cast<int>(cmd.IdxOffset + i + k)])];
        double area = std::abs((v[1]->pos.x - v[0]->pos.x) * (v[2]->pos.y - v[0]->pos.y) - (v[2]->pos.x - v[0]->pos.x) * (v[1]->pos.y - v[0]->pos.y)) / 2;
        float x0 = std::min({v[0]->pos.x, v[1]->pos.x, v[2]->pos.x}), x1 = std::max({v[0]->pos.x, v[1]->pos.x, v[2]->pos.x});
        float y0 = std::min({v[0]->pos.y, v[1]->pos.y, v[2]->pos.y}), y1 = std::max({v[0]->pos.y, v[1]->pos.y, v[2]->pos.y});
        double bw = std::max(1e-3f, x1 - x0), bh = std::max(1e-3f, y1 - y0);
        double iw = std::max(0.f, std::min(x1, cmd.ClipRect.z) - std::max(x0, cmd.ClipRect.x));
        double ih = std::max(0.f, std::min(y1, cmd.ClipRect.w) - std::max(y0, cmd.ClipRect.y));
        listArea += area * std::min(1.0, iw / bw) * std::min(1.0, ih / bh);
      }
    }
    if (print) std::printf("    %-40s %9.0f px, %6d vertices\n", list->_OwnerName ? list->_OwnerName : "?", listArea, list->VtxBuffer.Size);
    total += listArea;
  }
  return total;
}

/// One frame, finished: glFinish makes the software rasterizer's work part of the figure.
double timedFrame(GuiApp& app, FrameSamples* samples = nullptr) {
  double c0 = cpuMs();
  auto t0 = Clock::now();
  app.frame();
  auto tGl = Clock::now();
  glFinish();
  double wall = msSince(t0);
  if (samples) {
    // renderMs is the draw calls and the swap; glFinish's wait for the rasteriser is added.
    samples->render.push_back(app.lastFrameTiming().renderMs + msSince(tGl));
    const ImDrawData* dd = ImGui::GetDrawData();
    double cmds = 0;
    if (dd)
      for (int i = 0; i < dd->CmdListsCount; ++i) cmds += dd->CmdLists[i]->CmdBuffer.Size;
    samples->vertices.push_back(dd ? dd->TotalVtxCount : 0);
    samples->commands.push_back(cmds);
    samples->redrawn.push_back(static_cast<double>(app.lastRedrawnPixels()));
    samples->wall.push_back(wall);
    samples->ui.push_back(app.lastFrameTiming().uiMs);
    samples->cpu.push_back(cpuMs() - c0);
    samples->uiCpu.push_back(app.lastFrameTiming().uiCpuMs);
  }
  return wall;
}

passlab::gui::AppOptions benchOptions(const std::string& stateDir) {
  passlab::gui::AppOptions o;
  o.width = 1600;
  o.height = 1000;
  o.vsync = false;  // measure the work, not the refresh rate
  o.noRestore = true;
  o.stateDir = stateDir;
  return o;
}

void loadSynthetic(GuiApp& app, size_t ops, const std::string& pipeline) {
  auto t0 = Clock::now();
  app.session().workbench().loadText(passlab::bench::syntheticModelText(ops), "synthetic-" + std::to_string(ops) + ".relay");
  app.session().applyPipeline(pipeline);
  std::printf("  loaded %zu ops in %.0f ms\n", ops, msSince(t0));
}

int scrollBench(const std::string& stateDir, size_t ops) {
  GuiApp app(benchOptions(stateDir));
  std::string error;
  if (!app.init(&error)) {
    std::fprintf(stderr, "bench_gui: %s\n", error.c_str());
    return 1;
  }
  std::printf("OpenGL: %s | %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
              reinterpret_cast<const char*>(glGetString(GL_VERSION)));
  std::printf("scrolling the IR diff of the %zu-op model (1600x1000)\n", ops);
  loadSynthetic(app, ops, "InferType,SimplifyExpr");
  auto t0 = Clock::now();
  app.session().perform(Action::StepOver);
  app.session().perform(Action::StepOver);  // SimplifyExpr: transpose pairs removed all over @main
  const auto& diff = app.session().irDiff();
  std::printf("  at %s: %zu rows (+%zu -%zu ~%zu), stepped in %.0f ms\n", app.session().traceModel().position.c_str(),
              diff.visibleRows().size(), diff.addedCount(), diff.removedCount(), diff.changedCount(), msSince(t0));
  // Park the mouse over the IR view and turn the wheel every frame.
  int direction = -1;
  app.beforeNewFrame = [&] {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(1600 * 0.62f, 1000 * 0.40f);
    io.MouseWheel = 3.f * static_cast<float>(direction);
  };
  for (int i = 0; i < 30; ++i) timedFrame(app);  // warm-up: fonts, first layout
  int firstRow = app.window().irTopRow();
  FrameSamples samples;
  for (int i = 0; i < 600; ++i) timedFrame(app, &samples);
  int lastRow = app.window().irTopRow();
  Stats s = statsOf(samples.wall), ui = statsOf(samples.ui), cpu = statsOf(samples.cpu);
  std::printf("  600 frames, wall: median %.2f ms, p99 %.2f ms, max %.2f ms; top row %d -> %d\n", s.median, s.p99, s.max,
              firstRow, lastRow);
  std::printf("  of which UI (input, panels, ImGui::Render): median %.2f ms, p99 %.2f ms\n", ui.median, ui.p99);
  std::printf("  process CPU per frame (all threads): median %.2f ms, p99 %.2f ms\n", cpu.median, cpu.p99);
  app.beforeNewFrame = nullptr;
  app.shutdown();
  return lastRow > firstRow ? 0 : 1;
}

int stepBench(const std::string& stateDir, size_t ops) {
  GuiApp app(benchOptions(stateDir));
  std::string error;
  if (!app.init(&error)) {
    std::fprintf(stderr, "bench_gui: %s\n", error.c_str());
    return 1;
  }
  std::printf("step key -> new frame on the %zu-op model\n", ops);
  const std::string pipeline =
      "InferType,SimplifyExpr,EliminateCommonSubexpr,DeadCodeElimination,Inline,InferType,SimplifyExpr,DeadCodeElimination";
  loadSynthetic(app, ops, pipeline);
  for (int i = 0; i < 10; ++i) timedFrame(app);
  int pressKey = -1;
  app.beforeNewFrame = [&] {
    ImGuiIO& io = ImGui::GetIO();
    for (int k : {passlab::gui::keys::kF10, passlab::gui::keys::kBackspace}) io.KeysDown[k] = k == pressKey;
  };
  // One key press: the frame that sees it does the move and draws the result.
  // Each sample: the whole frame (wall), and the part spent in the move plus the
  // rebuild of the view models (GuiSession::lastChangeMs).
  struct Sample {
    std::vector<double> frame, change;
  };
  auto press = [&](int key, Sample& into) {
    pressKey = key;
    into.frame.push_back(timedFrame(app));
    into.change.push_back(app.session().lastChangeMs());
    pressKey = -1;
    timedFrame(app);  // key released
  };
  const size_t passes = app.session().workbench().pipelinePasses().size();
  Sample run, back, replay;
  for (size_t i = 0; i < passes; ++i) press(passlab::gui::keys::kF10, run);
  for (size_t i = 0; i < passes; ++i) press(passlab::gui::keys::kBackspace, back);
  for (size_t i = 0; i < passes; ++i) press(passlab::gui::keys::kF10, replay);
  auto report = [](const char* what, const Sample& v) {
    Stats f = statsOf(v.frame), c = statsOf(v.change);
    std::printf("  %-26s n=%zu key->frame median %.1f ms, max %.1f ms | move+models median %.1f ms, max %.1f ms\n", what,
                v.frame.size(), f.median, f.max, c.median, c.max);
  };
  report("F10 running a pass:", run);
  report("Backspace (back):", back);
  report("F10 replaying (recorded):", replay);
  std::printf("  cursor at the end: %s\n", app.session().traceModel().position.c_str());
  app.beforeNewFrame = nullptr;
  app.shutdown();
  return 0;
}

int graphBench(const std::string& stateDir, size_t ops) {
  GuiApp app(benchOptions(stateDir));
  std::string error;
  if (!app.init(&error)) {
    std::fprintf(stderr, "bench_gui: %s\n", error.c_str());
    return 1;
  }
  std::printf("the Graph panel on the %zu-op model (1600x1000); OpenGL: %s; GLX_EXT_buffer_age %d, GLX_MESA_copy_sub_buffer %d\n", ops,
              reinterpret_cast<const char*>(glGetString(GL_RENDERER)), glfwExtensionSupported("GLX_EXT_buffer_age"),
              glfwExtensionSupported("GLX_MESA_copy_sub_buffer"));
  loadSynthetic(app, ops, "InferType,SimplifyExpr");
  app.session().perform(Action::StepOver);
  app.session().perform(Action::StepOver);
  for (int i = 0; i < 5; ++i) timedFrame(app);
  // Open the panel: its first frame asks for the layout, which runs on the worker.
  app.session().runCommand("gui graph size 62", false);
  app.session().runCommand("gui graph follow off", false);
  auto& model = app.session().graphModel();
  const auto& after = model.side(passlab::Side::After);
  std::printf("  @main after %s: %zu nodes, %zu edges\n", app.session().traceModel().position.c_str(),
              after.graph ? after.graph->laidOutCount() : 0, after.graph ? after.graph->edges.size() : 0);
  FrameSamples during;
  auto t0 = Clock::now();
  while (msSince(t0) < 120000) {
    timedFrame(app, &during);
    if (!model.pending() && model.side(passlab::Side::After).layout && model.side(passlab::Side::Before).layout) break;
  }
  double layoutWall = msSince(t0);
  Stats d = statsOf(during.wall), dui = statsOf(during.ui);
  std::printf("  layouts of both sides ready after %.0f ms, %zu frames drawn meanwhile: wall median %.2f ms, p99 %.2f ms; "
              "UI median %.2f ms, p99 %.2f ms, max %.2f ms\n",
              layoutWall, during.wall.size(), d.median, d.p99, dui.median, dui.p99, dui.max);
  if (after.layout) std::printf("  dot layout of the after side: %.0f ms\n", after.layout->ms);
  // Zoom to a readable scale and drag across the after canvas.
  model.side(passlab::Side::After).camera.zoom = 0.8f;
  model.side(passlab::Side::Before).camera.zoom = 0.8f;
  // PASSLAB_BENCH_PAN=before drags the before canvas instead of the after one.
  const char* panSide = std::getenv("PASSLAB_BENCH_PAN");
  const float panX = panSide && std::string(panSide) == "before" ? 0.25f : 0.75f;
  int frame = 0;
  app.beforeNewFrame = [&] {
    ImGuiIO& io = ImGui::GetIO();
    float phase = static_cast<float>(frame % 200) / 200.f;
    io.MousePos = ImVec2(1600 * panX + 150.f * std::sin(phase * 6.2832f), 1000 * 0.62f + 120.f * phase);
    io.MouseDown[0] = frame % 200 != 199;
    ++frame;
  };
  if (const char* cmds = std::getenv("PASSLAB_BENCH_CMD")) {
    std::string rest = cmds;
    for (size_t semi; !rest.empty(); rest = semi == std::string::npos ? "" : rest.substr(semi + 1)) {
      semi = rest.find(';');
      app.session().runCommand(rest.substr(0, semi), false);
      timedFrame(app);
    }
  }
  for (int i = 0; i < 20; ++i) timedFrame(app);
  const passlab::Side panned = panX < 0.5f ? passlab::Side::Before : passlab::Side::After;
  // PASSLAB_BENCH_DENSE=1 starts the panned canvas on its middle box, inside
  // the chain of ops rather than the row of parameters at the top.
  if (std::getenv("PASSLAB_BENCH_DENSE") && model.side(panned).layout && !model.side(panned).layout->boxes.empty()) {
    const auto& boxes = model.side(panned).layout->boxes;
    model.centreAt(panned, boxes[boxes.size() / 2].x, boxes[boxes.size() / 2].y);
    for (int i = 0; i < 3; ++i) timedFrame(app);
  }
  float camY0 = model.side(panned).camera.y;
  FrameSamples pan;
  for (int i = 0; i < 600; ++i) timedFrame(app, &pan);
  std::printf("  shaded pixels of the last frame: %.0f\n", shadedPixels(ImGui::GetDrawData(), true));
  if (const char* shot = std::getenv("PASSLAB_BENCH_SHOT")) {
    app.session().screenshotRequests().push_back(shot);
    timedFrame(app);
  }
  Stats p = statsOf(pan.wall), pui = statsOf(pan.ui), pcpu = statsOf(pan.cpu), puc = statsOf(pan.uiCpu);
  Stats pr = statsOf(pan.render), pv = statsOf(pan.vertices), pc = statsOf(pan.commands), pd = statsOf(pan.redrawn);
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) < 0) load[0] = -1;
  std::printf("  panning: GL side (draw calls, swap, glFinish) median %.2f ms, p99 %.2f ms; ImGui vertices median %.0f, max %.0f; "
              "draw commands median %.0f; pixels redrawn median %.0f, max %.0f; load average %.2f\n",
              pr.median, pr.p99, pv.median, pv.max, pc.median, pd.median, pd.max, load[0]);
  std::printf("  panning, 600 frames: wall median %.2f ms, p99 %.2f ms, max %.2f ms; UI median %.2f ms, p99 %.2f ms, max %.2f ms; "
              "UI thread CPU median %.2f ms, p99 %.2f ms; process CPU median %.2f ms, p99 %.2f ms (camera moved %.0f pt)\n",
              p.median, p.p99, p.max, pui.median, pui.p99, pui.max, puc.median, puc.p99, pcpu.median, pcpu.p99,
              std::abs(model.side(panned).camera.y - camY0));
  app.beforeNewFrame = nullptr;
  app.shutdown();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path graphDir = std::filesystem::temp_directory_path() / ("passlab-bench-gui-" + std::to_string(::getpid()));
  if (argc > 1 && std::string(argv[1]) == "graph") {
    int status = graphBench(graphDir.string(), argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 4300);
    std::error_code ec;
    std::filesystem::remove_all(graphDir, ec);
    return status;
  }
  size_t scrollOps = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
  size_t stepOps = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 10000;
  std::filesystem::path stateDir = std::filesystem::temp_directory_path() / ("passlab-bench-gui-" + std::to_string(::getpid()));
  int status = scrollBench(stateDir.string(), scrollOps);
  status |= stepBench(stateDir.string(), stepOps);
  std::error_code ec;
  std::filesystem::remove_all(stateDir, ec);
  return status;
}
