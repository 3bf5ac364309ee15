// Interpreter tests of the convolution and matrix kernels against loops
// written here: explicit 7-loop convolutions, im2col + matmul, scatter loops
// for the transposed convolution, naive matrix products; plus layout,
// grouping and dtype properties.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/analysis/type_infer.h"
#include "core/text/parser.h"
#include "tests/interp_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

struct ConvParams {
  int64_t n, c, h, w, o, kh, kw;
  std::vector<int64_t> strides, padding, dilation;
  int64_t groups;
};

std::array<int64_t, 4> padTLBR(const std::vector<int64_t>& p) {
  if (p.size() == 1) return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return {p[0], p[1], p[0], p[1]};
  return {p[0], p[1], p[2], p[3]};
}

AttrDict convAttrs(const ConvParams& p) {
  return {{"strides", ints(p.strides)}, {"padding", ints(p.padding)}, {"dilation", ints(p.dilation)},
          {"groups", AttrValue::integer(p.groups)}};
}

/// The 7-loop definition of a grouped, dilated, padded NCHW/OIHW convolution, in double.
std::vector<double> naiveConv(const NDArray& x, const NDArray& w, const ConvParams& p, int64_t& oh, int64_t& ow) {
  auto pad = padTLBR(p.padding);
  oh = (p.h + pad[0] + pad[2] - (p.kh - 1) * p.dilation[0] - 1) / p.strides[0] + 1;
  ow = (p.w + pad[1] + pad[3] - (p.kw - 1) * p.dilation[1] - 1) / p.strides[1] + 1;
  int64_t cg = p.c / p.groups, og = p.o / p.groups;
  std::vector<double> out(static_cast<size_t>(p.n * p.o * oh * ow), 0.0);
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t o = 0; o < p.o; ++o)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xo = 0; xo < ow; ++xo)
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t ky = 0; ky < p.kh; ++ky)
              for (int64_t kx = 0; kx < p.kw; ++kx) {
                int64_t iy = y * p.strides[0] - pad[0] + ky * p.dilation[0];
                int64_t ix = xo * p.strides[1] - pad[1] + kx * p.dilation[1];
                if (iy < 0 || iy >= p.h || ix < 0 || ix >= p.w) continue;
                int64_t c = (o / og) * cg + ci;
                out[((n * p.o + o) * oh + y) * ow + xo] +=
                    x.getAsDouble(((n * p.c + c) * p.h + iy) * p.w + ix) * w.getAsDouble(((o * cg + ci) * p.kh + ky) * p.kw + kx);
              }
  return out;
}

/// Float32 im2col followed by a float32 matmul summing k in (c, kh, kw) order.
__attribute__((optimize("fp-contract=off"))) std::vector<float> im2colConv(const NDArray& x, const NDArray& w, const ConvParams& p) {
  auto pad = padTLBR(p.padding);
  int64_t oh = (p.h + pad[0] + pad[2] - (p.kh - 1) * p.dilation[0] - 1) / p.strides[0] + 1;
  int64_t ow = (p.w + pad[1] + pad[3] - (p.kw - 1) * p.dilation[1] - 1) / p.strides[1] + 1;
  int64_t k = p.c * p.kh * p.kw, cols = oh * ow;
  const float* xs = x.values<float>().data();
  const float* ws = w.values<float>().data();
  std::vector<float> col(static_cast<size_t>(k * cols)), out(static_cast<size_t>(p.o * cols));
  for (int64_t c = 0; c < p.c; ++c)
    for (int64_t ky = 0; ky < p.kh; ++ky)
      for (int64_t kx = 0; kx < p.kw; ++kx)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t xo = 0; xo < ow; ++xo) {
            int64_t iy = y * p.strides[0] - pad[0] + ky * p.dilation[0];
            int64_t ix = xo * p.strides[1] - pad[1] + kx * p.dilation[1];
            bool inside = iy >= 0 && iy < p.h && ix >= 0 && ix < p.w;
            col[((c * p.kh + ky) * p.kw + kx) * cols + y * ow + xo] = inside ? xs[(c * p.h + iy) * p.w + ix] : 0.0f;
          }
  for (int64_t o = 0; o < p.o; ++o)
    for (int64_t j = 0; j < cols; ++j) {
      float s = 0;
      for (int64_t i = 0; i < k; ++i) s += ws[o * k + i] * col[i * cols + j];
      out[o * cols + j] = s;
    }
  return out;
}

NDArray transposed(const NDArray& a, const std::vector<int64_t>& axes) {
  return runOp(OpId::Transpose, {a}, {{"axes", ints(axes)}});
}

}  // namespace

