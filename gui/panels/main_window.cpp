#include "gui/panels/main_window.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace passlab::gui {

static_assert(keys::kF5 == GLFW_KEY_F5 && keys::kF10 == GLFW_KEY_F10 && keys::kF11 == GLFW_KEY_F11 &&
                  keys::kBackspace == GLFW_KEY_BACKSPACE && keys::kLeft == GLFW_KEY_LEFT && keys::kF == GLFW_KEY_F,
              "key codes must be GLFW's");

std::optional<Action> actionForKey(int key, bool shift, bool ctrl, bool alt, bool typing) {
  if (key == keys::kF10 && !ctrl && !alt) return Action::StepOver;
  if (key == keys::kF11 && !ctrl && !alt) return shift ? Action::StepOut : Action::StepIn;
  if (key == keys::kF5 && !ctrl && !alt && !shift) return Action::Run;
  if (!typing && key == keys::kBackspace && !ctrl && !alt) return Action::Back;
  if (!typing && key == keys::kLeft && alt && !ctrl && !shift) return Action::Back;
  return std::nullopt;
}

MainWindow::MainWindow(GuiSession& session) : session_(session) {
  // The bottom tabs, in the places panels.def gives them; the console comes last.
#define PASSLAB_PANEL(id, key, title)
#define PASSLAB_TAB_PANEL(id, key, title, place)             \
  tabPanels_.push_back(makeTabPanel<PanelId::id>());        \
  tabs_.push_back({PanelId::id, place, tabPanels_.back().get()});
#include "gui/model/panels.def"
  std::stable_sort(tabs_.begin(), tabs_.end(), [](const Tab& a, const Tab& b) { return a.place < b.place; });
  tabs_.push_back({PanelId::Console, static_cast<int>(tabs_.size()), &console_});
  std::error_code ec;
  browseDir_ = std::filesystem::current_path(ec).string();
}

void MainWindow::handleKeys() {
  ImGuiIO& io = ImGui::GetIO();
  const bool typing = io.WantTextInput;
  for (int key : {keys::kF5, keys::kF10, keys::kF11, keys::kBackspace, keys::kLeft}) {
    if (!ImGui::IsKeyPressed(key, /*repeat=*/true)) continue;
    if (auto action = actionForKey(key, io.KeyShift, io.KeyCtrl, io.KeyAlt, typing)) session_.perform(*action);
  }
  if (io.KeyCtrl && ImGui::IsKeyPressed(keys::kF, false)) {
    session_.view().open[static_cast<size_t>(PanelId::IrView)] = true;
    session_.view().focusSearch = true;
  }
}

void MainWindow::draw() {
  handleKeys();
  ViewState& view = session_.view();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoBackground;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.f);
  ImGui::Begin("passlab", nullptr, flags);
  ImGui::PopStyleVar();
  drawMenuBar();
  drawToolbar();

  auto isOpen = [&](PanelId id) { return view.open[static_cast<size_t>(id)]; };
  bool anyBottom = false;
  for (size_t i = static_cast<size_t>(PanelId::Diagnostics); i < kPanelCount; ++i) anyBottom |= view.open[i];
  const float statusH = ImGui::GetFrameHeightWithSpacing();
  const float splitH = 5.f;
  const float availH = std::max(100.f, ImGui::GetContentRegionAvail().y - statusH);
  float topH = anyBottom ? std::floor(availH * (1.f - view.bottomFraction)) : availH;

  ImGui::BeginChild("##top", ImVec2(0, topH), false);
  {
    const float w = ImGui::GetContentRegionAvail().x;
    if (isOpen(PanelId::Trace)) {
      float leftW = isOpen(PanelId::IrView) ? std::floor(w * view.leftFraction) : w;
      ImGui::BeginChild("##trace", ImVec2(leftW, 0), true);
      trace_.draw(session_);
      ImGui::EndChild();
      if (isOpen(PanelId::IrView)) {
        ImGui::SameLine(0, 0);
        if (splitter("##vsplit", true, w, &leftW, 160.f)) {
          view.leftFraction = leftW / w;
          ImGui::MarkIniSettingsDirty();
        }
        ImGui::SameLine(0, 0);
      }
    }
    if (isOpen(PanelId::IrView)) {
      ImGui::BeginChild("##ir", ImVec2(0, 0), true);
      ir_.draw(session_);
      ImGui::EndChild();
    }
  }
  ImGui::EndChild();
  if (anyBottom) {
    if (splitter("##hsplit", false, availH, &topH, 120.f, splitH)) {
      view.bottomFraction = 1.f - topH / availH;
      ImGui::MarkIniSettingsDirty();
    }
    ImGui::BeginChild("##bottom", ImVec2(0, availH - topH - splitH), false);
    drawBottomTabs();
    ImGui::EndChild();
  }
  drawStatusBar();
  ImGui::End();
  drawOpenDialog();
  drawSaveReportDialog();
}

