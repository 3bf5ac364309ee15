// The progress bar of a long command (build, run, save report, reduce, numeric
// check, bisect, moves): drawn alone, over the last frame of the main window,
// while the command runs on its worker thread (GuiSession::runLong). The
// other panels are not drawn then: they read the workbench the command is
// changing. Cancel (or Escape) stops the command as Ctrl-C does in the REPL.
#include <cmath>
#include <cstdio>

#include "gui/panels/panels.h"

namespace passlab::gui {

void drawProgressOverlay(GuiSession& session, ImTextureID background, ImVec2 backgroundSize) {
  const ProgressSnapshot p = session.progress().snapshot();
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImDrawList* back = ImGui::GetBackgroundDrawList();
  if (background) {
    // The last frame before the command, upside down as OpenGL keeps it, dimmed.
    back->AddImage(background, viewport->Pos, ImVec2(viewport->Pos.x + backgroundSize.x, viewport->Pos.y + backgroundSize.y), ImVec2(0, 1),
                   ImVec2(1, 0));
  }
  back->AddRectFilled(viewport->Pos, ImVec2(viewport->Pos.x + viewport->Size.x, viewport->Pos.y + viewport->Size.y), IM_COL32(0, 0, 0, 110));
  if (!p.busy) return;
  const float width = std::min(640.f, viewport->Size.x - 40.f);
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + viewport->Size.x * 0.5f, viewport->Pos.y + viewport->Size.y * 0.4f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(width, 0));
  ImGui::SetNextWindowFocus();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_AlwaysAutoResize;
  if (ImGui::Begin("##progress", nullptr, flags)) {
    ImGui::TextUnformatted(p.command.c_str());
    textColoured(ColourRole::TextDim, p.text.empty() ? std::string_view("starting...") : std::string_view(p.text));
    char overlay[64];
    float fraction = 0;
    if (p.total > 0) {
      fraction = std::min(1.f, static_cast<float>(p.done) / static_cast<float>(p.total));
      std::snprintf(overlay, sizeof overlay, "%zu / %zu   %.1f s", p.done, p.total, p.seconds);
    } else {
      // No known end: a block sweeps across the bar, so the window is visibly alive.
      std::snprintf(overlay, sizeof overlay, "%.1f s", p.seconds);
    }
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, imColourVec(ColourRole::TimingBar));
    if (p.total > 0) {
      ImGui::ProgressBar(fraction, ImVec2(-1, 0), overlay);
    } else {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::ProgressBar(0.f, ImVec2(-1, 0), overlay);
      const ImVec2 size = ImGui::GetItemRectSize();
      const float phase = static_cast<float>(std::fmod(p.seconds, 1.5) / 1.5);
      const float x0 = at.x + (size.x * 1.25f) * phase - size.x * 0.25f;
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(std::max(at.x, x0), at.y), ImVec2(std::min(at.x + size.x, x0 + size.x * 0.25f), at.y + size.y),
                                                imColour(ColourRole::TimingBar));
    }
    ImGui::PopStyleColor();
    ImGui::BeginDisabled(p.cancelling);
    if (ImGui::Button(p.cancelling ? "Cancelling..." : "Cancel")) session.cancelLongCommand();
    ImGui::EndDisabled();
    ImGui::SameLine();
    textColoured(ColourRole::TextDim, p.cancelling ? "stopping at the next check; the workbench stays as it is"
                                                   : "Cancel (Esc) stops it as Ctrl-C does in the REPL");
  }
  ImGui::End();
}

}  // namespace passlab::gui