TEST_CASE("Interp: conv2d matches naive loops", "[interp]") {
  auto p = GENERATE(values<ConvParams>({
      {1, 3, 7, 7, 4, 3, 3, {1, 1}, {1, 1}, {1, 1}, 1},
      {2, 4, 9, 8, 6, 3, 2, {2, 1}, {1, 0, 2, 1}, {1, 1}, 1},
      {1, 4, 10, 10, 4, 3, 3, {1, 1}, {2, 2}, {2, 2}, 1},
      {1, 6, 8, 8, 9, 3, 3, {2, 2}, {1}, {1, 1}, 3},
      {1, 8, 6, 6, 8, 3, 3, {1, 1}, {1, 1}, {1, 1}, 8},
      {1, 5, 4, 4, 7, 1, 1, {1, 1}, {0, 0}, {1, 1}, 1},
      {1, 16, 33, 17, 20, 5, 5, {1, 1}, {2, 2}, {1, 1}, 1},
      {1, 2, 5, 5, 3, 3, 3, {3, 3}, {0, 0}, {1, 2}, 1},
  }));
  NDArray x = randomArray(DTypeCode::Float32, {p.n, p.c, p.h, p.w}, 1);
  NDArray w = randomArray(DTypeCode::Float32, {p.o, p.c / p.groups, p.kh, p.kw}, 2);
  int64_t oh, ow;
  std::vector<double> expected = naiveConv(x, w, p, oh, ow);
  NDArray out = runOp(OpId::Conv2D, {x, w}, convAttrs(p));
  requireValues(out, DTypeCode::Float32, {p.n, p.o, oh, ow}, expected, 1e-5);

  SECTION("float64 matches to double precision") {
    NDArray out64 = runOp(OpId::Conv2D, {runOp(OpId::Cast, {x}, {{"dtype", AttrValue::string("float64")}}),
                                         runOp(OpId::Cast, {w}, {{"dtype", AttrValue::string("float64")}})},
                          convAttrs(p));
    requireValues(out64, DTypeCode::Float64, {p.n, p.o, oh, ow}, expected, 1e-12);
  }
}

TEST_CASE("Interp: conv2d equals im2col and matmul computed by the test", "[interp]") {
  // The blocked GEMM never reassociates, so it agrees bit for bit with a
  // straightforward float32 matmul that sums in the same (c, kh, kw) order.
  auto p = GENERATE(values<ConvParams>({
      {1, 40, 12, 11, 13, 3, 3, {1, 1}, {1, 1}, {1, 1}, 1},  // K = 360 spans two k-blocks
      {1, 3, 20, 20, 5, 5, 5, {2, 2}, {2, 1, 0, 2}, {1, 1}, 1},
  }));
  NDArray x = randomArray(DTypeCode::Float32, {1, p.c, p.h, p.w}, 3);
  NDArray w = randomArray(DTypeCode::Float32, {p.o, p.c, p.kh, p.kw}, 4);
  std::vector<float> expected = im2colConv(x, w, p);
  NDArray out = runOp(OpId::Conv2D, {x, w}, convAttrs(p));
  REQUIRE(out.numElements() == static_cast<int64_t>(expected.size()));
  int64_t differ = 0;
  for (size_t i = 0; i < expected.size(); ++i) differ += out.values<float>()[i] != expected[i];
  CHECK(differ == 0);
}

TEST_CASE("Interp: conv2d in NHWC, HWIO and OHWI equals NCHW/OIHW after transposes", "[interp]") {
  ConvParams p{2, 6, 9, 7, 4, 3, 2, {2, 1}, {1, 2}, {1, 1}, 2};
  NDArray x = randomArray(DTypeCode::Float32, {p.n, p.c, p.h, p.w}, 5);
  NDArray w = randomArray(DTypeCode::Float32, {p.o, p.c / p.groups, p.kh, p.kw}, 6);
  NDArray reference = runOp(OpId::Conv2D, {x, w}, convAttrs(p));
  NDArray xNHWC = transposed(x, {0, 2, 3, 1});
  struct Kernel {
    std::string layout;
    std::vector<int64_t> axes;
  };
  auto k = GENERATE(values<Kernel>({{"OIHW", {0, 1, 2, 3}}, {"HWIO", {2, 3, 1, 0}}, {"OHWI", {0, 2, 3, 1}}, {"IHWO", {1, 2, 3, 0}}}));
  AttrDict attrs = convAttrs(p);
  attrs.set("kernel_layout", AttrValue::string(k.layout));
  attrs.set("data_layout", AttrValue::string("NHWC"));
  NDArray outNHWC = runOp(OpId::Conv2D, {xNHWC, transposed(w, k.axes)}, attrs);
  CHECK(outNHWC.bitwiseEqual(transposed(reference, {0, 2, 3, 1})));
  attrs.set("out_layout", AttrValue::string("NCHW"));
  CHECK(runOp(OpId::Conv2D, {xNHWC, transposed(w, k.axes)}, attrs).bitwiseEqual(reference));
}

