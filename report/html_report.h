// The HTML report: one self-contained page of a recorded pipeline run, for a
// reviewer who does not have passlab open (a pull request attachment, a
// lecture handout).
//
// The report is a face like the REPL and the GUI: it reads the workbench API
// and nothing below it that changes state. It never runs a pass; it shows the
// trace as recorded, every event up to the end of the recording.
//
// Size: snapshots share unchanged functions, so the page embeds each distinct
// printed function once (keyed by the function node) and every diff refers to
// those texts by index; diffs, code and graphs are rendered by the page's own
// script when their section is opened. Nothing the IR contains reaches the
// page unescaped: HTML text is entity-escaped and embedded data is JSON with
// every '<' written as \u003c, so no string can close a script element.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "core/workbench/workbench.h"

namespace passlab {

/// What goes into a report beyond what the workbench records.
struct ReportOptions {
  /// Shown in the header and the browser tab ("" = "passlab report: SOURCE").
  std::string title;
  /// The dataflow picture of one function of an event's module (`side`), as an
  /// SVG document; "" when there is none. Null: the report has no graphs (the
  /// graph layer is optional for the report, which only embeds its output).
  std::function<std::string(int event, const std::string& function, Side side)> graphSvg;
  /// Functions per changed event whose graphs are embedded (the largest
  /// changes first); graphs of a 100k-op module would dwarf everything else.
  size_t maxGraphsPerEvent = 8;
  /// Graphs of functions with more nodes than this are left out (the diff is
  /// still there).
  size_t maxGraphNodes = 400;
  /// Graphs taller than this (points, about 1.33 px each) are left out with a
  /// note: an unfolded 400-op chain is 25,000 pt tall, and unreadable at any
  /// zoom a page allows (`save graph` and the GUI still draw it). graphSvg is
  /// expected to cut tall graphs into pages side by side (the faces' callback
  /// does, graph/svg_pages.h), so this only catches one it left whole. Graphs
  /// kept show at their natural size in a frame no taller than the window,
  /// scrolling, never shrunk to a strip.
  double maxGraphHeightPt = 8000;
  /// Graphs wider than this (a picture of very many pages) are left out the same way.
  double maxGraphWidthPt = 20000;
  /// Told what is being written next ("changes: #12 FuseOps (3/9)", "remarks"),
  /// before each section and each changed event, for a face's status line.
  /// Null: silent.
  std::function<void(const std::string&)> progress;
  /// Polled at the same points; true stops the report with a WorkbenchError
  /// ("report interrupted (Ctrl-C)"): nothing is written, the workbench is untouched.
  std::function<bool()> cancelled;
};

/// Figures of a written report, for the faces' messages and the benchmarks.
struct ReportStats {
  size_t bytes = 0;
  int events = 0;
  int changedEvents = 0;
  /// Function diffs embedded, distinct function texts embedded, graphs embedded.
  int diffs = 0;
  int texts = 0;
  int graphs = 0;
};

/// The report of everything `wb` recorded, as one HTML document (inline CSS,
/// script and SVG; no network access). WorkbenchError before a load.
std::string renderHtmlReport(const Workbench& wb, const ReportOptions& options = {}, ReportStats* stats = nullptr);

/// Writes renderHtmlReport to `path` (std::runtime_error naming the path when
/// it cannot be written).
ReportStats writeHtmlReport(const Workbench& wb, const std::string& path, const ReportOptions& options = {});

}  // namespace passlab
