// ONNX data movement: Reshape, Flatten, Transpose, Concat, Split, Slice,
// Squeeze, Unsqueeze, Gather, Pad, Expand, Tile, DepthToSpace, SpaceToDepth,
// Trilu. Shape-deciding inputs (Reshape's shape, Slice's starts...) must be
// known at import: the IR's shapes are static.
#include <algorithm>
#include <limits>
#include <numeric>

#include "core/frontend/onnx_context.h"

namespace passlab::onnx_import {

namespace {

/// The element count of `dims`, saturating at INT64_MAX: hostile shapes must
/// not overflow (a saturated count never matches a real one, so the checks
/// below reject them). Found by fuzz/onnx_fuzzer.
int64_t product(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(n, d, &n)) return std::numeric_limits<int64_t>::max();
  return n;
}

std::vector<Expr> reshape(NodeContext& ctx) {
  Expr x = ctx.input(0);
  ctx.ignoreAttr("consumed_inputs");
  std::vector<int64_t> spec = ctx.opset < 5 ? ctx.attrInts("shape") : ctx.intsInput(1, "shape");
  bool allowZero = ctx.opset >= 14 && ctx.attrInt("allowzero", 0) != 0;
  const auto& in = GraphBuilder::shapeOf(x);
  // Resolve ONNX's 0 (copy the input dimension) and -1 (infer) here, so the
  // IR carries the plain target shape.
  std::vector<int64_t> out(spec.size());
  int64_t inferAt = -1;
  for (size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] == 0 && !allowZero) {
      if (i >= in.size()) ctx.invalid("shape " + listText(spec) + " copies dimension " + std::to_string(i) + " beyond the input's rank");
      out[i] = in[i];
    } else if (spec[i] == -1) {
      if (inferAt >= 0) ctx.invalid("shape " + listText(spec) + " has more than one -1");
      inferAt = static_cast<int64_t>(i);
      out[i] = 1;
    } else if (spec[i] < 0) {
      ctx.invalid("shape " + listText(spec) + " has an invalid entry " + std::to_string(spec[i]));
    } else {
      out[i] = spec[i];
    }
  }
  if (inferAt >= 0) {
    int64_t known = product(out);
    if (known == 0 || product(in) % known != 0)
      ctx.invalid("cannot reshape " + typeToString(x->checkedType) + " to " + listText(spec));
    out[inferAt] = product(in) / known;
  }
  if (product(out) != product(in)) ctx.invalid("cannot reshape " + typeToString(x->checkedType) + " to " + listText(spec));
  return {ctx.b.reshape(x, out)};
}