TEST_CASE("Interp: grouped conv2d equals one convolution per group", "[interp]") {
  ConvParams p{1, 6, 8, 8, 9, 3, 3, {1, 1}, {1, 1}, {1, 1}, 3};
  NDArray x = randomArray(DTypeCode::Float32, {1, 6, 8, 8}, 7);
  NDArray w = randomArray(DTypeCode::Float32, {9, 2, 3, 3}, 8);
  NDArray grouped = runOp(OpId::Conv2D, {x, w}, convAttrs(p));
  Value xs = runOpValue(OpId::Split, {x}, {{"indices_or_sections", AttrValue::integer(3)}, {"axis", AttrValue::integer(1)}});
  Value ws = runOpValue(OpId::Split, {w}, {{"indices_or_sections", AttrValue::integer(3)}, {"axis", AttrValue::integer(0)}});
  std::vector<Expr> parts;
  ConvParams single = p;
  single.groups = 1;
  for (size_t g = 0; g < 3; ++g) parts.push_back(makeConstant(runOp(OpId::Conv2D, {xs.fields()[g].tensor(), ws.fields()[g].tensor()}, convAttrs(single))));
  Value joined = evaluateExpr(makeOpCall(OpId::Concatenate, {makeTuple(parts)}, {{"axis", AttrValue::integer(1)}}));
  CHECK(joined.tensor().bitwiseEqual(grouped));
}

TEST_CASE("Interp: float16 conv2d accumulates in float32 and rounds once", "[interp]") {
  ConvParams p{1, 8, 10, 10, 6, 3, 3, {1, 1}, {1, 1}, {1, 1}, 1};
  NDArray xh = randomArray(DTypeCode::Float16, {1, 8, 10, 10}, 9);
  NDArray wh = randomArray(DTypeCode::Float16, {6, 8, 3, 3}, 10);
  auto toF32 = [](const NDArray& a) { return runOp(OpId::Cast, {a}, {{"dtype", AttrValue::string("float32")}}); };
  NDArray wide = runOp(OpId::Conv2D, {toF32(xh), toF32(wh)}, convAttrs(p));
  NDArray half = runOp(OpId::Conv2D, {xh, wh}, convAttrs(p));
  REQUIRE(half.dtype() == DataType(DTypeCode::Float16));
  int64_t differ = 0;
  for (int64_t i = 0; i < half.numElements(); ++i) differ += half.values<uint16_t>()[i] != Half(wide.values<float>()[i]).bits;
  CHECK(differ == 0);
  AttrDict attrs = convAttrs(p);
  attrs.set("out_dtype", AttrValue::string("float32"));
  CHECK(runOp(OpId::Conv2D, {xh, wh}, attrs).bitwiseEqual(wide));
}

TEST_CASE("Interp: int8 conv2d with int32 output is exact", "[interp]") {
  ConvParams p{1, 4, 6, 6, 3, 3, 3, {1, 1}, {1, 1}, {1, 1}, 1};
  NDArray x = randomArray(DTypeCode::Int8, {1, 4, 6, 6}, 11, -128, 128);
  NDArray w = randomArray(DTypeCode::Int8, {3, 4, 3, 3}, 12, -128, 128);
  AttrDict attrs = convAttrs(p);
  attrs.set("out_dtype", AttrValue::string("int32"));
  int64_t oh, ow;
  std::vector<double> expected = naiveConv(x, w, p, oh, ow);
  requireValues(runOp(OpId::Conv2D, {x, w}, attrs), DTypeCode::Int32, {1, 3, oh, ow}, expected);
}

