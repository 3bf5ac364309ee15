// The `gui` console command: what the GUI can do beyond the REPL's commands
// (which panel is in front, the IR view's filter, search and scroll position,
// clicking a diagnostic, screenshots), as a command, so scripts and tests can
// drive every behaviour of the GUI.
#include <algorithm>
#include <array>
#include <charconv>

#include "gui/model/gui_session.h"

namespace passlab::gui {
namespace {

int parseNumber(const std::string& text, const char* what) {
  int n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0)
    throw WorkbenchError(std::string("expected ") + what + ", got '" + text + "'");
  return n;
}

std::string panelList() {
  std::string out;
  for (const std::string& k : panelKeys()) out += (out.empty() ? "" : "|") + k;
  return out;
}

/// `gui graph ...`: what the Graph panel's toolbar and canvas do.
void runGraph(GuiSession& s, CommandArgs& args, CommandResult& result) {
  ViewState& view = s.view();
  view.showPanel(PanelId::Graph);
  const std::string sub = args.size() > 1 ? args[1] : "";
  if (sub.empty() || sub[0] == '@') {
    std::string fn = sub.empty() ? "" : sub.substr(1);
    view.graphFunction = fn;
    GraphViewModel& model = s.graphModel();
    if (!model.message().empty()) throw WorkbenchError(model.message());
    result.out("graph: @" + model.function() + " at event #" + std::to_string(model.event()) + "\n");
    return;
  }
  GraphViewModel& model = s.graphModel();
  if (sub == "fit") {
    model.side(Side::Before).refit = model.side(Side::After).refit = true;
    model.follow = false;
  } else if (sub == "collapse" || sub == "expand") {
    model.setAllCollapsed(sub == "collapse");
  } else if (sub == "next") {
    model.nextHit();
  } else if (sub == "follow") {
    if (args.size() != 3 || (args[2] != "on" && args[2] != "off")) throw WorkbenchError("usage: gui graph follow on|off");
    model.follow = args[2] == "on";
  } else if (sub == "search") {
    size_t n = model.search(args.size() > 2 ? args.rest(2) : "");
    result.out(std::to_string(n) + " matching graph nodes\n");
  } else if (sub == "line") {
    if (args.size() < 3 || args.size() > 4) throw WorkbenchError("usage: gui graph line <N> [before|after]");
    Side side = args.size() == 4 && args[3] == "before" ? Side::Before : Side::After;
    uint32_t line = static_cast<uint32_t>(parseNumber(args[2], "a line number"));
    if (!s.goToLine(side, line)) throw WorkbenchError(s.status());
    const IrDiffModel& ir = s.irDiff();
    GraphPick pick = model.nodeAtLine(side, line, side == Side::Before ? ir.before() : ir.after());
    if (!pick.valid()) throw WorkbenchError("no graph node of @" + model.function() + " is printed on line " + std::to_string(line));
    model.select(pick);
    result.out("selected " + model.side(side).graph->nodes[static_cast<size_t>(pick.node)].title + "\n");
  } else if (sub == "wait") {
    // Scripts and screenshots: block until the layouts are done (the panel
    // itself never waits; a script asks for it explicitly).
    model.layouts().waitIdle();
    model.poll();
  } else if (sub == "zoom") {
    if (args.size() != 3) throw WorkbenchError("usage: gui graph zoom <percent>");
    model.zoomTo(static_cast<float>(parseNumber(args[2], "a zoom percentage")) / 100.f);
  } else if (sub == "size") {
    if (args.size() != 3) throw WorkbenchError("usage: gui graph size <percent>");
    int p = parseNumber(args[2], "a percentage");
    if (p < 10 || p > 90) throw WorkbenchError("the bottom area takes 10..90% of the window, not " + args[2]);
    view.bottomFraction = static_cast<float>(p) / 100.f;
  } else {
    throw WorkbenchError("unknown gui graph subcommand '" + sub + "' (fit, collapse, expand, next, wait, follow, search, line, size, zoom)");
  }
}

/// `gui remarks ...`: what the Remarks panel's filters do.
void runRemarks(GuiSession& s, CommandArgs& args, CommandResult& result) {
  ViewState& view = s.view();
  view.showPanel(PanelId::Remarks);
  const std::string sub = args.size() > 1 ? args[1] : "";
  RemarkFilter& f = view.remarkFilter;
  if (sub == "kind") {
    if (args.size() != 3) throw WorkbenchError("usage: gui remarks kind all|<kind>[,<kind>...] (applied, missed, analysis)");
    std::array<bool, 3> kinds{false, false, false};
    if (args[2] == "all") {
      kinds = {true, true, true};
    } else {
      size_t pos = 0;
      const std::string& list = args[2];
      while (pos <= list.size()) {
        size_t comma = list.find(',', pos);
        std::string word = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        auto k = parseRemarkKind(word);
        if (!k) throw WorkbenchError("unknown remark kind '" + word + "' (applied, missed, analysis, all)");
        kinds[static_cast<size_t>(*k)] = true;
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
    }
    f.kinds = kinds;
  } else if (sub == "rule") {
    if (args.size() > 3) throw WorkbenchError("usage: gui remarks rule [<rule>|<prefix>.]");
    f.rule = args.size() == 3 ? args[2] : "";
    if (!f.rule.empty() && f.rule.back() != '.' && !findRemarkRule(f.rule))
      throw WorkbenchError("unknown remark rule '" + f.rule + "' (docs/remarks.md lists them; a prefix ends in '.')");
  } else if (sub == "pass") {
    if (args.size() > 3) throw WorkbenchError("usage: gui remarks pass [<pass>]");
    f.pass = args.size() == 3 ? args[2] : "";
  } else if (sub == "text") {
    f.text = args.size() > 2 ? args.rest(2) : "";
  } else if (sub == "clear") {
    f = RemarkFilter{};
  } else if (!sub.empty()) {
    throw WorkbenchError("unknown gui remarks subcommand '" + sub + "' (kind, rule, pass, text, clear)");
  }
  RemarksModel& model = s.remarksModel();
  result.out(model.summary() + "\n" + std::to_string(model.visible().size()) + " of " + std::to_string(model.rows().size()) +
             " shown\n");
}

}  // namespace

Command makeGuiCommand(GuiSession& session) {
  Command c;
  c.name = "gui";
  const std::string panels = panelList();
  c.syntax = {"gui panel " + panels,
              "gui close " + panels,
              "gui filter [@<function>]",
              "gui search [<text>]",
              "gui line <N> [before|after]",
              "gui diag <N>",
              "gui remark <N>",
              "gui remarks [kind all|<kind>,...] [rule [<rule>]] [pass [<pass>]] [text <text>] [clear]",
              "gui unchanged show|hide",
              "gui graph [@<function>]",
              "gui graph fit|collapse|expand|next|wait",
              "gui graph follow on|off",
              "gui graph search <text>",
              "gui graph line <N> [before|after]",
              "gui graph size <percent>",
              "gui graph zoom <percent>",
              "gui screenshot <file>",
              "gui screenshot-progress <file>",
              "gui edit",
              "gui wait <N>"};
  c.summary = "Drive the GUI: panels, IR filter, search, go to line, diagnostics, screenshots";
  c.help =
      "`gui panel NAME` opens a panel and brings it to the front; `gui close NAME` hides it. "
      "`gui filter @f` shows only function @f in the IR view (`gui filter` shows all). "
      "`gui search TEXT` finds TEXT in the IR view and scrolls to the first match. "
      "`gui line N` scrolls to line N of the after side (or `before`). "
      "`gui diag N` does what clicking the N-th row of the diagnostics panel does. "
      "`gui remark N` does what clicking the N-th row of the Remarks panel does (the IR view and the graph show its node); "
      "`gui remarks` prints the selected event's remark counts and filters the panel and the IR gutter: `kind missed,applied`, "
      "`rule fuse.pattern-boundary` (or a prefix `fuse.`; no rule: every rule), `pass FuseOps` (no pass: every pass), "
      "`text WORDS`, `clear`. "
      "`gui unchanged hide` hides unchanged passes in the trace. "
      "`gui graph @f` shows the Graph panel on function @f (`gui graph` on the default: @main or the changed "
      "function); `fit`, `collapse`, `expand` every box, `next` search hit, `wait` until the layouts are done (scripts), `follow on|off`, `search TEXT` "
      "(selects and centres the first match), `line N` selects the node printed on line N (as clicking the line "
      "in the IR view does), `size P` gives the bottom area P% of the window, `zoom P` zooms both sides to P% around the selection. "
      "`gui screenshot FILE` writes the next frame to FILE (PNG); `gui screenshot-progress FILE` writes the first frame "
      "that shows the next long command's progress bar with a status line. "
      "`gui edit` opens the IR view's editor on the cursor's module (or the filtered function), as its Edit button does. "
      "`gui wait N` lets N frames pass before a script's next line.";
  GuiSession* s = &session;
  c.run = [s](CommandContext&, CommandArgs& args, CommandResult& result) {
    if (args.empty()) throw WorkbenchError("usage: gui panel|close|filter|search|line|diag|unchanged|graph|screenshot|wait ...");
    const std::string& sub = args[0];
    ViewState& view = s->view();
    if (sub == "panel" || sub == "close") {
      if (args.size() != 2) throw WorkbenchError("usage: gui " + sub + " " + panelList());
      auto id = panelFromKey(args[1]);
      if (!id) throw WorkbenchError("unknown panel '" + args[1] + "' (" + panelList() + ")");
      if (sub == "panel")
        view.showPanel(*id);
      else
        view.open[static_cast<size_t>(*id)] = false;
    } else if (sub == "filter") {
      std::string fn = args.size() > 1 ? args[1] : "";
      if (!fn.empty() && fn[0] == '@') fn.erase(0, 1);
      if (!fn.empty()) {
        auto names = s->irDiff().functionNames();
        if (std::find(names.begin(), names.end(), fn) == names.end())
          throw WorkbenchError("no function @" + fn + " at event #" + std::to_string(view.selectedEvent));
      }
      s->setFunctionFilter(fn);
      result.out(fn.empty() ? "IR view: whole module\n" : "IR view: @" + fn + "\n");
    } else if (sub == "search") {
      s->setSearch(args.size() > 1 ? args.rest(1) : "");
      result.out(std::to_string(view.searchHits.size()) + " matching rows\n");
    } else if (sub == "line") {
      if (args.size() < 2 || args.size() > 3) throw WorkbenchError("usage: gui line <N> [before|after]");
      Side side = args.size() == 3 && args[2] == "before" ? Side::Before : Side::After;
      if (args.size() == 3 && args[2] != "before" && args[2] != "after")
        throw WorkbenchError("expected before or after, got '" + args[2] + "'");
      if (!s->goToLine(side, static_cast<uint32_t>(parseNumber(args[1], "a line number"))))
        throw WorkbenchError(s->status());
    } else if (sub == "diag") {
      if (args.size() != 2) throw WorkbenchError("usage: gui diag <N>");
      int n = parseNumber(args[1], "a diagnostic number (1, 2, ...)");
      if (n < 1 || !s->jumpToDiagnostic(static_cast<size_t>(n - 1))) throw WorkbenchError(s->status());
      view.showPanel(PanelId::Diagnostics);
      result.out(s->status() + "\n");
    } else if (sub == "remark") {
      if (args.size() != 2) throw WorkbenchError("usage: gui remark <N>");
      int n = parseNumber(args[1], "a remark number (1, 2, ...)");
      view.showPanel(PanelId::Remarks);
      if (n < 1 || !s->jumpToRemark(static_cast<size_t>(n - 1))) throw WorkbenchError(s->status());
      result.out(s->status() + "\n");
    } else if (sub == "remarks") {
      runRemarks(*s, args, result);
    } else if (sub == "unchanged") {
      if (args.size() != 2 || (args[1] != "show" && args[1] != "hide")) throw WorkbenchError("usage: gui unchanged show|hide");
      view.traceFilter.hideUnchanged = args[1] == "hide";
      s->invalidateViews();
    } else if (sub == "graph") {
      runGraph(*s, args, result);
    } else if (sub == "screenshot") {
      if (args.size() != 2) throw WorkbenchError("usage: gui screenshot <file>");
      s->screenshotRequests().push_back(args[1]);
    } else if (sub == "screenshot-progress") {
      if (args.size() != 2) throw WorkbenchError("usage: gui screenshot-progress <file>");
      s->progress().requestScreenshot(args[1]);
    } else if (sub == "edit") {
      if (args.size() != 1) throw WorkbenchError("usage: gui edit");
      view.beginEdit = true;
      view.showPanel(PanelId::IrView);
    } else if (sub == "wait") {
      if (args.size() != 2) throw WorkbenchError("usage: gui wait <N>");
      view.waitFrames = parseNumber(args[1], "a frame count");
    } else {
      throw WorkbenchError("unknown gui subcommand '" + sub + "' (panel, close, filter, search, line, diag, remark, remarks, unchanged, graph, screenshot, screenshot-progress, edit, wait)");
    }
  };
  return c;
}

}  // namespace passlab::gui
