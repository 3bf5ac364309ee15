// Elementwise kernels: broadcasting binary ops (mod and floor_mod among them), comparisons, where, unary math,
// clip, relu, leaky_relu and cast. See kernels.h for the rounding rules.
#include <cmath>

#include "core/interp/kernel_ops.h"
#include "core/ir/float_math.h"

namespace passlab::kernels {

namespace {

// Two's-complement arithmetic on int64 through uint64: signed overflow is
// undefined in C++, wrapping is what compiled integer code does.
int64_t wrapAdd(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
int64_t wrapSub(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
int64_t wrapMul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }

/// NaN-propagating max/min (NumPy's maximum/minimum): a NaN operand wins.
template <class C>
bool pickFirstForMax(C x, C y) {
  if constexpr (std::is_floating_point_v<C>) return x > y || std::isnan(x);
  return x > y;
}
template <class C>
bool pickFirstForMin(C x, C y) {
  if constexpr (std::is_floating_point_v<C>) return x < y || std::isnan(x);
  return x < y;
}

/// Integer power with wrapping; negative exponents truncate like 1 / a^|b|.
int64_t intPower(const KernelCall& call, int64_t a, int64_t b) {
  if (b < 0) {
    if (a == 0) call.fail("integer power: 0 raised to a negative exponent");
    if (a == 1) return 1;
    if (a == -1) return (b % 2 == 0) ? 1 : -1;
    return 0;
  }
  int64_t result = 1;
  int64_t base = a;
  while (b > 0) {  // square-and-multiply; wrapping matches repeated multiplication
    if (b & 1) result = wrapMul(result, base);
    base = wrapMul(base, base);
    b >>= 1;
  }
  return result;
}

/// Applies `f(x, y) -> Out` over the broadcast of `a` and `b`.
template <class T, class Out, class F>
NDArray broadcastBinary(const KernelCall& call, const NDArray& a, const NDArray& b, DataType outType, F f) {
  std::vector<int64_t> shape = broadcastShape(call, a.shape(), b.shape());
  NDArray out(outType, shape);
  const T* pa = elems<T>(a);
  const T* pb = elems<T>(b);
  Out* po = mutableElems<Out>(out);
  if (a.shape() == b.shape()) {
    for (int64_t i = 0, n = out.numElements(); i < n; ++i) po[i] = f(pa[i], pb[i]);
    return out;
  }
  std::array<std::vector<int64_t>, 2> strides{broadcastStrides(a.shape(), shape), broadcastStrides(b.shape(), shape)};
  forEachRun<2>(shape, strides, [&](int64_t o, const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
    const T* x = pa + off[0];
    const T* y = pb + off[1];
    Out* z = po + o;
    for (int64_t j = 0; j < count; ++j) z[j] = f(x[j * step[0]], y[j * step[1]]);
  });
  return out;
}

template <class T>
NDArray arithmetic(const KernelCall& call, OpId op, const NDArray& a, const NDArray& b) {
  using E = Elem<T>;
  using C = typename E::Compute;
  DataType dt = a.dtype();
  constexpr bool isFloat = E::kIsFloat;
  switch (op) {
    case OpId::Add:
      return broadcastBinary<T, T>(call, a, b, dt, [](T x, T y) {
        if constexpr (isFloat) return E::store(E::load(x) + E::load(y));
        else return E::store(wrapAdd(E::load(x), E::load(y)));
      });
    case OpId::Subtract:
      return broadcastBinary<T, T>(call, a, b, dt, [](T x, T y) {
        if constexpr (isFloat) return E::store(E::load(x) - E::load(y));
        else return E::store(wrapSub(E::load(x), E::load(y)));
      });
    case OpId::Multiply:
      return broadcastBinary<T, T>(call, a, b, dt, [](T x, T y) {
        if constexpr (isFloat) return E::store(E::load(x) * E::load(y));
        else return E::store(wrapMul(E::load(x), E::load(y)));
      });
    case OpId::Divide:
      return broadcastBinary<T, T>(call, a, b, dt, [&call](T x, T y) {
        if constexpr (isFloat) {
          return E::store(E::load(x) / E::load(y));
        } else {
          C p = E::load(x), q = E::load(y);
          if (q == 0) call.fail("integer division by zero");
          if (q == -1) return E::store(wrapSub(0, p));  // INT64_MIN / -1 wraps instead of trapping
          return E::store(p / q);  // C++ division truncates toward zero, as TVM's Div does
        }
      });
    case OpId::Power:
      return broadcastBinary<T, T>(call, a, b, dt, [&call](T x, T y) {
        if constexpr (isFloat) return E::fromDouble(std::pow(E::toDouble(x), E::toDouble(y)));
        else return E::store(intPower(call, E::load(x), E::load(y)));
      });
    case OpId::Mod:
    case OpId::FloorMod: {
      bool floor = op == OpId::FloorMod;
      return broadcastBinary<T, T>(call, a, b, dt, [&call, floor](T x, T y) {
        if constexpr (isFloat) {
          double p = E::toDouble(x), q = E::toDouble(y);
          // fmod is exact; the floored remainder is x - floor(x / y) * y, TVM's floormod.
          return E::fromDouble(floor ? p - std::floor(p / q) * q : std::fmod(p, q));
        } else {
          C p = E::load(x), q = E::load(y);
          if (q == 0) call.fail("integer division by zero");
          if (q == -1) return E::store(0);  // INT64_MIN % -1 would trap
          C r = p % q;  // truncated: the sign of x (C's %, TVM's truncmod)
          if (floor && r != 0 && ((r < 0) != (q < 0))) r += q;  // floored: the sign of y
          return E::store(r);
        }
      });
    }
    case OpId::Maximum:
      return broadcastBinary<T, T>(call, a, b, dt, [](T x, T y) { return pickFirstForMax(E::load(x), E::load(y)) ? x : y; });
    case OpId::Minimum:
      return broadcastBinary<T, T>(call, a, b, dt, [](T x, T y) { return pickFirstForMin(E::load(x), E::load(y)) ? x : y; });
    case OpId::Equal:
      return broadcastBinary<T, BoolElem>(call, a, b, DTypeCode::Bool,
                                          [](T x, T y) { return BoolElem{E::load(x) == E::load(y)}; });
    case OpId::Less:
      return broadcastBinary<T, BoolElem>(call, a, b, DTypeCode::Bool,
                                          [](T x, T y) { return BoolElem{E::load(x) < E::load(y)}; });
    case OpId::Greater:
      return broadcastBinary<T, BoolElem>(call, a, b, DTypeCode::Bool,
                                          [](T x, T y) { return BoolElem{E::load(x) > E::load(y)}; });
    default: call.fail("not a binary elementwise op");
  }
}

/// Applies `f(x) -> T` to every element.
template <class T, class F>
NDArray mapUnary(const NDArray& a, F f) {
  NDArray out(a.dtype(), a.shape());
  const T* src = elems<T>(a);
  T* dst = mutableElems<T>(out);
  for (int64_t i = 0, n = a.numElements(); i < n; ++i) dst[i] = f(src[i]);
  return out;
}

/// A float function evaluated in double and rounded once to T.
template <class T, class F>
NDArray mapViaDouble(const NDArray& a, F f) {
  using E = Elem<T>;
  return mapUnary<T>(a, [&f](T x) { return E::fromDouble(f(E::toDouble(x))); });
}

template <class T>
NDArray unary(const KernelCall& call, OpId op, const NDArray& a) {
  using E = Elem<T>;
  using C = typename E::Compute;
  if constexpr (!E::kIsFloat) {
    switch (op) {
      case OpId::Negative: return mapUnary<T>(a, [](T x) { return E::store(wrapSub(0, E::load(x))); });
      case OpId::Abs:
        return mapUnary<T>(a, [](T x) {
          C v = E::load(x);
          return E::store(v < 0 ? wrapSub(0, v) : v);
        });
      case OpId::Round:
      case OpId::Floor:
      case OpId::Ceil: return a;  // integers are already integral
      case OpId::Relu: return mapUnary<T>(a, [](T x) { return E::load(x) > 0 ? x : E::store(0); });
      default: call.fail("expects a floating-point tensor, got " + std::string(a.dtype().name()));
    }
  } else {
    switch (op) {
      // Sign flips, abs and rounding to integers are exact in every float format.
      case OpId::Negative: return mapUnary<T>(a, [](T x) { return E::store(-E::load(x)); });
      case OpId::Abs: return mapUnary<T>(a, [](T x) { return E::store(std::fabs(E::load(x))); });
      case OpId::Round: return mapUnary<T>(a, [](T x) { return E::store(std::nearbyint(E::load(x))); });  // ties to even, like TVM
      case OpId::Floor: return mapUnary<T>(a, [](T x) { return E::store(std::floor(E::load(x))); });
      case OpId::Ceil: return mapUnary<T>(a, [](T x) { return E::store(std::ceil(E::load(x))); });
      case OpId::Relu:
        return mapUnary<T>(a, [](T x) {
          C v = E::load(x);
          return pickFirstForMax(v, C(0)) ? x : E::store(0);
        });
      // In double, rounded once, as the float-math category.
      case OpId::Gelu: return mapViaDouble<T>(a, [](double v) { return v * (0.5 + 0.5 * std::erf(v * 0.70710678118654752440)); });
      case OpId::Silu: return mapViaDouble<T>(a, [](double v) { return v / (1.0 + std::exp(-v)); });
      default: {
        // The float-math category: one reference function per intrinsic.
        FloatMathFn f = floatMathFunction(floatMathIntrinsic(op));
        if (!f) call.fail("not a unary elementwise op");
        return mapViaDouble<T>(a, f);
      }
    }
  }
}

}  // namespace

Value binaryKernel(const KernelCall& call, OpId op) {
  const NDArray& a = call.tensor(0);
  const NDArray& b = call.tensor(1);
  if (a.dtype() != b.dtype())
    call.fail("argument dtypes differ: " + std::string(a.dtype().name()) + " and " + std::string(b.dtype().name()));
  return dispatchDType(a.dtype(), [&](auto tag) -> NDArray { return arithmetic<typename decltype(tag)::type>(call, op, a, b); });
}

Value whereKernel(const KernelCall& call) {
  NDArray cond = convertArray(call.tensor(0), DTypeCode::Bool);
  const NDArray& x = call.tensor(1);
  const NDArray& y = call.tensor(2);
  if (x.dtype() != y.dtype())
    call.fail("branch dtypes differ: " + std::string(x.dtype().name()) + " and " + std::string(y.dtype().name()));
  std::vector<int64_t> shape = broadcastShape(call, cond.shape(), broadcastShape(call, x.shape(), y.shape()));
  NDArray out(x.dtype(), shape);
  std::array<std::vector<int64_t>, 3> strides{broadcastStrides(cond.shape(), shape), broadcastStrides(x.shape(), shape),
                                              broadcastStrides(y.shape(), shape)};
  dispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const BoolElem* c = elems<BoolElem>(cond);
    const T* px = elems<T>(x);
    const T* py = elems<T>(y);
    T* po = mutableElems<T>(out);
    forEachRun<3>(shape, strides, [&](int64_t o, const std::array<int64_t, 3>& off, int64_t count, const std::array<int64_t, 3>& step) {
      for (int64_t j = 0; j < count; ++j)
        po[o + j] = c[off[0] + j * step[0]].raw ? px[off[1] + j * step[1]] : py[off[2] + j * step[2]];
    });
  });
  return out;
}

