// image.resize2d: nearest_neighbor, linear and cubic, with TVM's coordinate
// transformation modes and rounding methods (topi/image/resize.py).
// Source coordinates are computed in float32 as TVM does, so nearest-neighbour
// index choices agree with TVM at ties; interpolation runs in double and rounds
// once to the output dtype (float -> int outputs truncate, like TVM's astype).
#include <algorithm>
#include <array>
#include <cmath>

#include "core/interp/kernel_ops.h"

namespace passlab::kernels {

namespace {

/// Maps output coordinate `x` to a (fractional) input coordinate.
float sourceCoordinate(const KernelCall& call, const std::string& mode, int64_t x, int64_t inExtent, int64_t outExtent,
                       float roiStart, float roiEnd) {
  float fx = static_cast<float>(x);
  float in = static_cast<float>(inExtent), out = static_cast<float>(outExtent);
  float scale = in / out;
  if (mode == "half_pixel") return (fx + 0.5f) * scale - 0.5f;
  if (mode == "align_corners") return outExtent > 1 ? (in - 1.0f) / (out - 1.0f) * fx : 0.0f;
  if (mode == "asymmetric") return scale * fx;
  if (mode == "pytorch_half_pixel") return outExtent > 1 ? (fx + 0.5f) * scale - 0.5f : 0.0f;
  if (mode == "tf_half_pixel_for_nn") return (fx + 0.5f) * scale;
  if (mode == "tf_crop_and_resize")
    return outExtent > 1 ? roiStart * (in - 1.0f) + fx * (roiEnd - roiStart) * (in - 1.0f) / (out - 1.0f)
                         : 0.5f * (roiStart + roiEnd) * (in - 1.0f);
  call.fail("coordinate_transformation_mode \"" + mode + "\" is not supported");
}

/// Nearest input index for coordinate `x` under TVM's rounding methods.
int64_t nearestIndex(const KernelCall& call, const std::string& rounding, float x) {
  constexpr float kEpsilon = 1e-5f;  // TVM's nudge for floor/ceil
  float r;
  if (rounding == "round") r = std::nearbyint(x);
  else if (rounding == "round_prefer_floor") r = std::ceil(x - 0.5f);
  else if (rounding == "round_prefer_ceil") r = std::floor(x + 0.5f);
  else if (rounding == "floor") r = std::floor(x + kEpsilon);
  else if (rounding == "ceil") r = std::ceil(x - kEpsilon);
  else call.fail("rounding_method \"" + rounding + "\" is not supported");
  return saturatingFromDouble<int64_t>(r);
}

/// TVM's cubic convolution weights for fractional offset t.
std::array<double, 4> cubicWeights(double t, double alpha) {
  double t2 = t * t, t3 = t2 * t;
  return {alpha * (t3 - 2 * t2 + t), (alpha + 2) * t3 - (3 + alpha) * t2 + 1,
          -(alpha + 2) * t3 + (3 + 2 * alpha) * t2 - alpha * t, -alpha * t3 + alpha * t2};
}

}  // namespace

Value resize2dKernel(const KernelCall& call) {
  const NDArray& dataIn = call.tensor(0);
  if (dataIn.ndim() != 4) call.fail("expects 4-d data, got " + shapeString(dataIn.shape()));
  Layout4 layout = parseLayout4(call, call.attrString("layout"), "NCHW", "layout");
  NDArray data = transposeArray(dataIn, toCanonicalPerm(layout));
  std::vector<int64_t> size = call.attrInts("size");
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0) call.fail("size must be two positive extents, got " + shapeString(size));
  std::vector<double> roi(4, 0.0);
  const AttrValue& roiAttr = call.attr("roi");
  if (roiAttr.kind() == AttrValue::Kind::Array && roiAttr.asArray().size() == 4)
    for (size_t i = 0; i < 4; ++i) roi[i] = roiAttr.asArray()[i].asFloat();
  const std::string& method = call.attrString("method");
  const std::string& mode = call.attrString("coordinate_transformation_mode");
  std::string rounding = call.attrString("rounding_method");
  if (rounding.empty()) rounding = mode == "tf_half_pixel_for_nn" ? "floor" : "round";
  double alpha = call.attrFloat("cubic_alpha");
  bool exclude = call.attrInt("cubic_exclude") != 0;
  double extrapolation = call.attrFloat("extrapolation_value");
  DataType outType = call.attrDType("out_dtype", data.dtype());
  if (method != "nearest_neighbor" && method != "linear" && method != "cubic")
    call.fail("method \"" + method + "\" is not one of nearest_neighbor, linear, cubic");

