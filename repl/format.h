// Text rendering of workbench data for the REPL (the GUI draws the same data
// its own way): event lines, the trace tree, event details, moves, the
// attribute timeline, config provenance and breakpoints.
#pragma once

#include <string>

#include "core/workbench/workbench.h"
#include "repl/style.h"

namespace passlab {

/// Caps of the lists that grow with the model; `--all` lifts them. `changes`
/// counts lines; the others count items (functions, kernels, skipped functions).
inline constexpr size_t kChangesCap = 40;
inline constexpr size_t kListCap = 20;
/// Names listed on one line ("changed functions: @a @b ... 23 more").
inline constexpr size_t kNamesCap = 8;

/// "a, b, c, … 61 more" of `items` (all of them when `all` or at most `cap`).
std::string cappedList(const std::vector<std::string>& items, size_t cap, bool all, const std::string& separator = ", ");

/// The status marker of an event: changed `*`/●, unchanged `=`/○, skipped `-`/⊘, failed `!`/✗.
std::string eventMarker(const TraceEvent& ev, const Style& style);

/// One line about an event: `#3 [*] SimplifyExpr  changed @main`, with the
/// failure rule, skipped functions and (with `showTime`) the wall time.
std::string formatEventLine(const Workbench& wb, int id, const Style& style, bool showTime);

/// The whole trace as a tree in event order, nested passes indented, the cursor
/// marked with `>`; then how much of the pipeline is left.
/// "#3 FoldConstant: folded 2 ops into 1 constant; ..." for an event's before/after, or
/// "#2 → #5: ..." for two events: the first line of `changes` and `diff --summary`.
std::string formatChangeHeader(const Workbench& wb, int a, Side sideA, int b, Side sideB);
/// "note: @f exists only ..." when `function` is on one side only ("" otherwise).
std::string formatOneSidedNote(const Workbench& wb, int a, Side sideA, int b, Side sideB, const std::string& function);
std::string formatTraceTree(const Workbench& wb, const Style& style, bool showTime);

/// Everything recorded about one event: status, nesting, context, changed
/// functions, config reads, skips, diagnostics, attribute changes, failure.
/// Lists that grow with the model (changed functions, nested passes, skips,
/// attribute changes) are capped at kListCap unless `all`; identical attribute
/// changes on several functions fold into one line unless `all`.
std::string formatEventInfo(const Workbench& wb, int id, const Style& style, bool showTime, bool all = false);

/// The outcome of a move: the events passed, then why it stopped (breakpoint,
/// failure with its diagnostics, end of pipeline, interrupt) and notes.
std::string formatMove(const Workbench& wb, const MoveResult& move, const Style& style);

/// Where the cursor is: the event, its enclosing events, the pipeline position.
std::string formatWhere(const Workbench& wb, const Style& style);

/// The attribute timeline as a table (changed cells marked with `*`).
/// `allColumns` false shows only the first event and events where a cell changed.
std::string formatAttrTimeline(const Workbench& wb, const AttrTimeline& table, const Style& style, bool allColumns);

/// Config provenance: the setting, then every read with value, source, context, pass and event.
std::string formatProvenance(const Workbench& wb, const Provenance& prov, const Style& style);

/// Breakpoints with state and hit counts.
std::string formatBreakpoints(const Workbench& wb, const Style& style);

/// Registered config keys with kind, default, current value and description.
std::string formatConfigKeys(const Workbench& wb, const Style& style);

/// What `load` (and a paste) says: "loaded m.py (TVMScript, release spelling):
/// 3 functions", then the load notes. `withSyntax` false for an imported model.
std::string formatLoaded(const Workbench& wb, const std::string& name, bool withSyntax);
/// The print syntax: "tvmscript", "relay (auto: ...)" when it follows the load.
std::string formatPrintSyntax(const Workbench& wb);
/// The root context's settings (opt_level, target, passes, explicit config).
std::string formatSettings(const Workbench& wb, const Style& style);

}  // namespace passlab
