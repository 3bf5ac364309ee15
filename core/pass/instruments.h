// Standard instruments: IR printing, pass timing and verification. Passes never
// print; everything a user sees around a pass comes from an instrument.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/pass/pass.h"
#include "core/text/printer.h"

namespace passlab {

/// What PrintInstrument prints (LLVM/MLIR's -print-before-all, -print-after-all,
/// -print-changed, -filter-print-funcs).
struct PrintInstrumentOptions {
  /// The module before every pass.
  bool printBeforeAll = false;
  /// The module after every pass (also after a failure: the diagnostics).
  bool printAfterAll = false;
  /// The module after a pass only when the pass changed it (pointer comparison of
  /// the printed functions); the module is printed once at the start.
  bool printChanged = false;
  /// With printChanged: a unified diff of before/after instead of the whole module.
  bool changedAsDiff = false;
  /// Print before these passes (by name) in addition to printBeforeAll.
  std::set<std::string> printBefore;
  /// Print after these passes (by name) in addition to printAfterAll.
  std::set<std::string> printAfter;
  /// Only these global functions (names without '@'); empty prints the whole module.
  std::vector<std::string> functions;
  /// Also print around passes run by other passes (nested pipelines in child contexts).
  bool includeNested = true;
  /// Text options for the printer.
  PrintOptions text;
  /// With changedAsDiff: makes the diff instead of a line diff of the printouts
  /// (the batch passes the node matcher's aligned diff, core/trace/node_match.h).
  std::function<std::string(const IRModule& before, const IRModule& after, const std::string& oldName,
                            const std::string& newName)>
      diffText;
  /// With printChanged: one line `Pass: <line>` per pass instead of IR (a change
  /// summary); no start dump. Not called when the module is unchanged.
  std::function<std::string(const IRModule& before, const IRModule& after)> changeLine;
};

/// Prints the IR around passes into a sink (a string or a stream, never stdout directly).
/// Headers follow MLIR: `// -----// IR Dump After InferType //----- //`.
class PrintInstrument : public PassInstrument {
 public:
  /// Receives printed text.
  using Sink = std::function<void(std::string_view)>;
  /// Prints through `sink`.
  PrintInstrument(PrintInstrumentOptions options, Sink sink);
  /// Appends to `out`, which must outlive the instrument.
  PrintInstrument(PrintInstrumentOptions options, std::string& out);
  /// Writes to `out`, which must outlive the instrument.
  PrintInstrument(PrintInstrumentOptions options, std::ostream& out);

  std::string name() const override { return "print"; }
  void beforePass(const Pass& pass, const IRModule& mod, PassContext& ctx) override;
  void afterPass(const Pass& pass, const IRModule& before, const IRModule& after, PassContext& ctx) override;
  void afterFailure(const Pass& pass, const IRModule& before, const std::vector<Diagnostic>& errors, PassContext& ctx) override;
  /// One line naming the pass and why it did not run.
  void onPassSkipped(const Pass& pass, const IRModule& mod, PassContext& ctx, const std::string& reason) override;

 private:
  bool wanted(PassContext& ctx) const;
  /// The text of `mod` (or of the filtered functions), cached by module pointer.
  const std::string& textOf(const IRModule& mod);
  /// True when a printed function (or the module attributes) differs by pointer.
  bool printedPartChanged(const IRModule& before, const IRModule& after) const;
  void emit(const std::string& header, const std::string& body);

  /// "// " or "# ": the comment mark of the print syntax, for the dump headers.
  std::string dumpMark() const;
  PrintInstrumentOptions options_;
  Sink sink_;
  bool printedStart_ = false;
  // Two-entry cache: the module printed last is usually the next pass's input.
  IRModule cachedModule_[2];
  std::string cachedText_[2];
  int cacheNext_ = 0;
};

/// One row of the timing report.
struct TimingEntry {
  /// Pass name.
  std::string name;
  /// Nesting level (0 for passes run directly by the pipeline).
  int depth = 0;
  /// Total wall time over all runs of this pass at this position in the tree.
  double ms = 0;
  /// How many runs were merged into this row.
  int count = 0;
};

/// Wall time per pass, nested like the passes (MLIR's -mlir-timing tree view).
/// Runs of the same pass under the same parent are merged. Times are the pass
/// bodies as runPass measured them (PassContext::lastPassTiming), so printing or
/// verification by other instruments is never counted.
class TimingInstrument : public PassInstrument {
 public:
  /// An instrument with no measurements.
  TimingInstrument();
  ~TimingInstrument() override;
  std::string name() const override { return "timing"; }
  void beforePass(const Pass& pass, const IRModule& mod, PassContext& ctx) override;
  void afterPass(const Pass& pass, const IRModule& before, const IRModule& after, PassContext& ctx) override;
  void afterFailure(const Pass& pass, const IRModule& before, const std::vector<Diagnostic>& errors, PassContext& ctx) override;

  /// The rows in tree order (parents before children, siblings in first-run order).
  std::vector<TimingEntry> entries() const;
  /// Total of the top-level rows, in milliseconds.
  double totalMs() const;
  /// The report text:
  ///   ===------...---===
  ///     ... Pass execution timing report ...
  ///   ===------...---===
  ///     Total Execution Time: 0.0123 seconds
  ///
  ///     ----Wall Time----  ----Name----
  ///       0.0100 ( 81.3%)  InferType
  ///       0.0010 (  8.1%)    FuseOps
  ///       0.0123 (100.0%)  Total
  std::string report() const;
  /// Forgets every measurement.
  void reset();

 private:
  struct Node;
  void finish(const PassContext& ctx);
  std::unique_ptr<Node> root_;
  std::vector<Node*> stack_;
};

/// Runs the well-formed checker and type checking before the first pass and after
/// every pass that changed the module; each violation is reported through
/// ctx.notifyDiagnostic (never thrown), prefixed with where it was found.
class VerifyInstrument : public PassInstrument {
 public:
  /// Which checks to run.
  explicit VerifyInstrument(bool wellFormed = true, bool types = true);
  std::string name() const override { return "verify"; }
  void beforePass(const Pass& pass, const IRModule& mod, PassContext& ctx) override;
  void afterPass(const Pass& pass, const IRModule& before, const IRModule& after, PassContext& ctx) override;
  /// Number of diagnostics reported so far.
  size_t violations() const { return violations_; }

 private:
  void verify(const IRModule& mod, const std::string& where, PassContext& ctx);
  bool wellFormed_;
  bool types_;
  // The last module checked: checking it again would report the same violations twice.
  IRModule lastVerified_;
  size_t violations_ = 0;
};

}  // namespace passlab
