// Workbench checks: provenance conflicts, the numeric check and bisection.
#include <cstdlib>

#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/support/strings.h"
#include "core/trace/expect.h"
#include "core/workbench/workbench.h"

namespace passlab {

namespace {

/// Whether a module predicate holds for `mod`, and why.
BisectProbe probeModule(const BisectPredicate& predicate, const IRModule& mod, const NumericReference* reference) {
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
        p.detail = "max abs error " + formatSignificant(r.maxAbsError) + ", max rel error " + formatSignificant(r.maxRelError);
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
    case BisectPredicate::Kind::Differs: {
      ExpectOutcome o = expectModule(mod, predicate.expected, "the module", predicate.file);
      p.holds = !o.equal;
      p.detail = (o.equal ? "equal to " : "differs from ") + predicate.file;
      return p;
    }
    case BisectPredicate::Kind::Fails:
    case BisectPredicate::Kind::Diag: break;  // run predicates: evaluatePredicate
  }
  return p;
}

/// The last event id in `id`'s subtree (ids are assigned in pre-order).
int lastInSubtree(const Trace& trace, int id) {
  while (!trace.event(id).children.empty()) id = trace.event(id).children.back();
  return id;
}

/// Whether a run predicate holds over events 0..`last`, and why.
BisectProbe probeRun(const BisectPredicate& predicate, const Trace& trace, const BuildLog* builds, int last) {
  BisectProbe p;
  for (int id = 0; id <= last && !p.holds; ++id) {
    const TraceEvent& ev = trace.event(id);
    if (builds && builds->isCodegen(id)) continue;
    if (predicate.kind == BisectPredicate::Kind::Fails) {
      if (ev.status != EventStatus::Failed || (!predicate.pass.empty() && ev.pass != predicate.pass)) continue;
      // The rule of the event's own first error; an enclosing pass reports its nested pass's.
      std::string rule, message = ev.failure.substr(0, ev.failure.find('\n'));
      for (const Diagnostic& d : ev.diagnostics)
        if (d.severity == Severity::Error) {
          rule = d.rule;
          message = d.message.substr(0, d.message.find('\n'));
          break;
        }
      if (!predicate.rule.empty() && rule != predicate.rule) continue;
      p.holds = true;
      p.detail = "#" + std::to_string(id) + " " + ev.pass + " failed: " + (rule.empty() ? "" : rule + ": ") + message;
    } else {
      for (const Diagnostic& d : ev.diagnostics) {
        bool match = predicate.rule.empty() ? d.severity == Severity::Error : d.rule == predicate.rule;
        if (!match) continue;
        p.holds = true;
        p.detail = "#" + std::to_string(id) + " " + ev.pass + ": " + (d.rule.empty() ? "" : d.rule + ": ") +
                   d.message.substr(0, d.message.find('\n'));
        break;
      }
    }
  }
  if (!p.holds) p.detail = predicate.kind == BisectPredicate::Kind::Fails ? "no pass failed that way" : "no such diagnostic";
  return p;
}

}  // namespace

BisectProbe evaluatePredicate(const BisectPredicate& predicate, const Trace& trace, int event, const NumericReference* reference,
                              const BuildLog* builds) {
  BisectProbe p;
  if (predicate.kind == BisectPredicate::Kind::Fails || predicate.kind == BisectPredicate::Kind::Diag) {
    p = probeRun(predicate, trace, builds, lastInSubtree(trace, event));
  } else {
    if (predicate.kind == BisectPredicate::Kind::Numeric && !reference)
      throw WorkbenchError("a numeric predicate needs a reference module");
    p = probeModule(predicate, trace.event(event).after, reference);
  }
  p.event = event;
  return p;
}

std::string describeBisectPredicate(const BisectPredicate& predicate) {
  switch (predicate.kind) {
    case BisectPredicate::Kind::Numeric:
      return std::string("numeric ") + (predicate.relativeError ? "rel" : "abs") + " error > " + formatSignificant(predicate.threshold);
    case BisectPredicate::Kind::WellFormed: return "not well formed";
    case BisectPredicate::Kind::Attr: {
      std::string where = predicate.function.empty() ? "" : " on @" + predicate.function;
      switch (predicate.test) {
        case BisectPredicate::AttrTest::Present: return "attr " + predicate.attr + " present" + (where.empty() ? " on some function" : where);
        case BisectPredicate::AttrTest::Absent: return "attr " + predicate.attr + " absent" + (where.empty() ? " from every function" : where);
        case BisectPredicate::AttrTest::Equals:
          return "attr " + predicate.attr + " = " + predicate.value + (where.empty() ? " on some function" : where);
      }
      break;
    }
    case BisectPredicate::Kind::Fails:
      return (predicate.pass.empty() ? std::string("a pass fails") : predicate.pass + " fails") +
             (predicate.rule.empty() ? "" : " with " + predicate.rule);
    case BisectPredicate::Kind::Diag:
      return predicate.rule.empty() ? "an error diagnostic is reported" : "diagnostic " + predicate.rule + " is reported";
    case BisectPredicate::Kind::Differs: return "the module differs from " + predicate.file;
  }
  return "?";
}

