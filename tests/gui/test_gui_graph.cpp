// The Graph panel's model at scale: chain boxes as the GUI handles them
// (selection inside a collapsed chain, expanding one) and the minimap
// (placement, the viewport rectangle, moving the view from it), plus the
// minimap drawn in a headless frame.
#include <catch2/catch.hpp>

#include <cmath>

#include "gui/model/gui_session.h"
#include "gui/panels/main_window.h"

using namespace passlab;
using namespace passlab::gui;

namespace {

/// `blocks` residual blocks: conv2d → add → relu (a chain), then the block's input added back.
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

/// The graph model of a session on the residual model, with laid-out sides on a w × h canvas.
GraphViewModel& laidOut(GuiSession& s, float w, float h) {
  s.workbench().loadText(residualModel(60), "residual.relay");
  REQUIRE(s.applyPipeline("InferType"));
  s.perform(Action::StepOver);
  GraphViewModel& g = s.graphModel();
  REQUIRE(g.message().empty());
  for (Side side : {Side::Before, Side::After}) {
    g.side(side).canvasW = w;
    g.side(side).canvasH = h;
  }
  g.poll();
  g.layouts().waitIdle();
  g.poll();
  REQUIRE(g.side(Side::After).layout);
  return g;
}

}  // namespace

TEST_CASE("Graph model: a node inside a collapsed chain is shown by the chain's box until the chain opens", "[gui][graph][chains]") {
  GuiSession s;
  GraphViewModel& g = laidOut(s, 800, 500);
  const GraphSide& side = g.side(Side::After);
  const graph::FunctionGraph& fg = *side.graph;
  // The first conv2d sits in a chain, which starts collapsed.
  int conv = -1;
  for (size_t i = 0; i < fg.nodes.size(); ++i)
    if (fg.nodes[i].title == "nn.conv2d") {
      conv = static_cast<int>(i);
      break;
    }
  REQUIRE(conv >= 0);
  const int chain = fg.nodes[static_cast<size_t>(conv)].cluster;
  REQUIRE(chain >= 0);
  REQUIRE(fg.clusters[static_cast<size_t>(chain)].kind == graph::ClusterKind::Chain);
  REQUIRE(side.collapse[static_cast<size_t>(chain)]);
  GraphPick pick = g.pickOf(Side::After, fg.nodes[static_cast<size_t>(conv)].ir);
  REQUIRE(pick == GraphPick{Side::After, conv});
  g.select(pick);
  const int box = g.boxOf(pick);
  REQUIRE(box >= 0);
  CHECK(side.layout->boxes[static_cast<size_t>(box)].cluster == chain);
  // Opening the chain (a click on its box) lays its ops out one by one.
  g.toggle(Side::After, chain);
  g.layouts().waitIdle();
  g.poll();
  const int own = g.boxOf(pick);
  REQUIRE(own >= 0);
  CHECK(g.side(Side::After).layout->boxes[static_cast<size_t>(own)].node == conv);
}

TEST_CASE("Graph model: the minimap maps a long drawing into the canvas's corner and follows the camera", "[gui][graph][minimap]") {
  GuiSession s;
  GraphViewModel& g = laidOut(s, 800, 500);
  GraphSide& side = g.side(Side::After);
  const graph::Layout& L = *side.layout;
  g.fit(Side::After);
  // Fit stops at a legible zoom: the drawing is longer than the canvas, so there is a minimap.
  REQUIRE(L.height * side.camera.zoom > side.canvasH);
  std::optional<GraphMinimap> m = g.minimap(Side::After);
  REQUIRE(m.has_value());
  // In the bottom-right corner, within a quarter of the width and the canvas's height, the drawing's proportions kept.
  CHECK(m->x1 <= side.canvasW);
  CHECK(m->y1 <= side.canvasH);
  CHECK(m->x0 >= side.canvasW * 0.75f - 1);
  CHECK(m->y0 >= 0);
  CHECK(m->x1 - m->x0 <= side.canvasW / 4 + 0.5f);
  CHECK(std::fabs((m->x1 - m->x0) / (m->y1 - m->y0) - L.width / L.height) < 0.01f);
  // The viewport rectangle: Fit anchors a long graph at its top (a little margin
  // above, clipped), and the rectangle ends canvasH / zoom points below the camera.
  CHECK(side.camera.y <= 0);
  CHECK(m->view.y0 == Approx(m->y0).margin(0.5));
  CHECK(m->view.y1 == Approx(m->toY(side.camera.y + side.canvasH / side.camera.zoom)).margin(0.5));
  CHECK(m->view.y1 < m->y0 + (m->y1 - m->y0) / 2);
  // A click at the minimap's bottom centres the view there.
  const float gx = m->graphX((m->x0 + m->x1) / 2), gy = m->graphY(m->y1 - 2);
  g.centreAt(Side::After, gx, gy);
  CHECK(side.camera.x + side.canvasW / 2 / side.camera.zoom == Approx(gx));
  CHECK(side.camera.y + side.canvasH / 2 / side.camera.zoom == Approx(gy));
  std::optional<GraphMinimap> moved = g.minimap(Side::After);
  REQUIRE(moved.has_value());
  CHECK(moved->view.y1 == Approx(moved->y1).margin(0.5));  // clipped at the drawing's end
  CHECK(moved->view.y0 > m->view.y1);
  // Zoomed out until the whole drawing is on screen: no minimap.
  g.focus(Side::After, GraphRect{0, 0, L.width, L.height}, 1.5f, 0.001f);
  CHECK_FALSE(g.minimap(Side::After).has_value());
}

