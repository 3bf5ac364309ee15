// ONNX convolutions, Gemm/MatMul and the normalizations. 1-d convolutions are
// lifted to nn.conv2d with a unit height, as TVM does; more than two spatial
// dimensions have no op in the table and are reported as unsupported.
#include <numeric>

#include "core/frontend/onnx_context.h"
#include "core/frontend/onnx_proto_util.h"

namespace passlab::onnx_import {

namespace {

std::vector<int64_t> ones(size_t n) { return std::vector<int64_t>(n, 1); }

/// Spatial extents: every dimension after N and C.
std::vector<int64_t> spatialOf(const Expr& x) {
  const auto& s = GraphBuilder::shapeOf(x);
  return std::vector<int64_t>(s.begin() + std::min<size_t>(2, s.size()), s.end());
}

void requireSpatialRank(NodeContext& ctx, const Expr& x) {
  int64_t rank = GraphBuilder::rankOf(x);
  if (rank < 3) ctx.invalid("input must have at least 3 dimensions [N, C, ...], got " + typeToString(x->checkedType));
  if (rank > 4)
    ctx.unsupported(std::to_string(rank - 2) + "-d " + ctx.opType() +
                    " (the op table has 2-d convolutions and pools; 1-d ones are lifted to 2-d)");
}

AttrValue padding2d(const Window& w) { return AttrValue::ints({w.padBegin[0], w.padBegin[1], w.padEnd[0], w.padEnd[1]}); }

std::vector<Expr> conv(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0), w = ctx.input(1);
  requireSpatialRank(ctx, x);
  if (GraphBuilder::rankOf(w) != GraphBuilder::rankOf(x))
    ctx.invalid("weight " + typeToString(w->checkedType) + " must have the rank of the input " + typeToString(x->checkedType));
  std::vector<int64_t> kernel = spatialOf(w);
  Window win = readWindow(ctx, spatialOf(x), kernel);
  int64_t group = ctx.attrInt("group", 1);
  int64_t channels = GraphBuilder::shapeOf(w)[0];
  bool lifted = GraphBuilder::rankOf(x) == 3;
  if (lifted) {
    x = b.expandDims(x, 2);
    w = b.expandDims(w, 2);
    win = lift1dWindow(win);
  }
  AttrDict attrs{{"strides", AttrValue::ints(win.strides)},
                 {"padding", padding2d(win)},
                 {"dilation", AttrValue::ints(win.dilations)},
                 {"groups", AttrValue::integer(group)},
                 {"channels", AttrValue::integer(channels)},
                 {"kernel_size", AttrValue::ints(win.kernel)}};
  Expr y = b.call(OpId::Conv2D, {x, w}, attrs);
  if (ctx.hasInput(2)) y = b.call(OpId::BiasAdd, {y, ctx.input(2)}, {{"axis", AttrValue::integer(1)}});
  if (lifted) y = b.squeeze(y, {2});
  return {y};
}

std::vector<Expr> convTranspose(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0), w = ctx.input(1);
  requireSpatialRank(ctx, x);
  if (GraphBuilder::rankOf(w) != GraphBuilder::rankOf(x))
    ctx.invalid("weight " + typeToString(w->checkedType) + " must have the rank of the input " + typeToString(x->checkedType));
  std::vector<int64_t> in = spatialOf(x), kernel = spatialOf(w);
  size_t n = in.size();
  if (auto ks = ctx.attrIntsOpt("kernel_shape"); ks && *ks != kernel)
    ctx.invalid("kernel_shape " + listText(*ks) + " does not match the weight " + typeToString(w->checkedType));
  std::vector<int64_t> strides = ctx.attrInts("strides", ones(n));
  std::vector<int64_t> dilations = ctx.attrInts("dilations", ones(n));
  std::vector<int64_t> outputPadding = ctx.attrInts("output_padding", std::vector<int64_t>(n, 0));
  std::vector<int64_t> pads = ctx.attrInts("pads", std::vector<int64_t>(2 * n, 0));
  std::optional<std::vector<int64_t>> outputShape = ctx.attrIntsOpt("output_shape");
  std::string autoPad = ctx.attrString("auto_pad", "NOTSET");
  int64_t group = ctx.attrInt("group", 1);
  if (strides.size() != n || dilations.size() != n || outputPadding.size() != n || pads.size() != 2 * n)
    ctx.invalid("strides, dilations, output_padding and pads must match the " + std::to_string(n) + " spatial dimensions");
  if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER" && autoPad != "VALID")
    ctx.invalid("unknown auto_pad \"" + autoPad + "\"");
  if (autoPad == "VALID") std::fill(pads.begin(), pads.end(), 0);
  // An explicit output_shape (or SAME auto-padding, which asks for in * stride)
  // decides the padding: total = stride*(in-1) + output_padding + dilated kernel - out.
  if (outputShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    std::vector<int64_t> target(n);
    for (size_t i = 0; i < n; ++i) target[i] = in[i] * strides[i];
    if (outputShape) {
      if (outputShape->size() != n && outputShape->size() != n + 2)
        ctx.invalid("output_shape " + listText(*outputShape) + " must list the " + std::to_string(n) + " spatial extents");
      target.assign(outputShape->end() - static_cast<std::ptrdiff_t>(n), outputShape->end());
    }
    for (size_t i = 0; i < n; ++i) {
      int64_t total = strides[i] * (in[i] - 1) + outputPadding[i] + (kernel[i] - 1) * dilations[i] + 1 - target[i];
      if (total < 0) {
        // The requested output is larger than the padding-free one: the extra
        // rows/columns come from output padding.
        outputPadding[i] -= total;
        total = 0;
      }
      bool upper = autoPad == "SAME_UPPER";
      pads[i] = upper ? total / 2 : total - total / 2;
      pads[i + n] = total - pads[i];
    }
  }
  for (int64_t p : pads)
    if (p < 0) ctx.unsupported("negative pads " + listText(pads));
  bool lifted = n == 1;
  if (lifted) {
    x = b.expandDims(x, 2);
    w = b.expandDims(w, 2);
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    outputPadding.insert(outputPadding.begin(), 0);
    kernel.insert(kernel.begin(), 1);
    pads = {0, pads[0], 0, pads[1]};
  }
  AttrDict attrs{{"channels", AttrValue::integer(GraphBuilder::shapeOf(w)[1] * group)},
                 {"kernel_size", AttrValue::ints(kernel)},
                 {"strides", AttrValue::ints(strides)},
                 {"output_padding", AttrValue::ints(outputPadding)},
                 {"padding", AttrValue::ints({pads[0], pads[1], pads[2], pads[3]})},
                 {"dilation", AttrValue::ints(dilations)},
                 {"groups", AttrValue::integer(group)}};
  Expr y = b.call(OpId::Conv2DTranspose, {x, w}, attrs);
  if (ctx.hasInput(2)) y = b.call(OpId::BiasAdd, {y, ctx.input(2)}, {{"axis", AttrValue::integer(1)}});
  if (lifted) y = b.squeeze(y, {2});
  return {y};
}

