#include "repl/format.h"

#include "core/ir/diagnostic_fold.h"
#include "core/text/load_text.h"
#include "core/text/metadata.h"

#include "repl/format_checks.h"

#include "core/workbench/value_text.h"
#include "core/workbench/setting_keys.h"

#include <unistd.h>

#include <algorithm>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace passlab {
namespace {

std::string fmtMs(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", ms);
  return buf;
}

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string indentText(const std::string& text, const std::string& prefix) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += prefix + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

/// Pads `plain` to `width` columns; `shown` is the same text possibly wrapped in colour.
std::string pad(const std::string& shown, const std::string& plain, size_t width) {
  return shown + std::string(width > plain.size() ? width - plain.size() : 0, ' ');
}

std::string passWithOptions(const TraceEvent& ev) {
  if (ev.options.empty()) return ev.pass;
  return ev.pass + (ev.options.front() == '{' ? ev.options : "{" + ev.options + "}");
}

/// A build or one of its stages (Workbench::build): what it compiled and what it holds.
std::string formatCodegenEventLine(const Workbench& wb, const TraceEvent& ev, const std::string& idText, const Style& style) {
  std::string out = idText + " " + style.cyan(style.unicode ? "▸" : "[>]") + " " + style.bold(passWithOptions(ev)) + "  ";
  if (ev.parent < 0) {
    out += "code generated from #" + std::to_string(wb.builds().builtFrom(ev.id)) + ":";
    for (int c : ev.children) out += " " + wb.event(c).pass;
    return out;
  }
  std::string functions;
  size_t count = 0;
  for (const CodegenArtifact& a : wb.builds().artifacts(ev.id))
    if (!a.function.empty()) functions += " @" + a.function, ++count;
  if (count == 0) return out + "whole module";
  // A long list of kernels would bury the line; `show` lists them.
  return out + (count > 4 ? std::to_string(count) + " functions" : "functions" + functions);
}

std::string pipelineStatus(const Workbench& wb) {
  const auto& passes = wb.pipelinePasses();
  if (passes.empty()) return "pipeline: none set";
  std::string out = "pipeline: " + std::to_string(wb.passesExecuted()) + " of " + std::to_string(passes.size()) + " passes run";
  if (wb.halted()) {
    int failed = wb.lastFailure();
    if (failed >= 0) out += "; stopped by the failure of #" + std::to_string(failed) + " " + wb.event(failed).pass;
  } else if (wb.passesExecuted() < passes.size()) {
    out += "; next: " + pipelineText(*passes[wb.passesExecuted()]);
  }
  return out;
}

}  // namespace

Style Style::forTerminal(int fd) {
  Style style;
  if (!isatty(fd)) return style;
  const char* noColor = std::getenv("NO_COLOR");
  style.colour = !(noColor && *noColor);
  const char* locale = std::setlocale(LC_CTYPE, nullptr);
  const char* lang = std::getenv("LC_ALL");
  if (!lang || !*lang) lang = std::getenv("LC_CTYPE");
  if (!lang || !*lang) lang = std::getenv("LANG");
  auto utf8 = [](const char* s) { return s && (std::strstr(s, "UTF-8") || std::strstr(s, "utf8") || std::strstr(s, "UTF8")); };
  style.unicode = utf8(locale) || utf8(lang);
  return style;
}

std::string eventMarker(const TraceEvent& ev, const Style& style) {
  switch (ev.status) {
    case EventStatus::Changed: return style.green(style.unicode ? "●" : "[*]");
    case EventStatus::Unchanged: return style.dim(style.unicode ? "○" : "[=]");
    case EventStatus::Skipped: return style.yellow(style.unicode ? "⊘" : "[-]");
    case EventStatus::Failed: return style.red(style.unicode ? "✗" : "[!]");
  }
  return "?";
}

