// The HTML report (report/html_report.h): the page skeleton and the embedded
// data. Each section is one function below, in the order the page shows them.
#include "report/html_report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

#include "core/ir/severity_names.h"
#include "core/text/load_text.h"
#include "core/text/printer.h"
#include "core/trace/diff.h"
#include "core/trace/trace_json.h"
#include "report/html_text.h"
#include "report/report_assets.h"
#include "report/report_changes.h"
#include "report/report_remarks.h"

namespace passlab {
namespace {

std::string fmtMs(double ms) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, ms < 10 ? "%.2f ms" : "%.0f ms", ms);
  return buffer;
}

std::string fmtNumber(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

std::string passLabel(const TraceEvent& ev) { return ev.options.empty() ? ev.pass : ev.pass + "{" + ev.options + "}"; }

/// `#N` linking to the event's line in the trace tree.
std::string eventLink(const Workbench& wb, int id) {
  return "<a class=\"ev-link\" href=\"#ev-" + std::to_string(id) + "\">#" + std::to_string(id) + "</a> " +
         htmlEscape(passLabel(wb.event(id)));
}

// ---- Header ------------------------------------------------------------------

void writeHeader(std::string& out, const Workbench& wb, const ReportOptions& options, const ReportModel& model) {
  const PassContext& ctx = wb.context();
  const IRModule& loaded = wb.moduleAt(0, Side::After);
  auto attrText = [&](const char* key) {
    const AttrValue* v = loaded->attrs.find(key);
    return v ? htmlEscape(v->toString()) : std::string("<span class=\"muted\">none</span>");
  };
  out += "<header>\n<h1>" + htmlEscape(options.title.empty() ? "passlab report: " + wb.sourceName() : options.title) + "</h1>\n";
  out += "<table class=\"kv\" id=\"overview\">\n";
  out += "<tr><td>input</td><td class=\"mono\">" + htmlEscape(wb.sourceName()) + "</td></tr>\n";
  // The IR below prints in the session's print syntax, which may differ from the input's.
  out += "<tr><td>syntax</td><td>" + htmlEscape(describeTextOrigin(wb.textOrigin())) + "; IR shown as " +
         (wb.printSyntax() == TextSyntax::TVMScript ? std::string("TVMScript") : std::string("Relay text")) + "</td></tr>\n";
  out += "<tr><td>pipeline</td><td class=\"mono\">" +
         (wb.pipelineSpec().empty() ? std::string("<span class=\"muted\">none set</span>") : htmlEscape(wb.pipelineSpec())) +
         "</td></tr>\n";
  out += "<tr><td>target</td><td class=\"mono\">" + htmlEscape(ctx.target.empty() ? "(none)" : ctx.target) + "</td></tr>\n";
  out += "<tr><td>executor</td><td class=\"mono\">" + attrText(module_attr::kExecutor) + "</td></tr>\n";
  out += "<tr><td>runtime</td><td class=\"mono\">" + attrText(module_attr::kRuntime) + "</td></tr>\n";
  out += "<tr><td>opt level</td><td>" + std::to_string(ctx.optLevel) + "</td></tr>\n";
  std::string config;
  for (const auto& [key, value] : ctx.explicitConfig().entries())
    config += "<div class=\"mono\">" + htmlEscape(key) + " = " + htmlEscape(value.toString()) + "</div>";
  for (const std::string& p : ctx.disabledPasses) config += "<div class=\"mono\">disabled_pass " + htmlEscape(p) + "</div>";
  for (const std::string& p : ctx.requiredPasses) config += "<div class=\"mono\">required_pass " + htmlEscape(p) + "</div>";
  out += "<tr><td>config changes</td><td>" + (config.empty() ? std::string("<span class=\"muted\">none (every key at its default)</span>") : config) +
         "</td></tr>\n";
  std::string recorded = std::to_string(model.events) + " events: " + std::to_string(model.changedEvents) + " changed, " +
                         std::to_string(model.unchangedEvents) + " unchanged, " + std::to_string(model.skippedEvents) + " skipped, " +
                         std::to_string(model.failedEvents) + " failed; " + std::to_string(wb.passesExecuted()) + " of " +
                         std::to_string(wb.pipelinePasses().size()) + " pipeline passes run; pass time " + fmtMs(model.totalMs);
  out += "<tr><td>recorded</td><td>" + htmlEscape(recorded) + "</td></tr>\n";
  out += "</table>\n</header>\n";
  out += "<nav><a href=\"#trace\">Trace</a><a href=\"#changes\">Changes</a><a href=\"#attributes\">Attributes</a>"
         "<a href=\"#config\">Config</a><a href=\"#diagnostics\">Diagnostics</a><a href=\"#remarks\">Remarks</a><a href=\"#numeric\">Numeric check</a>"
         "<a href=\"#builds\">Builds</a><button id=\"expand-all\" type=\"button\">Expand all</button>"
         "<button id=\"collapse-all\" type=\"button\">Collapse all</button></nav>\n";
}

// ---- Trace tree ----------------------------------------------------------------

std::string statusText(const Workbench& wb, const TraceEvent& ev, const ReportModel& model) {
  if (ev.id == 0) return "<span class=\"muted\">the loaded module</span>";
  if (const BuildLog& builds = wb.builds(); builds.isCodegen(ev.id)) {
    if (builds.isBuild(ev.id)) return "<span class=\"status-changed\">build</span> of " + eventLink(wb, builds.builtFrom(ev.id));
    return "<span class=\"muted\">" + std::to_string(builds.artifacts(ev.id).size()) + " artifact(s)</span>";
  }
  switch (ev.status) {
    case EventStatus::Changed: {
      std::string out = "<span class=\"status-changed\">changed</span> <a href=\"#change-" + std::to_string(ev.id) +
                        "\" class=\"summary-line\">" + htmlEscape(model.summaryOf(ev.id)) + "</a>";
      return out;
    }
    case EventStatus::Unchanged: return "<span class=\"status-unchanged\">unchanged</span>";
    case EventStatus::Skipped:
      return "<details class=\"inline\"><summary><span class=\"status-skipped\">skipped</span></summary>" +
             htmlEscape(ev.skipReason.empty() ? "no reason recorded" : ev.skipReason) + "</details>";
    case EventStatus::Failed: {
      std::string what = ev.failure;
      for (const Diagnostic& d : ev.diagnostics)
        if (d.severity == Severity::Error) {
          what = (d.rule.empty() ? "" : d.rule + ": ") + d.message;
          break;
        }
      return "<span class=\"status-failed\">FAILED</span> <span class=\"mono\">" + htmlEscape(what) + "</span>";
    }
  }
  return "";
}

void writeEventItem(std::string& out, const Workbench& wb, int id, const ReportModel& model) {
  const TraceEvent& ev = wb.event(id);
  bool quiet = !wb.builds().isCodegen(id) && id != 0 && (ev.status == EventStatus::Unchanged || ev.status == EventStatus::Skipped);
  out += "<li id=\"ev-" + std::to_string(id) + "\" class=\"ev" + (quiet ? " quiet" : "") + "\" data-status=\"" +
         std::string(eventStatusName(ev.status)) + "\"><span class=\"mono\">#" + std::to_string(id) + "</span> <b>" +
         htmlEscape(id == 0 ? "load" : passLabel(ev)) + "</b> " + statusText(wb, ev, model);
  if (!ev.skips.empty()) {
    out += " <details class=\"inline\"><summary class=\"muted\">left " + std::to_string(ev.skips.size()) + " function(s) alone</summary><ul>";
    for (const FunctionSkip& s : ev.skips) out += "<li class=\"mono\">@" + htmlEscape(s.function) + ": " + htmlEscape(s.reason) + "</li>";
    out += "</ul></details>";
  }
  if (!ev.diagnostics.empty() && ev.status != EventStatus::Failed)
    out += " <a class=\"diag-warning\" href=\"#diag-" + std::to_string(id) + "\">" + std::to_string(ev.diagnostics.size()) + " diagnostic(s)</a>";
  if (id != 0) out += "<span class=\"time\">" + fmtMs(ev.wallMs) + "</span>";
  if (!ev.children.empty()) {
    out += "<ul>";
    for (int c : ev.children) writeEventItem(out, wb, c, model);
    out += "</ul>";
  }
  out += "</li>\n";
}

void writeTrace(std::string& out, const Workbench& wb, const ReportModel& model) {
  out += "<section id=\"trace\"><h2>Trace</h2>\n";
  out += "<p class=\"toolbar\"><span class=\"quiet-count\">" + std::to_string(model.quietEvents) +
         " unchanged or skipped passes are folded away.</span><label><input type=\"checkbox\" id=\"show-quiet\"> show them</label></p>\n";
  out += "<ul class=\"trace\">\n";
  for (int id : wb.trace().topLevel()) writeEventItem(out, wb, id, model);
  out += "</ul></section>\n";
}

// ---- Attribute timeline ------------------------------------------------------------

void writeAttributes(std::string& out, const Workbench& wb) {
  out += "<section id=\"attributes\"><h2>Attribute timeline</h2>\n";
  AttrTimelineQuery query;
  query.changedOnly = true;
  AttrTimeline table = wb.attrTimeline(query);
  if (table.rows.empty()) {
    out += "<p class=\"note\">No function or module attribute changed during the run.</p></section>\n";
    return;
  }
  // Columns where no row changes carry no information; keep the first one as the starting point.
  std::vector<size_t> columns;
  for (size_t c = 0; c < table.events.size(); ++c) {
    bool any = c == 0;
    for (const AttrTimeline::Row& row : table.rows) any = any || row.cells[c].changed;
    if (any) columns.push_back(c);
  }
  // Rows that tell the same story on several functions are one row, the
  // functions behind an expander: "global_symbol added on 81 functions".
  std::vector<AttrTimelineGroup> groups = groupAttrTimelineRows(table);
  out += "<p class=\"muted\">" + std::to_string(table.rows.size()) +
         " attribute(s) that changed, after each event that changed one; highlighted cells are the changes";
  if (groups.size() < table.rows.size())
    out += "; the same change on several functions is one row (" + std::to_string(groups.size()) + " rows)";
  out += ".</p>\n";
  out += "<div class=\"scroll\"><table class=\"grid mono attr-timeline\"><tr><th>function</th><th>attribute</th>";
  for (size_t c : columns) out += "<th>" + eventLink(wb, table.events[c]) + "</th>";
  out += "</tr>\n";
  for (const AttrTimelineGroup& group : groups) {
    const bool fold = group.rows.size() >= 3;
    for (size_t m = 0; m < (fold ? 1 : group.rows.size()); ++m) {
      const AttrTimeline::Row& row = table.rows[group.rows[m]];
      const std::string function(row.function);
      std::string who = htmlEscape(function == "<module>" ? function : "@" + function);
      if (fold) {
        std::string names;
        for (size_t r : group.rows) names += (names.empty() ? "@" : " @") + std::string(table.rows[r].function);
        who = "<details><summary>" + std::to_string(group.rows.size()) + " functions</summary>" + htmlEscape(names) + "</details>";
      }
      out += "<tr><td>" + who + "</td><td>" + htmlEscape(row.key) + "</td>";
      for (size_t c : columns) {
        const AttrTimeline::Cell& cell = row.cells[c];
        std::string cls = cell.changed ? "changed" : (cell.present ? "" : "absent");
        std::string value = cell.present ? htmlEscape(cell.value) : std::string("&mdash;");
        if (fold && cell.present && std::string(cell.value).find(function) != std::string::npos &&
            cell.value.size() <= function.size() + 2)
          value = "<i>own name</i>";
        out += "<td" + (cls.empty() ? std::string() : " class=\"" + cls + "\"") + ">" + value + "</td>";
      }
      out += "</tr>\n";
    }
  }
  out += "</table></div></section>\n";
}

// ---- Config provenance -----------------------------------------------------------

void writeConfig(std::string& out, const Workbench& wb) {
  out += "<section id=\"config\"><h2>Config provenance</h2>\n";
  std::vector<ProvenanceConflict> conflicts = wb.provenanceConflicts(-1);
  if (!conflicts.empty()) {
    out += "<div class=\"conflicts\" id=\"conflicts\"><b>" + std::to_string(conflicts.size()) +
           " provenance conflict(s)</b>: a nested pass decided on a value its own context contradicts.<ul>";
    for (const ProvenanceConflict& c : conflicts)
      out += "<li>" + (c.event >= 0 ? eventLink(wb, c.event) + ": " : std::string()) + htmlEscape(c.message) + "</li>";
    out += "</ul></div>\n";
  }
  size_t reads = 0;
  for (const TraceEvent& ev : wb.trace().events()) reads += ev.configReads.size();
  if (reads == 0) {
    out += "<p class=\"note\">No pass read a configuration value.</p></section>\n";
    return;
  }
  out += "<p class=\"muted\">Every value a pass decided on, where it came from and in which context it was read.</p>\n";
  out += "<table class=\"grid config-reads\"><tr><th>event</th><th>key</th><th>value</th><th>source</th><th>context</th></tr>\n";
  for (const TraceEvent& ev : wb.trace().events())
    for (const ConfigRead& r : ev.configReads) {
      bool conflict = std::any_of(conflicts.begin(), conflicts.end(),
                                  [&](const ProvenanceConflict& c) { return c.event == ev.id && c.key == r.key; });
      out += std::string(conflict ? "<tr class=\"conflict\">" : "<tr>") + "<td>" + std::string(static_cast<size_t>(ev.depth) * 2, ' ') +
             eventLink(wb, ev.id) + "</td><td class=\"mono\">" + htmlEscape(r.key) + "</td><td class=\"mono\">" +
             htmlEscape(r.value.toString()) + "</td><td>" + htmlEscape(configSourceName(r.source)) + "</td><td>" +
             htmlEscape(r.contextName) + (conflict ? " <span class=\"bad\">conflict</span>" : "") + "</td></tr>\n";
    }
  out += "</table></section>\n";
}

// ---- Diagnostics -------------------------------------------------------------------

void writeDiagnostics(std::string& out, const Workbench& wb) {
  out += "<section id=\"diagnostics\"><h2>Diagnostics</h2>\n";
  size_t count = 0;
  std::string rows;
  for (const TraceEvent& ev : wb.trace().events()) {
    bool first = true;
    for (const Diagnostic& d : ev.diagnostics) {
      ++count;
      const std::string severity(severityName(d.severity));
      std::string where = d.span.location();
      rows += "<tr" + (first ? " id=\"diag-" + std::to_string(ev.id) + "\"" : std::string()) + "><td>" + eventLink(wb, ev.id) +
              "</td><td class=\"diag-" + severity + "\">" + severity + "</td><td class=\"mono\">" + htmlEscape(d.rule) +
              "</td><td class=\"mono\">" + (d.function.empty() ? "" : "@" + htmlEscape(d.function)) + "</td><td class=\"mono\">" +
              htmlEscape(where) + "</td><td>" + htmlEscape(d.message) + "</td></tr>\n";
      first = false;
    }
  }
  if (count == 0) {
    out += "<p class=\"note\">No pass reported a diagnostic.</p></section>\n";
    return;
  }
  out += "<table class=\"grid diagnostics\"><tr><th>event</th><th>severity</th><th>rule</th><th>function</th><th>location</th><th>message</th></tr>\n" +
         rows + "</table></section>\n";
}

// ---- Numeric check ---------------------------------------------------------------

void writeNumeric(std::string& out, const Workbench& wb) {
  out += "<section id=\"numeric\"><h2>Numeric check</h2>\n";
  if (!wb.numericCheck()) {
    out += "<p class=\"note\">The numeric check was off during this run (<code>set numeric-check on</code> compares @main "
           "with the loaded module after every pass).</p></section>\n";
    return;
  }
  out += "<p class=\"muted\">@" + htmlEscape(wb.numericCheck()->function) + " after each pass compared with the loaded module (" +
         htmlEscape(describeNumericCheck(*wb.numericCheck())) + ").</p>\n";
  out += "<table class=\"grid numeric\"><tr><th>event</th><th>outputs</th><th>max abs error</th><th>max rel error</th><th>note</th></tr>\n";
  for (const TraceEvent& ev : wb.trace().events()) {
    if (!ev.numeric) continue;
    const NumericCheckResult& r = *ev.numeric;
    std::string cls = !r.compared || r.maxRelError > 1e-2 ? "bad" : "good";
    out += "<tr><td>" + eventLink(wb, ev.id) + "</td><td>" + std::to_string(r.outputs) + "</td><td class=\"" + cls + "\">" +
           (r.compared ? fmtNumber(r.maxAbsError) : "&mdash;") + "</td><td class=\"" + cls + "\">" +
           (r.compared ? fmtNumber(r.maxRelError) : "&mdash;") + "</td><td>" + htmlEscape(r.compared ? r.note : "not compared: " + r.note) +
           "</td></tr>\n";
  }
  out += "</table></section>\n";
}

// ---- Builds ------------------------------------------------------------------------

void writeBuilds(std::string& out, const Workbench& wb, ReportModel& model) {
  out += "<section id=\"builds\"><h2>Builds</h2>\n";
  bool any = false;
  const BuildLog& builds = wb.builds();
  for (int build : builds.builds()) {
    const TraceEvent& ev = wb.event(build);
    any = true;
    out += "<details class=\"build\" id=\"build-" + std::to_string(ev.id) + "\"><summary>" + eventLink(wb, ev.id) + " of " +
           eventLink(wb, builds.builtFrom(build)) + " <span class=\"time\">" + fmtMs(ev.wallMs) + "</span></summary><div class=\"body\">\n";
    for (const CodegenArtifact& a : builds.artifacts(build))
      if (!a.text.empty()) out += "<pre class=\"listing\">" + htmlEscape(a.text) + "</pre>\n";
    for (int stageId : ev.children) {
      const TraceEvent& stage = wb.event(stageId);
      out += "<details class=\"stage\"><summary>stage <b>" + htmlEscape(stage.pass) + "</b> <span class=\"muted\">" +
             std::to_string(builds.artifacts(stageId).size()) + " artifact(s)</span><span class=\"time\">" + fmtMs(stage.wallMs) +
             "</span></summary><div class=\"body\">\n";
      for (const CodegenArtifact& a : builds.artifacts(stageId))
        out += "<details class=\"code\" data-text=\"" + std::to_string(model.textId(a.text)) + "\"><summary class=\"mono\">" +
               htmlEscape(a.function.empty() ? "(whole module)" : "@" + a.function) + "</summary><div class=\"body\"></div></details>\n";
      out += "</div></details>\n";
    }
    out += "</div></details>\n";
  }
  if (!any) out += "<p class=\"note\">Nothing was built during this run (<code>build --host</code> or <code>build --hexagon</code>).</p>\n";
  out += "</section>\n";
}

}  // namespace

