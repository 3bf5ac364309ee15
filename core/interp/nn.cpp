// nn.bias_add, nn.batch_norm, nn.layer_norm, nn.group_norm, the 2-d pools, nn.softmax and nn.pad.
// Normalizations and softmax compute in double and round once; pools
// accumulate like reductions (float for float16/float32).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "core/interp/kernel_ops.h"

namespace passlab::kernels {

namespace {

/// A 1-d per-channel argument as doubles, checked against the channel count.
std::vector<double> channelVector(const KernelCall& call, size_t argIndex, int64_t channels, const char* role) {
  const NDArray& v = call.tensor(argIndex);
  if (v.ndim() != 1 || v.shape()[0] != channels)
    call.fail(std::string(role) + " must have shape (" + std::to_string(channels) + "), got " + shapeString(v.shape()));
  std::vector<double> out(static_cast<size_t>(channels));
  for (int64_t i = 0; i < channels; ++i) out[i] = v.getAsDouble(i);
  return out;
}

/// NaN test that is simply false for integer compute types.
template <class C>
bool isNaN(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}

/// The smallest value of T: what a max pool's padding holds.
template <class T>
T lowestValue() {
  if constexpr (Elem<T>::kIsFloat) return Elem<T>::fromDouble(-std::numeric_limits<double>::infinity());
  else if constexpr (std::is_same_v<T, BoolElem>) return BoolElem{0};
  else return std::numeric_limits<T>::min();
}

/// Splits a shape around `axis`: outer * extent * inner elements.
struct AxisSplit {
  int64_t outer = 1, extent = 1, inner = 1;
};
AxisSplit splitAt(const std::vector<int64_t>& shape, int64_t axis) {
  AxisSplit s;
  for (int64_t i = 0; i < axis; ++i) s.outer *= shape[i];
  s.extent = shape[axis];
  for (size_t i = axis + 1; i < shape.size(); ++i) s.inner *= shape[i];
  return s;
}

/// Applies `f(values, count, stride)` to every 1-d slice along `axis`, with the
/// slice read into doubles and the doubles `f` leaves in place rounded back once.
template <class F>
NDArray mapSlicesInDouble(const NDArray& data, int64_t axis, F f) {
  NDArray out(data.dtype(), data.shape());
  AxisSplit s = splitAt(data.shape(), axis);
  std::vector<double> slice(static_cast<size_t>(s.extent));
  dispatchDType(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = elems<T>(data);
    T* dst = mutableElems<T>(out);
    for (int64_t o = 0; o < s.outer; ++o) {
      for (int64_t i = 0; i < s.inner; ++i) {
        int64_t base = o * s.extent * s.inner + i;
        for (int64_t e = 0; e < s.extent; ++e) slice[e] = Elem<T>::toDouble(src[base + e * s.inner]);
        f(slice);
        for (int64_t e = 0; e < s.extent; ++e) dst[base + e * s.inner] = Elem<T>::fromDouble(slice[e]);
      }
    }
  });
  return out;
}

/// Copies an element-size-agnostic padded array: each output index maps to a
/// source index or to the fill value (`map` returns -1 for fill).
template <class Word, class Map>
void padWords(const NDArray& src, const Word fill, NDArray& out, const std::vector<int64_t>& before, Map map) {
  const Word* in = elems<Word>(src);
  Word* dst = mutableElems<Word>(out);
  const std::vector<int64_t>& outShape = out.shape();
  const std::vector<int64_t>& inShape = src.shape();
  size_t rank = outShape.size();
  if (rank == 0) {
    dst[0] = in[0];
    return;
  }
  std::vector<int64_t> inStrides = rowMajorStrides(inShape);
  int64_t rowLength = outShape[rank - 1];
  std::vector<int64_t> lastMap(static_cast<size_t>(rowLength));
  for (int64_t j = 0; j < rowLength; ++j) lastMap[j] = map(j - before[rank - 1], inShape[rank - 1]);
  std::vector<int64_t> index(rank, 0);
  for (int64_t out0 = 0, total = out.numElements(); out0 < total; out0 += rowLength) {
    int64_t srcRow = 0;
    bool fillRow = false;
    for (size_t d = 0; d + 1 < rank && !fillRow; ++d) {
      int64_t s = map(index[d] - before[d], inShape[d]);
      if (s < 0) fillRow = true;
      else srcRow += s * inStrides[d];
    }
    for (int64_t j = 0; j < rowLength; ++j) dst[out0 + j] = (fillRow || lastMap[j] < 0) ? fill : in[srcRow + lastMap[j]];
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < outShape[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

Value biasAddKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  const NDArray& bias = call.tensor(1);
  int64_t axis = call.axis(call.attrInt("axis"), data.ndim());
  if (bias.ndim() != 1 || bias.shape()[0] != data.shape()[axis])
    call.fail("bias " + shapeString(bias.shape()) + " does not match axis " + std::to_string(axis) + " of " + shapeString(data.shape()));
  // bias_add is add with the bias expanded to [C, 1, ..., 1]: same rounding as add.
  std::vector<int64_t> expanded(data.ndim() - axis, 1);
  expanded[0] = bias.shape()[0];
  std::vector<Value> args{data, bias.reshaped(expanded)};
  AttrDict none;
  KernelCall add(opDef(OpId::Add), args, none, nullptr);
  return binaryKernel(add, OpId::Add);
}

Value batchNormKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  int64_t axis = call.axis(call.attrInt("axis"), data.ndim());
  int64_t channels = data.shape()[axis];
  std::vector<double> gamma = channelVector(call, 1, channels, "gamma");
  std::vector<double> beta = channelVector(call, 2, channels, "beta");
  std::vector<double> mean = channelVector(call, 3, channels, "moving_mean");
  std::vector<double> var = channelVector(call, 4, channels, "moving_var");
  double epsilon = call.attrFloat("epsilon");
  bool center = call.attrBool("center"), scale = call.attrBool("scale");
  const bool training = call.attrBool("training");
  // Inference form: (x - mean) / sqrt(var + eps) * gamma + beta, per channel.
  // Training form (Relax's training=True, topi.nn.batch_norm): the batch's own
  // mean and biased variance over every axis but `axis` take the moving ones' place.
  AxisSplit s = splitAt(data.shape(), axis);
  NDArray out(data.dtype(), data.shape());
  std::vector<double> batchMean(static_cast<size_t>(channels)), batchVar(static_cast<size_t>(channels));
  dispatchDType(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = elems<T>(data);
    T* dst = mutableElems<T>(out);
    if (training) {
      const double count = static_cast<double>(s.outer * s.inner);
      for (int64_t c = 0; c < channels; ++c) {
        double sum = 0, squares = 0;
        for (int64_t o = 0; o < s.outer; ++o)
          for (int64_t i = 0; i < s.inner; ++i) sum += Elem<T>::toDouble(src[(o * channels + c) * s.inner + i]);
        const double m = sum / count;
        for (int64_t o = 0; o < s.outer; ++o)
          for (int64_t i = 0; i < s.inner; ++i) {
            double d = Elem<T>::toDouble(src[(o * channels + c) * s.inner + i]) - m;
            squares += d * d;
          }
        batchMean[static_cast<size_t>(c)] = m;
        batchVar[static_cast<size_t>(c)] = squares / count;
      }
      mean = batchMean;
      var = batchVar;
    }
    for (int64_t c = 0; c < channels; ++c) {
      double invStd = 1.0 / std::sqrt(var[c] + epsilon);
      double g = scale ? gamma[c] : 1.0;
      double b = center ? beta[c] : 0.0;
      for (int64_t o = 0; o < s.outer; ++o) {
        int64_t base = (o * channels + c) * s.inner;
        for (int64_t i = 0; i < s.inner; ++i) dst[base + i] = Elem<T>::fromDouble((Elem<T>::toDouble(src[base + i]) - mean[c]) * invStd * g + b);
      }
    }
  });
  // TVM returns (output, moving_mean, moving_var); inference leaves the moments unchanged,
  // training moves them toward the batch's: (1 - momentum) * moving + momentum * batch.
  if (!training) return Value::tuple({out, call.tensor(3), call.tensor(4)});
  const double momentum = call.attrFloat("momentum");
  auto moved = [&](size_t index, const std::vector<double>& batch) {
    const NDArray& moving = call.tensor(index);
    NDArray r(moving.dtype(), moving.shape());
    for (int64_t c = 0; c < channels; ++c)
      r.setFromDouble(c, (1 - momentum) * moving.getAsDouble(c) + momentum * batch[static_cast<size_t>(c)]);
    return r;
  };
  return Value::tuple({out, moved(3, batchMean), moved(4, batchVar)});
}

Value layerNormKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  int64_t axis = call.axis(call.attrInt("axis"), data.ndim());
  int64_t extent = data.shape()[axis];
  std::vector<double> gamma = channelVector(call, 1, extent, "gamma");
  std::vector<double> beta = channelVector(call, 2, extent, "beta");
  double epsilon = call.attrFloat("epsilon");
  bool center = call.attrBool("center"), scale = call.attrBool("scale");
  return mapSlicesInDouble(data, axis, [&](std::vector<double>& v) {
    double mean = 0, var = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    for (double x : v) var += (x - mean) * (x - mean);
    var /= static_cast<double>(v.size());
    double invStd = 1.0 / std::sqrt(var + epsilon);
    for (size_t i = 0; i < v.size(); ++i) v[i] = (v[i] - mean) * invStd * (scale ? gamma[i] : 1.0) + (center ? beta[i] : 0.0);
  });
}

