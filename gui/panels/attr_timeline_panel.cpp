// Functions × events grid of attribute values.
#include <imgui.h>
#include <imgui_stdlib.h>

#include "gui/panels/panels.h"

namespace passlab::gui {

void AttrTimelinePanel::draw(GuiSession& session) {
  if (!session.workbench().loaded()) {
    emptyState("No model loaded.");
    return;
  }
  ViewState& view = session.view();
  AttrTimelineOptions& options = view.attrOptions;
  bool changed = false;
  changed |= ImGui::Checkbox("Changed rows only", &options.changedOnly);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("Compact columns", &options.compactColumns);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("Nested events", &options.nested);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(charWidth() * 18);
  changed |= ImGui::InputTextWithHint("##key", "attribute filter", &options.keyFilter);
  if (changed) session.invalidateViews();

  const AttrTimelineModel& model = session.attrTimelineModel();
  if (model.rows.empty()) {
    emptyState(options.changedOnly ? "No attribute changed in the recorded trace so far." : "No attributes.");
    return;
  }
  const int columns = static_cast<int>(model.columns.size()) + 2;
  // Tables cap their column count; beyond it, the compact view is the useful one anyway.
  if (columns > 64) {
    emptyState("Too many events to show every column: tick \"Compact columns\".");
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInner | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##attrs", columns, flags)) return;
  ImGui::TableSetupScrollFreeze(2, 1);
  ImGui::TableSetupColumn("Function");
  ImGui::TableSetupColumn("Attribute");
  for (const AttrColumn& c : model.columns) ImGui::TableSetupColumn(c.label.c_str());
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < columns; ++c) {
    ImGui::TableSetColumnIndex(c);
    bool cursorColumn = c >= 2 && c - 2 == model.cursorColumn;
    if (cursorColumn) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, imColour(ColourRole::CursorBg));
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(model.rows.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const AttrRow& row = model.rows[static_cast<size_t>(r)];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      textColoured(ColourRole::GlobalName, row.function == "<module>" ? row.function : "@" + row.function);
      ImGui::TableSetColumnIndex(1);
      textColoured(row.watched ? ColourRole::WatchedAttr : ColourRole::AttrKey, row.key);
      for (size_t c = 0; c < row.cells.size(); ++c) {
        const AttrCell& cell = row.cells[c];
        ImGui::TableSetColumnIndex(static_cast<int>(c) + 2);
        if (cell.background != ColourRole::Count)
          ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, imColour(cell.background));
        else if (static_cast<int>(c) == model.cursorColumn)
          ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, imColour(ColourRole::CursorBg));
        ImGui::PushID(r * 1024 + static_cast<int>(c));
        std::string text = cell.present ? cell.value : "-";
        if (cell.changed) text = "* " + text;
        ImGui::PushStyleColor(ImGuiCol_Text, imColour(cell.present ? ColourRole::Text : ColourRole::TextDim));
        if (ImGui::Selectable(text.c_str(), false)) session.jumpToAttrCell(model.columns[c].event, row.function);
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s %s after %s\n%s%s", row.function.c_str(), row.key.c_str(), model.columns[c].label.c_str(),
                            cell.present ? cell.value.c_str() : "(absent)",
                            cell.changed ? "\nchanged at this event; click to view it" : "\nclick to view this event");
        ImGui::PopID();
      }
    }
  }
  ImGui::EndTable();
}

template <>
std::unique_ptr<Panel> makeTabPanel<PanelId::AttrTimeline>() {
  return std::make_unique<AttrTimelinePanel>();
}

}  // namespace passlab::gui
