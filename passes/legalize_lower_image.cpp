// LegalizeOps: image.resize2d (nearest_neighbor, linear, cubic) as one loop
// nest over the output. It repeats the reference kernel (core/interp/image.cpp)
// operation for operation, so compiled results agree with it exactly:
// - source coordinates are float32 expressions built in the kernel's order of
//   operations (with the same float32 constants), so nearest-neighbour choices
//   agree at ties;
// - interpolation weights and sums are float64, rounded once to the output
//   dtype; integer outputs saturate to their range first, as the kernel's
//   conversion does (a plain cast would wrap);
// - every tap index is clamped into the image, so no load is out of bounds,
//   not even on the side of a select that tf_crop_and_resize discards.
#include <array>
#include <limits>
#include <string>

#include "core/ir/op.h"
#include "passes/legalize_lower.h"

namespace passlab::legalize {

namespace {

namespace T = tir;
using T::BinaryOp;
using T::PrimExpr;

const DataType kF32 = DTypeCode::Float32;
const DataType kF64 = DTypeCode::Float64;

PrimExpr f32(float v) { return T::floatImm(kF32, v); }
PrimExpr f64(double v) { return T::floatImm(kF64, v); }
PrimExpr sub(PrimExpr a, PrimExpr b) { return bin(BinaryOp::Sub, std::move(a), std::move(b)); }
PrimExpr div(PrimExpr a, PrimExpr b) { return bin(BinaryOp::Div, std::move(a), std::move(b)); }
PrimExpr floorF32(PrimExpr x) { return T::call(kF32, "floor", {std::move(x)}); }
PrimExpr ceilF32(PrimExpr x) { return T::call(kF32, "ceil", {std::move(x)}); }

/// The attributes of one resize2d call, checked.
struct ResizeSpec {
  std::string method, mode, rounding;
  /// Position of N, C, H, W in the data (and output) layout.
  std::vector<size_t> pos;
  int64_t h = 0, w = 0;
  /// TVM order: start_h, start_w, end_h, end_w (zeros when absent).
  float roi[4] = {0, 0, 0, 0};
  double alpha = -0.5, extrapolation = 0;
  bool exclude = false;
};

ResizeSpec readSpec(const OpLowering& l) {
  const Operand& data = l.args.at(0);
  if ((!data.buffer && !data.lazy) || data.shape.size() != 4) throw Unsupported("LegalizeOps: image.resize2d expects 4-d data");
  ResizeSpec s;
  s.pos = layoutPositions(l, attr(l, "layout").asString(), "NCHW", "layout");
  s.h = data.shape[s.pos[2]];
  s.w = data.shape[s.pos[3]];
  if (s.h <= 0 || s.w <= 0) throw Unsupported("LegalizeOps: image.resize2d cannot resize an empty image");
  std::vector<int64_t> size = attrInts(l, "size");
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    throw Unsupported("LegalizeOps: image.resize2d size must be two positive extents");
  if (l.out->shape.size() != 4 || l.out->shape[s.pos[2]] != size[0] || l.out->shape[s.pos[3]] != size[1])
    throw Unsupported("LegalizeOps: image.resize2d output shape does not match its size attribute");
  // As the kernel: a roi other than four numbers means no roi.
  const AttrValue& roi = attr(l, "roi");
  if (roi.kind() == AttrValue::Kind::Array && roi.asArray().size() == 4)
    for (size_t i = 0; i < 4; ++i) s.roi[i] = static_cast<float>(roi.asArray()[i].asFloat());
  s.method = attr(l, "method").asString();
  if (s.method != "nearest_neighbor" && s.method != "linear" && s.method != "cubic")
    throw Unsupported("LegalizeOps: image.resize2d method \"" + s.method + "\" is not one of nearest_neighbor, linear, cubic");
  s.mode = attr(l, "coordinate_transformation_mode").asString();
  static const char* kModes[] = {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel", "tf_half_pixel_for_nn",
                                 "tf_crop_and_resize"};
  bool known = false;
  for (const char* m : kModes) known = known || s.mode == m;
  if (!known) throw Unsupported("LegalizeOps: image.resize2d coordinate_transformation_mode \"" + s.mode + "\" is not supported");
  s.rounding = attr(l, "rounding_method").asString();
  if (s.rounding.empty()) s.rounding = s.mode == "tf_half_pixel_for_nn" ? "floor" : "round";
  // The kernel only consults the rounding method for nearest_neighbor.
  if (s.method == "nearest_neighbor" && s.rounding != "round" && s.rounding != "round_prefer_floor" &&
      s.rounding != "round_prefer_ceil" && s.rounding != "floor" && s.rounding != "ceil")
    throw Unsupported("LegalizeOps: image.resize2d rounding_method \"" + s.rounding + "\" is not supported");
  s.alpha = attr(l, "cubic_alpha").asFloat();
  s.exclude = attr(l, "cubic_exclude").asInt() != 0;
  s.extrapolation = attr(l, "extrapolation_value").asFloat();
  return s;
}

/// The float32 source coordinate of output index `o` along an axis of
/// `inExtent` -> `outExtent`. Constants are folded exactly where the kernel
/// computes them from constants alone; every other operation is one float32
/// TIR operation in the kernel's order, so the result is bit-identical.
PrimExpr sourceCoordinate(const std::string& mode, const PrimExpr& o, int64_t inExtent, int64_t outExtent, float roiStart,
                          float roiEnd) {
  PrimExpr fx = castTo(kF32, o);
  float in = static_cast<float>(inExtent), out = static_cast<float>(outExtent);
  float scale = in / out;
  auto halfPixel = [&] { return sub(mul(add(fx, f32(0.5f)), f32(scale)), f32(0.5f)); };
  if (mode == "half_pixel") return halfPixel();
  if (mode == "align_corners") return outExtent > 1 ? mul(f32((in - 1.0f) / (out - 1.0f)), fx) : f32(0.0f);
  if (mode == "asymmetric") return mul(f32(scale), fx);
  if (mode == "pytorch_half_pixel") return outExtent > 1 ? halfPixel() : f32(0.0f);
  if (mode == "tf_half_pixel_for_nn") return mul(add(fx, f32(0.5f)), f32(scale));
  // tf_crop_and_resize
  if (outExtent <= 1) return f32(0.5f * (roiStart + roiEnd) * (in - 1.0f));
  float start = roiStart * (in - 1.0f);
  return add(f32(start), div(mul(mul(fx, f32(roiEnd - roiStart)), f32(in - 1.0f)), f32(out - 1.0f)));
}

/// The nearest input position (float32, not yet clamped) under `rounding`.
PrimExpr nearestPosition(const std::string& rounding, const PrimExpr& x) {
  constexpr float kEpsilon = 1e-5f;  // TVM's nudge for floor/ceil, as the kernel
  if (rounding == "round") return T::call(kF32, "round", {x});  // ties to even (nearbyint)
  if (rounding == "round_prefer_floor") return ceilF32(sub(x, f32(0.5f)));
  if (rounding == "round_prefer_ceil") return floorF32(add(x, f32(0.5f)));
  if (rounding == "floor") return floorF32(add(x, f32(kEpsilon)));
  return ceilF32(sub(x, f32(kEpsilon)));
}

/// A whole float32 position clamped into [0, extent) as an int32 index.
/// Clamping before the cast keeps huge or infinite positions (tf_crop_and_resize
/// with a far roi) from wrapping, and matches the kernel's int64 clamp.
PrimExpr clampedIndex(const PrimExpr& position, int64_t extent) {
  PrimExpr lo = bin(BinaryOp::Max, position, f32(0.0f));
  return castTo(DTypeCode::Int32, bin(BinaryOp::Min, lo, f32(static_cast<float>(extent - 1))));
}

/// Let-bound values around one output element's store (shared subexpressions
/// are computed once instead of being copied into every tap).
struct Lets {
  std::vector<std::pair<T::Var, PrimExpr>> bindings;
  PrimExpr bind(const std::string& name, PrimExpr value) {
    T::Var v = T::makeVar(name, value->dtype);
    bindings.emplace_back(v, std::move(value));
    return v;
  }
  T::Stmt wrap(T::Stmt body) const {
    for (size_t i = bindings.size(); i-- > 0;) body = T::letStmt(bindings[i].first, bindings[i].second, body);
    return body;
  }
};

/// TVM's cubic convolution weights for fractional offset `t` (float64), in
/// the kernel's order of operations.
std::array<PrimExpr, 4> cubicWeights(Lets& lets, const std::string& axis, const PrimExpr& t, double alpha) {
  PrimExpr t2 = lets.bind("t2_" + axis, mul(t, t));
  PrimExpr t3 = lets.bind("t3_" + axis, mul(t2, t));
  PrimExpr a = f64(alpha);
  return {mul(a, add(sub(t3, mul(f64(2), t2)), t)),
          add(sub(mul(f64(alpha + 2), t3), mul(f64(3 + alpha), t2)), f64(1)),
          sub(add(mul(f64(-(alpha + 2)), t3), mul(f64(3 + 2 * alpha), t2)), mul(a, t)),
          add(mul(f64(-alpha), t3), mul(a, t2))};
}

/// Converts a float64 result to the output dtype as the kernel does: floats
/// round, integers truncate and saturate to their range (NaN -> 0), bools test != 0.
PrimExpr toOutput(DataType out, PrimExpr value) {
  if (out.isInt() && out.bits() < 64) {
    double lo = 0, hi = 0;
    switch (out.code) {
      case DTypeCode::Int8: lo = std::numeric_limits<int8_t>::min(), hi = std::numeric_limits<int8_t>::max(); break;
      case DTypeCode::UInt8: lo = 0, hi = std::numeric_limits<uint8_t>::max(); break;
      case DTypeCode::Int16: lo = std::numeric_limits<int16_t>::min(), hi = std::numeric_limits<int16_t>::max(); break;
      default: lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max(); break;
    }
    // Max/Min keep a NaN first operand, which the cast then turns into 0.
    value = bin(BinaryOp::Min, bin(BinaryOp::Max, value, f64(lo)), f64(hi));
  }
  return castTo(out, std::move(value));
}

/// Nearest and linear resize of NCHW data without tf_crop_and_resize: the
/// per-row and per-column taps (indices, and the linear fractions) depend on
/// one output coordinate each, so they are computed once into small tables
/// with exactly the expressions of the general nest below, and the loop over
/// output columns only loads them, gathers and blends (vectorized).
T::Stmt lowerResize2DTables(const OpLowering& l, const ResizeSpec& s) {
  const Operand& data = l.args.at(0);
  DataType outType = l.out->dtype;
  int64_t oh = l.out->shape[2], ow = l.out->shape[3];
  bool nearest = s.method == "nearest_neighbor";
  int taps = nearest ? 1 : 2;
  struct Axis {
    std::vector<T::Buffer> index;
    T::Buffer fraction;  // linear only
  };
  std::vector<T::Stmt> fill;
  std::vector<T::Buffer> scratch;
  auto table = [&](const std::string& axis, int64_t inExtent, int64_t outExtent, float roiStart, float roiEnd) {
    Axis a;
    T::Var o = T::makeVar("o" + axis);
    PrimExpr in = sourceCoordinate(s.mode, o, inExtent, outExtent, roiStart, roiEnd);
    std::vector<T::Stmt> body;
    for (int k = 0; k < taps; ++k) {
      a.index.push_back(T::makeBuffer("i" + axis + std::to_string(k), DTypeCode::Int32, {outExtent}));
      scratch.push_back(a.index.back());
    }
    if (nearest) {
      body.push_back(T::store(a.index[0], {o}, clampedIndex(nearestPosition(s.rounding, in), inExtent)));
    } else {
      a.fraction = T::makeBuffer("t" + axis, kF64, {outExtent});
      scratch.push_back(a.fraction);
      T::Var c = T::makeVar("in_" + axis, kF32), f = T::makeVar(axis + "0", kF32);
      std::vector<T::Stmt> inner;
      inner.push_back(T::store(a.fraction, {o}, sub(castTo(kF64, c), castTo(kF64, f))));
      for (int k = 0; k < 2; ++k) inner.push_back(T::store(a.index[k], {o}, clampedIndex(k == 0 ? PrimExpr(f) : add(f, f32(1.0f)), inExtent)));
      body.push_back(T::letStmt(c, in, T::letStmt(f, floorF32(c), T::seq(std::move(inner)))));
    }
    fill.push_back(T::forLoop(o, i32(0), i32(outExtent), T::ForKind::Serial, T::seq(std::move(body))));
    return a;
  };
  Axis ys = table("y", s.h, oh, s.roi[0], s.roi[2]), xs = table("x", s.w, ow, s.roi[1], s.roi[3]);
  if (!nearest && oh >= s.h) {
    // Upsampling: every input row is blended by several output rows, so each
    // image's rows are first interpolated along x into a float64 scratch
    // (once per input row, the only gathers), then each output row blends
    // two contiguous scratch rows. The arithmetic is the nest's below, in
    // the same order: `top` and `bottom` are scratch rows.
    T::Buffer rows = T::makeBuffer("rows_x", kF64, {s.h, ow});
    scratch.push_back(rows);
    PrimExpr one = f64(1.0);
    fill.push_back(loopNest({l.out->shape[0], l.out->shape[1]}, "ax", [&](const std::vector<PrimExpr>& nc) {
      T::Var iy = T::makeVar("iy"), ox = T::makeVar("ox"), oy = T::makeVar("oy"), ox2 = T::makeVar("ox");
      PrimExpr tx = T::load(xs.fraction, {ox});
      auto pixel = [&](const T::Buffer& ix) { return castTo(kF64, read(data, {nc[0], nc[1], iy, T::load(ix, {ox})})); };
      T::Stmt blendX = T::forLoop(iy, i32(0), i32(s.h), T::ForKind::Serial,
                                  T::forLoop(ox, i32(0), i32(ow), T::ForKind::Vectorized,
                                             T::store(rows, {iy, ox}, add(mul(pixel(xs.index[0]), sub(one, tx)), mul(pixel(xs.index[1]), tx)))));
      PrimExpr ty = T::load(ys.fraction, {oy});
      PrimExpr top = T::load(rows, {T::load(ys.index[0], {oy}), ox2}), bottom = T::load(rows, {T::load(ys.index[1], {oy}), ox2});
      PrimExpr value = add(mul(top, sub(one, ty)), mul(bottom, ty));
      T::Stmt blendY = T::forLoop(oy, i32(0), i32(oh), T::ForKind::Serial,
                                  T::forLoop(ox2, i32(0), i32(ow), T::ForKind::Vectorized, finishElement(l, {nc[0], nc[1], oy, ox2}, toOutput(outType, value))));
      return T::seq({blendX, blendY});
    }));  // serial: the images share the scratch
  } else {
    fill.push_back(loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& o) {
      auto pixel = [&](const T::Buffer& iy, const T::Buffer& ix) { return read(data, {o[0], o[1], T::load(iy, {o[2]}), T::load(ix, {o[3]})}); };
      PrimExpr value;
      if (nearest) {
        PrimExpr v = pixel(ys.index[0], xs.index[0]);
        value = v->dtype == outType && outType.code != DTypeCode::Int64 ? v : castTo(kF64, v);
      } else {
        PrimExpr one = f64(1.0), ty = T::load(ys.fraction, {o[2]}), tx = T::load(xs.fraction, {o[3]});
        auto at = [&](int j, int i) { return castTo(kF64, pixel(ys.index[j], xs.index[i])); };
        PrimExpr top = add(mul(at(0, 0), sub(one, tx)), mul(at(0, 1), tx));
        PrimExpr bottom = add(mul(at(1, 0), sub(one, tx)), mul(at(1, 1), tx));
        value = add(mul(top, sub(one, ty)), mul(bottom, ty));
      }
      PrimExpr result = value->dtype == kF64 ? toOutput(outType, value) : castTo(outType, value);
      return finishElement(l, o, result);
    }, NestSchedule{l.host && numElements(l.out->shape) >= 1024, true}));
  }
  T::Stmt body = T::seq(std::move(fill));
  for (size_t i = scratch.size(); i-- > 0;) body = T::allocate(scratch[i], body);
  return body;
}

}  // namespace

