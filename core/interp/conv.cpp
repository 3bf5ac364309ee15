// nn.conv2d and nn.conv2d_transpose.
//
// Both run in canonical layouts (data NCHW; weights OIHW for conv2d, IOHW for
// the transpose), reached from any permutation layout by a transpose, and
// reduce to the blocked GEMM of gemm.cpp:
//  - conv2d: per image and group, im2col turns the receptive fields into a
//    [Cin/g * KH * KW, OH * OW] matrix and out = W_g * col. The im2col row
//    order (c, kh, kw) makes each output the sum over c, kh, kw in that order.
//  - conv2d_transpose: col = W_g^T * X_g, then col2im scatters-adds col into the
//    output image.
// Accumulation is in float for float16/float32 (rounded once at the end),
// double for float64 and wrapping 64-bit integers for integer types.
#include <algorithm>
#include <memory>

#include "core/interp/gemm.h"
#include "core/interp/kernel_ops.h"

namespace passlab::kernels {

namespace {

/// Shape and window parameters of one 2-d convolution in canonical layout.
struct ConvGeometry {
  int64_t batch = 0, inChannels = 0, inH = 0, inW = 0;
  int64_t outChannels = 0, kernelH = 0, kernelW = 0;
  int64_t groups = 1;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int64_t outH = 0, outW = 0;
};

/// Reads strides, dilation, padding and groups (shared by both convolutions).
void readWindow(const KernelCall& call, ConvGeometry& g) {
  auto strides = pair2(call, call.attrInts("strides"), "strides");
  auto dilation = pair2(call, call.attrInts("dilation"), "dilation");
  auto pad = padding4(call, call.attrInts("padding"));
  g.strideH = strides[0];
  g.strideW = strides[1];
  g.dilationH = dilation[0];
  g.dilationW = dilation[1];
  g.padTop = pad[0];
  g.padLeft = pad[1];
  g.padBottom = pad[2];
  g.padRight = pad[3];
  g.groups = call.attrInt("groups");
  if (g.strideH <= 0 || g.strideW <= 0 || g.dilationH <= 0 || g.dilationW <= 0)
    call.fail("strides and dilation must be positive");
  if (g.groups <= 0) call.fail("groups must be positive, got " + std::to_string(g.groups));
}

/// Fills rows of the im2col matrix for one image and channel group:
/// col[(c * KH + kh) * KW + kw][oh * OW + ow] = x[c][ih][iw] or 0 in the padding.
template <class Acc>
void im2col(const ConvGeometry& g, const Acc* image, int64_t channels, Acc* col) {
  int64_t planeOut = g.outH * g.outW;
  for (int64_t c = 0; c < channels; ++c) {
    const Acc* plane = image + c * g.inH * g.inW;
    for (int64_t kh = 0; kh < g.kernelH; ++kh) {
      for (int64_t kw = 0; kw < g.kernelW; ++kw) {
        Acc* row = col + ((c * g.kernelH + kh) * g.kernelW + kw) * planeOut;
        int64_t colOffset = kw * g.dilationW - g.padLeft;
        // Output columns whose input column iw = ow * stride + colOffset lies inside [0, W).
        int64_t owBegin = colOffset >= 0 ? 0 : (-colOffset + g.strideW - 1) / g.strideW;
        int64_t owEnd = g.inW - colOffset <= 0 ? 0 : std::min(g.outW, (g.inW - colOffset + g.strideW - 1) / g.strideW);
        owBegin = std::min(owBegin, owEnd);
        for (int64_t oh = 0; oh < g.outH; ++oh) {
          Acc* out = row + oh * g.outW;
          int64_t ih = oh * g.strideH - g.padTop + kh * g.dilationH;
          if (ih < 0 || ih >= g.inH) {
            std::fill(out, out + g.outW, Acc(0));
            continue;
          }
          const Acc* in = plane + ih * g.inW;
          std::fill(out, out + owBegin, Acc(0));
          if (g.strideW == 1) {
            std::copy(in + colOffset + owBegin, in + colOffset + owEnd, out + owBegin);
          } else {
            for (int64_t ow = owBegin; ow < owEnd; ++ow) out[ow] = in[ow * g.strideW + colOffset];
          }
          std::fill(out + owEnd, out + g.outW, Acc(0));
        }
      }
    }
  }
}

template <class Acc>
NDArray conv2dCanonical(const ConvGeometry& g, const NDArray& data, const NDArray& weight, DataType outType) {
  AccData<Acc> x = accData<Acc>(data);
  AccData<Acc> w = accData<Acc>(weight);
  int64_t cinPerGroup = g.inChannels / g.groups;
  int64_t coutPerGroup = g.outChannels / g.groups;
  int64_t reduce = cinPerGroup * g.kernelH * g.kernelW;
  int64_t planeOut = g.outH * g.outW;
  AccOutput<Acc> out(outType, {g.batch, g.outChannels, g.outH, g.outW}, false);
  // A 1x1, stride-1, unpadded convolution needs no im2col: the image is the matrix.
  bool pointwise = g.kernelH == 1 && g.kernelW == 1 && g.strideH == 1 && g.strideW == 1 && g.padTop == 0 &&
                   g.padLeft == 0 && g.padBottom == 0 && g.padRight == 0;
  std::unique_ptr<Acc[]> col(pointwise ? nullptr : new Acc[static_cast<size_t>(reduce * planeOut)]);  // im2col fills it all
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const Acc* image = x.ptr + (n * g.inChannels + grp * cinPerGroup) * g.inH * g.inW;
      const Acc* matrix = image;
      if (!pointwise) {
        im2col(g, image, cinPerGroup, col.get());
        matrix = col.get();
      }
      const Acc* wg = w.ptr + grp * coutPerGroup * reduce;
      Acc* og = out.data() + (n * g.outChannels + grp * coutPerGroup) * planeOut;
      gemm<Acc>(coutPerGroup, planeOut, reduce, wg, reduce, 1, matrix, planeOut, 1, og, planeOut);
    }
  }
  return out.finish();
}

