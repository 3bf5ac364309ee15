// The reducer: shrinks a module while a predicate keeps holding after the
// pipeline, in the spirit of llvm-reduce and mlir-reduce, but knowing the
// pipeline, its configuration and the workbench's predicates.
//
// ## What it tries
//
// Reductions, each a delta-debugging pass over its targets in the current best
// module, the whole list repeated until a round changes nothing (a fixpoint):
//
//   truncate    make a function nothing calls return an earlier call (what
//               came after it disappears); binary search, not ddmin
//   functions   remove global functions nothing calls (the others go with
//               their last caller, see below)
//   inputs      replace a call's result by a new parameter of its type (in a
//               function nothing calls: what only fed the call disappears)
//   bypass      replace a call by an argument of the same type, else by a zero
//               constant of its type (the call itself disappears)
//   inline      inline a global function called exactly once
//   attrs       drop call attributes to their defaults, function and module
//               attributes
//   constants   shrink a tensor constant to a scalar (where broadcasting allows)
//   shapes      shrink a dimension of an uncalled function's parameter to 1
//
// Delta debugging: a pass first tries half of its targets at once, then
// quarters, ... down to single targets (ddmin's chunks), so cutting 990 of
// 1,000 ops costs tens of pipeline runs, not thousands. Targets are enumerated
// in a fixed order (functions by name, calls in post-order) and re-enumerated
// after every accepted candidate.
//
// After each rewrite, functions only the removed code called are dropped too
// (the original's uncalled functions are the roots). Every candidate is
// checked before the pipeline runs on it (no call to a missing function, type
// inference passes; a rejected candidate costs no pipeline run) and must be smaller in
// the order (ops, functions, attributes, constant elements, parameter
// elements), so the reduction always terminates.
//
// ## How a candidate is judged
//
// A scratch Workbench with the same registry and configuration (opt_level,
// target, config, disabled/required passes, verify-each) loads the candidate,
// runs the pipeline, and the predicate (workbench.h: BisectPredicate) is
// evaluated after its last top-level event: run predicates (fails, diag) over
// every recorded event, module predicates (numeric, wellformed, attr) on the
// final module; `numeric` compares with the candidate itself before the
// pipeline. The user's workbench and trace are never touched.
//
// A `fails` predicate without a rule id is pinned to the rule of the original
// failure, so the reduction cannot slip to a different bug (llvm-reduce's
// classic pitfall); name the rule, or use `fails PASS` on a module whose
// failure has none, to choose.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/ir/module.h"
#include "core/workbench/reproducer.h"
#include "core/workbench/workbench.h"

namespace passlab {

/// What to reduce and how it is run: a module, the pipeline, the configuration.
struct ReduceJob {
  IRModule module;
  /// Pipeline text (parsePipeline syntax).
  std::string pipeline;
  /// The configuration every candidate runs under.
  RunSettings settings;
  /// Numeric predicates: the interpreter's inputs (seed, file, function).
  NumericCheckOptions numeric;
  /// Where the module came from, for the reproducer.
  std::string source;
  /// How the reduced module and the reproducer print (the workbench's print syntax).
  PrintOptions print;
};

/// The job for the module at `wb`'s cursor: at a completed top-level event (or
/// #0), its module and the pipeline passes after it; at a failed or nested
/// event, the module before its top-level pass and the pipeline from that pass
/// on. The configuration is `wb`'s. WorkbenchError when nothing is left to run.
ReduceJob reduceJobAt(const Workbench& wb);

/// How to reduce.
struct ReduceOptions {
  /// Stop after this many pipeline runs (0: no limit); the best so far is kept.
  int maxRuns = 0;
  /// Stop after this many seconds (0: no limit).
  double timeLimitSeconds = 0;
  /// Pin a `fails` predicate without a rule to the original failure's rule.
  bool pinFailureRule = true;
  /// Reductions to try, by name (empty: all, in the order of the header comment).
  std::vector<std::string> reductions;
};

/// Progress, reported after every pipeline run and at each new reduction.
struct ReduceProgress {
  /// The reduction being tried ("functions", "inputs", ...) and the chunk size.
  std::string reduction;
  int chunk = 0;
  int round = 0;
  int opsBefore = 0;
  int opsNow = 0;
  /// Pipeline runs so far, candidates the type check rejected, candidates kept.
  int runs = 0;
  int illTyped = 0;
  int accepted = 0;
  double seconds = 0;
};

/// What one reduction achieved.
struct ReductionStats {
  std::string name;
  int tried = 0;
  int accepted = 0;
};

/// The outcome.
struct ReduceResult {
  /// The predicate as used (a pinned rule filled in).
  BisectPredicate predicate;
  IRModule original;
  IRModule reduced;
  /// The reduced module, printed.
  std::string text;
  /// Replays the pipeline on the reduced module and re-checks the predicate.
  Reproducer reproducer;
  /// Why the predicate holds for the reduced module.
  std::string detail;
  int opsBefore = 0, opsAfter = 0;
  int functionsBefore = 0, functionsAfter = 0;
  /// Pipeline runs (the first checks the original), ill-typed candidates, kept candidates.
  int runs = 0;
  int illTyped = 0;
  int accepted = 0;
  int rounds = 0;
  double seconds = 0;
  /// Stopped by a cancel request, maxRuns or the time limit (the best so far is kept).
  bool interrupted = false;
  std::string stopReason;
  std::vector<ReductionStats> reductions;
};

/// The names of the reductions, in the order they are tried.
const std::vector<std::string>& reductionNames();

/// Reduces `job.module` while `predicate` keeps holding after `job.pipeline`.
/// WorkbenchError when it does not hold for the original module (with why), or
/// the pipeline does not parse. `progress` (may be null) is called on the
/// calling thread; `cancelled` (may be null) is polled between pipeline runs:
/// when it returns true the reduction stops, keeping the best module so far.
ReduceResult reduceModule(std::shared_ptr<const PassRegistry> registry, const ReduceJob& job, BisectPredicate predicate,
                          const ReduceOptions& options = {}, const std::function<void(const ReduceProgress&)>& progress = nullptr,
                          const std::function<bool()>& cancelled = nullptr);

/// Convenience for the faces: reduces the module at `wb`'s cursor (reduceJobAt)
/// and honours `wb.requestCancel()`. The workbench is not changed.
ReduceResult reduceAtCursor(Workbench& wb, const BisectPredicate& predicate, const ReduceOptions& options = {},
                            const std::function<void(const ReduceProgress&)>& progress = nullptr);

/// Evaluates `predicate` after the last top-level event of `wb`'s trace (used
/// to replay a reducer's reproducer); numeric predicates compare with #0.
BisectProbe evaluatePredicateAtEnd(const Workbench& wb, const BisectPredicate& predicate);

/// Op calls in every graph-level function of `mod` (shared nodes once per function).
int countModuleOps(const IRModule& mod);

}  // namespace passlab
