// The reducer (core/workbench/reduce.h): measuring candidates, the scratch
// workbench that judges them, and the ddmin driver (Reducer). The candidate
// rewrites are reduce_reductions.cpp.
#include "core/workbench/reduce.h"

#include <algorithm>
#include <chrono>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/text/printer.h"
#include "core/workbench/reduce_reductions.h"
#include "core/workbench/reproducer.h"

namespace passlab {

using reduce_detail::makeReductions;
using reduce_detail::Reduction;
using reduce_detail::referencedGlobals;
using reduce_detail::Target;

namespace {

// ---- Measuring ----------------------------------------------------------------

/// The order candidates must decrease in (lexicographically), so every
/// accepted candidate is strictly smaller and the reduction terminates.
struct Size {
  long ops = 0, functions = 0, attrs = 0, constElems = 0, paramElems = 0;
  bool operator<(const Size& o) const {
    return std::tie(ops, functions, attrs, constElems, paramElems) < std::tie(o.ops, o.functions, o.attrs, o.constElems, o.paramElems);
  }
};

long typeElems(const Type& t) {
  if (const auto* tt = as<TensorTypeNode>(t)) return tt->hasDynamicDim() ? 1 : std::max<long>(1, tt->numElements());
  if (const auto* tu = as<TupleTypeNode>(t)) {
    long n = 0;
    for (const Type& f : tu->fields) n += typeElems(f);
    return n;
  }
  return 1;
}

Size measure(const IRModule& mod) {
  Size s;
  s.functions = static_cast<long>(mod->functions.size());
  s.attrs = static_cast<long>(mod->attrs.size());
  for (const auto& [name, fn] : mod->functions) {
    s.attrs += static_cast<long>(functionAttrs(fn).size());
    const auto* f = as<FunctionNode>(fn);
    if (!f) continue;
    for (const Var& p : f->params) s.paramElems += typeElems(p->annotation);
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* c = as<CallNode>(e)) {
        if (c->op()) ++s.ops;
        s.attrs += static_cast<long>(c->attrs.size());
      } else if (const auto* k = as<ConstantNode>(e)) {
        s.constElems += k->data.numElements();
      }
    });
  }
  return s;
}

/// `mod` without the functions no root (the original's entry points) reaches
/// any more: once a rewrite drops the last call to a lifted function, the
/// function goes too, so cutting a call also cuts what it called.
IRModule collectGarbage(const IRModule& mod, const std::set<std::string>& roots) {
  std::set<std::string> reached;
  std::vector<std::string> work;
  for (const std::string& r : roots)
    if (mod->lookup(r) && reached.insert(r).second) work.push_back(r);
  while (!work.empty()) {
    Expr fn = mod->lookup(work.back());
    work.pop_back();
    if (!as<FunctionNode>(fn)) continue;
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* g = as<GlobalVarNode>(e))
        if (mod->lookup(g->name) && reached.insert(g->name).second) work.push_back(g->name);
    });
  }
  if (reached.size() == mod->functions.size()) return mod;
  std::map<std::string, Expr> kept;
  for (const auto& [name, fn] : mod->functions)
    if (reached.count(name)) kept.emplace(name, fn);
  return makeModule(std::move(kept), mod->attrs);
}

// ---- Judging ----------------------------------------------------------------------

/// A scratch workbench with the job's configuration that runs the pipeline on candidates.
class Runner {
 public:
  Runner(std::shared_ptr<const PassRegistry> registry, const ReduceJob& job) : wb_(std::move(registry)), numeric_(job.numeric) {
    wb_.setRunSettings(job.settings);
    wb_.setRemarks(false);  // no predicate reads remarks: candidates run without building them
    wb_.setPipeline(job.pipeline);
  }

  /// Runs the pipeline on a type-checked module and evaluates the predicate.
  BisectProbe judge(const IRModule& typed, const BisectPredicate& predicate) {
    wb_.loadModule(typed, "<candidate>", LoadOptions{false});
    try {
      wb_.run();
    } catch (const WorkbenchError&) {
      // Nothing ran (every pass refused or skipped): the predicate looks at #0.
    }
    std::optional<NumericReference> reference;
    if (predicate.kind == BisectPredicate::Kind::Numeric) {
      try {
        reference.emplace(typed, numeric_);
      } catch (const std::exception& e) {
        BisectProbe p;
        p.detail = std::string("cannot run the candidate: ") + e.what();
        return p;
      }
    }
    return evaluatePredicate(predicate, wb_.trace(), lastTopLevel(wb_), reference ? &*reference : nullptr, &wb_.builds());
  }

