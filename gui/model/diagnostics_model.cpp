#include "gui/model/diagnostics_model.h"

#include <unordered_map>

#include "core/ir/functor.h"

namespace passlab::gui {

ColourRole colourOf(Severity severity) {
  switch (severity) {
    case Severity::Error: return ColourRole::SeverityError;
    case Severity::Warning: return ColourRole::SeverityWarning;
    case Severity::Note: return ColourRole::SeverityNote;
  }
  return ColourRole::Text;
}

namespace {

/// Source position → the printed range of the node parsed there. Built once per
/// printed module and only when some diagnostic has a known span, because a
/// walk over a 100k-op module is not free.
class SpanIndex {
 public:
  explicit SpanIndex(const PrintedText& text) {
    if (!text.module) return;
    for (const auto& [name, fn] : text.module->functions) {
      postOrderVisit(fn, [&](const Expr& e) {
        if (!e->span.known()) return;
        const TextRange* range = text.nodes.range(e.get());
        if (!range) return;
        // The outermost node starting at a position wins: visited last in post-order.
        byPosition_[key(e->span.line, e->span.column)] = *range;
      });
    }
  }
  const TextRange* find(const Span& span) const {
    auto it = byPosition_.find(key(span.line, span.column));
    return it == byPosition_.end() ? nullptr : &it->second;
  }

 private:
  static uint64_t key(uint32_t line, uint32_t column) { return (static_cast<uint64_t>(line) << 32) | column; }
  std::unordered_map<uint64_t, TextRange> byPosition_;
};

std::optional<IrLocation> place(const Diagnostic& d, const PrintedText& text, Side side, const SpanIndex* spans) {
  if (spans && d.span.known()) {
    if (const TextRange* r = spans->find(d.span))
      return IrLocation{side, LineRange{r->line, r->endLine ? r->endLine : r->line}, r->column, r->endColumn};
  }
  if (!d.function.empty()) {
    std::string fn = d.function[0] == '@' ? d.function.substr(1) : d.function;
    LineRange range = text.functionRange(fn);
    if (!range.empty()) return IrLocation{side, LineRange{range.first, range.first}, 0, 0};
  }
  return std::nullopt;
}

const char* severityLabel(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "?";
}

}  // namespace

std::optional<IrLocation> locateDiagnostic(const Diagnostic& d, const PrintedText& text, Side side) {
  if (d.span.known()) {
    SpanIndex spans(text);
    return place(d, text, side, &spans);
  }
  return place(d, text, side, nullptr);
}

std::vector<DiagnosticRow> buildDiagnosticRows(const Workbench& wb, int id, const PrintedText& before,
                                               const PrintedText& after) {
  std::vector<DiagnosticRow> rows;
  if (!wb.loaded()) return rows;
  // The event and everything nested in it, in pre-order.
  std::vector<int> events;
  std::vector<int> stack = {id};
  while (!stack.empty()) {
    int e = stack.back();
    stack.pop_back();
    events.push_back(e);
    const auto& children = wb.event(e).children;
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
  bool anySpan = false;
  for (int e : events)
    for (const Diagnostic& d : wb.event(e).diagnostics) anySpan = anySpan || d.span.known();
  std::optional<SpanIndex> beforeSpans, afterSpans;
  if (anySpan) {
    beforeSpans.emplace(before);
    if (&after != &before) afterSpans.emplace(after);
  }
  const SpanIndex* afterIndex = afterSpans ? &*afterSpans : beforeSpans ? &*beforeSpans : nullptr;

  for (int e : events) {
    const TraceEvent& ev = wb.event(e);
    for (const Diagnostic& d : ev.diagnostics) {
      DiagnosticRow row;
      row.event = e;
      row.severity = d.severity;
      row.colour = colourOf(d.severity);
      row.label = severityLabel(d.severity);
      row.rule = d.rule;
      row.function = d.function;
      row.message = d.message;
      row.sourceLocation = d.span.location();
      // A failed pass's diagnostics describe its input; others usually its output.
      bool onBefore = ev.status == EventStatus::Failed;
      row.target = onBefore ? place(d, before, Side::Before, beforeSpans ? &*beforeSpans : nullptr)
                            : place(d, after, Side::After, afterIndex);
      if (!row.target) row.target = onBefore ? place(d, after, Side::After, afterIndex)
                                             : place(d, before, Side::Before, beforeSpans ? &*beforeSpans : nullptr);
      rows.push_back(std::move(row));
    }
    // A failure without a diagnostic (an internal error) still gets a row.
    if (ev.status == EventStatus::Failed && ev.diagnostics.empty()) {
      DiagnosticRow row;
      row.kind = DiagnosticRow::Kind::Failure;
      row.event = e;
      row.label = "failed";
      row.rule = ev.pass;
      row.message = ev.failure.empty() ? "the pass failed" : ev.failure;
      rows.push_back(std::move(row));
    }
    for (const FunctionSkip& s : ev.skips) {
      DiagnosticRow row;
      row.kind = DiagnosticRow::Kind::Skip;
      row.event = e;
      row.severity = Severity::Note;
      row.colour = ColourRole::EventSkipped;
      row.label = "skipped";
      row.rule = s.pass;
      row.function = s.function;
      row.message = s.reason;
      LineRange range = before.functionRange(s.function);
      if (!range.empty()) row.target = IrLocation{Side::Before, LineRange{range.first, range.first}, 0, 0};
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace passlab::gui