Value softmaxKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  if (!data.dtype().isFloat()) call.fail("expects a floating-point tensor, got " + std::string(data.dtype().name()));
  int64_t axis = call.axis(call.attrInt("axis"), data.ndim());
  return mapSlicesInDouble(data, axis, [](std::vector<double>& v) {
    double m = -std::numeric_limits<double>::infinity();
    for (double x : v) m = std::max(m, x);  // subtract the max so exp never overflows
    double sum = 0;
    for (double& x : v) sum += (x = std::exp(x - m));
    for (double& x : v) x /= sum;
  });
}

Value groupNormKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  const size_t rank = data.ndim();
  const int64_t channelAxis = call.axis(call.attrInt("channel_axis"), rank);
  const int64_t channels = data.shape()[channelAxis];
  const int64_t groups = call.attrInt("num_groups");
  if (groups <= 0 || channels % groups != 0)
    call.fail("num_groups " + std::to_string(groups) + " does not divide the " + std::to_string(channels) + " channels");
  std::vector<double> gamma = channelVector(call, 1, channels, "gamma");
  std::vector<double> beta = channelVector(call, 2, channels, "beta");
  std::vector<bool> reduced(rank, false);
  for (int64_t a : call.attrInts("axes")) {
    int64_t axis = call.axis(a, rank);
    if (axis == channelAxis) call.fail("channel_axis must not be in axes");
    reduced[static_cast<size_t>(axis)] = true;
  }
  const double epsilon = call.attrFloat("epsilon");
  const bool center = call.attrBool("center"), scale = call.attrBool("scale");
  // topi's form: the channel axis splits into (group, channel in group); the
  // statistics run over the channel in group and `axes`, one per group and
  // per index of every other axis. Each element's statistic index is its
  // index over the kept axes, the group in the channel axis's place.
  const int64_t perGroup = channels / groups;
  const int64_t n = data.numElements();
  std::vector<int64_t> statOf(static_cast<size_t>(n));
  std::vector<int64_t> index(rank, 0);
  int64_t stats = 1;
  for (size_t d = 0; d < rank; ++d)
    if (!reduced[d]) stats *= static_cast<int64_t>(d) == channelAxis ? groups : data.shape()[d];
  for (int64_t e = 0; e < n; ++e) {
    int64_t s = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (reduced[d]) continue;
      bool channel = static_cast<int64_t>(d) == channelAxis;
      s = s * (channel ? groups : data.shape()[d]) + (channel ? index[d] / perGroup : index[d]);
    }
    statOf[static_cast<size_t>(e)] = s;
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < data.shape()[d]) break;
      index[d] = 0;
    }
  }
  std::vector<double> sum(static_cast<size_t>(stats), 0.0), squares(static_cast<size_t>(stats), 0.0);
  std::vector<int64_t> count(static_cast<size_t>(stats), 0);
  for (int64_t e = 0; e < n; ++e) {
    sum[statOf[e]] += data.getAsDouble(e);
    ++count[statOf[e]];
  }
  for (int64_t s = 0; s < stats; ++s) sum[s] /= static_cast<double>(std::max<int64_t>(count[s], 1));
  for (int64_t e = 0; e < n; ++e) {
    double d = data.getAsDouble(e) - sum[statOf[e]];
    squares[statOf[e]] += d * d;
  }
  NDArray out(data.dtype(), data.shape());
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(channelAxis) + 1; d < rank; ++d) inner *= data.shape()[d];
  for (int64_t e = 0; e < n; ++e) {
    int64_t s = statOf[e];
    int64_t c = (e / inner) % channels;
    double var = squares[s] / static_cast<double>(std::max<int64_t>(count[s], 1));
    double y = (data.getAsDouble(e) - sum[s]) / std::sqrt(var + epsilon);
    out.setFromDouble(e, y * (scale ? gamma[c] : 1.0) + (center ? beta[c] : 0.0));
  }
  return out;
}

