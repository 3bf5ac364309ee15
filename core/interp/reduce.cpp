// Reductions (sum, mean, max, min, prod, argmax, argmin), tensor constructors (zeros, ones, full)
// and shape_of. Sums accumulate in float for float16/float32 and round once
// (TVM's float16 reductions accumulate the same way), double for float64 and
// wrapping 64-bit integers for integer types.
#include <cmath>
#include <cstring>

#include "core/interp/kernel_ops.h"

namespace passlab::kernels {

namespace {

/// Which axes a reduction removes: `axis` (None = all), inverted by `exclude`.
std::vector<bool> reducedAxes(const KernelCall& call, size_t rank) {
  const AttrValue& axisAttr = call.attr("axis");
  std::vector<bool> reduced(rank, axisAttr.isNone());
  if (!axisAttr.isNone()) {
    for (int64_t a : call.attrInts("axis")) {
      int64_t axis = call.axis(a, rank);
      if (reduced[axis]) call.fail("axis " + std::to_string(a) + " is listed twice");
      reduced[axis] = true;
    }
    if (call.attrBool("exclude")) reduced.flip();
  }
  return reduced;
}

/// NaN-propagating comparison used by max/min (a NaN, once seen, stays).
template <class C>
bool replaces(C candidate, C current, bool isMax) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(current)) return false;
    if (std::isnan(candidate)) return true;
  }
  return isMax ? candidate > current : candidate < current;
}

/// Kept axes first and reduced axes last (the permutation), the output shape,
/// and the length of the contiguous run each output element reduces.
struct ReductionLayout {
  std::vector<int64_t> perm, outShape;
  int64_t count = 1;
};

ReductionLayout reductionLayout(const std::vector<bool>& reduced, const std::vector<int64_t>& shape, bool keepdims) {
  ReductionLayout r;
  for (size_t i = 0; i < shape.size(); ++i)
    if (!reduced[i]) r.perm.push_back(static_cast<int64_t>(i));
  for (size_t i = 0; i < shape.size(); ++i) {
    if (reduced[i]) {
      r.perm.push_back(static_cast<int64_t>(i));
      r.count *= shape[i];
    }
    if (!reduced[i]) r.outShape.push_back(shape[i]);
    else if (keepdims) r.outShape.push_back(1);
  }
  return r;
}

}  // namespace

Value reduceKernel(const KernelCall& call, OpId op) {
  const NDArray& data = call.tensor(0);
  size_t rank = data.ndim();
  std::vector<bool> reduced = reducedAxes(call, rank);
  bool keepdims = call.attrBool("keepdims");
  // Move the kept axes first and the reduced axes last, so each output element
  // reduces one contiguous run (no copy when they already are).
  auto [perm, outShape, layoutCount] = reductionLayout(reduced, data.shape(), keepdims);
  const auto count = layoutCount;  // a plain variable: lambdas cannot capture structured bindings before clang 16
  NDArray ordered = transposeArray(data, perm);
  NDArray out(data.dtype(), outShape);
  int64_t outputs = out.numElements();
  if ((op == OpId::Max || op == OpId::Min) && count == 0 && outputs > 0) call.fail("reduction over an empty axis has no value");
  dispatchDType(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using E = Elem<T>;
    const T* src = elems<T>(ordered);
    T* dst = mutableElems<T>(out);
    if (op == OpId::Max || op == OpId::Min) {
      bool isMax = op == OpId::Max;
      for (int64_t o = 0; o < outputs; ++o) {
        const T* run = src + o * count;
        T best = run[0];
        for (int64_t i = 1; i < count; ++i)
          if (replaces(E::load(run[i]), E::load(best), isMax)) best = run[i];
        dst[o] = best;
      }
      return;
    }
    dispatchAcc(data.dtype(), [&](auto accTag) {
      using Acc = typename decltype(accTag)::type;
      if (op == OpId::Prod) {
        // In order, in the accumulator type: the lowering multiplies the same way.
        for (int64_t o = 0; o < outputs; ++o) {
          const T* run = src + o * count;
          Acc product = Acc(1);
          for (int64_t i = 0; i < count; ++i) product *= toAcc<Acc>(run[i]);
          dst[o] = fromAcc<T>(product);
        }
        return;
      }
      for (int64_t o = 0; o < outputs; ++o) {
        const T* run = src + o * count;
        Acc sum = Acc(0);
        for (int64_t i = 0; i < count; ++i) sum += toAcc<Acc>(run[i]);
        if (op == OpId::Sum) {
          dst[o] = fromAcc<T>(sum);
        } else if constexpr (std::is_same_v<Acc, uint64_t>) {
          if (count == 0) call.fail("mean over an empty axis");
          dst[o] = E::fromInt64(static_cast<int64_t>(sum) / count);  // integer mean truncates, as TVM's divide
        } else {
          dst[o] = fromAcc<T>(sum / static_cast<Acc>(count));
        }
      }
    });
  });
  return out;
}

