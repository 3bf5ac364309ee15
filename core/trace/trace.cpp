#include "core/ir/diagnostic_fold.h"
#include "core/trace/trace.h"

#include <algorithm>
#include <chrono>

#include "core/pass/registry.h"

namespace passlab {

static int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// ---- Trace -------------------------------------------------------------------

Trace::Trace(IRModule initial) : originNs_(nowNs()) {
  TraceEvent load;
  load.id = 0;
  load.pass = "load";
  load.before = initial;
  load.after = std::move(initial);
  load.status = EventStatus::Unchanged;
  events_.push_back(std::move(load));
}

int Trace::open(int parent, std::string pass, std::string options, const PassContext& ctx, IRModule before) {
  TraceEvent e;
  e.id = static_cast<int>(events_.size());
  e.parent = parent;
  e.depth = parent >= 0 ? event(parent).depth + 1 : 0;
  e.pass = std::move(pass);
  e.options = std::move(options);
  e.contextId = ctx.id();
  e.contextName = ctx.name();
  e.contextDepth = ctx.depth();
  e.contextTarget = ctx.target;
  e.contextConfig = ctx.explicitConfig();
  e.before = before;
  e.after = std::move(before);
  e.status = EventStatus::Unchanged;
  if (parent >= 0) mutableEvent(parent).children.push_back(e.id);
  events_.push_back(std::move(e));
  return events_.back().id;
}

std::vector<int> Trace::topLevel() const {
  std::vector<int> out;
  for (const TraceEvent& e : events_)
    if (e.parent < 0) out.push_back(e.id);
  return out;
}

void Trace::truncate(int firstRemoved) {
  // Event 0 (the loaded module) is the root of everything and always stays.
  size_t keep = static_cast<size_t>(std::max(1, firstRemoved));
  if (keep >= events_.size()) return;
  events_.resize(keep);
  for (TraceEvent& e : events_)
    e.children.erase(std::remove_if(e.children.begin(), e.children.end(), [&](int c) { return c >= static_cast<int>(keep); }),
                     e.children.end());
}

// ---- TraceInstrument ---------------------------------------------------------

TraceInstrument::TraceInstrument(std::shared_ptr<Trace> trace) : trace_(std::move(trace)) {}

void TraceInstrument::enterPass(const Pass& pass, const IRModule& mod, PassContext& ctx) {
  int parent = open_.empty() ? -1 : open_.back();
  int id = trace_->open(parent, pass.info().name, optionsText(pass.options()), ctx, mod);
  open_.push_back(id);
  startNs_.push_back(nowNs());
  trace_->mutableEvent(id).startMs = static_cast<double>(startNs_.back() - trace_->originNs()) / 1e6;
}

void TraceInstrument::exitPass(const Pass&, PassContext&) {
  if (open_.empty()) return;
  open_.pop_back();
  startNs_.pop_back();
}

void TraceInstrument::onPassSkipped(const Pass&, const IRModule&, PassContext&, const std::string& reason) {
  if (open_.empty()) return;
  TraceEvent& e = trace_->mutableEvent(open_.back());
  e.status = EventStatus::Skipped;
  e.skipReason = reason;
}

void TraceInstrument::beforePass(const Pass&, const IRModule&, PassContext&) {}

/// Wall time and start of the pass body as runPass measured it, so that no
/// instrument's hook (a verifier, a printer) is counted whatever their order.
static void recordTiming(TraceEvent& e, const PassContext& ctx, int64_t originNs) {
  const PassTiming& timing = ctx.lastPassTiming();
  e.wallMs = timing.ms();
  e.startMs = static_cast<double>(timing.startNs - originNs) / 1e6;
}

void TraceInstrument::afterPass(const Pass&, const IRModule& before, const IRModule& after, PassContext& ctx) {
  if (open_.empty()) return;
  TraceEvent& e = trace_->mutableEvent(open_.back());
  recordTiming(e, ctx, trace_->originNs());
  e.after = after;
  e.changedFunctions.clear();
  if (before != after) {
    // Pointer comparison per function: unchanged functions are shared, never re-printed.
    auto o = before->functions.begin();
    auto n = after->functions.begin();
    while (o != before->functions.end() || n != after->functions.end()) {
      if (n == after->functions.end() || (o != before->functions.end() && o->first < n->first)) {
        e.changedFunctions.push_back((o++)->first);
      } else if (o == before->functions.end() || n->first < o->first) {
        e.changedFunctions.push_back((n++)->first);
      } else {
        if (o->second != n->second) e.changedFunctions.push_back(o->first);
        ++o;
        ++n;
      }
    }
    e.moduleAttrsChanged = before->attrs != after->attrs;
  }
  bool changed = !e.changedFunctions.empty() || e.moduleAttrsChanged;
  e.status = changed ? EventStatus::Changed : EventStatus::Unchanged;
}

void TraceInstrument::afterFailure(const Pass&, const IRModule& before, const std::vector<Diagnostic>& errors, PassContext& ctx) {
  if (open_.empty()) return;
  TraceEvent& e = trace_->mutableEvent(open_.back());
  recordTiming(e, ctx, trace_->originNs());
  e.after = before;  // a failed pass leaves the module as it was
  e.changedFunctions.clear();
  e.moduleAttrsChanged = false;
  e.status = EventStatus::Failed;
  e.failure.clear();
  e.failure += renderFolded(errors);
}

void TraceInstrument::onConfigRead(const ConfigRead& read) {
  if (!open_.empty()) trace_->mutableEvent(open_.back()).configReads.push_back(read);
}

void TraceInstrument::onFunctionSkipped(const FunctionSkip& skip) {
  if (!open_.empty()) trace_->mutableEvent(open_.back()).skips.push_back(skip);
}

void TraceInstrument::onDiagnostic(const Diagnostic& diagnostic, PassContext&) {
  if (!open_.empty()) trace_->mutableEvent(open_.back()).diagnostics.push_back(diagnostic);
}

void TraceInstrument::onRemark(const Remark& remark) {
  if (!open_.empty()) trace_->mutableEvent(open_.back()).remarks.push_back(remark);
}

void TraceInstrument::takeRemark(Remark&& remark) {
  if (!open_.empty()) trace_->mutableEvent(open_.back()).remarks.push_back(std::move(remark));
}

}  // namespace passlab
