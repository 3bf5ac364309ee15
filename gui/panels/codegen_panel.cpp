// Generated code per PrimFunc: what exists now is the list of PrimFuncs.
#include "gui/panels/panels.h"

namespace passlab::gui {

void CodegenPanel::draw(GuiSession& session) {
  const CodegenModel& model = session.codegenModel();
  ImGui::PushTextWrapPos(0.f);
  textColoured(ColourRole::TextDim, model.emptyMessage);
  ImGui::PopTextWrapPos();
  if (model.primFuncs.empty()) return;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##primfuncs", 4, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("PrimFunc");
  ImGui::TableSetupColumn("target");
  ImGui::TableSetupColumn("global_symbol");
  ImGui::TableSetupColumn("params");
  ImGui::TableHeadersRow();
  for (const PrimFuncRow& row : model.primFuncs) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    textColoured(ColourRole::GlobalName, "@" + row.name);
    ImGui::TableSetColumnIndex(1);
    if (row.target.empty())
      textColoured(ColourRole::SeverityWarning, "(none: BindTarget has not run)");
    else
      textColoured(ColourRole::WatchedAttr, row.target);
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(row.globalSymbol.c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::Text("%zu", row.params);
  }
  ImGui::EndTable();
}

}  // namespace passlab::gui
