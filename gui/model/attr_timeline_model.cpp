#include "gui/model/attr_timeline_model.h"

#include <algorithm>

#include "gui/model/syntax.h"

namespace passlab::gui {

AttrTimelineModel buildAttrTimelineModel(const Workbench& wb, const AttrTimelineOptions& options) {
  AttrTimelineModel model;
  if (!wb.loaded()) return model;
  AttrTimelineQuery query;
  query.nested = options.nested;
  query.changedOnly = options.changedOnly;
  AttrTimeline table = wb.attrTimeline(query);

  std::vector<const AttrTimeline::Row*> rows;
  for (const AttrTimeline::Row& row : table.rows)
    if (options.keyFilter.empty() || row.key.find(options.keyFilter) != std::string::npos) rows.push_back(&row);

  // Columns to keep: all, or the first plus those where a shown cell changed.
  // The cursor's column is always kept so "where am I" stays visible.
  const int cursor = wb.cursor();
  std::vector<size_t> keep;
  for (size_t c = 0; c < table.events.size(); ++c) {
    bool wanted = !options.compactColumns || c == 0 || table.events[c] == cursor;
    for (size_t r = 0; r < rows.size() && !wanted; ++r) wanted = rows[r]->cells[c].changed;
    if (wanted) keep.push_back(c);
  }
  // The cursor's position in timeline order decides which column is "now".
  const auto& timeline = wb.timeline();
  auto position = [&](int event) {
    return static_cast<long>(std::find(timeline.begin(), timeline.end(), event) - timeline.begin());
  };
  const long cursorPos = position(cursor);
  for (size_t c : keep) {
    int ev = table.events[c];
    model.columns.push_back(AttrColumn{ev, "#" + std::to_string(ev) + " " + wb.event(ev).pass, ev == cursor});
    if (position(ev) <= cursorPos) model.cursorColumn = static_cast<int>(model.columns.size()) - 1;
  }
  for (const AttrTimeline::Row* src : rows) {
    AttrRow row;
    row.function = std::string(src->function);
    row.key = std::string(src->key);
    row.watched = isWatchedAttribute(src->key);
    for (size_t c : keep) {
      AttrCell cell;
      cell.value = std::string(src->cells[c].value);
      cell.present = src->cells[c].present;
      cell.changed = src->cells[c].changed;
      cell.background = cell.changed ? ColourRole::CellChangedBg : ColourRole::Count;
      row.cells.push_back(std::move(cell));
    }
    model.rows.push_back(std::move(row));
  }
  // Watched attributes first; otherwise the workbench's (function, key) order.
  std::stable_sort(model.rows.begin(), model.rows.end(),
                   [](const AttrRow& a, const AttrRow& b) { return a.watched && !b.watched; });
  return model;
}

}  // namespace passlab::gui
