// Config reads of the selected event (and its nested passes), conflicts flagged.
#include <string>

#include "gui/panels/panels.h"

namespace passlab::gui {

void ConfigPanel::draw(GuiSession& session) {
  ViewState& view = session.view();
  if (ImGui::Checkbox("All events", &view.configAllEvents)) session.invalidateViews();
  ImGui::SameLine();
  helpMarker("Every input a pass decided on, read through the PassContext: its value, where it came from "
             "(PassContext config, pass option, module attribute, target or the registered default) and the "
             "context it was read in. Nested pipelines run in child contexts. A setting read with different "
             "values (e.g. link_params from the PassContext and from the module's executor) is flagged.");
  const ConfigModel& model = session.configModel();
  ImGui::SameLine();
  ImGui::TextDisabled("root: %s", model.settings.c_str());
  for (const ConfigConflict& c : model.conflicts) {
    ImVec2 a = ImGui::GetCursorScreenPos();
    std::string text = "conflict: " + c.setting + " = " + c.summary;
    ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x);
    ImGui::GetWindowDrawList()->AddRectFilled(a, ImVec2(a.x + ImGui::GetContentRegionAvail().x, a.y + size.y),
                                              imColour(ColourRole::ConflictBg));
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
  }
  if (!session.workbench().loaded()) {
    emptyState("No model loaded.");
    return;
  }
  if (model.rows.empty()) {
    emptyState(view.configAllEvents ? "No pass read any configuration yet."
                                    : "This event (and the passes nested in it) read no configuration.");
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##config", 6, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Event", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn("Key", ImGuiTableColumnFlags_WidthStretch, 2.2f);
  ImGui::TableSetupColumn("Value", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("Source", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("Context", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn("Pass", ImGuiTableColumnFlags_WidthStretch, 1.f);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(model.rows.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ConfigRow& row = model.rows[static_cast<size_t>(i)];
      ImGui::TableNextRow();
      if (row.conflict) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, imColour(ColourRole::ConflictBg));
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(i);
      std::string label = std::string(static_cast<size_t>(row.depth) * 2, ' ') + "#" + std::to_string(row.event);
      if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_SpanAllColumns) &&
          row.event != session.view().selectedEvent)
        session.selectEvent(row.event);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s read %s = %s\nsource: %s\ncontext: %s%s", row.pass.c_str(), row.key.c_str(),
                          row.value.c_str(), row.source.c_str(), row.context.c_str(),
                          row.conflict ? "\nCONFLICT: the same setting was read with another value" : "");
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      textColoured(row.conflict ? ColourRole::WatchedAttr : ColourRole::Text, row.key);
      ImGui::TableSetColumnIndex(2);
      textColoured(ColourRole::Number, row.value);
      ImGui::TableSetColumnIndex(3);
      textColoured(row.colour, row.source);
      ImGui::TableSetColumnIndex(4);
      ImGui::TextUnformatted(row.context.c_str());
      ImGui::TableSetColumnIndex(5);
      ImGui::TextUnformatted(row.pass.c_str());
    }
  }
  ImGui::EndTable();
}

template <>
std::unique_ptr<Panel> makeTabPanel<PanelId::Config>() {
  return std::make_unique<ConfigPanel>();
}

}  // namespace passlab::gui
