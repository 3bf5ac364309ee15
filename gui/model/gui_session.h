// The GUI's controller: owns the Workbench, the REPL's CommandInterpreter, the
// console, the shared ViewState and the view models, and keeps them in step.
// Every change of workbench state goes through here — toolbar actions, keys,
// console lines, script lines — so after each one the session bumps its
// generation, re-derives what the panels show, and saves the persistent part
// of the session (model path, pipeline, breakpoints). No ImGui in here.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/workbench/workbench.h"
#include "repl/session_options.h"
#include "gui/model/attr_timeline_model.h"
#include "gui/model/codegen_model.h"
#include "gui/model/config_model.h"
#include "gui/model/console_model.h"
#include "gui/model/diagnostics_model.h"
#include "gui/model/graph_view_model.h"
#include "gui/model/ir_diff_model.h"
#include "gui/model/numerics_model.h"
#include "gui/model/progress_model.h"
#include "gui/model/remarks_model.h"
#include "gui/model/session_store.h"
#include "gui/model/trace_model.h"
#include "gui/model/view_state.h"
#include "repl/interpreter.h"

namespace passlab::gui {

/// The debugger moves the toolbar and keys offer.
enum class Action : uint8_t {
  StepOver,  ///< F10: Workbench::next
  StepIn,    ///< F11: Workbench::stepIn
  StepOut,   ///< Shift+F11: Workbench::stepOut
  Step,      ///< the next top-level pass: Workbench::step
  Back,      ///< Backspace / Alt+Left: Workbench::back
  Run,       ///< F5: Workbench::run (to a breakpoint, a failure or the end)
  Restart,   ///< Workbench::restart
};
/// "Step over", "Step in", ...
const char* actionTitle(Action action);

/// The GUI session.
class GuiSession {
 public:
  /// A session over a fresh workbench with the built-in passes. With a store,
  /// the persistent state is saved there after every change (once enabled by
  /// `enablePersistence`, so that start-up does not overwrite the saved session
  /// before it was restored).
  explicit GuiSession(std::optional<SessionStore> store = std::nullopt);
  ~GuiSession();
  GuiSession(const GuiSession&) = delete;
  GuiSession& operator=(const GuiSession&) = delete;

  /// The workbench (changes made directly must be followed by refresh()).
  Workbench& workbench() { return *workbench_; }
  const Workbench& workbench() const { return *workbench_; }
  /// The REPL's interpreter over the same workbench.
  CommandInterpreter& interpreter() { return *interpreter_; }
  /// The console (scrollback, history, completion).
  ConsoleModel& console() { return *console_; }
  /// What the panels share.
  ViewState& view() { return view_; }
  const ViewState& view() const { return view_; }

  // ---- Changes (each refreshes the views and persists) ----------------------
  /// Performs a debugger move; a refusal ("already at the first event") becomes the status line.
  void perform(Action action);
  /// Moves the cursor to event `id` (no re-execution).
  void selectEvent(int id);
  /// Loads a model; false (status says why) when it cannot be loaded.
  bool openModel(const std::string& path);
  /// Sets the pipeline; false (status says why, with the column) on bad text.
  bool applyPipeline(const std::string& spec);
  /// Breakpoint edits; false with a status message when refused.
  bool addBreakpoint(BreakKind kind, const std::string& pattern);
  /// Removes breakpoint `id`.
  bool removeBreakpoint(int id);
  /// Enables or disables breakpoint `id`.
  bool enableBreakpoint(int id, bool enabled);
  /// Sets the syntax the IR panes (and every other face) print in: the
  /// workbench's one print-syntax setting, the same `set syntax` changes.
  void setPrintSyntax(TextSyntax syntax);
  /// Runs a console line (echoed into the console log, recorded in history when `userTyped`).
  CommandResult runCommand(const std::string& line, bool userTyped = true);
  /// Call after anything changed the workbench behind the session's back.
  void refresh();

  // ---- IR view helpers --------------------------------------------------------
  /// Sets the IR view's function filter ("" = all) and recomputes search hits.
  void setFunctionFilter(const std::string& function);
  /// Sets the search text, recomputes hits and scrolls to the first at or after the top.
  void setSearch(const std::string& text);
  /// Moves to the next (or previous) search hit.
  void nextSearchHit(bool forward = true);
  /// Scrolls the IR view to `line` of `side` (1-based); false when no row shows it.
  bool goToLine(Side side, uint32_t line);
  /// Scrolls to and highlights where diagnostic row `index` points; false when it has no place.
  bool jumpToDiagnostic(size_t index);
  /// Does what clicking visible row `index` of the Remarks panel does: scrolls the
  /// IR view to the remark's first node and highlights it, and selects that node
  /// in the Graph panel (showing the remark's function there). False (status
  /// says why) when the remark has no place in the printed IR.
  bool jumpToRemark(size_t index);
  /// Jumps to an attribute-timeline cell: its event, filtered to its function.
  void jumpToAttrCell(int event, const std::string& function);

