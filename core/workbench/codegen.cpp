// Workbench: code generation recorded as trace events (see workbench.h).
#include <chrono>
#include <exception>

#include "core/workbench/workbench.h"

namespace passlab {

int Workbench::build(const CodegenRequest& request) {
  requireLoaded();
  if (!codegen_) throw WorkbenchError("build failed: no code generator is registered with this workbench");
  const int anchor = builtEvent(cursor_);
  const IRModule mod = trace_->event(anchor).after;
  CodegenOutcome outcome;
  const auto started = std::chrono::steady_clock::now();
  try {
    outcome = codegen_->build(mod, request);
  } catch (const WorkbenchError&) {
    throw;
  } catch (const std::exception& e) {
    // Nothing is recorded: a failed build has no artifacts worth stepping through.
    throw WorkbenchError(std::string("build failed: ") + e.what());
  }
  // Builds never run in a pass context of their own; the root's settings are what they saw.
  const int id = trace_->open(-1, "build", "target=\"" + outcome.target + "\"", *ctx_, mod);
  {
    TraceEvent& ev = trace_->mutableEvent(id);
    ev.codegen = true;
    ev.builtFrom = anchor;
    // Timed as a whole, like a pass (its stages come out of one backend call and are not timed).
    const int64_t startNs = std::chrono::duration_cast<std::chrono::nanoseconds>(started.time_since_epoch()).count();
    ev.startMs = static_cast<double>(startNs - trace_->originNs()) / 1e6;
    ev.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    ev.artifacts.push_back({"", outcome.summary});
  }
  for (CodegenStage& stage : outcome.stages) {
    const int child = trace_->open(id, stage.name, "", *ctx_, mod);
    TraceEvent& ev = trace_->mutableEvent(child);
    ev.codegen = true;
    ev.artifacts = std::move(stage.artifacts);
  }
  cursor_ = id;
  return id;
}

int Workbench::buildOf(int id) const {
  const TraceEvent& ev = event(id);
  if (!ev.codegen) return -1;
  return ev.parent >= 0 ? ev.parent : ev.id;
}

int Workbench::currentBuild() const {
  if (!trace_) return -1;
  if (int own = buildOf(cursor_); own >= 0) return own;
  const auto& events = trace_->events();
  for (auto it = events.rbegin(); it != events.rend(); ++it)
    if (it->codegen && it->parent < 0) return it->id;
  return -1;
}

int Workbench::buildStage(int build, const std::string& stage) const {
  for (int child : event(build).children)
    if (trace_->event(child).pass == stage) return child;
  return -1;
}

int Workbench::builtEvent(int id) const {
  int b = buildOf(id);
  return b < 0 ? id : trace_->event(b).builtFrom;
}

}  // namespace passlab