namespace {

struct TransposeParams {
  int64_t c, h, w, oPerGroup, kh, kw;
  std::vector<int64_t> strides, padding, dilation, outputPadding;
  int64_t groups;
};

/// Scatter definition: every input pixel adds w * x to the outputs its taps reach (IOHW weights).
std::vector<double> naiveConvTranspose(const NDArray& x, const NDArray& w, const TransposeParams& p, int64_t& oh, int64_t& ow) {
  auto pad = padTLBR(p.padding);
  oh = (p.h - 1) * p.strides[0] - pad[0] - pad[2] + (p.kh - 1) * p.dilation[0] + 1 + p.outputPadding[0];
  ow = (p.w - 1) * p.strides[1] - pad[1] - pad[3] + (p.kw - 1) * p.dilation[1] + 1 + p.outputPadding[1];
  int64_t outC = p.oPerGroup * p.groups, cg = p.c / p.groups;
  std::vector<double> out(static_cast<size_t>(outC * oh * ow), 0.0);
  for (int64_t c = 0; c < p.c; ++c)
    for (int64_t y = 0; y < p.h; ++y)
      for (int64_t xi = 0; xi < p.w; ++xi)
        for (int64_t o = 0; o < p.oPerGroup; ++o)
          for (int64_t ky = 0; ky < p.kh; ++ky)
            for (int64_t kx = 0; kx < p.kw; ++kx) {
              int64_t oy = y * p.strides[0] - pad[0] + ky * p.dilation[0];
              int64_t ox = xi * p.strides[1] - pad[1] + kx * p.dilation[1];
              if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
              int64_t oc = (c / cg) * p.oPerGroup + o;
              out[(oc * oh + oy) * ow + ox] +=
                  x.getAsDouble((c * p.h + y) * p.w + xi) * w.getAsDouble(((c * p.oPerGroup + o) * p.kh + ky) * p.kw + kx);
            }
  return out;
}

}  // namespace

TEST_CASE("Interp: conv2d_transpose matches scatter loops", "[interp]") {
  auto p = GENERATE(values<TransposeParams>({
      {3, 4, 5, 2, 3, 3, {1, 1}, {0, 0}, {1, 1}, {0, 0}, 1},
      {4, 5, 4, 3, 3, 3, {2, 2}, {1, 1}, {1, 1}, {1, 1}, 1},
      {4, 3, 3, 2, 2, 3, {2, 3}, {0, 1, 1, 0}, {2, 1}, {1, 0}, 2},
  }));
  NDArray x = randomArray(DTypeCode::Float32, {1, p.c, p.h, p.w}, 13);
  NDArray w = randomArray(DTypeCode::Float32, {p.c, p.oPerGroup, p.kh, p.kw}, 14);
  AttrDict attrs{{"strides", ints(p.strides)}, {"padding", ints(p.padding)}, {"dilation", ints(p.dilation)},
                 {"output_padding", ints(p.outputPadding)}, {"groups", AttrValue::integer(p.groups)}};
  int64_t oh, ow;
  std::vector<double> expected = naiveConvTranspose(x, w, p, oh, ow);
  requireValues(runOp(OpId::Conv2DTranspose, {x, w}, attrs), DTypeCode::Float32, {1, p.oPerGroup * p.groups, oh, ow}, expected, 1e-5);
}

TEST_CASE("Interp: conv2d_transpose is the adjoint of conv2d", "[interp]") {
  // <conv(x, w), y> == <x, conv_transpose(y, w)> for the same window parameters.
  ConvParams p{1, 3, 9, 9, 4, 3, 3, {2, 2}, {1, 1}, {1, 1}, 1};
  NDArray x = randomArray(DTypeCode::Float64, {1, 3, 9, 9}, 15);
  NDArray w = randomArray(DTypeCode::Float64, {4, 3, 3, 3}, 16);
  NDArray cx = runOp(OpId::Conv2D, {x, w}, convAttrs(p));
  NDArray y = randomArray(DTypeCode::Float64, cx.shape(), 17);
  AttrDict attrs = convAttrs(p);
  attrs.set("kernel_layout", AttrValue::string("IOHW"));  // conv's OIHW weight read as the transpose's IOHW
  NDArray ty = runOp(OpId::Conv2DTranspose, {y, w}, attrs);
  REQUIRE(ty.shape() == x.shape());
  double lhs = 0, rhs = 0;
  for (int64_t i = 0; i < cx.numElements(); ++i) lhs += cx.getAsDouble(i) * y.getAsDouble(i);
  for (int64_t i = 0; i < x.numElements(); ++i) rhs += x.getAsDouble(i) * ty.getAsDouble(i);
  CHECK(lhs == Approx(rhs).epsilon(1e-12));
}