std::string renderHtmlReport(const Workbench& wb, const ReportOptions& options, ReportStats* stats) {
  if (!wb.loaded()) throw WorkbenchError("no module loaded: nothing to report (load a model and run a pipeline first)");
  ReportModel model(wb, options);
  std::string out;
  out.reserve(1 << 16);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'; img-src data:\">\n<title>" +
         htmlEscape(options.title.empty() ? "passlab report: " + wb.sourceName() : options.title) + "</title>\n<style>" +
         reportStylesheet() + "</style>\n</head>\n<body>\n";
  writeHeader(out, wb, options, model);
  out += "<main>\n";
  model.checkpoint("trace");
  writeTrace(out, wb, model);
  writeChanges(out, wb, model);
  model.checkpoint("attributes");
  writeAttributes(out, wb);
  model.checkpoint("configuration");
  writeConfig(out, wb);
  model.checkpoint("diagnostics");
  writeDiagnostics(out, wb);
  model.checkpoint("remarks");
  writeRemarksSection(out, wb);
  model.checkpoint("numeric check");
  writeNumeric(out, wb);
  model.checkpoint("builds");
  writeBuilds(out, wb, model);
  model.checkpoint("page data");
  out += "</main>\n<script id=\"passlab-data\" type=\"application/json\">";
  model.writeData(out);
  out += "</script>\n<script>";
  out += reportScript();
  out += "</script>\n</body>\n</html>\n";
  if (stats) {
    *stats = model.stats();
    stats->bytes = out.size();
  }
  return out;
}

ReportStats writeHtmlReport(const Workbench& wb, const std::string& path, const ReportOptions& options) {
  ReportStats stats;
  std::string html = renderHtmlReport(wb, options, &stats);
  std::ofstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot write " + path);
  file << html;
  if (!file.flush()) throw std::runtime_error("cannot write " + path);
  return stats;
}

}  // namespace passlab
