#include "gui/model/gui_session.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "core/text/load_text.h"
#include "passes/registry.h"
#include "repl/format.h"
#include "repl/model_files.h"

namespace passlab::gui {
namespace {

double nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The first line of a message (status lines are one line).
std::string firstLine(const std::string& text) {
  size_t nl = text.find('\n');
  return nl == std::string::npos ? text : text.substr(0, nl);
}

std::string describeStop(const Workbench& wb, const MoveResult& r) {
  std::string out = "at #" + std::to_string(r.to) + " " + wb.event(r.to).pass;
  switch (r.reason) {
    case StopReason::Reached: break;
    case StopReason::Breakpoint: {
      out += ": breakpoint";
      for (int id : r.breakpoints) out += " " + std::to_string(id);
      break;
    }
    case StopReason::Failure: out += ": the pass failed"; break;
    case StopReason::EndOfTrace: out += ": end of the pipeline"; break;
    case StopReason::Interrupted: out += ": interrupted"; break;
  }
  if (!r.executed.empty()) out += " (ran " + std::to_string(r.executed.size()) + (r.executed.size() == 1 ? " pass)" : " passes)");
  for (const std::string& note : r.notes) out += "; " + note;
  return out;
}

}  // namespace

const char* actionTitle(Action action) {
  switch (action) {
    case Action::StepOver: return "Step over";
    case Action::StepIn: return "Step in";
    case Action::StepOut: return "Step out";
    case Action::Step: return "Step";
    case Action::Back: return "Back";
    case Action::Run: return "Run";
    case Action::Restart: return "Restart";
  }
  return "?";
}

GuiSession::GuiSession(std::optional<SessionStore> store) : store_(std::move(store)) {
  registry_ = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry_);
  workbench_ = std::make_unique<Workbench>(registry_);
  interpreter_ = std::make_unique<CommandInterpreter>(*workbench_, Style::plain());
  std::vector<Command> extra;
  extra.push_back(makeGuiCommand(*this));
  console_ = std::make_unique<ConsoleModel>(*interpreter_, std::move(extra));
  // The progress bar hears what the REPL's status line shows: the passes a
  // move runs, bisect's probes and the numeric re-check (the workbench's
  // listener), and build, run, report and reduce (the interpreter's).
  workbench_->setProgressListener([this](const PassProgress& p) {
    progress_.update("[" + std::to_string(p.index + 1) + "/" + std::to_string(p.total) + "] " + (p.finished ? "done " : "running ") + p.pass,
                     p.index + (p.finished ? 1 : 0), p.total);
  });
  interpreter_->statusLine = [this](const StatusUpdate& update) { progress_.update(update.text, update.done, update.total); };
}

void GuiSession::cancelLongCommand() {
  if (!progress_.snapshot().busy) return;
  progress_.markCancelling();
  workbench_->requestCancel();
}

void GuiSession::runLong(const std::string& label, const std::function<void()>& work) {
  workbench_->clearCancel();  // a Cancel pressed as the previous command ended is not for this one
  progress_.begin(label);
  struct End {
    GuiSession& s;
    ~End() {
      s.progress_.end();
      s.workbench_->clearCancel();
    }
  } end{*this};
  if (!busyPump_) {
    work();
    return;
  }
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::exception_ptr failure;
  std::thread worker([&] {
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    finished.notify_one();
  });
  const auto started = std::chrono::steady_clock::now();
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (finished.wait_for(lock, std::chrono::milliseconds(33), [&] { return done; })) break;
    }
    // A command that ends within 150 ms never shows the bar (no flicker).
    if (std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(150)) busyPump_();
  }
  worker.join();
  if (failure) std::rethrow_exception(failure);
}

GuiSession::~GuiSession() = default;

void GuiSession::setStatus(std::string text, bool error) {
  status_ = firstLine(text);
  statusIsError_ = error;
}

// ---- Changes ----------------------------------------------------------------------