/// alpha * A' B' + beta * C, with nn.dense taking B' as [N, K].
std::vector<Expr> gemm(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr a = ctx.input(0), w = ctx.input(1);
  if (GraphBuilder::rankOf(a) != 2 || GraphBuilder::rankOf(w) != 2)
    ctx.invalid("A and B must be 2-d, got " + typeToString(a->checkedType) + " and " + typeToString(w->checkedType));
  double alpha = ctx.attrFloat("alpha", 1.0), beta = ctx.attrFloat("beta", 1.0);
  bool transA = ctx.attrInt("transA", 0) != 0, transB = ctx.attrInt("transB", 0) != 0;
  ctx.ignoreAttr("broadcast");  // opsets < 7: C is broadcast either way
  if (transA) a = b.transpose(a, {1, 0});
  if (!transB) w = b.transpose(w, {1, 0});
  Expr y = b.call(OpId::Dense, {a, w}, {{"units", AttrValue::integer(GraphBuilder::shapeOf(w)[0])}});
  if (alpha != 1.0) y = b.withScalar(OpId::Multiply, y, alpha);
  if (ctx.hasInput(2)) {
    Expr c = ctx.input(2);
    if (beta != 1.0) c = b.withScalar(OpId::Multiply, c, beta);
    y = b.call(OpId::Add, {y, c});
  }
  return {y};
}

