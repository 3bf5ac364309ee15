// Internal helpers shared by the kernel files: element traits for every dtype,
// dtype dispatch, typed attribute access and shape/stride utilities.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/interp/kernels.h"

namespace passlab::kernels {

/// Storage of a bool element: one byte where any non-zero value means true.
/// A distinct type (not `bool`) so reading a byte other than 0/1 is defined.
struct BoolElem {
  uint8_t raw;
};

/// Per-dtype element traits. `Compute` is the type elementwise arithmetic runs
/// in (float for float16, int64 for every integer type); `load`/`store` convert
/// between storage and Compute with the dtype's rounding or wrapping.
template <class T>
struct Elem;

template <>
struct Elem<float> {
  using Compute = float;
  static constexpr bool kIsFloat = true;
  static float load(float v) { return v; }
  static float store(float c) { return c; }
  static double toDouble(float v) { return v; }
  static float fromDouble(double d) { return static_cast<float>(d); }
  static int64_t toInt64(float v) { return static_cast<int64_t>(v); }
  static float fromInt64(int64_t i) { return static_cast<float>(i); }
};

template <>
struct Elem<double> {
  using Compute = double;
  static constexpr bool kIsFloat = true;
  static double load(double v) { return v; }
  static double store(double c) { return c; }
  static double toDouble(double v) { return v; }
  static double fromDouble(double d) { return d; }
  static int64_t toInt64(double v) { return static_cast<int64_t>(v); }
  static double fromInt64(int64_t i) { return static_cast<double>(i); }
};

template <>
struct Elem<Half> {
  using Compute = float;
  static constexpr bool kIsFloat = true;
  static float load(Half v) { return v.toFloat(); }
  /// Round-to-nearest-even of a float result (see kernels.h for why this is exact).
  static Half store(float c) { return Half(c); }
  static double toDouble(Half v) { return v.toFloat(); }
  static Half fromDouble(double d) { return Half::fromBits(Half::fromDouble(d)); }
  static int64_t toInt64(Half v) { return static_cast<int64_t>(v.toFloat()); }
  static Half fromInt64(int64_t i) { return fromDouble(static_cast<double>(i)); }
};

/// Saturating float -> integer conversion (truncation toward zero, NaN -> 0):
/// C++ leaves out-of-range conversions undefined, a reference must not.
template <class I>
I saturatingFromDouble(double d) {
  if (std::isnan(d)) return 0;
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
  constexpr double hi = static_cast<double>(std::numeric_limits<I>::max());
  if (d <= lo) return std::numeric_limits<I>::min();
  if (d >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(d);
}

/// Integer dtypes compute in int64; storing wraps modulo 2^bits (defined in C++20).
template <class I>
struct IntElem {
  using Compute = int64_t;
  static constexpr bool kIsFloat = false;
  static int64_t load(I v) { return v; }
  static I store(int64_t c) { return static_cast<I>(c); }
  static double toDouble(I v) { return static_cast<double>(v); }
  static I fromDouble(double d) { return saturatingFromDouble<I>(d); }
  static int64_t toInt64(I v) { return v; }
  static I fromInt64(int64_t i) { return static_cast<I>(i); }
};
template <>
struct Elem<int8_t> : IntElem<int8_t> {};
template <>
struct Elem<int16_t> : IntElem<int16_t> {};
template <>
struct Elem<int32_t> : IntElem<int32_t> {};
template <>
struct Elem<int64_t> : IntElem<int64_t> {};
template <>
struct Elem<uint8_t> : IntElem<uint8_t> {};

template <>
struct Elem<BoolElem> {
  using Compute = int64_t;
  static constexpr bool kIsFloat = false;
  static int64_t load(BoolElem v) { return v.raw != 0; }
  static BoolElem store(int64_t c) { return {static_cast<uint8_t>(c != 0)}; }
  static double toDouble(BoolElem v) { return v.raw != 0; }
  static BoolElem fromDouble(double d) { return {static_cast<uint8_t>(d != 0.0)}; }
  static int64_t toInt64(BoolElem v) { return v.raw != 0; }
  static BoolElem fromInt64(int64_t i) { return {static_cast<uint8_t>(i != 0)}; }
};

/// Converts one element between dtypes with a single rounding: floats go
/// through double (exact for every source), integers through int64.
template <class To, class From>
To convertElem(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (Elem<From>::kIsFloat) {
    return Elem<To>::fromDouble(Elem<From>::toDouble(v));
  } else {
    return Elem<To>::fromInt64(Elem<From>::toInt64(v));
  }
}

/// Carries a type through a generic lambda: `[](auto tag) { using T = typename decltype(tag)::type; }`.
template <class T>
struct TypeTag {
  using type = T;
};

/// Calls `f(TypeTag<T>{})` with T the storage type of `dtype`.
template <class F>
decltype(auto) dispatchDType(DataType dtype, F&& f) {
  switch (dtype.code) {
    case DTypeCode::Bool: return f(TypeTag<BoolElem>{});
    case DTypeCode::Int8: return f(TypeTag<int8_t>{});
    case DTypeCode::Int16: return f(TypeTag<int16_t>{});
    case DTypeCode::Int32: return f(TypeTag<int32_t>{});
    case DTypeCode::Int64: return f(TypeTag<int64_t>{});
    case DTypeCode::UInt8: return f(TypeTag<uint8_t>{});
    case DTypeCode::Float16: return f(TypeTag<Half>{});
    case DTypeCode::Float32: return f(TypeTag<float>{});
    case DTypeCode::Float64: return f(TypeTag<double>{});
  }
  return f(TypeTag<float>{});
}

/// Typed read-only pointer to an array's elements.
template <class T>
const T* elems(const NDArray& a) {
  return reinterpret_cast<const T*>(a.rawData());
}
/// Typed writable pointer to a fresh array's elements.
template <class T>
T* mutableElems(NDArray& a) {
  return reinterpret_cast<T*>(a.mutableData());
}

int64_t productOf(const std::vector<int64_t>& dims);

// ---- Accumulation types ---------------------------------------------------------
// Reductions and products accumulate in float for float16/float32, double for
// float64 and uint64_t (two's complement, wraps exactly) for integers and bool.

/// Element converted to an accumulator type.
template <class Acc, class T>
Acc toAcc(T v) {
  if constexpr (std::is_same_v<Acc, uint64_t>) {
    return static_cast<uint64_t>(Elem<T>::toInt64(v));
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return static_cast<Acc>(v);
  } else if constexpr (std::is_same_v<T, Half>) {
    return static_cast<Acc>(v.toFloat());
  } else {
    return static_cast<Acc>(Elem<T>::toInt64(v));
  }
}

/// Accumulator rounded (or wrapped) once to the output element type.
template <class Out, class Acc>
Out fromAcc(Acc v) {
  if constexpr (std::is_same_v<Acc, uint64_t>) return Elem<Out>::fromInt64(static_cast<int64_t>(v));
  else if constexpr (std::is_same_v<Out, Acc>) return v;
  else if constexpr (std::is_same_v<Out, Half> && std::is_same_v<Acc, float>) return Half(v);
  else return Elem<Out>::fromDouble(static_cast<double>(v));
}

/// Calls `f(TypeTag<Acc>{})` with the accumulator type for `dtype`.
template <class F>
decltype(auto) dispatchAcc(DataType dtype, F&& f) {
  if (dtype.code == DTypeCode::Float16 || dtype.code == DTypeCode::Float32) return f(TypeTag<float>{});
  if (dtype.code == DTypeCode::Float64) return f(TypeTag<double>{});
  return f(TypeTag<uint64_t>{});
}

/// Widens n halves to floats (exact). Uses the F16C instructions when the CPU
/// has them: the conversion is exact either way, so results do not depend on it.
void widenHalves(const Half* src, float* dst, size_t n);

/// An array's elements as Acc: a view when the storage already is Acc, else a converted copy.
template <class Acc>
struct AccData {
  std::vector<Acc> owned;
  const Acc* ptr = nullptr;
};

/// `a` read as accumulator values.
template <class Acc>
AccData<Acc> accData(const NDArray& a) {
  AccData<Acc> d;
  dispatchDType(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, Acc>) {
      d.ptr = elems<T>(a);
    } else if constexpr (std::is_same_v<T, Half> && std::is_same_v<Acc, float>) {
      d.owned.resize(static_cast<size_t>(a.numElements()));
      // elems<T> (T is Half here) keeps the call dependent, so clang skips it where Acc is not float.
      widenHalves(elems<T>(a), d.owned.data(), d.owned.size());
      d.ptr = d.owned.data();
    } else {
      const T* src = elems<T>(a);
      d.owned.resize(static_cast<size_t>(a.numElements()));
      for (size_t i = 0; i < d.owned.size(); ++i) d.owned[i] = toAcc<Acc>(src[i]);
      d.ptr = d.owned.data();
    }
  });
  return d;
}