void MainWindow::drawMenuBar() {
  ViewState& view = session_.view();
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open model...", "Ctrl+O")) openDialogRequested_ = true;
    if (ImGui::MenuItem("Save report...", nullptr, false, session_.workbench().loaded())) reportDialogRequested_ = true;
    if (ImGui::MenuItem("Restart trace")) session_.perform(Action::Restart);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Run")) {
    for (Action a : {Action::StepOver, Action::StepIn, Action::StepOut, Action::Step, Action::Back, Action::Run}) {
      const char* shortcut = a == Action::StepOver ? "F10"
                             : a == Action::StepIn ? "F11"
                             : a == Action::StepOut ? "Shift+F11"
                             : a == Action::Back    ? "Backspace"
                             : a == Action::Run     ? "F5"
                                                    : nullptr;
      if (ImGui::MenuItem(actionTitle(a), shortcut)) session_.perform(a);
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    for (size_t i = 0; i < kPanelCount; ++i)
      if (ImGui::MenuItem(panelTitle(static_cast<PanelId>(i)), nullptr, &view.open[i])) {
        if (view.open[i]) view.showPanel(static_cast<PanelId>(i));
        ImGui::MarkIniSettingsDirty();
      }
    ImGui::Separator();
    // The workbench's one print-syntax setting (the console's `set syntax`).
    const TextSyntax syntax = session_.workbench().printSyntax();
    if (ImGui::MenuItem("IR as Relay text", nullptr, syntax == TextSyntax::Relay)) session_.setPrintSyntax(TextSyntax::Relay);
    if (ImGui::MenuItem("IR as TVMScript", nullptr, syntax == TextSyntax::TVMScript)) session_.setPrintSyntax(TextSyntax::TVMScript);
    ImGui::EndMenu();
  }
  if (ImGui::GetIO().KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_O, false)) openDialogRequested_ = true;
  ImGui::EndMenuBar();
}

void MainWindow::drawSyntaxToggle() {
  const TextSyntax syntax = session_.workbench().printSyntax();
  // Two buttons, the current one highlighted: one click switches every IR pane.
  for (TextSyntax option : {TextSyntax::Relay, TextSyntax::TVMScript}) {
    const bool current = option == syntax;
    if (option != TextSyntax::Relay) ImGui::SameLine(0, 0);
    if (current) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(option == TextSyntax::Relay ? "Relay" : "TVMScript") && !current) session_.setPrintSyntax(option);
    if (current) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Print the IR as %s (every pane, diffs, reports, saved modules; the console's `set syntax`)",
                        option == TextSyntax::Relay ? "Relay text, as TVM up to 0.19 printed it" : "TVMScript, as TVM 0.20 and later print it");
  }
}