template <class Acc>
NDArray conv2dTransposeCanonical(const ConvGeometry& g, const NDArray& data, const NDArray& weight, DataType outType) {
  AccData<Acc> x = accData<Acc>(data);
  AccData<Acc> w = accData<Acc>(weight);  // [Cin, Cout/g, KH, KW]
  int64_t cinPerGroup = g.inChannels / g.groups;
  int64_t coutPerGroup = g.outChannels / g.groups;
  int64_t colRows = coutPerGroup * g.kernelH * g.kernelW;
  int64_t planeIn = g.inH * g.inW;
  AccOutput<Acc> out(outType, {g.batch, g.outChannels, g.outH, g.outW}, true);  // col2im adds into it
  std::unique_ptr<Acc[]> col(new Acc[static_cast<size_t>(colRows * planeIn)]);  // gemm writes it all
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const Acc* xg = x.ptr + (n * g.inChannels + grp * cinPerGroup) * planeIn;
      const Acc* wg = w.ptr + grp * cinPerGroup * colRows;
      // col[r][p] = sum_c w[c][r] * x[c][p]: A is w_g read transposed.
      gemm<Acc>(colRows, planeIn, cinPerGroup, wg, 1, colRows, xg, planeIn, 1, col.get(), planeIn);
      // col2im: input pixel (ih, iw) through tap (kh, kw) lands on
      // oh = ih * stride - pad_top + kh * dilation.
      for (int64_t oc = 0; oc < coutPerGroup; ++oc) {
        Acc* plane = out.data() + (n * g.outChannels + grp * coutPerGroup + oc) * g.outH * g.outW;
        for (int64_t kh = 0; kh < g.kernelH; ++kh) {
          for (int64_t kw = 0; kw < g.kernelW; ++kw) {
            const Acc* row = col.get() + ((oc * g.kernelH + kh) * g.kernelW + kw) * planeIn;
            for (int64_t ih = 0; ih < g.inH; ++ih) {
              int64_t oh = ih * g.strideH - g.padTop + kh * g.dilationH;
              if (oh < 0 || oh >= g.outH) continue;
              for (int64_t iw = 0; iw < g.inW; ++iw) {
                int64_t ow = iw * g.strideW - g.padLeft + kw * g.dilationW;
                if (ow >= 0 && ow < g.outW) plane[oh * g.outW + ow] += row[ih * g.inW + iw];
              }
            }
          }
        }
      }
    }
  }
  return out.finish();
}

/// Output layout: out_layout, or the data layout when empty.
Layout4 outputLayout(const KernelCall& call, const Layout4& dataLayout) {
  const std::string& text = call.attrString("out_layout");
  return text.empty() ? dataLayout : parseLayout4(call, text, "NCHW", "out_layout");
}

}  // namespace

