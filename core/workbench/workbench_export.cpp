// Workbench exports: trace JSON, Chrome trace-event timing, reproducers.
// The event serialization is the trace layer's (core/trace/trace_json.h); the
// workbench wraps it with what only it knows: source, pipeline, cursor, timeline.
#include "core/text/printer.h"
#include "core/trace/trace_json.h"
#include "core/workbench/reproducer.h"
#include "core/workbench/workbench.h"

namespace passlab {

std::string Workbench::traceJson(bool withIR) const {
  requireLoaded();
  std::string out = "{\n";
  out += "  \"format\": \"passlab-workbench-trace\",\n";
  out += "  \"version\": 1,\n";
  out += "  \"source\": " + jsonString(sourceName_) + ",\n";
  out += "  \"pipeline\": " + jsonString(pipelineSpec()) + ",\n";
  out += "  \"opt_level\": " + std::to_string(ctx_->optLevel) + ",\n";
  out += "  \"target\": " + jsonString(ctx_->target) + ",\n";
  out += "  \"config\": {";
  bool first = true;
  for (const auto& [key, value] : ctx_->explicitConfig().entries()) {
    out += std::string(first ? "" : ", ") + jsonString(key) + ": " + attrValueToJson(value);
    first = false;
  }
  out += "},\n";
  out += "  \"cursor\": " + std::to_string(cursor_) + ",\n";
  out += "  \"timeline\": [";
  first = true;
  for (int id : timeline()) {
    out += (first ? "" : ", ") + std::to_string(id);
    first = false;
  }
  out += "],\n";
  if (withIR) {
    // The printed module after the load and after every event that changed it.
    out += "  \"ir_after\": {";
    first = true;
    for (const TraceEvent& ev : trace_->events()) {
      if (ev.id != 0 && ev.status != EventStatus::Changed) continue;
      out += std::string(first ? "\n" : ",\n") + "    " + jsonString(std::to_string(ev.id)) + ": " +
             jsonString(moduleText(ev.id, Side::After));
      first = false;
    }
    out += "\n  },\n";
  }
  // Edits (with the edited module, so a run can be replayed exactly) and branches.
  out += "  \"branch\": " + std::to_string(activeBranch_) + ",\n";
  out += "  \"edits\": [";
  first = true;
  for (const EditRecord& e : editRecords_) {
    out += std::string(first ? "\n" : ",\n") + "    {\"event\": " + std::to_string(e.event) + ", \"edited_at\": " +
           std::to_string(e.editedAt) + ", \"function\": " + jsonString(e.function) + ", \"source\": " + jsonString(e.source) +
           ", \"module\": " + jsonString(e.moduleText) + "}";
    first = false;
  }
  out += first ? "],\n" : "\n  ],\n";
  out += "  \"branches\": [";
  first = true;
  for (const BranchInfo& b : branches()) {
    out += std::string(first ? "" : ", ") + "{\"id\": " + std::to_string(b.id) + ", \"parent\": " + std::to_string(b.parent) +
           ", \"fork_event\": " + std::to_string(b.forkEvent) + ", \"edit_event\": " + std::to_string(b.editEvent) +
           ", \"events\": " + std::to_string(b.events) + ", \"description\": " + jsonString(b.description) + "}";
    first = false;
  }
  out += "],\n";
  TraceJsonOptions traceOptions;
  PrintOptions print = printOptions();
  traceOptions.print = &print;
  traceOptions.changeIndex = &changes_;
  traceOptions.builds = builds_.get();
  std::string trace = traceToJson(*trace_, traceOptions);
  while (!trace.empty() && (trace.back() == '\n' || trace.back() == ' ')) trace.pop_back();
  out += "  \"trace\": " + trace + "\n}\n";
  return out;
}

std::string Workbench::chromeTraceJson() const {
  requireLoaded();
  return traceToChromeJson(*trace_, builds_.get());
}

int Workbench::lastFailure() const {
  if (!trace_) return -1;
  // The innermost failure is the most specific: the recorder marks every
  // enclosing pass failed too, and the innermost one completes first.
  int found = -1;
  for (int id : timeline())
    if (trace_->event(id).status == EventStatus::Failed) found = id;
  if (found < 0) return -1;
  int innermost = found;
  for (bool descended = true; descended;) {
    descended = false;
    for (int c : trace_->event(innermost).children)
      if (trace_->event(c).status == EventStatus::Failed) {
        innermost = c;
        descended = true;
      }
  }
  return innermost;
}

Reproducer Workbench::reproducer(int id) const {
  const TraceEvent& failed = event(id);
  if (failed.status != EventStatus::Failed)
    throw WorkbenchError("#" + std::to_string(id) + " " + failed.pass + " did not fail");
  // Replaying the enclosing top-level pass reproduces a nested failure too: the
  // nested pipeline's module and context are built by that pass, deterministically.
  int top = id;
  while (trace_->event(top).parent != -1) top = trace_->event(top).parent;
  size_t index = pipeline_.size();
  for (size_t i = 0; i < passEvent_.size(); ++i)
    if (passEvent_[i] == top) index = i;
  if (index >= pipeline_.size()) throw WorkbenchError("#" + std::to_string(top) + " is not a pass of the current pipeline");
  Reproducer r;
  r.moduleText = printModule(trace_->event(top).before, fileOptions());
  r.syntax = printSyntax();
  r.pipeline = pipelineText(*pipeline_[index]);
  r.settings = runSettings();
  r.typeCheck = loadOptions_.typeCheck;
  r.failedPass = failed.pass;
  auto [rule, message] = eventFailure(failed);
  r.failureRule = rule;
  r.failureMessage = message;
  r.source = sourceName_;
  // The module text already carries the edits made before the failing pass; say which.
  for (const EditRecord& e : editRecords_)
    if (e.event < top)
      r.edits.push_back("#" + std::to_string(e.event) + (e.function.empty() ? " the module" : " @" + e.function) + " after #" +
                        std::to_string(e.editedAt) + " from " + e.source);
  return r;
}

}  // namespace passlab