void MainWindow::drawToolbar() {
  Workbench& wb = session_.workbench();
  if (ImGui::Button("Open...")) openDialogRequested_ = true;
  ImGui::SameLine();
  drawSyntaxToggle();
  ImGui::SameLine();
  ImGui::TextDisabled("|");
  struct ButtonDef {
    Action action;
    const char* label;
    const char* tip;
  };
  static const ButtonDef buttons[] = {
      {Action::Back, "< Back", "Back to the previous event at this depth (Backspace, Alt+Left)"},
      {Action::StepOver, "Step over", "Next event at this depth: runs the next pass at the end of the trace (F10)"},
      {Action::StepIn, "Step in", "Next event at any depth: enters nested pipelines (F11)"},
      {Action::StepOut, "Step out", "To the pass that contains this nested event (Shift+F11)"},
      {Action::Run, "Run >>", "Until a breakpoint, a failure or the end of the pipeline (F5)"},
      {Action::Restart, "Restart", "Back to #0 with the trace cleared"},
  };
  ImGui::BeginDisabled(!wb.loaded());
  for (const ButtonDef& b : buttons) {
    ImGui::SameLine();
    if (ImGui::Button(b.label)) session_.perform(b.action);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", b.tip);
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextDisabled("|");
  ImGui::SameLine();
  ImGui::TextUnformatted("Pipeline");
  ImGui::SameLine();
  // Keep the editor in step with changes made elsewhere (console, scripts), unless being edited.
  if (pipelineSeenGeneration_ != session_.generation() && !pipelineActive_) {
    pipelineInput_ = wb.pipelineSpec();
    pipelineSeenGeneration_ = session_.generation();
  }
  ImGui::SetNextItemWidth(std::max(200.f, ImGui::GetContentRegionAvail().x - charWidth() * 16));
  bool apply = ImGui::InputTextWithHint("##pipeline", "InferType,SimplifyExpr,FoldConstant,FuseOps", &pipelineInput_,
                                        ImGuiInputTextFlags_EnterReturnsTrue);
  pipelineActive_ = ImGui::IsItemActive();
  ImGui::SameLine();
  apply |= ImGui::Button("Apply");
  if (apply) session_.applyPipeline(pipelineInput_);
  ImGui::SameLine();
  if (ImGui::Button("+ Pass")) ImGui::OpenPopup("##passes");
  if (ImGui::BeginPopup("##passes")) {
    for (const PassRegistration* r : wb.registry().all()) {
      if (ImGui::Selectable(r->info.name.c_str())) {
        pipelineInput_ += (pipelineInput_.empty() ? "" : ",") + r->info.name;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (opt_level %d)", r->info.description.c_str(), r->info.optLevel);
    }
    ImGui::EndPopup();
  }
  // The current position, always visible.
  const TraceModel& trace = session_.traceModel();
  ImVec2 a = ImGui::GetCursorScreenPos();
  float h = ImGui::GetTextLineHeightWithSpacing();
  ImGui::GetWindowDrawList()->AddRectFilled(a, ImVec2(a.x + ImGui::GetContentRegionAvail().x, a.y + h),
                                            imColour(ColourRole::CursorBg));
  ImGui::TextUnformatted(">");
  ImGui::SameLine();
  ImGui::TextUnformatted(trace.position.c_str());
  if (wb.loaded()) {
    ImGui::SameLine();
    ImGui::TextDisabled("  %s", wb.sourceName().c_str());
  }
}

void MainWindow::drawBottomTabs() {
  ViewState& view = session_.view();
  if (!ImGui::BeginTabBar("##tabs", ImGuiTabBarFlags_FittingPolicyScroll)) return;
  for (const Tab& e : tabs_) {
    bool& isOpen = view.open[static_cast<size_t>(e.id)];
    if (!isOpen) continue;
    ImGuiTabItemFlags flags = view.focusTab == e.id ? ImGuiTabItemFlags_SetSelected : 0;
    std::string title = panelTitle(e.id) + e.panel->badge(session_);
    title += "###";
    title += panelKey(e.id);
    if (ImGui::BeginTabItem(title.c_str(), &isOpen, flags)) {
      if (view.activeTab != e.id) ImGui::MarkIniSettingsDirty();
      view.activeTab = e.id;
      ImGui::BeginChild("##content", ImVec2(0, 0), false);
      e.panel->draw(session_);
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    if (!isOpen) ImGui::MarkIniSettingsDirty();
  }
  view.focusTab.reset();
  ImGui::EndTabBar();
}

void MainWindow::drawStatusBar() {
  ImGui::Separator();
  const std::string& status = session_.status();
  char right[96];
  std::snprintf(right, sizeof right, "last change %.1f ms | frame %.1f ms", session_.lastChangeMs(),
                1000.f / std::max(1.f, ImGui::GetIO().Framerate));
  const float w = ImGui::CalcTextSize(right).x, rightX = ImGui::GetWindowContentRegionMax().x - w;
  // A long message (a load error with its hint) is cut before the timings, whole in its tooltip.
  const float room = rightX - ImGui::GetCursorPosX() - 2 * charWidth();
  std::string shown = status.empty() ? " " : status;
  if (ImGui::CalcTextSize(shown.c_str()).x > room && room > 4 * charWidth()) {
    size_t keep = static_cast<size_t>(room / charWidth()) - 3;
    shown = shown.substr(0, std::min(keep, shown.size())) + "...";
  }
  textColoured(session_.statusIsError() ? ColourRole::SeverityError : ColourRole::TextDim, shown);
  if (shown != status && !status.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", status.c_str());
  ImGui::SameLine(std::max(ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + charWidth(), rightX));
  ImGui::TextDisabled("%s", right);
}

void MainWindow::drawOpenDialog() {
  namespace fs = std::filesystem;
  if (openDialogRequested_) {
    ImGui::OpenPopup("Open model");
    openDialogRequested_ = false;
  }
  ImGui::SetNextWindowSize(ImVec2(640, 420), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal("Open model", nullptr)) return;
  ImGui::TextDisabled("%s", browseDir_.c_str());
  ImGui::SetNextItemWidth(-charWidth() * 12);
  bool open = ImGui::InputTextWithHint("##path", "path/to/model.relay", &openPath_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  open |= ImGui::Button("Open");
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  ImGui::BeginChild("##files", ImVec2(0, 0), true);
  std::error_code ec;
  fs::path dir(browseDir_);
  if (ImGui::Selectable("../", false, ImGuiSelectableFlags_DontClosePopups)) browseDir_ = dir.parent_path().string();
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(*it);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    std::error_code e1, e2;
    bool da = a.is_directory(e1), db = b.is_directory(e2);
    return da != db ? da : a.path().filename() < b.path().filename();
  });
  for (const fs::directory_entry& e : entries) {
    std::error_code e1;
    std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    bool isDir = e.is_directory(e1);
    if (isDir) {
      if (ImGui::Selectable((name + "/").c_str(), false, ImGuiSelectableFlags_DontClosePopups)) browseDir_ = e.path().string();
    } else {
      bool selected = openPath_ == e.path().string();
      if (ImGui::Selectable(name.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick | ImGuiSelectableFlags_DontClosePopups)) {
        openPath_ = e.path().string();
        if (ImGui::IsMouseDoubleClicked(0)) open = true;
      }
    }
  }
  ImGui::EndChild();
  if (open && !openPath_.empty()) {
    if (session_.openModel(openPath_)) ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

// ---- imgui.ini: [Passlab][Layout] ---------------------------------------------------

namespace {

void* layoutReadOpen(ImGuiContext*, ImGuiSettingsHandler* handler, const char* name) {
  return std::strcmp(name, "Layout") == 0 ? handler->UserData : nullptr;
}

void layoutReadLine(ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* line) {
  auto* view = static_cast<ViewState*>(entry);
  float f = 0;
  char buf[256];
  if (std::sscanf(line, "Left=%f", &f) == 1 && f > 0.05f && f < 0.9f) view->leftFraction = f;
  if (std::sscanf(line, "Bottom=%f", &f) == 1 && f > 0.05f && f < 0.9f) view->bottomFraction = f;
  if (std::sscanf(line, "Open=%255s", buf) == 1) {
    view->open.fill(false);
    std::string list = buf;
    size_t pos = 0;
    while (pos <= list.size()) {
      size_t comma = list.find(',', pos);
      std::string key = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (auto id = panelFromKey(key)) view->open[static_cast<size_t>(*id)] = true;
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  if (std::sscanf(line, "Tab=%255s", buf) == 1)
    if (auto id = panelFromKey(buf)) view->focusTab = *id;
}

void layoutWriteAll(ImGuiContext*, ImGuiSettingsHandler* handler, ImGuiTextBuffer* out) {
  const auto* view = static_cast<const ViewState*>(handler->UserData);
  std::string open;
  for (size_t i = 0; i < kPanelCount; ++i)
    if (view->open[i]) open += (open.empty() ? "" : ",") + std::string(panelKey(static_cast<PanelId>(i)));
  out->appendf("[Passlab][Layout]\nLeft=%.4f\nBottom=%.4f\nOpen=%s\nTab=%s\n\n", view->leftFraction,
               view->bottomFraction, open.empty() ? "-" : open.c_str(), std::string(panelKey(view->activeTab)).c_str());
}

}  // namespace

void MainWindow::installSettingsHandler(ViewState& view) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  ImGuiSettingsHandler handler;
  handler.TypeName = "Passlab";
  handler.TypeHash = ImHashStr("Passlab");
  handler.ReadOpenFn = layoutReadOpen;
  handler.ReadLineFn = layoutReadLine;
  handler.WriteAllFn = layoutWriteAll;
  handler.UserData = &view;
  g.SettingsHandlers.push_back(handler);
}

// ---- Style and fonts ------------------------------------------------------------------

void applyStyle() {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 0.f;
  style.ChildRounding = 2.f;
  style.FrameRounding = 2.f;
  style.TabRounding = 2.f;
  style.ItemSpacing = ImVec2(6, 3);
  style.FramePadding = ImVec2(5, 2);
  style.CellPadding = ImVec2(4, 1);
  style.ScrollbarSize = 13.f;
  // Popups and tooltips are drawn over content: opaque, in the window colour.
  style.Colors[ImGuiCol_WindowBg] = imColourVec(ColourRole::WindowBg);
  style.Colors[ImGuiCol_PopupBg] = ImVec4(0.09f, 0.09f, 0.11f, 1.f);
}

std::string loadFonts(float pixels) {
  ImGuiIO& io = ImGui::GetIO();
  const char* candidates[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"};
  for (const char* path : candidates) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) continue;
    // Latin-1 plus the punctuation, arrows and relations the passes' messages
    // use ("conv2d → max_pool2d", "…", "≤"): ImGui's default range would draw them as '?'.
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF, 0x2200, 0x22FF, 0};
    // Whole-pixel advances: the IR view places each coloured token at its
    // column × the advance and ImGui starts every run at a whole pixel, so a
    // fractional advance left a gap where tokens meet (`][ 0]`, `nn.conv2d (`).
    ImFontConfig config;
    config.PixelSnapH = true;
    if (io.Fonts->AddFontFromFileTTF(path, pixels, &config, ranges)) return path;
  }
  ImFontConfig config;
  config.SizePixels = std::max(13.f, pixels - 2.f);
  io.Fonts->AddFontDefault(&config);
  return "built-in";
}

// The report is written by the console's `save report`, so the GUI and a
// script produce the same file and the console shows what was written.
void MainWindow::drawSaveReportDialog() {
  if (reportDialogRequested_) {
    if (reportPath_.empty()) {
      std::string stem = std::filesystem::path(session_.workbench().sourceName()).stem().string();
      reportPath_ = (stem.empty() ? std::string("passlab") : stem) + "-report.html";
    }
    ImGui::OpenPopup("Save report");
    reportDialogRequested_ = false;
  }
  if (!ImGui::BeginPopupModal("Save report", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::TextUnformatted("One self-contained HTML page of the run as recorded, for a browser.");
  ImGui::SetNextItemWidth(charWidth() * 60);
  bool save = ImGui::InputText("##report-path", &reportPath_, ImGuiInputTextFlags_EnterReturnsTrue);
  save |= ImGui::Button("Save");
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  if (save && !reportPath_.empty()) {
    std::string quoted = "\"";
    for (char c : reportPath_) quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    session_.runCommand("save report " + quoted + "\"", false);
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace passlab::gui
