// The GUI's remarks: the Remarks panel's model (rows of the selected event and
// its nested passes, counts by rule, filters), the IR view's gutter marks, a
// click that shows the remark's node in the IR view and the graph, the `gui
// remark(s)` commands, and the panel and gutter drawn headless. Seed 000's
// pipeline gives FuseOps, FoldConstant and ToMixedPrecision remarks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "core/workbench/remarks.h"
#include "gui/model/gui_session.h"
#include "gui/panels/main_window.h"

using namespace passlab;
using namespace passlab::gui;

namespace {

const std::string kExamples = std::string(PASSLAB_SOURCE_DIR) + "/examples/";

/// Seed 000's pipeline run to the end, the cursor on the first event of `pass`.
void runSeed000(GuiSession& s, const std::string& pass) {
  REQUIRE(s.openModel(kExamples + "seed000/cnn_fp32.relay"));
  REQUIRE(s.applyPipeline("InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps"));
  s.perform(Action::Run);
  for (const TraceEvent& ev : s.workbench().trace().events())
    if (ev.pass == pass && ev.parent < 0) {
      s.selectEvent(ev.id);
      return;
    }
  FAIL("no top-level event of " << pass);
}

bool containsFolded(std::string hay, std::string needle) {
  auto lower = [](std::string t) {
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return t;
  };
  return lower(hay).find(lower(needle)) != std::string::npos;
}

}  // namespace

TEST_CASE("Remarks model: FuseOps' remarks, counted by rule, missed first, placed on their lines", "[gui][remarks]") {
  GuiSession s;
  runSeed000(s, "FuseOps");
  const int fuse = s.view().selectedEvent;
  RemarksModel& m = s.remarksModel();
  REQUIRE(!m.rows().empty());
  CHECK(m.visible().size() == m.rows().size());
  // Every row is FuseOps' own (the top-level FuseOps runs nothing nested).
  for (const RemarkRow& r : m.rows()) {
    CHECK(r.event == fuse);
    CHECK(r.pass == "FuseOps");
    CHECK(r.rule.rfind("fuse.", 0) == 0);
    CHECK(!r.message.empty());
  }
  // Counts add up, missed rules come first, and the summary says so.
  size_t total = 0;
  for (const auto& c : m.counts()) total += c.count;
  CHECK(total == m.rows().size());
  const bool anyMissed = std::any_of(m.rows().begin(), m.rows().end(), [](const RemarkRow& r) { return r.kind == RemarkKind::Missed; });
  REQUIRE(anyMissed);
  CHECK(m.counts().front().kind == RemarkKind::Missed);
  CHECK(m.summary().rfind(std::to_string(m.rows().size()) + " remarks: missed ", 0) == 0);
  // Nodes are named as the REPL's `remarks` names them (from the IR view's print, not a second one).
  RemarkQuery query;
  query.event = fuse;
  std::vector<RemarkHit> hits = findRemarks(s.workbench(), query);
  REQUIRE(hits.size() == m.rows().size());
  for (size_t i = 0; i < hits.size(); ++i) {
    CHECK(m.rows()[i].nodes == hits[i].nodes);
    CHECK(m.rows()[i].message == hits[i].remark->message);
  }
  // A remark about a node sits on the before line that prints the node, and the gutter knows it.
  const IrDiffModel& ir = s.irDiff();
  size_t placed = 0;
  for (size_t i = 0; i < m.rows().size(); ++i) {
    const RemarkRow& r = m.rows()[i];
    if (r.ir.empty() || !r.target || r.target->side != Side::Before) continue;
    const TextRange* range = ir.before().nodes.range(r.ir.front());
    REQUIRE(range != nullptr);
    CHECK(r.target->lines.first == range->line);
    const std::vector<size_t>* marked = m.rowsAt(Side::Before, r.target->lines.first);
    REQUIRE(marked != nullptr);
    CHECK(std::find(marked->begin(), marked->end(), i) != marked->end());
    // The name the panel shows is the one the line prints.
    std::string line(ir.before().index.line(r.target->lines.first));
    if (!r.nodes.empty() && r.nodes.front().rfind('%', 0) == 0) {
      CHECK(line.find(r.nodes.front()) != std::string::npos);
    }
    ++placed;
  }
  CHECK(placed > 0);
  CHECK(m.markedLines(Side::Before) > 0);
  // A line with a missed remark shows a missed mark.
  for (size_t i = 0; i < m.rows().size(); ++i)
    if (m.rows()[i].kind == RemarkKind::Missed && m.rows()[i].target) {
      CHECK(m.markKind(*m.rowsAt(m.rows()[i].target->side, m.rows()[i].target->lines.first)) == RemarkKind::Missed);
      break;
    }
}

