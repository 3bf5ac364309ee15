#include "core/workbench/remarks.h"

#include <algorithm>
#include <map>
#include <memory>

#include "core/trace/trace_json.h"

namespace passlab {

namespace {

bool inSubtree(const Trace& trace, int id, int root) {
  for (int e = id; e >= 0; e = trace.event(e).parent)
    if (e == root) return true;
  return false;
}

bool ruleMatches(const Remark& r, const std::string& rule) {
  if (rule.empty()) return true;
  std::string_view id = r.ruleId();
  return rule.back() == '.' ? id.substr(0, rule.size()) == rule : id == rule;
}

}  // namespace

std::vector<RemarkHit> findRemarks(const Workbench& wb, const RemarkQuery& query) {
  if (!wb.loaded()) return {};
  return findRemarks(wb.trace(), wb.timeline(), wb.printOptions(), query);
}

std::vector<RemarkHit> findRemarks(const Trace& trace, const std::vector<int>& order, const PrintOptions& print,
                                   const RemarkQuery& query) {
  std::vector<RemarkHit> hits;
  std::string function = query.function;
  if (!function.empty() && function.front() == '@') function.erase(0, 1);
  for (int id : order) {
    const TraceEvent& ev = trace.event(id);
    if (ev.remarks.empty() || (query.event >= 0 && !inSubtree(trace, id, query.event))) continue;
    std::unique_ptr<RemarkNodeIndex> index;  // one print per event, only when a remark matches
    for (const Remark& r : ev.remarks) {
      if ((!query.pass.empty() && r.pass != query.pass) || (query.kind && r.kind != *query.kind) || !ruleMatches(r, query.rule) ||
          (!function.empty() && r.function != function && r.kernel != function))
        continue;
      if (!index) index = std::make_unique<RemarkNodeIndex>(ev.before, print);
      if (!query.node.empty() &&
          std::none_of(r.nodes.begin(), r.nodes.end(), [&](const Expr& n) { return index->named(n, query.node); }))
        continue;
      RemarkHit hit;
      hit.event = id;
      hit.remark = &r;
      for (const Expr& n : r.nodes) hit.nodes.push_back(index->name(n));
      if (!r.nodes.empty() && r.nodes.front() && r.nodes.front()->span.known()) hit.location = r.nodes.front()->span.location();
      hits.push_back(std::move(hit));
    }
  }
  return hits;
}

std::map<std::string, std::string> kernelSchedules(const Workbench& wb, int event) {
  std::map<std::string, std::string> out;
  if (!wb.loaded()) return out;
  const Trace& trace = wb.trace();
  bool reached = false;
  for (int id : wb.timeline()) {
    // Up to `event`, and the events nested in it after it.
    if (reached && !inSubtree(trace, id, event)) break;
    reached = reached || id == event;
    const TraceEvent& ev = trace.event(id);
    std::map<std::string, std::string> run;  // this event's: a later LegalizeOps replaces an earlier one's kernels
    for (const Remark& r : ev.remarks) {
      if (r.kernel.empty()) continue;
      std::string_view rule = r.ruleId();
      if (rule == "legalize.inline") continue;
      if (rule.rfind("legalize.", 0) == 0) rule.remove_prefix(9);
      std::string& slot = run[r.kernel];
      // A convolution's or matmul's schedule names the kernel better than a loop nest next to it.
      if (slot.empty() || slot == "loop-nest") slot = std::string(rule);
    }
    for (auto& [kernel, schedule] : run) out[kernel] = std::move(schedule);
  }
  return out;
}

static int kindRank(RemarkKind k) { return k == RemarkKind::Missed ? 0 : k == RemarkKind::Applied ? 1 : 2; }

std::vector<RemarkEventSummary> summarizeRemarks(const std::vector<RemarkHit>& hits) {
  std::vector<RemarkEventSummary> out;
  for (size_t i = 0; i < hits.size(); ++i) {
    if (out.empty() || out.back().event != hits[i].event) {
      out.emplace_back();
      out.back().event = hits[i].event;
      out.back().pass = hits[i].remark->pass;
    }
    RemarkEventSummary& s = out.back();
    s.hits.push_back(i);
    auto it = std::find_if(s.counts.begin(), s.counts.end(), [&](const auto& c) { return c.rule == hits[i].remark->rule; });
    if (it == s.counts.end())
      s.counts.push_back({hits[i].remark->rule, hits[i].remark->kind, 1});
    else
      ++it->count;
  }
  for (RemarkEventSummary& s : out) {
    auto key = [](RemarkKind k, size_t count) { return std::make_pair(kindRank(k), -static_cast<long>(count)); };
    std::stable_sort(s.counts.begin(), s.counts.end(),
                     [&](const auto& a, const auto& b) { return key(a.kind, a.count) < key(b.kind, b.count); });
    std::map<RemarkRule, size_t> rank;
    for (size_t i = 0; i < s.counts.size(); ++i) rank[s.counts[i].rule] = i;
    std::stable_sort(s.hits.begin(), s.hits.end(),
                     [&](size_t a, size_t b) { return rank[hits[a].remark->rule] < rank[hits[b].remark->rule]; });
  }
  return out;
}

WhyNotAnswer whyNot(const Workbench& wb, const std::string& a, const std::string& b, int event) {
  WhyNotAnswer answer;
  if (!wb.loaded()) return answer;
  if (event < 0) event = wb.cursor();
  RemarkQuery query;
  query.event = event;
  std::vector<RemarkHit> hits = event > 0 ? findRemarks(wb, query) : std::vector<RemarkHit>{};
  answer.scope = "#" + std::to_string(event) + " " + wb.event(event).pass;
  if (hits.empty()) {
    query.event = -1;
    hits = findRemarks(wb, query);
    answer.scope = "the whole trace";
  }
  auto names = [](const RemarkHit& h, const std::string& n) {
    std::string want = !n.empty() && n.front() == '%' ? n : "%" + n;
    return std::find(h.nodes.begin(), h.nodes.end(), want) != h.nodes.end();
  };
  for (RemarkHit& h : hits) {
    bool hasA = names(h, a), hasB = names(h, b);
    if (hasA && hasB)
      answer.both.push_back(std::move(h));
    else if (hasA)
      answer.first.push_back(std::move(h));
    else if (hasB)
      answer.second.push_back(std::move(h));
  }
  return answer;
}

std::string remarksJson(const std::vector<RemarkHit>& hits) {
  std::string out = "{\"remarks\":[";
  for (size_t i = 0; i < hits.size(); ++i) {
    const RemarkHit& h = hits[i];
    const Remark& r = *h.remark;
    std::string nodes = "[";
    for (const std::string& n : h.nodes) nodes += (nodes.size() > 1 ? "," : "") + jsonString(n);
    out += std::string(i ? ",\n" : "\n") + "{\"event\":" + std::to_string(h.event) + ",\"pass\":" + jsonString(r.pass) +
           ",\"kind\":" + jsonString(remarkKindName(r.kind)) + ",\"rule\":" + jsonString(r.ruleId()) +
           ",\"function\":" + jsonString(r.function) + (r.kernel.empty() ? "" : ",\"kernel\":" + jsonString(r.kernel)) +
           ",\"message\":" + jsonString(r.message) + ",\"location\":" + jsonString(h.location) + ",\"nodes\":" + nodes + "]}";
  }
  return out + "\n]}\n";
}

}  // namespace passlab