std::string bisectPredicateText(const BisectPredicate& predicate) {
  switch (predicate.kind) {
    case BisectPredicate::Kind::Numeric:
      return "numeric " + formatSignificant(predicate.threshold) + (predicate.relativeError ? " rel" : " abs");
    case BisectPredicate::Kind::WellFormed: return "wellformed";
    case BisectPredicate::Kind::Attr: {
      std::string out = "attr " + (predicate.function.empty() ? "" : "@" + predicate.function + " ") + predicate.attr;
      if (predicate.test == BisectPredicate::AttrTest::Absent) out += " absent";
      if (predicate.test == BisectPredicate::AttrTest::Equals) out += " " + predicate.value;
      return out;
    }
    case BisectPredicate::Kind::Fails:
      return "fails" + (predicate.pass.empty() ? "" : " " + predicate.pass) + (predicate.rule.empty() ? "" : " " + predicate.rule);
    case BisectPredicate::Kind::Diag: return "diag" + (predicate.rule.empty() ? "" : " " + predicate.rule);
    case BisectPredicate::Kind::Differs: return "differs " + predicate.file;
  }
  return "";
}

BisectPredicate parseBisectPredicate(const std::vector<std::string>& input) {
  static const char* kForms =
      "numeric [>] THRESHOLD [abs|rel], wellformed, attr [@FUNCTION] KEY [present|absent|VALUE], fails [PASS] [RULE], diag [RULE], "
      "differs FILE";
  if (input.empty()) throw WorkbenchError(std::string("expected a predicate: ") + kForms);
  BisectPredicate predicate;
  const std::string kind = input[0];
  std::vector<std::string> args(input.begin() + 1, input.end());
  auto tooMany = [&](size_t max) {
    if (args.size() > max) throw WorkbenchError("unexpected '" + args[max] + "' in the " + kind + " predicate; expected " + kForms);
  };
  if (kind == "numeric") {
    predicate.kind = BisectPredicate::Kind::Numeric;
    if (!args.empty() && args[0] == ">") args.erase(args.begin());
    if (args.empty()) throw WorkbenchError("the numeric predicate needs a threshold such as 1e-3");
    char* end = nullptr;
    predicate.threshold = std::strtod(args[0].c_str(), &end);
    if (*end != '\0' || !(predicate.threshold >= 0))
      throw WorkbenchError("expected a non-negative error threshold such as 0.01, got '" + args[0] + "'");
    if (args.size() > 1) {
      if (args[1] != "abs" && args[1] != "rel") throw WorkbenchError("expected abs or rel after the threshold, got '" + args[1] + "'");
      predicate.relativeError = args[1] == "rel";
    }
    tooMany(2);
  } else if (kind == "wellformed") {
    predicate.kind = BisectPredicate::Kind::WellFormed;
    tooMany(0);
  } else if (kind == "attr") {
    predicate.kind = BisectPredicate::Kind::Attr;
    for (auto it = args.begin(); it != args.end(); ++it)
      if (!it->empty() && (*it)[0] == '@') {
        predicate.function = it->substr(1);
        args.erase(it);
        break;
      }
    if (args.empty()) throw WorkbenchError("the attr predicate needs an attribute key, e.g. attr @f Extern");
    predicate.attr = args[0];
    if (args.size() > 1) {
      if (args[1] == "present") {
        predicate.test = BisectPredicate::AttrTest::Present;
      } else if (args[1] == "absent") {
        predicate.test = BisectPredicate::AttrTest::Absent;
      } else {
        predicate.test = BisectPredicate::AttrTest::Equals;
        predicate.value = args[1];
      }
    }
    tooMany(2);
  } else if (kind == "fails") {
    predicate.kind = BisectPredicate::Kind::Fails;
    for (const std::string& word : args) {
      std::string& slot = word.find('.') != std::string::npos ? predicate.rule : predicate.pass;
      if (!slot.empty()) throw WorkbenchError("the fails predicate takes one pass and one rule id, got '" + word + "' too");
      slot = word;
    }
  } else if (kind == "diag") {
    predicate.kind = BisectPredicate::Kind::Diag;
    if (!args.empty()) predicate.rule = args[0];
    tooMany(1);
  } else if (kind == "differs") {
    // TVM's Before/Expected check as a predicate: the module is not equal to FILE's.
    predicate.kind = BisectPredicate::Kind::Differs;
    if (args.empty()) throw WorkbenchError("the differs predicate needs the expected module's file, e.g. differs expected.py");
    tooMany(1);
    predicate.file = args[0];
    predicate.expected = loadExpectedModule(predicate.file);
  } else {
    throw WorkbenchError("unknown predicate '" + kind + "'; expected " + kForms);
  }
  return predicate;
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
    try {
      NumericReference check(trace_->event(0).after, *options);
    } catch (const DiagnosticError&) {
      if (!cancel_.exchange(false, std::memory_order_relaxed)) throw;
      interp::clearInterrupt();
      throw WorkbenchError("numeric check interrupted (Ctrl-C) while computing the reference (#0); the setting is unchanged");
    }
  }
  numericCheck_ = std::move(options);
  if (!trace_) return;
  installInstruments();
  if (!numericInstrument_) return;
  // Every recorded event is evaluated again: on a lowered 700-op model that is
  // seconds per event, so each shows on the faces' status line, and Ctrl-C
  // stops between events and inside one (the interpreter polls the interrupt).
  // The check stays on; events not reached keep no result.
  std::vector<int> events{0};
  for (const TraceEvent& ev : trace_->events())
    if (ev.id > 0 && ev.contextDepth == 0 && ev.status != EventStatus::Skipped && !builds_->isCodegen(ev.id)) events.push_back(ev.id);
  for (size_t i = 0; i < events.size(); ++i) {
    const int id = events[i];
    const std::string what = "numeric check of #" + std::to_string(id) + " " + trace_->event(id).pass;
    if (progress_) progress_(PassProgress{i, events.size(), what, false, -1});
    if (!cancel_.load(std::memory_order_relaxed)) numericInstrument_->annotate(id);
    if (!cancel_.exchange(false, std::memory_order_relaxed)) continue;
    // A result cut short by the interrupt is no result, and those of the
    // events not reached may be of other options.
    interp::clearInterrupt();
    for (size_t k = i; k < events.size(); ++k) trace_->mutableEvent(events[k]).numeric.reset();
    throw WorkbenchError("numeric check interrupted (Ctrl-C) at #" + std::to_string(id) + " " + trace_->event(id).pass + ": " +
                         std::to_string(i) + " of " + std::to_string(events.size()) +
                         " recorded events checked; the check stays on for new passes, the events from #" + std::to_string(id) +
                         " on have no new result (`set numeric-check on ...` again checks them)");
  }
}

