#include "gui/model/remarks_model.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include "core/trace/remark_nodes.h"

namespace passlab::gui {

ColourRole remarkColour(RemarkKind kind) {
  switch (kind) {
    case RemarkKind::Missed: return ColourRole::SeverityWarning;
    case RemarkKind::Applied: return ColourRole::EventChanged;
    case RemarkKind::Analysis: return ColourRole::SeverityNote;
  }
  return ColourRole::Text;
}

namespace {

int kindRank(RemarkKind k) { return k == RemarkKind::Missed ? 0 : k == RemarkKind::Applied ? 1 : 2; }

bool containsFolded(const std::string& hay, const std::string& needle) {
  if (needle.empty()) return true;
  auto eq = [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); };
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), eq) != hay.end();
}

bool shown(const RemarkRow& r, const RemarkFilter& f) {
  if (!f.kinds[static_cast<size_t>(r.kind)]) return false;
  if (!f.pass.empty() && r.pass != f.pass) return false;
  if (!f.rule.empty() && (f.rule.back() == '.' ? r.rule.compare(0, f.rule.size(), f.rule) != 0 : r.rule != f.rule)) return false;
  if (f.text.empty()) return true;
  if (containsFolded(r.message, f.text) || containsFolded(r.rule, f.text) || containsFolded(r.pass, f.text)) return true;
  return std::any_of(r.nodes.begin(), r.nodes.end(), [&](const std::string& n) { return containsFolded(n, f.text); });
}

}  // namespace

RemarksModel RemarksModel::build(const Workbench& wb, int id, const PrintedText& before, const PrintedText& after) {
  RemarksModel m;
  if (!wb.loaded()) return m;
  // The event and everything nested in it, in pre-order.
  std::vector<int> events;
  for (std::vector<int> stack = {id}; !stack.empty();) {
    int e = stack.back();
    stack.pop_back();
    events.push_back(e);
    const auto& children = wb.event(e).children;
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
  for (int e : events) {
    const TraceEvent& ev = wb.event(e);
    if (ev.remarks.empty()) continue;
    // Nodes are named as `remarks` names them: by a print of the module the
    // pass was given. The IR view's before side is that print for the event
    // itself (no second print of a big module); a nested run's module is printed here.
    std::unique_ptr<RemarkNodeIndex> nested;
    const bool viewPrint = e == id && before.module == ev.before;
    if (!viewPrint) nested = std::make_unique<RemarkNodeIndex>(ev.before, wb.printOptions());
    auto nameOf = [&](const Expr& n) {
      if (nested) return nested->name(n);
      std::string_view name = before.nodes.name(n.get());
      return !name.empty() ? "%" + std::string(name) : describeNode(n);
    };
    for (const Remark& r : ev.remarks) m.add(e, r, nameOf, id, before, after);
  }
  for (const RemarkRow& r : m.rows_) {
    if (std::find(m.passes_.begin(), m.passes_.end(), r.pass) == m.passes_.end()) m.passes_.push_back(r.pass);
    auto it = std::find_if(m.counts_.begin(), m.counts_.end(), [&](const RuleCount& c) { return c.rule == r.rule; });
    if (it == m.counts_.end())
      m.counts_.push_back({r.rule, r.kind, 1});
    else
      ++it->count;
  }
  std::stable_sort(m.counts_.begin(), m.counts_.end(), [](const RuleCount& a, const RuleCount& b) {
    return kindRank(a.kind) != kindRank(b.kind) ? kindRank(a.kind) < kindRank(b.kind) : a.count > b.count;
  });
  m.refresh();
  return m;
}

void RemarksModel::add(int event, const Remark& r, const std::function<std::string(const Expr&)>& nameOf, int id,
                       const PrintedText& before, const PrintedText& after) {
  RemarkRow row;
  row.event = event;
  row.pass = r.pass;
  row.kind = r.kind;
  row.rule = std::string(r.ruleId());
  row.function = r.function;
  row.message = r.message;
  for (const Expr& n : r.nodes) row.nodes.push_back(nameOf(n));
  std::array<std::vector<uint32_t>, 2> lines;
  for (const Expr& n : r.nodes) {
    if (!n) continue;
    row.ir.push_back(n.get());
    // Remarks name nodes of the module the pass was given: the before side.
    // Nodes the pass kept are printed on the after side as well.
    const PrintedText* sides[2] = {&before, &after};
    for (int s = 0; s < 2; ++s) {
      const TextRange* range = sides[s]->nodes.range(n.get());
      if (!range) continue;
      lines[static_cast<size_t>(s)].push_back(range->line);
      if (!row.target)
        row.target = IrLocation{s == 0 ? Side::Before : Side::After,
                                LineRange{range->line, range->endLine ? range->endLine : range->line},
                                range->column, range->endColumn};
    }
  }
  // A remark about no printed node (a nested run's module, the module as a
  // whole) is placed at its function when the event shows that function.
  if (!row.target && !row.function.empty() && event == id) {
    LineRange range = before.functionRange(row.function);
    if (!range.empty()) row.target = IrLocation{Side::Before, LineRange{range.first, range.first}, 0, 0};
  }
  for (auto& side : lines) {
    std::sort(side.begin(), side.end());
    side.erase(std::unique(side.begin(), side.end()), side.end());
  }
  rows_.push_back(std::move(row));
  lines_.push_back(std::move(lines));
}

void RemarksModel::setFilter(const RemarkFilter& filter) {
  if (filter == filter_) return;
  filter_ = filter;
  refresh();
}

void RemarksModel::refresh() {
  visible_.clear();
  for (auto& m : marks_) m.clear();
  for (size_t i = 0; i < rows_.size(); ++i) {
    if (!shown(rows_[i], filter_)) continue;
    visible_.push_back(i);
    for (size_t s = 0; s < 2; ++s)
      for (uint32_t line : lines_[i][s]) marks_[s][line].push_back(i);
  }
}

std::string RemarksModel::summary() const {
  if (rows_.empty()) return "no remarks";
  std::string out = std::to_string(rows_.size()) + (rows_.size() == 1 ? " remark:" : " remarks:");
  int lastRank = -1;
  for (const RuleCount& c : counts_) {
    int rank = kindRank(c.kind);
    out += rank != lastRank ? (lastRank < 0 ? " " : "; ") + std::string(remarkKindName(c.kind)) + " " : ", ";
    lastRank = rank;
    out += std::to_string(c.count) + " × " + c.rule;
  }
  return out;
}

const std::vector<size_t>* RemarksModel::rowsAt(Side side, uint32_t line) const {
  const auto& m = marks_[side == Side::Before ? 0 : 1];
  auto it = m.find(line);
  return it == m.end() ? nullptr : &it->second;
}

RemarkKind RemarksModel::markKind(const std::vector<size_t>& rows) const {
  RemarkKind best = RemarkKind::Analysis;
  for (size_t i : rows)
    if (i < rows_.size() && kindRank(rows_[i].kind) < kindRank(best)) best = rows_[i].kind;
  return best;
}

}  // namespace passlab::gui
