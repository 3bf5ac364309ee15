// nn.dense, nn.matmul and nn.batch_matmul over the blocked GEMM (gemm.cpp).
// Products accumulate in float for float16/float32 (rounded once to the output
// dtype), double for float64 and wrapping 64-bit integers for integer types.
#include "core/interp/gemm.h"
#include "core/interp/kernel_ops.h"

namespace passlab::kernels {

namespace {

/// A matrix operand as accumulator values with its element strides.
template <class Acc>
struct MatrixOperand {
  const Acc* data;
  int64_t rowStride;
  int64_t colStride;
};

/// Equal dtypes, or two integer types (quantized uint8 x int8): integers
/// accumulate in wrapping 64-bit whatever their width, so mixing them is exact.
bool productDTypesAgree(const NDArray& a, const NDArray& b) {
  return a.dtype() == b.dtype() || (a.dtype().isInt() && b.dtype().isInt());
}

}  // namespace

Value denseKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  const NDArray& weight = call.tensor(1);
  if (data.ndim() < 1 || weight.ndim() != 2 || data.shape().back() != weight.shape()[1])
    call.fail("data " + shapeString(data.shape()) + " does not match weight " + shapeString(weight.shape()) +
              " ([units, in])");
  if (!productDTypesAgree(data, weight)) call.fail("data and weight dtypes differ");
  int64_t k = weight.shape()[1];
  int64_t units = weight.shape()[0];
  int64_t rows = k == 0 ? productOf(std::vector<int64_t>(data.shape().begin(), data.shape().end() - 1)) : data.numElements() / k;
  std::vector<int64_t> outShape = data.shape();
  outShape.back() = units;
  DataType outType = call.attrDType("out_dtype", data.dtype());
  return dispatchAcc(data.dtype(), [&](auto tag) -> NDArray {
    using Acc = typename decltype(tag)::type;
    AccData<Acc> x = accData<Acc>(data);
    AccData<Acc> w = accData<Acc>(weight);
    AccOutput<Acc> out(outType, outShape, false);
    gemmTransposedB<Acc>(rows, units, k, x.ptr, w.ptr, out.data());
    return out.finish();
  });
}

Value matmulKernel(const KernelCall& call) {
  const NDArray& a = call.tensor(0);
  const NDArray& b = call.tensor(1);
  bool ta = call.attrBool("transpose_a"), tb = call.attrBool("transpose_b");
  if (!productDTypesAgree(a, b)) call.fail("operand dtypes differ");
  if (b.ndim() != 2 || a.ndim() < (ta ? 2u : 1u))
    call.fail("expects tensor_a of rank >= " + std::string(ta ? "2" : "1") + " and a 2-d tensor_b, got " +
              shapeString(a.shape()) + " and " + shapeString(b.shape()));
  const std::vector<int64_t>& as = a.shape();
  int64_t k = ta ? as[as.size() - 2] : as.back();
  int64_t kb = tb ? b.shape()[1] : b.shape()[0];
  int64_t n = tb ? b.shape()[0] : b.shape()[1];
  if (k != kb) call.fail("reduction dimensions differ: " + shapeString(as) + " and " + shapeString(b.shape()));
  // Without transpose_a every leading axis is a row; with it, the last two axes
  // of each batch matrix are [K, M].
  int64_t m = ta ? as.back() : (k == 0 ? productOf(std::vector<int64_t>(as.begin(), as.end() - 1)) : a.numElements() / k);
  int64_t batch = ta ? productOf(std::vector<int64_t>(as.begin(), as.end() - 2)) : 1;
  // [..., M, K] x [K, N] -> [..., M, N]; with transpose_a the batch matrices are [..., K, M].
  std::vector<int64_t> outShape(as.begin(), as.end() - (ta ? 2 : 1));
  if (ta) outShape.push_back(m);
  outShape.push_back(n);
  DataType outType = call.attrDType("out_dtype", a.dtype());
  return dispatchAcc(a.dtype(), [&](auto tag) -> NDArray {
    using Acc = typename decltype(tag)::type;
    AccData<Acc> x = accData<Acc>(a);
    AccData<Acc> y = accData<Acc>(b);
    AccOutput<Acc> out(outType, outShape, false);
    if (!ta && tb) {
      gemmTransposedB<Acc>(m, n, k, x.ptr, y.ptr, out.data());  // exactly dense
    } else {
      MatrixOperand<Acc> B{y.ptr, tb ? 1 : n, tb ? k : 1};
      for (int64_t i = 0; i < batch; ++i) {
        MatrixOperand<Acc> A{x.ptr + i * m * k, ta ? 1 : k, ta ? m : 1};
        gemm<Acc>(m, n, k, A.data, A.rowStride, A.colStride, B.data, B.rowStride, B.colStride, out.data() + i * m * n, n);
      }
    }
    return out.finish();
  });
}

Value batchMatmulKernel(const KernelCall& call) {
  const NDArray& x = call.tensor(0);
  const NDArray& y = call.tensor(1);
  bool ta = call.attrBool("transpose_a"), tb = call.attrBool("transpose_b");
  if (!productDTypesAgree(x, y)) call.fail("operand dtypes differ");
  if (x.ndim() != 3 || y.ndim() != 3) call.fail("expects 3-d tensors, got " + shapeString(x.shape()) + " and " + shapeString(y.shape()));
  const auto& xs = x.shape();
  const auto& ys = y.shape();
  int64_t m = ta ? xs[2] : xs[1], k = ta ? xs[1] : xs[2];
  int64_t n = tb ? ys[1] : ys[2], ky = tb ? ys[2] : ys[1];
  if (k != ky) call.fail("reduction dimensions differ: " + shapeString(xs) + " and " + shapeString(ys));
  int64_t bx = xs[0], by = ys[0];
  if (bx != by && bx != 1 && by != 1) call.fail("batch dimensions " + std::to_string(bx) + " and " + std::to_string(by) + " do not broadcast");
  int64_t batch = bx == 1 ? by : bx;
  DataType outType = call.attrDType("out_dtype", x.dtype());
  return dispatchAcc(x.dtype(), [&](auto tag) -> NDArray {
    using Acc = typename decltype(tag)::type;
    AccData<Acc> xa = accData<Acc>(x);
    AccData<Acc> ya = accData<Acc>(y);
    AccOutput<Acc> out(outType, {batch, m, n}, false);
    for (int64_t i = 0; i < batch; ++i) {
      const Acc* xi = xa.ptr + (bx == 1 ? 0 : i) * m * k;
      const Acc* yi = ya.ptr + (by == 1 ? 0 : i) * k * n;
      Acc* oi = out.data() + i * m * n;
      if (!ta && tb) {
        gemmTransposedB<Acc>(m, n, k, xi, yi, oi);
      } else {
        gemm<Acc>(m, n, k, xi, ta ? 1 : k, ta ? m : 1, yi, tb ? 1 : n, tb ? k : 1, oi, n);
      }
    }
    return out.finish();
  });
}

}  // namespace passlab::kernels