void GuiSession::perform(Action action) {
  const double t0 = nowMs();
  Workbench& wb = *workbench_;
  try {
    MoveResult r;
    runLong(std::string("[") + actionTitle(action) + "]", [&] {
      switch (action) {
        case Action::StepOver: r = wb.next(); break;
        case Action::StepIn: r = wb.stepIn(); break;
        case Action::StepOut: r = wb.stepOut(); break;
        case Action::Step: r = wb.step(); break;
        case Action::Back: r = wb.back(); break;
        case Action::Run: r = wb.run(); break;
        case Action::Restart: wb.restart(); break;
      }
    });
    if (action == Action::Restart) {
      setStatus("restarted at #0", false);
      changed(t0);
      return;
    }
    setStatus(std::string(actionTitle(action)) + ": " + describeStop(wb, r),
              r.reason == StopReason::Failure);
    // The console gets what the REPL would have printed, so both faces tell the same story.
    console_->log(ConsoleLine::Kind::Echo, std::string("[") + actionTitle(action) + "]");
    console_->log(ConsoleLine::Kind::Output, formatMove(wb, r, Style::plain()));
  } catch (const DiagnosticError& e) {
    setStatus(e.renderAll(), true);
  } catch (const std::exception& e) {
    setStatus(e.what(), true);
  }
  changed(t0);
}

void GuiSession::selectEvent(int id) {
  const double t0 = nowMs();
  try {
    workbench_->gotoEvent(id);
    setStatus("at #" + std::to_string(id) + " " + workbench_->event(id).pass, false);
  } catch (const std::exception& e) {
    setStatus(e.what(), true);
  }
  changed(t0);
}

void GuiSession::setPrintSyntax(TextSyntax syntax) {
  const double t0 = nowMs();
  workbench_->setPrintSyntax(syntax);
  setStatus(std::string("IR prints as ") + (syntax == TextSyntax::TVMScript ? "TVMScript" : "Relay text"), false);
  changed(t0);
}

bool GuiSession::openModel(const std::string& path) {
  const double t0 = nowMs();
  bool ok = true;
  try {
    loadModelInto(*workbench_, path);
    printCache_.clear();
    std::string status = "loaded " + path;
    if (!isOnnxPath(path)) status += " (" + describeTextOrigin(workbench_->textOrigin()) + ")";
    // Placeholder constants and wrapped expressions: in the console, and the status says so.
    for (const Diagnostic& note : workbench_->loadNotes()) {
      console_->log(ConsoleLine::Kind::Output, note.render());
      if (note.rule == "load.placeholder") status += " (placeholder constants: made-up data, see the console)";
    }
    setStatus(status, false);
  } catch (const DiagnosticError& e) {
    setStatus(e.diagnostics().front().render(), true);
    console_->log(ConsoleLine::Kind::Error, e.renderAll());
    ok = false;
  } catch (const std::exception& e) {
    setStatus(e.what(), true);
    ok = false;
  }
  changed(t0);
  return ok;
}

bool GuiSession::applyPipeline(const std::string& spec) {
  const double t0 = nowMs();
  bool ok = true;
  try {
    workbench_->setPipeline(spec);
    setStatus("pipeline: " + workbench_->pipelineSpec(), false);
  } catch (const DiagnosticError& e) {
    // The rendered diagnostic has the caret under the offending column: keep it for the console.
    setStatus(e.diagnostics().front().render(), true);
    console_->log(ConsoleLine::Kind::Error, e.renderAll());
    ok = false;
  } catch (const std::exception& e) {
    setStatus(e.what(), true);
    ok = false;
  }
  changed(t0);
  return ok;
}

bool GuiSession::addBreakpoint(BreakKind kind, const std::string& pattern) {
  const double t0 = nowMs();
  bool ok = true;
  try {
    int id = workbench_->addBreakpoint(kind, pattern);
    setStatus("breakpoint " + std::to_string(id) + ": " + describeBreakpoint(workbench_->breakpoints().back()), false);
  } catch (const std::exception& e) {
    setStatus(e.what(), true);
    ok = false;
  }
  changed(t0);
  return ok;
}

bool GuiSession::removeBreakpoint(int id) {
  const double t0 = nowMs();
  bool ok = workbench_->removeBreakpoint(id);
  setStatus(ok ? "deleted breakpoint " + std::to_string(id) : "no breakpoint " + std::to_string(id), !ok);
  changed(t0);
  return ok;
}

bool GuiSession::enableBreakpoint(int id, bool enabled) {
  const double t0 = nowMs();
  bool ok = workbench_->enableBreakpoint(id, enabled);
  if (!ok) setStatus("no breakpoint " + std::to_string(id), true);
  changed(t0);
  return ok;
}