/// A fresh array of `dtype` and `shape` from accumulator values, each rounded once.
template <class Acc>
NDArray fromAccArray(const Acc* values, DataType dtype, std::vector<int64_t> shape) {
  NDArray out(dtype, std::move(shape));
  dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = mutableElems<T>(out);
    for (int64_t i = 0, n = out.numElements(); i < n; ++i) dst[i] = fromAcc<T>(values[i]);
  });
  return out;
}

/// Where a product kernel accumulates its result: straight in the output
/// array when the output dtype stores Acc (float32 out of float accumulation),
/// else in a scratch buffer rounded into the output by finish().
template <class Acc>
class AccOutput {
 public:
  /// `zeroed`: the kernel adds into the buffer, so it must start at 0.
  AccOutput(DataType outType, std::vector<int64_t> shape, bool zeroed) : outType_(outType), shape_(std::move(shape)) {
    bool direct = (std::is_same_v<Acc, float> && outType.code == DTypeCode::Float32) ||
                  (std::is_same_v<Acc, double> && outType.code == DTypeCode::Float64);
    if (direct) {
      direct_ = NDArray(outType, shape_);  // NDArray storage starts zeroed
      ptr_ = mutableElems<Acc>(direct_);
    } else {
      size_t n = static_cast<size_t>(productOf(shape_));
      scratch_.reset(zeroed ? new Acc[n]() : new Acc[n]);  // uninitialized when every element is written
      ptr_ = scratch_.get();
    }
  }
  Acc* data() { return ptr_; }
  /// The result array (each scratch value rounded once to the output dtype).
  NDArray finish() { return direct_.defined() ? direct_ : fromAccArray(ptr_, outType_, shape_); }