TEST_CASE("Interp: dense matches naive loops", "[interp]") {
  auto dtype = GENERATE(DTypeCode::Float32, DTypeCode::Float64, DTypeCode::Int32, DTypeCode::Float16);
  auto m = GENERATE(1, 3, 4, 70);
  auto k = GENERATE(1, 7, 300);
  const int64_t n = 13;
  bool isInt = dtype == DTypeCode::Int32;
  NDArray x = randomArray(dtype, {m, k}, 18, isInt ? -50 : -1, isInt ? 50 : 1);
  NDArray w = randomArray(dtype, {n, k}, 19, isInt ? -50 : -1, isInt ? 50 : 1);
  std::vector<double> expected(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t t = 0; t < k; ++t) expected[i * n + j] += x.getAsDouble(i * k + t) * w.getAsDouble(j * k + t);
  // Rounding error grows like sqrt(k); float16 is dominated by the final rounding.
  double perTerm = dtype == DTypeCode::Float16 ? 4e-3 : dtype == DTypeCode::Float32 ? 1e-6 : dtype == DTypeCode::Float64 ? 1e-14 : 0;
  INFO("dtype " << DataType(dtype).name() << " m=" << m << " k=" << k);
  // Batched leading axes are rows too.
  NDArray out = runOp(OpId::Dense, {x.reshaped({1, m, k}), w});
  requireValues(out, dtype, {1, m, n}, expected, perTerm * std::sqrt(static_cast<double>(k)));
}

TEST_CASE("Interp: matmul and batch_matmul honour transposes and batch broadcasting", "[interp]") {
  NDArray a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  NDArray b = f32({3, 2}, {1, 0, 0, 1, 1, 1});
  std::vector<double> ab = {4, 5, 10, 11};
  requireValues(runOp(OpId::Matmul, {a, b}), DTypeCode::Float32, {2, 2}, ab);
  AttrDict tt{{"transpose_a", AttrValue::boolean(true)}, {"transpose_b", AttrValue::boolean(true)}};
  requireValues(runOp(OpId::Matmul, {transposed(a, {1, 0}), transposed(b, {1, 0})}, tt), DTypeCode::Float32, {2, 2}, ab);
  requireValues(runOp(OpId::Matmul, {a, transposed(b, {1, 0})}, {{"transpose_b", AttrValue::boolean(true)}}), DTypeCode::Float32,
                {2, 2}, ab);
  // batch_matmul defaults to transpose_b=True: y is [B, N, K].
  NDArray x = f32({2, 1, 3}, {1, 2, 3, 4, 5, 6});
  NDArray y = f32({1, 2, 3}, {1, 1, 1, 1, 0, -1});
  requireValues(runOp(OpId::BatchMatmul, {x, y}), DTypeCode::Float32, {2, 1, 2}, {6, -2, 15, -2});
  requireValues(runOp(OpId::BatchMatmul, {x, transposed(y, {0, 2, 1})}, {{"transpose_b", AttrValue::boolean(false)}}),
                DTypeCode::Float32, {2, 1, 2}, {6, -2, 15, -2});
}

// ---- Normalizations, pools, softmax, pad --------------------------------------------

TEST_CASE("Interp: softmax rows sum to one and follow the formula", "[interp]") {
  auto axis = GENERATE(-1, 0, 1);
  NDArray x = randomArray(DTypeCode::Float32, {4, 5, 3}, 20, -5, 5);
  NDArray out = runOp(OpId::Softmax, {x}, {{"axis", AttrValue::integer(axis)}});
  int64_t a = axis < 0 ? 2 : axis;
  std::vector<int64_t> strides = {15, 3, 1};
  for (int64_t i = 0; i < x.numElements(); ++i) {
    // Recompute this element's slice: exp(x_i) / sum_j exp(x_j).
    int64_t coord = (i / strides[a]) % x.shape()[a];
    int64_t base = i - coord * strides[a];
    double sum = 0;
    for (int64_t j = 0; j < x.shape()[a]; ++j) sum += std::exp(x.getAsDouble(base + j * strides[a]));
    CHECK(out.getAsDouble(i) == Approx(std::exp(x.getAsDouble(i)) / sum).epsilon(1e-6));
    if (coord == 0) {
      double rowSum = 0;
      for (int64_t j = 0; j < x.shape()[a]; ++j) rowSum += out.getAsDouble(base + j * strides[a]);
      CHECK(rowSum == Approx(1.0).epsilon(1e-6));
    }
  }
  // Large inputs do not overflow (max subtraction).
  NDArray big = runOp(OpId::Softmax, {f32({2}, {1000, 1000})});
  requireValues(big, DTypeCode::Float32, {2}, {0.5, 0.5});
}

