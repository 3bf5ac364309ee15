#include "repl/format_remarks.h"
#include "core/support/strings.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace passlab {

namespace {

/// Remarks listed per rule without --all.
constexpr size_t kPerRule = 3;

std::string nodeList(const RemarkHit& h) {
  std::string out;
  for (const std::string& n : h.nodes) out += (out.empty() ? "" : " ") + n;
  return out;
}

std::string remarkLine(const RemarkHit& h, const Style& style) {
  const Remark& r = *h.remark;
  std::string kind(remarkKindName(r.kind));
  std::string tagged = r.kind == RemarkKind::Missed ? style.yellow(kind) : r.kind == RemarkKind::Applied ? style.green(kind) : style.dim(kind);
  std::string where = r.function.empty() ? "" : "@" + r.function;
  std::string nodes = nodeList(h);
  if (!nodes.empty()) where += (where.empty() ? "" : " ") + nodes;
  return "    " + tagged + " " + style.cyan(std::string(r.ruleId())) + (where.empty() ? "" : " " + where) + ": " + r.message + "\n";
}

}  // namespace

std::string formatRemarks(const Workbench& wb, const std::vector<RemarkHit>& hits, const Style& style, bool all) {
  if (hits.empty())
    return wb.remarks() ? "no remarks match\n"
                        : "no remarks: recording is off (`remarks on` records them for the events run after it)\n";
  std::string out;
  size_t hidden = 0;
  for (const RemarkEventSummary& s : summarizeRemarks(hits)) {
    const TraceEvent& ev = wb.event(s.event);
    std::string counts;
    RemarkKind last = RemarkKind::Analysis;
    bool first = true;
    for (const auto& c : s.counts) {
      if (first || c.kind != last) counts += std::string(first ? "" : "; ") + std::string(remarkKindName(c.kind)) + ": ";
      else counts += ", ";
      counts += std::to_string(c.count) + " × " + std::string(remarkRuleInfo(c.rule).id);
      last = c.kind;
      first = false;
    }
    std::string indent(static_cast<size_t>(ev.depth) * 2, ' ');
    out += indent + style.bold("#" + std::to_string(s.event) + " " + s.pass) +
           (ev.contextName != "root" && !ev.contextName.empty() ? " [" + ev.contextName + "]" : "") + ": " +
           std::to_string(s.hits.size()) + (s.hits.size() == 1 ? " remark" : " remarks") + " — " + counts + "\n";
    size_t shownOfRule = 0;
    RemarkRule rule{};
    for (size_t k = 0; k < s.hits.size(); ++k) {
      const RemarkHit& h = hits[s.hits[k]];
      if (k == 0 || h.remark->rule != rule) {
        rule = h.remark->rule;
        shownOfRule = 0;
      }
      if (!all && shownOfRule >= kPerRule) {
        ++hidden;
        continue;
      }
      ++shownOfRule;
      out += indent + remarkLine(h, style);
    }
  }
  if (hidden > 0) out += style.dim("(" + std::to_string(hidden) + " more; `--all` lists every remark)") + "\n";
  return out;
}

std::string formatRemarkLine(const std::string& source, const RemarkHit& hit) {
  const Remark& r = *hit.remark;
  std::string where = hit.location;
  if (where.empty()) where = source + (r.function.empty() ? "" : ":@" + r.function);
  std::string nodes = nodeList(hit);
  return where + ": remark: " + r.message + " [" + std::string(r.ruleId()) + "] (" + r.pass + " #" + std::to_string(hit.event) +
         (nodes.empty() ? "" : ", " + nodes) + ")\n";
}

