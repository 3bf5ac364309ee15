// Questions the LLVM emitter asks about TIR trees (internal to codegen/).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/ir/tir.h"

namespace passlab::codegen {

/// True when evaluating `e` reads memory or calls a PrimFunc: such an operand
/// of select/&&/|| is evaluated only when taken, as the interpreter does, so a
/// guarded load is never executed out of bounds.
bool hasSideEffectsOrLoads(const tir::PrimExpr& e);
/// True when the expression or statement computes or stores a float value.
bool usesFloat(const tir::PrimExpr& e);
bool usesFloat(const tir::Stmt& s);

/// True when some statement of `s` (itself or one nested at any depth)
/// satisfies `pred`.
bool anyStatement(const tir::Stmt& s, const std::function<bool(const tir::Stmt&)>& pred);
/// True when `s` holds a `vectorized` loop at any depth.
bool containsVectorizedLoop(const tir::Stmt& s);

/// True when the loop over `v` with body `body` only moves data (stores of
/// loads, casts or constants, under branches, lets and serial loops) and
/// some access's element offset moves by a constant other than -1, 0 or 1
/// per step of `v`: a transposing copy (a convolution's patches, channels
/// last). LLVM would vectorize it into gathers and scatters, costly to
/// compile (a quarter of a 700-op model's compile in one 1x1 convolution's
/// patch copy on AVX-512) and no faster to run than scalar moves. An offset
/// that is not affine in `v` (a division, a load) leaves the loop alone.
bool isStridedCopy(const tir::Stmt& body, const tir::VarNode* v);

/// The element operations `s` performs, statically: each store or evaluated
/// call counts 1, a loop multiplies its body by its extent (a loop whose
/// extent is not a constant counts once), an if counts its larger branch.
/// The thread pool's threshold compares it (LLVM emitter, parallel loops).
int64_t staticWork(const tir::Stmt& s);

/// Adds the names of the PrimFuncs `s` calls (`@f(...)`) to `out`.
void collectGlobalCalls(const tir::Stmt& s, std::vector<std::string>& out);
/// Adds the names of the intrinsics `s` calls (`exp(...)`, `sigmoid(...)`) to `out`.
void collectIntrinsicCalls(const tir::Stmt& s, std::vector<std::string>& out);

}  // namespace passlab::codegen
