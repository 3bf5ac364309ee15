// View model of the attribute timeline: functions × events, one row per
// (function, attribute key), changed cells marked, watched attributes
// (Compiler, Extern, Inline, ...) first. Clicking a cell jumps to the event and
// filters the IR view to the function.
#pragma once

#include <string>
#include <vector>

#include "core/workbench/workbench.h"
#include "gui/model/palette.h"

namespace passlab::gui {

/// Which part of the timeline to show.
struct AttrTimelineOptions {
  /// Include nested events (FoldConstant's inner pipeline, ...).
  bool nested = false;
  /// Only rows where some value changes.
  bool changedOnly = true;
  /// Only the first column and columns where some cell changed.
  bool compactColumns = true;
  /// Only attribute keys containing this text ("" = all).
  std::string keyFilter;
};

/// One column: an event.
struct AttrColumn {
  /// The event whose module (after) the column shows.
  int event = 0;
  /// "#3 FuseOps".
  std::string label;
  /// The cursor is on this event.
  bool isCursor = false;
};

/// One cell.
struct AttrCell {
  /// Printed value, "" when absent.
  std::string value;
  /// The function (or module) has the attribute after this event.
  bool present = false;
  /// Value or presence differs from the previous column.
  bool changed = false;
  /// Background role: CellChangedBg where the value changed, Count for none.
  ColourRole background = ColourRole::Count;
};

/// One row: one attribute of one function.
struct AttrRow {
  /// Function name without '@', or "<module>" for module attributes.
  std::string function;
  /// Attribute key.
  std::string key;
  /// The key is one of the watched attributes.
  bool watched = false;
  /// One cell per column.
  std::vector<AttrCell> cells;
};

/// The grid.
struct AttrTimelineModel {
  /// Events shown, in timeline order.
  std::vector<AttrColumn> columns;
  /// Watched attributes first.
  std::vector<AttrRow> rows;
  /// Column of the cursor's event (or of the last column at or before it), -1 when none.
  int cursorColumn = -1;
};

/// Builds the grid from Workbench::attrTimeline.
AttrTimelineModel buildAttrTimelineModel(const Workbench& wb, const AttrTimelineOptions& options);

}  // namespace passlab::gui
