// The workbench: the one API both faces (the REPL and the GUI) drive.
//
// A Workbench holds a loaded module, a pipeline, a root PassContext and the
// recorded Trace of everything run so far. It never prints: every query returns
// data or text for the face to show.
//
// ## The cursor model
//
// Passes are deterministic, so the trace is a recording that can be navigated
// like a time-travelling debugger: moving backwards and forwards through
// recorded events re-executes nothing, and moving past the end of the
// recording runs the next pipeline pass (which appends its events).
//
// * The **timeline** is the recorded trace linearised in *completion order*
//   (post-order: a nested pass completes before the pass that ran it; siblings
//   in order). That is the order in which module states came into existence.
//   Event 0 ("load", the loaded module) is always first.
// * The **cursor** is one event id. It means "stopped right after this event
//   finished": the IR at the cursor is the event's `after` module (`before` on
//   request). A failed event's `after` is its `before` (failures change nothing).
// * The **frontier** is the end of the timeline. Moving beyond it runs the next
//   top-level pass of the pipeline through the TraceInstrument; its nested
//   passes become child events. A failure halts the pipeline: the failed event
//   stays in the trace and the cursor lands on it.
//
// Moves (all forward moves stop early at a breakpoint hit or a failed event):
// * `step(n)`    — n top-level events forward (runs passes at the frontier).
// * `next(n)`    — step over: the next event at the cursor's depth or shallower
//                  (the next sibling; the parent after the last sibling).
// * `stepIn(n)`  — the next event in the timeline at any depth, so from a
//                  top-level event it enters the next pass's nested pipeline.
// * `stepOut()`  — the event that contains the cursor (the parent completes).
// * `back(n)`    — the reverse of `next`: the previous event at the cursor's
//                  depth or shallower.
// * `gotoEvent(id)` — any recorded event.
// * `run()`      — forward until a breakpoint hit, a failure, an interrupt, or
//                  the end of the pipeline.
//
// Changing the configuration rewrites the future: events recorded after the
// cursor's last completed top-level event are discarded (as is a failed event
// under the cursor), and the next move runs with the new settings. Setting a
// new pipeline or loading a module restarts the trace at event 0.
//
// Threading: one thread drives a Workbench. `requestCancel` may be called from
// any thread or a signal handler; long moves check it between passes.
//
// This header holds the session's own types (moves, progress, load options);
// each feature's value types are in its header (breakpoints: break_kind.h,
// bisection: bisect.h, the attribute timeline: attr_timeline.h, edits and
// branches: branches.h, config provenance: provenance.h, reproducers:
// reproducer.h, builds: core/trace/build_log.h), and the member functions of
// each part are in workbench_<part>.cpp.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/interp/interp_limits.h"
#include "core/ir/module.h"
#include "core/pass/pass.h"
#include "core/pass/registry.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"
#include "core/trace/numeric_check.h"
#include "core/trace/change_index.h"
#include "core/workbench/attr_timeline.h"
#include "core/workbench/bisect.h"
#include "core/workbench/branches.h"
#include "core/workbench/break_kind.h"
#include "core/workbench/provenance.h"
#include "core/workbench/run_settings.h"
#include "core/workbench/codegen_backend.h"
#include "core/trace/provenance_check.h"
#include "core/trace/build_log.h"
#include "core/trace/change_summary.h"
#include "core/trace/trace.h"