TEST_CASE("Remarks model: filters by kind, rule and text, and the gutter follows them", "[gui][remarks]") {
  GuiSession s;
  runSeed000(s, "FuseOps");
  RemarksModel& m = s.remarksModel();
  const size_t all = m.rows().size();
  REQUIRE(all > 0);
  const size_t markedAll = m.markedLines(Side::Before);

  RemarkFilter missed;
  missed.kinds = {false, true, false};  // applied, missed, analysis
  s.view().remarkFilter = missed;
  RemarksModel& mm = s.remarksModel();
  REQUIRE(!mm.visible().empty());
  CHECK(mm.visible().size() < all);
  for (size_t i : mm.visible()) CHECK(mm.rows()[i].kind == RemarkKind::Missed);
  CHECK(mm.markedLines(Side::Before) <= markedAll);

  RemarkFilter byRule;
  byRule.rule = "fuse.group";
  s.view().remarkFilter = byRule;
  for (size_t i : s.remarksModel().visible()) CHECK(s.remarksModel().rows()[i].rule == "fuse.group");
  byRule.rule = "fuse.";  // a prefix
  s.view().remarkFilter = byRule;
  CHECK(s.remarksModel().visible().size() == all);

  RemarkFilter text;
  text.text = "CONV2D";  // case-insensitive, over message, nodes, rule and pass
  s.view().remarkFilter = text;
  REQUIRE(!s.remarksModel().visible().empty());
  for (size_t i : s.remarksModel().visible()) {
    const RemarkRow& r = s.remarksModel().rows()[i];
    std::string nodes;
    for (const std::string& n : r.nodes) nodes += n + " ";
    CHECK(containsFolded(r.message + " " + nodes + r.rule + " " + r.pass, "conv2d"));
  }

  RemarkFilter none;
  none.kinds = {false, false, false};
  s.view().remarkFilter = none;
  CHECK(s.remarksModel().visible().empty());
  CHECK(s.remarksModel().markedLines(Side::Before) == 0);
  CHECK(s.remarksModel().markedLines(Side::After) == 0);
  CHECK(s.remarksModel().rows().size() == all);  // filtered, not dropped
}

TEST_CASE("Remarks model: FoldConstant lists its nested FuseOps' remarks, placed only where their nodes print", "[gui][remarks]") {
  GuiSession s;
  runSeed000(s, "FoldConstant");
  const int fold = s.view().selectedEvent;
  RemarksModel& m = s.remarksModel();
  REQUIRE(!m.rows().empty());
  bool own = false, nested = false;
  for (const RemarkRow& r : m.rows()) {
    if (r.event == fold) {
      own = true;
      CHECK(r.pass == "FoldConstant");
    } else {
      nested = true;
      // Nested runs work on modules of their own: their nodes are not printed here.
      const TraceEvent& ev = s.workbench().event(r.event);
      CHECK(ev.parent >= 0);
    }
  }
  CHECK(own);
  CHECK(nested);
  // The pass filter keeps one of them.
  REQUIRE(m.passes().size() >= 2);
  CHECK(std::find(m.passes().begin(), m.passes().end(), "FoldConstant") != m.passes().end());
  REQUIRE(s.runCommand("gui remarks pass FuseOps", false).ok());
  const RemarksModel& only = s.remarksModel();
  REQUIRE(!only.visible().empty());
  CHECK(only.visible().size() < only.rows().size());
  for (size_t i : only.visible()) {
    CHECK(only.rows()[i].pass == "FuseOps");
    CHECK(only.rows()[i].event != fold);
  }
  REQUIRE(s.runCommand("gui remarks pass", false).ok());
  CHECK(s.remarksModel().visible().size() == s.remarksModel().rows().size());
}

