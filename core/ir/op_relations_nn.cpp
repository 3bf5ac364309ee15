// Type relations of the neural-network ops: convolutions, dense/matmul,
// normalizations, pools, softmax, pad and resize (TVM's shape rules).
#include <algorithm>
#include <array>

#include "core/ir/op_relations.h"

namespace passlab {

namespace {

/// Positions of the letters of a 4-d layout such as "NCHW" or "HWIO".
struct Layout4 {
  std::string text;
  std::array<size_t, 4> pos{};  // index of letter i of `letters` within `text`
};

/// Parses `layout` as a permutation of `letters` (e.g. "NCHW" for data, "OIHW" for kernels).
Layout4 parseLayout(const AttrValue& v, std::string_view key, std::string_view letters) {
  if (v.kind() != AttrValue::Kind::String) relationError(std::string(key) + " must be a string, got " + v.toString());
  Layout4 out{v.asString()};
  bool ok = out.text.size() == 4;
  for (size_t i = 0; ok && i < 4; ++i) {
    size_t p = out.text.find(letters[i]);
    ok = p != std::string::npos;
    out.pos[i] = p;
  }
  if (!ok)
    relationError(std::string(key) + " \"" + out.text + "\" is not supported (expected a permutation of " +
                  std::string(letters) + ")");
  return out;
}

/// Reads a 4-d tensor in `layout`: returns its extents in the order of `letters`.
std::array<int64_t, 4> dimsIn(const TensorTypeNode& t, const Layout4& layout, std::string_view role, const Type& type) {
  if (t.shape.size() != 4)
    relationError(std::string(role) + " must be 4-d in layout " + layout.text + ", got " + typeToString(type));
  return {t.shape[layout.pos[0]], t.shape[layout.pos[1]], t.shape[layout.pos[2]], t.shape[layout.pos[3]]};
}

/// Builds a shape in `layout` from extents given in `letters` order.
std::vector<int64_t> shapeIn(const Layout4& layout, const std::array<int64_t, 4>& dims) {
  std::vector<int64_t> shape(4);
  for (size_t i = 0; i < 4; ++i) shape[layout.pos[i]] = dims[i];
  return shape;
}

/// A 2-d window parameter given as 1 or 2 values (strides, dilation, pool_size).
std::array<int64_t, 2> pair(const AttrValue& v, std::string_view key, bool positive = true) {
  std::vector<int64_t> xs = intList(v, key);
  if (xs.size() == 1) xs.push_back(xs[0]);
  if (xs.size() != 2) relationError(std::string(key) + " must have 1 or 2 values, got " + v.toString());
  for (int64_t x : xs)
    if (positive ? x <= 0 : x < 0) relationError(std::string(key) + " must be " + (positive ? "positive" : "non-negative") + ", got " + v.toString());
  return {xs[0], xs[1]};
}

/// Padding as TVM accepts it: 1 value (all sides), 2 (top/bottom, left/right)
/// or 4 (top, left, bottom, right). Returns {top, left, bottom, right}.
std::array<int64_t, 4> padding4(const AttrValue& v) {
  std::vector<int64_t> p = intList(v, "padding");
  for (int64_t x : p)
    if (x < 0) relationError("padding must be non-negative, got " + v.toString());
  if (p.size() == 1) return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return {p[0], p[1], p[0], p[1]};
  if (p.size() == 4) return {p[0], p[1], p[2], p[3]};
  relationError("padding must have 1, 2 or 4 values, got " + v.toString());
}

/// Sliding-window output extent; dynamic input gives a dynamic output.
int64_t windowOut(int64_t in, int64_t padTotal, int64_t kernel, int64_t stride, int64_t dilation, bool ceilMode,
                  std::string_view axis) {
  if (isDynamicDim(in) || isDynamicDim(kernel)) return kDynamicDim;
  int64_t dilated = (kernel - 1) * dilation + 1;
  int64_t span = in + padTotal - dilated;
  if (span < 0)
    relationError("window of " + std::to_string(dilated) + " (kernel " + std::to_string(kernel) + ", dilation " +
                  std::to_string(dilation) + ") does not fit input " + std::string(axis) + " extent " + std::to_string(in) +
                  " with padding " + std::to_string(padTotal));
  return (ceilMode ? (span + stride - 1) / stride : span / stride) + 1;
}

/// windowOut on a symbolic input extent (no ceil mode): (in + pad - dilated) // stride + 1.
shape::Dim symWindowOut(const shape::Dim& in, int64_t padTotal, int64_t kernel, int64_t stride, int64_t dilation) {
  if (!in || isDynamicDim(kernel)) return nullptr;
  int64_t dilated = (kernel - 1) * dilation + 1;
  shape::Dim span = shape::add(in, shape::constant(padTotal - dilated));
  return shape::add(shape::floorDiv(span, shape::constant(stride)), shape::constant(1));
}

/// shapeIn for symbolic dims.
std::vector<shape::Dim> symShapeIn(const Layout4& layout, const std::array<shape::Dim, 4>& dims) {
  std::vector<shape::Dim> out(4);
  for (size_t i = 0; i < 4; ++i) out[layout.pos[i]] = dims[i];
  return out;
}

bool dimsDiffer(int64_t a, int64_t b) { return !isDynamicDim(a) && !isDynamicDim(b) && a != b; }

/// Output layout: out_layout, or the data layout when empty.
Layout4 outLayout(const AttrValue& v, const Layout4& dataLayout, std::string_view letters) {
  if (v.kind() == AttrValue::Kind::String && v.asString().empty()) return dataLayout;
  return parseLayout(v, "out_layout", letters);
}

/// The channel axis's extent of a weight-like argument that must be 1-d [C].
void requireVector(std::span<const Type> args, size_t i, int64_t channels, std::string_view role, const Type& data) {
  const TensorTypeNode& t = tensorArg(args, i, role);
  if (t.shape.size() != 1 || dimsDiffer(t.shape[0], channels))
    relationError(std::string(role) + " must have shape (" + std::to_string(channels) + ") to match " +
                  typeToString(data) + ", got " + typeToString(args[i]));
}

/// The operand dtypes of a product (conv2d, dense, matmul): equal, or two
/// integer types (uint8 data and int8 weights of a quantized model, which TVM
/// accepts; out_dtype, usually int32, gives the result type).
void requireProductDTypes(std::span<const Type> args) {
  const TensorTypeNode& a = tensorArg(args, 0);
  const TensorTypeNode& b = tensorArg(args, 1);
  if (a.dtype == b.dtype || (a.dtype.isInt() && b.dtype.isInt())) return;
  relationError("argument dtypes differ: " + typeToString(args[0]) + " and " + typeToString(args[1]) +
                " (only integer operands may differ, as in quantized models)");
}

}  // namespace

Type relConv2D(std::span<const Type> args, const AttrDict& attrs) {
  auto attr = [&attrs](std::string_view key) -> const AttrValue& { return opAttr(OpId::Conv2D, attrs, key); };
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  const TensorTypeNode& weight = tensorArg(args, 1, "weight");
  requireProductDTypes(args);
  Layout4 dl = parseLayout(attr("data_layout"), "data_layout", "NCHW");
  Layout4 kl = parseLayout(attr("kernel_layout"), "kernel_layout", "OIHW");
  auto [n, c, h, w] = dimsIn(data, dl, "data", args[0]);
  auto [o, i, kh, kw] = dimsIn(weight, kl, "weight", args[1]);
  int64_t groups = attr("groups").asInt();
  if (groups <= 0) relationError("groups must be positive, got " + std::to_string(groups));
  if (!isDynamicDim(c) && !isDynamicDim(i) && c != i * groups)
    relationError("input channels " + std::to_string(c) + " of data " + typeToString(args[0]) + " do not match weight " +
                  typeToString(args[1]) + " (" + std::to_string(i) + " per group x " + std::to_string(groups) + " groups)");
  if (!isDynamicDim(o) && o % groups != 0)
    relationError("output channels " + std::to_string(o) + " are not divisible by groups " + std::to_string(groups));
  if (!attr("channels").isNone() && dimsDiffer(attr("channels").asInt(), o))
    relationError("channels=" + std::to_string(attr("channels").asInt()) + " does not match weight " + typeToString(args[1]));
  if (!attr("kernel_size").isNone()) {
    auto ks = pair(attr("kernel_size"), "kernel_size");
    if (dimsDiffer(ks[0], kh) || dimsDiffer(ks[1], kw))
      relationError("kernel_size=" + attr("kernel_size").toString() + " does not match weight " + typeToString(args[1]));
  }
  auto strides = pair(attr("strides"), "strides");
  auto dilation = pair(attr("dilation"), "dilation");
  auto pad = padding4(attr("padding"));
  int64_t oh = windowOut(h, pad[0] + pad[2], kh, strides[0], dilation[0], false, "height");
  int64_t ow = windowOut(w, pad[1] + pad[3], kw, strides[1], dilation[1], false, "width");
  Layout4 ol = outLayout(attr("out_layout"), dl, "NCHW");
  Type r = tensorType(shapeIn(ol, {n, o, oh, ow}), dtypeAttr(attr("out_dtype"), "out_dtype", data.dtype));
  if (!data.hasSymbolicDim()) return r;
  std::array<shape::Dim, 4> sym = {shape::dimOf(data, dl.pos[0]), isDynamicDim(o) ? nullptr : shape::constant(o),
                                   symWindowOut(shape::dimOf(data, dl.pos[2]), pad[0] + pad[2], kh, strides[0], dilation[0]),
                                   symWindowOut(shape::dimOf(data, dl.pos[3]), pad[1] + pad[3], kw, strides[1], dilation[1])};
  return withSymbolicDims(r, symShapeIn(ol, sym));
}

Type relConv2DTranspose(std::span<const Type> args, const AttrDict& attrs) {
  auto attr = [&attrs](std::string_view key) -> const AttrValue& { return opAttr(OpId::Conv2DTranspose, attrs, key); };
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  const TensorTypeNode& weight = tensorArg(args, 1, "weight");
  requireProductDTypes(args);
  Layout4 dl = parseLayout(attr("data_layout"), "data_layout", "NCHW");
  // For a transposed convolution "I" is the data's channel axis and "O" the
  // output channels per group (TVM's default kernel layout is IOHW).
  Layout4 kl = parseLayout(attr("kernel_layout"), "kernel_layout", "OIHW");
  auto [n, c, h, w] = dimsIn(data, dl, "data", args[0]);
  auto [o, i, kh, kw] = dimsIn(weight, kl, "weight", args[1]);
  int64_t groups = attr("groups").asInt();
  if (groups <= 0) relationError("groups must be positive, got " + std::to_string(groups));
  if (dimsDiffer(c, i))
    relationError("input channels " + std::to_string(c) + " of data " + typeToString(args[0]) + " do not match weight " +
                  typeToString(args[1]) + " in layout " + kl.text);
  int64_t outChannels = isDynamicDim(o) ? kDynamicDim : o * groups;
  if (!attr("channels").isNone() && dimsDiffer(attr("channels").asInt(), outChannels))
    relationError("channels=" + std::to_string(attr("channels").asInt()) + " does not match weight " + typeToString(args[1]));
  if (!attr("kernel_size").isNone()) {
    auto ks = pair(attr("kernel_size"), "kernel_size");
    if (dimsDiffer(ks[0], kh) || dimsDiffer(ks[1], kw))
      relationError("kernel_size=" + attr("kernel_size").toString() + " does not match weight " + typeToString(args[1]));
  }
  auto strides = pair(attr("strides"), "strides");
  auto dilation = pair(attr("dilation"), "dilation");
  auto outPad = pair(attr("output_padding"), "output_padding", false);
  auto pad = padding4(attr("padding"));
  auto extent = [](int64_t in, int64_t k, int64_t s, int64_t d, int64_t p, int64_t op) {
    if (isDynamicDim(in) || isDynamicDim(k)) return kDynamicDim;
    return (in - 1) * s - p + (k - 1) * d + 1 + op;
  };
  int64_t oh = extent(h, kh, strides[0], dilation[0], pad[0] + pad[2], outPad[0]);
  int64_t ow = extent(w, kw, strides[1], dilation[1], pad[1] + pad[3], outPad[1]);
  if ((!isDynamicDim(oh) && oh <= 0) || (!isDynamicDim(ow) && ow <= 0))
    relationError("output extent is not positive for data " + typeToString(args[0]));
  Layout4 ol = outLayout(attr("out_layout"), dl, "NCHW");
  return tensorType(shapeIn(ol, {n, outChannels, oh, ow}), dtypeAttr(attr("out_dtype"), "out_dtype", data.dtype));
}

Type relDense(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  const TensorTypeNode& weight = tensorArg(args, 1, "weight");
  requireProductDTypes(args);
  if (data.shape.empty()) relationError("data must have at least 1 dimension, got " + typeToString(args[0]));
  if (weight.shape.size() != 2) relationError("weight must be 2-d [units, in], got " + typeToString(args[1]));
  if (dimsDiffer(data.shape.back(), weight.shape[1]))
    relationError("reduction dimension of data " + typeToString(args[0]) + " does not match weight " + typeToString(args[1]) +
                  " ([units, in])");
  const AttrValue& units = opAttr(OpId::Dense, attrs, "units");
  if (!units.isNone() && dimsDiffer(units.asInt(), weight.shape[0]))
    relationError("units=" + std::to_string(units.asInt()) + " does not match weight " + typeToString(args[1]));
  std::vector<int64_t> out = data.shape;
  out.back() = weight.shape[0];
  Type r = tensorType(std::move(out), dtypeAttr(opAttr(OpId::Dense, attrs, "out_dtype"), "out_dtype", data.dtype));
  if (!anySymbolic(args)) return r;
  std::vector<shape::Dim> dims = shape::dimsOf(data);
  dims.back() = shape::dimOf(weight, 0);
  return withSymbolicDims(r, dims);
}

Type relMatmul(std::span<const Type> args, const AttrDict& attrs) {
  auto attr = [&attrs](std::string_view key) -> const AttrValue& { return opAttr(OpId::Matmul, attrs, key); };
  const TensorTypeNode& a = tensorArg(args, 0, "tensor_a");
  const TensorTypeNode& b = tensorArg(args, 1, "tensor_b");
  requireProductDTypes(args);
  bool ta = attr("transpose_a").asBool(), tb = attr("transpose_b").asBool();
  if (a.shape.size() < (ta ? 2u : 1u)) relationError("tensor_a has too few dimensions: " + typeToString(args[0]));
  if (b.shape.size() != 2) relationError("tensor_b must be 2-d, got " + typeToString(args[1]));
  // Output: a's batch dims, then M, then N. With transpose_a, a is [..., K, M].
  std::vector<int64_t> out(a.shape.begin(), a.shape.end() - 1);
  int64_t k = a.shape.back();
  if (ta) {
    k = a.shape[a.shape.size() - 2];
    out.back() = a.shape.back();
  }
  int64_t kb = tb ? b.shape[1] : b.shape[0];
  int64_t n = tb ? b.shape[0] : b.shape[1];
  if (dimsDiffer(k, kb))
    relationError("reduction dimensions differ: " + typeToString(args[0]) + " and " + typeToString(args[1]) +
                  " (transpose_a=" + (ta ? "True" : "False") + ", transpose_b=" + (tb ? "True" : "False") + ")");
  if (!attr("units").isNone() && dimsDiffer(attr("units").asInt(), n))
    relationError("units=" + std::to_string(attr("units").asInt()) + " does not match " + typeToString(args[1]));
  out.push_back(n);
  Type r = tensorType(std::move(out), dtypeAttr(attr("out_dtype"), "out_dtype", a.dtype));
  if (!anySymbolic(args)) return r;
  std::vector<shape::Dim> dims = shape::dimsOf(a);
  dims.pop_back();
  if (ta) dims.back() = shape::dimOf(a, a.shape.size() - 1);
  dims.push_back(shape::dimOf(b, tb ? 0 : 1));
  return withSymbolicDims(r, dims);
}

Type relBatchMatmul(std::span<const Type> args, const AttrDict& attrs) {
  auto attr = [&attrs](std::string_view key) -> const AttrValue& { return opAttr(OpId::BatchMatmul, attrs, key); };
  const TensorTypeNode& x = tensorArg(args, 0, "x");
  const TensorTypeNode& y = tensorArg(args, 1, "y");
  requireProductDTypes(args);
  if (x.shape.size() != 3 || y.shape.size() != 3)
    relationError("expects 3-d tensors, got " + typeToString(args[0]) + " and " + typeToString(args[1]));
  bool ta = attr("transpose_a").asBool(), tb = attr("transpose_b").asBool();
  int64_t m = ta ? x.shape[2] : x.shape[1], kx = ta ? x.shape[1] : x.shape[2];
  int64_t n = tb ? y.shape[1] : y.shape[2], ky = tb ? y.shape[2] : y.shape[1];
  if (dimsDiffer(kx, ky))
    relationError("reduction dimensions differ: " + typeToString(args[0]) + " and " + typeToString(args[1]) +
                  " (transpose_b=" + (tb ? "True" : "False") + ")");
  int64_t bx = x.shape[0], by = y.shape[0];
  if (dimsDiffer(bx, by) && bx != 1 && by != 1)
    relationError("batch dimensions " + std::to_string(bx) + " and " + std::to_string(by) + " do not broadcast");
  int64_t batch = bx == 1 ? by : bx;
  return tensorType({batch, m, n}, dtypeAttr(attr("out_dtype"), "out_dtype", x.dtype));
}

Type relBiasAdd(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  requireSameDType(args, 0, 2);
  int64_t axis = normalizeAxis(opAttr(OpId::BiasAdd, attrs, "axis").asInt(), data.shape.size());
  requireVector(args, 1, data.shape[axis], "bias", args[0]);
  return args[0];
}

Type relBatchNorm(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  requireSameDType(args, 0, 5);
  int64_t axis = normalizeAxis(opAttr(OpId::BatchNorm, attrs, "axis").asInt(), data.shape.size());
  int64_t c = data.shape[axis];
  const char* roles[] = {"gamma", "beta", "moving_mean", "moving_var"};
  for (size_t i = 1; i < 5; ++i) requireVector(args, i, c, roles[i - 1], args[0]);
  Type vec = tensorType({c}, data.dtype);
  // TVM's batch_norm returns (output, new mean, new variance).
  return tupleType({args[0], vec, vec});
}

Type relLayerNorm(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  requireSameDType(args, 0, 3);
  int64_t axis = normalizeAxis(opAttr(OpId::LayerNorm, attrs, "axis").asInt(), data.shape.size());
  requireVector(args, 1, data.shape[axis], "gamma", args[0]);
  requireVector(args, 2, data.shape[axis], "beta", args[0]);
  return args[0];
}

Type relGroupNorm(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  requireSameDType(args, 0, 3);
  if (!data.dtype.isFloat()) relationError("group_norm expects float data, got " + typeToString(args[0]));
  int64_t groups = opAttr(OpId::GroupNorm, attrs, "num_groups").asInt();
  if (groups <= 0) relationError("num_groups must be positive, got " + std::to_string(groups));
  if (data.unknownRank) return args[0];
  int64_t channel = normalizeAxis(opAttr(OpId::GroupNorm, attrs, "channel_axis").asInt(), data.shape.size(), "channel_axis");
  std::vector<int64_t> seen;
  for (int64_t a : intList(opAttr(OpId::GroupNorm, attrs, "axes"), "axes")) {
    int64_t axis = normalizeAxis(a, data.shape.size(), "axes");
    if (axis == channel)
      relationError("channel_axis must not be in axes, but got channel_axis " + std::to_string(channel) + " and axes " +
                    opAttr(OpId::GroupNorm, attrs, "axes").toString());
    if (std::find(seen.begin(), seen.end(), axis) != seen.end()) relationError("axes lists axis " + std::to_string(axis) + " twice");
    seen.push_back(axis);
  }
  int64_t c = data.shape[channel];
  if (c != kDynamicDim && c % groups != 0)
    relationError("the size of channel_axis must be divisible by " + std::to_string(groups) + ", but got " + std::to_string(c));
  requireVector(args, 1, c, "gamma", args[0]);
  requireVector(args, 2, c, "beta", args[0]);
  return args[0];
}

Type relPool2D(std::span<const Type> args, const AttrDict& attrs) {
  // max_pool2d and avg_pool2d share every field that decides the shape.
  auto attr = [&attrs](std::string_view key) -> const AttrValue& { return opAttr(OpId::MaxPool2D, attrs, key); };
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  Layout4 dl = parseLayout(attr("layout"), "layout", "NCHW");
  auto [n, c, h, w] = dimsIn(data, dl, "data", args[0]);
  auto pool = pair(attr("pool_size"), "pool_size");
  auto strides = pair(attr("strides"), "strides");
  auto dilation = pair(attr("dilation"), "dilation");
  auto pad = padding4(attr("padding"));
  bool ceilMode = attr("ceil_mode").asBool();
  int64_t oh = windowOut(h, pad[0] + pad[2], pool[0], strides[0], dilation[0], ceilMode, "height");
  int64_t ow = windowOut(w, pad[1] + pad[3], pool[1], strides[1], dilation[1], ceilMode, "width");
  Layout4 ol = outLayout(attr("out_layout"), dl, "NCHW");
  Type r = tensorType(shapeIn(ol, {n, c, oh, ow}), data.dtype);
  if (!data.hasSymbolicDim()) return r;
  shape::Dim sh = ceilMode ? nullptr : symWindowOut(shape::dimOf(data, dl.pos[2]), pad[0] + pad[2], pool[0], strides[0], dilation[0]);
  shape::Dim sw = ceilMode ? nullptr : symWindowOut(shape::dimOf(data, dl.pos[3]), pad[1] + pad[3], pool[1], strides[1], dilation[1]);
  return withSymbolicDims(r, symShapeIn(ol, {shape::dimOf(data, dl.pos[0]), shape::dimOf(data, dl.pos[1]), sh, sw}));
}

Type relGlobalPool2D(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  Layout4 dl = parseLayout(opAttr(OpId::GlobalAvgPool2D, attrs, "layout"), "layout", "NCHW");
  auto [n, c, h, w] = dimsIn(data, dl, "data", args[0]);
  Layout4 ol = outLayout(opAttr(OpId::GlobalAvgPool2D, attrs, "out_layout"), dl, "NCHW");
  Type r = tensorType(shapeIn(ol, {n, c, 1, 1}), data.dtype);
  if (!data.hasSymbolicDim()) return r;
  return withSymbolicDims(r, symShapeIn(ol, {shape::dimOf(data, dl.pos[0]), shape::dimOf(data, dl.pos[1]), shape::constant(1), shape::constant(1)}));
}

Type relSoftmax(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  if (!data.dtype.isFloat()) relationError("expects a floating-point tensor, got " + typeToString(args[0]));
  normalizeAxis(opAttr(OpId::Softmax, attrs, "axis").asInt(), data.shape.size());
  return args[0];
}

Type relPad(std::span<const Type> args, const AttrDict& attrs) {
  if (args.empty() || args.size() > 2) relationError("expects 1 or 2 arguments (data, pad_value), got " + std::to_string(args.size()));
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  if (args.size() == 2) {
    const TensorTypeNode& value = tensorArg(args, 1, "pad_value");
    if (!value.shape.empty()) relationError("pad_value must be a scalar, got " + typeToString(args[1]));
    if (attrs.contains("pad_value")) relationError("pad_value is given both as an argument and as an attribute");
  }
  const std::string& mode = opAttr(OpId::Pad, attrs, "pad_mode").asString();
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    relationError("pad_mode \"" + mode + "\" is not one of constant, edge, reflect");
  const AttrValue& widths = opAttr(OpId::Pad, attrs, "pad_width");
  if (widths.kind() != AttrValue::Kind::Array || widths.asArray().size() != data.shape.size())
    relationError("pad_width " + widths.toString() + " must have one [before, after] pair per dimension of " +
                  typeToString(args[0]));
  std::vector<int64_t> out = data.shape;
  for (size_t i = 0; i < out.size(); ++i) {
    std::vector<int64_t> p = intList(widths.asArray()[i], "pad_width");
    if (p.size() != 2 || p[0] < 0 || p[1] < 0)
      relationError("pad_width entry " + widths.asArray()[i].toString() + " must be a non-negative [before, after] pair");
    if (!isDynamicDim(out[i])) out[i] += p[0] + p[1];
  }
  return tensorType(std::move(out), data.dtype);
}

Type relResize2D(std::span<const Type> args, const AttrDict& attrs) {
  auto attr = [&attrs](std::string_view key) -> const AttrValue& { return opAttr(OpId::Resize2D, attrs, key); };
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  Layout4 dl = parseLayout(attr("layout"), "layout", "NCHW");
  auto [n, c, h, w] = dimsIn(data, dl, "data", args[0]);
  (void)h;
  (void)w;
  std::vector<int64_t> size = intList(attr("size"), "size");
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    relationError("size must be two positive extents [height, width], got " + attr("size").toString());
  const std::string& method = attr("method").asString();
  if (method != "nearest_neighbor" && method != "linear" && method != "cubic")
    relationError("method \"" + method + "\" is not one of nearest_neighbor, linear, cubic");
  const std::string& ctm = attr("coordinate_transformation_mode").asString();
  if (ctm != "half_pixel" && ctm != "align_corners" && ctm != "asymmetric" && ctm != "pytorch_half_pixel" &&
      ctm != "tf_half_pixel_for_nn" && ctm != "tf_crop_and_resize")
    relationError("coordinate_transformation_mode \"" + ctm + "\" is not supported");
  return tensorType(shapeIn(dl, {n, c, size[0], size[1]}), dtypeAttr(attr("out_dtype"), "out_dtype", data.dtype));
}

}  // namespace passlab
