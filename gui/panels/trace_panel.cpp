// The trace tree and the breakpoint list.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <cstdio>
#include <vector>

#include "gui/model/session_store.h"
#include "gui/panels/panels.h"

namespace passlab::gui {
namespace {

/// Rows left after collapsing: a collapsed row hides the deeper rows after it.
std::vector<int> visibleRows(const TraceModel& model, const std::set<int>& collapsed) {
  std::vector<int> out;
  int hideDeeperThan = -1;
  for (size_t i = 0; i < model.rows.size(); ++i) {
    const TraceRow& row = model.rows[i];
    if (hideDeeperThan >= 0 && row.depth > hideDeeperThan) continue;
    hideDeeperThan = -1;
    out.push_back(static_cast<int>(i));
    if (row.hasChildren && collapsed.count(row.event)) hideDeeperThan = row.depth;
  }
  return out;
}

}  // namespace

void TracePanel::draw(GuiSession& session) {
  ViewState& view = session.view();
  bool hide = view.traceFilter.hideUnchanged;
  if (ImGui::Checkbox("Hide unchanged", &hide)) {
    view.traceFilter.hideUnchanged = hide;
    session.invalidateViews();
  }
  const TraceModel& model = session.traceModel();
  if (model.hiddenCount > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%d hidden)", model.hiddenCount);
  }
  float breakpointsHeight = ImGui::GetFrameHeightWithSpacing() * 6.5f;
  ImGui::BeginChild("##tree", ImVec2(0, -breakpointsHeight), false);
  drawTree(session);
  ImGui::EndChild();
  ImGui::Separator();
  drawBreakpoints(session);
}

void TracePanel::drawTree(GuiSession& session) {
  const TraceModel& model = session.traceModel();
  ViewState& view = session.view();
  if (model.rows.empty()) {
    emptyState("No model loaded. File > Open, or `load FILE` in the console.");
    return;
  }
  std::vector<int> rows = visibleRows(model, collapsed_);
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##trace", 3, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Event", ImGuiTableColumnFlags_WidthStretch, 4.0f);
  ImGui::TableSetupColumn("Detail", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn("Time", ImGuiTableColumnFlags_WidthFixed, charWidth() * 6);
  ImGui::TableHeadersRow();
  const float rowHeight = ImGui::GetTextLineHeightWithSpacing();

  // Where the cursor's row is among the visible rows, to scroll it into view.
  int cursorVisible = -1;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i] == model.cursorRow) cursorVisible = static_cast<int>(i);
  if (view.traceScrollToCursor && cursorVisible >= 0) {
    float y = cursorVisible * rowHeight;
    float top = ImGui::GetScrollY(), height = ImGui::GetWindowHeight() - 2 * rowHeight;
    if (y < top || y > top + height) ImGui::SetScrollY(std::max(0.f, y - height * 0.5f));
    view.traceScrollToCursor = false;
  }

  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()), rowHeight);
  while (clipper.Step()) {
    for (int v = clipper.DisplayStart; v < clipper.DisplayEnd; ++v) {
      const TraceRow& row = model.rows[static_cast<size_t>(rows[static_cast<size_t>(v)])];
      ImGui::TableNextRow();
      if (row.isCursor) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, imColour(ColourRole::CursorBg));
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(v);
      ImGui::Indent(row.depth * charWidth() * 2.f);
      // Breakpoint dot in front, like a debugger's gutter.
      ImVec2 p = ImGui::GetCursorScreenPos();
      float r = ImGui::GetTextLineHeight() * 0.25f;
      if (row.passBreakpoint || row.breakpointHit)
        ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + r, p.y + ImGui::GetTextLineHeight() * 0.5f), r,
                                                    imColour(ColourRole::Breakpoint));
      ImGui::Dummy(ImVec2(r * 2.5f, 0));
      ImGui::SameLine(0, 0);
      if (row.hasChildren) {
        bool isCollapsed = collapsed_.count(row.event) > 0;
        if (ImGui::ArrowButton("##fold", isCollapsed ? ImGuiDir_Right : ImGuiDir_Down)) {
          if (isCollapsed)
            collapsed_.erase(row.event);
          else
            collapsed_.insert(row.event);
        }
        ImGui::SameLine();
      }
      textColoured(row.colour, glyphOf(row.icon));
      ImGui::SameLine();
      char label[64];
      if (row.event >= 0)
        std::snprintf(label, sizeof label, "#%d", row.event);
      else
        std::snprintf(label, sizeof label, "  ");
      ImGui::PushStyleColor(ImGuiCol_Text, imColour(row.event >= 0 ? ColourRole::TextDim : ColourRole::EventPending));
      ImGui::TextUnformatted(label);
      ImGui::PopStyleColor();
      ImGui::SameLine();
      ImGui::PushStyleColor(ImGuiCol_Text, imColour(row.icon == EventIcon::Pending ? ColourRole::EventPending
                                                    : row.icon == EventIcon::Failed ? ColourRole::EventFailed
                                                                                    : ColourRole::Text));
      bool clicked = ImGui::Selectable(row.label.c_str(), row.isCursor,
                                       ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap);
      ImGui::PopStyleColor();
      if (clicked && row.event >= 0 && !row.isCursor) session.selectEvent(row.event);
      if (ImGui::IsItemHovered() && !row.tooltip.empty()) ImGui::SetTooltip("%s", row.tooltip.c_str());
      if (ImGui::BeginPopupContextItem("##ctx")) {
        std::string pass = row.label.substr(0, row.label.find('{'));
        if (ImGui::MenuItem(("Break on pass " + pass).c_str())) session.addBreakpoint(BreakKind::Pass, pass);
        if (row.event >= 0 && ImGui::MenuItem("Go to this event")) session.selectEvent(row.event);
        ImGui::EndPopup();
      }
      ImGui::Unindent(row.depth * charWidth() * 2.f);
      ImGui::PopID();

      ImGui::TableSetColumnIndex(1);
      if (!row.detail.empty()) {
        ColourRole detailRole = row.errors > 0 || row.icon == EventIcon::Failed ? ColourRole::SeverityError
                                : row.warnings > 0                             ? ColourRole::SeverityWarning
                                                                               : ColourRole::TextDim;
        textColoured(detailRole, row.detail);
      }
      ImGui::TableSetColumnIndex(2);
      if (row.event >= 0) {
        // The timing bar behind the figure: relative to the slowest event.
        ImVec2 a = ImGui::GetCursorScreenPos();
        float w = ImGui::GetContentRegionAvail().x * row.timeFraction;
        ImGui::GetWindowDrawList()->AddRectFilled(a, ImVec2(a.x + w, a.y + ImGui::GetTextLineHeight()),
                                                  imColour(ColourRole::TimingBar));
        ImGui::Text(row.wallMs < 10 ? "%.2f" : "%.1f", row.wallMs);
      }
    }
  }
  ImGui::EndTable();
}