TEST_CASE("A clicked remark shows its node in the IR view and selects it in the graph", "[gui][remarks][graph]") {
  GuiSession s;
  runSeed000(s, "FuseOps");
  RemarksModel& m = s.remarksModel();
  // The first remark about a node that the graph of its function draws.
  size_t index = m.visible().size();
  for (size_t v = 0; v < m.visible().size(); ++v) {
    const RemarkRow& r = m.rows()[m.visible()[v]];
    if (r.target && !r.ir.empty() && r.function == "main") {
      index = v;
      break;
    }
  }
  REQUIRE(index < m.visible().size());
  const RemarkRow row = m.rows()[m.visible()[index]];
  REQUIRE(s.jumpToRemark(index));
  CHECK_FALSE(s.statusIsError());
  CHECK(s.status().rfind("remark: ", 0) == 0);
  REQUIRE(s.view().highlight.has_value());
  CHECK(s.view().highlight->side == Side::Before);
  CHECK(s.view().highlight->lines.first == row.target->lines.first);
  REQUIRE(s.view().irScroll.has_value());
  CHECK(s.view().selectedRemark == static_cast<int>(m.visible()[index]));
  GraphViewModel& g = s.graphModel();
  CHECK(g.function() == "main");
  REQUIRE(g.selected().valid());
  CHECK(g.selected().side == Side::Before);
  const graph::Node& node = g.side(Side::Before).graph->nodes[static_cast<size_t>(g.selected().node)];
  CHECK(std::find(row.ir.begin(), row.ir.end(), node.ir) != row.ir.end());
  // Past the end: refused with a reason.
  CHECK_FALSE(s.jumpToRemark(m.visible().size()));
  CHECK(s.statusIsError());
}

TEST_CASE("gui remark and gui remarks drive the panel from the console", "[gui][remarks][console]") {
  GuiSession s;
  runSeed000(s, "FuseOps");
  CommandResult r = s.runCommand("gui remarks kind missed", false);
  REQUIRE(r.ok());
  CHECK(s.view().focusTab == PanelId::Remarks);
  CHECK(s.view().remarkFilter.kinds == std::array<bool, 3>{false, true, false});
  CHECK(s.runCommand("gui remarks rule fuse.", false).ok());
  CHECK(s.view().remarkFilter.rule == "fuse.");
  CHECK_FALSE(s.runCommand("gui remarks rule fuse.no-such-rule", false).ok());
  CHECK_FALSE(s.runCommand("gui remarks kind sometimes", false).ok());
  CHECK(s.runCommand("gui remarks text conv2d", false).ok());
  CHECK(s.view().remarkFilter.text == "conv2d");
  CHECK(s.runCommand("gui remarks clear", false).ok());
  CHECK(s.view().remarkFilter == RemarkFilter{});
  CHECK(s.runCommand("gui remark 1", false).ok());
  CHECK(s.view().selectedRemark >= 0);
  CHECK_FALSE(s.runCommand("gui remark 0", false).ok());
  CHECK_FALSE(s.runCommand("gui remark 100000", false).ok());
  CHECK(s.runCommand("gui panel remarks", false).ok());
}

