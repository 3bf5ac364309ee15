#include "gui/model/numerics_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace passlab::gui {

NumericsModel numericsFromSeries(std::vector<int> events, std::vector<float> errors, float threshold) {
  if (events.size() != errors.size()) throw std::invalid_argument("numerics: one error per event expected");
  NumericsModel m;
  m.available = !events.empty();
  m.events = std::move(events);
  m.errors = std::move(errors);
  m.threshold = threshold;
  for (size_t i = 0; i < m.errors.size(); ++i) {
    float e = m.errors[i];
    // NaN is the worst possible error: it offends and it must not hide in a max.
    bool offends = std::isnan(e) || e > threshold;
    if (offends && m.firstOffending < 0) m.firstOffending = static_cast<int>(i);
    if (!std::isnan(e)) m.maxError = std::max(m.maxError, e);
  }
  if (!m.available) m.emptyMessage = "no events measured";
  return m;
}

NumericsModel buildNumericsModel(const Workbench& wb) {
  NumericsModel m;
  m.emptyMessage = wb.loaded()
                       ? "No numeric checks recorded for this trace. The numeric-check instrument (which runs the "
                         "reference interpreter after each pass and compares with the first snapshot) comes with a "
                         "later issue; this panel plots its per-event error, the threshold, and jumps to the first "
                         "offending event once the workbench exposes them."
                       : "No model loaded.";
  return m;
}

}  // namespace passlab::gui