std::vector<Expr> flatten(NodeContext& ctx) {
  Expr x = ctx.input(0);
  const auto& in = GraphBuilder::shapeOf(x);
  int64_t rank = static_cast<int64_t>(in.size());
  int64_t axis = ctx.attrInt("axis", 1);
  if (axis < -rank || axis > rank) ctx.invalid("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (axis < 0) axis += rank;
  int64_t outer = product(std::vector<int64_t>(in.begin(), in.begin() + axis));
  int64_t inner = product(std::vector<int64_t>(in.begin() + axis, in.end()));
  return {ctx.b.reshape(x, {outer, inner})};
}

std::vector<Expr> transpose(NodeContext& ctx) {
  Expr x = ctx.input(0);
  int64_t rank = GraphBuilder::rankOf(x);
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  std::iota(perm.rbegin(), perm.rend(), 0);  // default: reverse the axes
  perm = ctx.attrInts("perm", perm);
  return {ctx.b.transpose(x, perm)};
}

std::vector<Expr> concat(NodeContext& ctx) {
  std::vector<Expr> fields;
  for (size_t i = 0; i < ctx.inputCount(); ++i) fields.push_back(ctx.input(i));
  int64_t rank = GraphBuilder::rankOf(fields.at(0));
  int64_t axis = normalizeOnnxAxis(ctx.attrInt("axis", 1), rank);
  return {ctx.b.call(OpId::Concatenate, {ctx.b.tuple(fields)}, {{"axis", AttrValue::integer(axis)}})};
}

std::vector<Expr> split(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  int64_t axis = normalizeOnnxAxis(ctx.attrInt("axis", 0), GraphBuilder::rankOf(x));
  int64_t extent = GraphBuilder::shapeOf(x)[axis];
  std::optional<std::vector<int64_t>> sizes;
  if (ctx.opset < 13) sizes = ctx.attrIntsOpt("split");
  if (!sizes && ctx.hasInput(1)) sizes = ctx.intsInput(1, "split");
  size_t pieces = sizes ? sizes->size() : ctx.outputCount();
  if (pieces == 0) ctx.invalid("Split has no outputs");
  AttrValue sections;
  if (sizes) {
    if (product(*sizes) < 0 || std::accumulate(sizes->begin(), sizes->end(), int64_t{0}) != extent)
      ctx.invalid("split sizes " + listText(*sizes) + " do not add up to the extent " + std::to_string(extent) + " of axis " +
                  std::to_string(axis));
    std::vector<int64_t> indices;
    int64_t at = 0;
    for (size_t i = 0; i + 1 < sizes->size(); ++i) indices.push_back(at += (*sizes)[i]);
    sections = AttrValue::ints(indices);
  } else {
    if (extent % static_cast<int64_t>(pieces) != 0)
      ctx.invalid("axis " + std::to_string(axis) + " of extent " + std::to_string(extent) + " does not split into " +
                  std::to_string(pieces) + " equal parts");
    sections = AttrValue::integer(static_cast<int64_t>(pieces));
  }
  Expr parts = b.call(OpId::Split, {x}, {{"indices_or_sections", sections}, {"axis", AttrValue::integer(axis)}});
  std::vector<Expr> out;
  for (size_t i = 0; i < pieces; ++i) out.push_back(b.tupleItem(parts, static_cast<int>(i)));
  return out;
}

std::vector<Expr> slice(NodeContext& ctx) {
  Expr x = ctx.input(0);
  const auto& shape = GraphBuilder::shapeOf(x);
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> starts, ends, axes, steps;
  if (ctx.opset < 10) {
    starts = ctx.attrInts("starts");
    ends = ctx.attrInts("ends");
    axes = ctx.attrInts("axes");
  } else {
    starts = ctx.intsInput(1, "starts");
    ends = ctx.intsInput(2, "ends");
    if (ctx.hasInput(3)) axes = ctx.intsInput(3, "axes");
    if (ctx.hasInput(4)) steps = ctx.intsInput(4, "steps");
  }
  if (axes.empty()) {
    axes.resize(starts.size());
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    ctx.invalid("starts, ends, axes and steps must have the same length");
  std::vector<int64_t> begin, end;
  for (size_t k = 0; k < axes.size(); ++k) {
    axes[k] = normalizeOnnxAxis(axes[k], rank, "axes entry");
    int64_t dim = shape[axes[k]], step = steps[k];
    if (step == 0) ctx.invalid("steps must not contain 0");
    // ONNX's clamping, resolved here so the attributes are plain indices.
    auto clampIndex = [&](int64_t v, bool isEnd) {
      if (v < 0) v = v < -dim ? -1 : v + dim;  // stays below 0 when far out of range
      if (step > 0) return std::clamp<int64_t>(v, 0, dim);
      return std::clamp<int64_t>(v, isEnd ? -1 : 0, dim - 1);
    };
    int64_t b = clampIndex(starts[k], false), e = clampIndex(ends[k], true);
    // strided_slice reads a negative end as counting from the back; "before
    // the first element" of a backward slice is spelled -(dim + 1).
    if (e == -1) e = -(dim + 1);
    begin.push_back(b);
    end.push_back(e);
  }
  bool unit = std::all_of(steps.begin(), steps.end(), [](int64_t s) { return s == 1; });
  AttrDict attrs{{"begin", AttrValue::ints(begin)}, {"end", AttrValue::ints(end)}, {"axes", AttrValue::ints(axes)}};
  if (!unit) attrs.set("strides", AttrValue::ints(steps));
  return {ctx.b.call(OpId::StridedSlice, {x}, attrs)};
}

/// Squeeze/Unsqueeze axes: an attribute before opset 13, an input since.
std::optional<std::vector<int64_t>> axesOf(NodeContext& ctx) {
  if (ctx.opset < 13) return ctx.attrIntsOpt("axes");
  if (ctx.hasInput(1)) return ctx.intsInput(1, "axes");
  return std::nullopt;
}

std::vector<Expr> squeeze(NodeContext& ctx) {
  Expr x = ctx.input(0);
  int64_t rank = GraphBuilder::rankOf(x);
  std::optional<std::vector<int64_t>> axes = axesOf(ctx);
  if (!axes) {
    const auto& s = GraphBuilder::shapeOf(x);
    if (std::find(s.begin(), s.end(), 1) == s.end()) return {x};
    return {ctx.b.call(OpId::Squeeze, {x})};
  }
  for (int64_t& a : *axes) a = normalizeOnnxAxis(a, rank, "axes entry");
  std::sort(axes->begin(), axes->end());
  return {ctx.b.squeeze(x, *axes)};
}

std::vector<Expr> unsqueeze(NodeContext& ctx) {
  Expr x = ctx.input(0);
  std::optional<std::vector<int64_t>> axesOpt = axesOf(ctx);
  if (!axesOpt) ctx.invalid("axes are required");
  std::vector<int64_t> axes = *axesOpt;
  int64_t outRank = GraphBuilder::rankOf(x) + static_cast<int64_t>(axes.size());
  for (int64_t& a : axes) a = normalizeOnnxAxis(a, outRank, "axes entry");
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) ctx.invalid("axes " + listText(axes) + " repeat an axis");
  // Ascending positions of the result: each insertion leaves the later ones
  // valid. Runs of consecutive axes become one expand_dims.
  for (size_t i = 0; i < axes.size();) {
    size_t j = i + 1;
    while (j < axes.size() && axes[j] == axes[j - 1] + 1) ++j;
    x = ctx.b.expandDims(x, axes[i], static_cast<int64_t>(j - i));
    i = j;
  }
  return {x};
}

std::vector<Expr> gather(NodeContext& ctx) {
  Expr data = ctx.input(0), indices = ctx.input(1);
  int64_t axis = normalizeOnnxAxis(ctx.attrInt("axis", 0), GraphBuilder::rankOf(data));
  AttrDict attrs{{"axis", AttrValue::integer(axis)}};
  // ONNX allows negative indices (counting from the back): take's "wrap" mode
  // reads them that way. Known non-negative indices keep the default mode.
  bool nonNegative = false;
  if (std::optional<NDArray> v = ctx.b.tryEvaluate(indices)) {
    nonNegative = true;
    for (int64_t i = 0; i < v->numElements(); ++i) nonNegative = nonNegative && v->getAsInt(i) >= 0;
  }
  if (!nonNegative) attrs.set("mode", AttrValue::string("wrap"));
  return {ctx.b.call(OpId::Take, {data, indices}, attrs)};
}

std::vector<Expr> pad(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  const auto& shape = GraphBuilder::shapeOf(x);
  size_t rank = shape.size();
  std::string mode = ctx.attrString("mode", "constant");
  std::vector<int64_t> pads;
  std::optional<double> valueAttr;
  Expr valueArg;
  if (ctx.opset < 11) {
    pads = ctx.attrInts(ctx.opset < 2 ? "paddings" : "pads");
    valueAttr = ctx.attrFloat("value", 0.0);
  } else {
    pads = ctx.intsInput(1, "pads");
    if (ctx.hasInput(2)) valueArg = b.reshape(ctx.input(2), {});
    if (ctx.hasInput(3)) ctx.unsupported("axes input of Pad (opset 18)");
  }
  if (pads.size() != 2 * rank) ctx.invalid("pads " + listText(pads) + " must have 2 x " + std::to_string(rank) + " entries");
  if (mode != "constant" && mode != "reflect" && mode != "edge") ctx.unsupported("mode \"" + mode + "\"");
  std::vector<AttrValue> widths;
  bool anyPad = false, anyCrop = false;
  for (size_t i = 0; i < rank; ++i) {
    int64_t before = pads[i], after = pads[i + rank];
    widths.push_back(AttrValue::ints({std::max<int64_t>(before, 0), std::max<int64_t>(after, 0)}));
    anyPad = anyPad || before > 0 || after > 0;
    anyCrop = anyCrop || before < 0 || after < 0;
  }
  Expr y = x;
  if (anyPad) {
    AttrDict attrs{{"pad_width", AttrValue::array(widths)}, {"pad_mode", AttrValue::string(mode)}};
    std::vector<Expr> args{x};
    if (valueArg && mode == "constant") args.push_back(b.cast(valueArg, GraphBuilder::dtypeOf(x)));
    else if (valueAttr && mode == "constant") attrs.set("pad_value", AttrValue::floating(*valueAttr));
    y = b.call(OpId::Pad, args, attrs);
  }
  if (anyCrop) {
    // Negative pads remove elements: slice them off after padding the rest.
    std::vector<int64_t> begin, end, axes;
    const auto& padded = GraphBuilder::shapeOf(y);
    for (size_t i = 0; i < rank; ++i) {
      int64_t before = pads[i], after = pads[i + rank];
      if (before >= 0 && after >= 0) continue;
      axes.push_back(static_cast<int64_t>(i));
      begin.push_back(before < 0 ? -before : 0);
      end.push_back(padded[i] + (after < 0 ? after : 0));
    }
    y = b.call(OpId::StridedSlice, {y}, {{"begin", AttrValue::ints(begin)}, {"end", AttrValue::ints(end)}, {"axes", AttrValue::ints(axes)}});
  }
  return {y};
}

std::vector<Expr> expand(NodeContext& ctx) {
  Expr x = ctx.input(0);
  std::vector<int64_t> target = ctx.intsInput(1, "shape");
  std::vector<int64_t> in = GraphBuilder::shapeOf(x);
  // Bidirectional broadcast: a 1 in the requested shape keeps the input's extent.
  size_t rank = std::max(in.size(), target.size());
  in.insert(in.begin(), rank - in.size(), 1);
  target.insert(target.begin(), rank - target.size(), 1);
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (in[i] != target[i] && in[i] != 1 && target[i] != 1)
      ctx.invalid("cannot expand " + typeToString(x->checkedType) + " to " + listText(target));
    out[i] = in[i] == 1 ? target[i] : in[i];
  }
  return {ctx.b.broadcastTo(x, out)};
}