TEST_CASE("Interp: batch_norm follows the inference formula and returns three outputs", "[interp]") {
  NDArray x = f32({1, 2, 1, 2}, {1, 2, 3, 4});
  NDArray gamma = f32({2}, {2, 1});
  NDArray beta = f32({2}, {0.5, -1});
  NDArray mean = f32({2}, {1, 3});
  NDArray var = f32({2}, {4, 0.25});
  Value v = runOpValue(OpId::BatchNorm, {x, gamma, beta, mean, var}, {{"epsilon", AttrValue::floating(0)}});
  REQUIRE(v.isTuple());
  REQUIRE(v.fields().size() == 3);
  // channel 0: (x - 1) / 2 * 2 + 0.5; channel 1: (x - 3) / 0.5 * 1 - 1.
  requireValues(v.fields()[0].tensor(), DTypeCode::Float32, {1, 2, 1, 2}, {0.5, 1.5, -1, 1});
  CHECK(v.fields()[1].tensor().bitwiseEqual(mean));
  CHECK(v.fields()[2].tensor().bitwiseEqual(var));
  // axis=3 (NHWC) with scale and center off: (x - mean) / sqrt(var + eps).
  NDArray nhwc = f32({1, 1, 2, 2}, {1, 3, 5, 7});
  Value w = runOpValue(OpId::BatchNorm, {nhwc, gamma, beta, mean, var},
                       {{"axis", AttrValue::integer(3)}, {"epsilon", AttrValue::floating(0)}, {"center", AttrValue::boolean(false)},
                        {"scale", AttrValue::boolean(false)}});
  requireValues(w.fields()[0].tensor(), DTypeCode::Float32, {1, 1, 2, 2}, {0, 0, 2, 8});
}

TEST_CASE("Interp: batch_norm with training=True normalizes by the batch and moves the moving statistics", "[interp]") {
  // Channel 0 holds 1, 3 (batch mean 2, biased variance 1); channel 1 holds 2, 6 (mean 4, variance 4).
  NDArray x = f32({2, 2, 1, 1}, {1, 2, 3, 6});
  NDArray gamma = f32({2}, {2, 1});
  NDArray beta = f32({2}, {0.5, -1});
  NDArray mean = f32({2}, {0, 10});
  NDArray var = f32({2}, {1, 2});
  Value v = runOpValue(OpId::BatchNorm, {x, gamma, beta, mean, var},
                       {{"epsilon", AttrValue::floating(0)}, {"training", AttrValue::boolean(true)}, {"momentum", AttrValue::floating(0.25)}});
  REQUIRE(v.isTuple());
  // channel 0: (x - 2) / 1 * 2 + 0.5; channel 1: (x - 4) / 2 * 1 - 1.
  requireValues(v.fields()[0].tensor(), DTypeCode::Float32, {2, 2, 1, 1}, {-1.5, -2, 2.5, 0});
  // 0.75 * moving + 0.25 * batch.
  requireValues(v.fields()[1].tensor(), DTypeCode::Float32, {2}, {0.5, 8.5});
  requireValues(v.fields()[2].tensor(), DTypeCode::Float32, {2}, {1, 2.5});
}

TEST_CASE("Interp: layer_norm normalizes each slice", "[interp]") {
  NDArray x = randomArray(DTypeCode::Float32, {3, 8}, 21, -4, 4);
  NDArray ones = f32({8}, std::vector<double>(8, 1.0));
  NDArray zeros = f32({8}, std::vector<double>(8, 0.0));
  NDArray out = runOp(OpId::LayerNorm, {x, ones, zeros}, {{"epsilon", AttrValue::floating(0)}});
  for (int64_t r = 0; r < 3; ++r) {
    double mean = 0, sq = 0;
    for (int64_t i = 0; i < 8; ++i) mean += out.getAsDouble(r * 8 + i);
    for (int64_t i = 0; i < 8; ++i) sq += out.getAsDouble(r * 8 + i) * out.getAsDouble(r * 8 + i);
    CHECK(mean / 8 == Approx(0).margin(1e-6));
    CHECK(sq / 8 == Approx(1).epsilon(1e-5));
  }
  NDArray small = runOp(OpId::LayerNorm, {f32({1, 2}, {1, 3}), f32({2}, {2, 3}), f32({2}, {1, 1})}, {{"epsilon", AttrValue::floating(0)}});
  requireValues(small, DTypeCode::Float32, {1, 2}, {-1, 4});  // (-1)*2 + 1, (+1)*3 + 1
}

