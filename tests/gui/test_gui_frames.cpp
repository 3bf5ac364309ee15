// Headless ImGui frames: an ImGui context without a window (display size set,
// font atlas built, NewFrame/Render), driving passlab-gui's real MainWindow
// and every panel on the shipped examples. Checks what reaches the draw lists
// (the diff colours, bounded work for big modules), keys, scrolling and the
// imgui.ini layout section.
#include <catch2/catch.hpp>
#include <imgui.h>

#include <algorithm>
#include <functional>
#include <set>

#include "bench/synthetic_model.h"
#include "gui/panels/main_window.h"

using namespace passlab;
using namespace passlab::gui;

namespace {

const std::string kExamples = std::string(PASSLAB_SOURCE_DIR) + "/examples/";

/// An ImGui context with no platform window or renderer: frames are built and
/// their draw data inspected, never rasterised.
class Headless {
 public:
  explicit Headless(ImVec2 size = ImVec2(1600, 1000)) {
    ctx_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = size;
    io.DeltaTime = 1.f / 60.f;
    applyStyle();
    loadFonts(15.f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(1)));
  }
  ~Headless() { ImGui::DestroyContext(ctx_); }
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;

  /// One frame of `window`; `input` may set keys and mouse before it starts.
  ImDrawData* frame(MainWindow& window, const std::function<void(ImGuiIO&)>& input = nullptr) {
    ImGuiIO& io = ImGui::GetIO();
    io.MouseWheel = 0;
    if (input) input(io);
    ImGui::NewFrame();
    window.draw();
    ImGui::Render();
    return ImGui::GetDrawData();
  }
  /// A key pressed in one frame and released in the next.
  void press(MainWindow& window, int key, bool shift = false, bool alt = false) {
    frame(window, [&](ImGuiIO& io) {
      io.KeysDown[key] = true;
      io.KeyShift = shift;
      io.KeyAlt = alt;
    });
    frame(window, [&](ImGuiIO& io) {
      io.KeysDown[key] = false;
      io.KeyShift = io.KeyAlt = false;
    });
  }

 private:
  ImGuiContext* ctx_;
};

/// Colours of every vertex drawn.
std::set<ImU32> vertexColours(const ImDrawData* data) {
  std::set<ImU32> colours;
  for (int i = 0; i < data->CmdListsCount; ++i)
    for (const ImDrawVert& v : data->CmdLists[i]->VtxBuffer) colours.insert(v.col);
  return colours;
}

bool hasColour(const ImDrawData* data, ColourRole role) { return vertexColours(data).count(imColour(role)) > 0; }

}  // namespace

TEST_CASE("Every panel draws with no model loaded", "[gui][frames]") {
  Headless h;
  GuiSession session;
  MainWindow window(session);
  for (size_t i = 0; i < kPanelCount; ++i) {
    session.view().showPanel(static_cast<PanelId>(i));
    h.frame(window);  // a tab selected in one frame shows its content from the next
    ImDrawData* data = h.frame(window);
    CHECK(data->TotalVtxCount > 0);
  }
  // The last panel shown (a bottom tab: every panel after the IR view is one).
  CHECK(session.view().activeTab == static_cast<PanelId>(kPanelCount - 1));
  // The open-file dialog lists the examples directory.
  window.openFileDialog();
  h.frame(window);
  ImDrawData* dialog = h.frame(window);
  bool popupDrawn = false;
  for (int i = 0; i < dialog->CmdListsCount; ++i) {
    const char* owner = dialog->CmdLists[i]->_OwnerName;
    popupDrawn |= owner && std::string(owner).find("Open model") != std::string::npos;
  }
  CHECK(popupDrawn);
}

