// Diagnostics of the selected event; a click scrolls the IR view to the place.
#include <string>

#include "gui/panels/panels.h"

namespace passlab::gui {

void DiagnosticsPanel::draw(GuiSession& session) {
  if (!session.workbench().loaded()) {
    emptyState("No model loaded.");
    return;
  }
  const std::vector<DiagnosticRow>& rows = session.diagnostics();
  if (rows.empty()) {
    const TraceEvent& ev = session.workbench().event(session.view().selectedEvent);
    emptyState("#" + std::to_string(ev.id) + " " + ev.pass +
               " reported no diagnostics and skipped no function (nor did any pass nested in it).");
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##diags", 6, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, charWidth() * 3);
  ImGui::TableSetupColumn("Kind", ImGuiTableColumnFlags_WidthFixed, charWidth() * 8);
  ImGui::TableSetupColumn("Rule / pass", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("Function", ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn("Message", ImGuiTableColumnFlags_WidthStretch, 4.f);
  ImGui::TableSetupColumn("Event", ImGuiTableColumnFlags_WidthFixed, charWidth() * 6);
  ImGui::TableHeadersRow();
  const ViewState& view = session.view();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const DiagnosticRow& row = rows[static_cast<size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(i);
      // Selected when the IR view highlights this row's place.
      bool selected = row.target && view.highlight && view.highlight->side == row.target->side &&
                      view.highlight->lines.first == row.target->lines.first;
      std::string number = std::to_string(i + 1);
      if (ImGui::Selectable(number.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns)) {
        session.jumpToDiagnostic(static_cast<size_t>(i));
      }
      if (ImGui::IsItemHovered()) {
        std::string tip = row.message;
        if (!row.sourceLocation.empty()) tip += "\nsource: " + row.sourceLocation;
        tip += row.target ? "\nclick: show it in the IR view" : "\n(no place in the printed IR)";
        ImGui::SetTooltip("%s", tip.c_str());
      }
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      textColoured(row.colour, row.label);
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(row.rule.c_str());
      ImGui::TableSetColumnIndex(3);
      if (!row.function.empty()) textColoured(ColourRole::GlobalName, "@" + row.function);
      ImGui::TableSetColumnIndex(4);
      ImGui::TextUnformatted(row.message.c_str());
      ImGui::TableSetColumnIndex(5);
      ImGui::Text("#%d", row.event);
    }
  }
  ImGui::EndTable();
}

std::string DiagnosticsPanel::badge(GuiSession& session) {
  const size_t n = session.workbench().loaded() ? session.diagnostics().size() : 0;
  return n > 0 ? " (" + std::to_string(n) + ")" : "";
}

template <>
std::unique_ptr<Panel> makeTabPanel<PanelId::Diagnostics>() {
  return std::make_unique<DiagnosticsPanel>();
}

}  // namespace passlab::gui
