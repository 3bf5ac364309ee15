// The Markdown report of a conformance run (docs/conformance.md).
#pragma once

#include <string>
#include <vector>

#include "tools/conformance/paths.h"
#include "tools/conformance/runner.h"

namespace passlab::conformance {

/// Everything the report is made from.
struct RunSummary {
  /// Data roots that were searched.
  std::vector<std::string> roots;
  /// The paths, in column order.
  std::vector<ExecutionPath*> paths;
  /// Every result, test-major (all paths of a test together).
  std::vector<TestResult> results;
  /// Wall-clock seconds of the whole run.
  double seconds = 0;
};

/// Counts of one path.
struct Counts {
  /// Tests that passed, failed and were skipped.
  size_t passed = 0, failed = 0, skipped = 0;
};

/// Counts of `path` over `results`.
Counts countFor(const std::vector<TestResult>& results, const std::string& path);

/// "N passed, N failed, N skipped".
std::string countsText(const Counts& c);

/// A short reason shared by similar skips ("unsupported ONNX op 'ArgMax'").
std::string reasonKey(const std::string& detail);

/// The Markdown report: summary per path and suite, a per-op table, every
/// failure and the skip reasons.
std::string renderReport(const RunSummary& run);

}  // namespace passlab::conformance
