// Internal to the Relax-form LegalizeOps kernels (passes/legalize_relax_*.cpp):
// one te.compute stage and how te.create_prim_func writes it, shared by the
// kernel files.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/ir/tir.h"
#include "passes/legalize_relax.h"

namespace passlab::legalize_relax {

/// Index expressions (iteration variables, loads' indices).
using Exprs = std::vector<tir::PrimExpr>;

/// An int64 immediate: Relax shapes, hence the kernels' indices, are int64.
inline tir::PrimExpr i64(int64_t v) { return tir::intImm(DTypeCode::Int64, v); }
/// `a + b`.
inline tir::PrimExpr add(tir::PrimExpr a, tir::PrimExpr b) { return tir::binary(tir::BinaryOp::Add, std::move(a), std::move(b)); }
/// `a - b`.
inline tir::PrimExpr sub(tir::PrimExpr a, tir::PrimExpr b) { return tir::binary(tir::BinaryOp::Sub, std::move(a), std::move(b)); }
/// `a * b`.
inline tir::PrimExpr mul(tir::PrimExpr a, tir::PrimExpr b) { return tir::binary(tir::BinaryOp::Mul, std::move(a), std::move(b)); }

/// One computation stage, as te.compute writes it: a loop per axis (spatial
/// then reduce), a block binding one iteration variable per loop, reads and
/// writes at points, and for a reduction the init and the update.
struct Stage {
  /// The block's name (TE's op name, made unique within the PrimFunc).
  std::string name;
  /// The buffer written: a parameter for an output, else a scratch buffer.
  tir::Buffer out;
  /// Reduction extents, one reduce axis each, after the spatial ones.
  std::vector<int64_t> reduce;
  /// The value at the spatial and reduce iteration variables.
  std::function<tir::PrimExpr(const Exprs&, const Exprs&)> value;
  /// For a reduction: the initial value and how an element is combined.
  tir::PrimExpr init;
  /// For a reduction: how the running value and an element combine.
  std::function<tir::PrimExpr(tir::PrimExpr, tir::PrimExpr)> combine;
  /// The block's annotations (schedule rules).
  AttrDict annotations;
};

/// The loop nest and block of `s`.
tir::Stmt build(const Stage& s);

/// The axes of one block under construction, as te.create_prim_func writes
/// them: a loop per axis and a block iteration variable bound to it (`v_` and
/// the loop's name), spatial axes before reduce axes.
struct BlockAxes {
  /// The loops, outermost first.
  std::vector<tir::Var> loops;
  /// The block iteration variables, one per loop.
  std::vector<tir::BlockIterVar> ivs;
  /// The spatial iteration variables, in order.
  Exprs spatial;
  /// The reduce iteration variables, in order.
  Exprs reduce;
  /// Adds an axis of `extent` named `name` (the iteration variable `v_name`).
  void add(int64_t extent, tir::IterKind kind, const std::string& name);
  /// `body` wrapped in the loops, innermost last.
  tir::Stmt wrap(tir::Stmt body) const;
};

/// The implicit root block TVM's printer leaves out, holding the scratch buffers.
tir::Stmt root(std::vector<tir::Stmt> stages, std::vector<tir::Buffer> scratch);

/// The element index of `in` for output index `idx` under numpy broadcasting:
/// a dimension of extent 1 against a larger one reads index 0.
Exprs broadcastIndex(const KernelInput& in, const std::vector<int64_t>& outShape, const Exprs& idx);

/// The input indices topi.reshape reads for output indices `idx` (of an output
/// of `outShape`, from an input of `inShape`), in the form TVM's simplifier
/// leaves them: `v_i0 % 24 // 12`, `(v_ax0 * 2 + v_ax1) % 4`
/// (passes/legalize_relax_group_norm.cpp).
Exprs reshapeIndex(const std::vector<int64_t>& outShape, const Exprs& idx, const std::vector<int64_t>& inShape);

/// nn.group_norm as topi.nn.group_norm writes it: PrimFunc "group_norm".
std::optional<Kernel> groupNorm(const CallNode& call, const std::vector<KernelInput>& in, const TensorTypeNode& out);

}  // namespace passlab::legalize_relax
