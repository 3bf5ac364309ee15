// ONNX linear quantization: QuantizeLinear, DequantizeLinear and
// DynamicQuantizeLinear, written with elementwise ops exactly as ONNX defines
// them (float32 arithmetic, round half to even, saturation to the 8-bit range).
#include "core/frontend/onnx_context.h"

namespace passlab::onnx_import {

namespace {

/// A scale or zero point shaped to broadcast against `x`: a scalar stays a
/// scalar, a 1-d per-axis tensor is laid along `axis`.
Expr perAxis(NodeContext& ctx, const Expr& v, const Expr& x) {
  const auto& shape = GraphBuilder::shapeOf(v);
  if (shape.empty() || (shape.size() == 1 && shape[0] == 1)) return ctx.b.reshape(v, {});
  if (shape.size() != 1) ctx.unsupported("blocked quantization (a scale of rank " + std::to_string(shape.size()) + ")");
  int64_t rank = GraphBuilder::rankOf(x);
  int64_t axis = normalizeOnnxAxis(ctx.attrInt("axis", 1), rank);
  std::vector<int64_t> laid(static_cast<size_t>(rank - axis), 1);
  laid[0] = shape[0];
  return ctx.b.reshape(v, laid);
}

/// The representable range of an 8-bit quantized dtype.
std::pair<double, double> rangeOf(NodeContext& ctx, DataType dtype) {
  if (dtype.code == DTypeCode::UInt8) return {0, 255};
  if (dtype.code == DTypeCode::Int8) return {-128, 127};
  ctx.unsupported("quantized type " + std::string(dtype.name()));
}

Expr clipTo(GraphBuilder& b, const Expr& x, double lo, double hi) {
  return b.call(OpId::Clip, {x}, {{"a_min", AttrValue::floating(lo)}, {"a_max", AttrValue::floating(hi)}});
}

std::vector<Expr> quantizeLinear(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = b.cast(ctx.input(0), DTypeCode::Float32);
  Expr scale = perAxis(ctx, b.cast(ctx.input(1), DTypeCode::Float32), x);
  DataType outType = ctx.hasInput(2) ? GraphBuilder::dtypeOf(ctx.input(2)) : DataType(DTypeCode::UInt8);
  auto [lo, hi] = rangeOf(ctx, outType);
  Expr q = b.call(OpId::Round, {b.call(OpId::Divide, {x, scale})});
  if (ctx.hasInput(2)) q = b.call(OpId::Add, {q, perAxis(ctx, b.cast(ctx.input(2), DTypeCode::Float32), x)});
  ctx.ignoreAttr("axis");  // read by perAxis when a scale is per-axis
  return {b.cast(clipTo(b, q, lo, hi), outType)};
}

std::vector<Expr> dequantizeLinear(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = b.cast(ctx.input(0), DTypeCode::Float32);
  Expr centered = x;
  if (ctx.hasInput(2)) centered = b.call(OpId::Subtract, {x, perAxis(ctx, b.cast(ctx.input(2), DTypeCode::Float32), x)});
  Expr scale = perAxis(ctx, ctx.input(1), x);
  ctx.ignoreAttr("axis");
  return {b.call(OpId::Multiply, {centered, b.cast(scale, DTypeCode::Float32)})};
}

/// Scale and zero point from the data's range (widened to include 0), then
/// QuantizeLinear to uint8.
std::vector<Expr> dynamicQuantizeLinear(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  if (GraphBuilder::dtypeOf(x) != DataType(DTypeCode::Float32)) ctx.unsupported("input type " + typeToString(x->checkedType));
  Expr zero = b.scalar(DTypeCode::Float32, 0);
  Expr minX = b.call(OpId::Minimum, {b.reduce(OpId::Min, x, std::nullopt, false), zero});
  Expr maxX = b.call(OpId::Maximum, {b.reduce(OpId::Max, x, std::nullopt, false), zero});
  Expr scale = b.withScalar(OpId::Divide, b.call(OpId::Subtract, {maxX, minX}), 255.0);
  Expr zeroPoint = clipTo(b, b.call(OpId::Round, {b.call(OpId::Subtract, {zero, b.call(OpId::Divide, {minX, scale})})}), 0, 255);
  Expr y = clipTo(b, b.call(OpId::Add, {b.call(OpId::Round, {b.call(OpId::Divide, {x, scale})}), zeroPoint}), 0, 255);
  return {b.cast(y, DTypeCode::UInt8), scale, b.cast(zeroPoint, DTypeCode::UInt8)};
}

}  // namespace

void addQuantConverters(ConverterTable& t) {
  t["QuantizeLinear"] = quantizeLinear;
  t["DequantizeLinear"] = dequantizeLinear;
  t["DynamicQuantizeLinear"] = dynamicQuantizeLinear;
}

}  // namespace passlab::onnx_import