Value conv2dKernel(const KernelCall& call) {
  const NDArray& dataIn = call.tensor(0);
  const NDArray& weightIn = call.tensor(1);
  if (dataIn.ndim() != 4 || weightIn.ndim() != 4)
    call.fail("expects 4-d data and weight, got " + shapeString(dataIn.shape()) + " and " + shapeString(weightIn.shape()));
  Layout4 dl = parseLayout4(call, call.attrString("data_layout"), "NCHW", "data_layout");
  Layout4 kl = parseLayout4(call, call.attrString("kernel_layout"), "OIHW", "kernel_layout");
  // Mixed dtypes are integers only (quantized uint8 x int8): both widen exactly
  // to the 64-bit accumulator the data's dtype selects.
  if (dataIn.dtype() != weightIn.dtype() && !(dataIn.dtype().isInt() && weightIn.dtype().isInt()))
    call.fail("data and weight dtypes differ");
  NDArray data = transposeArray(dataIn, toCanonicalPerm(dl));
  NDArray weight = transposeArray(weightIn, toCanonicalPerm(kl));
  ConvGeometry g;
  readWindow(call, g);
  g.batch = data.shape()[0];
  g.inChannels = data.shape()[1];
  g.inH = data.shape()[2];
  g.inW = data.shape()[3];
  g.outChannels = weight.shape()[0];
  g.kernelH = weight.shape()[2];
  g.kernelW = weight.shape()[3];
  if (g.inChannels != weight.shape()[1] * g.groups || g.outChannels % g.groups != 0)
    call.fail("data " + shapeString(dataIn.shape()) + " and weight " + shapeString(weightIn.shape()) + " do not match with " +
              std::to_string(g.groups) + " group(s)");
  int64_t spanH = g.inH + g.padTop + g.padBottom - ((g.kernelH - 1) * g.dilationH + 1);
  int64_t spanW = g.inW + g.padLeft + g.padRight - ((g.kernelW - 1) * g.dilationW + 1);
  if (spanH < 0 || spanW < 0) call.fail("kernel window does not fit the padded input " + shapeString(dataIn.shape()));
  g.outH = spanH / g.strideH + 1;
  g.outW = spanW / g.strideW + 1;
  DataType outType = call.attrDType("out_dtype", dataIn.dtype());
  NDArray out = dispatchAcc(dataIn.dtype(), [&](auto tag) -> NDArray {
    return conv2dCanonical<typename decltype(tag)::type>(g, data, weight, outType);
  });
  return transposeArray(out, fromCanonicalPerm(outputLayout(call, dl)));
}

Value conv2dTransposeKernel(const KernelCall& call) {
  const NDArray& dataIn = call.tensor(0);
  const NDArray& weightIn = call.tensor(1);
  if (dataIn.ndim() != 4 || weightIn.ndim() != 4)
    call.fail("expects 4-d data and weight, got " + shapeString(dataIn.shape()) + " and " + shapeString(weightIn.shape()));
  Layout4 dl = parseLayout4(call, call.attrString("data_layout"), "NCHW", "data_layout");
  // "I" is the data's channel axis, "O" the output channels per group (TVM's IOHW default).
  Layout4 kl = parseLayout4(call, call.attrString("kernel_layout"), "OIHW", "kernel_layout");
  NDArray data = transposeArray(dataIn, toCanonicalPerm(dl));
  NDArray weight = transposeArray(weightIn, {kl.pos[1], kl.pos[0], kl.pos[2], kl.pos[3]});  // -> IOHW
  ConvGeometry g;
  readWindow(call, g);
  auto outPad = pair2(call, call.attrInts("output_padding"), "output_padding");
  g.batch = data.shape()[0];
  g.inChannels = data.shape()[1];
  g.inH = data.shape()[2];
  g.inW = data.shape()[3];
  g.outChannels = weight.shape()[1] * g.groups;
  g.kernelH = weight.shape()[2];
  g.kernelW = weight.shape()[3];
  if (g.inChannels != weight.shape()[0] || g.inChannels % g.groups != 0)
    call.fail("data " + shapeString(dataIn.shape()) + " and weight " + shapeString(weightIn.shape()) + " do not match with " +
              std::to_string(g.groups) + " group(s)");
  g.outH = (g.inH - 1) * g.strideH - g.padTop - g.padBottom + (g.kernelH - 1) * g.dilationH + 1 + outPad[0];
  g.outW = (g.inW - 1) * g.strideW - g.padLeft - g.padRight + (g.kernelW - 1) * g.dilationW + 1 + outPad[1];
  if (g.outH <= 0 || g.outW <= 0) call.fail("output extent is not positive for data " + shapeString(dataIn.shape()));
  DataType outType = call.attrDType("out_dtype", dataIn.dtype());
  NDArray out = dispatchAcc(dataIn.dtype(), [&](auto tag) -> NDArray {
    return conv2dTransposeCanonical<typename decltype(tag)::type>(g, data, weight, outType);
  });
  return transposeArray(out, fromCanonicalPerm(outputLayout(call, dl)));
}

}  // namespace passlab::kernels