TEST_CASE("Every panel draws at every event of cnn_block's pipeline", "[gui][frames]") {
  Headless h;
  GuiSession session;
  MainWindow window(session);
  REQUIRE(session.openModel(kExamples + "cnn_block.relay"));
  REQUIRE(session.applyPipeline("InferType,SimplifyExpr,EliminateCommonSubexpr,Inline,DeadCodeElimination"));
  session.perform(Action::Run);
  const int last = session.workbench().cursor();
  REQUIRE(last > 0);
  for (int ev = 0; ev <= last; ++ev) {
    session.selectEvent(ev);
    for (size_t p = static_cast<size_t>(PanelId::Diagnostics); p < kPanelCount; ++p) {
      session.view().showPanel(static_cast<PanelId>(p));
      h.frame(window);
      ImDrawData* data = h.frame(window);
      CHECK(data->TotalVtxCount > 0);
      CHECK(session.view().activeTab == static_cast<PanelId>(p));
    }
  }
}

TEST_CASE("The codegen panel draws a build recorded from the console, at the build and at each stage", "[gui][frames][codegen]") {
  Headless h;
  GuiSession session;
  MainWindow window(session);
  REQUIRE(session.openModel(kExamples + "cnn_block.relay"));
  REQUIRE(session.applyPipeline("InferType,SimplifyInference,FoldConstant,FuseOps,LambdaLifting,LegalizeOps"));
  session.perform(Action::Run);
  const int lowered = session.workbench().cursor();
  REQUIRE(session.runCommand("build").status == CommandStatus::Ok);
  const int build = session.workbench().cursor();
  REQUIRE(session.workbench().builds().isBuild(build));
  std::vector<int> shown = {lowered, build};
  for (int stage : session.workbench().event(build).children) shown.push_back(stage);
  session.view().showPanel(PanelId::Codegen);
  for (int ev : shown) {
    session.selectEvent(ev);
    h.frame(window);
    ImDrawData* data = h.frame(window);
    CHECK(data->TotalVtxCount > 0);
    CHECK(session.codegenModel().buildEvent == build);
    CHECK(session.codegenModel().stages.size() == session.workbench().event(build).children.size());
  }
}

TEST_CASE("The IR view draws the diff colours and the attribute marker", "[gui][frames][colour]") {
  Headless h;
  GuiSession session;
  MainWindow window(session);
  REQUIRE(session.openModel(kExamples + "cnn_block.relay"));
  REQUIRE(session.applyPipeline("InferType,SimplifyExpr,Inline"));
  ImDrawData* atLoad = h.frame(window);
  CHECK_FALSE(hasColour(atLoad, ColourRole::DiffRemovedBg));  // nothing changed at #0
  session.perform(Action::StepOver);
  session.perform(Action::StepOver);  // SimplifyExpr
  REQUIRE(session.workbench().event(session.view().selectedEvent).pass == "SimplifyExpr");
  ImDrawData* data = h.frame(window);
  const IrDiffModel& diff = session.irDiff();
  REQUIRE(diff.changedCount() + diff.removedCount() > 0);
  if (diff.changedCount() > 0) CHECK(hasColour(data, ColourRole::DiffChangedBg));
  if (diff.removedCount() > 0) CHECK(hasColour(data, ColourRole::DiffRemovedBg));
  if (diff.addedCount() > 0) CHECK(hasColour(data, ColourRole::DiffAddedBg));
  CHECK(hasColour(data, ColourRole::WatchedAttr));  // Inline=1, Compiler=... are always highlighted
  session.perform(Action::StepOver);  // Inline removes @scale, whose Inline=1 disappears
  REQUIRE(session.workbench().event(session.view().selectedEvent).pass == "Inline");
  bool marker = false;
  for (const DiffRow& row : session.irDiff().rows()) marker |= row.attrMarker;
  REQUIRE(marker);
  // Bring the first marker into view, then look for its colour.
  for (size_t v = 0; v < session.irDiff().visibleRows().size(); ++v)
    if (session.irDiff().visibleRow(v).attrMarker) {
      session.view().irScroll = IrScrollRequest{static_cast<int>(v), true};
      break;
    }
  h.frame(window);
  data = h.frame(window);
  CHECK(hasColour(data, ColourRole::AttrChangeMarker));
}