std::vector<Expr> tile(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  std::vector<int64_t> repeats = ctx.intsInput(1, "repeats");
  if (repeats.size() != GraphBuilder::shapeOf(x).size()) ctx.invalid("repeats " + listText(repeats) + " must have one entry per dimension");
  for (size_t axis = 0; axis < repeats.size(); ++axis) {
    int64_t r = repeats[axis];
    if (r < 0) ctx.invalid("repeats must be non-negative");
    // Tile is spelled as a concatenation of r copies: a hostile repeat count
    // (found by fuzz/onnx_fuzzer) must not allocate billions of operands.
    constexpr int64_t kMaxRepeats = 4096;
    if (r > kMaxRepeats)
      ctx.invalid("repeats " + listText(repeats) + ": more than " + std::to_string(kMaxRepeats) +
                  " copies along one axis are not supported");
    if (r == 1) continue;
    AttrDict axisAttr{{"axis", AttrValue::integer(static_cast<int64_t>(axis))}};
    if (r == 0) {
      x = b.call(OpId::StridedSlice, {x}, {{"begin", AttrValue::ints({0})}, {"end", AttrValue::ints({0})},
                                           {"axes", AttrValue::ints({static_cast<int64_t>(axis)})}});
      continue;
    }
    x = b.call(OpId::Concatenate, {b.tuple(std::vector<Expr>(static_cast<size_t>(r), x))}, axisAttr);
  }
  return {x};
}

