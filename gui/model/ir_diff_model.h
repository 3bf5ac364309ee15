// View model of the IR view: the module before and after an event, side by
// side, aligned line by line with added / removed / changed rows, a function
// filter, search, and markers on the lines where a watched attribute changed.
// Built once per (before, after) pair; a frame only reads rows.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/diff.h"
#include "core/trace/node_match.h"
#include "core/workbench/workbench.h"
#include "gui/model/palette.h"
#include "gui/model/printed_text.h"

namespace passlab::gui {

/// What one aligned row shows.
enum class RowKind : uint8_t {
  Same,     ///< the same line on both sides
  Added,    ///< a line only on the after side (left side empty)
  Removed,  ///< a line only on the before side (right side empty)
  Changed,  ///< a removed line paired with the added line that replaced it
  Moved,    ///< a line the pass only moved (either side may be empty): not a change
};

/// One row of the side-by-side view. Line numbers are 1-based; 0 = no line on that side.
struct DiffRow {
  uint32_t oldLine = 0;
  uint32_t newLine = 0;
  RowKind kind = RowKind::Same;
  /// A watched attribute (Compiler, Extern, ..., phase) changed at this event on this line.
  bool attrMarker = false;
};

/// Background role of a row's side (`after` = right side). Same rows have none (Count).
ColourRole rowBackground(RowKind kind, bool after);

/// The byte ranges that differ between two versions of a line (common prefix
/// and suffix removed), for intraline highlighting of Changed rows.
struct IntralineChange {
  uint32_t oldBegin = 0, oldEnd = 0;
  uint32_t newBegin = 0, newEnd = 0;
};
/// Computes the changed part of `oldLine` → `newLine`.
IntralineChange intralineChange(std::string_view oldLine, std::string_view newLine);

/// An attribute change at the event, with whether it is a watched one.
struct AttrChangeNote {
  AttrChange change;
  /// Canonical watched name when the key is watched (or a module dict holding
  /// one, e.g. executor's link-params), else "".
  std::string watched;
  /// Visible row of the first marker for this change (-1 when none is visible).
  int firstRow = -1;
};

/// The side-by-side diff of two modules.
class IrDiffModel {
 public:
  /// An empty model (no module loaded).
  IrDiffModel() = default;
  /// Diffs `before` against `after`, printing through `cache`. Identical
  /// modules (the same pointer) give all-Same rows without running the diff.
  static IrDiffModel build(const IRModule& before, const IRModule& after, PrintCache& cache);
  /// With the node matching of the two modules: the after side is printed with
  /// the before side's names for matched nodes (renumbered lines are not coloured)
  /// and lines are compared without their indentation (moved code is not a change).
  static IrDiffModel buildAligned(std::shared_ptr<const ModuleEdits> edits, PrintCache& cache);
  /// True when built aligned.
  bool aligned() const { return aligned_; }
  /// The matching an aligned model was built from (null otherwise): moved code links to where it went.
  const std::shared_ptr<const ModuleEdits>& edits() const { return edits_; }
  /// Where the counterpart of the node printed at `line` of `side` is printed on the
  /// other side (its first line; 0 when it has none, e.g. inserted, or not aligned).
  uint32_t counterpartLine(Side side, uint32_t line) const;

  /// The printed sides (never null once built).
  const PrintedText& before() const { return *before_; }
  const PrintedText& after() const { return *after_; }
  /// True once built from modules.
  bool valid() const { return before_ && after_; }
  /// True when both sides are the same module.
  bool identical() const { return identical_; }

  /// Every aligned row.
  const std::vector<DiffRow>& rows() const { return rows_; }
  /// Indices into rows() after the function filter (all rows when no filter).
  const std::vector<uint32_t>& visibleRows() const { return visible_; }
  /// The visible row `i`.
  const DiffRow& visibleRow(size_t i) const { return rows_[visible_[i]]; }

  /// Shows only the lines of global function `name` on either side ("" = all).
  void setFunctionFilter(const std::string& name);
  const std::string& functionFilter() const { return filter_; }
  /// Functions present on either side, sorted.
  std::vector<std::string> functionNames() const;

  /// Counts over all rows.
  size_t addedCount() const { return added_; }
  size_t removedCount() const { return removed_; }
  size_t changedCount() const { return changed_; }
  /// Rows of lines the pass only moved (aligned models; moved lines are not in the counts above).
  size_t movedCount() const { return moved_; }

  /// Attribute changes at the event (from core diffAttrs), watched ones first.
  const std::vector<AttrChangeNote>& attrChanges() const { return attrChanges_; }

  /// Visible row showing `line` of `side` (nearest following row when that
  /// exact line is hidden by the filter), or -1.
  int visibleRowOfLine(Side side, uint32_t line) const;
  /// Visible rows whose text contains `query` on either side, in order.
  std::vector<uint32_t> findRows(std::string_view query, bool caseSensitive) const;
  /// Next visible row with a change (kind != Same) after `row` (wrapping), or -1.
  int nextChangedRow(int row, bool forward = true) const;

  /// Widest line on either side, in bytes (for horizontal scrolling).
  size_t maxLineLength() const;

 private:
  /// `lines`: the classified diff of an aligned model (empty: diff the texts now).
  void buildRows(std::vector<DiffLine> lines = {});
  void markAttributes();
  void refreshVisible();

  std::shared_ptr<const PrintedText> before_, after_;
  bool identical_ = false;
  bool aligned_ = false;
  std::shared_ptr<const ModuleEdits> edits_;
  std::vector<DiffRow> rows_;
  std::vector<uint32_t> visible_;
  std::string filter_;
  size_t added_ = 0, removed_ = 0, changed_ = 0, moved_ = 0;
  std::vector<AttrChangeNote> attrChanges_;
};

}  // namespace passlab::gui