TEST_CASE("Debugger keys move the cursor; Backspace edits text while typing", "[gui][frames][keys]") {
  CHECK(actionForKey(keys::kF10, false, false, false, false) == Action::StepOver);
  CHECK(actionForKey(keys::kF11, false, false, false, false) == Action::StepIn);
  CHECK(actionForKey(keys::kF11, true, false, false, false) == Action::StepOut);
  CHECK(actionForKey(keys::kF5, false, false, false, false) == Action::Run);
  CHECK(actionForKey(keys::kBackspace, false, false, false, false) == Action::Back);
  CHECK(actionForKey(keys::kLeft, false, false, true, false) == Action::Back);
  CHECK_FALSE(actionForKey(keys::kLeft, false, false, false, false));
  CHECK_FALSE(actionForKey(keys::kBackspace, false, false, false, true));
  CHECK(actionForKey(keys::kF10, false, false, false, true) == Action::StepOver);

  Headless h;
  GuiSession session;
  MainWindow window(session);
  REQUIRE(session.openModel(kExamples + "cnn_block.relay"));
  REQUIRE(session.applyPipeline("InferType,SimplifyExpr,DeadCodeElimination"));
  h.frame(window);
  h.press(window, keys::kF10);
  CHECK(session.workbench().cursor() == 1);
  h.press(window, keys::kF10);
  CHECK(session.workbench().event(session.workbench().cursor()).pass == "SimplifyExpr");
  h.press(window, keys::kBackspace);
  CHECK(session.workbench().cursor() == 1);
  h.press(window, keys::kLeft, false, /*alt=*/true);
  CHECK(session.workbench().cursor() == 0);
  h.press(window, keys::kF5);
  CHECK(session.workbench().passesExecuted() == 3);
  CHECK(session.view().selectedEvent == session.workbench().cursor());
}

TEST_CASE("Scroll requests and the mouse wheel move the IR view; only visible rows are drawn", "[gui][frames][scroll]") {
  Headless h;
  GuiSession session;
  MainWindow window(session);
  session.workbench().loadText(bench::syntheticModelText(1000), "synthetic-1k.relay");
  session.refresh();
  h.frame(window);
  ImDrawData* small = h.frame(window);
  const int smallVertices = small->TotalVtxCount;
  CHECK(window.irTopRow() == 0);

  session.workbench().loadText(bench::syntheticModelText(10000), "synthetic-10k.relay");
  session.refresh();
  REQUIRE(session.irDiff().visibleRows().size() > 10000);
  h.frame(window);
  ImDrawData* big = h.frame(window);
  // Ten times the text, the same work per frame (within what longer line numbers add).
  CHECK(big->TotalVtxCount < smallVertices * 3 / 2);

  REQUIRE(session.goToLine(Side::After, 8000));
  h.frame(window);
  h.frame(window);
  int top = window.irTopRow();
  CHECK(top > 7900);
  CHECK(top < 8000);
  // The wheel over the IR body scrolls down.
  for (int i = 0; i < 5; ++i)
    h.frame(window, [](ImGuiIO& io) {
      io.MousePos = ImVec2(1000, 400);
      io.MouseWheel = -3.f;
    });
  h.frame(window);
  CHECK(window.irTopRow() > top);
}

TEST_CASE("A clicked diagnostic scrolls the IR view to its line and highlights it", "[gui][frames][diagnostics]") {
  Headless h;
  GuiSession session;
  MainWindow window(session);
  CommandResult r = session.runCommand("load --no-check " + kExamples + "ill_typed.relay");
  REQUIRE(r.ok());
  REQUIRE(session.applyPipeline("InferType"));
  session.perform(Action::StepOver);
  REQUIRE(session.workbench().event(session.workbench().cursor()).status == EventStatus::Failed);
  r = session.runCommand("gui diag 1");
  REQUIRE(r.ok());
  REQUIRE(session.view().highlight.has_value());
  h.frame(window);
  ImDrawData* data = h.frame(window);
  CHECK(hasColour(data, ColourRole::DiagnosticLineBg));
  CHECK(hasColour(data, ColourRole::SeverityError));
}