TEST_CASE("The Remarks tab lists rows, and the IR gutter marks remark lines, in a headless frame", "[gui][remarks][frames]") {
  ImGuiContext* ctx = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1600, 1000);
  io.DeltaTime = 1.f / 60.f;
  applyStyle();
  loadFonts(15.f);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(1)));
  {
    GuiSession s;
    MainWindow window(s);
    runSeed000(s, "FuseOps");
    s.view().showPanel(PanelId::Remarks);
    auto frame = [&] {
      ImGui::NewFrame();
      window.draw();
      ImGui::Render();
      return ImGui::GetDrawData();
    };
    frame();
    frame();
    CHECK(s.view().activeTab == PanelId::Remarks);
    // With the Remarks tab closed, the missed colour on screen is the IR gutter's dots.
    s.view().open[static_cast<size_t>(PanelId::Remarks)] = false;
    s.view().showPanel(PanelId::Diagnostics);
    const Rgba missed = colourOf(remarkColour(RemarkKind::Missed));
    const ImU32 want = IM_COL32(missed.r, missed.g, missed.b, missed.a);
    auto countColoured = [&] {
      frame();
      ImDrawData* d = frame();
      size_t n = 0;
      for (int l = 0; l < d->CmdListsCount; ++l)
        for (const ImDrawVert& v : d->CmdLists[l]->VtxBuffer) n += v.col == want;
      return n;
    };
    const size_t withMissed = countColoured();
    CHECK(withMissed > 0);
    // Hide missed remarks: their dots go (lines with only missed remarks lose the mark).
    REQUIRE(s.runCommand("gui remarks kind applied,analysis", false).ok());
    s.view().open[static_cast<size_t>(PanelId::Remarks)] = false;
    s.view().showPanel(PanelId::Diagnostics);
    CHECK(countColoured() < withMissed);
    s.view().remarkFilter.kinds = {false, false, false};
    countColoured();
    CHECK(s.remarksModel().markedLines(Side::Before) == 0);

    // Hovering a dot shows its remarks in a tooltip; a click selects the first in the Remarks panel.
    s.view().remarkFilter = RemarkFilter{};
    REQUIRE(s.runCommand("gui remarks kind missed", false).ok());
    s.view().open[static_cast<size_t>(PanelId::Remarks)] = false;
    s.view().showPanel(PanelId::Diagnostics);
    frame();
    ImDrawData* d = frame();
    // The topmost dot: its vertices are the only ones in the missed colour now.
    float top = 1e9f;
    for (int l = 0; l < d->CmdListsCount; ++l)
      for (const ImDrawVert& v : d->CmdLists[l]->VtxBuffer)
        if (v.col == want) top = std::min(top, v.pos.y);
    REQUIRE(top < 1e9f);
    float sx = 0, sy = 0;
    int n = 0;
    for (int l = 0; l < d->CmdListsCount; ++l)
      for (const ImDrawVert& v : d->CmdLists[l]->VtxBuffer)
        if (v.col == want && v.pos.y <= top + 12) sx += v.pos.x, sy += v.pos.y, ++n;
    const ImVec2 dot(sx / static_cast<float>(n), sy / static_cast<float>(n));
    auto tooltipShown = [&](ImVec2 mouse, bool click) {
      io.MousePos = mouse;
      frame();
      io.MouseDown[0] = click;
      frame();
      io.MouseDown[0] = false;
      ImDrawData* shown = frame();
      bool tooltip = false;
      for (int l = 0; l < shown->CmdListsCount; ++l) {
        const char* owner = shown->CmdLists[l]->_OwnerName;
        tooltip |= owner && std::string(owner).find("##Tooltip") != std::string::npos;
      }
      return tooltip;
    };
    CHECK_FALSE(tooltipShown(ImVec2(dot.x + 300, dot.y), false));  // over the text, not the dot
    CHECK(tooltipShown(dot, false));
    CHECK(s.view().selectedRemark == -1);
    tooltipShown(dot, true);
    REQUIRE(s.view().selectedRemark >= 0);
    CHECK(s.remarksModel().rows()[static_cast<size_t>(s.view().selectedRemark)].kind == RemarkKind::Missed);
    CHECK(s.view().open[static_cast<size_t>(PanelId::Remarks)]);
    CHECK(s.view().highlight.has_value());
  }
  ImGui::DestroyContext(ctx);
}