void TracePanel::drawBreakpoints(GuiSession& session) {
  Workbench& wb = session.workbench();
  ImGui::TextUnformatted("Breakpoints");
  ImGui::SameLine();
  helpMarker("pass NAME stops when that pass completes; func NAME when the function changes; attr KEY when an "
             "attribute changes; diag RULE on a diagnostic (empty: any). Saved with the session.");
  ImGui::BeginChild("##bps", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), false);
  int removeId = -1;
  for (const Breakpoint& bp : wb.breakpoints()) {
    ImGui::PushID(bp.id);
    bool enabled = bp.enabled;
    if (ImGui::Checkbox("##on", &enabled)) session.enableBreakpoint(bp.id, enabled);
    ImGui::SameLine();
    ImGui::Text("%d  %s", bp.id, describeBreakpoint(bp).c_str());
    if (bp.hits > 0) {
      ImGui::SameLine();
      ImGui::TextDisabled("(%d hit%s)", bp.hits, bp.hits == 1 ? "" : "s");
    }
    ImGui::SameLine(ImGui::GetContentRegionAvail().x + ImGui::GetCursorPosX() - ImGui::GetFrameHeight() * 1.5f);
    if (ImGui::SmallButton("x")) removeId = bp.id;
    ImGui::PopID();
  }
  if (wb.breakpoints().empty()) ImGui::TextDisabled("none: right-click a pass, or add one below");
  ImGui::EndChild();
  if (removeId >= 0) session.removeBreakpoint(removeId);

  ImGui::SetNextItemWidth(charWidth() * 9);
  ImGui::Combo("##kind", &newBreakKind_, kBreakKindNames, kBreakKindCount);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-charWidth() * 6);
  bool submit = ImGui::InputTextWithHint("##pattern", "name", &newBreakPattern_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  submit |= ImGui::Button("Add");
  if (submit) {
    auto kind = breakKindFromName(kBreakKindNames[newBreakKind_]);
    if (kind && session.addBreakpoint(*kind, newBreakPattern_)) newBreakPattern_.clear();
  }
}

}  // namespace passlab::gui
