// The well-formed checker (basic rules now; phase invariants come later).
#pragma once

#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"

namespace passlab {

/// Checks `mod` and returns every violation found (never stops at the first).
/// Each diagnostic has a rule id ("wf.undefined-var", "wf.duplicate-def",
/// "wf.undefined-global", "wf.type-mismatch", ...), the function it is in and
/// the span of the offending node where known.
std::vector<Diagnostic> checkWellFormed(const IRModule& mod);

}  // namespace passlab