std::string formatRemarkedModule(const Workbench& wb, int id, const std::string& function, const Style& style) {
  const TraceEvent& ev = wb.event(id);
  RemarkNodeIndex index(ev.before, wb.printOptions());
  const PrintedModule& printed = index.printed();
  const std::string comment = wb.printSyntax() == TextSyntax::TVMScript ? "# " : "// ";
  uint32_t first = 1, last = UINT32_MAX;
  if (!function.empty()) {
    Expr fn = ev.before ? ev.before->lookup(function) : nullptr;
    const TextRange* range = fn ? printed.nodes.range(fn.get()) : nullptr;
    if (!range) throw WorkbenchError("no function @" + function + " in the module event #" + std::to_string(id) + " was given");
    first = range->line;
    last = range->endLine;
  }
  std::map<uint32_t, std::vector<std::string>> byLine;
  std::string unplaced;
  for (const Remark& r : ev.remarks) {
    if (!function.empty() && r.function != function) continue;
    std::string nodes;
    uint32_t line = 0;
    for (const Expr& n : r.nodes) {
      nodes += (nodes.empty() ? "" : " ") + index.name(n);
      if (!line) line = index.range(n).line;
    }
    std::string text = comment + "remark: " + std::string(remarkKindName(r.kind)) + " " + std::string(r.ruleId()) +
                       (nodes.empty() ? (r.function.empty() ? "" : " @" + r.function) : " " + nodes) + ": " + r.message;
    if (line >= first && line <= last && line > 0)
      byLine[line].push_back(text);
    else
      unplaced += style.dim(text) + "\n";
  }
  std::string out = unplaced;
  uint32_t lineNo = 1;
  size_t start = 0;
  while (start < printed.text.size()) {
    size_t end = printed.text.find('\n', start);
    if (end == std::string::npos) end = printed.text.size();
    if (lineNo >= first && lineNo <= last) {
      std::string_view line(printed.text.data() + start, end - start);
      out += std::string(line) + "\n";
      if (auto it = byLine.find(lineNo); it != byLine.end()) {
        size_t indent = line.find_first_not_of(' ');
        for (const std::string& text : it->second)
          out += std::string(indent == std::string_view::npos ? 0 : indent, ' ') + style.yellow(text) + "\n";
      }
    }
    start = end + 1;
    ++lineNo;
  }
  return out;
}

std::string formatWhyNot(const Workbench& wb, const std::string& a, const std::string& b, const WhyNotAnswer& answer,
                         const Style& style) {
  std::string out;
  auto list = [&](const std::vector<RemarkHit>& hits) {
    for (const RemarkHit& h : hits) out += "  #" + std::to_string(h.event) + " " + h.remark->pass + remarkLine(h, style).substr(3);
  };
  if (!answer.both.empty()) {
    bool together = std::any_of(answer.both.begin(), answer.both.end(), [](const RemarkHit& h) { return h.remark->kind == RemarkKind::Applied; });
    out += a + " and " + b + (together ? ": together" : ": kept apart") + " (" + answer.scope + ")\n";
    list(answer.both);
    return out;
  }
  if (answer.first.empty() && answer.second.empty())
    return "no remark in " + answer.scope + " names " + a + " or " + b +
           (wb.remarks() ? " (names are those `show --before` prints at the event)\n" : " (remarks are off: `remarks on`)\n");
  out += "no remark in " + answer.scope + " names both " + a + " and " + b + "; each on its own:\n";
  out += a + ":\n";
  if (answer.first.empty()) out += "  (none)\n";
  list(answer.first);
  out += b + ":\n";
  if (answer.second.empty()) out += "  (none)\n";
  list(answer.second);
  return out;
}

RemarkQuery parseRemarkFilter(const std::string& spec, std::vector<std::string>& passes) {
  RemarkQuery query;
  std::string rest = spec;
  if (size_t colon = rest.find(':'); colon != std::string::npos) {
    std::string kind = rest.substr(0, colon);
    query.kind = parseRemarkKind(kind);
    if (!query.kind) throw WorkbenchError("unknown remark kind '" + kind + "' in --remarks (missed, applied or analysis)");
    rest = rest.substr(colon + 1);
  } else if (std::optional<RemarkKind> kind = parseRemarkKind(rest)) {
    query.kind = kind;
    rest.clear();
  }
  passes.clear();
  for (std::string& word : splitList(rest))
    if (word != "all") passes.push_back(std::move(word));
  return query;
}

}  // namespace passlab