/// NumPy matmul: 1-d operands are promoted (and the promoted axis dropped
/// again), a 2-d right operand maps to nn.dense, anything else to
/// nn.batch_matmul over the broadcast batch dimensions.
std::vector<Expr> matmul(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr a = ctx.input(0), w = ctx.input(1);
  std::vector<int64_t> aShape = GraphBuilder::shapeOf(a), bShape = GraphBuilder::shapeOf(w);
  if (aShape.empty() || bShape.empty()) ctx.invalid("MatMul operands must have at least one dimension");
  bool aVector = aShape.size() == 1, bVector = bShape.size() == 1;
  if (aVector) a = b.reshape(a, {1, aShape[0]});
  if (bVector) w = b.reshape(w, {bShape[0], 1});
  aShape = GraphBuilder::shapeOf(a);
  bShape = GraphBuilder::shapeOf(w);
  int64_t m = aShape[aShape.size() - 2], n = bShape.back();
  Expr y;
  std::vector<int64_t> outShape;
  if (bShape.size() == 2) {
    y = b.call(OpId::Dense, {a, b.transpose(w, {1, 0})}, {{"units", AttrValue::integer(n)}});
    outShape = GraphBuilder::shapeOf(y);
  } else {
    std::vector<int64_t> aBatch(aShape.begin(), aShape.end() - 2), bBatch(bShape.begin(), bShape.end() - 2);
    size_t rank = std::max(aBatch.size(), bBatch.size());
    aBatch.insert(aBatch.begin(), rank - aBatch.size(), 1);
    bBatch.insert(bBatch.begin(), rank - bBatch.size(), 1);
    std::vector<int64_t> batch(rank);
    for (size_t i = 0; i < rank; ++i) {
      if (aBatch[i] != bBatch[i] && aBatch[i] != 1 && bBatch[i] != 1)
        ctx.invalid("batch dimensions of " + typeToString(a->checkedType) + " and " + typeToString(w->checkedType) + " do not broadcast");
      batch[i] = std::max(aBatch[i], bBatch[i]);
    }
    int64_t batchSize = std::accumulate(batch.begin(), batch.end(), int64_t{1}, std::multiplies<>());
    int64_t k = aShape.back();
    // batch_matmul broadcasts a batch of 1 itself; other mismatches are
    // broadcast explicitly before flattening the batch dimensions.
    auto flatten = [&](Expr e, const std::vector<int64_t>& own, int64_t rows, int64_t cols) {
      int64_t ownSize = std::accumulate(own.begin(), own.end(), int64_t{1}, std::multiplies<>());
      if (ownSize != 1 && own != batch) {
        std::vector<int64_t> full = batch;
        full.push_back(rows);
        full.push_back(cols);
        e = b.broadcastTo(e, full);
        ownSize = batchSize;
      }
      return b.reshape(e, {ownSize, rows, cols});
    };
    Expr a3 = flatten(a, aBatch, m, k), b3 = flatten(w, bBatch, k, n);
    y = b.call(OpId::BatchMatmul, {a3, b3}, {{"transpose_b", AttrValue::boolean(false)}});
    outShape = batch;
    outShape.push_back(m);
    outShape.push_back(n);
    y = b.reshape(y, outShape);
  }
  // Drop the promoted axes: [..., 1, n] for a vector A, [..., m, 1] for a vector B.
  if (aVector || bVector) {
    std::vector<int64_t> finalShape(outShape.begin(), outShape.end() - 2);
    if (!aVector) finalShape.push_back(m);
    if (!bVector) finalShape.push_back(n);
    y = b.reshape(y, finalShape);
  }
  return {y};
}

std::vector<Expr> batchNormalization(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  ctx.ignoreAttr("momentum");  // only updates running statistics in training
  ctx.ignoreAttr("consumed_inputs");
  ctx.ignoreAttr("is_test");
  if (ctx.opset < 9 && ctx.attrInt("spatial", 1) != 1) ctx.unsupported("spatial=0 (per-activation statistics)");
  if (ctx.attrInt("training_mode", 0) != 0) ctx.unsupported("training_mode=1");
  for (size_t i = 1; i < ctx.outputCount(); ++i)
    if (ctx.outputUsed(i)) ctx.unsupported("training outputs (running mean and variance)");
  Expr x = ctx.input(0);
  DataType dtype = GraphBuilder::dtypeOf(x);
  // Since opset 15 scale/bias and mean/var may have their own float types.
  std::vector<Expr> args{x};
  for (size_t i = 1; i < 5; ++i) args.push_back(b.cast(ctx.input(i), dtype));
  double epsilon = ctx.attrFloat("epsilon", 1e-5);
  Expr bn = b.call(OpId::BatchNorm, args, {{"axis", AttrValue::integer(1)}, {"epsilon", AttrValue::floating(epsilon)}});
  return {b.tupleItem(bn, 0)};
}