BisectResult Workbench::bisect(const BisectPredicate& predicate) {
  requireLoaded();
  if (pipeline_.empty()) throw WorkbenchError("no pipeline is set: bisect searches the pipeline's passes");
  BisectResult result;
  std::optional<NumericReference> reference;
  if (predicate.kind == BisectPredicate::Kind::Numeric)
    reference.emplace(trace_->event(0).after, numericCheck_ ? *numericCheck_ : NumericCheckOptions{});
  // Ctrl-C (requestCancel) stops the search between passes and between
  // probes: the events recorded so far stay, the cursor stays where it was,
  // and the request is consumed so the next command runs normally. A probe cut
  // short by the interrupt is not an answer (a numeric probe that cannot
  // evaluate would read as "holds"), so it is checked after every probe too.
  auto stopIfCancelled = [&](const char* where) {
    if (!cancel_.exchange(false, std::memory_order_relaxed)) return;
    interp::clearInterrupt();
    throw WorkbenchError(std::string("bisect interrupted (Ctrl-C) ") + where + " after " + std::to_string(result.passesRun) +
                         (result.passesRun == 1 ? " pass" : " passes") + " and " + std::to_string(result.probes.size()) +
                         (result.probes.size() == 1 ? " probe" : " probes") + "; the recorded events are kept");
  };
  // Record the whole pipeline; the cursor stays where it is.
  while (canRunMore()) {
    stopIfCancelled("while recording the pipeline");
    MoveResult ignored;
    runNextPass(ignored);
    ++result.passesRun;
  }
  std::vector<int> events;
  for (int id : trace_->topLevel())
    if (!builds_->isCodegen(id)) events.push_back(id);  // builds change no module
  result.candidates = static_cast<int>(events.size());
  size_t maxProbes = 2;  // the two ends, then one per halving
  for (size_t k = 1; k < events.size(); k *= 2) ++maxProbes;
  auto test = [&](size_t index) {
    stopIfCancelled("while probing");
    // The faces' status line: "[2/5] running bisect probe of #4 FoldConstant" (at most maxProbes probes).
    if (progress_)
      progress_(PassProgress{result.probes.size(), maxProbes,
                             "bisect probe of #" + std::to_string(events[index]) + " " + trace_->event(events[index]).pass, false,
                             -1});
    BisectProbe p = evaluatePredicate(predicate, *trace_, events[index], reference ? &*reference : nullptr, builds_.get());
    stopIfCancelled("while probing");
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
