// Workbench checks: provenance conflicts, the numeric check and bisection.
#include <cstdio>

#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/workbench/workbench.h"

namespace passlab {

namespace {

std::string formatError(double e) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", e);
  return buf;
}

/// Whether `predicate` holds for `mod`, and why.
BisectProbe probe(const BisectPredicate& predicate, const IRModule& mod, const NumericReference* reference) {
  BisectProbe p;
  switch (predicate.kind) {
    case BisectPredicate::Kind::Numeric: {
      NumericCheckResult r = reference->check(mod);
      if (!r.compared) {
        p.holds = true;
        p.detail = "not comparable: " + r.note;
      } else {
        double error = predicate.relativeError ? r.maxRelError : r.maxAbsError;
        p.holds = error > predicate.threshold;
        p.detail = "max abs error " + formatError(r.maxAbsError) + ", max rel error " + formatError(r.maxRelError);
      }
      return p;
    }
    case BisectPredicate::Kind::WellFormed: {
      std::vector<Diagnostic> problems = checkWellFormed(mod);
      if (problems.empty()) problems = checkTypes(mod);
      p.holds = !problems.empty();
      p.detail = p.holds ? problems.front().message + (problems.front().rule.empty() ? "" : " [" + problems.front().rule + "]")
                         : "well formed";
      return p;
    }
    case BisectPredicate::Kind::Attr: {
      std::vector<std::string> withAttr, withoutAttr;
      for (const auto& [name, fn] : mod->functions) {
        if (!predicate.function.empty() && name != predicate.function) continue;
        const AttrValue* v = functionAttrs(fn).find(predicate.attr);
        bool match = v && (predicate.test != BisectPredicate::AttrTest::Equals || v->toString() == predicate.value);
        (match ? withAttr : withoutAttr).push_back(name);
      }
      if (predicate.test == BisectPredicate::AttrTest::Absent) {
        bool functionGone = !predicate.function.empty() && !mod->lookup(predicate.function);
        p.holds = withAttr.empty();
        p.detail = functionGone ? "no function @" + predicate.function
                   : p.holds    ? "no function has " + predicate.attr
                                : "@" + withAttr.front() + " has " + predicate.attr;
      } else {
        p.holds = !withAttr.empty();
        p.detail = p.holds ? "@" + withAttr.front() + " has " + predicate.attr + "=" + functionAttrs(mod->lookup(withAttr.front())).find(predicate.attr)->toString()
                           : "no function has it";
      }
      return p;
    }
  }
  return p;
}

}  // namespace

std::string describeBisectPredicate(const BisectPredicate& predicate) {
  switch (predicate.kind) {
    case BisectPredicate::Kind::Numeric:
      return std::string("numeric ") + (predicate.relativeError ? "rel" : "abs") + " error > " + formatError(predicate.threshold);
    case BisectPredicate::Kind::WellFormed: return "not well formed";
    case BisectPredicate::Kind::Attr: {
      std::string where = predicate.function.empty() ? "" : " on @" + predicate.function;
      switch (predicate.test) {
        case BisectPredicate::AttrTest::Present: return "attr " + predicate.attr + " present" + (where.empty() ? " on some function" : where);
        case BisectPredicate::AttrTest::Absent: return "attr " + predicate.attr + " absent" + (where.empty() ? " from every function" : where);
        case BisectPredicate::AttrTest::Equals:
          return "attr " + predicate.attr + " = " + predicate.value + (where.empty() ? " on some function" : where);
      }
    }
  }
  return "?";
}

std::vector<ProvenanceConflict> Workbench::provenanceConflicts(int id) const {
  std::vector<ProvenanceConflict> out;
  if (!trace_) return out;
  auto collect = [&](const TraceEvent& ev) {
    ContextSettings settings{ev.contextName, ev.contextDepth, ev.contextTarget, ev.contextConfig};
    for (ProvenanceConflict& c : findProvenanceConflicts(ev.configReads, settings)) {
      c.event = ev.id;
      out.push_back(std::move(c));
    }
  };
  if (id >= 0) {
    collect(event(id));
  } else {
    for (const TraceEvent& ev : trace_->events()) collect(ev);
  }
  return out;
}

void Workbench::setNumericCheck(std::optional<NumericCheckOptions> options) {
  if (options && trace_) {
    // Build the reference first: a bad inputs file or an unsupported module is an error now, not a note on every event.
    NumericReference check(trace_->event(0).after, *options);
  }
  numericCheck_ = std::move(options);
  if (!trace_) return;
  installInstruments();
  if (!numericInstrument_) return;
  numericInstrument_->annotate(0);
  for (const TraceEvent& ev : trace_->events())
    if (ev.id > 0 && ev.contextDepth == 0 && ev.status != EventStatus::Skipped && !ev.codegen) numericInstrument_->annotate(ev.id);
}

BisectResult Workbench::bisect(const BisectPredicate& predicate) {
  requireLoaded();
  if (pipeline_.empty()) throw WorkbenchError("no pipeline is set: bisect searches the pipeline's passes");
  BisectResult result;
  std::optional<NumericReference> reference;
  if (predicate.kind == BisectPredicate::Kind::Numeric)
    reference.emplace(trace_->event(0).after, numericCheck_ ? *numericCheck_ : NumericCheckOptions{});
  // Record the whole pipeline; the cursor stays where it is.
  while (canRunMore()) {
    MoveResult ignored;
    runNextPass(ignored);
    ++result.passesRun;
  }
  std::vector<int> events;
  for (int id : trace_->topLevel())
    if (!trace_->event(id).codegen) events.push_back(id);  // builds change no module
  result.candidates = static_cast<int>(events.size());
  auto test = [&](size_t index) {
    BisectProbe p = probe(predicate, trace_->event(events[index]).after, reference ? &*reference : nullptr);
    p.event = events[index];
    result.probes.push_back(p);
    return p.holds;
  };
  if (!test(events.size() - 1)) return result;  // it never holds, not even at the end
  if (events.size() == 1 || test(0)) {
    result.firstEvent = events.front();
    gotoEvent(result.firstEvent);
    return result;
  }
  size_t good = 0, bad = events.size() - 1;
  while (bad - good > 1) {
    size_t mid = good + (bad - good) / 2;
    (test(mid) ? bad : good) = mid;
  }
  result.firstEvent = events[bad];
  result.lastGood = events[good];
  gotoEvent(result.firstEvent);
  return result;
}

}  // namespace passlab