Value pool2dKernel(const KernelCall& call, bool isMax) {
  const NDArray& dataIn = call.tensor(0);
  if (dataIn.ndim() != 4) call.fail("expects 4-d data, got " + shapeString(dataIn.shape()));
  Layout4 dl = parseLayout4(call, call.attrString("layout"), "NCHW", "layout");
  const std::string& outLayoutText = call.attrString("out_layout");
  Layout4 ol = outLayoutText.empty() ? dl : parseLayout4(call, outLayoutText, "NCHW", "out_layout");
  NDArray data = transposeArray(dataIn, toCanonicalPerm(dl));
  auto pool = pair2(call, call.attrInts("pool_size"), "pool_size");
  auto strides = pair2(call, call.attrInts("strides"), "strides");
  auto dilation = pair2(call, call.attrInts("dilation"), "dilation");
  auto pad = padding4(call, call.attrInts("padding"));
  bool ceilMode = call.attrBool("ceil_mode");
  bool includePad = !isMax && call.attrBool("count_include_pad");
  if (pool[0] <= 0 || pool[1] <= 0 || strides[0] <= 0 || strides[1] <= 0 || dilation[0] <= 0 || dilation[1] <= 0)
    call.fail("pool_size, strides and dilation must be positive");
  int64_t batch = data.shape()[0], channels = data.shape()[1], h = data.shape()[2], w = data.shape()[3];
  auto outExtent = [&](int64_t in, int64_t padTotal, int64_t k, int64_t s, int64_t d) {
    int64_t span = in + padTotal - ((k - 1) * d + 1);
    if (span < 0) call.fail("pool window does not fit the padded input " + shapeString(dataIn.shape()));
    return (ceilMode ? (span + s - 1) / s : span / s) + 1;
  };
  int64_t oh = outExtent(h, pad[0] + pad[2], pool[0], strides[0], dilation[0]);
  int64_t ow = outExtent(w, pad[1] + pad[3], pool[1], strides[1], dilation[1]);
  NDArray out(data.dtype(), {batch, channels, oh, ow});
  dispatchDType(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using E = Elem<T>;
    const T* src = elems<T>(data);
    T* dst = mutableElems<T>(out);
    // Padding never wins a max: an all-padding window yields the dtype's lowest value, as TVM pads with it.
    T lowest = lowestValue<T>();
    dispatchAcc(data.dtype(), [&](auto accTag) {
      using Acc = typename decltype(accTag)::type;
      for (int64_t plane = 0; plane < batch * channels; ++plane) {
        const T* in = src + plane * h * w;
        for (int64_t y = 0; y < oh; ++y) {
          int64_t y0 = y * strides[0] - pad[0];
          for (int64_t x = 0; x < ow; ++x) {
            int64_t x0 = x * strides[1] - pad[1];
            T best = lowest;
            Acc sum = Acc(0);
            int64_t count = 0;
            for (int64_t ky = 0; ky < pool[0]; ++ky) {
              int64_t iy = y0 + ky * dilation[0];
              for (int64_t kx = 0; kx < pool[1]; ++kx) {
                int64_t ix = x0 + kx * dilation[1];
                bool inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
                // TVM's count_include_pad counts taps inside the padded extent (not the ceil_mode overhang).
                bool inPadded = iy < h + pad[2] && ix < w + pad[3];
                if (inside) {
                  T v = in[iy * w + ix];
                  if (isMax) {
                    typename E::Compute cv = E::load(v), cb = E::load(best);
                    if (cv > cb || (isNaN(cv) && !isNaN(cb))) best = v;  // NaN propagates
                  } else {
                    sum += toAcc<Acc>(v);
                  }
                }
                if (inside || (includePad && inPadded)) ++count;
              }
            }
            if (isMax) {
              dst[(plane * oh + y) * ow + x] = best;
            } else if (count == 0) {
              dst[(plane * oh + y) * ow + x] = E::fromInt64(0);
            } else if constexpr (std::is_same_v<Acc, uint64_t>) {
              dst[(plane * oh + y) * ow + x] = E::fromInt64(static_cast<int64_t>(sum) / count);
            } else {
              dst[(plane * oh + y) * ow + x] = fromAcc<T>(sum / static_cast<Acc>(count));
            }
          }
        }
      }
    });
  });
  return transposeArray(out, fromCanonicalPerm(ol));
}