Value argReduceKernel(const KernelCall& call, OpId op) {
  const NDArray& data = call.tensor(0);
  size_t rank = data.ndim();
  std::vector<bool> reduced = reducedAxes(call, rank);
  bool keepdims = call.attrBool("keepdims");
  bool last = call.attrBool("select_last_index");
  bool isMax = op == OpId::ArgMax;
  // Reduced axes last, as in reduceKernel: the position within each run is the
  // row-major index over the reduced axes (TVM's for several axes).
  auto [perm, outShape, layoutCount] = reductionLayout(reduced, data.shape(), keepdims);
  const auto count = layoutCount;  // a plain variable: lambdas cannot capture structured bindings before clang 16
  NDArray ordered = transposeArray(data, perm);
  NDArray out(DTypeCode::Int32, outShape);
  int64_t outputs = out.numElements();
  if (count == 0 && outputs > 0) call.fail("reduction over an empty axis has no position");
  int32_t* dst = mutableElems<int32_t>(out);
  dispatchDType(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using E = Elem<T>;
    const T* src = elems<T>(ordered);
    for (int64_t o = 0; o < outputs; ++o) {
      const T* run = src + o * count;
      auto best = E::load(run[0]);
      int64_t at = 0;
      for (int64_t i = 1; i < count; ++i) {
        auto v = E::load(run[i]);
        // The first NaN wins (NumPy); select_last_index moves to later ties.
        if (replaces(v, best, isMax) || (last && v == best)) best = v, at = i;
      }
      dst[o] = static_cast<int32_t>(at);
    }
  });
  return out;
}

Value initKernel(const KernelCall& call, double fill) {
  std::vector<int64_t> shape = call.attrInts("shape");
  for (int64_t d : shape)
    if (d < 0) call.fail("shape " + shapeString(shape) + " has a negative dimension");
  DataType dtype = call.attrDType("dtype", DTypeCode::Float32);
  NDArray out(dtype, shape);
  if (fill != 0.0) {
    dispatchDType(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T v = Elem<T>::fromDouble(fill);
      T* dst = mutableElems<T>(out);
      for (int64_t i = 0, n = out.numElements(); i < n; ++i) dst[i] = v;
    });
  }
  return out;
}

Value fullKernel(const KernelCall& call) {
  const NDArray& value = call.tensor(0);
  if (value.numElements() != 1) call.fail("fill value must be a scalar, got " + shapeString(value.shape()));
  std::vector<int64_t> shape = call.attrInts("shape");
  for (int64_t d : shape)
    if (d < 0) call.fail("shape " + shapeString(shape) + " has a negative dimension");
  DataType dtype = call.attrDType("dtype", value.dtype());
  NDArray scalar = convertArray(value, dtype);  // one rounding, then copies
  NDArray out(dtype, shape);
  size_t esize = static_cast<size_t>(dtype.bytes());
  for (int64_t i = 0, n = out.numElements(); i < n; ++i) std::memcpy(out.mutableData() + i * static_cast<int64_t>(esize), scalar.rawData(), esize);
  return out;
}

Value shapeOfKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  DataType dtype = call.attrDType("dtype", DTypeCode::Int64);
  if (!dtype.isInt()) call.fail("dtype must be an integer type, got " + std::string(dtype.name()));
  NDArray out(dtype, {static_cast<int64_t>(data.ndim())});
  dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (size_t i = 0; i < data.ndim(); ++i) mutableElems<T>(out)[i] = Elem<T>::fromInt64(data.shape()[i]);
  });
  return out;
}

}  // namespace passlab::kernels
