// The attribute timeline (Workbench::attrTimeline): functions × events, the
// value of each attribute after each event, and rows grouped by the story they tell.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace passlab {

/// Functions × events table of attribute values.
struct AttrTimeline {
  /// Column event ids, in timeline order.
  std::vector<int> events;
  /// One cell: the attribute after a column's event.
  struct Cell {
    /// Printed value ("" when absent: see `present`).
    std::string_view value;
    bool present = false;
    /// True where the cell differs from the previous column's (first column: false).
    bool changed = false;
  };
  /// One row per (function, key); module attributes under function "<module>".
  /// The texts and cells live in `storage`, shared by copies of the table:
  /// a 100k-op timeline has tens of thousands of rows, and a string and three
  /// vectors per row were most of the time it took to build.
  struct Row {
    std::string_view function;
    std::string_view key;
    /// One cell per column.
    std::span<const Cell> cells;
  };
  std::vector<Row> rows;
  /// Owns what `rows` views.
  std::shared_ptr<const void> storage;
};

/// Rows of an attribute timeline that tell the same story: the same key, present
/// and changed at the same events with the same values, a value that is the
/// row's own function name (global_symbol) counting as the same. A face shows
/// a group of several rows as one ("global_symbol added on 81 functions").
struct AttrTimelineGroup {
  /// Indices into AttrTimeline::rows, in row order; the first is the group's place.
  std::vector<size_t> rows;
};
/// The rows of `table` grouped (every row in exactly one group), groups in the
/// order of their first row.
std::vector<AttrTimelineGroup> groupAttrTimelineRows(const AttrTimeline& table);

/// Which events and cells an attribute timeline covers.
struct AttrTimelineQuery {
  /// Only this function ("" = all).
  std::string function;
  /// Only this attribute key ("" = all).
  std::string key;
  /// Only these keys as well (with `key`, the union; both empty = all), e.g.
  /// {"Compiler", "Extern"} to follow a partition becoming an extern stub.
  std::vector<std::string> keys;
  /// Include nested events (their modules are the nested pipelines' own modules).
  bool nested = false;
  /// Only rows with at least one change.
  bool changedOnly = false;
};

}  // namespace passlab
