#include "core/ir/ndarray.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>

#include "core/ir/limits.h"

namespace passlab {

namespace {
std::atomic<int64_t> gLiveTensorBytes{0};
thread_local AllocationBudget* tCurrentBudget = nullptr;

std::string byteCount(int64_t bytes) {
  char buf[64];
  if (bytes >= (int64_t{1} << 30)) std::snprintf(buf, sizeof buf, "%lld bytes (%.1f GiB)", static_cast<long long>(bytes), bytes / double(1 << 30));
  else if (bytes >= (1 << 20)) std::snprintf(buf, sizeof buf, "%lld bytes (%.1f MiB)", static_cast<long long>(bytes), bytes / double(1 << 20));
  else std::snprintf(buf, sizeof buf, "%lld bytes", static_cast<long long>(bytes));
  return buf;
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string dims;
  for (int64_t d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  return "(" + dims + ")";
}

Diagnostic limitDiagnostic(std::string message) {
  Diagnostic d;
  d.message = std::move(message);
  d.rule = "limits.memory";
  return d;
}
}  // namespace

AllocationLimitError::AllocationLimitError(std::string message) : DiagnosticError(limitDiagnostic(std::move(message))) {}

AllocationBudget::AllocationBudget(int64_t maxBytes, std::string settingHint)
    : maxBytes_(maxBytes), baseline_(gLiveTensorBytes.load()), hint_(std::move(settingHint)), previous_(tCurrentBudget) {
  tCurrentBudget = this;
}

AllocationBudget::~AllocationBudget() { tCurrentBudget = previous_; }

int64_t liveTensorBytes() { return gLiveTensorBytes.load(); }

NDArray::NDArray(DataType dtype, std::vector<int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  std::optional<int64_t> count = limits::checkedElementCount(shape_);
  if (!count) throw AllocationLimitError("cannot allocate " + limits::tooManyElementsMessage(shape_));
  const int64_t bytes = *count * static_cast<int64_t>(dtype_.bytes());
  if (const AllocationBudget* budget = tCurrentBudget) {
    int64_t used = std::max<int64_t>(gLiveTensorBytes.load() - budget->baseline_, 0);
    if (bytes > budget->maxBytes_ - used)
      throw AllocationLimitError("a tensor of shape " + shapeText(shape_) + " and type " + std::string(dtype_.name()) + " needs " +
                                 byteCount(bytes) + ", more than the memory budget of " + byteCount(budget->maxBytes_) +
                                 (used > 0 ? " allows with " + byteCount(used) + " already live" : std::string()) +
                                 budget->hint_);
  }
  try {
    auto* data = new std::vector<uint8_t>(static_cast<size_t>(bytes), 0);
    gLiveTensorBytes += bytes;
    storage_ = std::shared_ptr<std::vector<uint8_t>>(data, [bytes](std::vector<uint8_t>* p) {
      gLiveTensorBytes -= bytes;
      delete p;
    });
  } catch (const std::bad_alloc&) {
    throw AllocationLimitError("out of memory allocating " + byteCount(bytes) + " for a tensor of shape " + shapeText(shape_));
  }
}

int64_t NDArray::numElements() const {
  // The constructor checked the count; shapes only change through reshaped(),
  // which keeps it.
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}

double NDArray::getAsDouble(int64_t i) const {
  const uint8_t* p = rawData();
  switch (dtype_.code) {
    case DTypeCode::Bool: return p[i] ? 1.0 : 0.0;
    case DTypeCode::Int8: return reinterpret_cast<const int8_t*>(p)[i];
    case DTypeCode::UInt8: return p[i];
    case DTypeCode::Int16: return reinterpret_cast<const int16_t*>(p)[i];
    case DTypeCode::Int32: return reinterpret_cast<const int32_t*>(p)[i];
    case DTypeCode::Int64: return static_cast<double>(reinterpret_cast<const int64_t*>(p)[i]);
    case DTypeCode::Float16: return Half::toFloatBits(reinterpret_cast<const uint16_t*>(p)[i]);
    case DTypeCode::Float32: return reinterpret_cast<const float*>(p)[i];
    case DTypeCode::Float64: return reinterpret_cast<const double*>(p)[i];
  }
  return 0;
}

/// `v` converted to integer type T, saturating (NaN is 0): a plain cast of an
/// out-of-range double is undefined behaviour (found by fuzz/onnx_fuzzer).
template <class T>
static T saturatingCast(double v) {
  if (std::isnan(v)) return 0;
  if (v <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

int64_t NDArray::getAsInt(int64_t i) const {
  if (dtype_.code == DTypeCode::Int64) return reinterpret_cast<const int64_t*>(rawData())[i];
  // A float element read as an integer (a Gather's float indices before the
  // type check refuses them) may be far outside int64 (found by fuzz/onnx_fuzzer).
  return saturatingCast<int64_t>(getAsDouble(i));
}

void NDArray::setFromDouble(int64_t i, double v) {
  uint8_t* p = mutableData();
  switch (dtype_.code) {
    case DTypeCode::Bool: p[i] = v != 0.0; break;
    case DTypeCode::Int8: reinterpret_cast<int8_t*>(p)[i] = saturatingCast<int8_t>(v); break;
    case DTypeCode::UInt8: p[i] = saturatingCast<uint8_t>(v); break;
    case DTypeCode::Int16: reinterpret_cast<int16_t*>(p)[i] = saturatingCast<int16_t>(v); break;
    case DTypeCode::Int32: reinterpret_cast<int32_t*>(p)[i] = saturatingCast<int32_t>(v); break;
    case DTypeCode::Int64: reinterpret_cast<int64_t*>(p)[i] = saturatingCast<int64_t>(v); break;
    case DTypeCode::Float16: reinterpret_cast<uint16_t*>(p)[i] = Half::fromDouble(v); break;
    case DTypeCode::Float32: reinterpret_cast<float*>(p)[i] = static_cast<float>(v); break;
    case DTypeCode::Float64: reinterpret_cast<double*>(p)[i] = v; break;
  }
}

NDArray NDArray::scalar(DataType dtype, double v) {
  NDArray a(dtype, {});
  a.setFromDouble(0, v);
  return a;
}

NDArray NDArray::reshaped(std::vector<int64_t> shape) const {
  NDArray out = *this;
  out.shape_ = std::move(shape);
  // A placeholder prints as its reference with its type: another shape is another value.
  if (out.isPlaceholder()) out.placeholder_ = kDerived;
  if (out.numElements() != numElements()) throw std::invalid_argument("NDArray::reshaped: element count differs");
  return out;
}

bool NDArray::bitwiseEqual(const NDArray& other) const {
  if (dtype_ != other.dtype_ || shape_ != other.shape_ || placeholderIndex() != other.placeholderIndex()) return false;
  if (storage_ == other.storage_) return true;
  return byteSize() == 0 || std::memcmp(rawData(), other.rawData(), byteSize()) == 0;
}

size_t NDArray::contentHash() const {
  // FNV-1a over the bytes; cheap and stable across runs.
  uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(dtype_.code);
  if (isPlaceholder()) h = (h ^ static_cast<uint64_t>(placeholder_) ^ 0x5bd1e995u) * 1099511628211ull;
  for (int64_t d : shape_) h = (h ^ static_cast<uint64_t>(d)) * 1099511628211ull;
  const uint8_t* p = rawData();
  for (size_t i = 0, n = byteSize(); i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return static_cast<size_t>(h);
}

namespace {

uint64_t splitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

NDArray NDArray::placeholder(DataType dtype, std::vector<int64_t> shape, int32_t index) {
  NDArray a(dtype, std::move(shape));
  a.placeholder_ = index < 0 ? kDerived : index;
  const int64_t n = a.numElements();
  // Weights (rank >= 2, output channels first) get a Kaiming-like scale so a
  // deep network on made-up data stays in range, even in float16.
  double scale = 1.0, offset = 0.0;
  if (a.ndim() >= 2 && a.shape_[0] > 0) {
    scale = 1.0 / std::sqrt(static_cast<double>(std::max<int64_t>(1, n / a.shape_[0])));
  } else {
    scale = 0.5, offset = 1.0;  // [0.5, 1.5): safe for variances, scales and divisors
  }
  const uint64_t seed = splitMix64(static_cast<uint64_t>(index) * 0x100000001b3ull + static_cast<uint64_t>(dtype.code));
  for (int64_t i = 0; i < n; ++i) {
    uint64_t r = splitMix64(seed ^ static_cast<uint64_t>(i));
    double unit = static_cast<double>(r >> 11) * 0x1.0p-53;  // [0, 1)
    if (dtype.isFloat())
      a.setFromDouble(i, offset + scale * (2 * unit - 1));
    else if (dtype.isBool())
      a.setFromDouble(i, (r >> 7) & 1);
    else
      a.setFromDouble(i, static_cast<double>(r % 4));
  }
  return a;
}

}  // namespace passlab
