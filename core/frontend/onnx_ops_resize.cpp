// ONNX Resize and Upsample.
//
// image.resize2d derives its coordinate scale from the output and input
// extents (in / out). ONNX uses the *given* scale when scales are given, so the
// two agree only when in * scale is a whole number (or sizes are given). In
// those cases a 4-d NCHW resize maps onto image.resize2d; in the others (and
// for other ranks) the importer computes ONNX's sampling positions and
// interpolation weights itself and expresses the resize, axis by axis, as
// `take` of the neighbour rows times constant weights: exact ONNX semantics
// with ops of the table.
#include <algorithm>
#include <cmath>

#include "core/frontend/onnx_context.h"

namespace passlab::onnx_import {

namespace {

struct ResizeSpec {
  std::string mode;         // nearest, linear, cubic
  std::string ctm;          // coordinate_transformation_mode
  std::string nearestMode;  // round_prefer_floor, round_prefer_ceil, floor, ceil
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0;
  std::vector<int64_t> in, out;
  std::vector<double> scales;  // the scale factor ONNX computes coordinates with
  std::vector<double> roi;     // starts then ends, one per axis (tf_crop_and_resize)
};

/// ONNX's source coordinate of output index `x` along one axis.
double sourceCoordinate(const ResizeSpec& s, size_t axis, int64_t x) {
  double scale = s.scales[axis], in = static_cast<double>(s.in[axis]);
  double outWidth = scale * in;  // ONNX uses the real-valued product here
  double fx = static_cast<double>(x);
  const std::string& m = s.ctm;
  if (m == "align_corners") return outWidth == 1 ? 0.0 : fx * (in - 1) / (outWidth - 1);
  if (m == "asymmetric") return fx / scale;
  if (m == "tf_half_pixel_for_nn") return (fx + 0.5) / scale;
  if (m == "pytorch_half_pixel") return outWidth == 1 ? -0.5 : (fx + 0.5) / scale - 0.5;
  if (m == "tf_crop_and_resize") {
    double start = s.roi[axis], end = s.roi[axis + s.in.size()];
    double v = outWidth == 1 ? (end - start) * (in - 1) / 2 : fx * (end - start) * (in - 1) / (outWidth - 1);
    return v + start * (in - 1);
  }
  return (fx + 0.5) / scale - 0.5;  // half_pixel
}

/// Sampling taps of one output position: input indices (already clamped) and weights.
struct Taps {
  std::vector<int64_t> index;
  std::vector<double> weight;
  bool extrapolate = false;
};

Taps tapsFor(const ResizeSpec& s, size_t axis, int64_t x) {
  int64_t n = s.in[axis];
  double xo = sourceCoordinate(s, axis, x);
  Taps t;
  if (s.ctm == "tf_crop_and_resize" && (xo < 0 || xo > static_cast<double>(n - 1))) t.extrapolate = true;
  auto clampIndex = [n](int64_t i) { return std::clamp<int64_t>(i, 0, n - 1); };
  double floorX = std::floor(xo);
  int64_t base = static_cast<int64_t>(floorX);
  bool whole = xo == floorX;
  double ratio = whole ? 1.0 : xo - floorX;
  if (s.mode == "nearest") {
    int64_t pick = base + 1;  // whole coordinates pick themselves (ONNX: coefficients [0, 1] over [x-1, x])
    if (whole) pick = base;
    else if (s.nearestMode == "round_prefer_floor") pick = ratio <= 0.5 ? base : base + 1;
    else if (s.nearestMode == "round_prefer_ceil") pick = ratio < 0.5 ? base : base + 1;
    else if (s.nearestMode == "floor") pick = base;
    t.index = {clampIndex(pick)};
    t.weight = {1.0};
  } else if (s.mode == "linear") {
    if (whole) {
      t.index = {clampIndex(base)};
      t.weight = {1.0};
    } else {
      t.index = {clampIndex(base), clampIndex(base + 1)};
      t.weight = {1 - ratio, ratio};
    }
  } else {  // cubic: neighbours base-1 .. base+2 (whole: x-2 .. x+1 with weight on x)
    double a = s.cubicA, r = ratio;
    int64_t first = whole ? base - 2 : base - 1;
    std::vector<double> w = {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
                             ((a + 2) * r - (a + 3)) * r * r + 1,
                             ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
                             ((a * ((1 - r) + 1) - 5 * a) * ((1 - r) + 1) + 8 * a) * ((1 - r) + 1) - 4 * a};
    if (s.excludeOutside) {
      double sum = 0;
      for (int64_t i = 0; i < 4; ++i) {
        if (first + i < 0 || first + i >= n) w[i] = 0;
        sum += w[i];
      }
      for (double& v : w) v /= sum;
    }
    for (int64_t i = 0; i < 4; ++i) {
      t.index.push_back(clampIndex(first + i));
      t.weight.push_back(w[i]);
    }
  }
  return t;
}

/// The resize as takes and weighted sums along each axis that changes.
Expr decomposedResize(NodeContext& ctx, Expr x, const ResizeSpec& s) {
  GraphBuilder& b = ctx.b;
  DataType dtype = GraphBuilder::dtypeOf(x);
  if (s.mode != "nearest" && !dtype.isFloat()) ctx.unsupported(s.mode + " Resize of " + std::string(dtype.name()) + " data");
  size_t rank = s.in.size();
  Expr outsideMask;  // bool, true where tf_crop_and_resize extrapolates
  for (size_t axis = 0; axis < rank; ++axis) {
    int64_t m = s.out[axis];
    std::vector<Taps> taps;
    bool identity = m == s.in[axis];
    bool anyOutside = false;
    for (int64_t o = 0; o < m; ++o) {
      taps.push_back(tapsFor(s, axis, o));
      const Taps& t = taps.back();
      anyOutside = anyOutside || t.extrapolate;
      identity = identity && !t.extrapolate && t.index.size() == 1 && t.index[0] == o;
    }
    if (anyOutside) {
      std::vector<int64_t> maskShape(rank, 1);
      maskShape[axis] = m;
      NDArray mask(DTypeCode::Bool, maskShape);
      for (int64_t o = 0; o < m; ++o) mask.mutableData()[o] = taps[o].extrapolate;
      Expr axisMask = b.constant(mask);
      outsideMask = outsideMask ? b.call(OpId::Where, {outsideMask, b.scalar(DTypeCode::Bool, 1), axisMask}) : axisMask;
    }
    if (identity) continue;
    size_t width = 0;
    for (const Taps& t : taps) width = std::max(width, t.index.size());
    std::vector<int64_t> weightShape(rank - axis, 1);
    weightShape[0] = m;
    Expr sum;
    for (size_t k = 0; k < width; ++k) {
      NDArray indices(DTypeCode::Int64, {m});
      NDArray weights(dtype, weightShape);
      for (int64_t o = 0; o < m; ++o) {
        const Taps& t = taps[o];
        bool has = k < t.index.size();
        indices.mutableValues<int64_t>()[o] = has ? t.index[k] : t.index[0];
        weights.setFromDouble(o, has ? t.weight[k] : 0.0);
      }
      Expr picked = b.call(OpId::Take, {x, b.constant(indices)}, {{"axis", AttrValue::integer(static_cast<int64_t>(axis))}});
      Expr term = s.mode == "nearest" ? picked : b.call(OpId::Multiply, {picked, b.constant(weights)});
      sum = sum ? b.call(OpId::Add, {sum, term}) : term;
    }
    x = sum;
  }
  if (outsideMask) x = b.call(OpId::Where, {outsideMask, b.scalar(dtype, s.extrapolation), x});
  return x;
}

/// image.resize2d applies when the data is NCHW, N and C keep their extents
/// and ONNX's scale equals out / in on H and W.
bool fitsResize2d(const ResizeSpec& s) {
  if (s.in.size() != 4 || s.out[0] != s.in[0] || s.out[1] != s.in[1] || s.scales[0] != 1 || s.scales[1] != 1) return false;
  for (size_t a = 2; a < 4; ++a)
    if (s.scales[a] * static_cast<double>(s.in[a]) != static_cast<double>(s.out[a])) return false;
  if (s.ctm == "tf_crop_and_resize" && (s.roi[0] != 0 || s.roi[1] != 0 || s.roi[4] != 1 || s.roi[5] != 1)) return false;
  return true;
}

Expr resize(NodeContext& ctx, Expr x, ResizeSpec s) {
  if (s.mode != "nearest" && s.mode != "linear" && s.mode != "cubic") ctx.unsupported("mode \"" + s.mode + "\"");
  static const char* kModes[] = {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel", "tf_half_pixel_for_nn",
                                 "tf_crop_and_resize"};
  if (std::find(std::begin(kModes), std::end(kModes), s.ctm) == std::end(kModes))
    ctx.unsupported("coordinate_transformation_mode \"" + s.ctm + "\"");
  if (s.mode == "nearest" && s.nearestMode != "round_prefer_floor" && s.nearestMode != "round_prefer_ceil" &&
      s.nearestMode != "floor" && s.nearestMode != "ceil")
    ctx.unsupported("nearest_mode \"" + s.nearestMode + "\"");
  for (size_t a = 0; a < s.out.size(); ++a)
    if (s.out[a] <= 0 || s.in[a] <= 0) ctx.invalid("cannot resize " + typeToString(x->checkedType) + " to " + listText(s.out));
  if (!fitsResize2d(s)) return decomposedResize(ctx, x, s);
  AttrDict attrs{{"size", AttrValue::ints({s.out[2], s.out[3]})},
                 {"method", AttrValue::string(s.mode == "nearest" ? "nearest_neighbor" : s.mode)},
                 {"coordinate_transformation_mode", AttrValue::string(s.ctm)}};
  if (s.mode == "nearest") attrs.set("rounding_method", AttrValue::string(s.nearestMode));
  if (s.mode == "cubic") {
    attrs.set("cubic_alpha", AttrValue::floating(s.cubicA));
    attrs.set("cubic_exclude", AttrValue::integer(s.excludeOutside ? 1 : 0));
  }
  if (s.ctm == "tf_crop_and_resize") {
    attrs.set("roi", AttrValue::array({AttrValue::floating(s.roi[2]), AttrValue::floating(s.roi[3]), AttrValue::floating(s.roi[6]),
                                       AttrValue::floating(s.roi[7])}));
    attrs.set("extrapolation_value", AttrValue::floating(s.extrapolation));
  }
  return ctx.b.call(OpId::Resize2D, {x}, attrs);
}

/// out = floor(in * scale) per axis.
void outFromScales(NodeContext& ctx, ResizeSpec& s, const std::vector<double>& scales) {
  if (scales.size() != s.in.size()) ctx.invalid("scales must have one entry per dimension (" + std::to_string(s.in.size()) + ")");
  s.scales = scales;
  for (size_t a = 0; a < scales.size(); ++a) {
    if (scales[a] <= 0) ctx.invalid("scales must be positive");
    s.out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(s.in[a]) * scales[a])));
  }
}