std::string formatEventLine(const Workbench& wb, int id, const Style& style, bool showTime) {
  const TraceEvent& ev = wb.event(id);
  std::string idText = style.cyan("#" + std::to_string(id));
  if (id == 0) return idText + " load " + wb.sourceName();
  if (wb.builds().isCodegen(id)) return formatCodegenEventLine(wb, ev, idText, style);
  std::string out = idText + " " + eventMarker(ev, style) + " " + style.bold(passWithOptions(ev)) + "  ";
  switch (ev.status) {
    case EventStatus::Changed: {
      // Long lists are summarised here; `info` keeps the full list.
      out += style.green("changed");
      if (!ev.changedFunctions.empty()) out += " " + summarizeFunctionList(ev.changedFunctions);
      if (ev.moduleAttrsChanged) out += " (module attributes)";
      std::string summary = wb.changeSummary(id);
      if (!summary.empty()) out += " — " + summary;
      break;
    }
    case EventStatus::Unchanged: out += "unchanged"; break;
    case EventStatus::Skipped: {
      out += style.yellow("skipped");
      if (!ev.skipReason.empty()) out += " (" + ev.skipReason + ")";
      break;
    }
    case EventStatus::Failed: {
      out += style.red("FAILED");
      std::string what;
      for (const Diagnostic& d : ev.diagnostics)
        if (d.severity == Severity::Error) {
          what = (d.rule.empty() ? "" : d.rule + ": ") + firstLine(d.message);
          break;
        }
      if (what.empty()) what = firstLine(ev.failure);
      if (!what.empty()) out += " " + what;
      break;
    }
  }
  if (!ev.skips.empty()) {
    std::vector<std::string> names;
    for (const FunctionSkip& s : ev.skips) names.push_back("@" + s.function);
    out += "  (skipped " + cappedList(names, 3, false, " ") + ")";
  }
  if (showTime) out += "  " + style.dim(fmtMs(ev.wallMs));
  return out;
}

std::string formatChangeHeader(const Workbench& wb, int a, Side sideA, int b, Side sideB) {
  if (a == b && sideA == Side::Before && sideB == Side::After) {
    const TraceEvent& ev = wb.event(a);
    if (ev.status == EventStatus::Failed) wb.eventEdits(a);  // throws the clear message
    std::string summary = a == 0 ? "the loaded module" : wb.changeSummary(a);
    return "#" + std::to_string(a) + " " + ev.pass + ": " + summary + "\n";
  }
  auto side = [](Side s) { return s == Side::Before ? " (before)" : ""; };
  return "#" + std::to_string(a) + side(sideA) + " → #" + std::to_string(b) + side(sideB) + ": " +
         changeSummary(*wb.edits(a, sideA, b, sideB)) + "\n";
}

std::string formatOneSidedNote(const Workbench& wb, int a, Side sideA, int b, Side sideB, const std::string& function) {
  std::string fn = !function.empty() && function[0] == '@' ? function.substr(1) : function;
  if (fn.empty()) return "";
  bool inA = wb.moduleAt(a, sideA)->lookup(fn) != nullptr, inB = wb.moduleAt(b, sideB)->lookup(fn) != nullptr;
  if (inA == inB) return "";
  auto where = [](int id, Side s) { return "#" + std::to_string(id) + (s == Side::Before ? " (before)" : " (after)"); };
  return inA ? "note: @" + fn + " exists only in " + where(a, sideA) + ": all of it shows as removed\n"
             : "note: @" + fn + " exists only in " + where(b, sideB) + ": all of it shows as added\n";
}

std::string formatTraceTree(const Workbench& wb, const Style& style, bool showTime) {
  std::string out;
  for (const TraceEvent& ev : wb.trace().events()) {
    out += ev.id == wb.cursor() ? style.bold(">") + " " : "  ";
    out += std::string(static_cast<size_t>(ev.depth) * 2, ' ');
    out += formatEventLine(wb, ev.id, style, showTime) + "\n";
  }
  return out + pipelineStatus(wb) + "\n";
}

std::string cappedList(const std::vector<std::string>& items, size_t cap, bool all, const std::string& separator) {
  std::string out;
  const size_t shown = all || items.size() <= cap ? items.size() : cap;
  for (size_t i = 0; i < shown; ++i) out += (i ? separator : "") + items[i];
  if (shown < items.size()) out += separator + "… " + std::to_string(items.size() - shown) + " more";
  return out;
}

