// View model of the numerics panel: per-event numeric error against the first
// snapshot, a threshold, and the first event over it. The numeric-check
// instrument that measures those errors arrives with a later issue; until the
// workbench exposes them the panel shows an empty state that says so, and the
// plot logic below is what it will draw.
#pragma once

#include <string>
#include <vector>

#include "core/workbench/workbench.h"

namespace passlab::gui {

/// What the numerics panel shows.
struct NumericsModel {
  /// True when per-event errors exist to plot.
  bool available = false;
  /// Shown instead of the plot when nothing is available.
  std::string emptyMessage;
  /// Events measured, in timeline order, and their error (max abs difference
  /// of the outputs against the first snapshot).
  std::vector<int> events;
  std::vector<float> errors;
  float threshold = 1e-3f;
  /// Largest error (for the plot's scale).
  float maxError = 0;
  /// Index into `events` of the first error above the threshold, -1 when none.
  int firstOffending = -1;
};

/// Builds a plottable model from measured errors (sizes must match).
NumericsModel numericsFromSeries(std::vector<int> events, std::vector<float> errors, float threshold);

/// The model for the workbench as it is now: the empty state, since the
/// workbench records no numeric checks yet (the message names what is missing).
NumericsModel buildNumericsModel(const Workbench& wb);

}  // namespace passlab::gui
