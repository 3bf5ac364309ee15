#include "gui/model/trace_model.h"

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <utility>

#include "core/pass/registry.h"

namespace passlab::gui {

EventIcon iconOf(const TraceEvent& ev) {
  if (ev.id == 0) return EventIcon::Load;
  switch (ev.status) {
    case EventStatus::Changed: return EventIcon::Changed;
    case EventStatus::Unchanged: return EventIcon::Unchanged;
    case EventStatus::Skipped: return EventIcon::Skipped;
    case EventStatus::Failed: return EventIcon::Failed;
  }
  return EventIcon::Unchanged;
}

ColourRole colourOf(EventIcon icon) {
  switch (icon) {
    case EventIcon::Changed: return ColourRole::EventChanged;
    case EventIcon::Unchanged: return ColourRole::EventUnchanged;
    case EventIcon::Skipped: return ColourRole::EventSkipped;
    case EventIcon::Failed: return ColourRole::EventFailed;
    case EventIcon::Pending: return ColourRole::EventPending;
    case EventIcon::Load: return ColourRole::Text;
  }
  return ColourRole::Text;
}

const char* glyphOf(EventIcon icon) {
  switch (icon) {
    case EventIcon::Changed: return "*";
    case EventIcon::Unchanged: return "=";
    case EventIcon::Skipped: return "-";
    case EventIcon::Failed: return "!";
    case EventIcon::Pending: return ".";
    case EventIcon::Load: return "o";
  }
  return "?";
}

namespace {

std::string formatMs(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ms < 10 ? "%.2f ms" : "%.1f ms", ms);
  return buf;
}

std::string joinFunctions(const std::vector<std::string>& names, size_t limit) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? " @" : "@") + names[i];
  if (names.size() > limit) out += " +" + std::to_string(names.size() - limit);
  return out;
}

const char* severityWord(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "?";
}

}  // namespace

std::string plainSummary(std::string text) {
  // The GUI font has no glyphs for these.
  for (auto [from, to] : {std::pair<std::string_view, std::string_view>{"→", "->"}, {"∅", "none"}, {"—", "-"}}) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  }
  return text;
}

namespace {

TraceRow rowOf(const Workbench& wb, const TraceEvent& ev, double slowestMs) {
  TraceRow row;
  row.event = ev.id;
  row.depth = ev.depth;
  row.label = ev.options.empty() ? ev.pass : ev.pass + "{" + ev.options + "}";
  row.icon = iconOf(ev);
  row.colour = colourOf(row.icon);
  row.wallMs = ev.wallMs;
  row.timeFraction = slowestMs > 0 ? static_cast<float>(ev.wallMs / slowestMs) : 0.f;
  row.hasChildren = !ev.children.empty();
  row.skippedFunctions = static_cast<int>(ev.skips.size());
  for (const Diagnostic& d : ev.diagnostics) {
    if (d.severity == Severity::Error) ++row.errors;
    if (d.severity == Severity::Warning) ++row.warnings;
    if (d.severity == Severity::Note) ++row.notes;
  }
  // The right-hand summary: what a user scanning the tree wants first.
  if (ev.status == EventStatus::Failed) {
    row.detail = ev.diagnostics.empty() ? "failed" : "failed: " + ev.diagnostics.front().rule;
  } else if (ev.status == EventStatus::Skipped) {
    row.detail = "skipped: " + ev.skipReason;
  } else if (!ev.changedFunctions.empty() || ev.moduleAttrsChanged) {
    row.detail = joinFunctions(ev.changedFunctions, 3);
    if (ev.moduleAttrsChanged) row.detail += row.detail.empty() ? "module attrs" : " +attrs";
    // What the pass did, in one line (node matcher; computed once per event and cached).
    if (!wb.builds().isCodegen(ev.id) && ev.id != 0) {
      row.summary = plainSummary(wb.changeSummary(ev.id));
      if (!row.summary.empty()) row.detail += ": " + row.summary;
    }
  }
  if (wb.builds().isBuild(ev.id)) {
    row.detail = "code from #" + std::to_string(wb.builds().builtFrom(ev.id));
  } else if (wb.builds().isCodegen(ev.id)) {
    size_t functions = 0;
    for (const CodegenArtifact& a : wb.builds().artifacts(ev.id)) functions += a.function.empty() ? 0 : 1;
    row.detail = functions ? std::to_string(functions) + " functions" : "whole module";
  }
  if (row.errors + row.warnings > 0 && ev.status != EventStatus::Failed)
    row.detail += (row.detail.empty() ? "" : "  ") + std::to_string(row.errors + row.warnings) + " diag";
  if (row.skippedFunctions > 0)
    row.detail += (row.detail.empty() ? "" : "  ") + std::to_string(row.skippedFunctions) + " fn skipped";

  std::string& tip = row.tooltip;
  tip = "#" + std::to_string(ev.id) + " " + row.label + "\ncontext: " + ev.contextName;
  if (ev.parent >= 0) tip += "\nnested in #" + std::to_string(ev.parent) + " " + wb.event(ev.parent).pass;
  tip += "\ntime: " + formatMs(ev.wallMs);
  if (!ev.changedFunctions.empty()) tip += "\nchanged: " + joinFunctions(ev.changedFunctions, 12);
  if (!row.summary.empty()) tip += "\n" + row.summary;
  if (ev.moduleAttrsChanged) tip += "\nmodule attributes changed";
  if (!ev.skipReason.empty()) tip += "\nnot run: " + ev.skipReason;
  for (const FunctionSkip& s : ev.skips) tip += "\nskipped @" + s.function + ": " + s.reason;
  for (const Diagnostic& d : ev.diagnostics) tip += "\n" + std::string(severityWord(d.severity)) + " [" + d.rule + "] " + d.message;
  if (!ev.configReads.empty()) tip += "\n" + std::to_string(ev.configReads.size()) + " config reads";
  return row;
}

}  // namespace

