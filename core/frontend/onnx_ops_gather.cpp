// ONNX indexing ops without a counterpart in the op table, written exactly in
// terms of `take`: GatherElements (flat indices computed from the runtime
// indices), OneHot (a comparison against a constant range), Compress (the
// selected positions, known once the condition is), and the two losses built
// on an element gather, NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
#include <numeric>

#include "core/frontend/onnx_context.h"

namespace passlab::onnx_import {

namespace {

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

/// `indices` (any integer type) as int64 with negative entries counted from
/// the back of an axis of extent `extent`.
Expr normalizedIndices(GraphBuilder& b, Expr indices, int64_t extent) {
  indices = b.cast(std::move(indices), DTypeCode::Int64);
  Expr zero = b.scalar(DTypeCode::Int64, 0);
  return b.call(OpId::Where, {b.call(OpId::Less, {indices, zero}), b.withScalar(OpId::Add, indices, static_cast<double>(extent)), indices});
}

/// out[p] = data[p with its `axis` coordinate replaced by indices[p]] for
/// int64 indices within range: a take from the flattened data at
/// base(p) + indices[p] * stride(axis), where base(p), the other coordinates'
/// contribution, is a constant.
Expr gatherAlongAxis(NodeContext& ctx, const Expr& data, const Expr& indices, int64_t axis) {
  GraphBuilder& b = ctx.b;
  const std::vector<int64_t> dataShape = GraphBuilder::shapeOf(data), idxShape = GraphBuilder::shapeOf(indices);
  int64_t rank = static_cast<int64_t>(dataShape.size());
  if (static_cast<int64_t>(idxShape.size()) != rank) ctx.invalid("indices must have the rank of the data");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && idxShape[d] > dataShape[d]) ctx.invalid("indices extend beyond the data outside the gather axis");
  std::vector<int64_t> dataStrides = rowMajorStrides(dataShape), idxStrides = rowMajorStrides(idxShape);
  NDArray base(DTypeCode::Int64, idxShape);
  auto baseValues = base.mutableValues<int64_t>();
  for (int64_t flat = 0; flat < static_cast<int64_t>(baseValues.size()); ++flat) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis) offset += (flat / idxStrides[d] % idxShape[d]) * dataStrides[d];
    baseValues[flat] = offset;
  }
  Expr scaled = b.withScalar(OpId::Multiply, indices, static_cast<double>(dataStrides[axis]));
  // take without an axis indexes the flattened data.
  return b.call(OpId::Take, {data, b.call(OpId::Add, {b.constant(base), scaled})});
}

std::vector<Expr> gatherElements(NodeContext& ctx) {
  Expr data = ctx.input(0);
  int64_t axis = normalizeOnnxAxis(ctx.attrInt("axis", 0), GraphBuilder::rankOf(data));
  Expr indices = normalizedIndices(ctx.b, ctx.input(1), GraphBuilder::shapeOf(data)[axis]);
  return {gatherAlongAxis(ctx, data, indices, axis)};
}

/// The negative log-likelihood of `logProb` [N, C, d...] at `target` [N, d...]
/// as ONNX defines it: ignored targets contribute 0, optional per-class
/// weights scale each term, and "mean" divides by the summed weights (or by
/// the element count when there are no weights and no ignore_index).
Expr negativeLogLikelihood(NodeContext& ctx, const Expr& logProb, const Expr& target, const Expr& weight) {
  GraphBuilder& b = ctx.b;
  std::string reduction = ctx.attrString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") ctx.invalid("unknown reduction \"" + reduction + "\"");
  std::optional<int64_t> ignoreIndex = ctx.attrIntOpt("ignore_index");
  DataType dtype = GraphBuilder::dtypeOf(logProb);
  if (GraphBuilder::rankOf(logProb) < 2) ctx.invalid("input must be [N, C, ...]");
  Expr t = b.cast(target, DTypeCode::Int64);
  Expr ignored;
  if (ignoreIndex) {
    // Ignored targets may lie outside [0, C): read class 0 there and drop it.
    ignored = b.call(OpId::Equal, {t, b.scalar(DTypeCode::Int64, static_cast<double>(*ignoreIndex))});
    t = b.call(OpId::Where, {ignored, b.scalar(DTypeCode::Int64, 0), t});
  }
  Expr picked = b.squeeze(gatherAlongAxis(ctx, logProb, b.expandDims(t, 1), 1), {1});
  Expr zero = b.scalar(dtype, 0);
  Expr loss = b.call(OpId::Negative, {picked});
  if (ignored) loss = b.call(OpId::Where, {ignored, zero, loss});
  Expr weights;
  if (weight) {
    weights = b.call(OpId::Take, {b.cast(weight, dtype), t}, {{"axis", AttrValue::integer(0)}});
    if (ignored) weights = b.call(OpId::Where, {ignored, zero, weights});
  } else if (ignored) {
    weights = b.call(OpId::Where, {ignored, zero, b.scalar(dtype, 1)});
  }
  if (weights) loss = b.call(OpId::Multiply, {weights, loss});
  if (reduction == "none") return loss;
  Expr total = b.reduce(OpId::Sum, loss, std::nullopt, false);
  if (reduction == "sum") return total;
  if (weights) return b.call(OpId::Divide, {total, b.reduce(OpId::Sum, b.broadcastTo(weights, GraphBuilder::shapeOf(loss)), std::nullopt, false)});
  return b.reduce(OpId::Mean, loss, std::nullopt, false);
}

