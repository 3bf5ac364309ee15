// Symbolic tensor dimensions: TIR PrimExprs over int64 shape variables
// (`n = T.int64()`, `R.Tensor((n, 4))`, `R.Tensor((n * 2,))`), as TVM's
// Relax shapes are. TensorTypeNode keeps the int64 `shape` every reader
// knows (kDynamicDim where a dimension is not a constant) and a parallel
// `symbolic` vector; the helpers here are the one place that does arithmetic,
// simplification, comparison, printing and evaluation of those expressions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/tir.h"
#include "core/ir/type.h"

namespace passlab::shape {

/// One dimension as a PrimExpr: an int64 IntImm for a static extent, an
/// int64 expression over shape variables, or null for an unknown `?`.
using Dim = tir::PrimExpr;

/// A static dimension (an int64 IntImm).
Dim constant(int64_t value);
/// A fresh int64 shape variable (`n = T.int64()`).
tir::Var makeShapeVar(std::string name);
/// The constant value of `d`, when it is one (after simplification).
std::optional<int64_t> asConstant(const Dim& d);

/// The dimensions of `t`: static extents as constants, symbolic ones as their
/// expressions, `?` as null.
std::vector<Dim> dimsOf(const TensorTypeNode& t);
/// Dimension `i` of `t` (as dimsOf).
Dim dimOf(const TensorTypeNode& t, size_t i);
/// A tensor type from dims: constants become static extents, null `?`,
/// everything else a symbolic dimension (kept as given, not simplified).
Type tensorOfDims(const std::vector<Dim>& dims, DataType dtype);
/// `t` with another dtype, its (symbolic) shape kept.
Type withDType(const TensorTypeNode& t, DataType dtype);

/// TVM-style simplification of the simple cases: constants folded, x*1, x+0,
/// x*0 and x-x removed, and sums of products put in one canonical order
/// (terms sorted by their variables, positive terms first, the constant after
/// them). floordiv/floormod/min/max by constants fold when both sides are
/// constant. Null (`?`) stays null.
Dim simplify(const Dim& d);
/// Arithmetic on dims (simplified; `?` in, `?` out).
Dim add(const Dim& a, const Dim& b);
Dim sub(const Dim& a, const Dim& b);
Dim mul(const Dim& a, const Dim& b);
Dim floorDiv(const Dim& a, const Dim& b);

/// Maps the shape variables of one side onto the other's (structural
/// equality binds them by first use, as TVM's does).
using VarMap = std::unordered_map<const tir::VarNode*, const tir::VarNode*>;
/// True when `a` and `b` are equal after simplification. Variables compare
/// through `map` (b's variable -> a's); a pair of variables not yet mapped
/// is bound when both dims are bare variables. Without a map they compare by
/// name (one function never declares a name twice).
bool equal(const Dim& a, const Dim& b, VarMap* map = nullptr);
/// Dimension-wise equal() of two tensor types' shapes (same rank).
bool equalShapes(const TensorTypeNode& a, const TensorTypeNode& b, VarMap* map = nullptr);

/// typeEqual with shape variables bound through `map` (b's onto a's, by first
/// use): what structural equality of two functions uses.
bool typesEqual(const Type& a, const Type& b, VarMap& map);

/// The TVMScript spelling of a dimension: `4`, `n`, `n * 2`, `w - kw + 1`,
/// `n // 2` (Python precedence, parentheses only where needed).
std::string toScript(const Dim& d);
/// The shape variables of `d` in order of first appearance, each once, appended
/// to `out` when not already there.
void collectVars(const Dim& d, std::vector<tir::Var>& out);
/// The shape variables of every dimension of every tensor, shape and prim value in `t` (tuples and
/// function types included), appended as collectVars does.
void collectTypeVars(const Type& t, std::vector<tir::Var>& out);

/// Values of shape variables at run time.
using Env = std::map<const tir::VarNode*, int64_t>;
/// The value of `d` under `env`; nullopt when a variable is unbound (or `d` is
/// `?`, or divides by zero).
std::optional<int64_t> evaluate(const Dim& d, const Env& env);
/// Matches a concrete shape against `t` at run time: binds a bare variable
/// dimension on first sight, checks every other dimension it can evaluate.
/// Returns an empty string when it fits, else why not ("dimension 0 is n = 3
/// here, but 5 was passed").
std::string bindShape(const TensorTypeNode& t, const std::vector<int64_t>& concrete, Env& env);

}  // namespace passlab::shape