namespace {

/// "  … 61 more (--all lists every one)\n" after a capped block of lines.
std::string moreLines(size_t hidden, const std::string& indent) {
  return hidden ? indent + "… " + std::to_string(hidden) + " more (--all lists every one)\n" : "";
}

/// The attribute changes of an event as lines; with `fold`, a change made the
/// same way to several functions (same key, kind and values, or added with a
/// different value each, as global_symbol is) is one line: "global_symbol added on 81 functions".
std::vector<std::string> attrChangeLines(const std::vector<AttrChange>& changes, bool fold) {
  std::vector<std::string> lines;
  auto one = [](const AttrChange& c) {
    std::string fn = c.function == "<module>" ? c.function : "@" + c.function;
    switch (c.kind) {
      case AttrChange::Kind::Added: return fn + " " + c.key + ": added " + c.newValue;
      case AttrChange::Kind::Removed: return fn + " " + c.key + ": removed (was " + c.oldValue + ")";
      case AttrChange::Kind::Changed: return fn + " " + c.key + ": " + c.oldValue + " -> " + c.newValue;
    }
    return fn;
  };
  if (!fold) {
    for (const AttrChange& c : changes) lines.push_back(one(c));
    return lines;
  }
  // Group by (key, kind, the values that are the same for the whole group).
  struct Group {
    std::vector<const AttrChange*> members;
  };
  std::vector<std::pair<std::string, Group>> groups;
  auto groupKey = [](const AttrChange& c) {
    std::string k = c.key + '\x1f' + std::to_string(static_cast<int>(c.kind));
    if (c.kind != AttrChange::Kind::Added) k += '\x1f' + c.oldValue;
    if (c.kind != AttrChange::Kind::Removed && c.key != fn_attr::kGlobalSymbol) k += '\x1f' + c.newValue;
    return k;
  };
  for (const AttrChange& c : changes) {
    std::string k = groupKey(c);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == k; });
    if (it == groups.end()) {
      groups.emplace_back(k, Group{});
      it = groups.end() - 1;
    }
    it->second.members.push_back(&c);
  }
  // In the order of the changes: a folded group at its first member's place.
  for (const AttrChange& change : changes) {
    const std::string k = groupKey(change);
    const Group& g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == k; })->second;
    if (g.members.size() < 3) {
      lines.push_back(one(change));
      continue;
    }
    if (g.members.front() != &change) continue;
    const AttrChange& c = change;
    std::string what = c.key + (c.kind == AttrChange::Kind::Added ? " added" : c.kind == AttrChange::Kind::Removed ? " removed" : " changed");
    if (c.kind == AttrChange::Kind::Changed) what += " " + c.oldValue + " -> " + c.newValue;
    else if (c.kind == AttrChange::Kind::Added && c.key != fn_attr::kGlobalSymbol) what += " " + c.newValue;
    std::vector<std::string> names;
    for (const AttrChange* m : g.members) names.push_back(m->function == "<module>" ? m->function : "@" + m->function);
    lines.push_back(what + " on " + std::to_string(g.members.size()) + " functions (" + cappedList(names, 3, false, " ") + ")");
  }
  return lines;
}

}  // namespace