namespace passlab {

/// A request the workbench cannot honour (no module loaded, no such event,
/// nothing left to run, ...). The message is meant for the user as is.
class WorkbenchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Which side of an event's module.
enum class Side : uint8_t { Before, After };

/// Why a move stopped where it did.
enum class StopReason : uint8_t {
  Reached,      ///< the requested target
  Breakpoint,   ///< a breakpoint hit on the way (see MoveResult::breakpoints)
  Failure,      ///< a failed event on the way
  EndOfTrace,   ///< the pipeline ended (or halted) before the target was reached
  Interrupted,  ///< requestCancel() between passes
};

/// The outcome of a move.
struct MoveResult {
  /// Cursor before and after.
  int from = 0;
  int to = 0;
  StopReason reason = StopReason::Reached;
  /// Events passed at the move's granularity, in timeline order, ending with `to`
  /// (for `step`/`run`: top-level events; `next`: same depth or shallower; `stepIn`: all).
  std::vector<int> visited;
  /// Top-level events executed (not replayed) during the move.
  std::vector<int> executed;
  /// Breakpoint ids that hit at `to`.
  std::vector<int> breakpoints;
  /// Remarks for the user (e.g. "FuseOps did not run: its opt_level 3 > context opt_level 2").
  std::vector<std::string> notes;
  /// Why the move stopped before an out-of-phase pipeline pass instead of running
  /// it ("" when it did not; the same text is also a note). See Workbench::forceStep.
  std::string refusal;
};

/// Progress of a top-level pass run by a move, for faces that show what is
/// running (a status line, a progress bar) while a long move is under way.
struct PassProgress {
  /// Position of the pass in the pipeline (0-based) and the pipeline's length.
  size_t index = 0;
  size_t total = 0;
  /// Pipeline text of the pass.
  std::string pass;
  /// False when the pass is about to start, true when it has finished.
  bool finished = false;
  /// The event it produced (finished only; -1 when none).
  int event = -1;
};

/// How to load a module.
struct LoadOptions {
  /// Run type inference at load time (a type error then fails the load). Off to
  /// load an ill-typed module on purpose and watch a pass meet it.
  bool typeCheck = true;
};

/// What Workbench::reproducer makes and loadReproducer reads (core/workbench/reproducer.h).
struct Reproducer;

/// The workbench.
class Workbench {
 public:
  /// A workbench whose pipelines are built from `registry` (filled by the face,
  /// e.g. with registerBuiltinPasses; core/ cannot depend on passes/).
  explicit Workbench(std::shared_ptr<const PassRegistry> registry);
  ~Workbench();
  Workbench(const Workbench&) = delete;
  Workbench& operator=(const Workbench&) = delete;

  // ---- Loading --------------------------------------------------------------
  /// Loads a module text file, Relay or TVMScript (core/text/load_text.h). Parse
  /// and type errors throw DiagnosticError and leave the previous state untouched.
  void load(const std::string& path, LoadOptions options = {});
  /// Loads module text (either syntax); `name` is used in diagnostics.
  void loadText(std::string text, std::string name, LoadOptions options = {});
  /// Loads an already built module; `origin` is the syntax it was read in
  /// (the default, Relay, for a module built in memory or imported).
  void loadModule(IRModule mod, std::string name, LoadOptions options = {}, TextOrigin origin = {});
  /// True once a module is loaded.
  bool loaded() const { return trace_ != nullptr; }
  /// The name of what was loaded ("" before any load).
  const std::string& sourceName() const { return sourceName_; }
  /// The options the current module was loaded with.
  const LoadOptions& loadOptions() const { return loadOptions_; }
  /// What the user should know about the last load (placeholder constants
  /// made for TVM metadata references, an expression wrapped as @main).
  const std::vector<Diagnostic>& loadNotes() const { return loadNotes_; }
  /// Loads a reproducer: fresh configuration from it, its module and pipeline.
  void loadReproducer(const Reproducer& repro);
  /// The syntax (and TVMScript spelling) the loaded module was written in.
  const TextOrigin& textOrigin() const { return origin_; }

