// ONNX constants and shape queries: Constant, ConstantOfShape, Shape, Size,
// Range, EyeLike. With static shapes most of these are constants; Shape stays
// a shape_of call (FoldConstant folds it) so the IR mirrors the model.
#include <algorithm>
#include <cmath>

#include "core/frontend/onnx_context.h"
#include "core/frontend/onnx_proto_util.h"

namespace passlab::onnx_import {

namespace {

std::vector<Expr> constant(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  if (std::optional<NDArray> t = ctx.attrTensorOpt("value")) return {b.constant(*t)};
  if (ctx.hasAttr("value_float")) return {b.scalar(DTypeCode::Float32, ctx.attrFloat("value_float", 0))};
  if (ctx.hasAttr("value_int")) {
    NDArray v(DTypeCode::Int64, {});
    v.mutableValues<int64_t>()[0] = ctx.attrInt("value_int", 0);
    return {b.constant(v)};
  }
  if (std::optional<std::vector<double>> fs = ctx.attrFloatsOpt("value_floats")) {
    NDArray v(DTypeCode::Float32, {static_cast<int64_t>(fs->size())});
    for (size_t i = 0; i < fs->size(); ++i) v.mutableValues<float>()[i] = static_cast<float>((*fs)[i]);
    return {b.constant(v)};
  }
  if (std::optional<std::vector<int64_t>> is = ctx.attrIntsOpt("value_ints")) {
    NDArray v(DTypeCode::Int64, {static_cast<int64_t>(is->size())});
    std::copy(is->begin(), is->end(), v.mutableValues<int64_t>().begin());
    return {b.constant(v)};
  }
  for (const char* name : {"sparse_value", "value_string", "value_strings"})
    if (ctx.hasAttr(name)) {
      ctx.ignoreAttr(name);
      ctx.unsupported(std::string("Constant with ") + name);
    }
  ctx.invalid("Constant has no value attribute");
}

std::vector<Expr> constantOfShape(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  std::vector<int64_t> shape = ctx.intsInput(0, "shape");
  for (int64_t d : shape)
    if (d < 0) ctx.invalid("shape " + listText(shape) + " has a negative dimension");
  NDArray value = ctx.attrTensorOpt("value").value_or(NDArray::scalar(DTypeCode::Float32, 0.0));
  if (value.numElements() != 1) ctx.invalid("value must hold exactly one element");
  Expr fill = b.constant(value.reshaped({}));
  return {b.call(OpId::Full, {fill}, {{"shape", AttrValue::ints(shape)}})};
}

std::vector<Expr> shape(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  int64_t rank = GraphBuilder::rankOf(x);
  Expr s = b.call(OpId::ShapeOf, {x});
  // Opset 15 can return a window of the shape: [start, end) with ONNX clamping.
  int64_t start = ctx.attrInt("start", 0), end = ctx.attrInt("end", rank);
  auto clampIndex = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
  start = clampIndex(start);
  end = std::max(clampIndex(end), start);
  if (start == 0 && end == rank) return {s};
  return {b.call(OpId::StridedSlice, {s}, {{"begin", AttrValue::ints({start})}, {"end", AttrValue::ints({end})}})};
}

std::vector<Expr> size(NodeContext& ctx) {
  NDArray v(DTypeCode::Int64, {});
  v.mutableValues<int64_t>()[0] = GraphBuilder::tensorType(ctx.input(0)).numElements();
  return {ctx.b.constant(v)};
}

/// Range has no op in the table, but its output shape depends on its input
/// values, so they must be known at import anyway: it becomes a constant.
std::vector<Expr> range(NodeContext& ctx) {
  NDArray start = ctx.constantInput(0, "start"), limit = ctx.constantInput(1, "limit"), delta = ctx.constantInput(2, "delta");
  DataType dtype = start.dtype();
  if (start.numElements() != 1 || limit.numElements() != 1 || delta.numElements() != 1) ctx.invalid("inputs must be scalars");
  if (dtype.isInt()) {
    int64_t s = start.getAsInt(0), l = limit.getAsInt(0), d = delta.getAsInt(0);
    if (d == 0) ctx.invalid("delta must not be 0");
    int64_t n = std::max<int64_t>((l - s + d + (d > 0 ? -1 : 1)) / d, 0);
    NDArray out(dtype, {n});
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = s + i * d;
      if (dtype.code == DTypeCode::Int64) out.mutableValues<int64_t>()[i] = v;
      else out.setFromDouble(i, static_cast<double>(v));
    }
    return {ctx.b.constant(out)};
  }
  double s = start.getAsDouble(0), l = limit.getAsDouble(0), d = delta.getAsDouble(0);
  if (d == 0) ctx.invalid("delta must not be 0");
  int64_t n = std::max<int64_t>(static_cast<int64_t>(std::ceil((l - s) / d)), 0);
  NDArray out(dtype, {n});
  for (int64_t i = 0; i < n; ++i) out.setFromDouble(i, s + static_cast<double>(i) * d);
  return {ctx.b.constant(out)};
}

std::vector<Expr> eyeLike(NodeContext& ctx) {
  Expr x = ctx.input(0);
  const auto& s = GraphBuilder::shapeOf(x);
  if (s.size() != 2) ctx.invalid("input must be 2-d");
  DataType dtype = GraphBuilder::dtypeOf(x);
  if (std::optional<int64_t> d = ctx.attrIntOpt("dtype")) {
    std::optional<DataType> parsed = dtypeFromOnnx(static_cast<int32_t>(*d));
    if (!parsed) ctx.unsupported("dtype " + onnxTypeName(static_cast<int32_t>(*d)));
    dtype = *parsed;
  }
  int64_t k = ctx.attrInt("k", 0);
  NDArray out(dtype, s);
  for (int64_t i = 0; i < s[0]; ++i)
    if (i + k >= 0 && i + k < s[1]) out.setFromDouble(i * s[1] + i + k, 1.0);
  return {ctx.b.constant(out)};
}

}  // namespace

void addShapeConverters(ConverterTable& t) {
  t["Constant"] = constant;
  t["ConstantOfShape"] = constantOfShape;
  t["Shape"] = shape;
  t["Size"] = size;
  t["Range"] = range;
  t["EyeLike"] = eyeLike;
}

}  // namespace passlab::onnx_import