T::Stmt lowerResize2D(const OpLowering& l) {
  ResizeSpec s = readSpec(l);
  if ((s.method == "nearest_neighbor" || s.method == "linear") && s.mode != "tf_crop_and_resize" &&
      s.pos == std::vector<size_t>{0, 1, 2, 3})
    return lowerResize2DTables(l, s);
  const Operand& data = l.args.at(0);
  DataType outType = l.out->dtype;
  const std::vector<size_t>& p = s.pos;
  int64_t oh = l.out->shape[p[2]], ow = l.out->shape[p[3]];
  bool nearest = s.method == "nearest_neighbor", linear = s.method == "linear";
  bool crop = s.mode == "tf_crop_and_resize";
  NestSchedule schedule{l.host && numElements(l.out->shape) >= 1024, false};

  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& o) {
    Lets lets;
    PrimExpr inY = lets.bind("in_y", sourceCoordinate(s.mode, o[p[2]], s.h, oh, s.roi[0], s.roi[2]));
    PrimExpr inX = lets.bind("in_x", sourceCoordinate(s.mode, o[p[3]], s.w, ow, s.roi[1], s.roi[3]));
    auto pixel = [&](const PrimExpr& iy, const PrimExpr& ix) {
      std::vector<PrimExpr> di(4);
      di[p[0]] = o[p[0]], di[p[1]] = o[p[1]], di[p[2]] = iy, di[p[3]] = ix;
      return read(data, di);
    };
    PrimExpr value;  // float64, except a same-dtype nearest copy
    if (nearest) {
      PrimExpr v = pixel(clampedIndex(nearestPosition(s.rounding, inY), s.h), clampedIndex(nearestPosition(s.rounding, inX), s.w));
      // The kernel copies through double; that is the identity except for int64.
      bool copy = v->dtype == outType && outType.code != DTypeCode::Int64 && !crop;
      value = copy ? v : castTo(kF64, v);
    } else {
      // floor() of a float32 is exact, so the kernel's double(in) - double(int64(floor(in)))
      // is the float64 difference of the two float32 values.
      PrimExpr y0 = lets.bind("y0", floorF32(inY)), x0 = lets.bind("x0", floorF32(inX));
      PrimExpr ty = lets.bind("ty", sub(castTo(kF64, inY), castTo(kF64, y0)));
      PrimExpr tx = lets.bind("tx", sub(castTo(kF64, inX), castTo(kF64, x0)));
      int first = linear ? 0 : -1, taps = linear ? 2 : 4;
      std::vector<PrimExpr> iy, ix;
      for (int k = 0; k < taps; ++k) {
        float offset = static_cast<float>(first + k);
        PrimExpr py = offset == 0 ? y0 : add(y0, f32(offset)), px = offset == 0 ? x0 : add(x0, f32(offset));
        iy.push_back(lets.bind("iy" + std::to_string(k), clampedIndex(py, s.h)));
        ix.push_back(lets.bind("ix" + std::to_string(k), clampedIndex(px, s.w)));
      }
      auto at = [&](int j, int i) { return castTo(kF64, pixel(iy[j], ix[i])); };
      if (linear) {
        PrimExpr one = f64(1.0);
        PrimExpr top = add(mul(at(0, 0), sub(one, tx)), mul(at(0, 1), tx));
        PrimExpr bottom = add(mul(at(1, 0), sub(one, tx)), mul(at(1, 1), tx));
        value = add(mul(top, sub(one, ty)), mul(bottom, ty));
      } else {
        std::array<PrimExpr, 4> wy = cubicWeights(lets, "y", ty, s.alpha), wx = cubicWeights(lets, "x", tx, s.alpha);
        if (s.exclude) {
          // Drop taps outside the image and renormalize (sums in the kernel's order).
          auto renormalize = [&](std::array<PrimExpr, 4>& wts, const PrimExpr& base, int64_t extent, const std::string& axis) {
            PrimExpr sum;
            for (int k = 0; k < 4; ++k) {
              PrimExpr tap = add(base, f32(static_cast<float>(k - 1)));
              PrimExpr outside = bin(BinaryOp::Or, bin(BinaryOp::LT, tap, f32(0.0f)),
                                     bin(BinaryOp::GE, tap, f32(static_cast<float>(extent))));
              wts[k] = lets.bind("w" + axis + std::to_string(k), T::select(outside, f64(0.0), wts[k]));
              sum = sum ? add(sum, wts[k]) : wts[k];
            }
            PrimExpr total = lets.bind("sum_" + axis, sum);
            for (int k = 0; k < 4; ++k) wts[k] = div(wts[k], total);
          };
          renormalize(wy, y0, s.h, "y");
          renormalize(wx, x0, s.w, "x");
        }
        for (int k = 0; k < 4; ++k) {
          wy[k] = lets.bind("wy" + std::to_string(k), wy[k]);
          wx[k] = lets.bind("wx" + std::to_string(k), wx[k]);
        }
        for (int j = 0; j < 4; ++j) {
          PrimExpr row;
          for (int i = 0; i < 4; ++i) {
            PrimExpr term = mul(at(j, i), wx[i]);
            row = row ? add(row, term) : term;
          }
          PrimExpr term = mul(row, wy[j]);
          value = value ? add(value, term) : term;
        }
      }
    }
    if (crop) {
      // Outside the image the kernel writes extrapolation_value; the taps above
      // are clamped, so the discarded side of the select stays in bounds.
      auto outsideAxis = [](const PrimExpr& c, int64_t extent) {
        return bin(BinaryOp::Or, bin(BinaryOp::LT, c, f32(0.0f)), bin(BinaryOp::GT, c, f32(static_cast<float>(extent - 1))));
      };
      PrimExpr outside = bin(BinaryOp::Or, outsideAxis(inY, s.h), outsideAxis(inX, s.w));
      value = T::select(outside, f64(s.extrapolation), value);
    }
    PrimExpr result = value->dtype == kF64 ? toOutput(outType, value) : castTo(outType, value);
    return lets.wrap(finishElement(l, o, result));
  }, schedule);
}

}  // namespace passlab::legalize
