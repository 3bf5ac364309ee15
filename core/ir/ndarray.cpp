#include "core/ir/ndarray.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace passlab {

NDArray::NDArray(DataType dtype, std::vector<int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  storage_ = std::make_shared<std::vector<uint8_t>>(byteSize(), 0);
}

int64_t NDArray::numElements() const {
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

int64_t NDArray::getAsInt(int64_t i) const {
  if (dtype_.code == DTypeCode::Int64) return reinterpret_cast<const int64_t*>(rawData())[i];
  return static_cast<int64_t>(getAsDouble(i));
}

void NDArray::setFromDouble(int64_t i, double v) {
  uint8_t* p = mutableData();
  switch (dtype_.code) {
    case DTypeCode::Bool: p[i] = v != 0.0; break;
    case DTypeCode::Int8: reinterpret_cast<int8_t*>(p)[i] = static_cast<int8_t>(v); break;
    case DTypeCode::UInt8: p[i] = static_cast<uint8_t>(v); break;
    case DTypeCode::Int16: reinterpret_cast<int16_t*>(p)[i] = static_cast<int16_t>(v); break;
    case DTypeCode::Int32: reinterpret_cast<int32_t*>(p)[i] = static_cast<int32_t>(v); break;
    case DTypeCode::Int64: reinterpret_cast<int64_t*>(p)[i] = static_cast<int64_t>(v); break;
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
  if (out.numElements() != numElements()) throw std::invalid_argument("NDArray::reshaped: element count differs");
  return out;
}

bool NDArray::bitwiseEqual(const NDArray& other) const {
  if (dtype_ != other.dtype_ || shape_ != other.shape_) return false;
  if (storage_ == other.storage_) return true;
  return byteSize() == 0 || std::memcmp(rawData(), other.rawData(), byteSize()) == 0;
}

size_t NDArray::contentHash() const {
  // FNV-1a over the bytes; cheap and stable across runs.
  uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(dtype_.code);
  for (int64_t d : shape_) h = (h ^ static_cast<uint64_t>(d)) * 1099511628211ull;
  const uint8_t* p = rawData();
  for (size_t i = 0, n = byteSize(); i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return static_cast<size_t>(h);
}

}  // namespace passlab
