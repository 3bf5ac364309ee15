// Inside the HTML report: the data embedded once for the whole page (texts,
// diffs, graphs) and the "Changes" section built from it.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/trace/diff.h"
#include "report/html_report.h"

namespace passlab {

/// What the report embeds, deduplicated, and the counts its header shows.
class ReportModel {
 public:
  ReportModel(const Workbench& wb, const ReportOptions& options);

  /// Index of `text` in the embedded texts (equal texts share one index).
  int textId(const std::string& text);
  /// Index of the printed function `name` of `mod` (printed once per function
  /// node: snapshots share unchanged functions, so most events cost nothing).
  int functionTextId(const IRModule& mod, const std::string& name);
  /// Adds a diff of two embedded texts (-1 for an absent side) with its line
  /// operations; returns its index. `added`/`removed` receive the line counts.
  int addDiff(int beforeText, int afterText, int& added, int& removed);
  /// Adds a diff given as its lines (from alignedLines: moved lines marked);
  /// `moved` receives the count of moved lines, `added`/`removed` the others.
  int addDiff(int beforeText, int afterText, const std::vector<DiffLine>& lines, int& added, int& removed, int& moved);
  /// Adds a graph (SVG text) with a caption; returns its index.
  int addGraph(const std::string& svg, const std::string& caption);
  /// The one-line summary of changed event `id`.
  std::string summaryOf(int id) const;
  /// Appends the embedded data as JSON safe inside a <script> element.
  void writeData(std::string& out) const;
  /// Counts of what was embedded.
  ReportStats stats() const;
  /// Before writing `what`: throws WorkbenchError when ReportOptions::cancelled
  /// says so, else tells ReportOptions::progress.
  void checkpoint(const std::string& what) const;

  const ReportOptions& options;
  int events = 0, changedEvents = 0, unchangedEvents = 0, skippedEvents = 0, failedEvents = 0, quietEvents = 0;
  double totalMs = 0;

 private:
  struct DiffEntry {
    int before, after;
    /// Alternating kind (0 same, 1 removed, 2 added, 3 moved away, 4 moved here) and run length.
    std::vector<uint32_t> ops;
  };
  struct GraphEntry {
    int svg;
    std::string caption;
  };
  const Workbench& wb_;
  std::vector<const std::string*> texts_;
  std::unordered_map<std::string, int> textIds_;
  std::unordered_map<const void*, int> functionTexts_;
  std::vector<DiffEntry> diffs_;
  std::vector<GraphEntry> graphs_;
};

/// The "Changes" section: per changed event, its summary, its module
/// attribute changes and one collapsed side-by-side diff (plus graphs, when the
/// report has them) per changed function.
void writeChanges(std::string& out, const Workbench& wb, ReportModel& model);

}  // namespace passlab