  // ---- Print syntax ---------------------------------------------------------
  // One setting owns the syntax every face prints IR in (show, diffs, dumps,
  // reports, reproducers, saved modules, the GUI's panes). Its default is the
  // syntax the module was loaded in; an explicit choice outlives later loads.
  /// Sets the print syntax; nullopt returns to the default (the load syntax).
  void setPrintSyntax(std::optional<TextSyntax> syntax);
  /// The explicit print syntax (nullopt: following the loaded module).
  const std::optional<TextSyntax>& printSyntaxSetting() const { return printSyntax_; }
  /// The syntax IR prints in now.
  TextSyntax printSyntax() const { return printSyntax_ ? *printSyntax_ : origin_.syntax; }
  /// The PrintOptions every face starts from: the print syntax, the loaded
  /// module's TVMScript spelling (the release spelling for a Relay module),
  /// the constant style and the session's constant numbering (a constant keeps
  /// its `meta[relay.Constant][N]` for the whole session, across events and diffs).
  PrintOptions printOptions() const;
  /// printOptions() for a file (`save module`, `-o`, reproducers, edit
  /// records): in Relay text with TVM's `#[metadata]` section so it loads back
  /// losslessly; TVMScript has no section here, so its constants print inline
  /// where TVMScript can spell them.
  PrintOptions fileOptions() const;

  // ---- Pipeline -------------------------------------------------------------
  /// Parses and sets the pipeline (DiagnosticError with the column on bad text);
  /// restarts the trace at event 0.
  void setPipeline(std::string_view spec);
  /// Canonical text of the pipeline ("" when none).
  std::string pipelineSpec() const;
  /// The top-level passes, in order.
  const std::vector<PassPtr>& pipelinePasses() const { return pipeline_; }
  /// How many top-level passes have been executed (the frontier's position).
  size_t passesExecuted() const { return nextPass_; }
  /// The top-level event produced by pipeline pass `index` (-1: did not run or not yet run).
  int eventOfPass(size_t index) const;
  /// True when a failure stopped the pipeline.
  bool halted() const { return halted_; }
  /// Restarts the trace at event 0 (same module, pipeline and configuration).
  void restart();
  /// The registry pipelines are built from.
  const PassRegistry& registry() const { return *registry_; }
  /// The same registry, shared (for scratch workbenches such as the reducer's).
  const std::shared_ptr<const PassRegistry>& sharedRegistry() const { return registry_; }

  // ---- Configuration (each change rewrites the future; returns events discarded) ----
  /// Sets a registered config key (validated: DiagnosticError names a bad key or kind).
  int setConfig(const std::string& key, const AttrValue& value);
  /// Parses `text` for the registered kind of `key`, then setConfig.
  int setConfigText(const std::string& key, const std::string& text);
  int setOptLevel(int level);
  /// Sets the context's target; an unknown target kind is a DiagnosticError listing the known ones.
  int setTarget(std::string target);
  int setDisabledPasses(std::set<std::string> passes);
  int setRequiredPasses(std::set<std::string> passes);
  /// The run settings in force (the root context's and verify-each).
  RunSettings runSettings() const;
  /// Replaces every run setting at once, validated like the single setters
  /// (nothing changes when one is bad); rewrites the future like them.
  int setRunSettings(const RunSettings& settings);
  /// Sets a field of a dict-valued module attribute of the loaded module
  /// (`executor`, `link-params`, 1) or a whole attribute when `field` is empty.
  /// The input changed, so the trace restarts.
  void setModuleAttr(const std::string& attr, const std::string& field, const AttrValue& value);
  /// Adds an instrument of a face's own (batch mode's printers and timing) to
  /// every run: installed before the workbench's recorder and checks, kept
  /// across loads, restarts and setting changes.
  void addInstrument(PassInstrumentPtr instrument);
  /// The root context (read-only use: settings, explicit config).
  const PassContext& context() const { return *ctx_; }