  // ---- View models (rebuilt lazily after a change) --------------------------
  /// Trace rows (with ViewState::traceFilter).
  const TraceModel& traceModel();
  /// The IR diff of the selected event (with the function filter applied).
  IrDiffModel& irDiff();
  /// Diagnostics rows of the selected event.
  const std::vector<DiagnosticRow>& diagnostics();
  /// Config reads of the selected event (or of all events).
  const ConfigModel& configModel();
  /// The attribute timeline (with ViewState::attrOptions).
  const AttrTimelineModel& attrTimelineModel();
  /// The numerics plot.
  const NumericsModel& numericsModel();
  /// The PrimFuncs of the selected event's module.
  const CodegenModel& codegenModel();
  /// Remarks of the selected event and its nested events, with ViewState::remarkFilter applied.
  RemarksModel& remarksModel();
  /// The Graph panel's model on the selected event and ViewState::graphFunction
  /// (created on first use: its layout worker starts then).
  GraphViewModel& graphModel();
  /// Called from the layout worker when a layout is ready (the app wakes its
  /// idle loop); null to stop. Returns once no earlier callback is running.
  void setBackgroundWake(std::function<void()> wake);
  /// Drops cached models that depend on view options (after a filter change).
  void invalidateViews();

  /// Bumped on every change.
  uint64_t generation() const { return generation_; }
  /// The status line and whether it reports an error.
  const std::string& status() const { return status_; }
  bool statusIsError() const { return statusIsError_; }
  /// Replaces the status line (first line of `text`).
  void setStatus(std::string text, bool error);
  /// Milliseconds the last change took, model rebuild included (shown in the toolbar).
  double lastChangeMs() const { return lastChangeMs_; }

  // ---- Persistence ------------------------------------------------------------
  /// Starts saving after every change (call after restoring).
  void enablePersistence();
  /// Restores a saved session (the parts not overridden); messages go to the console.
  void restore(const SavedSession& saved, bool loadModel, const std::vector<std::string>& inputShapes = {},
               const LoadOptions& load = {});
  /// Applies the command line's run settings (opt level, target, config, pass
  /// lists; repl/session_options.h). A bad one is logged and shown in the status line.
  void applyRunSettings(const SessionOptions& options);
  /// Why the last model load at start failed ("" when it did not): the empty views show it.
  const std::string& loadError() const { return loadError_; }
  /// The store, when persistence is configured.
  const std::optional<SessionStore>& store() const { return store_; }

  // ---- Long commands ----------------------------------------------------------------
  /// What the running command reports (the progress bar's model).
  ProgressModel& progress() { return progress_; }
  /// Installed by the app: draws one frame of the progress bar (and handles
  /// its Cancel button). With a pump, console commands and debugger moves run
  /// on a worker thread while this one calls the pump about 30 times a
  /// second, after the first 150 ms; without one (tests, start-up) they run here.
  void setBusyPump(std::function<void()> pump) { busyPump_ = std::move(pump); }
  /// The Cancel button (and Escape) while a command runs: as Ctrl-C in the
  /// REPL, the command stops at its next check and the workbench stays intact.
  void cancelLongCommand();

  // ---- Requests to the application -----------------------------------------------
  /// `gui screenshot FILE` asks the app to write the next frame to FILE.
  std::vector<std::string>& screenshotRequests() { return screenshotRequests_; }
  /// `quit` in the console.
  bool quitRequested() const { return quitRequested_; }

 private:
  void changed(double startedMs);
  /// Runs `work` (a command or a move) as setBusyPump describes; exceptions come back out.
  void runLong(const std::string& label, const std::function<void()>& work);
  void persist();
  void syncSelection();
  void recomputeSearch();

  std::shared_ptr<PassRegistry> registry_;
  std::unique_ptr<Workbench> workbench_;
  std::unique_ptr<CommandInterpreter> interpreter_;
  std::unique_ptr<ConsoleModel> console_;
  ViewState view_;
  std::optional<SessionStore> store_;
  bool persistenceEnabled_ = false;

  uint64_t generation_ = 1;
  std::string status_;
  std::string loadError_;
  bool statusIsError_ = false;
  double lastChangeMs_ = 0;
  bool quitRequested_ = false;
  std::vector<std::string> screenshotRequests_;

  PrintCache printCache_;
  // Cached models with the generation they were built for (0 = never).
  TraceModel trace_;
  uint64_t traceGen_ = 0;
  IrDiffModel irDiff_;
  IRModule irBefore_, irAfter_;  // what irDiff_ was built from
  std::vector<DiagnosticRow> diagnostics_;
  uint64_t diagnosticsGen_ = 0;
  ConfigModel config_;
  uint64_t configGen_ = 0;
  AttrTimelineModel attrTimeline_;
  uint64_t attrGen_ = 0;
  NumericsModel numerics_;
  uint64_t numericsGen_ = 0;
  RemarksModel remarks_;
  uint64_t remarksGen_ = 0;
  CodegenModel codegen_;
  uint64_t codegenGen_ = 0;
  std::unique_ptr<GraphViewModel> graph_;
  std::function<void()> backgroundWake_;
  ProgressModel progress_;
  std::function<void()> busyPump_;
};

/// The `gui` console command (panels, IR filter, search, go to line,
/// diagnostics, screenshots, script pauses) bound to `session`.
Command makeGuiCommand(GuiSession& session);

}  // namespace passlab::gui
