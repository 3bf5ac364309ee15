// The predicate language of `bisect`, `reduce` and reproducers, its
// evaluation on a trace, and what a bisection (Workbench::bisect) found.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/build_log.h"
#include "core/trace/numeric_check.h"
#include "core/trace/trace.h"

namespace passlab {

/// What `bisect` looks for (the first top-level pass after which it holds) and
/// what `reduce` keeps true (core/workbench/reduce.h). Module predicates
/// (numeric, wellformed, attr, differs) look at the module after an event; run
/// predicates (fails, diag) at every event recorded up to it, nested ones too.
struct BisectPredicate {
  enum class Kind : uint8_t {
    Numeric,     ///< numeric-check error above `threshold` (or the module cannot be compared)
    WellFormed,  ///< the module is not well formed or does not type-check
    Attr,        ///< an attribute condition holds
    Fails,       ///< a pass failed (`pass`, any when empty; with `rule`, its error has that rule id)
    Diag,        ///< a diagnostic with rule id `rule` was reported (any error when empty)
    Differs,     ///< the module is not structurally equal to `expected` (TVM's rules, as `expect`)
  };
  /// How an Attr predicate tests the attribute.
  enum class AttrTest : uint8_t { Present, Absent, Equals };
  Kind kind = Kind::Numeric;
  double threshold = 1e-3;
  bool relativeError = true;
  /// Attr: the key, an optional function (without '@'; "" = any function, or
  /// every function for Absent), the test and the printed value for Equals.
  std::string attr;
  std::string function;
  AttrTest test = AttrTest::Present;
  std::string value;
  /// Fails: the pass name ("" = any pass). Fails and Diag: the rule id.
  std::string pass;
  std::string rule;
  /// Differs: the file named and the module loaded from it (loadExpectedModule).
  std::string file;
  IRModule expected;
};
/// "numeric rel error > 0.01", "not well formed", "attr Compiler present on some function", ...
std::string describeBisectPredicate(const BisectPredicate& predicate);
/// Parses the predicate language shared by `bisect`, `reduce`, `--reduce` and
/// reproducers: `numeric [>] T [abs|rel]`, `wellformed`, `attr [@F] KEY
/// [present|absent|VALUE]`, `fails [PASS] [RULE]` (a word with a '.' is a
/// rule id), `diag [RULE]`, `differs FILE` (FILE is loaded here: a located
/// DiagnosticError when it does not load). WorkbenchError with the expected
/// forms otherwise.
BisectPredicate parseBisectPredicate(const std::vector<std::string>& words);
/// The predicate as text that parseBisectPredicate reads back.
std::string bisectPredicateText(const BisectPredicate& predicate);

/// One evaluation of the predicate during a bisection.
struct BisectProbe {
  int event = 0;
  bool holds = false;
  /// Why it holds (the error, the first diagnostic, the function with the attribute).
  std::string detail;
};
/// Evaluates `predicate` after top-level event `event` of `trace` (for run
/// predicates: over every event up to the end of its subtree, leaving out the
/// codegen events of `builds`). Numeric predicates need `reference`, the module
/// to compare with; others ignore it.
BisectProbe evaluatePredicate(const BisectPredicate& predicate, const Trace& trace, int event, const NumericReference* reference,
                              const BuildLog* builds = nullptr);

/// The outcome of a bisection over the pipeline's prefixes.
struct BisectResult {
  /// The first top-level event after which the predicate holds (-1: none does).
  int firstEvent = -1;
  /// The top-level event before it, where it still does not hold (-1 when it
  /// already holds for the loaded module, event 0).
  int lastGood = -1;
  /// Probes in the order they were evaluated (O(log passes) of them).
  std::vector<BisectProbe> probes;
  /// Pipeline passes that had to run to record the whole pipeline first.
  int passesRun = 0;
  /// Top-level events searched (including #0).
  int candidates = 0;
};

}  // namespace passlab