/// A per-channel vector [C] shaped to broadcast against [N, C, d1, ...].
Expr perChannel(GraphBuilder& b, const Expr& v, int64_t rank) {
  std::vector<int64_t> shape(static_cast<size_t>(rank - 1), 1);
  shape[0] = GraphBuilder::tensorType(v).numElements();
  return b.reshape(v, shape);
}

std::vector<Expr> instanceNormalization(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  ctx.ignoreAttr("consumed_inputs");
  Expr x = ctx.input(0);
  int64_t rank = GraphBuilder::rankOf(x);
  if (rank < 3) ctx.invalid("input must be [N, C, d1, ...], got " + typeToString(x->checkedType));
  double epsilon = ctx.attrFloat("epsilon", 1e-5);
  std::vector<int64_t> axes(static_cast<size_t>(rank - 2));
  std::iota(axes.begin(), axes.end(), 2);
  Expr centered = b.call(OpId::Subtract, {x, b.reduce(OpId::Mean, x, axes, true)});
  Expr variance = b.reduce(OpId::Mean, b.call(OpId::Multiply, {centered, centered}), axes, true);
  Expr normalized = b.call(OpId::Divide, {centered, b.call(OpId::Sqrt, {b.withScalar(OpId::Add, variance, epsilon)})});
  Expr scaled = b.call(OpId::Multiply, {normalized, perChannel(b, ctx.input(1), rank)});
  return {b.call(OpId::Add, {scaled, perChannel(b, ctx.input(2), rank)})};
}

std::vector<Expr> layerNormalization(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  const std::vector<int64_t> shape = GraphBuilder::shapeOf(x);
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t axis = normalizeOnnxAxis(ctx.attrInt("axis", -1), rank);
  double epsilon = ctx.attrFloat("epsilon", 1e-5);
  int64_t stashType = ctx.attrInt("stash_type", onnx::TensorProto::FLOAT);
  DataType dtype = GraphBuilder::dtypeOf(x);
  std::vector<int64_t> prefix(shape.begin(), shape.begin() + axis), suffix(shape.begin() + axis, shape.end());
  int64_t inner = std::accumulate(suffix.begin(), suffix.end(), int64_t{1}, std::multiplies<>());
  // nn.layer_norm normalizes one axis: the normalized dimensions are flattened
  // into one, and scale/bias (broadcastable to them) flattened alike.
  auto flatParam = [&](const Expr& p) { return b.reshape(b.broadcastTo(p, suffix), {inner}); };
  Expr scale = flatParam(b.cast(ctx.input(1), dtype));
  Expr bias = ctx.hasInput(2) ? flatParam(b.cast(ctx.input(2), dtype))
                              : b.call(OpId::Zeros, {}, {{"shape", AttrValue::ints({inner})}, {"dtype", AttrValue::string(std::string(dtype.name()))}});
  std::vector<int64_t> flatShape = prefix;
  flatShape.push_back(inner);
  Expr y = b.call(OpId::LayerNorm, {b.reshape(x, flatShape), scale, bias},
                  {{"axis", AttrValue::integer(-1)}, {"epsilon", AttrValue::floating(epsilon)}});
  std::vector<Expr> out{b.reshape(y, shape)};
  if (ctx.outputUsed(1) || ctx.outputUsed(2)) {
    // The statistics outputs have the stash type and keep reduced dimensions.
    std::optional<DataType> stash = dtypeFromOnnx(static_cast<int32_t>(stashType));
    if (!stash || !stash->isFloat()) ctx.unsupported("stash_type " + std::to_string(stashType));
    std::vector<int64_t> axes(suffix.size());
    std::iota(axes.begin(), axes.end(), axis);
    Expr xs = b.cast(x, *stash);
    Expr mean = b.reduce(OpId::Mean, xs, axes, true);
    Expr centered = b.call(OpId::Subtract, {xs, mean});
    Expr variance = b.reduce(OpId::Mean, b.call(OpId::Multiply, {centered, centered}), axes, true);
    out.push_back(mean);
    out.push_back(b.call(OpId::Rsqrt, {b.withScalar(OpId::Add, variance, epsilon)}));
  }
  return out;
}

