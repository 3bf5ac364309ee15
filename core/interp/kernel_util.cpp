#include "core/interp/kernel_util.h"

#include "core/ir/limits.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace passlab::kernels {

NDArray convertArray(const NDArray& a, DataType to) {
  if (a.dtype() == to) return a;
  NDArray out(to, a.shape());
  int64_t n = a.numElements();
  dispatchDType(a.dtype(), [&](auto fromTag) {
    using From = typename decltype(fromTag)::type;
    dispatchDType(to, [&](auto toTag) {
      using To = typename decltype(toTag)::type;
      const From* src = elems<From>(a);
      To* dst = mutableElems<To>(out);
      for (int64_t i = 0; i < n; ++i) dst[i] = convertElem<To>(src[i]);
    });
  });
  return out;
}

// clang 14 (the fuzz build) does not know "f16c" for __builtin_cpu_supports: plain loop there.
#if defined(__x86_64__) && !defined(__clang__)
// Compiled for F16C regardless of the build's -march, called only after a runtime check.
__attribute__((target("avx,f16c"))) static void widenHalvesF16C(const Half* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i))));
  for (; i < n; ++i) dst[i] = src[i].toFloat();
}
#endif

void widenHalves(const Half* src, float* dst, size_t n) {
#if defined(__x86_64__) && !defined(__clang__)
  static const bool hasF16C = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
  if (hasF16C) {
    widenHalvesF16C(src, dst, n);
    return;
  }
#endif
  for (size_t i = 0; i < n; ++i) dst[i] = src[i].toFloat();
}

// ---- KernelCall ----------------------------------------------------------------

const Value& KernelCall::arg(size_t i) const {
  if (i >= args_.size()) fail("missing argument " + std::to_string(i) + " (got " + std::to_string(args_.size()) + ")");
  return args_[i];
}

const NDArray& KernelCall::tensor(size_t i) const {
  const Value& v = arg(i);
  if (!v.isTensor()) fail("argument " + std::to_string(i) + " must be a tensor, got " + v.describe());
  return v.tensor();
}

std::vector<NDArray> KernelCall::tensorTuple(size_t i) const {
  const Value& v = arg(i);
  if (!v.isTuple()) fail("argument " + std::to_string(i) + " must be a tuple of tensors, got " + v.describe());
  std::vector<NDArray> out;
  for (const Value& f : v.fields()) {
    if (!f.isTensor()) fail("argument " + std::to_string(i) + " must be a tuple of tensors, got " + v.describe());
    out.push_back(f.tensor());
  }
  return out;
}

int64_t KernelCall::attrInt(std::string_view key) const {
  const AttrValue& v = attr(key);
  if (v.kind() != AttrValue::Kind::Int && v.kind() != AttrValue::Kind::Bool)
    fail("attribute '" + std::string(key) + "' must be an int, got " + v.toString());
  return v.asInt();
}

double KernelCall::attrFloat(std::string_view key) const {
  const AttrValue& v = attr(key);
  if (v.kind() != AttrValue::Kind::Float && v.kind() != AttrValue::Kind::Int)
    fail("attribute '" + std::string(key) + "' must be a number, got " + v.toString());
  return v.asFloat();
}

const std::string& KernelCall::attrString(std::string_view key) const {
  const AttrValue& v = attr(key);
  if (v.kind() != AttrValue::Kind::String) fail("attribute '" + std::string(key) + "' must be a string, got " + v.toString());
  return v.asString();
}

std::vector<int64_t> KernelCall::attrInts(std::string_view key) const {
  const AttrValue& v = attr(key);
  if (v.kind() == AttrValue::Kind::Int) return {v.asInt()};
  if (v.kind() != AttrValue::Kind::Array) fail("attribute '" + std::string(key) + "' must be a list of ints, got " + v.toString());
  for (const AttrValue& item : v.asArray())
    if (item.kind() != AttrValue::Kind::Int && item.kind() != AttrValue::Kind::Bool)
      fail("attribute '" + std::string(key) + "' must be a list of ints, got " + v.toString());
  return v.asInts();
}

DataType KernelCall::attrDType(std::string_view key, DataType fallback) const {
  const AttrValue& v = attr(key);
  if (v.isNone() || (v.kind() == AttrValue::Kind::String && v.asString().empty())) return fallback;
  if (v.kind() != AttrValue::Kind::String) fail("attribute '" + std::string(key) + "' must be a dtype, got " + v.toString());
  std::optional<DataType> d = DataType::parse(v.asString());
  if (!d) fail("attribute '" + std::string(key) + "' names an unknown dtype \"" + v.asString() + "\"");
  return *d;
}

void KernelCall::fail(const std::string& message) const { throw KernelError(std::string(op_.name) + ": " + message); }