  // ---- Navigation (see the cursor model above) -------------------------------
  /// The event under the cursor.
  int cursor() const { return cursor_; }
  MoveResult step(int n = 1);
  MoveResult next(int n = 1);
  MoveResult stepIn(int n = 1);
  MoveResult stepOut();
  MoveResult back(int n = 1);
  MoveResult gotoEvent(int id);
  MoveResult run();
  /// `step(n)` that also runs pipeline passes whose accepted phases exclude the
  /// module's phase. Every other move stops in front of such a pass (nothing
  /// runs; MoveResult::refusal says why); a forced run is recorded with the
  /// pass manager's "phase.out-of-phase" error diagnostic on its event.
  MoveResult forceStep(int n = 1);
  /// The events in completion order (the timeline the cursor moves along).
  const std::vector<int>& timeline() const;
  /// Asks a running move to stop at the next pass boundary, and a running
  /// interpreter evaluation (numeric check, run) to stop now. Async-signal-safe.
  void requestCancel() {
    cancel_.store(true, std::memory_order_relaxed);
    interp::requestInterrupt();
  }
  /// True when requestCancel() was called and no move has consumed it yet;
  /// long operations outside the workbench (reduce) poll it between steps.
  bool cancelRequested() const { return cancel_.load(std::memory_order_relaxed); }
  /// Forgets a pending cancel request (at the start of a long operation).
  void clearCancel() {
    cancel_.store(false, std::memory_order_relaxed);
    interp::clearInterrupt();
  }
  /// Called before and after every pipeline pass a move runs (not for replayed
  /// events). Runs on the thread driving the move; null to stop listening.
  void setProgressListener(std::function<void(const PassProgress&)> listener) { progress_ = std::move(listener); }

  // ---- Edit and continue (core/workbench/workbench_branches.cpp) -----------------------
  // An edit replaces the module at the cursor (a top-level event; at a failed
  // one, the module before it, so the failed pass runs again on the edit) with
  // parsed, type-checked text. It becomes an `edit` event after the last
  // completed top-level event at the cursor, and the pipeline continues from
  // there. When events were recorded after that point they stay on the
  // current branch and the edit goes on a new one, which becomes active; the
  // events before the edit are shared (same ids on both). Loading, a new
  // pipeline and `restart` drop every branch.
  /// Applies edited `text`: a whole module, or with `function` one global
  /// function's definition (`def @f(...) { ... }`) spliced into the module.
  /// `name` is the file name diagnostics cite. Parse and type errors throw
  /// DiagnosticError (file:line:col) and change nothing. Returns the edit event.
  int edit(const std::string& text, const std::string& function, const std::string& name);
  /// Every branch, by id.
  std::vector<BranchInfo> branches() const;
  /// The active branch's id.
  int activeBranch() const { return activeBranch_; }
  /// Makes `branch` active with its cursor at `id` (-1: where it was).
  /// WorkbenchError for an unknown branch or event.
  MoveResult gotoBranch(int branch, int id = -1);
  /// The event of `branch` that corresponds to event `id` of the active branch:
  /// the same event when `id` is shared, else the event of the same pipeline
  /// pass (-1 when that pass has not run there).
  int correspondingEvent(int branch, int id) const;
  /// The module after event `id` of `branch` (any branch, active or not).
  const IRModule& branchModule(int branch, int id) const;
  /// Unified diff of event `id` on the active branch against the same pass on
  /// `branch` (old side: `branch`), whole module or one function; aligned by the
  /// node matcher (only real differences show) unless `aligned` is false.
  std::string diffBranch(int branch, int id, const std::string& function = "", bool aligned = true) const;
  /// The edits of the active branch, in event order.
  const std::vector<EditRecord>& editRecords() const;

  // ---- Breakpoints ------------------------------------------------------------
  /// Adds a breakpoint; returns its id. Validates the pattern (an unknown pass
  /// name is an error with a suggestion).
  int addBreakpoint(BreakKind kind, std::string pattern);
  /// Removes one; false when there is no such id.
  bool removeBreakpoint(int id);
  void clearBreakpoints() { breakpoints_.clear(); }
  /// Enables or disables one; false when there is no such id.
  bool enableBreakpoint(int id, bool enabled);
  const std::vector<Breakpoint>& breakpoints() const { return breakpoints_; }
  /// Ids of the enabled breakpoints that event `id` hits.
  std::vector<int> breakpointsHitBy(int id) const;