std::vector<Expr> depthToSpace(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  if (GraphBuilder::rankOf(x) != 4) ctx.invalid("input must be 4-d [N, C, H, W]");
  int64_t bs = ctx.attrInt("blocksize", 0);
  std::string mode = ctx.opset >= 11 ? ctx.attrString("mode", "DCR") : "DCR";
  auto s = GraphBuilder::shapeOf(x);
  if (bs <= 0 || s[1] % (bs * bs) != 0) ctx.invalid("blocksize " + std::to_string(bs) + " does not divide the channels");
  int64_t c = s[1] / (bs * bs);
  Expr t;
  if (mode == "DCR") {
    t = b.transpose(b.reshape(x, {s[0], bs, bs, c, s[2], s[3]}), {0, 3, 4, 1, 5, 2});
  } else if (mode == "CRD") {
    t = b.transpose(b.reshape(x, {s[0], c, bs, bs, s[2], s[3]}), {0, 1, 4, 2, 5, 3});
  } else {
    ctx.unsupported("mode \"" + mode + "\"");
  }
  return {b.reshape(t, {s[0], c, s[2] * bs, s[3] * bs})};
}

std::vector<Expr> spaceToDepth(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  if (GraphBuilder::rankOf(x) != 4) ctx.invalid("input must be 4-d [N, C, H, W]");
  int64_t bs = ctx.attrInt("blocksize", 0);
  auto s = GraphBuilder::shapeOf(x);
  if (bs <= 0 || s[2] % bs != 0 || s[3] % bs != 0) ctx.invalid("blocksize " + std::to_string(bs) + " does not divide H and W");
  Expr t = b.transpose(b.reshape(x, {s[0], s[1], s[2] / bs, bs, s[3] / bs, bs}), {0, 3, 5, 1, 2, 4});
  return {b.reshape(t, {s[0], s[1] * bs * bs, s[2] / bs, s[3] / bs})};
}