std::string formatEventInfo(const Workbench& wb, int id, const Style& style, bool showTime, bool all) {
  const TraceEvent& ev = wb.event(id);
  std::string out = formatEventLine(wb, id, style, false) + "\n";
  if (ev.parent != -1) {
    out += "  nested in:";
    for (int p = ev.parent; p != -1; p = wb.event(p).parent) out += " #" + std::to_string(p) + " " + wb.event(p).pass;
    out += "\n";
  } else if (id != 0) {
    for (size_t i = 0; i < wb.pipelinePasses().size(); ++i)
      if (wb.eventOfPass(i) == id)
        out += "  pipeline pass " + std::to_string(i + 1) + " of " + std::to_string(wb.pipelinePasses().size()) + "\n";
  }
  if (id != 0) out += "  context: " + ev.contextName + "\n";
  // Where the IR came from and how `show` prints it (one setting: `set syntax`).
  if (id == 0)
    out += "  loaded from " + wb.sourceName() + " as " + describeTextOrigin(wb.textOrigin()) + "; prints as " + formatPrintSyntax(wb) + "\n";
  if (ev.contextDepth > 0) {
    std::string config;
    for (const auto& [key, value] : ev.contextConfig.entries()) config += (config.empty() ? "" : ", ") + key + "=" + value.toString();
    out += "  context settings: target " + (ev.contextTarget.empty() ? std::string("(none)") : ev.contextTarget) + ", config " +
           (config.empty() ? std::string("(clean)") : config) + "\n";
  }
  if (PlaceholderSummary p = summarizePlaceholders(ev.after); p.any()) {
    out += "  placeholder constants: " + std::to_string(p.placeholders) +
           " (meta[relay.Constant][N] without a #[metadata] section: made-up data)";
    if (p.derived) out += ", " + std::to_string(p.derived) + " more computed from them";
    out += "\n";
  }
  if (ev.numeric) out += "  numeric check: " + formatNumericResult(*ev.numeric) + "\n";
  const bool codegen = wb.builds().isCodegen(id);
  if (wb.builds().isBuild(id))
    out += "  compiled the module of #" + std::to_string(wb.builds().builtFrom(id)) + " (`show` prints the summary)\n";
  // Code generation is timed by the build itself (bench/), not per recorded stage.
  if (showTime && id != 0 && !codegen) out += "  time: " + fmtMs(ev.wallMs) + "\n";
  if (ev.status == EventStatus::Changed && ev.changedFunctions.size() > 3) {
    std::vector<std::string> names;
    for (const std::string& f : ev.changedFunctions) names.push_back("@" + f);
    out += "  changed functions (" + std::to_string(names.size()) + "): " + cappedList(names, kNamesCap, all, " ") + "\n";
  }
  if (!ev.children.empty()) {
    std::vector<std::string> children;
    for (int c : ev.children) children.push_back("#" + std::to_string(c) + " " + wb.event(c).pass);
    out += (codegen ? "  stages: " : "  nested passes: ") + cappedList(children, kNamesCap, all, " ") + "\n";
  }
  if (!ev.configReads.empty()) {
    out += "  config reads:\n";
    for (const ConfigRead& r : ev.configReads)
      out += "    " + r.key + " = " + r.value.toString() + "  (" + std::string(configSourceName(r.source)) + ", context " +
             r.contextName + (r.pass != ev.pass ? ", read by " + r.pass : "") + ")\n";
  }
  if (!ev.skips.empty()) {
    out += "  skipped functions:\n";
    const size_t shown = all ? ev.skips.size() : std::min(ev.skips.size(), kListCap);
    for (size_t i = 0; i < shown; ++i) out += "    @" + ev.skips[i].function + ": " + ev.skips[i].reason + "\n";
    out += moreLines(ev.skips.size() - shown, "    ");
  }
  if (!ev.diagnostics.empty()) {
    out += "  diagnostics:\n";
    out += indentText(renderFolded(ev.diagnostics), "    ");
  }
  if (ev.before != ev.after) {
    std::vector<AttrChange> changes = diffAttrs(ev.before, ev.after);
    if (!changes.empty()) {
      out += "  attribute changes:\n";
      std::vector<std::string> lines = attrChangeLines(changes, !all);
      const size_t shown = all ? lines.size() : std::min(lines.size(), kListCap);
      for (size_t i = 0; i < shown; ++i) out += "    " + lines[i] + "\n";
      out += moreLines(lines.size() - shown, "    ");
    }
  }
  if (ev.status == EventStatus::Failed && !ev.failure.empty()) {
    out += "  failure:\n" + indentText(ev.failure, "    ");
  }
  return out;
}

std::string formatMove(const Workbench& wb, const MoveResult& move, const Style& style) {
  std::string out;
  for (int id : move.visited)
    out += std::string(static_cast<size_t>(wb.event(id).depth) * 2, ' ') + formatEventLine(wb, id, style, false) + "\n";
  for (const std::string& note : move.notes) out += style.dim("note: " + note) + "\n";
  switch (move.reason) {
    case StopReason::Reached: break;
    case StopReason::Breakpoint:
      for (int bpId : move.breakpoints)
        for (const Breakpoint& bp : wb.breakpoints())
          if (bp.id == bpId)
            out += style.yellow("breakpoint " + std::to_string(bp.id) + " (" + describeBreakpoint(bp) + ")") + " hit at #" +
                   std::to_string(move.to) + "\n";
      break;
    case StopReason::Failure: break;  // reported below, whatever stopped the move there
    case StopReason::EndOfTrace:
      out += "end of the pipeline\n";
      break;
    case StopReason::Interrupted:
      out += style.yellow("interrupted") + " at #" + std::to_string(move.to) + "; the trace is kept\n";
      break;
  }
  const TraceEvent& stop = wb.event(move.to);
  if (stop.status == EventStatus::Failed && move.reason != StopReason::Reached) {
    out += style.red("#" + std::to_string(move.to) + " " + stop.pass + " failed") + "; the module is unchanged\n";
    if (!stop.failure.empty()) out += indentText(stop.failure, "  ");
  }
  return out;
}