TEST_CASE("Layout and open panels persist in imgui.ini", "[gui][frames][ini]") {
  std::string ini;
  {
    Headless h;
    GuiSession session;
    MainWindow::installSettingsHandler(session.view());
    MainWindow window(session);
    session.view().leftFraction = 0.3f;
    session.view().bottomFraction = 0.4f;
    session.view().open[static_cast<size_t>(PanelId::Numerics)] = false;
    session.view().showPanel(PanelId::Config);
    h.frame(window);
    h.frame(window);  // the tab comes to the front on the frame after it is selected
    ini = ImGui::SaveIniSettingsToMemory();
  }
  CHECK(ini.find("[Passlab][Layout]") != std::string::npos);
  CHECK(ini.find("Left=0.3000") != std::string::npos);
  CHECK(ini.find("Tab=config") != std::string::npos);
  CHECK(ini.find("numerics") == std::string::npos);
  Headless h;
  GuiSession session;
  MainWindow::installSettingsHandler(session.view());
  ImGui::LoadIniSettingsFromMemory(ini.c_str(), ini.size());
  CHECK(session.view().leftFraction == Approx(0.3f));
  CHECK(session.view().bottomFraction == Approx(0.4f));
  CHECK_FALSE(session.view().open[static_cast<size_t>(PanelId::Numerics)]);
  CHECK(session.view().open[static_cast<size_t>(PanelId::Config)]);
  CHECK(session.view().focusTab == PanelId::Config);
}

TEST_CASE("Hovering a constant reference in the IR view shows it; a click runs show const N", "[gui][frames][constants]") {
  Headless h;
  GuiSession session;
  MainWindow window(session);
  std::string values;
  for (int i = 0; i < 24; ++i) values += (i ? ", " : "") + std::to_string(i);
  session.workbench().loadText("#[version = \"0.0.5\"]\n"
                               "def @main(%x: Tensor[(2, 3, 4), float32]) {\n"
                               "  add(%x, const(Tensor[(2, 3, 4), float32], [" + values + "]))\n"
                               "}\n",
                               "weights.relay");
  session.refresh();
  h.frame(window);
  h.frame(window);
  // Sweep the mouse over the IR view until it is over the reference: the hand cursor.
  ImVec2 found(-1, -1);
  for (float y = 60; y < 500 && found.x < 0; y += 6)
    for (float x = 400; x < 1600 && found.x < 0; x += 12) {
      h.frame(window, [&](ImGuiIO& io) { io.MousePos = ImVec2(x, y); });
      if (ImGui::GetMouseCursor() == ImGuiMouseCursor_Hand) found = ImVec2(x, y);
    }
  REQUIRE(found.x >= 0);
  h.frame(window, [&](ImGuiIO& io) { io.MouseDown[0] = true; });
  h.frame(window, [&](ImGuiIO& io) { io.MouseDown[0] = false; });
  h.frame(window);
  const auto& lines = session.console().lines();
  auto has = [&](ConsoleLine::Kind kind, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const ConsoleLine& l) { return l.kind == kind && l.text.find(text) != std::string::npos; });
  };
  CHECK(has(ConsoleLine::Kind::Echo, "show const 0"));
  CHECK(has(ConsoleLine::Kind::Output, "meta[relay.Constant][0]: Tensor[(2, 3, 4), float32]"));
  CHECK(has(ConsoleLine::Kind::Output, "min 0, max 23"));
  CHECK(session.console().history().back() == "show const 0");  // Up, then `--all`
  CHECK(session.view().activeTab == PanelId::Console);
}