TEST_CASE("The Graph panel draws the minimap's viewport for a long graph only", "[gui][graph][minimap][frames]") {
  ImGuiContext* ctx = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1600, 1000);
  io.DeltaTime = 1.f / 60.f;
  applyStyle();
  loadFonts(15.f);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(1)));
  {
    GuiSession s;
    MainWindow window(s);
    auto frame = [&] {
      ImGui::NewFrame();
      window.draw();
      ImGui::Render();
      return ImGui::GetDrawData();
    };
    // The viewport's outline colour (graph_panel.cpp), nowhere else in the window.
    const ImU32 outline = IM_COL32(255, 213, 74, 220);
    auto outlined = [&] {
      frame();
      s.graphModel().layouts().waitIdle();
      frame();
      ImDrawData* d = frame();
      size_t n = 0;
      for (int l = 0; l < d->CmdListsCount; ++l)
        for (const ImDrawVert& v : d->CmdLists[l]->VtxBuffer) n += v.col == outline;
      return n;
    };
    s.workbench().loadText(residualModel(60), "residual.relay");
    REQUIRE(s.applyPipeline("InferType"));
    s.perform(Action::StepOver);
    REQUIRE(s.runCommand("gui graph", false).ok());
    CHECK(outlined() > 0);
    // Zoomed out until each side's whole drawing is on screen, the minimap goes.
    GraphViewModel& g = s.graphModel();
    for (Side side : {Side::Before, Side::After}) {
      const graph::Layout& L = *g.side(side).layout;
      g.focus(side, GraphRect{0, 0, L.width, L.height}, 1.5f, 0.001f);
    }
    CHECK(outlined() == 0);
  }
  ImGui::DestroyContext(ctx);
}

TEST_CASE("Graph model: minimap dots merge into runs of one colour, larger boxes stay as they are", "[gui][graph][minimap]") {
  GraphMinimap m;
  m.x0 = 100, m.y0 = 50, m.x1 = 120, m.y1 = 250, m.scale = 0.01f;
  const uint32_t orange = 0xff2090e0, grey = 0xff8a7e78, red = 0xff3030e0;
  std::vector<MinimapDot> dots;
  // A chain: one orange dot per pixel row down x = 110, rows 60..159, a few
  // boxes per row (the same cell drawn again changes nothing).
  for (int y = 60; y < 160; ++y)
    for (int k = 0; k < 3; ++k) dots.push_back(MinimapDot{110.3f, static_cast<float>(y) + 0.2f, 1.f, 1.f, orange});
  // A grey row of parameters beside it, one run.
  for (int x = 100; x < 110; ++x) dots.push_back(MinimapDot{static_cast<float>(x), 55.f, 1.f, 1.f, grey});
  // A red dot over the chain takes its cell; a big box is kept as it is.
  dots.push_back(MinimapDot{110.f, 100.f, 1.f, 1.f, red});
  dots.push_back(MinimapDot{105.f, 200.f, 4.f, 3.f, grey});
  std::vector<MinimapRect> rects = minimapRects(m, dots);
  // Chain rows 60..99 and 101..159, the red cell, the grey run, the big box.
  REQUIRE(rects.size() == 5);
  auto has = [&](MinimapRect r) { return std::find(rects.begin(), rects.end(), r) != rects.end(); };
  CHECK(has(MinimapRect{109, 59, 111, 100, orange}));
  CHECK(has(MinimapRect{109, 99, 111, 101, red}));
  CHECK(has(MinimapRect{109, 100, 111, 160, orange}));
  CHECK(has(MinimapRect{99, 54, 110, 56, grey}));
  CHECK(rects.back() == MinimapRect{101, 197, 109, 203, grey});
}