  int64_t batch = data.shape()[0], channels = data.shape()[1], h = data.shape()[2], w = data.shape()[3];
  int64_t oh = size[0], ow = size[1];
  if (h == 0 || w == 0) call.fail("cannot resize an empty image");
  NDArray out(outType, {batch, channels, oh, ow});
  // Per output row/column: source coordinate (TVM order: roi is start_h, start_w, end_h, end_w).
  std::vector<float> ys(static_cast<size_t>(oh)), xs(static_cast<size_t>(ow));
  for (int64_t y = 0; y < oh; ++y) ys[y] = sourceCoordinate(call, mode, y, h, oh, static_cast<float>(roi[0]), static_cast<float>(roi[2]));
  for (int64_t x = 0; x < ow; ++x) xs[x] = sourceCoordinate(call, mode, x, w, ow, static_cast<float>(roi[1]), static_cast<float>(roi[3]));
  auto clampY = [h](int64_t y) { return std::clamp<int64_t>(y, 0, h - 1); };
  auto clampX = [w](int64_t x) { return std::clamp<int64_t>(x, 0, w - 1); };

  dispatchDType(data.dtype(), [&](auto inTag) {
    using In = typename decltype(inTag)::type;
    dispatchDType(outType, [&](auto outTag) {
      using Out = typename decltype(outTag)::type;
      const In* src = elems<In>(data);
      Out* dst = mutableElems<Out>(out);
      for (int64_t plane = 0; plane < batch * channels; ++plane) {
        const In* img = src + plane * h * w;
        auto pixel = [&](int64_t y, int64_t x) { return Elem<In>::toDouble(img[clampY(y) * w + clampX(x)]); };
        for (int64_t y = 0; y < oh; ++y) {
          float inY = ys[y];
          for (int64_t x = 0; x < ow; ++x) {
            float inX = xs[x];
            double value;
            if (method == "nearest_neighbor") {
              value = pixel(nearestIndex(call, rounding, inY), nearestIndex(call, rounding, inX));
            } else if (method == "linear") {
              int64_t y0 = static_cast<int64_t>(std::floor(inY)), x0 = static_cast<int64_t>(std::floor(inX));
              double ty = static_cast<double>(inY) - static_cast<double>(y0);
              double tx = static_cast<double>(inX) - static_cast<double>(x0);
              double top = pixel(y0, x0) * (1.0 - tx) + pixel(y0, x0 + 1) * tx;
              double bottom = pixel(y0 + 1, x0) * (1.0 - tx) + pixel(y0 + 1, x0 + 1) * tx;
              value = top * (1.0 - ty) + bottom * ty;
            } else {
              int64_t y0 = static_cast<int64_t>(std::floor(inY)), x0 = static_cast<int64_t>(std::floor(inX));
              std::array<double, 4> wy = cubicWeights(static_cast<double>(inY) - static_cast<double>(y0), alpha);
              std::array<double, 4> wx = cubicWeights(static_cast<double>(inX) - static_cast<double>(x0), alpha);
              if (exclude) {  // drop taps outside the image and renormalize
                double sy = 0, sx = 0;
                for (int64_t i = 0; i < 4; ++i) {
                  if (y0 - 1 + i < 0 || y0 - 1 + i >= h) wy[i] = 0;
                  if (x0 - 1 + i < 0 || x0 - 1 + i >= w) wx[i] = 0;
                  sy += wy[i];
                  sx += wx[i];
                }
                for (int64_t i = 0; i < 4; ++i) {
                  wy[i] /= sy;
                  wx[i] /= sx;
                }
              }
              value = 0;
              for (int64_t j = 0; j < 4; ++j) {
                double row = 0;
                for (int64_t i = 0; i < 4; ++i) row += pixel(y0 - 1 + j, x0 - 1 + i) * wx[i];
                value += row * wy[j];
              }
            }
            if (mode == "tf_crop_and_resize" && (inY < 0 || inY > static_cast<float>(h - 1) || inX < 0 || inX > static_cast<float>(w - 1)))
              value = extrapolation;
            dst[(plane * oh + y) * ow + x] = Elem<Out>::fromDouble(value);
          }
        }
      }
    });
  });
  return transposeArray(out, fromCanonicalPerm(layout));
}

}  // namespace passlab::kernels