  // ---- Queries ----------------------------------------------------------------
  /// The recorded trace (WorkbenchError before a load).
  const Trace& trace() const;
  /// The event `id` (WorkbenchError naming the valid range otherwise).
  const TraceEvent& event(int id) const;
  /// The module of event `id` on `side`.
  const IRModule& moduleAt(int id, Side side) const;
  /// Printed IR of event `id`: the whole module, or one global function
  /// (WorkbenchError when the function is not in that module).
  std::string moduleText(int id, Side side, const std::string& function = "") const;
  /// Printed IR of event `id` for a file (`save module`), with fileOptions().
  std::string moduleFileText(int id, Side side) const;
  /// How the faces print large constants (`set print-constants`): by reference
  /// (the default) or inline (core/text/constant_refs.h).
  ConstantStyle constantStyle() const { return constantStyle_; }
  void setConstantStyle(ConstantStyle style);
  /// The constant printed as `meta[relay.Constant][n]` this session
  /// (WorkbenchError when no constant has that number yet).
  NDArray numberedConstant(int n) const;
  /// Unified diff between (a, sideA) and (b, sideB), whole module or one function.
  std::string diff(int a, Side sideA, int b, Side sideB, const std::string& function = "") const;
  /// Global function names of event `id`'s module (after), sorted.
  std::vector<std::string> functionNames(int id) const;
  /// Attribute keys seen on any function or the module at any top-level event.
  std::vector<std::string> attributeKeys() const;
  /// Diagnostic rule ids recorded anywhere in the trace.
  std::vector<std::string> diagnosticRules() const;
  /// The attribute timeline.
  AttrTimeline attrTimeline(const AttrTimelineQuery& query = {}) const;
  /// Every recorded read of `key` (see Provenance::keys for matching).
  Provenance provenance(const std::string& key) const;
  /// Provenance conflicts (core/trace/provenance_check.h) of event `id`, or of
  /// every event when `id` is -1, in event order, each with its event id.
  std::vector<ProvenanceConflict> provenanceConflicts(int id = -1) const;

  // ---- Node matching and change summaries (core/workbench/workbench_changes.cpp) -------
  /// The node matching of (a, sideA) against (b, sideB) (core/analysis/node_match.h),
  /// computed on first use and cached. WorkbenchError for unknown events.
  std::shared_ptr<const ModuleEdits> edits(int a, Side sideA, int b, Side sideB) const;
  /// The index the matchings and summaries above come from, for the faces'
  /// own pairs (batch mode's dumps), so they share its cache.
  const ChangeIndex& changeIndex() const { return changes_; }
  /// The matching of event `id`, before against after. WorkbenchError when the
  /// event failed or was skipped (it has no after snapshot of its own).
  std::shared_ptr<const ModuleEdits> eventEdits(int id) const;
  /// One line saying what event `id` did ("grouped 412 ops into 96 Primitive
  /// functions; 0 ops rewritten", "no change", "skipped: ...", "failed"); cached.
  std::string changeSummary(int id) const;
  /// Like diff(), but the second side is printed with the first side's names
  /// for matched nodes, so renumbering is not a change.
  std::string alignedDiff(int a, Side sideA, int b, Side sideB, const std::string& function = "") const;
  /// The edit script grouped per function (every node with `all`), optionally one
  /// function, capped at `maxLines` lines plus a count of the rest (0: no cap).
  std::string editScript(int a, Side sideA, int b, Side sideB, bool all = false, const std::string& function = "",
                         size_t maxLines = 0) const;

  // ---- Numeric check and bisection (core/workbench/workbench_checks.cpp) ---------------
  /// Turns the numeric-check instrument on with `options`, or off with nullopt.
  /// Turning it on also checks the top-level events already recorded (nothing
  /// is re-run); the reference is event 0's module. Errors making the
  /// reference (no @main, no static parameter types, a bad inputs file) throw
  /// DiagnosticError and leave the check off.
  void setNumericCheck(std::optional<NumericCheckOptions> options);
  /// The current numeric-check options (nullopt: off).
  const std::optional<NumericCheckOptions>& numericCheck() const { return numericCheck_; }
  /// Finds the first top-level pass after which `predicate` holds, by binary
  /// search over the pipeline's prefixes: runs the rest of the pipeline first
  /// (without moving the cursor, stopping at a failure), then evaluates the
  /// predicate on the module after O(log n) top-level events, assuming that
  /// once it holds it keeps holding. Moves the cursor to the event found.
  /// Numeric predicates use the numeric-check options (seed 0 when off).
  BisectResult bisect(const BisectPredicate& predicate);

