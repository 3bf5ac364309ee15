// The Remarks panel: what each pass of the selected event did, or did not,
// rewrite and why, counted by rule first (a 700-op FuseOps reads as a few
// counts), then filtered and listed; a click shows the remark's node in the IR
// view (scrolled and highlighted) and selects it in the graph.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <string>

#include "gui/panels/panels.h"

namespace passlab::gui {

void RemarksPanel::draw(GuiSession& session) {
  if (!session.workbench().loaded()) {
    emptyState("No model loaded.");
    return;
  }
  RemarksModel& model = session.remarksModel();
  if (model.rows().empty()) {
    const TraceEvent& ev = session.workbench().event(session.view().selectedEvent);
    emptyState("#" + std::to_string(ev.id) + " " + ev.pass +
               " emitted no remarks (nor did any pass nested in it). Passes explain their rewrites while "
               "`remarks on` (the default); FuseOps, FoldConstant, ToMixedPrecision, ConvertLayout and the BYOC "
               "passes are the talkative ones.");
    return;
  }
  drawFilters(session, model);
  drawList(session, model);
}

void RemarksPanel::drawFilters(GuiSession& session, RemarksModel& model) {
  ViewState& view = session.view();
  RemarkFilter f = view.remarkFilter;
  // The counts, missed first: one line a reader takes in before the list.
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s", model.summary().c_str());
  ImGui::PopTextWrapPos();
  static const RemarkKind kinds[] = {RemarkKind::Missed, RemarkKind::Applied, RemarkKind::Analysis};
  for (RemarkKind k : kinds) {
    bool on = f.kinds[static_cast<size_t>(k)];
    ImGui::PushStyleColor(ImGuiCol_Text, imColour(remarkColour(k)));
    if (ImGui::Checkbox(std::string(remarkKindName(k)).c_str(), &on)) f.kinds[static_cast<size_t>(k)] = on;
    ImGui::PopStyleColor();
    ImGui::SameLine();
  }
  // A pass combo only when the event lists more than one (FoldConstant and its nested FuseOps).
  if (model.passes().size() > 1 || !f.pass.empty()) {
    ImGui::SetNextItemWidth(charWidth() * 20);
    if (ImGui::BeginCombo("##remarkpass", f.pass.empty() ? "(every pass)" : f.pass.c_str())) {
      if (ImGui::Selectable("(every pass)", f.pass.empty())) f.pass.clear();
      for (const std::string& p : model.passes())
        if (ImGui::Selectable(p.c_str(), f.pass == p)) f.pass = p;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
  }
  ImGui::SetNextItemWidth(charWidth() * 34);
  std::string preview = f.rule.empty() ? "(every rule)" : f.rule;
  if (ImGui::BeginCombo("##remarkrule", preview.c_str())) {
    if (ImGui::Selectable("(every rule)", f.rule.empty())) f.rule.clear();
    for (const RemarksModel::RuleCount& c : model.counts()) {
      std::string label = c.rule + "  (" + std::to_string(c.count) + " " + std::string(remarkKindName(c.kind)) + ")";
      ImGui::PushStyleColor(ImGuiCol_Text, imColour(remarkColour(c.kind)));
      if (ImGui::Selectable(label.c_str(), f.rule == c.rule)) f.rule = c.rule;
      ImGui::PopStyleColor();
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (text_ != f.text && !ImGui::IsAnyItemActive()) text_ = f.text;  // set from the console
  ImGui::SetNextItemWidth(charWidth() * 26);
  if (ImGui::InputTextWithHint("##remarktext", "filter: message, node, rule", &text_)) f.text = text_;
  ImGui::SameLine();
  ImGui::TextDisabled("%zu of %zu shown", model.visible().size(), model.rows().size());
  if (!(f == view.remarkFilter)) {
    view.remarkFilter = f;
    model.setFilter(f);
  }
}

void RemarksPanel::drawList(GuiSession& session, const RemarksModel& model) {
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##remarks", 6, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, charWidth() * 4);
  ImGui::TableSetupColumn("Kind", ImGuiTableColumnFlags_WidthFixed, charWidth() * 9);
  ImGui::TableSetupColumn("Rule", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn("Nodes", ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn("Message", ImGuiTableColumnFlags_WidthStretch, 4.f);
  ImGui::TableSetupColumn("Event", ImGuiTableColumnFlags_WidthFixed, charWidth() * 16);
  ImGui::TableHeadersRow();
  const int selected = session.view().selectedRemark;
  int clicked = -1;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(model.visible().size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const size_t index = model.visible()[static_cast<size_t>(i)];
      const RemarkRow& row = model.rows()[index];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(i);
      std::string number = std::to_string(i + 1);
      if (ImGui::Selectable(number.c_str(), static_cast<int>(index) == selected, ImGuiSelectableFlags_SpanAllColumns))
        clicked = i;
      if (ImGui::IsItemHovered()) {
        std::string tip = row.message + "\n" + row.pass + " #" + std::to_string(row.event) + ", rule " + row.rule;
        tip += row.target ? "\nclick: show its node in the IR view and the graph" : "\n(its nodes are not printed at this event)";
        ImGui::SetTooltip("%s", tip.c_str());
      }
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      textColoured(remarkColour(row.kind), remarkKindName(row.kind));
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(row.rule.c_str());
      ImGui::TableSetColumnIndex(3);
      std::string nodes;
      for (const std::string& n : row.nodes) nodes += (nodes.empty() ? "" : " ") + n;
      if (nodes.empty() && !row.function.empty()) nodes = "@" + row.function;
      textColoured(ColourRole::LocalName, nodes);
      ImGui::TableSetColumnIndex(4);
      ImGui::TextUnformatted(row.message.c_str());
      ImGui::TableSetColumnIndex(5);
      ImGui::TextDisabled("#%d %s", row.event, row.pass.c_str());
    }
  }
  ImGui::EndTable();
  // After the table: a jump may rebuild the model the loop above was reading.
  if (clicked >= 0) session.jumpToRemark(static_cast<size_t>(clicked));
}

std::string RemarksPanel::badge(GuiSession& session) {
  const size_t n = session.workbench().loaded() ? session.remarksModel().rows().size() : 0;
  return n > 0 ? " (" + std::to_string(n) + ")" : "";
}

template <>
std::unique_ptr<Panel> makeTabPanel<PanelId::Remarks>() {
  return std::make_unique<RemarksPanel>();
}

}  // namespace passlab::gui