  const Workbench& workbench() const { return wb_; }

  static int lastTopLevel(const Workbench& wb) {
    int last = 0;
    for (int id : wb.trace().topLevel())
      if (!wb.builds().isCodegen(id)) last = id;
    return last;
  }

 private:
  Workbench wb_;
  NumericCheckOptions numeric_;
};

/// The rule of the innermost failed event's first error ("" when none).
std::string innermostFailureRule(const Trace& trace, const std::string& pass) {
  std::string rule;
  for (const TraceEvent& ev : trace.events()) {
    if (ev.status != EventStatus::Failed || (!pass.empty() && ev.pass != pass)) continue;
    for (const Diagnostic& d : ev.diagnostics)
      if (d.severity == Severity::Error && !d.rule.empty()) {
        rule = d.rule;  // later events are deeper or later: keep the last
        break;
      }
  }
  return rule;
}

using Clock = std::chrono::steady_clock;

}  // namespace

const std::vector<std::string>& reductionNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Reduction& r : makeReductions()) out.push_back(r.name);
    return out;
  }();
  return names;
}

int countModuleOps(const IRModule& mod) { return static_cast<int>(measure(mod).ops); }

ReduceJob reduceJobAt(const Workbench& wb) {
  if (!wb.loaded()) throw WorkbenchError("no module loaded");
  const Trace& trace = wb.trace();
  int id = wb.builds().builtFrom(wb.cursor());
  int top = id;
  while (trace.event(top).parent != -1) top = trace.event(top).parent;
  ReduceJob job;
  size_t first = 0;
  if (top == 0) {
    job.module = trace.event(0).after;
  } else {
    size_t index = wb.pipelinePasses().size();
    for (size_t i = 0; i < wb.passesExecuted(); ++i)
      if (wb.eventOfPass(i) == top) index = i;
    if (index >= wb.pipelinePasses().size()) throw WorkbenchError("#" + std::to_string(top) + " is not a pass of the current pipeline");
    const TraceEvent& ev = trace.event(top);
    // A failure (or a pass the cursor is inside) is reduced with that pass rerun.
    const bool rerun = ev.status == EventStatus::Failed || id != top;
    job.module = rerun ? ev.before : ev.after;
    first = rerun ? index : index + 1;
  }
  for (size_t i = first; i < wb.pipelinePasses().size(); ++i)
    job.pipeline += (job.pipeline.empty() ? "" : ",") + pipelineText(*wb.pipelinePasses()[i]);
  if (job.pipeline.empty())
    throw WorkbenchError(wb.pipelinePasses().empty() ? "no pipeline is set: reduce runs the pipeline on every candidate"
                                                     : "no pipeline pass is left after #" + std::to_string(top) +
                                                           ": move the cursor back (`goto 0` reduces the loaded module)");
  job.settings = wb.runSettings();
  job.print = wb.fileOptions();
  if (wb.numericCheck()) job.numeric = *wb.numericCheck();
  job.source = wb.sourceName();
  return job;
}

namespace {

/// One reduction run: judges the original, then rounds of every reduction
/// (bisection for a search, halving chunks otherwise) until a round finds
/// nothing smaller or a limit stops it.
class Reducer {
 public:
  Reducer(std::shared_ptr<const PassRegistry> registry, const ReduceJob& job, BisectPredicate predicate, const ReduceOptions& options,
          const std::function<void(const ReduceProgress&)>& progress, const std::function<bool()>& cancelled)
      : job_(job), predicate_(std::move(predicate)), options_(options), progress_(progress), cancelled_(cancelled),
        start_(Clock::now()), runner_(std::move(registry), job) {}

  ReduceResult run() {
    judgeOriginal();
    chooseReductions();
    bool progressMade = true;
    while (progressMade && !stopNow()) progressMade = round();
    finish();
    return std::move(result_);
  }

 private:
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  /// The predicate must hold for the module as given; a failure's rule is pinned then.
  void judgeOriginal() {
    result_.original = inferTypes(job_.module);
    result_.opsBefore = countModuleOps(result_.original);
    result_.functionsBefore = static_cast<int>(result_.original->functions.size());
    BisectProbe first = runner_.judge(result_.original, predicate_);
    result_.runs = 1;
    if (!first.holds)
      throw WorkbenchError("the predicate (" + describeBisectPredicate(predicate_) + ") does not hold for the module to reduce: " + first.detail);
    if (predicate_.kind == BisectPredicate::Kind::Fails && predicate_.rule.empty() && options_.pinFailureRule)
      predicate_.rule = innermostFailureRule(runner_.workbench().trace(), predicate_.pass);
    result_.predicate = predicate_;
    best_ = result_.original;
    bestSize_ = measure(best_);
    detail_ = first.detail;
    status_.opsBefore = result_.opsBefore;
    status_.opsNow = result_.opsBefore;
    status_.runs = 1;
    std::set<std::string> referenced = referencedGlobals(result_.original);
    for (const auto& [name, fn] : result_.original->functions)
      if (!referenced.count(name)) roots_.insert(name);
  }

