// Generated code of the selected event's build, per stage (tabs) and per
// function; the list of PrimFuncs when nothing was built from that event.
#include "gui/panels/panels.h"

namespace passlab::gui {

void CodegenPanel::drawStage(const CodegenModel& model, size_t stage) {
  const float listWidth = 200.f;
  if (ImGui::BeginChild("##codegen_functions", ImVec2(listWidth, 0), true)) {
    if (ImGui::Selectable("(whole module)", function_.empty())) function_.clear();
    for (const CodegenFunctionCode& f : model.functions) {
      if (f.text[stage].empty()) continue;
      if (ImGui::Selectable(("@" + f.function).c_str(), f.function == function_)) function_ = f.function;
    }
  }
  ImGui::EndChild();
  ImGui::SameLine();
  const std::string* text = &model.moduleText[stage];
  for (const CodegenFunctionCode& f : model.functions)
    if (f.function == function_) text = &f.text[stage];
  if (ImGui::BeginChild("##codegen_text", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar)) {
    if (text->empty())
      textColoured(ColourRole::TextDim, "(no " + model.stages[stage] + " code for " + (function_.empty() ? "the module" : "@" + function_) + ")");
    else
      ImGui::TextUnformatted(text->data(), text->data() + text->size());  // clips invisible lines itself
  }
  ImGui::EndChild();
}

void CodegenPanel::draw(GuiSession& session) {
  const CodegenModel& model = session.codegenModel();
  if (model.buildEvent >= 0) {
    textColoured(ColourRole::GlobalName, "build #" + std::to_string(model.buildEvent));
    ImGui::SameLine();
    textColoured(ColourRole::WatchedAttr, model.target);
    ImGui::SameLine();
    textColoured(ColourRole::TextDim, "from #" + std::to_string(model.builtFrom));
    if (ImGui::CollapsingHeader("Summary")) {
      ImGui::PushTextWrapPos(0.f);
      ImGui::TextUnformatted(model.summary.c_str());
      ImGui::PopTextWrapPos();
    }
    const int selectedStageEvent = model.stageEvents.empty() ? -1 : model.stageEvents[static_cast<size_t>(model.selectedStage)];
    const bool reopen = selectedStageEvent != openedStageEvent_;
    if (ImGui::BeginTabBar("##codegen_stages")) {
      for (size_t s = 0; s < model.stages.size(); ++s) {
        ImGuiTabItemFlags flags = reopen && static_cast<int>(s) == model.selectedStage ? ImGuiTabItemFlags_SetSelected : 0;
        if (ImGui::BeginTabItem(model.stages[s].c_str(), nullptr, flags)) {
          drawStage(model, s);
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
    openedStageEvent_ = selectedStageEvent;
    return;
  }
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

template <>
std::unique_ptr<Panel> makeTabPanel<PanelId::Codegen>() {
  return std::make_unique<CodegenPanel>();
}

}  // namespace passlab::gui
