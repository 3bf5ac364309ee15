// View model of the Remarks panel and of the IR view's remark gutter: the
// remarks of the selected event and of the passes nested in it (why each pass
// did, or did not, rewrite each node; core/pass/remark.h), filtered by kind,
// rule and text, each with the lines of the printed IR that show its nodes.
// Built once per event; a frame only reads rows and line marks.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/workbench/workbench.h"
#include "gui/model/diagnostics_model.h"
#include "gui/model/palette.h"
#include "gui/model/printed_text.h"

namespace passlab::gui {

/// One remark as the panel lists it.
struct RemarkRow {
  /// The event that emitted it (the selected one or one nested in it).
  int event = 0;
  std::string pass;
  RemarkKind kind = RemarkKind::Analysis;
  /// Rule id ("fuse.pattern-boundary").
  std::string rule;
  /// Global function ("" for the module).
  std::string function;
  std::string message;
  /// Its nodes named as `show` prints them in the event's `before` module ("%5").
  std::vector<std::string> nodes;
  /// The nodes themselves (owned by the trace), to find them in the IR view and the graph.
  std::vector<const ExprNode*> ir;
  /// Where a click takes the IR view: the first node printed on the before
  /// side, else the after side, else the function's first line (none: no place).
  std::optional<IrLocation> target;
};

/// Which remarks the panel and the gutter show.
struct RemarkFilter {
  /// Per RemarkKind (applied, missed, analysis): shown.
  std::array<bool, 3> kinds{true, true, true};
  /// A rule id, or a prefix ending in '.' ("fuse."); "" = every rule.
  std::string rule;
  /// The pass that emitted it ("" = every pass; FoldConstant's event also lists its nested FuseOps').
  std::string pass;
  /// Case-insensitive text in the message, the node names, the rule or the pass.
  std::string text;
  friend bool operator==(const RemarkFilter&, const RemarkFilter&) = default;
};

/// The colour of a remark kind: missed as a warning, applied as a change, analysis as a note.
ColourRole remarkColour(RemarkKind kind);

/// The remarks of one event.
class RemarksModel {
 public:
  /// An empty model.
  RemarksModel() = default;
  /// The remarks of event `id` and its nested events (pre-order, as emitted).
  /// `before` and `after` are the IR view's printed sides of event `id`, so
  /// line numbers agree with what the view shows.
  static RemarksModel build(const Workbench& wb, int id, const PrintedText& before, const PrintedText& after);

  /// Every row, filtered or not.
  const std::vector<RemarkRow>& rows() const { return rows_; }
  /// Indices into rows() that pass the filter.
  const std::vector<size_t>& visible() const { return visible_; }
  /// Applies `filter` to the list and to the gutter marks.
  void setFilter(const RemarkFilter& filter);
  const RemarkFilter& filter() const { return filter_; }

  /// Remarks per rule over every row, missed first, then applied, then analysis; larger counts first.
  struct RuleCount {
    std::string rule;
    RemarkKind kind = RemarkKind::Analysis;
    size_t count = 0;
  };
  const std::vector<RuleCount>& counts() const { return counts_; }
  /// The passes that emitted the rows, in order of first appearance.
  const std::vector<std::string>& passes() const { return passes_; }
  /// "13 remarks: missed 4 × fuse.pattern-boundary; applied 8 × fuse.group, ..." ("no remarks" when none).
  std::string summary() const;

  /// Visible rows whose nodes are printed on `line` of `side` (null when none): the gutter.
  const std::vector<size_t>* rowsAt(Side side, uint32_t line) const;
  /// Number of lines of a side that carry a visible remark.
  size_t markedLines(Side side) const { return marks_[side == Side::Before ? 0 : 1].size(); }
  /// The kind a line's gutter mark shows: missed when any of its remarks is, else applied, else analysis.
  RemarkKind markKind(const std::vector<size_t>& rows) const;

 private:
  /// Appends the row of remark `r` of event `event` (`id` the event shown).
  void add(int event, const Remark& r, const std::function<std::string(const Expr&)>& nameOf, int id, const PrintedText& before,
           const PrintedText& after);
  void refresh();

  std::vector<RemarkRow> rows_;
  /// Per row: the lines of each side that print one of its nodes.
  std::vector<std::array<std::vector<uint32_t>, 2>> lines_;
  RemarkFilter filter_;
  std::vector<size_t> visible_;
  std::vector<RuleCount> counts_;
  std::vector<std::string> passes_;
  std::array<std::unordered_map<uint32_t, std::vector<size_t>>, 2> marks_;
};

}  // namespace passlab::gui