 private:
  DataType outType_;
  std::vector<int64_t> shape_;
  NDArray direct_;
  std::unique_ptr<Acc[]> scratch_;
  Acc* ptr_ = nullptr;
};

/// A fresh array holding `a` converted to `to` (shares storage when equal).
NDArray convertArray(const NDArray& a, DataType to);

/// The arguments and attributes of one kernel invocation, with accessors that
/// raise KernelError naming the op.
class KernelCall {
 public:
  KernelCall(const OpDef& op, std::span<const Value> args, const AttrDict& attrs, KernelHost* host)
      : op_(op), args_(args), attrs_(attrs), host_(host) {}

  const OpDef& op() const { return op_; }
  size_t numArgs() const { return args_.size(); }
  const Value& arg(size_t i) const;
  /// Argument `i`, which must be a tensor.
  const NDArray& tensor(size_t i) const;
  /// Argument `i`, which must be a tuple of tensors.
  std::vector<NDArray> tensorTuple(size_t i) const;
  KernelHost* host() const { return host_; }

  /// The attribute or its schema default.
  const AttrValue& attr(std::string_view key) const { return attrOrDefault(op_, attrs_, key); }
  int64_t attrInt(std::string_view key) const;
  double attrFloat(std::string_view key) const;
  bool attrBool(std::string_view key) const { return attr(key).asBool(); }
  const std::string& attrString(std::string_view key) const;
  /// An int-array attribute (error when None or not an array).
  std::vector<int64_t> attrInts(std::string_view key) const;
  /// A dtype attribute; empty or None gives `fallback`.
  DataType attrDType(std::string_view key, DataType fallback) const;

