// ONNX reductions. Mean, Sum, Max, Min, Prod, ArgMax and ArgMin map onto the op table; L1, L2,
// SumSquare, LogSum and LogSumExp are written with those and elementwise ops
// as the ONNX specification defines them.
#include "core/frontend/onnx_context.h"

namespace passlab::onnx_import {

namespace {

/// What to reduce: nullopt = every axis; an empty vector = nothing (the
/// noop_with_empty_axes case).
struct Reduction {
  std::optional<std::vector<int64_t>> axes;
  bool keepdims;
  bool noop;
};

Reduction readReduction(NodeContext& ctx, const Expr& x) {
  Reduction r;
  r.keepdims = ctx.attrInt("keepdims", 1) != 0;
  // ReduceSum takes its axes as an input since opset 13 (the others since 18).
  bool axesAsInput = ctx.opType() == "ReduceSum" && ctx.opset >= 13;
  std::optional<std::vector<int64_t>> axes;
  if (axesAsInput) {
    if (ctx.hasInput(1)) axes = ctx.intsInput(1, "axes");
  } else {
    axes = ctx.attrIntsOpt("axes");
  }
  bool noopWhenEmpty = axesAsInput && ctx.attrInt("noop_with_empty_axes", 0) != 0;
  r.noop = (!axes || axes->empty()) && noopWhenEmpty;
  if (axes && axes->empty()) axes.reset();  // an empty list means "all axes"
  if (axes) {
    for (int64_t& a : *axes) a = normalizeOnnxAxis(a, GraphBuilder::rankOf(x), "axes entry");
  }
  r.axes = std::move(axes);
  return r;
}

/// Reduces `x` with `op`, or returns it unchanged for a no-op reduction.
Expr reduceWith(GraphBuilder& b, OpId op, const Expr& x, const Reduction& r, bool keepdims) {
  if (r.noop) return x;
  return b.reduce(op, x, r.axes, keepdims);
}

template <OpId kOp>
std::vector<Expr> simple(NodeContext& ctx) {
  Expr x = ctx.input(0);
  Reduction r = readReduction(ctx, x);
  return {reduceWith(ctx.b, kOp, x, r, r.keepdims)};
}

std::vector<Expr> reduceL1(NodeContext& ctx) {
  Expr x = ctx.input(0);
  Reduction r = readReduction(ctx, x);
  return {reduceWith(ctx.b, OpId::Sum, ctx.b.call(OpId::Abs, {x}), r, r.keepdims)};
}

std::vector<Expr> reduceSumSquare(NodeContext& ctx) {
  Expr x = ctx.input(0);
  Reduction r = readReduction(ctx, x);
  return {reduceWith(ctx.b, OpId::Sum, ctx.b.call(OpId::Multiply, {x, x}), r, r.keepdims)};
}

std::vector<Expr> reduceL2(NodeContext& ctx) {
  Expr x = ctx.input(0);
  Reduction r = readReduction(ctx, x);
  return {ctx.b.call(OpId::Sqrt, {reduceWith(ctx.b, OpId::Sum, ctx.b.call(OpId::Multiply, {x, x}), r, r.keepdims)})};
}

std::vector<Expr> reduceLogSum(NodeContext& ctx) {
  Expr x = ctx.input(0);
  Reduction r = readReduction(ctx, x);
  return {ctx.b.call(OpId::Log, {reduceWith(ctx.b, OpId::Sum, x, r, r.keepdims)})};
}

/// log(sum(exp(x - m))) + m with m the maximum, so large inputs do not overflow.
std::vector<Expr> reduceLogSumExp(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  Reduction r = readReduction(ctx, x);
  if (r.noop) return {x};
  Expr m = b.reduce(OpId::Max, x, r.axes, true);
  Expr logSum = b.call(OpId::Log, {b.reduce(OpId::Sum, b.call(OpId::Exp, {b.call(OpId::Subtract, {x, m})}), r.axes, r.keepdims)});
  return {b.call(OpId::Add, {logSum, b.reshape(m, GraphBuilder::shapeOf(logSum))})};
}

/// ArgMax/ArgMin: one axis (default 0), keepdims (default 1); the op's int32
/// indices become ONNX's int64.
template <OpId kOp>
std::vector<Expr> argReduce(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  int64_t axis = normalizeOnnxAxis(ctx.attrInt("axis", 0), GraphBuilder::rankOf(x), "axis");
  AttrDict attrs;
  attrs.set("axis", AttrValue::ints({axis}));
  if (ctx.attrInt("keepdims", 1) != 0) attrs.set("keepdims", AttrValue::boolean(true));
  if (ctx.attrInt("select_last_index", 0) != 0) attrs.set("select_last_index", AttrValue::boolean(true));
  return {b.cast(b.call(kOp, {x}, attrs), DTypeCode::Int64)};
}

}  // namespace

void addReduceConverters(ConverterTable& t) {
  t["ReduceMean"] = simple<OpId::Mean>;
  t["ReduceSum"] = simple<OpId::Sum>;
  t["ReduceMax"] = simple<OpId::Max>;
  t["ReduceMin"] = simple<OpId::Min>;
  t["ReduceProd"] = simple<OpId::Prod>;
  t["ArgMax"] = argReduce<OpId::ArgMax>;
  t["ArgMin"] = argReduce<OpId::ArgMin>;
  t["ReduceL1"] = reduceL1;
  t["ReduceL2"] = reduceL2;
  t["ReduceSumSquare"] = reduceSumSquare;
  t["ReduceLogSum"] = reduceLogSum;
  t["ReduceLogSumExp"] = reduceLogSumExp;
}

}  // namespace passlab::onnx_import