std::vector<Expr> negativeLogLikelihoodLoss(NodeContext& ctx) {
  return {negativeLogLikelihood(ctx, ctx.input(0), ctx.input(1), ctx.hasInput(2) ? ctx.input(2) : nullptr)};
}

/// NLL of the log-softmax over the class axis; the optional second output is
/// that log-probability.
std::vector<Expr> softmaxCrossEntropyLoss(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  Expr shifted = b.call(OpId::Subtract, {x, b.reduce(OpId::Max, x, std::vector<int64_t>{1}, true)});
  Expr logProb = b.call(OpId::Subtract, {shifted, b.call(OpId::Log, {b.reduce(OpId::Sum, b.call(OpId::Exp, {shifted}), std::vector<int64_t>{1}, true)})});
  Expr loss = negativeLogLikelihood(ctx, logProb, ctx.input(1), ctx.hasInput(2) ? ctx.input(2) : nullptr);
  return {loss, logProb};
}

/// where(indices == range(depth), on, off), the range laid along `axis`.
std::vector<Expr> oneHot(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr indices = ctx.input(0), values = ctx.input(2);
  NDArray depthValue = ctx.constantInput(1, "depth");
  if (depthValue.numElements() != 1) ctx.invalid("depth must be a scalar");
  int64_t depth = static_cast<int64_t>(depthValue.getAsDouble(0));
  if (depth <= 0) ctx.invalid("depth must be positive");
  if (GraphBuilder::tensorType(values).numElements() != 2) ctx.invalid("values must hold [off, on]");
  int64_t outRank = GraphBuilder::rankOf(indices) + 1;
  int64_t axis = normalizeOnnxAxis(ctx.attrInt("axis", -1), outRank);
  std::vector<int64_t> rangeShape(static_cast<size_t>(outRank), 1);
  rangeShape[axis] = depth;
  NDArray range(DTypeCode::Int64, rangeShape);
  std::iota(range.mutableValues<int64_t>().begin(), range.mutableValues<int64_t>().end(), int64_t{0});
  Expr idx = b.expandDims(normalizedIndices(b, indices, depth), axis);
  Expr flatValues = b.reshape(values, {2});
  auto pick = [&](int64_t i) {
    NDArray at(DTypeCode::Int64, {});
    at.mutableValues<int64_t>()[0] = i;
    return b.call(OpId::Take, {flatValues, b.constant(at)}, {{"axis", AttrValue::integer(0)}});
  };
  return {b.call(OpId::Where, {b.call(OpId::Equal, {idx, b.constant(range)}), pick(1), pick(0)})};
}

/// The positions where the (import-time) condition holds, taken along `axis`
/// (or from the flattened input when there is no axis).
std::vector<Expr> compress(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  NDArray condition = ctx.constantInput(1, "condition");
  std::optional<int64_t> axisAttr = ctx.attrIntOpt("axis");
  int64_t extent = GraphBuilder::tensorType(x).numElements();
  if (axisAttr) {
    int64_t axis = normalizeOnnxAxis(*axisAttr, GraphBuilder::rankOf(x));
    axisAttr = axis;
    extent = GraphBuilder::shapeOf(x)[axis];
  }
  std::vector<int64_t> picked;
  for (int64_t i = 0; i < std::min(extent, condition.numElements()); ++i)
    if (condition.getAsDouble(i) != 0) picked.push_back(i);
  NDArray positions(DTypeCode::Int64, {static_cast<int64_t>(picked.size())});
  std::copy(picked.begin(), picked.end(), positions.mutableValues<int64_t>().begin());
  AttrDict attrs;
  if (axisAttr) attrs.set("axis", AttrValue::integer(*axisAttr));
  return {b.call(OpId::Take, {x, b.constant(positions)}, attrs)};
}

}  // namespace

void addGatherConverters(ConverterTable& t) {
  t["GatherElements"] = gatherElements;
  t["OneHot"] = oneHot;
  t["Compress"] = compress;
  t["NegativeLogLikelihoodLoss"] = negativeLogLikelihoodLoss;
  t["SoftmaxCrossEntropyLoss"] = softmaxCrossEntropyLoss;
}

}  // namespace passlab::onnx_import