Value globalAvgPool2dKernel(const KernelCall& call) {
  const NDArray& dataIn = call.tensor(0);
  if (dataIn.ndim() != 4) call.fail("expects 4-d data, got " + shapeString(dataIn.shape()));
  Layout4 dl = parseLayout4(call, call.attrString("layout"), "NCHW", "layout");
  const std::string& outLayoutText = call.attrString("out_layout");
  Layout4 ol = outLayoutText.empty() ? dl : parseLayout4(call, outLayoutText, "NCHW", "out_layout");
  NDArray data = transposeArray(dataIn, toCanonicalPerm(dl));
  int64_t planes = data.shape()[0] * data.shape()[1], area = data.shape()[2] * data.shape()[3];
  NDArray out(data.dtype(), {data.shape()[0], data.shape()[1], 1, 1});
  dispatchDType(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = elems<T>(data);
    T* dst = mutableElems<T>(out);
    dispatchAcc(data.dtype(), [&](auto accTag) {
      using Acc = typename decltype(accTag)::type;
      for (int64_t p = 0; p < planes; ++p) {
        Acc sum = Acc(0);
        for (int64_t i = 0; i < area; ++i) sum += toAcc<Acc>(src[p * area + i]);
        if (area == 0) call.fail("empty spatial extent");
        if constexpr (std::is_same_v<Acc, uint64_t>) dst[p] = Elem<T>::fromInt64(static_cast<int64_t>(sum) / area);
        else dst[p] = fromAcc<T>(sum / static_cast<Acc>(area));
      }
    });
  });
  return transposeArray(out, fromCanonicalPerm(ol));
}

