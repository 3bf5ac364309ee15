// Workbench queries over the node matcher: per-event matchings, change
// summaries, aligned diffs and edit scripts, all through the workbench's one
// ChangeIndex (core/trace/change_index.h). Passes never compute these.
#include "core/workbench/workbench.h"
#include "core/support/strings.h"

namespace passlab {
namespace {


}  // namespace

std::string Workbench::checkDiffable(int a, Side sideA, int b, Side sideB, const std::string& function) const {
  // A failed event's after side is its before side: diffing it would claim "no change".
  auto check = [&](int id, Side side) {
    const TraceEvent& ev = event(id);
    if (side == Side::After && ev.status == EventStatus::Failed)
      throw WorkbenchError("event #" + std::to_string(id) + " (" + ev.pass +
                           ") failed: it has no after snapshot to diff (`info " + std::to_string(id) +
                           "` shows the failure; diff the events before it)");
  };
  check(a, sideA);
  check(b, sideB);
  std::string fn = stripAt(function);
  if (!fn.empty()) {
    bool inA = moduleAt(a, sideA)->lookup(fn) != nullptr, inB = moduleAt(b, sideB)->lookup(fn) != nullptr;
    if (!inA && !inB)
      throw WorkbenchError("no function @" + fn + " in the modules of #" + std::to_string(a) + " and #" +
                           std::to_string(b));
  }
  return fn;
}

std::shared_ptr<const ModuleEdits> Workbench::edits(int a, Side sideA, int b, Side sideB) const {
  return changes_.edits(moduleAt(a, sideA), moduleAt(b, sideB));
}

std::shared_ptr<const ModuleEdits> Workbench::eventEdits(int id) const {
  const TraceEvent& ev = event(id);
  if (ev.status == EventStatus::Failed)
    throw WorkbenchError("event #" + std::to_string(id) + " (" + ev.pass + ") failed: it changed nothing to match");
  return edits(id, Side::Before, id, Side::After);
}

std::string Workbench::changeSummary(int id) const {
  const TraceEvent& ev = event(id);
  switch (ev.status) {
    case EventStatus::Failed: return "failed";
    case EventStatus::Skipped: return "skipped" + (ev.skipReason.empty() ? std::string() : " (" + ev.skipReason + ")");
    case EventStatus::Unchanged: return "no change";
    case EventStatus::Changed: break;
  }
  if (id == 0 || builds_->isCodegen(id)) return "";
  return changes_.summary(ev.before, ev.after);
}

std::string Workbench::alignedDiff(int a, Side sideA, int b, Side sideB, const std::string& function) const {
  std::string fn = checkDiffable(a, sideA, b, sideB, function);
  auto label = [&](int id, Side side) {
    return "#" + std::to_string(id) + " " + trace_->event(id).pass + (side == Side::Before ? " (before)" : " (after)") +
           (fn.empty() ? "" : " @" + fn);
  };
  return passlab::alignedDiff(*edits(a, sideA, b, sideB), label(a, sideA), label(b, sideB), fn, 3, printOptions());
}

std::string Workbench::editScript(int a, Side sideA, int b, Side sideB, bool all, const std::string& function,
                                  size_t maxLines) const {
  std::string fn = checkDiffable(a, sideA, b, sideB, function);
  std::shared_ptr<const ModuleEdits> m =
      all ? changes_.allEdits(moduleAt(a, sideA), moduleAt(b, sideB)) : edits(a, sideA, b, sideB);
  return formatEditScript(*m, all, fn, printOptions(), maxLines);
}

}  // namespace passlab
