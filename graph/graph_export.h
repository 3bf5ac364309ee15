// Graphs of the workbench's events for the faces that write files: the REPL's
// `save graph`, batch mode's --graph-dir, and the HTML report, which embeds
// the SVG of (event, function, side).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/workbench/workbench.h"
#include "graph/graph_diff.h"
#include "graph/graph_model.h"
#include "graph/svg_pages.h"

namespace passlab::graph {

/// The graphs of one function before and after an event, and what changed.
struct EventGraphs {
  std::string function;
  /// Null on a side where the function does not exist (added or removed by the pass).
  std::shared_ptr<const FunctionGraph> before, after;
  GraphDiff diff;
  /// The graph of `side` (may be null) and its diff.
  const std::shared_ptr<const FunctionGraph>& graph(Side side) const { return side == Side::Before ? before : after; }
  const SideDiff& sideDiff(Side side) const { return side == Side::Before ? diff.before : diff.after; }
};

/// The graphs of `function` in `before` and `after`, diffed with `edits` (the
/// node matching of the two modules; computed when null). GraphError when
/// neither module has it, or when it is a PrimFunc.
EventGraphs graphsOf(const IRModule& before, const IRModule& after, const std::string& function,
                     const ModuleEdits* edits = nullptr);

/// The graphs of `function` at event `event` of the workbench ("" = the
/// default function: @main, else the first changed graph-level function).
/// WorkbenchError for a bad event, GraphError for a bad function.
EventGraphs eventGraphs(const Workbench& wb, int event, const std::string& function = "");

/// Output formats of a graph file.
enum class GraphFormat : uint8_t { Svg, Dot };
/// The format a file name asks for (.svg or .dot); GraphError for anything else.
GraphFormat graphFormatOf(const std::string& path);

/// The SVG (or DOT) of one side of an event's graph, coloured by what the
/// event changed and drawn with the view's default collapse state. An SVG
/// taller than `pageHeightPt` is cut into pages side by side (svg_pages.h;
/// 0: one page however tall). GraphError when the function does not exist on
/// that side. The HTML report embeds these.
std::string eventGraphText(const Workbench& wb, int event, const std::string& function, Side side,
                           GraphFormat format = GraphFormat::Svg, double pageHeightPt = kSvgPageHeightPt);
/// The same from two modules (batch mode, which has no workbench).
std::string graphText(const EventGraphs& graphs, Side side, GraphFormat format = GraphFormat::Svg,
                      double pageHeightPt = kSvgPageHeightPt);

/// Graph-level functions that event `event` added or rewrote (in the after
/// module), in name order: the functions worth a picture.
std::vector<std::string> changedGraphFunctions(const IRModule& before, const IRModule& after);

/// A file-name-safe form of `text` (letters, digits, '-', '_', '.').
std::string fileSafe(const std::string& text);

}  // namespace passlab::graph
