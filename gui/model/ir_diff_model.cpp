#include "gui/model/ir_diff_model.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/trace/moved_lines.h"
#include "gui/model/syntax.h"

namespace passlab::gui {

ColourRole rowBackground(RowKind kind, bool after) {
  switch (kind) {
    case RowKind::Same: return ColourRole::Count;
    case RowKind::Added: return after ? ColourRole::DiffAddedBg : ColourRole::DiffFillerBg;
    case RowKind::Removed: return after ? ColourRole::DiffFillerBg : ColourRole::DiffRemovedBg;
    case RowKind::Changed: return ColourRole::DiffChangedBg;
    case RowKind::Moved: return ColourRole::DiffMovedBg;
  }
  return ColourRole::Count;
}

IntralineChange intralineChange(std::string_view a, std::string_view b) {
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  return IntralineChange{static_cast<uint32_t>(prefix), static_cast<uint32_t>(a.size() - suffix),
                         static_cast<uint32_t>(prefix), static_cast<uint32_t>(b.size() - suffix)};
}

IrDiffModel IrDiffModel::build(const IRModule& before, const IRModule& after, PrintCache& cache) {
  IrDiffModel m;
  m.before_ = cache.get(before);
  m.after_ = before == after ? m.before_ : cache.get(after);
  m.identical_ = before == after;
  m.buildRows();
  if (!m.identical_ && before && after) m.markAttributes();
  m.refreshVisible();
  return m;
}

IrDiffModel IrDiffModel::buildAligned(std::shared_ptr<const ModuleEdits> edits, PrintCache& cache) {
  if (!edits || edits->before == edits->after) return edits ? build(edits->before, edits->after, cache) : IrDiffModel();
  IrDiffModel m;
  AlignedPrinted printed = printAlignedWithRanges(*edits, cache.options());
  // Functions paired by name; lines of ops the pass only moved are rows of their own.
  std::vector<DiffLine> lines = diffAlignedPrints(*edits, printed.before, printed.after);
  m.before_ = viewOfPrinted(edits->before, std::move(printed.before));
  m.after_ = viewOfPrinted(edits->after, std::move(printed.after));
  m.aligned_ = true;
  m.edits_ = std::move(edits);
  m.buildRows(std::move(lines));
  m.markAttributes();
  m.refreshVisible();
  return m;
}

uint32_t IrDiffModel::counterpartLine(Side side, uint32_t line) const {
  if (!edits_ || line == 0) return 0;
  const PrintedText& from = side == Side::Before ? *before_ : *after_;
  const PrintedText& to = side == Side::Before ? *after_ : *before_;
  // The innermost node starting on that line (the shortest range).
  const void* best = nullptr;
  uint32_t bestSpan = ~0u;
  from.nodes.forEachRange([&](const void* node, const TextRange& range) {
    if (range.line == line && range.endLine - range.line < bestSpan) {
      best = node;
      bestSpan = range.endLine - range.line;
    }
  });
  if (!best) return 0;
  auto* e = static_cast<const ExprNode*>(best);
  const ExprNode* other = side == Side::Before ? edits_->afterOf(e) : edits_->beforeOf(e);
  if (!other) return 0;
  return to.nodes.line(other);
}

void IrDiffModel::buildRows(std::vector<DiffLine> lines) {
  rows_.clear();
  added_ = removed_ = changed_ = moved_ = 0;
  if (identical_) {
    const size_t n = before_->index.lineCount();
    rows_.reserve(n);
    for (uint32_t l = 1; l <= n; ++l) rows_.push_back(DiffRow{l, l, RowKind::Same, false});
    return;
  }
  if (lines.empty()) lines = diffLines(before_->index.text(), after_->index.text());
  rows_.reserve(lines.size());
  // Within a change the diff lists removed lines before added ones: pair them up
  // row by row so the two sides stay aligned, the surplus becoming pure
  // removals (right side empty) or additions (left side empty).
  size_t i = 0;
  while (i < lines.size()) {
    if (lines[i].kind == DiffLine::Kind::Same) {
      rows_.push_back(DiffRow{lines[i].oldLine, lines[i].newLine, RowKind::Same, false});
      ++i;
      continue;
    }
    size_t removedBegin = i;
    while (i < lines.size() && lines[i].kind == DiffLine::Kind::Removed) ++i;
    size_t addedBegin = i;
    while (i < lines.size() && lines[i].kind == DiffLine::Kind::Added) ++i;
    size_t removedCount = addedBegin - removedBegin, addedCount = i - addedBegin;
    bool anyMoved = false;
    for (size_t k = removedBegin; k < i; ++k) anyMoved = anyMoved || lines[k].moved;
    if (anyMoved) {
      // Both sides in order; a moved line pairs only with a moved line, and a
      // changed one only with a changed one.
      size_t r = removedBegin, a = addedBegin;
      while (r < addedBegin || a < i) {
        const DiffLine* L = r < addedBegin ? &lines[r] : nullptr;
        const DiffLine* R = a < i ? &lines[a] : nullptr;
        if (L && R && L->moved == R->moved) {
          rows_.push_back(DiffRow{L->oldLine, R->newLine, L->moved ? RowKind::Moved : RowKind::Changed, false});
          ++(L->moved ? moved_ : changed_);
          ++r, ++a;
        } else if (L && (!R || L->moved)) {
          rows_.push_back(DiffRow{L->oldLine, 0, L->moved ? RowKind::Moved : RowKind::Removed, false});
          ++(L->moved ? moved_ : removed_);
          ++r;
        } else {
          rows_.push_back(DiffRow{0, R->newLine, R->moved ? RowKind::Moved : RowKind::Added, false});
          ++(R->moved ? moved_ : added_);
          ++a;
        }
      }
      continue;
    }
    size_t paired = std::min(removedCount, addedCount);
    for (size_t k = 0; k < paired; ++k)
      rows_.push_back(DiffRow{lines[removedBegin + k].oldLine, lines[addedBegin + k].newLine, RowKind::Changed, false});
    for (size_t k = paired; k < removedCount; ++k)
      rows_.push_back(DiffRow{lines[removedBegin + k].oldLine, 0, RowKind::Removed, false});
    for (size_t k = paired; k < addedCount; ++k)
      rows_.push_back(DiffRow{0, lines[addedBegin + k].newLine, RowKind::Added, false});
    changed_ += paired;
    removed_ += removedCount - paired;
    added_ += addedCount - paired;
  }
}

namespace {

/// The watched attribute a change concerns: its key, or for a module attribute
/// holding a dictionary (executor) a watched key inside the printed values.
std::string watchedNameOf(const AttrChange& c) {
  if (std::string_view w = canonicalWatchedAttribute(c.key); !w.empty()) return std::string(w);
  if (c.function == "<module>") {
    for (std::string_view w : watchedAttributes()) {
      std::string dashed(w);
      std::replace(dashed.begin(), dashed.end(), '_', '-');
      for (const std::string* v : {&c.oldValue, &c.newValue})
        if (v->find(w) != std::string::npos || v->find(dashed) != std::string::npos) return std::string(w);
    }
  }
  return {};
}

}  // namespace

void IrDiffModel::markAttributes() {
  std::vector<AttrChange> changes = diffAttrs(before_->module, after_->module);
  for (AttrChange& c : changes) attrChanges_.push_back(AttrChangeNote{std::move(c), "", -1});
  for (AttrChangeNote& note : attrChanges_) note.watched = watchedNameOf(note.change);
  std::stable_sort(attrChanges_.begin(), attrChanges_.end(),
                   [](const AttrChangeNote& a, const AttrChangeNote& b) { return !a.watched.empty() && b.watched.empty(); });
  // (function, watched name) pairs that changed; "<module>" for module attributes.
  std::set<std::pair<std::string, std::string>> changed;
  for (const AttrChangeNote& note : attrChanges_)
    if (!note.watched.empty()) changed.emplace(note.change.function, note.watched);
  if (changed.empty()) return;
  for (DiffRow& row : rows_) {
    if (row.kind == RowKind::Same) continue;
    // A row can hold the attribute on either side (removed on the left, added on the right).
    for (int side = 0; side < 2 && !row.attrMarker; ++side) {
      uint32_t line = side == 0 ? row.oldLine : row.newLine;
      if (line == 0) continue;
      const PrintedText& text = side == 0 ? *before_ : *after_;
      std::string fn = text.functionAt(line);
      if (fn.empty()) fn = "<module>";
      for (std::string_view w : watchedAttributesIn(text.index.line(line)))
        if (changed.count({fn, std::string(w)})) row.attrMarker = true;
    }
  }
}

void IrDiffModel::setFunctionFilter(const std::string& name) {
  std::string stripped = !name.empty() && name[0] == '@' ? name.substr(1) : name;
  if (stripped == filter_ && !visible_.empty()) return;
  filter_ = std::move(stripped);
  refreshVisible();
}

void IrDiffModel::refreshVisible() {
  visible_.clear();
  if (filter_.empty()) {
    visible_.resize(rows_.size());
    for (uint32_t i = 0; i < rows_.size(); ++i) visible_[i] = i;
  } else if (before_ && after_) {
    LineRange oldRange = before_->functionRange(filter_), newRange = after_->functionRange(filter_);
    for (uint32_t i = 0; i < rows_.size(); ++i)
      if (oldRange.contains(rows_[i].oldLine) || newRange.contains(rows_[i].newLine)) visible_.push_back(i);
  }
  // Point each attribute change at the first visible marker row of its function.
  for (AttrChangeNote& note : attrChanges_) {
    note.firstRow = -1;
    if (note.watched.empty()) continue;
    for (size_t v = 0; v < visible_.size() && note.firstRow < 0; ++v) {
      const DiffRow& row = rows_[visible_[v]];
      if (!row.attrMarker) continue;
      uint32_t line = row.newLine ? row.newLine : row.oldLine;
      const PrintedText& text = row.newLine ? *after_ : *before_;
      std::string fn = text.functionAt(line);
      if (fn.empty()) fn = "<module>";
      if (fn != note.change.function) continue;
      for (std::string_view w : watchedAttributesIn(text.index.line(line)))
        if (w == note.watched) note.firstRow = static_cast<int>(v);
    }
  }
}

std::vector<std::string> IrDiffModel::functionNames() const {
  std::set<std::string> names;
  if (before_)
    for (const auto& [name, range] : before_->functions) names.insert(name);
  if (after_)
    for (const auto& [name, range] : after_->functions) names.insert(name);
  return {names.begin(), names.end()};
}

int IrDiffModel::visibleRowOfLine(Side side, uint32_t line) const {
  if (line == 0) return -1;
  // Rows are in increasing line order on each side, skipping zeros.
  int best = -1;
  for (size_t v = 0; v < visible_.size(); ++v) {
    uint32_t l = side == Side::Before ? rows_[visible_[v]].oldLine : rows_[visible_[v]].newLine;
    if (l == 0) continue;
    if (l >= line) return static_cast<int>(v);
    best = static_cast<int>(v);
  }
  return best;
}

namespace {

bool containsText(std::string_view hay, std::string_view needle, bool caseSensitive) {
  if (needle.empty()) return false;
  if (caseSensitive) return hay.find(needle) != std::string_view::npos;
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != hay.end();
}

}  // namespace

std::vector<uint32_t> IrDiffModel::findRows(std::string_view query, bool caseSensitive) const {
  std::vector<uint32_t> hits;
  if (query.empty() || !valid()) return hits;
  for (uint32_t v = 0; v < visible_.size(); ++v) {
    const DiffRow& row = rows_[visible_[v]];
    if ((row.oldLine && containsText(before_->index.line(row.oldLine), query, caseSensitive)) ||
        (row.newLine && containsText(after_->index.line(row.newLine), query, caseSensitive)))
      hits.push_back(v);
  }
  return hits;
}

int IrDiffModel::nextChangedRow(int row, bool forward) const {
  const int n = static_cast<int>(visible_.size());
  if (n == 0) return -1;
  for (int step = 1; step <= n; ++step) {
    int v = ((forward ? row + step : row - step) % n + n) % n;
    // Land on the first row of a block of changes, not inside it.
    const DiffRow& r = rows_[visible_[static_cast<size_t>(v)]];
    if (r.kind == RowKind::Same) continue;
    int prev = v - 1;
    if (prev >= 0 && rows_[visible_[static_cast<size_t>(prev)]].kind != RowKind::Same) continue;
    return v;
  }
  return -1;
}

size_t IrDiffModel::maxLineLength() const {
  if (!valid()) return 0;
  return std::max(before_->index.maxLineLength(), after_->index.maxLineLength());
}

}  // namespace passlab::gui