int64_t KernelCall::axis(int64_t axis, size_t rank) const {
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

// ---- Shapes ------------------------------------------------------------------------

std::string shapeString(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + ")";
}

int64_t productOf(const std::vector<int64_t>& dims) {
  std::optional<int64_t> n = limits::checkedElementCount(dims);
  if (n) return *n;
  if (std::find_if(dims.begin(), dims.end(), [](int64_t d) { return d < 0; }) != dims.end())
    throw KernelError("negative dimension in shape " + shapeString(dims));
  throw KernelError(limits::tooManyElementsMessage(dims));
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

std::vector<int64_t> broadcastShape(const KernelCall& call, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      call.fail("shapes " + shapeString(a) + " and " + shapeString(b) + " do not broadcast");
    out[i] = x == 1 ? y : x;
  }
  return out;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& inShape, const std::vector<int64_t>& outShape) {
  std::vector<int64_t> inStrides = rowMajorStrides(inShape);
  std::vector<int64_t> out(outShape.size(), 0);
  size_t lead = outShape.size() - inShape.size();
  for (size_t i = 0; i < inShape.size(); ++i) out[lead + i] = inShape[i] == 1 ? 0 : inStrides[i];
  return out;
}

// ---- Data movement -------------------------------------------------------------------

namespace {

/// Strided copy with a fixed element width; the run loop is the hot path of
/// transpose, slicing and layout changes.
template <class Word>
void gatherWords(const Word* src, int64_t offset, const std::vector<int64_t>& strides, const std::vector<int64_t>& shape, Word* dst) {
  std::array<std::vector<int64_t>, 1> s{strides};
  forEachRun<1>(shape, s, [&](int64_t out, const std::array<int64_t, 1>& off, int64_t count, const std::array<int64_t, 1>& inner) {
    const Word* from = src + offset + off[0];
    Word* to = dst + out;
    int64_t step = inner[0];
    if (step == 1) {
      std::memcpy(to, from, static_cast<size_t>(count) * sizeof(Word));
    } else {
      for (int64_t j = 0; j < count; ++j) to[j] = from[j * step];
    }
  });
}

}  // namespace

void gatherStrided(const NDArray& src, int64_t offset, const std::vector<int64_t>& srcStrides, NDArray& dst) {
  switch (src.dtype().bytes()) {
    case 1: gatherWords(elems<uint8_t>(src), offset, srcStrides, dst.shape(), mutableElems<uint8_t>(dst)); break;
    case 2: gatherWords(elems<uint16_t>(src), offset, srcStrides, dst.shape(), mutableElems<uint16_t>(dst)); break;
    case 4: gatherWords(elems<uint32_t>(src), offset, srcStrides, dst.shape(), mutableElems<uint32_t>(dst)); break;
    default: gatherWords(elems<uint64_t>(src), offset, srcStrides, dst.shape(), mutableElems<uint64_t>(dst)); break;
  }
}

NDArray transposeArray(const NDArray& src, const std::vector<int64_t>& perm) {
  std::vector<int64_t> inStrides = rowMajorStrides(src.shape());
  std::vector<int64_t> outShape(perm.size()), strides(perm.size());
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) {
    outShape[i] = src.shape()[perm[i]];
    strides[i] = inStrides[perm[i]];
    identity = identity && perm[i] == static_cast<int64_t>(i);
  }
  if (identity) return src;
  NDArray out(src.dtype(), outShape);
  gatherStrided(src, 0, strides, out);
  return out;
}

Layout4 parseLayout4(const KernelCall& call, const std::string& layout, std::string_view letters, std::string_view key) {
  Layout4 out;
  bool ok = layout.size() == 4;
  for (size_t i = 0; ok && i < 4; ++i) {
    size_t p = layout.find(letters[i]);
    ok = p != std::string::npos;
    out.pos[i] = static_cast<int64_t>(p);
  }
  if (!ok)
    call.fail(std::string(key) + " \"" + layout + "\" is not supported (expected a permutation of " + std::string(letters) + ")");
  return out;
}

std::vector<int64_t> toCanonicalPerm(const Layout4& layout) { return {layout.pos[0], layout.pos[1], layout.pos[2], layout.pos[3]}; }

std::vector<int64_t> fromCanonicalPerm(const Layout4& layout) {
  std::vector<int64_t> perm(4);
  for (int64_t i = 0; i < 4; ++i) perm[layout.pos[i]] = i;
  return perm;
}

std::array<int64_t, 4> padding4(const KernelCall& call, const std::vector<int64_t>& p) {
  for (int64_t x : p)
    if (x < 0) call.fail("padding must be non-negative, got " + shapeString(p));
  if (p.size() == 1) return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return {p[0], p[1], p[0], p[1]};
  if (p.size() == 4) return {p[0], p[1], p[2], p[3]};
  call.fail("padding must have 1, 2 or 4 values, got " + shapeString(p));
}

std::array<int64_t, 2> pair2(const KernelCall& call, const std::vector<int64_t>& v, std::string_view key) {
  if (v.size() == 1) return {v[0], v[0]};
  if (v.size() == 2) return {v[0], v[1]};
  call.fail(std::string(key) + " must have 1 or 2 values, got " + shapeString(v));
}

}  // namespace passlab::kernels