/// (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9), the ONNX function body.
std::vector<Expr> meanVarianceNormalization(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  std::vector<int64_t> axes = ctx.attrInts("axes", {0, 2, 3});
  for (int64_t& a : axes) a = normalizeOnnxAxis(a, GraphBuilder::rankOf(x), "axes entry");
  Expr mean = b.reduce(OpId::Mean, x, axes, true);
  Expr meanOfSquares = b.reduce(OpId::Mean, b.call(OpId::Multiply, {x, x}), axes, true);
  Expr variance = b.call(OpId::Subtract, {meanOfSquares, b.call(OpId::Multiply, {mean, mean})});
  Expr stddev = b.withScalar(OpId::Add, b.call(OpId::Sqrt, {variance}), 1e-9);
  return {b.call(OpId::Divide, {b.call(OpId::Subtract, {x, mean}), stddev})};
}

}  // namespace

Window readWindow(NodeContext& ctx, const std::vector<int64_t>& inSpatial, std::optional<std::vector<int64_t>> kernel,
                  bool readDilations) {
  size_t n = inSpatial.size();
  Window w;
  std::optional<std::vector<int64_t>> ks = ctx.attrIntsOpt("kernel_shape");
  if (ks && kernel && *ks != *kernel) ctx.invalid("kernel_shape " + listText(*ks) + " does not match the weight's " + listText(*kernel));
  if (!ks && !kernel) ctx.invalid("kernel_shape is required");
  w.kernel = ks ? *ks : *kernel;
  w.strides = ctx.attrInts("strides", ones(n));
  w.dilations = readDilations ? ctx.attrInts("dilations", ones(n)) : ones(n);
  if (w.kernel.size() != n || w.strides.size() != n || w.dilations.size() != n)
    ctx.invalid("kernel_shape, strides and dilations must have one entry per spatial dimension (" + std::to_string(n) + ")");
  std::string autoPad = ctx.attrString("auto_pad", "NOTSET");
  std::vector<int64_t> pads = ctx.attrInts("pads", std::vector<int64_t>(2 * n, 0));
  if (pads.size() != 2 * n) ctx.invalid("pads " + listText(pads) + " must have 2 x " + std::to_string(n) + " entries");
  w.padBegin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(n));
  w.padEnd.assign(pads.begin() + static_cast<std::ptrdiff_t>(n), pads.end());
  if (autoPad == "VALID") {
    std::fill(w.padBegin.begin(), w.padBegin.end(), 0);
    std::fill(w.padEnd.begin(), w.padEnd.end(), 0);
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    // Output extent ceil(in / stride); the odd padding unit goes at the end
    // (SAME_UPPER) or at the beginning (SAME_LOWER).
    for (size_t i = 0; i < n; ++i) {
      int64_t out = (inSpatial[i] + w.strides[i] - 1) / w.strides[i];
      int64_t total = std::max<int64_t>((out - 1) * w.strides[i] + (w.kernel[i] - 1) * w.dilations[i] + 1 - inSpatial[i], 0);
      int64_t small = total / 2;
      w.padBegin[i] = autoPad == "SAME_UPPER" ? small : total - small;
      w.padEnd[i] = total - w.padBegin[i];
    }
  } else if (autoPad != "NOTSET" && !autoPad.empty()) {
    ctx.invalid("unknown auto_pad \"" + autoPad + "\"");
  }
  for (int64_t p : pads)
    if (p < 0) ctx.unsupported("negative pads " + listText(pads));
  return w;
}

Window lift1dWindow(const Window& w) {
  Window out = w;
  out.kernel.insert(out.kernel.begin(), 1);
  out.strides.insert(out.strides.begin(), 1);
  out.dilations.insert(out.dilations.begin(), 1);
  out.padBegin.insert(out.padBegin.begin(), 0);
  out.padEnd.insert(out.padEnd.begin(), 0);
  return out;
}

void addNnConverters(ConverterTable& t) {
  t["Conv"] = conv;
  t["ConvTranspose"] = convTranspose;
  t["Gemm"] = gemm;
  t["MatMul"] = matmul;
  t["BatchNormalization"] = batchNormalization;
  t["InstanceNormalization"] = instanceNormalization;
  t["LayerNormalization"] = layerNormalization;
  t["MeanVarianceNormalization"] = meanVarianceNormalization;
}

}  // namespace passlab::onnx_import
