#include "report/report_remarks.h"

#include "core/workbench/remarks.h"
#include "report/html_text.h"

namespace passlab {

namespace {

/// Remarks listed under one rule of one event; the rest are counted.
constexpr size_t kListed = 50;

}  // namespace

void writeRemarksSection(std::string& out, const Workbench& wb) {
  out += "<section id=\"remarks\"><h2>Remarks</h2>\n";
  std::vector<RemarkHit> hits = findRemarks(wb, RemarkQuery{});
  if (hits.empty()) {
    out += std::string("<p class=\"note\">") +
           (wb.remarks() ? "No pass recorded a remark." : "Remarks were off during this run (<code>remarks on</code>).") +
           "</p></section>\n";
    return;
  }
  out += "<p class=\"muted\">Why each pass did (applied), did not (missed), or on what facts it decided (analysis), "
         "rewrite the nodes named, as <code>show --before</code> prints them at the event.</p>\n";
  for (const RemarkEventSummary& s : summarizeRemarks(hits)) {
    const TraceEvent& ev = wb.event(s.event);
    out += "<div class=\"remarks-event\" id=\"remarks-" + std::to_string(s.event) + "\"><h3><a class=\"ev-link\" href=\"#ev-" +
           std::to_string(s.event) + "\">#" + std::to_string(s.event) + "</a> " + htmlEscape(ev.pass) +
           (ev.depth > 0 ? " <span class=\"muted\">(nested, " + htmlEscape(ev.contextName) + ")</span>" : "") + "</h3>\n";
    size_t k = 0;
    for (const RemarkEventSummary::Count& c : s.counts) {
      const RemarkRuleInfo& info = remarkRuleInfo(c.rule);
      out += "<details class=\"remark-rule\"><summary>" + std::to_string(c.count) + " × <code>" + htmlEscape(info.id) +
             "</code> <span class=\"muted\">" + std::string(remarkKindName(c.kind)) + "</span></summary><div class=\"body\"><p class=\"muted\">" +
             htmlEscape(info.description) + "</p><table class=\"grid remarks\"><tr><th>function</th><th>nodes</th><th>message</th></tr>\n";
      for (size_t i = 0; i < c.count; ++i, ++k) {
        if (i >= kListed) continue;
        const RemarkHit& h = hits[s.hits[k]];
        std::string nodes;
        for (const std::string& n : h.nodes) nodes += (nodes.empty() ? "" : " ") + n;
        out += "<tr><td class=\"mono\">" + (h.remark->function.empty() ? "" : "@" + htmlEscape(h.remark->function)) +
               "</td><td class=\"mono\">" + htmlEscape(nodes) + "</td><td>" + htmlEscape(h.remark->message) + "</td></tr>\n";
      }
      out += "</table>";
      if (c.count > kListed) out += "<p class=\"muted\">" + std::to_string(c.count - kListed) + " more</p>";
      out += "</div></details>\n";
    }
    out += "</div>\n";
  }
  out += "</section>\n";
}

}  // namespace passlab
