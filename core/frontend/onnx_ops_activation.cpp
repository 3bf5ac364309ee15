// ONNX activations and the softmax family. Ops with a direct op-table
// counterpart map onto it; the others are written in terms of elementwise ops
// exactly as the ONNX specification defines them.
#include <numeric>

#include "core/frontend/onnx_context.h"

namespace passlab::onnx_import {

namespace {

Expr zeroLike(GraphBuilder& b, const Expr& x) { return b.scalar(GraphBuilder::dtypeOf(x), 0); }

std::vector<Expr> leakyRelu(NodeContext& ctx) {
  ctx.ignoreAttr("consumed_inputs");
  double alpha = ctx.attrFloat("alpha", 0.01);
  return {ctx.b.call(OpId::LeakyRelu, {ctx.input(0)}, {{"alpha", AttrValue::floating(alpha)}})};
}

/// alpha * (exp(x) - 1) for x <= 0, x otherwise.
std::vector<Expr> elu(NodeContext& ctx) {
  ctx.ignoreAttr("consumed_inputs");
  double alpha = ctx.attrFloat("alpha", 1.0);
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  Expr negative = b.withScalar(OpId::Multiply, b.withScalar(OpId::Subtract, b.call(OpId::Exp, {x}), 1.0), alpha);
  return {b.call(OpId::Where, {b.call(OpId::Greater, {x, zeroLike(b, x)}), x, negative})};
}

/// gamma * (x for x > 0, alpha * exp(x) - alpha otherwise).
std::vector<Expr> selu(NodeContext& ctx) {
  ctx.ignoreAttr("consumed_inputs");
  double alpha = ctx.attrFloat("alpha", 1.67326319217681884765625);
  double gamma = ctx.attrFloat("gamma", 1.05070102214813232421875);
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  Expr negative = b.withScalar(OpId::Subtract, b.withScalar(OpId::Multiply, b.call(OpId::Exp, {x}), alpha), alpha);
  Expr inner = b.call(OpId::Where, {b.call(OpId::Greater, {x, zeroLike(b, x)}), x, negative});
  return {b.withScalar(OpId::Multiply, inner, gamma)};
}

/// max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
std::vector<Expr> celu(NodeContext& ctx) {
  double alpha = ctx.attrFloat("alpha", 1.0);
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  Expr zero = zeroLike(b, x);
  Expr expPart = b.withScalar(OpId::Multiply, b.withScalar(OpId::Subtract, b.call(OpId::Exp, {b.withScalar(OpId::Divide, x, alpha)}), 1.0), alpha);
  return {b.call(OpId::Add, {b.call(OpId::Maximum, {x, zero}), b.call(OpId::Minimum, {expPart, zero})})};
}

/// max(0, min(1, alpha * x + beta)).
Expr hardSigmoidOf(GraphBuilder& b, const Expr& x, double alpha, double beta) {
  Expr linear = b.withScalar(OpId::Add, b.withScalar(OpId::Multiply, x, alpha), beta);
  return b.call(OpId::Clip, {linear}, {{"a_min", AttrValue::floating(0.0)}, {"a_max", AttrValue::floating(1.0)}});
}

std::vector<Expr> hardSigmoid(NodeContext& ctx) {
  ctx.ignoreAttr("consumed_inputs");
  double alpha = ctx.attrFloat("alpha", 0.2), beta = ctx.attrFloat("beta", 0.5);
  return {hardSigmoidOf(ctx.b, ctx.input(0), alpha, beta)};
}

std::vector<Expr> hardSwish(NodeContext& ctx) {
  Expr x = ctx.input(0);
  return {ctx.b.call(OpId::Multiply, {x, hardSigmoidOf(ctx.b, x, 1.0 / 6.0, 0.5)})};
}

/// log(exp(x) + 1).
std::vector<Expr> softplus(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  return {b.call(OpId::Log, {b.withScalar(OpId::Add, b.call(OpId::Exp, {ctx.input(0)}), 1.0)})};
}

/// x / (1 + |x|).
std::vector<Expr> softsign(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  return {b.call(OpId::Divide, {x, b.withScalar(OpId::Add, b.call(OpId::Abs, {x}), 1.0)})};
}

std::vector<Expr> prelu(NodeContext& ctx) {
  ctx.ignoreAttr("consumed_inputs");
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0), slope = ctx.input(1);
  const auto& xShape = GraphBuilder::shapeOf(x);
  const auto& slopeShape = GraphBuilder::shapeOf(slope);
  // Before opset 7 a 1-d slope of C values applies per channel (axis 1), not
  // NumPy-style from the right.
  if (ctx.opset < 7 && slopeShape.size() == 1 && xShape.size() > 2 && slopeShape[0] == xShape[1] && slopeShape[0] != 1) {
    std::vector<int64_t> perChannel(xShape.size() - 1, 1);
    perChannel[0] = slopeShape[0];
    slope = b.reshape(slope, perChannel);
  }
  return {b.call(OpId::Where, {b.call(OpId::Less, {x, zeroLike(b, x)}), b.call(OpId::Multiply, {x, slope}), x})};
}

std::vector<Expr> thresholdedRelu(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  double alpha = ctx.attrFloat("alpha", 1.0);
  return {b.call(OpId::Where, {b.call(OpId::Greater, {x, b.scalar(GraphBuilder::dtypeOf(x), alpha)}), x, zeroLike(b, x)})};
}

/// x + bias below -lambd, x - bias above lambd, 0 between.
std::vector<Expr> shrink(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  double bias = ctx.attrFloat("bias", 0.0), lambd = ctx.attrFloat("lambd", 0.5);
  DataType dtype = GraphBuilder::dtypeOf(x);
  // Integer inputs compare against the (fractional) thresholds in float64.
  Expr cmp = dtype.isFloat() ? x : b.cast(x, DTypeCode::Float64);
  DataType cmpType = GraphBuilder::dtypeOf(cmp);
  Expr below = b.call(OpId::Less, {cmp, b.scalar(cmpType, -lambd)});
  Expr above = b.call(OpId::Greater, {cmp, b.scalar(cmpType, lambd)});
  Expr inner = b.call(OpId::Where, {above, b.withScalar(OpId::Subtract, x, bias), zeroLike(b, x)});
  return {b.call(OpId::Where, {below, b.withScalar(OpId::Add, x, bias), inner})};
}

/// The axes a softmax-family op normalizes over: before opset 13 the input is
/// coerced to 2-d at `axis` (default 1), so every axis from `axis` on; since 13
/// only `axis` (default -1).
std::vector<int64_t> softmaxAxes(NodeContext& ctx, int64_t rank) {
  int64_t axis = normalizeOnnxAxis(ctx.attrInt("axis", ctx.opset < 13 ? 1 : -1), rank);
  if (ctx.opset >= 13) return {axis};
  std::vector<int64_t> axes(static_cast<size_t>(rank - axis));
  std::iota(axes.begin(), axes.end(), axis);
  return axes;
}

std::vector<Expr> softmax(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  int64_t rank = GraphBuilder::rankOf(x);
  std::vector<int64_t> axes = softmaxAxes(ctx, rank);
  if (axes.size() == 1) return {b.call(OpId::Softmax, {x}, {{"axis", AttrValue::integer(axes[0])}})};
  // Coerced to 2-d: [outer, inner] with a softmax over the inner extent.
  const auto& shape = GraphBuilder::shapeOf(x);
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) (i < axes.front() ? outer : inner) *= shape[i];
  Expr flat = b.reshape(x, {outer, inner});
  return {b.reshape(b.call(OpId::Softmax, {flat}, {{"axis", AttrValue::integer(1)}}), shape)};
}