  // ---- Phases and verification (core/workbench/workbench_phases.cpp) ---------------------
  /// Turns the verify-each instrument on or off: the well-formed checker runs
  /// before the first pass and after every pass that changed the module, and
  /// each violation becomes a diagnostic of the event (so `break diag wf.RULE`
  /// stops there). Rewrites the future like a configuration change; returns
  /// the number of events discarded.
  int setVerifyEach(bool on);
  /// Whether verify-each is on.
  bool verifyEach() const { return verifyEach_; }
  /// Turns pass remarks (core/pass/remark.h) on or off. On by default: the
  /// faces answer "why not?" from what was recorded. Rewrites the future like
  /// a configuration change; returns the number of events discarded.
  int setRemarks(bool on);
  /// Whether passes record remarks.
  bool remarks() const { return remarks_; }
  /// The well-formed checker's findings on the module of event `id` (`side`).
  std::vector<Diagnostic> wellFormed(int id, Side side = Side::After) const;
  /// Why the next pipeline pass would be refused for its phase (nullopt when it
  /// would run, or when no pass is left).
  std::optional<std::string> nextPassRefusal() const;

  // ---- Code generation (core/workbench/workbench_codegen.cpp) -----------------------------
  // A build is recorded as a top-level event (pass "build") with one child
  // event per stage, placed in the timeline right after the event whose module
  // it compiled. So `step` from there lands on the build, `stepin` walks its
  // stages, `back` returns, and the next pipeline pass follows it. Builds are
  // not passes: they take no pipeline slot, bisect and the attribute timeline
  // skip them, and a configuration change discards the ones recorded after the
  // event it keeps. Which events are builds, what each compiled and what it
  // produced is the BuildLog's (core/trace/build_log.h).
  /// Registers the code generator (null: none). Set by the layer that links it.
  void setCodegenBackend(std::shared_ptr<CodegenBackend> backend) { codegen_ = std::move(backend); }
  /// The registered code generator (null: none).
  const std::shared_ptr<CodegenBackend>& codegenBackend() const { return codegen_; }
  /// Compiles the module at the cursor (`after`; a codegen event's is its
  /// build's module), records the build and its stages, and moves the cursor
  /// to the build event; returns its id. WorkbenchError "build failed: ..."
  /// (nothing recorded) when the backend throws or none is registered.
  int build(const CodegenRequest& request);
  /// The builds of the active branch's trace (empty before a load).
  const BuildLog& builds() const { return *builds_; }
  /// The fast reference for running `entry` of event `id`'s module (the module
  /// it was built from): the last event at or before it in the timeline whose module is
  /// still graph-level for `entry` (no PrimFunc reachable from it, so the
  /// graph interpreter runs it op by op instead of the TIR interpreter running
  /// every loop) and whose `entry` takes the same parameter types. A module
  /// with graph functions and PrimFuncs counts only by what `entry` reaches.
  /// -1 when there is none, e.g. a module loaded already lowered.
  int graphReferenceEvent(int id, const std::string& entry) const;

  // ---- Export -----------------------------------------------------------------
  /// The trace as JSON (events, statuses, config reads, skips, diagnostics,
  /// timing; with `withIR` also the printed module after every changed event).
  std::string traceJson(bool withIR = false) const;
  /// Pass timing in Chrome's trace-event format (opens in Perfetto / chrome://tracing).
  std::string chromeTraceJson() const;
  /// A reproducer for failed event `id` (WorkbenchError when it did not fail).
  Reproducer reproducer(int id) const;
  /// The most recent failed event, or -1.
  int lastFailure() const;

 private:
  struct PrintCacheEntry {
    IRModule mod;
    std::string function;
    std::string text;
  };