  /// Throws KernelError("<op>: message").
  [[noreturn]] void fail(const std::string& message) const;
  /// `axis` made non-negative for rank `rank` (error when out of range).
  int64_t axis(int64_t axis, size_t rank) const;

 private:
  const OpDef& op_;
  std::span<const Value> args_;
  const AttrDict& attrs_;
  KernelHost* host_;
};

/// "(1, 3, 4)".
std::string shapeString(const std::vector<int64_t>& shape);
/// Product of the extents.
int64_t productOf(const std::vector<int64_t>& dims);
/// Row-major element strides of `shape`.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape);
/// NumPy broadcast of two shapes; KernelError through `call` when incompatible.
std::vector<int64_t> broadcastShape(const KernelCall& call, const std::vector<int64_t>& a, const std::vector<int64_t>& b);
/// Strides that read an array of `inShape` at every index of `outShape` (0 on broadcast axes).
std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& inShape, const std::vector<int64_t>& outShape);

/// Visits every element of an `outShape` iteration space in row-major order as
/// runs along the last axis: `run(outOffset, offsets, count, innerStrides)`,
/// where offsets[i] is the element offset of operand i (strides[i] are its
/// per-axis element strides) at the start of the run.
template <size_t N, class F>
void forEachRun(const std::vector<int64_t>& outShape, const std::array<std::vector<int64_t>, N>& strides, F&& run) {
  size_t rank = outShape.size();
  int64_t total = productOf(outShape);
  if (total == 0) return;
  std::array<int64_t, N> inner{};
  if (rank == 0) {
    run(int64_t{0}, std::array<int64_t, N>{}, int64_t{1}, inner);
    return;
  }
  int64_t count = outShape[rank - 1];
  for (size_t i = 0; i < N; ++i) inner[i] = strides[i][rank - 1];
  std::vector<int64_t> index(rank, 0);
  std::array<int64_t, N> offsets{};
  for (int64_t out = 0; out < total; out += count) {
    run(out, offsets, count, inner);
    // Odometer increment over the outer axes, updating operand offsets incrementally.
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < outShape[d]) {
        for (size_t i = 0; i < N; ++i) offsets[i] += strides[i][d];
        break;
      }
      for (size_t i = 0; i < N; ++i) offsets[i] -= strides[i][d] * (outShape[d] - 1);
      index[d] = 0;
    }
  }
}

/// Copies the elements of `src` seen through (offset, strides) into the fresh
/// contiguous array `dst` (whose shape gives the iteration space). Any dtype.
void gatherStrided(const NDArray& src, int64_t offset, const std::vector<int64_t>& srcStrides, NDArray& dst);
/// `src` with axes permuted: output axis i is input axis perm[i].
NDArray transposeArray(const NDArray& src, const std::vector<int64_t>& perm);

/// A 4-d layout such as "NCHW" or "HWIO" read as a permutation of `letters`.
struct Layout4 {
  /// pos[i]: index within the layout of letters[i].
  std::array<int64_t, 4> pos{};
};
/// Parses a 4-letter layout; KernelError for anything else (blocked layouts).
Layout4 parseLayout4(const KernelCall& call, const std::string& layout, std::string_view letters, std::string_view key);
/// Permutation that brings an array in `layout` into canonical `letters` order.
std::vector<int64_t> toCanonicalPerm(const Layout4& layout);
/// Permutation that brings a canonical array into `layout`.
std::vector<int64_t> fromCanonicalPerm(const Layout4& layout);

/// Padding as TVM accepts it (1, 2 or 4 values) as {top, left, bottom, right}.
std::array<int64_t, 4> padding4(const KernelCall& call, const std::vector<int64_t>& pad);
/// A 1- or 2-value window parameter (strides, dilation, pool_size) as a pair.
std::array<int64_t, 2> pair2(const KernelCall& call, const std::vector<int64_t>& v, std::string_view key);

}  // namespace passlab::kernels
