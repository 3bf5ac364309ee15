// View model of the trace panel: one row per pass event in tree order (nested
// passes indented under the pass that ran them), icons and colours by status,
// timing bars, breakpoint and cursor markers, and rows for the pipeline passes
// not run yet, so the current position in the whole pipeline is always visible.
#pragma once

#include <string>
#include <vector>

#include "core/workbench/workbench.h"
#include "gui/model/palette.h"

namespace passlab::gui {

/// The icon of a row.
enum class EventIcon : uint8_t { Changed, Unchanged, Skipped, Failed, Pending, Load };

/// One row of the trace tree.
struct TraceRow {
  /// Event id, or -1 for a pipeline pass that has not run yet.
  int event = -1;
  /// Index in the pipeline for top-level rows (-1 for nested events and load).
  int pipelineIndex = -1;
  /// Nesting depth (0 for pipeline passes).
  int depth = 0;
  /// "FoldConstant", "FuseOps{max_depth=4}".
  std::string label;
  /// Status icon and its colour.
  EventIcon icon = EventIcon::Pending;
  ColourRole colour = ColourRole::Text;
  /// Short right-hand summary: "@main @f1", "skipped: opt_level 3 > 2", "2 errors";
  /// for changed events followed by " — " and the change summary.
  std::string detail;
  /// The change summary of a changed event ("grouped 12 ops into 6 Primitive functions; ..."), else "".
  std::string summary;
  /// Multi-line hover text: context, functions changed, skips, diagnostics, time.
  std::string tooltip;
  /// The event's diagnostics by severity.
  int errors = 0;
  int warnings = 0;
  int notes = 0;
  /// Functions a function-level pass left alone (Compiler, Extern, ...).
  int skippedFunctions = 0;
  /// Time of the pass body.
  double wallMs = 0;
  /// wallMs relative to the slowest event of the trace (0..1), for the timing bar.
  float timeFraction = 0;
  /// The cursor is on this event.
  bool isCursor = false;
  /// An enabled pass breakpoint names this row's pass.
  bool passBreakpoint = false;
  /// An enabled breakpoint (any kind) hits at this event.
  bool breakpointHit = false;
  /// The row has nested rows (collapsible).
  bool hasChildren = false;
};

/// Which rows to show.
struct TraceFilter {
  /// Hide events that changed nothing and contain no changed, failed or
  /// diagnostic-carrying event (the cursor's row always stays).
  bool hideUnchanged = false;
  /// Show the pipeline passes that have not run yet.
  bool showPending = true;
};

/// The rows of the trace panel.
struct TraceModel {
  /// Events in tree order, then the pending pipeline passes.
  std::vector<TraceRow> rows;
  /// Index in `rows` of the cursor's row (-1 before a load).
  int cursorRow = -1;
  /// One line saying where the cursor is (always shown in the toolbar).
  std::string position;
  /// Events hidden by the filter.
  int hiddenCount = 0;
};

/// Builds the trace rows from the workbench (empty model before a load).
TraceModel buildTraceModel(const Workbench& wb, const TraceFilter& filter = {});
/// A change summary with the arrows and symbols the GUI font lacks spelled in ASCII ("->", "none").
std::string plainSummary(std::string text);

/// "#7 FuseOps · nested in #5 FoldConstant · pass 3 of 9 · changed @main", or
/// "no model loaded".
std::string describePosition(const Workbench& wb);

/// The icon of an event's status.
EventIcon iconOf(const TraceEvent& ev);
/// The colour of an icon.
ColourRole colourOf(EventIcon icon);
/// A one-character glyph for the icon that the default font has: * = - ! . o
const char* glyphOf(EventIcon icon);

}  // namespace passlab::gui
