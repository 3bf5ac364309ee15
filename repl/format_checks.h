// Text rendering of the workbench's checks for the REPL: numeric-check
// results, provenance conflicts and bisection outcomes.
#pragma once

#include <string>
#include <vector>

#include "core/workbench/workbench.h"
#include "repl/style.h"

namespace passlab {

/// "max abs 0.000305, max rel 0.000337 (1 output)", or why nothing was compared.
std::string formatNumericResult(const NumericCheckResult& result);

/// The numeric check's state and a line per checked event in timeline order.
std::string formatNumericTable(const Workbench& wb, const Style& style);

/// One line per conflict: `! #7 FuseOps (context FoldConstant.eval, target llvm): MESSAGE`.
std::string formatConflicts(const std::vector<ProvenanceConflict>& conflicts, const Style& style);

/// The probes of a bisection and its verdict.
std::string formatBisect(const Workbench& wb, const BisectPredicate& predicate, const BisectResult& result, const Style& style);

}  // namespace passlab