std::string formatWhere(const Workbench& wb, const Style& style) {
  int id = wb.cursor();
  std::string out = "at " + formatEventLine(wb, id, style, false) + "\n";
  for (int p = wb.event(id).parent; p != -1; p = wb.event(p).parent)
    out += "  in #" + std::to_string(p) + " " + wb.event(p).pass + "\n";
  return out + pipelineStatus(wb) + "\n";
}

std::string formatAttrTimeline(const Workbench& wb, const AttrTimeline& table, const Style& style, bool allColumns) {
  if (table.rows.empty()) return "no attributes to show\n";
  std::vector<size_t> columns;
  for (size_t c = 0; c < table.events.size(); ++c) {
    bool changed = false;
    for (const auto& row : table.rows) changed = changed || row.cells[c].changed;
    if (allColumns || c == 0 || changed) columns.push_back(c);
  }
  // Plain cell texts first, for widths; colour is applied when padding.
  std::vector<std::string> header = {"function", "attribute"};
  for (size_t c : columns) header.push_back("#" + std::to_string(table.events[c]) + " " + wb.event(table.events[c]).pass);
  std::vector<std::vector<std::string>> cells;
  std::vector<const AttrTimeline::Row*> shownRows;
  // Rows telling the same story fold into one ("81 functions"), unless --all.
  std::vector<AttrTimelineGroup> groups;
  if (allColumns) {
    for (size_t r = 0; r < table.rows.size(); ++r) groups.push_back({{r}});
  } else {
    groups = groupAttrTimelineRows(table);
  }
  size_t hiddenRows = 0;
  for (const AttrTimelineGroup& group : groups) {
    const bool fold = group.rows.size() >= 3;
    const size_t members = fold ? 1 : group.rows.size();
    for (size_t m = 0; m < members; ++m) {
      if (!allColumns && cells.size() >= 2 * kListCap) {
        ++hiddenRows;
        continue;
      }
      const auto& row = table.rows[group.rows[m]];
      std::string function(row.function);
      std::string who = function == "<module>" ? function : "@" + function;
      if (fold) {
        std::vector<std::string> names;
        for (size_t r : group.rows) names.push_back("@" + std::string(table.rows[r].function));
        who = std::to_string(names.size()) + " functions (" + cappedList(names, 2, false, " ") + ")";
      }
      std::vector<std::string> line = {who, std::string(row.key)};
      for (size_t c : columns) {
        const AttrTimeline::Cell& cell = row.cells[c];
        std::string value = cell.present ? std::string(cell.value) : "-";
        if (fold && cell.present && value.find(function) != std::string::npos && value.size() <= function.size() + 2)
          value = "(own name)";
        line.push_back(value + (cell.changed ? "*" : ""));
      }
      cells.push_back(std::move(line));
      shownRows.push_back(&row);
    }
  }
  std::vector<size_t> widths(header.size());
  for (size_t i = 0; i < header.size(); ++i) {
    widths[i] = header[i].size();
    for (const auto& line : cells) widths[i] = std::max(widths[i], line[i].size());
  }
  auto emit = [&](const std::vector<std::string>& line, const AttrTimeline::Row* row) {
    std::string out;
    for (size_t i = 0; i < line.size(); ++i) {
      bool last = i + 1 == line.size();
      bool changed = row && i >= 2 && row->cells[columns[i - 2]].changed;
      std::string shown = changed ? style.yellow(line[i]) : line[i];
      out += last ? shown : pad(shown, line[i], widths[i]) + "  ";
    }
    return out + "\n";
  };
  std::string out = emit(header, nullptr);
  for (size_t r = 0; r < cells.size(); ++r) out += emit(cells[r], shownRows[r]);
  if (hiddenRows) out += style.dim("(" + std::to_string(hiddenRows) + " more rows; `attrs --all` shows every row)") + "\n";
  if (!allColumns && columns.size() < table.events.size())
    out += style.dim("(" + std::to_string(table.events.size() - columns.size()) +
                     " events without attribute changes hidden; `attrs --all` shows them)") + "\n";
  return out;
}