Value padKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  // TVM >= 0.8 passes the pad value as a scalar argument; older text uses the attribute.
  double padValue = call.numArgs() > 1 ? call.tensor(1).getAsDouble(0) : call.attrFloat("pad_value");
  const std::string& mode = call.attrString("pad_mode");
  const AttrValue& widths = call.attr("pad_width");
  if (widths.kind() != AttrValue::Kind::Array || widths.asArray().size() != data.ndim())
    call.fail("pad_width " + widths.toString() + " must have one [before, after] pair per dimension of " + shapeString(data.shape()));
  std::vector<int64_t> before, outShape = data.shape();
  for (size_t i = 0; i < data.ndim(); ++i) {
    const AttrValue& p = widths.asArray()[i];
    if (p.kind() != AttrValue::Kind::Array || p.asArray().size() != 2 || p.asInts()[0] < 0 || p.asInts()[1] < 0)
      call.fail("pad_width entry " + p.toString() + " must be a non-negative [before, after] pair");
    before.push_back(p.asInts()[0]);
    outShape[i] += p.asInts()[0] + p.asInts()[1];
    if (mode == "reflect" && (p.asInts()[0] >= data.shape()[i] || p.asInts()[1] >= data.shape()[i]))
      call.fail("reflect padding " + p.toString() + " must be smaller than the extent " + std::to_string(data.shape()[i]));
    if (mode == "edge" && data.shape()[i] == 0 && (p.asInts()[0] || p.asInts()[1])) call.fail("edge padding of an empty axis");
  }
  // Source index of output coordinate (position - before) along an axis of `extent`, or -1 for fill.
  std::function<int64_t(int64_t, int64_t)> map;
  if (mode == "constant") {
    map = [](int64_t i, int64_t extent) { return i >= 0 && i < extent ? i : int64_t{-1}; };
  } else if (mode == "edge") {
    map = [](int64_t i, int64_t extent) { return std::clamp<int64_t>(i, 0, extent - 1); };
  } else if (mode == "reflect") {
    map = [](int64_t i, int64_t extent) { return i < 0 ? -i : (i >= extent ? 2 * (extent - 1) - i : i); };
  } else {
    call.fail("pad_mode \"" + mode + "\" is not one of constant, edge, reflect");
  }
  NDArray out(data.dtype(), outShape);
  NDArray fill(data.dtype(), {});
  dispatchDType(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    mutableElems<T>(fill)[0] = Elem<T>::fromDouble(padValue);
  });
  switch (data.dtype().bytes()) {
    case 1: padWords<uint8_t>(data, elems<uint8_t>(fill)[0], out, before, map); break;
    case 2: padWords<uint16_t>(data, elems<uint16_t>(fill)[0], out, before, map); break;
    case 4: padWords<uint32_t>(data, elems<uint32_t>(fill)[0], out, before, map); break;
    default: padWords<uint64_t>(data, elems<uint64_t>(fill)[0], out, before, map); break;
  }
  return out;
}

}  // namespace passlab::kernels