TEST_CASE("Interp: group_norm normalizes each group of channels over the axes", "[interp]") {
  // 1x4x2, two groups of two channels, normalized over the channels of a group and axis 2.
  // Group 0 holds {1, 3, 5, 7} (mean 4, variance 5), group 1 {0, 0, 2, -2} (mean 0, variance 2).
  NDArray x = f32({1, 4, 2}, {1, 3, 5, 7, 0, 0, 2, -2});
  AttrDict attrs{{"num_groups", AttrValue::integer(2)}, {"channel_axis", AttrValue::integer(1)}, {"axes", ints({2})},
                 {"epsilon", AttrValue::floating(0)}};
  NDArray gamma = f32({4}, {1, 1, 1, 2});
  NDArray beta = f32({4}, {0, 0, 0, 10});
  NDArray out = runOp(OpId::GroupNorm, {x, gamma, beta}, attrs);
  const double s5 = std::sqrt(5.0), s2 = std::sqrt(2.0);
  const std::vector<double> want{-3 / s5, -1 / s5, 1 / s5, 3 / s5, 0, 0, 10 + 2 * 2 / s2, 10 - 2 * 2 / s2};
  for (int64_t i = 0; i < 8; ++i) CHECK(out.getAsDouble(i) == Approx(want[static_cast<size_t>(i)]).epsilon(1e-6));
  // center=False and scale=False leave gamma and beta out; a negative channel axis counts from the end.
  attrs.set("center", AttrValue::boolean(false));
  attrs.set("scale", AttrValue::boolean(false));
  attrs.set("channel_axis", AttrValue::integer(-2));
  NDArray plain = runOp(OpId::GroupNorm, {x, gamma, beta}, attrs);
  CHECK(plain.getAsDouble(6) == Approx(2 / s2).epsilon(1e-6));
  CHECK(plain.getAsDouble(7) == Approx(-2 / s2).epsilon(1e-6));
  // Four groups of one channel: each channel on its own (instance norm).
  attrs.set("num_groups", AttrValue::integer(4));
  NDArray single = runOp(OpId::GroupNorm, {x, gamma, beta}, attrs);
  CHECK(single.getAsDouble(0) == Approx(-1).epsilon(1e-6));
  CHECK(single.getAsDouble(3) == Approx(1).epsilon(1e-6));
}

TEST_CASE("Interp: max and avg pools with padding, ceil mode and count_include_pad", "[interp]") {
  // 1x1x3x3: 1..9, 2x2 window, stride 2, padding 1 on every side.
  NDArray x = f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  AttrDict base{{"pool_size", ints({2, 2})}, {"strides", ints({2, 2})}, {"padding", ints({1, 1})}};
  requireValues(runOp(OpId::MaxPool2D, {x}, base), DTypeCode::Float32, {1, 1, 2, 2}, {1, 3, 7, 9});
  requireValues(runOp(OpId::AvgPool2D, {x}, base), DTypeCode::Float32, {1, 1, 2, 2}, {1, 2.5, 5.5, 7});
  AttrDict include = base;
  include.set("count_include_pad", AttrValue::boolean(true));
  requireValues(runOp(OpId::AvgPool2D, {x}, include), DTypeCode::Float32, {1, 1, 2, 2}, {0.25, 1.25, 2.75, 7});
  // ceil_mode adds a last, partial window.
  AttrDict ceil{{"pool_size", ints({2, 2})}, {"strides", ints({2, 2})}, {"ceil_mode", AttrValue::boolean(true)}};
  requireValues(runOp(OpId::MaxPool2D, {x}, ceil), DTypeCode::Float32, {1, 1, 2, 2}, {5, 6, 8, 9});
  requireValues(runOp(OpId::AvgPool2D, {x}, ceil), DTypeCode::Float32, {1, 1, 2, 2}, {3, 4.5, 7.5, 9});

  SECTION("NHWC agrees with NCHW") {
    NDArray y = randomArray(DTypeCode::Float32, {2, 3, 7, 6}, 22);
    AttrDict attrs{{"pool_size", ints({3, 2})}, {"strides", ints({2, 1})}, {"padding", ints({1, 0, 0, 1})}};
    NDArray nchw = runOp(OpId::AvgPool2D, {y}, attrs);
    attrs.set("layout", AttrValue::string("NHWC"));
    NDArray nhwc = runOp(OpId::AvgPool2D, {transposed(y, {0, 2, 3, 1})}, attrs);
    CHECK(nhwc.bitwiseEqual(transposed(nchw, {0, 2, 3, 1})));
  }
  SECTION("global average pool") {
    NDArray g = runOp(OpId::GlobalAvgPool2D, {x});
    requireValues(g, DTypeCode::Float32, {1, 1, 1, 1}, {5});
    NDArray h = runOp(OpId::GlobalAvgPool2D, {f32({1, 2, 1, 2}, {1, 2, 3, 5})}, {{"layout", AttrValue::string("NHWC")}});
    requireValues(h, DTypeCode::Float32, {1, 1, 1, 2}, {2, 3.5});
  }
}