std::vector<Expr> resizeOp(NodeContext& ctx) {
  Expr x = ctx.input(0);
  ResizeSpec s;
  s.in = GraphBuilder::shapeOf(x);
  s.mode = ctx.attrString("mode", "nearest");
  if (ctx.opset < 11) {
    // Resize-10 samples like Upsample: asymmetric coordinates, nearest rounds down.
    s.ctm = "asymmetric";
    s.nearestMode = "floor";
    outFromScales(ctx, s, ctx.floatsInput(1, "scales"));
    return {resize(ctx, x, s)};
  }
  s.ctm = ctx.attrString("coordinate_transformation_mode", "half_pixel");
  s.nearestMode = ctx.attrString("nearest_mode", "round_prefer_floor");
  s.cubicA = ctx.attrFloat("cubic_coeff_a", -0.75);
  s.excludeOutside = ctx.attrInt("exclude_outside", 0) != 0;
  s.extrapolation = ctx.attrFloat("extrapolation_value", 0.0);
  size_t rank = s.in.size();
  s.roi.assign(rank, 0.0);
  s.roi.resize(2 * rank, 1.0);
  if (s.ctm == "tf_crop_and_resize") {
    std::vector<double> roi = ctx.floatsInput(1, "roi");
    if (roi.size() != 2 * rank) ctx.invalid("roi must have 2 x rank entries");
    s.roi = roi;
  }
  std::vector<double> scales;
  if (ctx.hasInput(2)) scales = ctx.floatsInput(2, "scales");
  std::vector<int64_t> sizes;
  if (ctx.hasInput(3)) sizes = ctx.intsInput(3, "sizes");
  if (!scales.empty() && !sizes.empty()) ctx.invalid("only one of scales and sizes may be given");
  if (!sizes.empty()) {
    if (sizes.size() != rank) ctx.invalid("sizes must have one entry per dimension");
    s.out = sizes;
    for (size_t a = 0; a < rank; ++a) s.scales.push_back(static_cast<double>(sizes[a]) / static_cast<double>(s.in[a]));
  } else if (!scales.empty()) {
    outFromScales(ctx, s, scales);
  } else {
    ctx.invalid("one of scales and sizes is required");
  }
  return {resize(ctx, x, s)};
}

std::vector<Expr> upsample(NodeContext& ctx) {
  Expr x = ctx.input(0);
  ResizeSpec s;
  s.in = GraphBuilder::shapeOf(x);
  s.mode = ctx.attrString("mode", "nearest");
  if (s.mode == "bilinear") s.mode = "linear";  // Upsample-1 spelling
  s.ctm = "asymmetric";
  s.nearestMode = "floor";
  std::vector<double> scales;
  if (ctx.opset < 9) {
    std::optional<std::vector<double>> attr = ctx.attrFloatsOpt("scales");
    if (!attr) ctx.invalid("scales are required");
    scales = *attr;
  } else {
    scales = ctx.floatsInput(1, "scales");
  }
  outFromScales(ctx, s, scales);
  return {resize(ctx, x, s)};
}

}  // namespace

void addResizeConverters(ConverterTable& t) {
  t["Resize"] = resizeOp;
  t["Upsample"] = upsample;
}

}  // namespace passlab::onnx_import