/// Keeps the upper (or lower) triangle of the last two axes, offset by k.
std::vector<Expr> trilu(NodeContext& ctx) {
  GraphBuilder& b = ctx.b;
  Expr x = ctx.input(0);
  const auto& s = GraphBuilder::shapeOf(x);
  if (s.size() < 2) ctx.invalid("input must have at least 2 dimensions");
  bool upper = ctx.attrInt("upper", 1) != 0;
  int64_t k = 0;
  if (ctx.hasInput(1)) {
    std::vector<int64_t> kv = ctx.intsInput(1, "k");
    if (kv.size() != 1) ctx.invalid("k must be a scalar");
    k = kv[0];
  }
  int64_t rows = s[s.size() - 2], cols = s.back();
  NDArray mask(DTypeCode::Bool, {rows, cols});
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) mask.mutableData()[i * cols + j] = upper ? j - i >= k : j - i <= k;
  return {b.call(OpId::Where, {b.constant(mask), x, b.scalar(GraphBuilder::dtypeOf(x), 0)})};
}

}  // namespace

void addTransformConverters(ConverterTable& t) {
  t["Reshape"] = reshape;
  t["Flatten"] = flatten;
  t["Transpose"] = transpose;
  t["Concat"] = concat;
  t["Split"] = split;
  t["Slice"] = slice;
  t["Squeeze"] = squeeze;
  t["Unsqueeze"] = unsqueeze;
  t["Gather"] = gather;
  t["Pad"] = pad;
  t["Expand"] = expand;
  t["Tile"] = tile;
  t["DepthToSpace"] = depthToSpace;
  t["SpaceToDepth"] = spaceToDepth;
  t["Trilu"] = trilu;
}

}  // namespace passlab::onnx_import