Value unaryKernel(const KernelCall& call, OpId op) {
  const NDArray& a = call.tensor(0);
  return dispatchDType(a.dtype(), [&](auto tag) -> NDArray { return unary<typename decltype(tag)::type>(call, op, a); });
}

Value clipKernel(const KernelCall& call) {
  const NDArray& a = call.tensor(0);
  double lo = call.attrFloat("a_min"), hi = call.attrFloat("a_max");
  return dispatchDType(a.dtype(), [&](auto tag) -> NDArray {
    using T = typename decltype(tag)::type;
    using E = Elem<T>;
    using C = typename E::Compute;
    // TVM clips against the bounds converted to the tensor's dtype.
    T loT = E::fromDouble(lo), hiT = E::fromDouble(hi);
    C loC = E::load(loT), hiC = E::load(hiT);
    return mapUnary<T>(a, [&](T x) {
      C v = E::load(x);
      T raised = pickFirstForMax(v, loC) ? x : loT;
      return pickFirstForMin(E::load(raised), hiC) ? raised : hiT;
    });
  });
}

Value leakyReluKernel(const KernelCall& call) {
  const NDArray& a = call.tensor(0);
  double alpha = call.attrFloat("alpha");
  return dispatchDType(a.dtype(), [&](auto tag) -> NDArray {
    using T = typename decltype(tag)::type;
    using E = Elem<T>;
    using C = typename E::Compute;
    // x > 0 ? x : x * alpha, with alpha a constant of the tensor's dtype (TVM's select).
    C alphaC = E::load(E::fromDouble(alpha));
    return mapUnary<T>(a, [alphaC](T x) {
      C v = E::load(x);
      if (v > 0) return x;
      if constexpr (E::kIsFloat) return E::store(v * alphaC);
      else return E::store(wrapMul(v, alphaC));
    });
  });
}

Value castKernel(const KernelCall& call) {
  const NDArray& a = call.tensor(0);
  return convertArray(a, call.attrDType("dtype", a.dtype()));
}

}  // namespace passlab::kernels
