// The real passlab-gui under Xvfb: a scripted session, a screenshot read back
// with stb_image and checked (size, not blank, the diff colours present), and
// the session file surviving a SIGKILL and being restored at the next start.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "bench/generated_model.h"
#include "graph/graph_style.h"
#include "gui/model/gui_session.h"
#include "tests/test_util.h"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb/stb_image.h>

using namespace passlab;
using passlab::testing::readFile;
using namespace passlab::gui;
namespace fs = std::filesystem;

namespace {

const std::string kExamples = std::string(PASSLAB_SOURCE_DIR) + "/examples/";

struct TempDir {
  fs::path path;
  TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() / ("passlab-gui-app-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Runs `command` (a shell command line) under a fresh X server; returns the exit status.
int underXvfb(const std::string& command, const fs::path& log) {
  std::string line = "xvfb-run -a -s '-screen 0 1600x1000x24' sh -c " + quote(command) + " > " + quote(log.string()) + " 2>&1";
  int status = std::system(line.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// A decoded PNG.
struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
  /// How many pixels have exactly this colour.
  size_t count(Rgba c) const {
    size_t n = 0;
    for (size_t i = 0; i + 2 < rgb.size(); i += 3) n += rgb[i] == c.r && rgb[i + 1] == c.g && rgb[i + 2] == c.b;
    return n;
  }
  size_t distinctColours() const {
    std::map<uint32_t, int> seen;
    for (size_t i = 0; i + 2 < rgb.size(); i += 3) seen[(rgb[i] << 16) | (rgb[i + 1] << 8) | rgb[i + 2]]++;
    return seen.size();
  }
};

Image readPng(const fs::path& p) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(p.string().c_str(), &img.width, &img.height, &channels, 3);
  if (!data) return img;
  img.rgb.assign(data, data + static_cast<size_t>(img.width) * img.height * 3);
  stbi_image_free(data);
  return img;
}

}  // namespace

TEST_CASE("passlab-gui under Xvfb: scripted steps and a screenshot with the diff colours", "[gui][app]") {
  TempDir dir;
  const fs::path script = dir.path / "steps.plc";
  std::ofstream(script) << "# step onto SimplifyExpr and show its diff\n"
                           "step 2\n"
                           "gui panel diagnostics\n"
                           "gui wait 2\n";
  const fs::path png = dir.path / "shot.png";
  const std::string pipeline = "InferType,SimplifyExpr,DeadCodeElimination";
  std::string cmd = std::string(PASSLAB_GUI_BINARY) + " " + quote(kExamples + "cnn_block.relay") + " --pass-pipeline=" +
                    pipeline + " --script " + quote(script.string()) + " --screenshot " + quote(png.string()) +
                    " --frames 8 --size 1600x1000 --state-dir " + quote((dir.path / "state").string());
  int status = underXvfb(cmd, dir.path / "log.txt");
  INFO(readFile(dir.path / "log.txt"));
  REQUIRE(status == 0);
  Image img = readPng(png);
  REQUIRE(img.width == 1600);
  REQUIRE(img.height == 1000);
  // Not blank: a real UI has text, many anti-aliased shades.
  CHECK(img.distinctColours() > 50);
  // The same step in-process says which kinds of rows the diff has; each must be on screen.
  GuiSession reference;
  REQUIRE(reference.openModel(kExamples + "cnn_block.relay"));
  REQUIRE(reference.applyPipeline(pipeline));
  reference.runCommand("step 2");
  const IrDiffModel& diff = reference.irDiff();
  REQUIRE(diff.changedCount() + diff.removedCount() + diff.addedCount() > 0);
  if (diff.changedCount()) CHECK(img.count(colourOf(ColourRole::DiffChangedBg)) > 200);
  if (diff.removedCount()) CHECK(img.count(colourOf(ColourRole::DiffRemovedBg)) > 200);
  if (diff.addedCount()) CHECK(img.count(colourOf(ColourRole::DiffAddedBg)) > 200);
  // The cursor row of the trace and the position bar.
  CHECK(img.count(colourOf(ColourRole::CursorBg)) > 500);
  // The session was saved where we said.
  auto saved = sessionFromJson(readFile(dir.path / "state" / "session.json"));
  REQUIRE(saved.has_value());
  CHECK(saved->pipeline == pipeline);
  CHECK(saved->modelPath == fs::absolute(kExamples + "cnn_block.relay").lexically_normal().string());
}

TEST_CASE("passlab-gui under Xvfb: frames that redraw only what changed show the pixels of whole redraws", "[gui][app][graph][damage]") {
  // Steps, graph zooms and pans, a scrolled IR view and a tab switch, one per
  // frame: each frame after the first redraws only its damaged rectangles
  // (retained_frame.h) under llvmpipe; PASSLAB_GUI_FULL_REDRAW draws every frame whole.
  TempDir dir;
  const fs::path script = dir.path / "views.plc";
  std::ofstream(script) << "step 2\n"
                           "gui graph\n"
                           "gui graph size 60\n"
                           "gui graph wait\n"
                           "gui graph zoom 60\n"
                           "gui wait 2\n"
                           "gui line 12\n"
                           "gui graph zoom 140\n"
                           "gui panel console\n"
                           "gui wait 2\n"
                           "gui panel graph\n"
                           "gui graph line 9 after\n"
                           "gui graph zoom 35\n"
                           "gui wait 3\n";
  auto shot = [&](const std::string& name, const std::string& env) {
    const fs::path png = dir.path / (name + ".png");
    std::string cmd = env + std::string(PASSLAB_GUI_BINARY) + " " + quote(kExamples + "cnn_block.relay") +
                      " --pass-pipeline=InferType,SimplifyExpr,FuseOps --script " + quote(script.string()) + " --screenshot " +
                      quote(png.string()) + " --frames 8 --size 1600x1000 --no-restore --state-dir " +
                      quote((dir.path / ("state-" + name)).string());
    int status = underXvfb(cmd, dir.path / (name + ".txt"));
    INFO(readFile(dir.path / (name + ".txt")));
    REQUIRE(status == 0);
    return readPng(png);
  };
  Image retained = shot("retained", "");
  Image whole = shot("whole", "PASSLAB_GUI_FULL_REDRAW=1 ");
  REQUIRE(retained.width == 1600);
  REQUIRE(whole.width == 1600);
  REQUIRE(retained.height == whole.height);
  // The bottom area (graph toolbar and canvases) holds no timings, which differ
  // between runs (the trace's pass times, the status line's frame time).
  const size_t from = static_cast<size_t>(whole.height * 45 / 100) * 1600 * 3, to = static_cast<size_t>(whole.height - 30) * 1600 * 3;
  size_t differing = 0;
  for (size_t i = from; i < to; i += 3)
    differing += retained.rgb[i] != whole.rgb[i] || retained.rgb[i + 1] != whole.rgb[i + 1] || retained.rgb[i + 2] != whole.rgb[i + 2];
  CHECK(differing == 0);
  CHECK(whole.distinctColours() > 50);
}

TEST_CASE("passlab-gui under Xvfb: a clicked remark highlights its line; the gutter and the Remarks tab show the kinds", "[gui][app][remarks]") {
  TempDir dir;
  const fs::path script = dir.path / "remarks.plc";
  // Seed 000 to the end; the top-level FuseOps is event #7; its second remark is a fused group.
  std::ofstream(script) << "run\n"
                           "goto 7\n"
                           "gui panel remarks\n"
                           "gui remark 2\n"
                           "gui wait 2\n";
  const fs::path png = dir.path / "remarks.png";
  const std::string pipeline = "InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps";
  std::string cmd = std::string(PASSLAB_GUI_BINARY) + " " + quote(kExamples + "seed000/cnn_fp32.relay") + " --pass-pipeline=" + pipeline +
                    " --script " + quote(script.string()) + " --screenshot " + quote(png.string()) +
                    " --frames 8 --size 1600x1000 --no-restore --state-dir " + quote((dir.path / "state").string());
  int status = underXvfb(cmd, dir.path / "log.txt");
  INFO(readFile(dir.path / "log.txt"));
  REQUIRE(status == 0);
  Image img = readPng(png);
  REQUIRE(img.width == 1600);
  // The same steps in-process: what the panel lists.
  GuiSession reference;
  REQUIRE(reference.openModel(kExamples + "seed000/cnn_fp32.relay"));
  REQUIRE(reference.applyPipeline(pipeline));
  reference.runCommand("run");
  reference.runCommand("goto 7");
  REQUIRE(reference.workbench().event(reference.view().selectedEvent).pass == "FuseOps");
  const RemarksModel& m = reference.remarksModel();
  REQUIRE(m.rows().size() > 2);
  // Missed and applied remarks on screen (gutter dots, the kind column, the filter boxes).
  CHECK(img.count(colourOf(ColourRole::SeverityWarning)) > 100);
  CHECK(img.count(colourOf(ColourRole::EventChanged)) > 100);
  // The clicked remark's line is highlighted in the IR view.
  CHECK(img.count(colourOf(ColourRole::DiagnosticLineBg)) > 2000);
}

TEST_CASE("passlab-gui: a SIGKILL loses nothing; the next start restores model, pipeline, breakpoints", "[gui][app]") {
  TempDir dir;
  const fs::path state = dir.path / "state";
  const fs::path script = dir.path / "setup.plc";
  std::ofstream(script) << "load " << kExamples << "cnn_block.relay\n"
                        << "pipeline InferType,SimplifyExpr\n"
                        << "break pass SimplifyExpr\n";
  // Runs until killed: no --frames, no --screenshot.
  std::string app = std::string(PASSLAB_GUI_BINARY) + " --script " + quote(script.string()) + " --state-dir " +
                    quote(state.string()) + " --no-restore";
  int status = underXvfb(app + " & pid=$!; sleep 4; kill -9 $pid; wait $pid; exit 0", dir.path / "log1.txt");
  INFO(readFile(dir.path / "log1.txt"));
  REQUIRE(status == 0);
  auto saved = sessionFromJson(readFile(state / "session.json"));
  REQUIRE(saved.has_value());
  CHECK(saved->pipeline == "InferType,SimplifyExpr");
  REQUIRE(saved->breakpoints.size() == 1);
  CHECK(saved->breakpoints[0].pattern == "SimplifyExpr");

  // The next start restores all of it; `run` stops at the restored breakpoint,
  // and the screenshot shows where.
  const fs::path script2 = dir.path / "run.plc";
  std::ofstream(script2) << "run\nbreak pass DeadCodeElimination\n";
  const fs::path png = dir.path / "restored.png";
  std::string again = std::string(PASSLAB_GUI_BINARY) + " --script " + quote(script2.string()) + " --state-dir " +
                      quote(state.string()) + " --screenshot " + quote(png.string()) + " --frames 5";
  status = underXvfb(again, dir.path / "log2.txt");
  INFO(readFile(dir.path / "log2.txt"));
  REQUIRE(status == 0);
  saved = sessionFromJson(readFile(state / "session.json"));
  REQUIRE(saved.has_value());
  REQUIRE(saved->breakpoints.size() == 2);  // the restored one plus the new one
  CHECK(saved->modelPath.find("cnn_block.relay") != std::string::npos);
  Image img = readPng(png);
  CHECK(img.width == 1600);
  CHECK(img.count(colourOf(ColourRole::Breakpoint)) > 10);
  // imgui.ini was written at exit, with passlab's layout section.
  CHECK(readFile(state / "imgui.ini").find("[Passlab][Layout]") != std::string::npos);
}

TEST_CASE("passlab-gui under Xvfb: the 400-op model's graph after FuseOps, loaded with passlab's options", "[gui][app][graph]") {
  // The 96x96 MobileNetV3 from ONNX (dynamic batch): after SimplifyInference and
  // FoldConstant, 408 nodes that FuseOps groups into 82 boxes.
  const std::string model = bench::generateMobileNetV3Model();
  REQUIRE_FALSE(model.empty());
  TempDir dir;
  const fs::path script = dir.path / "graph.plc";
  std::ofstream(script) << "step 4\n"
                           "gui graph\n"
                           "gui graph size 90\n"
                           "gui graph wait\n"
                           "gui wait 3\n";
  const fs::path png = dir.path / "graph.png";
  // The load options are passlab's: without --input-shape the model does not load.
  std::string cmd = std::string(PASSLAB_GUI_BINARY) + " " + quote(model) +
                    " --input-shape input=1,3,96,96 --pass-pipeline=InferType,SimplifyInference,FoldConstant,FuseOps --opt-level=3" +
                    " --script " + quote(script.string()) + " --screenshot " + quote(png.string()) +
                    " --frames 8 --size 1600x1000 --no-restore --state-dir " + quote((dir.path / "state").string());
  int status = underXvfb(cmd, dir.path / "log.txt");
  INFO(readFile(dir.path / "log.txt"));
  REQUIRE(status == 0);
  Image img = readPng(png);
  REQUIRE(img.width == 1600);
  REQUIRE(img.height == 1000);
  CHECK(img.distinctColours() > 50);
  // Both sides draw boxes: collapsed chains (before: runs of ops; after: runs of
  // fused boxes) and, after, the fused groups FuseOps made.
  auto fill = [](graph::ClusterKind kind) {
    graph::Colour c = graph::clusterFill(kind);
    return Rgba{c.r, c.g, c.b, 255};
  };
  const Rgba chain = fill(graph::ClusterKind::Chain), fused = fill(graph::ClusterKind::Fused);
  CHECK(img.count(chain) > 20000);
  CHECK(img.count(fused) > 5000);
  // Not a thin strip: the boxes fill the height of the graph area on each side,
  // at a zoom where a box is wider than 150 px.
  auto extent = [&](Rgba c, int x0, int x1) {
    int top = img.height, bottom = -1, widest = 0;
    for (int y = 0; y < img.height; ++y) {
      int run = 0;
      for (int x = x0; x < x1; ++x) {
        const unsigned char* p = &img.rgb[(static_cast<size_t>(y) * img.width + x) * 3];
        bool hit = p[0] == c.r && p[1] == c.g && p[2] == c.b;
        run = hit ? run + 1 : 0;
        widest = std::max(widest, run);
        if (hit) top = std::min(top, y), bottom = std::max(bottom, y);
      }
    }
    return std::array<int, 3>{top, bottom, widest};
  };
  auto [lTop, lBottom, lWidest] = extent(chain, 0, img.width / 2);
  auto [rTop, rBottom, rWidest] = extent(fused, img.width / 2, img.width);
  CHECK(lBottom - lTop > 500);
  CHECK(rBottom - rTop > 400);
  CHECK(lWidest > 150);
  CHECK(rWidest > 100);
}

TEST_CASE("passlab-gui under Xvfb: a long build shows a progress bar with a Cancel button over the last frame", "[gui][app][progress]") {
  // The 400-op model lowered: LLVM compiles about 80 kernels, seconds of work.
  const std::string model = bench::generateMobileNetV3Model();
  REQUIRE_FALSE(model.empty());
  TempDir dir;
  const fs::path script = dir.path / "build.plc";
  const fs::path png = dir.path / "progress.png";
  std::ofstream(script) << "run\n"
                           "gui screenshot-progress " << png.string() << "\n"
                           "build\n";
  std::string cmd = std::string(PASSLAB_GUI_BINARY) + " " + quote(model) +
                    " --input-shape input=1,3,96,96 --pass-pipeline=relay.default --opt-level=3" + " --script " + quote(script.string()) +
                    " --frames 4 --size 1600x1000 --no-restore --state-dir " + quote((dir.path / "state").string());
  int status = underXvfb(cmd, dir.path / "log.txt");
  INFO(readFile(dir.path / "log.txt"));
  REQUIRE(status == 0);
  // The frame was written while the build ran: the bar's fill is on it.
  Image img = readPng(png);
  REQUIRE(img.width == 1600);
  REQUIRE(img.height == 1000);
  CHECK(img.distinctColours() > 20);
  CHECK(img.count(colourOf(ColourRole::TimingBar)) > 50);
}
