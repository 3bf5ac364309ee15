#include "core/ir/dtype.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace passlab {

int DataType::bits() const {
  switch (code) {
    case DTypeCode::Bool: return 8;
    case DTypeCode::Int8: return 8;
    case DTypeCode::UInt8: return 8;
    case DTypeCode::Int16: return 16;
    case DTypeCode::Float16: return 16;
    case DTypeCode::Int32: return 32;
    case DTypeCode::Float32: return 32;
    case DTypeCode::Int64: return 64;
    case DTypeCode::Float64: return 64;
  }
  return 0;
}

bool DataType::isFloat() const {
  return code == DTypeCode::Float16 || code == DTypeCode::Float32 || code == DTypeCode::Float64;
}

bool DataType::isInt() const {
  return code == DTypeCode::Int8 || code == DTypeCode::Int16 || code == DTypeCode::Int32 ||
         code == DTypeCode::Int64 || code == DTypeCode::UInt8;
}

std::string_view DataType::name() const {
  switch (code) {
    case DTypeCode::Bool: return "bool";
    case DTypeCode::Int8: return "int8";
    case DTypeCode::Int16: return "int16";
    case DTypeCode::Int32: return "int32";
    case DTypeCode::Int64: return "int64";
    case DTypeCode::UInt8: return "uint8";
    case DTypeCode::Float16: return "float16";
    case DTypeCode::Float32: return "float32";
    case DTypeCode::Float64: return "float64";
  }
  return "?";
}

std::optional<DataType> DataType::parse(std::string_view text) {
  static constexpr DTypeCode kAll[] = {DTypeCode::Bool,    DTypeCode::Int8,    DTypeCode::Int16,
                                       DTypeCode::Int32,   DTypeCode::Int64,   DTypeCode::UInt8,
                                       DTypeCode::Float16, DTypeCode::Float32, DTypeCode::Float64};
  for (DTypeCode c : kAll)
    if (DataType(c).name() == text) return DataType(c);
  return std::nullopt;
}

// Half conversion works on the binary representation so rounding is exact and
// independent of the host's floating-point environment.
uint16_t Half::fromFloat(float value) {
  uint32_t f = std::bit_cast<uint32_t>(value);
  uint32_t sign = (f >> 16) & 0x8000u;
  uint32_t absf = f & 0x7fffffffu;
  if (absf >= 0x7f800000u) {  // inf or nan
    if (absf == 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u);
    return static_cast<uint16_t>(sign | 0x7e00u | ((absf >> 13) & 0x3ffu));
  }
  if (absf >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (absf < 0x38800000u) {
    // Result is subnormal or zero: shift the full mantissa and round.
    if (absf < 0x33000000u) return static_cast<uint16_t>(sign);  // < half of smallest subnormal
    int exp = static_cast<int>(absf >> 23);
    uint32_t mant = (absf & 0x7fffffu) | 0x800000u;
    int shift = 126 - exp;  // 113 - exp + 13
    uint32_t halfMant = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1u);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (halfMant & 1u))) ++halfMant;
    return static_cast<uint16_t>(sign | halfMant);
  }
  uint32_t exp = ((absf >> 23) - 112u) << 10;
  uint32_t mant = (absf >> 13) & 0x3ffu;
  uint32_t rem = absf & 0x1fffu;
  uint32_t result = exp | mant;
  if (rem > 0x1000u || (rem == 0x1000u && (result & 1u))) ++result;  // may carry into exponent: correct
  return static_cast<uint16_t>(sign | result);
}

uint16_t Half::fromDouble(double value) {
  // Round double -> half directly: compute using the double's exact bits.
  if (std::isnan(value)) return 0x7e00u;
  double a = std::fabs(value);
  uint16_t sign = std::signbit(value) ? 0x8000u : 0;
  if (a >= 65520.0) return sign | 0x7c00u;
  if (a == 0.0) return sign;
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int unbiased = e - 1;
  int quantumExp = unbiased < -14 ? -24 : unbiased - 10;
  double scaled = std::ldexp(a, -quantumExp);  // exact: power-of-two scaling
  double rounded = std::nearbyint(scaled);     // default mode: ties to even
  double back = std::ldexp(rounded, quantumExp);
  return sign | fromFloat(static_cast<float>(back));  // exactly representable now
}

float Half::toFloatBits(uint16_t raw) {
  uint32_t sign = static_cast<uint32_t>(raw & 0x8000u) << 16;
  uint32_t exp = (raw >> 10) & 0x1fu;
  uint32_t mant = raw & 0x3ffu;
  uint32_t out;
  if (exp == 0) {
    if (mant == 0) {
      out = sign;
    } else {  // subnormal: normalise
      int shift = 0;
      while (!(mant & 0x400u)) {
        mant <<= 1;
        ++shift;
      }
      mant &= 0x3ffu;
      out = sign | (static_cast<uint32_t>(113 - shift) << 23) | (mant << 13);
    }
  } else if (exp == 0x1f) {
    out = sign | 0x7f800000u | (mant << 13);
  } else {
    out = sign | ((exp + 112u) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(out);
}

}  // namespace passlab