/// (x - m) - log(sum(exp(x - m))) with m the maximum: the stable form.
std::vector<Expr> logSoftmax(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  std::vector<int64_t> axes = softmaxAxes(ctx, GraphBuilder::rankOf(x));
  Expr shifted = b.call(OpId::Subtract, {x, b.reduce(OpId::Max, x, axes, true)});
  Expr logSum = b.call(OpId::Log, {b.reduce(OpId::Sum, b.call(OpId::Exp, {shifted}), axes, true)});
  return {b.call(OpId::Subtract, {shifted, logSum})};
}

std::vector<Expr> dropout(NodeContext& ctx) {
  ctx.ignoreAttr("seed");
  ctx.ignoreAttr("ratio");  // no effect at inference
  ctx.ignoreAttr("consumed_inputs");
  if (ctx.opset < 7 && ctx.attrInt("is_test", 0) == 0 && ctx.outputUsed(1))
    ctx.unsupported("training-mode Dropout (is_test=0 with a mask output)");
  if (ctx.hasInput(2)) {
    std::optional<NDArray> training = ctx.b.tryEvaluate(ctx.input(2));
    if (!training || training->getAsDouble(0) != 0) ctx.unsupported("training-mode Dropout (training_mode input is not constant false)");
  }
  Expr x = ctx.input(0);
  std::vector<Expr> out{x};
  if (ctx.outputUsed(1)) {
    // Inference keeps every element: the mask is all true (all ones before opset 10).
    DataType maskType = ctx.opset < 10 ? GraphBuilder::dtypeOf(x) : DataType(DTypeCode::Bool);
    std::string dtypeName(maskType.name());
    out.push_back(ctx.b.call(OpId::Ones, {}, {{"shape", AttrValue::ints(GraphBuilder::shapeOf(x))}, {"dtype", AttrValue::string(dtypeName)}}));
  }
  return out;
}

}  // namespace

void addActivationConverters(ConverterTable& t) {
  t["LeakyRelu"] = leakyRelu;
  t["Elu"] = elu;
  t["Selu"] = selu;
  t["Celu"] = celu;
  t["HardSigmoid"] = hardSigmoid;
  t["HardSwish"] = hardSwish;
  t["Softplus"] = softplus;
  t["Softsign"] = softsign;
  t["PRelu"] = prelu;
  t["ThresholdedRelu"] = thresholdedRelu;
  t["Shrink"] = shrink;
  t["Softmax"] = softmax;
  t["LogSoftmax"] = logSoftmax;
  t["Dropout"] = dropout;
}

}  // namespace passlab::onnx_import