std::string formatProvenance(const Workbench& wb, const Provenance& prov, const Style& style) {
  std::string out = style.bold(prov.query) + ": ";
  if (prov.registered) {
    out += "registered config key, default " + prov.registeredDefault;
    out += prov.explicitValue.empty() ? ", not set in the root context" : ", set to " + prov.explicitValue + " in the root context";
  } else if (!prov.keys.empty()) {
    // Part of recorded keys: config keys, or decisions such as PlanDevices' device.@main.%x.
    out += "part of " + std::to_string(prov.keys.size()) + " recorded key" + (prov.keys.size() == 1 ? "" : "s");
  } else {
    out += "not a registered config key";
  }
  out += "\n";
  if (prov.keys.size() > 1 || (prov.keys.size() == 1 && prov.keys[0] != prov.query)) {
    out += "matching keys:";
    for (const std::string& k : prov.keys) out += " " + k;
    out += "\n";
  }
  if (prov.entries.empty()) return out + "no recorded reads\n";
  out += std::to_string(prov.entries.size()) + (prov.entries.size() == 1 ? " read:\n" : " reads:\n");
  for (const ProvenanceEntry& e : prov.entries) {
    out += "  " + std::string(static_cast<size_t>(e.depth) * 2, ' ') + style.cyan("#" + std::to_string(e.event)) + " " + e.eventPass +
           ": " + e.read.key + " = " + style.bold(e.read.value.toString()) + "  (" + std::string(configSourceName(e.read.source)) +
           ", context " + e.read.contextName + (e.read.pass != e.eventPass ? ", read by " + e.read.pass : "") + ")\n";
  }
  return out + formatConflicts(prov.conflicts, style);
}

std::string formatBreakpoints(const Workbench& wb, const Style& style) {
  if (wb.breakpoints().empty()) return "no breakpoints\n";
  std::string out;
  for (const Breakpoint& bp : wb.breakpoints())
    out += std::to_string(bp.id) + ": " + describeBreakpoint(bp) + (bp.enabled ? "" : style.dim(" (disabled)")) + ", " +
           std::to_string(bp.hits) + (bp.hits == 1 ? " hit" : " hits") + "\n";
  return out;
}

std::string formatConfigKeys(const Workbench& wb, const Style& style) {
  std::string out;
  for (const ConfigKeyInfo* info : ConfigRegistry::global().all()) {
    out += style.bold(info->key) + "  (" + std::string(attrKindName(info->kind)) + ", default " + info->defaultValue.toString();
    if (const AttrValue* v = wb.context().explicitConfig().find(info->key)) out += ", set " + v->toString();
    out += ")\n";
    if (!info->description.empty()) out += "    " + info->description + "\n";
  }
  return out.empty() ? "no config keys are registered\n" : out;
}

std::string formatLoaded(const Workbench& wb, const std::string& name, bool withSyntax) {
  size_t functions = wb.functionNames(0).size();
  std::string out = "loaded " + name + (withSyntax ? " (" + describeTextOrigin(wb.textOrigin()) + ")" : std::string()) + ": " +
                    std::to_string(functions) + (functions == 1 ? " function" : " functions") +
                    (wb.loadOptions().typeCheck ? "" : " (not type-checked)") + "\n";
  for (const Diagnostic& note : wb.loadNotes()) out += note.render() + "\n";
  return out;
}

std::string formatPrintSyntax(const Workbench& wb) {
  std::string out = std::string(textSyntaxName(wb.printSyntax()));
  if (wb.printSyntaxSetting()) return out;
  return out + " (auto: the syntax the module was loaded in)";
}

std::string formatSettings(const Workbench& wb, const Style& style) {
  const PassContext& ctx = wb.context();
  auto joined = [](const std::set<std::string>& items) {
    std::string out;
    for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
    return out.empty() ? std::string("(none)") : out;
  };
  std::string out;
  auto line = [&](SettingKey key, const std::string& value) { out += std::string(settingKeyName(key)) + ": " + value + "\n"; };
  line(SettingKey::OptLevel, std::to_string(ctx.optLevel));
  line(SettingKey::Target, ctx.target.empty() ? std::string("(none)") : ctx.target);
  line(SettingKey::DisabledPass, joined(ctx.disabledPasses));
  line(SettingKey::RequiredPass, joined(ctx.requiredPasses));
  line(SettingKey::Syntax, formatPrintSyntax(wb));
  line(SettingKey::PrintConstants, std::string(constantStyleName(wb.constantStyle())));
  if (ctx.explicitConfig().empty()) out += "config: (defaults only)\n";
  for (const auto& [key, value] : ctx.explicitConfig().entries()) out += "config: " + key + " = " + value.toString() + "\n";
  if (wb.loaded()) {
    const AttrDict& attrs = wb.event(0).after->attrs;
    for (const auto& [key, value] : attrs.entries()) out += "module " + key + ": " + value.toString() + "\n";
  }
  return out;
}

}  // namespace passlab
