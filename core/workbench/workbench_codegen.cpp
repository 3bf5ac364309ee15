// Workbench: code generation recorded as trace events (see workbench.h).
#include <chrono>
#include <algorithm>
#include <exception>
#include <iterator>
#include <set>

#include "core/ir/functor.h"
#include "core/workbench/remarks.h"
#include "core/workbench/workbench.h"

namespace passlab {

int Workbench::build(const CodegenRequest& request) {
  requireLoaded();
  if (!codegen_) throw WorkbenchError("build failed: no code generator is registered with this workbench");
  const int anchor = builds_->builtFrom(cursor_);
  const IRModule mod = trace_->event(anchor).after;
  CodegenOutcome outcome;
  // The profile table names the schedule LegalizeOps chose for each kernel.
  CodegenRequest withSchedules = request;
  if (request.profile && request.kernelSchedules.empty()) withSchedules.kernelSchedules = kernelSchedules(*this, anchor);
  const auto started = std::chrono::steady_clock::now();
  try {
    outcome = codegen_->build(mod, withSchedules);
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
    // Timed as a whole, like a pass (its stages come out of one backend call and are not timed).
    const int64_t startNs = std::chrono::duration_cast<std::chrono::nanoseconds>(started.time_since_epoch()).count();
    ev.startMs = static_cast<double>(startNs - trace_->originNs()) / 1e6;
    ev.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  }
  builds_->addBuild(id, anchor, std::move(outcome.summary));
  for (CodegenStage& stage : outcome.stages) {
    const int child = trace_->open(id, stage.name, "", *ctx_, mod);
    builds_->addStage(id, child, stage.name, std::move(stage.artifacts));
  }
  cursor_ = id;
  return id;
}

namespace {

/// True when no PrimFunc is reachable from graph function `entry` of `mod`
/// through the graph functions it references (false when `entry` is not a
/// graph function). Other functions of the module do not count: a module
/// halfway through lowering may hold PrimFuncs that `entry` does not call yet.
bool graphLevelFor(const IRModule& mod, const std::string& entry) {
  if (!mod || !mod->lookupFunction(entry)) return false;
  std::set<std::string> seen{entry};
  std::vector<std::string> work{entry};
  bool lowered = false;
  while (!work.empty() && !lowered) {
    Expr fn = mod->lookup(work.back());
    work.pop_back();
    if (!fn) continue;
    if (fn->kind == ExprKind::PrimFunc) return false;
    postOrderVisit(fn, [&](const Expr& e) {
      if (lowered || e->kind != ExprKind::GlobalVar) return;
      const std::string& name = static_cast<const GlobalVarNode*>(e.get())->name;
      Expr callee = mod->lookup(name);
      if (callee && callee->kind == ExprKind::PrimFunc) lowered = true;
      else if (seen.insert(name).second) work.push_back(name);
    });
  }
  return !lowered;
}

/// Same parameter count and declared types: the reference can take the run's inputs.
bool sameSignature(const FunctionNode& a, const FunctionNode& b) {
  if (a.params.size() != b.params.size()) return false;
  for (size_t i = 0; i < a.params.size(); ++i)
    if (!typeEqual(a.params[i]->annotation, b.params[i]->annotation)) return false;
  return true;
}

}  // namespace

int Workbench::graphReferenceEvent(int id, const std::string& entry) const {
  event(id);  // WorkbenchError for an unknown event
  const int built = builds_->builtFrom(id);
  const FunctionNode* run = event(built).after ? event(built).after->lookupFunction(entry) : nullptr;
  if (!run) return -1;
  const std::vector<int>& order = timeline();
  auto at = std::find(order.begin(), order.end(), built);
  if (at == order.end()) return -1;
  // Backwards: the last graph-level state is the closest to the code that runs
  // (after every graph-level rewrite), so a difference it shows is lowering's.
  const IRModule* previous = nullptr;
  for (auto it = std::make_reverse_iterator(at + 1); it != order.rend(); ++it) {
    const TraceEvent& ev = trace_->event(*it);
    if (builds_->isCodegen(*it) || !ev.after) continue;
    if (previous && ev.after.get() == previous->get()) continue;  // an unchanged module was judged already
    previous = &ev.after;
    const FunctionNode* fn = ev.after->lookupFunction(entry);
    if (fn && sameSignature(*fn, *run) && graphLevelFor(ev.after, entry)) return *it;
  }
  return -1;
}

}  // namespace passlab
