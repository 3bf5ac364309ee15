// ONNX elementwise ops: arithmetic and comparisons with NumPy broadcasting
// (and the pre-opset-7 `broadcast`/`axis` form), variadic Max/Min/Sum/Mean,
// logical ops, unary math, Clip, Where, Cast, Identity.
#include <cmath>
#include <limits>

#include "core/frontend/onnx_context.h"
#include "core/frontend/onnx_proto_util.h"

namespace passlab::onnx_import {

namespace {

/// The two operands of a binary op. Before opset 7, `broadcast=1` with `axis`
/// aligned B's dimensions with A's starting at `axis` (not from the right), so
/// B gets trailing 1-dimensions to express that in NumPy terms.
std::pair<Expr, Expr> binaryOperands(NodeContext& ctx) {
  Expr a = ctx.input(0), b = ctx.input(1);
  ctx.ignoreAttr("consumed_inputs");  // opset-1 memory-reuse hint
  if (ctx.opset < 7) {
    bool broadcast = ctx.attrInt("broadcast", 0) != 0;
    std::optional<int64_t> axis = ctx.attrIntOpt("axis");
    if (broadcast && axis) {
      int64_t rankA = GraphBuilder::rankOf(a), rankB = GraphBuilder::rankOf(b);
      int64_t start = *axis < 0 ? *axis + rankA : *axis;
      int64_t trailing = rankA - start - rankB;
      if (start < 0 || trailing < 0) ctx.invalid("legacy broadcast axis " + std::to_string(*axis) + " does not fit the operands");
      std::vector<int64_t> shape = GraphBuilder::shapeOf(b);
      shape.insert(shape.end(), trailing, 1);
      b = ctx.b.reshape(b, shape);
    }
  }
  return {a, b};
}

template <OpId kOp>
std::vector<Expr> binary(NodeContext& ctx) {
  auto [a, b] = binaryOperands(ctx);
  return {ctx.b.call(kOp, {a, b})};
}

/// fmod=1 is C's fmod (the sign of the dividend): Relay's mod; fmod=0, the
/// default and integer-only in ONNX, takes the divisor's sign: floor_mod.
std::vector<Expr> mod(NodeContext& ctx) {
  bool truncated = ctx.attrInt("fmod", 0) != 0;
  auto [a, b] = binaryOperands(ctx);
  return {ctx.b.call(truncated ? OpId::Mod : OpId::FloorMod, {a, b})};
}

std::vector<Expr> pow(NodeContext& ctx) {
  auto [a, b] = binaryOperands(ctx);
  // Since opset 12 the exponent may have another type; the result has the base's.
  return {ctx.b.call(OpId::Power, {a, ctx.b.cast(b, GraphBuilder::dtypeOf(a))})};
}

/// Max, Min, Sum: a left fold of the binary op over every input.
template <OpId kOp>
std::vector<Expr> variadic(NodeContext& ctx) {
  ctx.ignoreAttr("consumed_inputs");
  Expr acc = ctx.input(0);
  for (size_t i = 1; i < ctx.inputCount(); ++i) acc = ctx.b.call(kOp, {acc, ctx.input(i)});
  return {acc};
}

std::vector<Expr> mean(NodeContext& ctx) {
  Expr sum = variadic<OpId::Add>(ctx)[0];
  if (ctx.inputCount() == 1) return {sum};
  return {ctx.b.withScalar(OpId::Divide, sum, static_cast<double>(ctx.inputCount()))};
}

/// a OR b on bool tensors, with broadcasting.
Expr logicalOr(GraphBuilder& b, const Expr& x, const Expr& y) { return b.call(OpId::Where, {x, b.scalar(DTypeCode::Bool, 1), y}); }
/// NOT a on a bool tensor.
Expr logicalNot(GraphBuilder& b, const Expr& x) { return b.call(OpId::Equal, {x, b.scalar(DTypeCode::Bool, 0)}); }

std::vector<Expr> lessOrEqual(NodeContext& ctx) {
  Expr a = ctx.input(0), b = ctx.input(1);
  // (a < b) or (a == b): NaN compares false either way, as ONNX requires.
  return {logicalOr(ctx.b, ctx.b.call(OpId::Less, {a, b}), ctx.b.call(OpId::Equal, {a, b}))};
}

std::vector<Expr> greaterOrEqual(NodeContext& ctx) {
  Expr a = ctx.input(0), b = ctx.input(1);
  return {logicalOr(ctx.b, ctx.b.call(OpId::Greater, {a, b}), ctx.b.call(OpId::Equal, {a, b}))};
}

std::vector<Expr> logicalNotOp(NodeContext& ctx) { return {logicalNot(ctx.b, ctx.input(0))}; }

std::vector<Expr> logicalAnd(NodeContext& ctx) {
  auto [a, b] = binaryOperands(ctx);
  return {ctx.b.call(OpId::Where, {a, b, ctx.b.scalar(DTypeCode::Bool, 0)})};
}

std::vector<Expr> logicalOrOp(NodeContext& ctx) {
  auto [a, b] = binaryOperands(ctx);
  return {logicalOr(ctx.b, a, b)};
}

std::vector<Expr> logicalXor(NodeContext& ctx) {
  auto [a, b] = binaryOperands(ctx);
  return {ctx.b.call(OpId::Where, {a, logicalNot(ctx.b, b), b})};
}

template <OpId kOp>
std::vector<Expr> unary(NodeContext& ctx) {
  ctx.ignoreAttr("consumed_inputs");
  return {ctx.b.call(kOp, {ctx.input(0)})};
}

std::vector<Expr> reciprocal(NodeContext& ctx) {
  ctx.ignoreAttr("consumed_inputs");
  Expr x = ctx.input(0);
  return {ctx.b.call(OpId::Divide, {ctx.b.scalar(GraphBuilder::dtypeOf(x), 1.0), x})};
}

std::vector<Expr> sign(NodeContext& ctx) {
  Expr x = ctx.input(0);
  DataType dtype = GraphBuilder::dtypeOf(x);
  GraphBuilder& b = ctx.b;
  Expr zero = b.scalar(dtype, 0);
  Expr negative = zero;
  if (!dtype.isUnsigned() && !dtype.isBool())
    negative = b.call(OpId::Where, {b.call(OpId::Less, {x, zero}), b.scalar(dtype, -1), zero});
  return {b.call(OpId::Where, {b.call(OpId::Greater, {x, zero}), b.scalar(dtype, 1), negative})};
}

std::vector<Expr> isNaN(NodeContext& ctx) {
  Expr x = ctx.input(0);
  return {logicalNot(ctx.b, ctx.b.call(OpId::Equal, {x, x}))};
}

std::vector<Expr> isInf(NodeContext& ctx) {
  Expr x = ctx.input(0);
  bool negative = ctx.attrInt("detect_negative", 1) != 0;
  bool positive = ctx.attrInt("detect_positive", 1) != 0;
  DataType dtype = GraphBuilder::dtypeOf(x);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  Expr pos = ctx.b.call(OpId::Equal, {x, ctx.b.scalar(dtype, kInf)});
  Expr neg = ctx.b.call(OpId::Equal, {x, ctx.b.scalar(dtype, -kInf)});
  if (positive && negative) return {logicalOr(ctx.b, pos, neg)};
  if (positive) return {pos};
  if (negative) return {neg};
  return {ctx.b.call(OpId::Equal, {x, ctx.b.scalar(dtype, std::nan(""))})};  // always false
}

std::vector<Expr> clip(NodeContext& ctx) {
  Expr x = ctx.input(0);
  DataType dtype = GraphBuilder::dtypeOf(x);
  GraphBuilder& b = ctx.b;
  // Bounds as expressions (scalars) and, when known at import, as numbers.
  Expr lo, hi;
  std::optional<double> loValue, hiValue;
  if (ctx.opset < 11) {
    ctx.ignoreAttr("consumed_inputs");
    if (ctx.hasAttr("min")) loValue = ctx.attrFloat("min", 0);
    if (ctx.hasAttr("max")) hiValue = ctx.attrFloat("max", 0);
    if (loValue) lo = b.scalar(dtype, *loValue);
    if (hiValue) hi = b.scalar(dtype, *hiValue);
  } else {
    auto bound = [&](size_t i, Expr& e, std::optional<double>& value) {
      if (!ctx.hasInput(i)) return;
      e = ctx.input(i);
      if (GraphBuilder::rankOf(e) != 0 && GraphBuilder::tensorType(e).numElements() != 1)
        ctx.invalid("the bounds of Clip must be scalars");
      e = b.reshape(e, {});
      if (std::optional<NDArray> v = b.tryEvaluate(e)) value = v->getAsDouble(0);
    };
    bound(1, lo, loValue);
    bound(2, hi, hiValue);
  }
  if (loValue && hiValue && dtype.isFloat() && *loValue <= *hiValue)
    return {b.call(OpId::Clip, {x}, {{"a_min", AttrValue::floating(*loValue)}, {"a_max", AttrValue::floating(*hiValue)}})};
  // One-sided, runtime or integer bounds: min(max(x, lo), hi), which is also
  // what ONNX specifies when lo > hi (every element becomes hi).
  Expr out = x;
  if (lo) out = b.call(OpId::Maximum, {out, lo});
  if (hi) out = b.call(OpId::Minimum, {out, hi});
  return {out};
}

std::vector<Expr> where(NodeContext& ctx) { return {ctx.b.call(OpId::Where, {ctx.input(0), ctx.input(1), ctx.input(2)})}; }

std::vector<Expr> cast(NodeContext& ctx) {
  int32_t to = 0;
  if (ctx.opset < 6) {
    // Cast-1 names the target type as a string ("FLOAT", "INT64", ...).
    std::string name = ctx.attrString("to", "");
    onnx::TensorProto::DataType parsed;
    if (!onnx::TensorProto::DataType_Parse(name, &parsed)) ctx.invalid("unknown cast target '" + name + "'");
    to = parsed;
  } else {
    to = static_cast<int32_t>(ctx.attrInt("to", 0));
  }
  std::optional<DataType> dtype = dtypeFromOnnx(to);
  if (!dtype) ctx.unsupported("cast to " + onnxTypeName(to));
  ctx.ignoreAttr("saturate");  // only affects float8 targets, which the IR lacks
  return {ctx.b.cast(ctx.input(0), *dtype)};
}

std::vector<Expr> castLike(NodeContext& ctx) { return {ctx.b.cast(ctx.input(0), GraphBuilder::dtypeOf(ctx.input(1)))}; }

std::vector<Expr> identity(NodeContext& ctx) { return {ctx.input(0)}; }

}  // namespace

void addElementwiseConverters(ConverterTable& t) {
  t["Add"] = binary<OpId::Add>;
  t["Sub"] = binary<OpId::Subtract>;
  t["Mul"] = binary<OpId::Multiply>;
  t["Div"] = binary<OpId::Divide>;
  t["Pow"] = pow;
  t["Mod"] = mod;
  t["Equal"] = binary<OpId::Equal>;
  t["Less"] = binary<OpId::Less>;
  t["Greater"] = binary<OpId::Greater>;
  t["LessOrEqual"] = lessOrEqual;
  t["GreaterOrEqual"] = greaterOrEqual;
  t["Max"] = variadic<OpId::Maximum>;
  t["Min"] = variadic<OpId::Minimum>;
  t["Sum"] = variadic<OpId::Add>;
  t["Mean"] = mean;
  t["Not"] = logicalNotOp;
  t["And"] = logicalAnd;
  t["Or"] = logicalOrOp;
  t["Xor"] = logicalXor;
  t["Neg"] = unary<OpId::Negative>;
  t["Abs"] = unary<OpId::Abs>;
  t["Floor"] = unary<OpId::Floor>;
  t["Ceil"] = unary<OpId::Ceil>;
  t["Round"] = unary<OpId::Round>;
  t["Sqrt"] = unary<OpId::Sqrt>;
  t["Exp"] = unary<OpId::Exp>;
  t["Log"] = unary<OpId::Log>;
  t["Erf"] = unary<OpId::Erf>;
  t["Sin"] = unary<OpId::Sin>;
  t["Cos"] = unary<OpId::Cos>;
  t["Tan"] = unary<OpId::Tan>;
  t["Asin"] = unary<OpId::Asin>;
  t["Acos"] = unary<OpId::Acos>;
  t["Atan"] = unary<OpId::Atan>;
  t["Sinh"] = unary<OpId::Sinh>;
  t["Cosh"] = unary<OpId::Cosh>;
  t["Asinh"] = unary<OpId::Asinh>;
  t["Acosh"] = unary<OpId::Acosh>;
  t["Atanh"] = unary<OpId::Atanh>;
  t["Tanh"] = unary<OpId::Tanh>;
  t["Sigmoid"] = unary<OpId::Sigmoid>;
  t["Relu"] = unary<OpId::Relu>;
  t["Reciprocal"] = reciprocal;
  t["Sign"] = sign;
  t["IsNaN"] = isNaN;
  t["IsInf"] = isInf;
  t["Clip"] = clip;
  t["Where"] = where;
  t["Cast"] = cast;
  t["CastLike"] = castLike;
  t["Identity"] = identity;
}

}  // namespace passlab::onnx_import