CommandResult GuiSession::runCommand(const std::string& line, bool userTyped) {
  const double t0 = nowMs();
  CommandResult result;
  runLong(line, [&] { result = userTyped ? console_->submit(line) : console_->execute(line); });
  if (result.status == CommandStatus::Quit) quitRequested_ = true;
  if (!result.ok())
    setStatus(result.error().empty() ? "command failed" : result.error(), true);
  else if (!line.empty())
    setStatus("ran: " + line, false);
  changed(t0);
  return result;
}

void GuiSession::refresh() { changed(nowMs()); }

void GuiSession::changed(double startedMs) {
  ++generation_;
  syncSelection();
  // The panels always on screen are rebuilt now, so the time below is the
  // time from the action to a frame that can show its result.
  traceModel();
  irDiff();
  persist();
  lastChangeMs_ = nowMs() - startedMs;
}

void GuiSession::syncSelection() {
  const Workbench& wb = *workbench_;
  int cursor = wb.loaded() ? wb.cursor() : 0;
  if (cursor != view_.selectedEvent) {
    view_.selectedEvent = cursor;
    view_.highlight.reset();
    view_.selectedRemark = -1;
  }
  view_.traceScrollToCursor = true;
}

// ---- IR view helpers -----------------------------------------------------------------

void GuiSession::setFunctionFilter(const std::string& function) {
  view_.functionFilter = !function.empty() && function[0] == '@' ? function.substr(1) : function;
  irDiff_.setFunctionFilter(view_.functionFilter);
  view_.highlight.reset();
  recomputeSearch();
  view_.irScroll = IrScrollRequest{0, false};
}

void GuiSession::recomputeSearch() {
  view_.searchHits = irDiff_.findRows(view_.search, view_.searchCaseSensitive);
  if (view_.searchIndex >= static_cast<int>(view_.searchHits.size())) view_.searchIndex = -1;
}

void GuiSession::setSearch(const std::string& text) {
  irDiff();
  view_.search = text;
  view_.searchIndex = -1;
  recomputeSearch();
  nextSearchHit(true);
}

void GuiSession::nextSearchHit(bool forward) {
  const auto& hits = view_.searchHits;
  if (hits.empty()) {
    view_.searchIndex = -1;
    if (!view_.search.empty()) setStatus("not found: " + view_.search, true);
    return;
  }
  int n = static_cast<int>(hits.size());
  view_.searchIndex = view_.searchIndex < 0 ? (forward ? 0 : n - 1) : ((view_.searchIndex + (forward ? 1 : -1)) % n + n) % n;
  view_.irScroll = IrScrollRequest{static_cast<int>(hits[static_cast<size_t>(view_.searchIndex)]), true};
  setStatus("match " + std::to_string(view_.searchIndex + 1) + " of " + std::to_string(n), false);
}

bool GuiSession::goToLine(Side side, uint32_t line) {
  int row = irDiff().visibleRowOfLine(side, line);
  if (row < 0) {
    setStatus("no line " + std::to_string(line) + " in this view", true);
    return false;
  }
  view_.irScroll = IrScrollRequest{row, true};
  view_.highlight = IrLocation{side, LineRange{line, line}, 0, 0};
  return true;
}

bool GuiSession::jumpToDiagnostic(size_t index) {
  const auto& rows = diagnostics();
  if (index >= rows.size()) {
    setStatus("no diagnostic " + std::to_string(index + 1), true);
    return false;
  }
  const DiagnosticRow& row = rows[index];
  if (!row.target) {
    setStatus("diagnostic " + std::to_string(index + 1) + " has no place in the printed IR", true);
    return false;
  }
  // The filter could hide the line: widen to the whole module first.
  if (!view_.functionFilter.empty() && !row.function.empty() && row.function != view_.functionFilter)
    setFunctionFilter("");
  int visible = irDiff_.visibleRowOfLine(row.target->side, row.target->lines.first);
  if (visible < 0 && !view_.functionFilter.empty()) {
    setFunctionFilter("");
    visible = irDiff_.visibleRowOfLine(row.target->side, row.target->lines.first);
  }
  if (visible < 0) return false;
  view_.irScroll = IrScrollRequest{visible, true};
  view_.highlight = *row.target;
  setStatus(row.label + " [" + row.rule + "] " + row.message, row.severity == Severity::Error);
  return true;
}

