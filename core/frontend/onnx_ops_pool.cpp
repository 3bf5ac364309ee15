// ONNX pooling: MaxPool and AveragePool (1-d lifted to 2-d), and the global
// pools.
#include <numeric>

#include "core/frontend/onnx_context.h"

namespace passlab::onnx_import {

namespace {

std::vector<Expr> pool(NodeContext& ctx, bool isMax) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  int64_t rank = GraphBuilder::rankOf(x);
  if (rank < 3) ctx.invalid("input must be [N, C, d1, ...], got " + typeToString(x->checkedType));
  if (rank > 4) ctx.unsupported(std::to_string(rank - 2) + "-d " + ctx.opType() + " (the op table has 2-d pools)");
  const auto& shape = GraphBuilder::shapeOf(x);
  std::vector<int64_t> spatial(shape.begin() + 2, shape.end());
  // Dilations arrived in MaxPool-10 and AveragePool-19; ceil_mode in opset 10.
  bool hasDilations = isMax && ctx.opset >= 10;
  Window win = readWindow(ctx, spatial, std::nullopt, hasDilations);
  bool ceilMode = ctx.opset >= 10 && ctx.attrInt("ceil_mode", 0) != 0;
  AttrDict attrs{{"pool_size", AttrValue::ints(win.kernel)}, {"strides", AttrValue::ints(win.strides)}};
  if (isMax) {
    if (ctx.outputUsed(1)) ctx.unsupported("Indices output (argmax positions) of MaxPool");
    ctx.ignoreAttr("storage_order");  // only affects Indices
  } else {
    // Before opset 7 padding never counted; since then count_include_pad decides.
    bool includePad = ctx.opset >= 7 && ctx.attrInt("count_include_pad", 0) != 0;
    attrs.set("count_include_pad", AttrValue::boolean(includePad));
  }
  bool lifted = rank == 3;
  if (lifted) {
    x = b.expandDims(x, 2);
    win = lift1dWindow(win);
    attrs.set("pool_size", AttrValue::ints(win.kernel));
    attrs.set("strides", AttrValue::ints(win.strides));
  }
  attrs.set("dilation", AttrValue::ints(win.dilations));
  attrs.set("padding", AttrValue::ints({win.padBegin[0], win.padBegin[1], win.padEnd[0], win.padEnd[1]}));
  attrs.set("ceil_mode", AttrValue::boolean(ceilMode));
  Expr y = b.call(isMax ? OpId::MaxPool2D : OpId::AvgPool2D, {x}, attrs);
  if (lifted) y = b.squeeze(y, {2});
  return {y};
}

std::vector<Expr> maxPool(NodeContext& ctx) { return pool(ctx, true); }
std::vector<Expr> averagePool(NodeContext& ctx) { return pool(ctx, false); }

std::vector<int64_t> spatialAxes(NodeContext& ctx, const Expr& x) {
  int64_t rank = GraphBuilder::rankOf(x);
  if (rank < 3) ctx.invalid("input must be [N, C, d1, ...], got " + typeToString(x->checkedType));
  std::vector<int64_t> axes(static_cast<size_t>(rank - 2));
  std::iota(axes.begin(), axes.end(), 2);
  return axes;
}

std::vector<Expr> globalAveragePool(NodeContext& ctx) {
  Expr x = ctx.input(0);
  std::vector<int64_t> axes = spatialAxes(ctx, x);
  if (axes.size() == 2) return {ctx.b.call(OpId::GlobalAvgPool2D, {x})};
  return {ctx.b.reduce(OpId::Mean, x, axes, true)};
}

std::vector<Expr> globalMaxPool(NodeContext& ctx) {
  Expr x = ctx.input(0);
  return {ctx.b.reduce(OpId::Max, x, spatialAxes(ctx, x), true)};
}

/// Local response normalization across channels:
///   y = x / (bias + alpha / size * sum of x^2 over a window of `size` channels)^beta.
/// The windowed sum is an average pool over the channel axis (padding counted)
/// times the window size.
std::vector<Expr> lrn(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  const std::vector<int64_t> shape = GraphBuilder::shapeOf(x);
  if (shape.size() < 2) ctx.invalid("input must be [N, C, ...]");
  double alpha = ctx.attrFloat("alpha", 1e-4), beta = ctx.attrFloat("beta", 0.75), bias = ctx.attrFloat("bias", 1.0);
  int64_t size = ctx.attrInt("size", 0);
  if (size <= 0) ctx.invalid("size must be positive");
  int64_t rest = 1;
  for (size_t i = 2; i < shape.size(); ++i) rest *= shape[i];
  Expr squares = b.reshape(b.call(OpId::Multiply, {x, x}), {shape[0], 1, shape[1], rest});
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  Expr average = b.call(OpId::AvgPool2D, {squares},
                        {{"pool_size", AttrValue::ints({size, 1})},
                         {"padding", AttrValue::ints({before, 0, after, 0})},
                         {"count_include_pad", AttrValue::boolean(true)}});
  Expr scaled = b.withScalar(OpId::Add, b.withScalar(OpId::Multiply, b.reshape(average, shape), alpha), bias);
  return {b.call(OpId::Divide, {x, b.call(OpId::Power, {scaled, b.scalar(GraphBuilder::dtypeOf(x), beta)})})};
}

}  // namespace

void addPoolConverters(ConverterTable& t) {
  t["LRN"] = lrn;
  t["MaxPool"] = maxPool;
  t["AveragePool"] = averagePool;
  t["GlobalAveragePool"] = globalAveragePool;
  t["GlobalMaxPool"] = globalMaxPool;
}

}  // namespace passlab::onnx_import