TEST_CASE("Interp: pad in constant, edge and reflect modes", "[interp]") {
  NDArray x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  AttrValue widths = AttrValue::array({ints({1, 0}), ints({1, 2})});
  requireValues(runOp(OpId::Pad, {x}, {{"pad_width", widths}, {"pad_value", AttrValue::floating(9)}}), DTypeCode::Float32, {3, 6},
                {9, 9, 9, 9, 9, 9, 9, 1, 2, 3, 9, 9, 9, 4, 5, 6, 9, 9});
  requireValues(runOp(OpId::Pad, {x, f32({}, {-1})}, {{"pad_width", widths}}), DTypeCode::Float32, {3, 6},
                {-1, -1, -1, -1, -1, -1, -1, 1, 2, 3, -1, -1, -1, 4, 5, 6, -1, -1});
  requireValues(runOp(OpId::Pad, {x}, {{"pad_width", widths}, {"pad_mode", AttrValue::string("edge")}}), DTypeCode::Float32, {3, 6},
                {1, 1, 2, 3, 3, 3, 1, 1, 2, 3, 3, 3, 4, 4, 5, 6, 6, 6});
  requireValues(runOp(OpId::Pad, {x}, {{"pad_width", widths}, {"pad_mode", AttrValue::string("reflect")}}), DTypeCode::Float32,
                {3, 6}, {5, 4, 5, 6, 5, 4, 2, 1, 2, 3, 2, 1, 5, 4, 5, 6, 5, 4});
}

TEST_CASE("Interp: bias_add adds along the given axis", "[interp]") {
  NDArray x = f32({1, 2, 2}, {1, 2, 3, 4});
  requireValues(runOp(OpId::BiasAdd, {x, f32({2}, {10, 20})}), DTypeCode::Float32, {1, 2, 2}, {11, 12, 23, 24});
  requireValues(runOp(OpId::BiasAdd, {x, f32({2}, {10, 20})}, {{"axis", AttrValue::integer(-1)}}), DTypeCode::Float32, {1, 2, 2},
                {11, 22, 13, 24});
}

TEST_CASE("Interp: quantized uint8 x int8 conv2d, dense and matmul with out_dtype=int32 type-check and compute exactly",
          "[interp][quantized]") {
  // TVM's relations accept integer operands of different dtypes (uint8 data,
  // int8 weights); the products are exact: 200 * -1 + 255 * 2 = 310 and
  // 200 * 127 + 255 * -128 = -7240, which neither uint8 nor int8 can hold.
  struct Case {
    const char* what;
    std::string params;
    std::string call;
    std::vector<int64_t> dataShape, weightShape, outShape;
    std::vector<double> weight;
  };
  Case c = GENERATE(Case{"conv2d", "%d: Tensor[(1, 2, 1, 1), uint8], %w: Tensor[(2, 2, 1, 1), int8]",
                         "nn.conv2d(%d, %w, out_dtype=\"int32\")", {1, 2, 1, 1}, {2, 2, 1, 1}, {1, 2, 1, 1}, {-1, 2, 127, -128}},
                    Case{"dense", "%d: Tensor[(1, 2), uint8], %w: Tensor[(2, 2), int8]", "nn.dense(%d, %w, out_dtype=\"int32\")",
                         {1, 2}, {2, 2}, {1, 2}, {-1, 2, 127, -128}},
                    Case{"matmul", "%d: Tensor[(1, 2), uint8], %w: Tensor[(2, 2), int8]", "nn.matmul(%d, %w, out_dtype=\"int32\")",
                         {1, 2}, {2, 2}, {1, 2}, {-1, 127, 2, -128}});
  CAPTURE(c.what);
  IRModule mod = parseModule("def @main(" + c.params + ") {\n  " + c.call + "\n}\n", "quantized.relay");
  mod = inferTypes(mod);
  const auto* ret = as<TensorTypeNode>(mod->lookupFunction("main")->body->checkedType);
  REQUIRE(ret);
  CHECK(ret->dtype == DataType(DTypeCode::Int32));
  NDArray data = makeArray(DTypeCode::UInt8, c.dataShape, {200, 255});
  NDArray weight = makeArray(DTypeCode::Int8, c.weightShape, c.weight);
  Value out = evaluate(mod, "main", {data, weight});
  requireValues(out.tensor(), DTypeCode::Int32, c.outShape, {310, -7240});
}

TEST_CASE("Interp: float operands of different dtypes are still a type error", "[interp][quantized]") {
  IRModule mod = parseModule("def @main(%d: Tensor[(1, 2), float32], %w: Tensor[(2, 2), float16]) {\n  nn.dense(%d, %w)\n}\n", "mixed.relay");
  try {
    inferTypes(mod);
    FAIL("expected a type error");
  } catch (const DiagnosticError& e) {
    CHECK(e.diagnostics().front().message ==
          "nn.dense: argument dtypes differ: Tensor[(1, 2), float32] and Tensor[(2, 2), float16] (only integer operands may differ, as in "
          "quantized models)");
  }
}
