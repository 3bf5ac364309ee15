// The IR view: before | after, aligned, highlighted. Only the rows on screen
// are drawn (ImGuiListClipper over the diff model's rows, lines fetched from
// the line index), and only the part of a long line that is on screen is
// tokenized, so a frame costs the same for a 10-line and a 100k-op module.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "gui/model/constant_ref_span.h"
#include "gui/model/syntax.h"
#include "gui/panels/panels.h"

namespace passlab::gui {
namespace {

/// Lines longer than this are tokenized only around the visible columns.
constexpr size_t kLongLine = 2048;

/// Geometry of one side of the view for the current frame.
struct SideLayout {
  float x0 = 0;         // left edge on screen
  float width = 0;      // total width of the side
  float gutter = 0;     // width of line numbers + marker
  float textX = 0;      // where column 0 of the text is drawn (scrolled)
  float clipLeft = 0;   // left edge of the text area
  float clipRight = 0;  // right edge of the text area
};

struct DrawContext {
  ImDrawList* dl;
  ImFont* font;
  float fontSize;
  float charW;
  float lineH;
  float scrollX;
  std::vector<Token> tokens;
};

/// Draws one line of text of one side with syntax colours.
void drawLine(DrawContext& ctx, const SideLayout& side, float y, std::string_view line) {
  if (line.empty()) return;
  // Only the visible columns (plus a margin) of very long lines are tokenized.
  size_t first = 0, last = line.size();
  if (line.size() > kLongLine) {
    size_t visibleFrom = static_cast<size_t>(std::max(0.f, ctx.scrollX / ctx.charW));
    size_t visibleChars = static_cast<size_t>((side.clipRight - side.clipLeft) / ctx.charW) + 2;
    first = visibleFrom > 256 ? visibleFrom - 256 : 0;
    last = std::min(line.size(), visibleFrom + visibleChars + 256);
  }
  std::string_view slice = line.substr(first, last - first);
  tokenizeLine(slice, ctx.tokens);
  for (const Token& t : ctx.tokens) {
    float x = side.textX + static_cast<float>(first + t.begin) * ctx.charW;
    float xEnd = side.textX + static_cast<float>(first + t.end) * ctx.charW;
    if (xEnd < side.clipLeft || x > side.clipRight) continue;
    ctx.dl->AddText(ctx.font, ctx.fontSize, ImVec2(x, y), imColour(t.role), slice.data() + t.begin,
                    slice.data() + t.end);
  }
}

/// Marks every occurrence of `query` in `line` (case-insensitive unless asked).
void drawMatches(DrawContext& ctx, const SideLayout& side, float y, std::string_view line, std::string_view query,
                 bool caseSensitive) {
  if (query.empty() || line.size() < query.size()) return;
  auto eq = [caseSensitive](char a, char b) {
    return caseSensitive ? a == b : std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  };
  for (auto it = line.begin(); (it = std::search(it, line.end(), query.begin(), query.end(), eq)) != line.end(); ++it) {
    float x = side.textX + static_cast<float>(it - line.begin()) * ctx.charW;
    ctx.dl->AddRectFilled(ImVec2(x, y), ImVec2(x + query.size() * ctx.charW, y + ctx.lineH),
                          imColour(ColourRole::SearchMatchBg));
  }
}

/// The remarks of one gutter dot, as a tooltip (the first few when a line carries many).
void drawRemarkTooltip(const RemarksModel& model, const std::vector<size_t>& rows) {
  constexpr size_t kShown = 8;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 50.f);
  for (size_t i = 0; i < rows.size() && i < kShown; ++i) {
    const RemarkRow& r = model.rows()[rows[i]];
    textColoured(remarkColour(r.kind), remarkKindName(r.kind));
    ImGui::SameLine();
    ImGui::TextDisabled("%s", r.rule.c_str());
    ImGui::SameLine();
    ImGui::TextUnformatted(r.message.c_str());
  }
  if (rows.size() > kShown) ImGui::TextDisabled("+%zu more in the Remarks panel", rows.size() - kShown);
  ImGui::TextDisabled("click: show in the Remarks panel and the graph");
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

int digitsOf(size_t n) {
  int d = 1;
  while (n >= 10) n /= 10, ++d;
  return d;
}

}  // namespace

void IrViewPanel::draw(GuiSession& session) {
  if (!session.workbench().loaded()) {
    // A failed load at start says why here, not only in the Console tab.
    emptyState(session.loadError().empty()
                   ? "No model loaded.\nOpen one with File > Open, pass it on the command line, or `load FILE` in the console."
                   : "No model loaded.\n" + session.loadError());
    return;
  }
  drawHeader(session);
  // The cursor moved away (a step, a click in the trace): the edit no longer applies there.
  if (editing_ && session.view().selectedEvent != editEvent_) editing_ = false;
  if (session.view().beginEdit) {
    session.view().beginEdit = false;
    beginEdit(session);
  }
  if (editing_) {
    drawEditor(session);
    return;
  }
  drawToolbar(session);
  drawBody(session);
}

void IrViewPanel::beginEdit(GuiSession& session) {
  const ViewState& view = session.view();
  editEvent_ = view.selectedEvent;
  editFunction_ = view.functionFilter;
  editText_ = session.workbench().moduleText(editEvent_, Side::After, editFunction_);
  editError_.clear();
  editing_ = true;
}

void IrViewPanel::drawEditor(GuiSession& session) {
  ImGui::TextDisabled("editing the module after #%d%s: Apply parses and type-checks it, records an `edit` event and "
                      "continues the pipeline from there (a recorded future stays on its branch)",
                      editEvent_, editFunction_.empty() ? "" : (" (@" + editFunction_ + ")").c_str());
  bool apply = ImGui::Button("Apply");
  ImGui::SameLine();
  bool cancel = ImGui::Button("Cancel");
  if (!editError_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, imColour(ColourRole::SeverityError));
    ImGui::TextWrapped("%s", editError_.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::InputTextMultiline("##edit", &editText_, ImVec2(-1, -1), ImGuiInputTextFlags_AllowTabInput);
  if (cancel) {
    editing_ = false;
    return;
  }
  if (!apply) return;
  // Through the console command, so the GUI and scripts share one path (and the console log shows it).
  const std::string path = (std::filesystem::temp_directory_path() / ("passlab-gui-edit-" + std::to_string(editEvent_) + ".relay")).string();
  {
    std::ofstream out(path, std::ios::binary);
    out << editText_;
  }
  CommandResult r = session.runCommand("edit " + (editFunction_.empty() ? std::string() : "@" + editFunction_ + " ") + "--from \"" + path + "\"", false);
  if (r.ok()) {
    editing_ = false;
    editError_.clear();
    std::filesystem::remove(path);
  } else {
    editError_ = r.error();
  }
}

void IrViewPanel::drawHeader(GuiSession& session) {
  const Workbench& wb = session.workbench();
  const ViewState& view = session.view();
  const TraceEvent& ev = wb.event(view.selectedEvent);
  IrDiffModel& diff = session.irDiff();
  ImGui::Text("#%d %s", ev.id, ev.pass.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("context %s | %.2f ms", ev.contextName.c_str(), ev.wallMs);
  ImGui::SameLine();
  if (diff.identical()) {
    ImGui::TextDisabled("| no change (before = after)");
  } else {
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    textColoured(ColourRole::EventChanged, "+" + std::to_string(diff.addedCount()));
    ImGui::SameLine();
    textColoured(ColourRole::SeverityError, "-" + std::to_string(diff.removedCount()));
    ImGui::SameLine();
    textColoured(ColourRole::GlobalName, "~" + std::to_string(diff.changedCount()));
    if (diff.movedCount()) {
      ImGui::SameLine();
      ImGui::TextDisabled("<> %zu moved", diff.movedCount());
    }
    if (diff.aligned()) {
      // Lines compared under the before side's names: renumbering is not coloured.
      ImGui::SameLine();
      ImGui::TextDisabled("| aligned: %s", plainSummary(wb.changeSummary(ev.id)).c_str());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The after side prints matched nodes under their before names, so only inserted,\n"
                          "deleted and updated nodes are coloured. Double-click a line to jump to its\n"
                          "counterpart on the other side (where moved code went, or came from).");
    }
  }
  // Attribute changes at this event, watched ones highlighted; click to scroll to the marker.
  const auto& changes = diff.attrChanges();
  if (!changes.empty()) {
    ImGui::TextDisabled("attributes:");
    int shown = 0;
    for (size_t i = 0; i < changes.size() && shown < 12; ++i, ++shown) {
      const AttrChangeNote& note = changes[i];
      const AttrChange& c = note.change;
      // "-Primitive: -1" read as a negative value; say added/removed in words of the key.
      const std::string owner = c.function == "<module>" ? std::string("module") : "@" + c.function;
      std::string text = c.kind == AttrChange::Kind::Added     ? owner + " +" + c.key + "=" + c.newValue
                         : c.kind == AttrChange::Kind::Removed ? owner + " -" + c.key + " (was " + c.oldValue + ")"
                                                               : owner + " " + c.key + ": " + c.oldValue + " -> " + c.newValue;
      ImGui::SameLine();
      ImGui::PushID(static_cast<int>(i));
      ImGui::PushStyleColor(ImGuiCol_Text, imColour(note.watched.empty() ? ColourRole::AttrKey : ColourRole::WatchedAttr));
      if (ImGui::SmallButton(text.c_str()) && note.firstRow >= 0)
        session.view().irScroll = IrScrollRequest{note.firstRow, true};
      ImGui::PopStyleColor();
      ImGui::PopID();
    }
    if (changes.size() > 12) {
      ImGui::SameLine();
      ImGui::TextDisabled("+%zu more", changes.size() - 12);
    }
  }
}

void IrViewPanel::drawToolbar(GuiSession& session) {
  ViewState& view = session.view();
  IrDiffModel& diff = session.irDiff();
  // Function filter.
  ImGui::SetNextItemWidth(charWidth() * 22);
  std::string preview = view.functionFilter.empty() ? "(all functions)" : "@" + view.functionFilter;
  if (ImGui::BeginCombo("##fn", preview.c_str())) {
    if (ImGui::Selectable("(all functions)", view.functionFilter.empty())) session.setFunctionFilter("");
    for (const std::string& name : diff.functionNames())
      if (ImGui::Selectable(("@" + name).c_str(), name == view.functionFilter)) session.setFunctionFilter(name);
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  // Search (Ctrl+F focuses it; Enter / Shift+Enter go to the next / previous match).
  // A search set elsewhere (console, scripts) shows in the box.
  if (view.search != lastSearch_) {
    searchInput_ = lastSearch_ = view.search;
  }
  if (view.focusSearch) {
    ImGui::SetKeyboardFocusHere();
    view.focusSearch = false;
  }
  ImGui::SetNextItemWidth(charWidth() * 24);
  if (ImGui::InputTextWithHint("##search", "search (Ctrl+F)", &searchInput_, ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (searchInput_ != view.search) {
      session.setSearch(searchInput_);
      lastSearch_ = view.search;
    }
    else
      session.nextSearchHit(!ImGui::GetIO().KeyShift);
    ImGui::SetKeyboardFocusHere(-1);
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##prev", ImGuiDir_Up)) session.nextSearchHit(false);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Down)) session.nextSearchHit(true);
  ImGui::SameLine();
  if (!view.search.empty())
    ImGui::TextDisabled("%d/%zu", view.searchIndex + 1, view.searchHits.size());
  else
    ImGui::TextDisabled("   ");
  ImGui::SameLine();
  if (ImGui::Checkbox("Aa", &view.searchCaseSensitive)) session.setSearch(view.search);
  ImGui::SameLine();
  // Change navigation.
  if (ImGui::Button("Prev change")) {
    int r = diff.nextChangedRow(topRow_, false);
    if (r >= 0) view.irScroll = IrScrollRequest{r, true};
  }
  ImGui::SameLine();
  if (ImGui::Button("Next change")) {
    int r = diff.nextChangedRow(topRow_ + 1, true);
    if (r >= 0) view.irScroll = IrScrollRequest{r, true};
  }
  ImGui::SameLine();
  // Go to line.
  ImGui::SetNextItemWidth(charWidth() * 8);
  if (ImGui::InputTextWithHint("##goto", "line", &gotoInput_,
                               ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CharsDecimal)) {
    unsigned line = 0;
    std::from_chars(gotoInput_.data(), gotoInput_.data() + gotoInput_.size(), line);
    if (line > 0) session.goToLine(gotoBefore_ ? Side::Before : Side::After, line);
  }
  ImGui::SameLine();
  ImGui::Checkbox("in before", &gotoBefore_);
  ImGui::SameLine();
  if (ImGui::Button("Edit")) beginEdit(session);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Edit the IR after this event (or the filtered function) and continue the pipeline");
}

void IrViewPanel::drawBody(GuiSession& session) {
  ViewState& view = session.view();
  IrDiffModel& diff = session.irDiff();
  const size_t rowCount = diff.visibleRows().size();
  if (rowCount == 0) {
    emptyState(view.functionFilter.empty() ? "The module prints as no text."
                                           : "@" + view.functionFilter + " is not in this event's modules.");
    return;
  }
  {
    // Captions over the two halves.
    const TraceEvent& ev = session.workbench().event(view.selectedEvent);
    float x0 = ImGui::GetCursorPosX();
    ImGui::TextDisabled("before #%d %s%s", ev.id, ev.pass.c_str(), diff.identical() ? "  (= after)" : "");
    ImGui::SameLine(x0 + std::floor(ImGui::GetContentRegionAvail().x * 0.5f) + ImGui::GetStyle().WindowPadding.x);
    ImGui::TextDisabled("after #%d %s", ev.id, ev.pass.c_str());
  }
  ImGui::BeginChild("##irbody", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);

  DrawContext ctx{ImGui::GetWindowDrawList(), ImGui::GetFont(), ImGui::GetFontSize(), charWidth(),
                  ImGui::GetTextLineHeightWithSpacing(), ImGui::GetScrollX(), {}};
  const float lineH = ctx.lineH;
  const float visibleH = ImGui::GetWindowHeight();
  if (view.irScroll) {
    float target = view.irScroll->row * lineH - (view.irScroll->center ? visibleH / 3.f : 0.f);
    ImGui::SetScrollY(std::max(0.f, target));
    view.irScroll.reset();
  }

  // Two halves fixed on screen; only the text inside them scrolls horizontally.
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float viewLeft = origin.x + ImGui::GetScrollX();
  const float viewWidth = ImGui::GetContentRegionAvail().x + 0.f;
  const size_t maxLine = std::max(diff.before().index.lineCount(), diff.after().index.lineCount());
  // Remarks put a dot in the gutter of the lines that print their nodes: one more column when there are any.
  const RemarksModel& remarks = session.remarksModel();
  const bool remarkColumn = remarks.markedLines(Side::Before) + remarks.markedLines(Side::After) > 0;
  const float gutter = (digitsOf(maxLine) + (remarkColumn ? 3 : 2)) * ctx.charW;
  const float half = std::floor(viewWidth * 0.5f);
  SideLayout sides[2];
  for (int s = 0; s < 2; ++s) {
    SideLayout& L = sides[s];
    L.x0 = viewLeft + s * half;
    L.width = half - (s == 0 ? 2.f : 0.f);
    L.gutter = gutter;
    L.clipLeft = L.x0 + gutter;
    L.clipRight = L.x0 + L.width;
    L.textX = L.clipLeft + 4.f - ctx.scrollX;
  }
  const float textAreaW = half - gutter - 4.f;
  const float contentW = viewWidth + std::max(0.f, diff.maxLineLength() * ctx.charW - textAreaW + ctx.charW * 2);

  const IrLocation* highlight = view.highlight ? &*view.highlight : nullptr;
  const int currentHit = view.searchIndex >= 0 && view.searchIndex < static_cast<int>(view.searchHits.size())
                             ? static_cast<int>(view.searchHits[static_cast<size_t>(view.searchIndex)])
                             : -1;
  // The clipper only says which rows are on screen; drawing happens after it,
  // side by side in phases, so each side's text is under one clip rectangle and
  // ImGui merges it into a few draw calls (a clip rectangle per row would cost a
  // draw call per row and side, which a software rasteriser feels).
  struct VisibleRow {
    int index;
    float y;
  };
  std::vector<VisibleRow> onScreen;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rowCount), lineH);
  while (clipper.Step()) {
    if (onScreen.empty()) topRow_ = clipper.DisplayStart;
    for (int v = clipper.DisplayStart; v < clipper.DisplayEnd; ++v) {
      onScreen.push_back(VisibleRow{v, ImGui::GetCursorScreenPos().y});
      // The item is one text line high; ItemSpacing.y makes the advance exactly lineH.
      ImGui::Dummy(ImVec2(contentW, ImGui::GetTextLineHeight()));
    }
  }
  const std::vector<size_t>* hoveredRemarks = nullptr;
  for (int s = 0; s < 2; ++s) {
    const SideLayout& L = sides[s];
    const bool after = s == 1;
    const Side side = after ? Side::After : Side::Before;
    const PrintedText& text = after ? diff.after() : diff.before();
    // Phase 1: row backgrounds, line numbers and markers (inside the child's clip rectangle).
    for (const VisibleRow& vr : onScreen) {
      const DiffRow& row = diff.visibleRow(static_cast<size_t>(vr.index));
      const uint32_t lineNo = after ? row.newLine : row.oldLine;
      const float y = vr.y;
      ColourRole bg = rowBackground(row.kind, after);
      if (bg != ColourRole::Count) ctx.dl->AddRectFilled(ImVec2(L.x0, y), ImVec2(L.x0 + L.width, y + lineH), imColour(bg));
      if (highlight && highlight->side == side && highlight->lines.contains(lineNo))
        ctx.dl->AddRectFilled(ImVec2(L.x0, y), ImVec2(L.x0 + L.width, y + lineH), imColour(ColourRole::DiagnosticLineBg));
      if (lineNo == 0) continue;
      char num[16];
      int len = std::snprintf(num, sizeof num, "%u", lineNo);
      float numX = L.x0 + L.gutter - (len + 1) * ctx.charW;
      ctx.dl->AddText(ImVec2(numX, y), imColour(ColourRole::TextDim), num, num + len);
      if (row.attrMarker) {
        float cx = L.x0 + ctx.charW * 0.6f, cy = y + lineH * 0.5f, r = lineH * 0.32f;
        ctx.dl->AddQuadFilled(ImVec2(cx, cy - r), ImVec2(cx + r, cy), ImVec2(cx, cy + r), ImVec2(cx - r, cy),
                              imColour(ColourRole::AttrChangeMarker));
      }
      if (const std::vector<size_t>* marked = remarkColumn ? remarks.rowsAt(side, lineNo) : nullptr) {
        float cx = L.x0 + ctx.charW * 1.7f, cy = y + lineH * 0.5f;
        ctx.dl->AddCircleFilled(ImVec2(cx, cy), lineH * 0.26f, imColour(remarkColour(remarks.markKind(*marked))));
        const ImVec2 m = ImGui::GetMousePos();
        if (ImGui::IsWindowHovered() && m.y >= y && m.y < y + lineH && m.x >= L.x0 && m.x < L.x0 + ctx.charW * 2.4f)
          hoveredRemarks = marked;
      }
    }
    // Phase 2: the text area of this side under one clip rectangle.
    ctx.dl->PushClipRect(ImVec2(L.clipLeft, origin.y + ImGui::GetScrollY()),
                         ImVec2(L.clipRight, origin.y + ImGui::GetScrollY() + visibleH), true);
    for (const VisibleRow& vr : onScreen) {
      const DiffRow& row = diff.visibleRow(static_cast<size_t>(vr.index));
      const uint32_t lineNo = after ? row.newLine : row.oldLine;
      if (lineNo == 0) continue;
      std::string_view line = text.index.line(lineNo);
      if (row.kind == RowKind::Changed) {
        IntralineChange ch = intralineChange(diff.before().index.line(row.oldLine), diff.after().index.line(row.newLine));
        uint32_t b = after ? ch.newBegin : ch.oldBegin, e = after ? ch.newEnd : ch.oldEnd;
        if (e > b)
          ctx.dl->AddRectFilled(ImVec2(L.textX + b * ctx.charW, vr.y), ImVec2(L.textX + e * ctx.charW, vr.y + lineH),
                                imColour(ColourRole::DiffIntraline));
      }
      if (!view.search.empty()) drawMatches(ctx, L, vr.y, line, view.search, view.searchCaseSensitive);
      drawLine(ctx, L, vr.y, line);
    }
    ctx.dl->PopClipRect();
  }
  for (const VisibleRow& vr : onScreen)
    if (vr.index == currentHit)
      ctx.dl->AddRect(ImVec2(viewLeft, vr.y), ImVec2(viewLeft + viewWidth, vr.y + lineH), imColour(ColourRole::WatchedAttr));
  // The divider between before and after, and the side captions.
  ctx.dl->AddLine(ImVec2(viewLeft + half - 1, origin.y + ImGui::GetScrollY()),
                  ImVec2(viewLeft + half - 1, origin.y + ImGui::GetScrollY() + visibleH),
                  ImGui::GetColorU32(ImGuiCol_Separator), 2.f);
  // A remark dot: its remarks on hover; a click selects the first in the Remarks panel.
  if (hoveredRemarks) {
    drawRemarkTooltip(remarks, *hoveredRemarks);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      const std::vector<size_t>& visible = remarks.visible();
      auto it = std::find(visible.begin(), visible.end(), hoveredRemarks->front());
      if (it != visible.end()) {
        session.view().showPanel(PanelId::Remarks);
        session.jumpToRemark(static_cast<size_t>(it - visible.begin()));
      }
    }
  }
  // A constant reference under the mouse (either side): its description, and a click runs `show const N`.
  bool hoveredConstant = false;
  if (!hoveredRemarks && ImGui::IsWindowHovered()) {
    const ImVec2 m = ImGui::GetMousePos();
    const int s = m.x >= viewLeft + half ? 1 : 0;
    const SideLayout& L = sides[s];
    const int v = static_cast<int>(std::floor((m.y - origin.y) / lineH));
    if (m.x >= L.clipLeft && m.x < L.clipRight && m.x >= L.textX && v >= 0 && v < static_cast<int>(rowCount)) {
      const DiffRow& row = diff.visibleRow(static_cast<size_t>(v));
      const uint32_t lineNo = s == 1 ? row.newLine : row.oldLine;
      const PrintedText& text = s == 1 ? diff.after() : diff.before();
      if (lineNo)
        hoveredConstant = hoverConstant(session, text.index.line(lineNo), L.textX, origin.y + static_cast<float>(v) * lineH,
                                        ctx.charW, lineH);
    }
  }
  // Clicking a line highlights it (and is where "go to line" lands).
  if (!hoveredRemarks && !hoveredConstant && ImGui::IsWindowHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    ImVec2 m = ImGui::GetMousePos();
    int v = static_cast<int>((m.y - origin.y) / lineH);
    if (v >= 0 && v < static_cast<int>(rowCount)) {
      const DiffRow& row = diff.visibleRow(static_cast<size_t>(v));
      bool after = m.x >= viewLeft + half;
      uint32_t line = after ? row.newLine : row.oldLine;
      if (line) view.highlight = IrLocation{after ? Side::After : Side::Before, LineRange{line, line}, 0, 0};
    }
  }
  // Double-click: the node's counterpart on the other side (moved code links to where it went).
  if (ImGui::IsWindowHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && diff.aligned()) {
    ImVec2 m = ImGui::GetMousePos();
    int v = static_cast<int>((m.y - origin.y) / lineH);
    if (v >= 0 && v < static_cast<int>(rowCount)) {
      const DiffRow& row = diff.visibleRow(static_cast<size_t>(v));
      bool after = m.x >= viewLeft + half;
      uint32_t line = after ? row.newLine : row.oldLine;
      uint32_t other = diff.counterpartLine(after ? Side::After : Side::Before, line);
      if (other) view.highlight = IrLocation{after ? Side::Before : Side::After, LineRange{other, other}, 0, 0};
    }
  }
  ImGui::EndChild();
}

bool IrViewPanel::hoverConstant(GuiSession& session, std::string_view line, float textX, float y, float charW, float lineH) {
  const size_t column = static_cast<size_t>((ImGui::GetMousePos().x - textX) / charW);
  std::optional<ConstantRefSpan> span = constantRefAt(line, column);
  if (!span) return false;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddLine(ImVec2(textX + span->begin * charW, y + lineH - 1.f), ImVec2(textX + span->end * charW, y + lineH - 1.f),
              imColour(ColourRole::GlobalName), 1.f);
  ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  if (constTipGeneration_ != session.generation() || constTipNumber_ != span->number || constTipScript_ != span->tvmscript) {
    constTip_ = constantTooltip(session.workbench(), *span);
    constTipGeneration_ = session.generation();
    constTipNumber_ = span->number;
    constTipScript_ = span->tvmscript;
  }
  const std::string command = constantCommand(*span);
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(constTip_.data(), constTip_.data() + constTip_.size());
  ImGui::TextDisabled("click: `%s` in the console (Up, then add --all for every value)", command.c_str());
  ImGui::EndTooltip();
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    // Typed as the user would, so it is in the history for the `--all` edit.
    session.runCommand(command, /*userTyped=*/true);
    session.view().showPanel(PanelId::Console);
  }
  return true;
}

}  // namespace passlab::gui
