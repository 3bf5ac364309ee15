// Type inference for graph-level functions.
#pragma once

#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"

namespace passlab {

/// Infers the type of every expression in every graph-level function of `mod`
/// (through the op table's type relations) and fills ExprNode::checkedType.
/// Nodes that already carry a type are trusted (their contents determine it), so
/// re-running on an unchanged module does no work. Returns `mod` itself.
/// Throws DiagnosticError with every located error found (e.g. `add` of
/// incompatible shapes names both shapes and points at the call).
IRModule inferTypes(const IRModule& mod);

/// Infers the type of a standalone expression; calls to globals are resolved in
/// `mod` (may be null). Throws DiagnosticError on failure.
Type inferExprType(const Expr& e, const IRModule* mod = nullptr);

/// Like inferTypes but collects diagnostics instead of throwing.
std::vector<Diagnostic> checkTypes(const IRModule& mod);

}  // namespace passlab
