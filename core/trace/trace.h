// The trace: a tree of pass events with module snapshots, provenance and diffs.
#pragma once

#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"
#include "core/pass/pass.h"
#include "core/trace/diff.h"

namespace passlab {

/// The numeric check of one event's module against the first snapshot's
/// (core/trace/numeric_check.h): the entry function run by the interpreter on
/// the same inputs, every output compared.
struct NumericCheckResult {
  /// False when the module could not be run or its outputs do not line up
  /// with the reference's (count, shape); `note` says why.
  bool compared = false;
  /// Largest |actual - reference| over every element of every output.
  double maxAbsError = 0;
  /// Largest max-abs error of an output divided by that output's largest
  /// |reference| (so values near zero do not blow it up).
  double maxRelError = 0;
  /// Output tensors compared.
  int outputs = 0;
  std::string note;
};

/// What happened to a pass.
enum class EventStatus : uint8_t { Changed, Unchanged, Skipped, Failed };

/// The name of each status, indexed by its value: trace JSON, the report, the
/// REPL's listings and the GUI read it.
inline constexpr std::string_view kEventStatusNames[] = {"changed", "unchanged", "skipped", "failed"};
/// "changed", "unchanged", "skipped" or "failed" (kEventStatusNames).
constexpr std::string_view eventStatusName(EventStatus status) {
  return static_cast<size_t>(status) < std::size(kEventStatusNames) ? kEventStatusNames[static_cast<size_t>(status)] : "?";
}

/// One pass run (or the initial "load" event, id 0). Snapshots share structure
/// with each other, so keeping every one costs only what changed. Builds and
/// their stages are events too; which ones, and what they produced, is the
/// BuildLog's (core/trace/build_log.h), not the event's.
struct TraceEvent {
  int id = 0;
  /// Parent event (-1 at top level) and children (nested passes, in order).
  int parent = -1;
  std::vector<int> children;
  int depth = 0;
  std::string pass;
  /// The pass's options as pipeline text without braces, `max_depth=4,mode=x`
  /// (optionsText; "" when none).
  std::string options;
  int contextId = 0;
  std::string contextName;
  /// The settings of that context when the pass started: its nesting depth
  /// (0 for the root), target and explicit config. Provenance checks compare a
  /// pass's reads with what its own context says (core/trace/provenance_check.h).
  int contextDepth = 0;
  std::string contextTarget;
  AttrDict contextConfig;
  IRModule before;
  /// Equal to `before` (same pointer) when unchanged or failed.
  IRModule after;
  EventStatus status = EventStatus::Unchanged;
  /// Names of global functions added, removed or whose pointer changed.
  std::vector<std::string> changedFunctions;
  /// Whether module attributes changed.
  bool moduleAttrsChanged = false;
  double wallMs = 0;
  /// When the pass body started, in milliseconds since the trace was created
  /// (for timelines such as the Chrome trace export).
  double startMs = 0;
  /// Why the pass did not run, when status is Skipped.
  std::string skipReason;
  std::vector<ConfigRead> configReads;
  std::vector<FunctionSkip> skips;
  std::vector<Diagnostic> diagnostics;
  /// Remarks the pass emitted (core/pass/remark.h), in order; nested passes' own
  /// remarks are on their events.
  std::vector<Remark> remarks;
  /// Failure message (rendered diagnostics) when status is Failed.
  std::string failure;
  /// Set by the numeric-check instrument for passes of the root context.
  std::optional<NumericCheckResult> numeric;
};

/// The tree of events; event 0 is the loaded module.
class Trace {
 public:
  /// Starts a trace at `initial` (event 0, pass "load").
  explicit Trace(IRModule initial);
  const std::vector<TraceEvent>& events() const { return events_; }
  const TraceEvent& event(int id) const { return events_.at(static_cast<size_t>(id)); }
  TraceEvent& mutableEvent(int id) { return events_.at(static_cast<size_t>(id)); }
  /// Appends an event under `parent` (-1 for top level); returns its id.
  int open(int parent, std::string pass, std::string options, const PassContext& ctx, IRModule before);
  /// Top-level events in order (including 0).
  std::vector<int> topLevel() const;
  /// Drops every event with id >= `firstRemoved` (used when the pipeline is re-run from a point).
  void truncate(int firstRemoved);
  /// steady_clock time of construction in nanoseconds: the zero of TraceEvent::startMs.
  int64_t originNs() const { return originNs_; }

 private:
  std::vector<TraceEvent> events_;
  int64_t originNs_ = 0;
};

/// The instrument that records a Trace: events, snapshots, timing, config reads,
/// skips, diagnostics and failures, with nesting from the context tree.
/// An event is Changed when some global function was added, removed or replaced
/// by another node (pointer comparison) or the module attributes differ; a pass
/// that returns a new module object with the same functions and attributes is
/// Unchanged. Config reads, function skips and diagnostics attach to the
/// innermost event being run; those arriving while no pass runs are dropped.
class TraceInstrument : public PassInstrument {
 public:
  explicit TraceInstrument(std::shared_ptr<Trace> trace);
  std::string name() const override { return "trace"; }
  /// Opens the event (so diagnostics from other instruments' hooks land in it).
  void enterPass(const Pass& pass, const IRModule& mod, PassContext& ctx) override;
  /// Closes the event.
  void exitPass(const Pass& pass, PassContext& ctx) override;
  /// Marks the event Skipped with the reason.
  void onPassSkipped(const Pass& pass, const IRModule& mod, PassContext& ctx, const std::string& reason) override;
  void beforePass(const Pass& pass, const IRModule& mod, PassContext& ctx) override;
  void afterPass(const Pass& pass, const IRModule& before, const IRModule& after, PassContext& ctx) override;
  void afterFailure(const Pass& pass, const IRModule& before, const std::vector<Diagnostic>& errors, PassContext& ctx) override;
  void onConfigRead(const ConfigRead& read) override;
  void onFunctionSkipped(const FunctionSkip& skip) override;
  void onDiagnostic(const Diagnostic& diagnostic, PassContext& ctx) override;
  void onRemark(const Remark& remark) override;
  /// Keeps the remark itself on the open event.
  bool keepsRemarks() const override { return true; }
  void takeRemark(Remark&& remark) override;
  /// The trace being recorded.
  const std::shared_ptr<Trace>& trace() const { return trace_; }

 private:
  std::shared_ptr<Trace> trace_;
  std::vector<int> open_;  // stack of events being run (innermost last)
  std::vector<int64_t> startNs_;
};

}  // namespace passlab