  void requireLoaded() const;
  void resetContext();
  void installInstruments();
  void resetTrace(IRModule initial);
  int discardFuture();
  /// Runs the next pipeline pass at the frontier; returns the top-level event or -1.
  int runNextPass(MoveResult& result);
  void attachFailureDiagnostics(int firstNew, const std::vector<Diagnostic>& errors);
  bool canRunMore() const { return !halted_ && nextPass_ < pipeline_.size(); }
  /// Walks forward from the cursor: `isTarget` counts toward `count`; stops early on breakpoints/failures.
  template <class Pred>
  MoveResult moveForward(int count, Pred isTarget);
  void refreshTimeline() const;
  int positionOf(int id) const;
  std::string endMessage() const;

  std::shared_ptr<const PassRegistry> registry_;
  std::shared_ptr<PassContext> ctx_;
  std::shared_ptr<Trace> trace_;
  /// The builds recorded in trace_ (kept beside it: truncated and copied with it).
  std::shared_ptr<BuildLog> builds_ = std::make_shared<BuildLog>();
  IRModule initial_;
  IRModule current_;  // the module at the frontier
  std::string sourceName_;
  LoadOptions loadOptions_;
  std::vector<Diagnostic> loadNotes_;
  TextOrigin origin_;
  std::optional<TextSyntax> printSyntax_;
  std::vector<PassPtr> pipeline_;
  size_t nextPass_ = 0;
  std::vector<int> passEvent_;  // pipeline index -> top-level event id (-1: not run)
  bool halted_ = false;
  int cursor_ = 0;
  std::vector<Breakpoint> breakpoints_;
  int nextBreakpointId_ = 1;
  std::atomic<bool> cancel_{false};
  std::function<void(const PassProgress&)> progress_;

  mutable std::vector<int> timeline_;
  mutable std::vector<int> positions_;  // event id -> index in timeline_
  mutable size_t timelineEvents_ = static_cast<size_t>(-1);
  mutable uint64_t timelineGeneration_ = 0;
  uint64_t generation_ = 0;  // bumped whenever events are discarded or the trace is replaced
  mutable std::vector<PrintCacheEntry> printCache_;
  ConstantStyle constantStyle_ = ConstantStyle::Ref;
  /// The session's constant numbering; a new one with every load (a restart or new pipeline keeps it).
  std::shared_ptr<ConstantNumbering> constantNumbers_ = std::make_shared<ConstantNumbering>();
  /// Every matching and summary the faces ask for (core/trace/change_index.h).
  ChangeIndex changes_;
  void numberLoadedConstants();
  std::string withSessionConstants(const std::string& text, const IRModule& base) const;
  std::string checkDiffable(int a, Side sideA, int b, Side sideB, const std::string& function) const;
  bool verifyEach_ = false;
  std::vector<PassInstrumentPtr> faceInstruments_;
  bool remarks_ = true;
  bool forcePhase_ = false;  // set for the duration of forceStep
  std::optional<NumericCheckOptions> numericCheck_;
  std::shared_ptr<NumericCheckInstrument> numericInstrument_;
  std::shared_ptr<CodegenBackend> codegen_;

  /// A branch's recorded state; the active branch's lives in the members above
  /// (trace_, builds_, current_, nextPass_, passEvent_, halted_, cursor_, editRecords_).
  struct Branch {
    BranchInfo info;
    std::shared_ptr<Trace> trace;
    std::shared_ptr<BuildLog> builds;
    IRModule current;
    size_t nextPass = 0;
    std::vector<int> passEvent;
    bool halted = false;
    int cursor = 0;
    std::vector<EditRecord> edits;
  };
  void saveBranch(Branch& b) const;
  void restoreBranch(const Branch& b);
  const Branch& branchState(int branch) const;
  /// The last completed top-level event at or before the cursor (what a
  /// configuration change keeps).
  int lastKeptEvent() const;
  /// How many pipeline passes ran before event `keep` (the edit continues after them).
  size_t passesBefore(int keep) const;
  std::vector<Branch> branches_;  // every branch; the active one's slot is stale until saved
  int activeBranch_ = 0;
  std::vector<EditRecord> editRecords_;
};

}  // namespace passlab