TraceModel buildTraceModel(const Workbench& wb, const TraceFilter& filter) {
  TraceModel model;
  model.position = describePosition(wb);
  if (!wb.loaded()) return model;
  const auto& events = wb.trace().events();
  const int cursor = wb.cursor();

  // An event is worth showing under the filter when it, or anything nested in
  // it, changed, failed or reported something. Children have larger ids than
  // their parents (ids are assigned in pre-order), so one backward pass suffices.
  std::vector<char> interesting(events.size(), 0);
  for (size_t i = events.size(); i-- > 0;) {
    const TraceEvent& ev = events[i];
    // Builds change no module, but are never noise: they are what the user asked to see.
    if (ev.status != EventStatus::Unchanged || !ev.diagnostics.empty() || ev.id == 0 || ev.id == cursor || wb.builds().isCodegen(ev.id))
      interesting[i] = 1;
    if (interesting[i] && ev.parent >= 0) interesting[static_cast<size_t>(ev.parent)] = 1;
  }
  double slowest = 0;
  for (const TraceEvent& ev : events) slowest = std::max(slowest, ev.wallMs);

  std::vector<int> pipelineIndexOf(events.size(), -1);
  for (size_t p = 0; p < wb.passesExecuted(); ++p) {
    int id = wb.eventOfPass(p);
    if (id >= 0 && static_cast<size_t>(id) < events.size()) pipelineIndexOf[static_cast<size_t>(id)] = static_cast<int>(p);
  }
  std::vector<std::string> passBreakpoints;
  for (const Breakpoint& bp : wb.breakpoints())
    if (bp.enabled && bp.kind == BreakKind::Pass) passBreakpoints.push_back(bp.pattern);
  auto hasPassBreakpoint = [&](const std::string& pass) {
    return std::find(passBreakpoints.begin(), passBreakpoints.end(), pass) != passBreakpoints.end();
  };

  for (const TraceEvent& ev : events) {
    if (filter.hideUnchanged && !interesting[static_cast<size_t>(ev.id)]) {
      ++model.hiddenCount;
      continue;
    }
    TraceRow row = rowOf(wb, ev, slowest);
    row.pipelineIndex = pipelineIndexOf[static_cast<size_t>(ev.id)];
    row.isCursor = ev.id == cursor;
    row.passBreakpoint = hasPassBreakpoint(ev.pass);
    row.breakpointHit = !wb.breakpointsHitBy(ev.id).empty();
    if (row.isCursor) model.cursorRow = static_cast<int>(model.rows.size());
    model.rows.push_back(std::move(row));
  }
  if (filter.showPending) {
    const auto& passes = wb.pipelinePasses();
    for (size_t p = wb.passesExecuted(); p < passes.size(); ++p) {
      TraceRow row;
      row.pipelineIndex = static_cast<int>(p);
      row.label = pipelineText(*passes[p]);
      row.icon = EventIcon::Pending;
      row.colour = ColourRole::EventPending;
      row.detail = wb.halted() ? "not run (pipeline halted)" : "pending";
      row.tooltip = "pipeline pass " + std::to_string(p + 1) + " of " + std::to_string(passes.size()) + ": " + row.label +
                    "\nruns when a step reaches it";
      row.passBreakpoint = hasPassBreakpoint(passes[p]->info().name);
      model.rows.push_back(std::move(row));
    }
  }
  return model;
}

std::string describePosition(const Workbench& wb) {
  if (!wb.loaded()) return "no model loaded";
  const TraceEvent& ev = wb.event(wb.cursor());
  std::string out = "#" + std::to_string(ev.id) + " " + ev.pass;
  if (ev.parent >= 0) {
    const TraceEvent& parent = wb.event(ev.parent);
    out += " (nested in #" + std::to_string(parent.id) + " " + parent.pass + ")";
  }
  // Which pipeline pass the cursor belongs to: its top-level ancestor.
  int top = ev.id;
  while (wb.event(top).parent >= 0) top = wb.event(top).parent;
  const size_t total = wb.pipelinePasses().size();
  int index = -1;
  for (size_t p = 0; p < wb.passesExecuted(); ++p)
    if (wb.eventOfPass(p) == top) index = static_cast<int>(p);
  if (total == 0)
    out += " | no pipeline";
  else if (index >= 0)
    out += " | pass " + std::to_string(index + 1) + " of " + std::to_string(total);
  else
    out += " | before pass 1 of " + std::to_string(total);
  switch (ev.status) {
    case EventStatus::Changed:
      out += " | changed";
      if (!ev.changedFunctions.empty()) out += " " + joinFunctions(ev.changedFunctions, 3);
      break;
    case EventStatus::Unchanged: out += ev.id == 0 ? " | loaded" : " | unchanged"; break;
    case EventStatus::Skipped: out += " | skipped"; break;
    case EventStatus::Failed: out += " | FAILED"; break;
  }
  if (wb.halted()) out += " | pipeline halted";
  else if (total > 0 && wb.passesExecuted() == total && wb.cursor() == wb.timeline().back()) out += " | end of pipeline";
  return out;
}

}  // namespace passlab::gui
