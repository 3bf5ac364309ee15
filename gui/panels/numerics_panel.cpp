// Per-event numeric error against the first snapshot, with the threshold.
#include <string>

#include "gui/panels/panels.h"

namespace passlab::gui {

void NumericsPanel::draw(GuiSession& session) {
  const NumericsModel& model = session.numericsModel();
  if (!model.available) {
    emptyState(model.emptyMessage);
    return;
  }
  ImGui::Text("max error %.3g | threshold %.3g", model.maxError, model.threshold);
  if (model.firstOffending >= 0) {
    ImGui::SameLine();
    int event = model.events[static_cast<size_t>(model.firstOffending)];
    std::string label = "Go to first offending event #" + std::to_string(event);
    if (ImGui::Button(label.c_str())) session.selectEvent(event);
  }
  float scaleMax = std::max(model.maxError, model.threshold) * 1.1f;
  ImVec2 size(ImGui::GetContentRegionAvail().x, std::max(80.f, ImGui::GetContentRegionAvail().y - 4));
  ImGui::PlotHistogram("##errors", model.errors.data(), static_cast<int>(model.errors.size()), 0, nullptr, 0.f, scaleMax,
                       size);
  // The threshold as a line across the plot.
  ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  float y = b.y - (b.y - a.y) * (model.threshold / scaleMax);
  ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), imColour(ColourRole::SeverityError), 2.f);
}

template <>
std::unique_ptr<Panel> makeTabPanel<PanelId::Numerics>() {
  return std::make_unique<NumericsPanel>();
}

}  // namespace passlab::gui