  /// Every reduction, or the ones the options name (in the reducer's order).
  void chooseReductions() {
    reductions_ = makeReductions();
    if (!options_.reductions.empty()) {
      for (const std::string& name : options_.reductions)
        if (std::none_of(reductions_.begin(), reductions_.end(), [&](const Reduction& r) { return r.name == name; }))
          throw WorkbenchError("unknown reduction '" + name + "'");
      std::erase_if(reductions_, [&](const Reduction& r) {
        return std::find(options_.reductions.begin(), options_.reductions.end(), r.name) == options_.reductions.end();
      });
    }
    for (const Reduction& r : reductions_) result_.reductions.push_back(ReductionStats{r.name, 0, 0});
  }

  bool stopNow() {
    if (!result_.stopReason.empty()) return true;
    if (cancelled_ && cancelled_()) result_.stopReason = "interrupted";
    else if (options_.maxRuns > 0 && result_.runs >= options_.maxRuns) result_.stopReason = "run limit reached";
    else if (options_.timeLimitSeconds > 0 && seconds() >= options_.timeLimitSeconds) result_.stopReason = "time limit reached";
    return !result_.stopReason.empty();
  }

  void report() {
    status_.runs = result_.runs;
    status_.illTyped = result_.illTyped;
    status_.accepted = result_.accepted;
    status_.seconds = seconds();
    if (progress_) progress_(status_);
  }

  /// One round of every reduction; true when one of them made the module smaller.
  bool round() {
    bool progressMade = false;
    ++result_.rounds;
    status_.round = result_.rounds;
    for (size_t ri = 0; ri < reductions_.size() && !stopNow(); ++ri) {
      const Reduction& reduction = reductions_[ri];
      status_.reduction = reduction.name;
      bool found = reduction.search ? bisect(reduction, result_.reductions[ri]) : halveChunks(reduction, result_.reductions[ri]);
      progressMade = found || progressMade;
    }
    return progressMade;
  }

  /// The first target that keeps the predicate, by bisection (monotone on a
  /// chain: cutting after the culprit keeps it, cutting before loses it).
  bool bisect(const Reduction& reduction, ReductionStats& stats) {
    bool progressMade = false;
    std::vector<Target> targets = reduction.targets(best_);
    size_t lo = 0, hi = targets.size();
    while (lo < hi && !stopNow()) {
      size_t mid = lo + (hi - lo) / 2;
      status_.chunk = 1;
      if (tryCandidate(reduction.apply(best_, {targets[mid]}), stats)) {
        progressMade = true;
        targets = reduction.targets(best_);
        hi = std::min(mid, targets.size());
        lo = std::min(lo, hi);
      } else {
        lo = mid + 1;
      }
    }
    return progressMade;
  }

  /// ddmin over chunks of the targets, halving the chunk size down to one target.
  bool halveChunks(const Reduction& reduction, ReductionStats& stats) {
    bool progressMade = false;
    std::vector<Target> targets = reduction.targets(best_);
    size_t chunk = (targets.size() + 1) / 2;
    while (!targets.empty() && chunk >= 1 && !stopNow()) {
      status_.chunk = static_cast<int>(chunk);
      report();
      for (size_t begin = 0; begin < targets.size() && !stopNow();) {
        std::vector<Target> part(targets.begin() + static_cast<long>(begin),
                                 targets.begin() + static_cast<long>(std::min(targets.size(), begin + chunk)));
        IRModule candidate;
        try {
          candidate = reduction.apply(best_, part);
        } catch (const std::exception&) {
          candidate = best_;  // a rewrite the IR refuses (e.g. an attribute schema) is no candidate
        }
        if (tryCandidate(candidate, stats)) {
          progressMade = true;
          // The targets changed; resume at the same place in the new list.
          targets = reduction.targets(best_);
        } else {
          begin += chunk;
        }
      }
      if (chunk == 1) break;
      chunk = (chunk + 1) / 2;
      if (chunk > targets.size()) chunk = std::max<size_t>(1, (targets.size() + 1) / 2);
    }
    return progressMade;
  }