bool GuiSession::jumpToRemark(size_t index) {
  RemarksModel& model = remarksModel();
  if (index >= model.visible().size()) {
    setStatus("no remark " + std::to_string(index + 1) + " (the panel lists " + std::to_string(model.visible().size()) + ")", true);
    return false;
  }
  const size_t rowIndex = model.visible()[index];
  const RemarkRow row = model.rows()[rowIndex];  // a copy: widening the filter below rebuilds the model
  view_.selectedRemark = static_cast<int>(rowIndex);
  const std::string text = std::string(remarkKindName(row.kind)) + " [" + row.rule + "] " + row.message;
  if (!row.target) {
    setStatus("remark " + std::to_string(index + 1) + " names no node printed at this event (" + row.pass + " #" +
                  std::to_string(row.event) + "): " + text,
              true);
    return false;
  }
  // The filter could hide the line: widen to the whole module first.
  int visible = irDiff().visibleRowOfLine(row.target->side, row.target->lines.first);
  if ((visible < 0 || (!row.function.empty() && !view_.functionFilter.empty() && row.function != view_.functionFilter)) &&
      !view_.functionFilter.empty()) {
    setFunctionFilter("");
    visible = irDiff().visibleRowOfLine(row.target->side, row.target->lines.first);
  }
  if (visible < 0) return false;
  view_.irScroll = IrScrollRequest{visible, true};
  view_.highlight = *row.target;
  // The graph shows the remark's function and selects its first node drawn there.
  const Workbench& wb = *workbench_;
  const TraceEvent& ev = wb.event(view_.selectedEvent);
  const IRModule& mod = row.target->side == Side::Before ? ev.before : ev.after;
  if (!row.function.empty() && mod && mod->lookupFunction(row.function) && graphModel().function() != row.function)
    view_.graphFunction = row.function;
  GraphViewModel& graph = graphModel();
  for (const ExprNode* n : row.ir) {
    GraphPick pick = graph.pickOf(row.target->side, n);
    if (pick.valid()) {
      graph.select(pick);
      break;
    }
  }
  setStatus("remark: " + text, false);
  return true;
}

void GuiSession::jumpToAttrCell(int event, const std::string& function) {
  selectEvent(event);
  setFunctionFilter(function == "<module>" ? "" : function);
}

// ---- View models -------------------------------------------------------------------------

const TraceModel& GuiSession::traceModel() {
  if (traceGen_ != generation_) {
    trace_ = buildTraceModel(*workbench_, view_.traceFilter);
    traceGen_ = generation_;
  }
  return trace_;
}

GraphViewModel& GuiSession::graphModel() {
  if (!graph_) {
    graph_ = std::make_unique<GraphViewModel>();
    if (backgroundWake_) graph_->layouts().setOnReady(backgroundWake_);
  }
  const Workbench& wb = *workbench_;
  if (wb.loaded() && (view_.selectedEvent < 0 || static_cast<size_t>(view_.selectedEvent) >= wb.trace().events().size()))
    view_.selectedEvent = wb.cursor();
  graph_->update(wb, view_.selectedEvent, view_.graphFunction.empty() ? view_.functionFilter : view_.graphFunction);
  return *graph_;
}

void GuiSession::setBackgroundWake(std::function<void()> wake) {
  backgroundWake_ = std::move(wake);
  if (graph_) graph_->layouts().setOnReady(backgroundWake_);
}

IrDiffModel& GuiSession::irDiff() {
  const Workbench& wb = *workbench_;
  if (!wb.loaded()) {
    if (irDiff_.valid()) irDiff_ = IrDiffModel();
    irBefore_.reset();
    irAfter_.reset();
    return irDiff_;
  }
  // A trace rewritten behind the session's back (configuration changes discard
  // events) must not leave the view on an event that no longer exists.
  if (view_.selectedEvent < 0 || static_cast<size_t>(view_.selectedEvent) >= wb.trace().events().size())
    view_.selectedEvent = wb.cursor();
  const TraceEvent& ev = wb.event(view_.selectedEvent);
  // Keyed by the module objects themselves (held here, so their addresses
  // cannot be reused): stepping onto an event with the same modules is free.
  // `set syntax` / `set print-constants` in the console change the settings
  // behind the session's back: a change empties the cache, and the panes print again.
  const bool reprint = printCache_.setOptions(wb.printOptions());
  if (!irDiff_.valid() || ev.before != irBefore_ || ev.after != irAfter_ || reprint) {
    irBefore_ = ev.before;
    irAfter_ = ev.after;
    // Aligned by the node matcher when the event changed something; a plain
    // line diff otherwise (and should matching ever fail).
    std::shared_ptr<const ModuleEdits> edits;
    if (ev.status == EventStatus::Changed && ev.before != ev.after) {
      try {
        edits = wb.eventEdits(ev.id);
      } catch (const std::exception&) {
        edits = nullptr;
      }
    }
    irDiff_ = edits ? IrDiffModel::buildAligned(edits, printCache_) : IrDiffModel::build(ev.before, ev.after, printCache_);
    irDiff_.setFunctionFilter(view_.functionFilter);
    recomputeSearch();
    diagnosticsGen_ = remarksGen_ = 0;
  }
  return irDiff_;
}

