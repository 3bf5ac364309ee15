// The trace: a tree of pass events with module snapshots, provenance and diffs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"
#include "core/pass/pass.h"

namespace passlab {

/// What happened to a pass.
enum class EventStatus : uint8_t { Changed, Unchanged, Skipped, Failed };

/// One pass run (or the initial "load" event, id 0). Snapshots share structure
/// with each other, so keeping every one costs only what changed.
struct TraceEvent {
  int id = 0;
  /// Parent event (-1 at top level) and children (nested passes, in order).
  int parent = -1;
  std::vector<int> children;
  int depth = 0;
  std::string pass;
  /// The pass's options as pipeline text ("" when none).
  std::string options;
  int contextId = 0;
  std::string contextName;
  IRModule before;
  /// Equal to `before` (same pointer) when unchanged or failed.
  IRModule after;
  EventStatus status = EventStatus::Unchanged;
  /// Names of global functions added, removed or whose pointer changed.
  std::vector<std::string> changedFunctions;
  /// Whether module attributes changed.
  bool moduleAttrsChanged = false;
  double wallMs = 0;
  std::vector<ConfigRead> configReads;
  std::vector<FunctionSkip> skips;
  std::vector<Diagnostic> diagnostics;
  /// Failure message (rendered diagnostics) when status is Failed.
  std::string failure;
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

 private:
  std::vector<TraceEvent> events_;
};

/// The instrument that records a Trace: events, snapshots, timing, config reads,
/// skips, diagnostics and failures, with nesting from the context tree.
class TraceInstrument : public PassInstrument {
 public:
  explicit TraceInstrument(std::shared_ptr<Trace> trace);
  std::string name() const override { return "trace"; }
  void beforePass(const Pass& pass, const IRModule& mod, PassContext& ctx) override;
  void afterPass(const Pass& pass, const IRModule& before, const IRModule& after, PassContext& ctx) override;
  void afterFailure(const Pass& pass, const IRModule& before, const std::vector<Diagnostic>& errors, PassContext& ctx) override;
  void onConfigRead(const ConfigRead& read) override;
  void onFunctionSkipped(const FunctionSkip& skip) override;
  void onDiagnostic(const Diagnostic& diagnostic, PassContext& ctx) override;
  /// The trace being recorded.
  const std::shared_ptr<Trace>& trace() const { return trace_; }

 private:
  std::shared_ptr<Trace> trace_;
  std::vector<int> open_;  // stack of events being run (innermost last)
  std::vector<int64_t> startNs_;
};

/// One line of a line diff.
struct DiffLine {
  enum class Kind : uint8_t { Same, Added, Removed };
  Kind kind;
  /// 1-based line numbers in the old and new text (0 when absent on that side).
  uint32_t oldLine, newLine;
  std::string text;
};

/// Myers line diff of two texts.
std::vector<DiffLine> diffLines(const std::string& oldText, const std::string& newText);
/// Unified diff text (`--- a`, `+++ b`, `@@ ... @@` hunks with `context` lines).
std::string unifiedDiff(const std::string& oldText, const std::string& newText, const std::string& oldName,
                        const std::string& newName, int context = 3);

/// One attribute change of one function between two modules.
struct AttrChange {
  std::string function;
  std::string key;
  enum class Kind : uint8_t { Added, Removed, Changed } kind;
  /// Printed old and new values ("" where absent).
  std::string oldValue, newValue;
};

/// Per-function attribute diff (functions added/removed count as all keys added/removed);
/// module attributes are reported under function "<module>".
std::vector<AttrChange> diffAttrs(const IRModule& before, const IRModule& after);

}  // namespace passlab