  /// One candidate: must be smaller, must type-check, then the pipeline judges
  /// it. True when it becomes the best.
  bool tryCandidate(IRModule candidate, ReductionStats& stats) {
    if (candidate == best_) return false;
    candidate = collectGarbage(candidate, roots_);
    if (!(measure(candidate) < bestSize_)) return false;
    IRModule typed;
    try {
      // Type inference trusts nodes that already carry a type, so a call to a
      // removed function would pass it: references are checked first.
      for (const std::string& name : referencedGlobals(candidate))
        if (!candidate->lookup(name)) throw WorkbenchError("@" + name + " is gone");
      typed = inferTypes(candidate);
    } catch (const std::exception&) {
      ++result_.illTyped;
      return false;
    }
    ++stats.tried;
    ++result_.runs;
    BisectProbe p = runner_.judge(typed, predicate_);
    // A Ctrl-C during the run stops its evaluations early: its verdict means nothing.
    if (cancelled_ && cancelled_()) return false;
    if (p.holds) {
      best_ = typed;
      bestSize_ = measure(best_);
      detail_ = p.detail;
      ++stats.accepted;
      ++result_.accepted;
      status_.opsNow = static_cast<int>(bestSize_.ops);
    }
    report();
    return p.holds;
  }

  /// The result and its reproducer (the job's settings, the reduced text, the predicate).
  void finish() {
    result_.interrupted = !result_.stopReason.empty();
    result_.reduced = best_;
    result_.text = printModule(best_, job_.print);
    result_.detail = detail_;
    result_.opsAfter = countModuleOps(best_);
    result_.functionsAfter = static_cast<int>(best_->functions.size());
    result_.seconds = seconds();
    Reproducer& r = result_.reproducer;
    r.moduleText = result_.text;
    r.syntax = job_.print.syntax;
    r.pipeline = job_.pipeline;
    r.settings = job_.settings;
    r.typeCheck = true;
    r.source = job_.source;
    r.predicate = bisectPredicateText(predicate_);
  }

  const ReduceJob& job_;
  BisectPredicate predicate_;
  const ReduceOptions& options_;
  const std::function<void(const ReduceProgress&)>& progress_;
  const std::function<bool()>& cancelled_;
  const Clock::time_point start_;
  Runner runner_;
  ReduceResult result_;
  std::vector<Reduction> reductions_;
  /// Functions nothing calls in the original: what garbage collection keeps.
  std::set<std::string> roots_;
  IRModule best_;
  Size bestSize_;
  std::string detail_;
  ReduceProgress status_;
};

}  // namespace

ReduceResult reduceModule(std::shared_ptr<const PassRegistry> registry, const ReduceJob& job, BisectPredicate predicate,
                          const ReduceOptions& options, const std::function<void(const ReduceProgress&)>& progress,
                          const std::function<bool()>& cancelled) {
  if (!job.module) throw WorkbenchError("nothing to reduce: no module");
  if (predicate.kind == BisectPredicate::Kind::Differs)
    throw WorkbenchError("reduce does not take `differs FILE`: shrinking the input changes the pipeline's output, so it "
                         "would differ from FILE for almost every candidate and the module would shrink to nothing; "
                         "use `bisect differs FILE` to find the pass after which the module no longer is FILE's");
  if (!predicate.pass.empty() && !registry->find(predicate.pass)) throw WorkbenchError("unknown pass '" + predicate.pass + "' in the predicate");
  return Reducer(std::move(registry), job, std::move(predicate), options, progress, cancelled).run();
}

ReduceResult reduceAtCursor(Workbench& wb, const BisectPredicate& predicate, const ReduceOptions& options,
                            const std::function<void(const ReduceProgress&)>& progress) {
  ReduceJob job = reduceJobAt(wb);
  wb.clearCancel();
  ReduceResult result = reduceModule(wb.sharedRegistry(), job, predicate, options, progress, [&wb] { return wb.cancelRequested(); });
  wb.clearCancel();
  return result;
}

BisectProbe evaluatePredicateAtEnd(const Workbench& wb, const BisectPredicate& predicate) {
  const Trace& trace = wb.trace();
  std::optional<NumericReference> reference;
  if (predicate.kind == BisectPredicate::Kind::Numeric)
    reference.emplace(trace.event(0).after, wb.numericCheck() ? *wb.numericCheck() : NumericCheckOptions{});
  return evaluatePredicate(predicate, trace, Runner::lastTopLevel(wb), reference ? &*reference : nullptr, &wb.builds());
}

}  // namespace passlab