const std::vector<DiagnosticRow>& GuiSession::diagnostics() {
  if (diagnosticsGen_ != generation_) {
    IrDiffModel& diff = irDiff();
    diagnostics_ = workbench_->loaded() && diff.valid()
                       ? buildDiagnosticRows(*workbench_, view_.selectedEvent, diff.before(), diff.after())
                       : std::vector<DiagnosticRow>{};
    diagnosticsGen_ = generation_;
  }
  return diagnostics_;
}

RemarksModel& GuiSession::remarksModel() {
  if (remarksGen_ != generation_) {
    IrDiffModel& diff = irDiff();
    remarks_ = workbench_->loaded() && diff.valid() ? RemarksModel::build(*workbench_, view_.selectedEvent, diff.before(), diff.after())
                                                    : RemarksModel();
    remarksGen_ = generation_;
  }
  remarks_.setFilter(view_.remarkFilter);
  return remarks_;
}

const ConfigModel& GuiSession::configModel() {
  if (configGen_ != generation_) {
    config_ = buildConfigModel(*workbench_, view_.configAllEvents ? -1 : view_.selectedEvent);
    configGen_ = generation_;
  }
  return config_;
}

const AttrTimelineModel& GuiSession::attrTimelineModel() {
  if (attrGen_ != generation_) {
    attrTimeline_ = buildAttrTimelineModel(*workbench_, view_.attrOptions);
    attrGen_ = generation_;
  }
  return attrTimeline_;
}

const NumericsModel& GuiSession::numericsModel() {
  if (numericsGen_ != generation_) {
    numerics_ = buildNumericsModel(*workbench_);
    numericsGen_ = generation_;
  }
  return numerics_;
}

const CodegenModel& GuiSession::codegenModel() {
  if (codegenGen_ != generation_) {
    codegen_ = buildCodegenModel(*workbench_, view_.selectedEvent);
    codegenGen_ = generation_;
  }
  return codegen_;
}

void GuiSession::invalidateViews() {
  traceGen_ = configGen_ = attrGen_ = numericsGen_ = codegenGen_ = diagnosticsGen_ = remarksGen_ = 0;
}

// ---- Persistence ------------------------------------------------------------------------

void GuiSession::enablePersistence() {
  persistenceEnabled_ = true;
  persist();
}

void GuiSession::persist() {
  if (!persistenceEnabled_ || !store_) return;
  std::string error;
  if (!store_->save(captureSession(*workbench_), &error)) setStatus("session not saved: " + error, true);
}

void GuiSession::applyRunSettings(const SessionOptions& options) {
  try {
    passlab::applyRunSettings(*workbench_, options);
  } catch (const DiagnosticError& e) {
    console_->log(ConsoleLine::Kind::Error, e.diagnostics().front().message);
    setStatus(e.diagnostics().front().message, true);
  } catch (const std::exception& e) {
    console_->log(ConsoleLine::Kind::Error, e.what());
    setStatus(e.what(), true);
  }
}

void GuiSession::restore(const SavedSession& saved, bool loadModel, const std::vector<std::string>& inputShapes,
                         const LoadOptions& load) {
  const double t0 = nowMs();
  loadError_.clear();
  for (const std::string& message : restoreSession(*workbench_, saved, loadModel, inputShapes, load)) {
    console_->log(ConsoleLine::Kind::Error, message);
    if (loadError_.empty() && message.rfind("could not restore the model", 0) == 0) {
      loadError_ = message;
      setStatus(message, true);
    }
  }
  if (workbench_->loaded()) setStatus("restored session: " + workbench_->sourceName(), false);
  changed(t0);
}

}  // namespace passlab::gui
