// Structural equality and hashing modulo variable names.
#pragma once

#include <cstddef>

#include "core/ir/module.h"

namespace passlab {

/// True when `a` and `b` have the same structure: same ops, attributes, constants
/// (bitwise), types and the same binding structure of variables (names ignored;
/// free variables must be the same node). PrimFuncs compare likewise.
bool structuralEqual(const Expr& a, const Expr& b);
/// A hash consistent with structuralEqual (equal expressions hash equal).
size_t structuralHash(const Expr& e);
/// True when TIR expressions `a` and `b` have the same structure (constants
/// bitwise); their free variables and buffers must be the same nodes.
bool structuralEqual(const tir::PrimExpr& a, const tir::PrimExpr& b);
/// Module equality: same function names, each structurally equal, equal attributes.
bool structuralEqual(const IRModule& a, const IRModule& b);
/// Hash of a module consistent with module structuralEqual.
size_t structuralHash(const IRModule& m);

}  // namespace passlab
