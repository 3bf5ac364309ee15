#include "core/text/literal.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace passlab::text {

std::string_view dtypeSuffix(DataType d) {
  switch (d.code) {
    case DTypeCode::Float32: return "f";
    case DTypeCode::Float16: return "f16";
    case DTypeCode::Float64: return "f64";
    case DTypeCode::Int32: return "";
    case DTypeCode::Int64: return "i64";
    case DTypeCode::Int16: return "i16";
    case DTypeCode::Int8: return "i8";
    case DTypeCode::UInt8: return "u8";
    case DTypeCode::Bool: return "";
  }
  return "";
}

bool dtypeFromSuffix(std::string_view s, std::optional<DataType>* out) {
  *out = std::nullopt;
  if (s.empty()) return true;
  if (s == "f" || s == "f32") *out = DataType(DTypeCode::Float32);
  else if (s == "f16") *out = DataType(DTypeCode::Float16);
  else if (s == "f64") *out = DataType(DTypeCode::Float64);
  else if (s == "i" || s == "i32") *out = DataType(DTypeCode::Int32);
  else if (s == "i64") *out = DataType(DTypeCode::Int64);
  else if (s == "i16") *out = DataType(DTypeCode::Int16);
  else if (s == "i8") *out = DataType(DTypeCode::Int8);
  else if (s == "u8") *out = DataType(DTypeCode::UInt8);
  else return false;
  return true;
}

void splitNumber(std::string_view token, std::string_view* digits, std::string_view* suffix) {
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
    *digits = token;
    *suffix = {};
    return;
  }
  size_t i = 0;
  while (i < token.size()) {
    char c = token[i];
    bool numeric = (c >= '0' && c <= '9') || c == '.';
    bool exponent = (c == 'e' || c == 'E') && i + 1 < token.size() &&
                    ((token[i + 1] >= '0' && token[i + 1] <= '9') || token[i + 1] == '+' || token[i + 1] == '-');
    bool sign = (c == '+' || c == '-') && i > 0 && (token[i - 1] == 'e' || token[i - 1] == 'E');
    if (!numeric && !exponent && !sign) break;
    ++i;
  }
  *digits = token.substr(0, i);
  *suffix = token.substr(i);
}

uint64_t canonicalNaNBits(DataType d) {
  switch (d.code) {
    case DTypeCode::Float16: return 0x7e00u;
    case DTypeCode::Float32: return 0x7fc00000u;
    default: return 0x7ff8000000000000ull;
  }
}

/// True when `digits` is a value too large for double/float rather than too small.
static bool overflows(std::string_view digits) {
  std::string s(digits);
  long double v = std::strtold(s.c_str(), nullptr);
  return std::fabs(v) >= 1.0L;
}

LiteralStatus parseFloatBits(std::string_view digits, bool negative, DataType d, uint64_t* bits) {
  const char* b = digits.data();
  const char* e = b + digits.size();
  if (digits.empty()) return LiteralStatus::Malformed;
  if (d.code == DTypeCode::Float32) {
    float f = 0;
    auto r = std::from_chars(b, e, f);
    if (r.ptr != e) return LiteralStatus::Malformed;
    if (r.ec == std::errc::result_out_of_range) {
      if (overflows(digits)) return LiteralStatus::OutOfRange;
      f = 0;
    } else if (r.ec != std::errc()) {
      return LiteralStatus::Malformed;
    }
    if (negative) f = -f;
    *bits = std::bit_cast<uint32_t>(f);
    return LiteralStatus::Ok;
  }
  double v = 0;
  auto r = std::from_chars(b, e, v);
  if (r.ptr != e) return LiteralStatus::Malformed;
  if (r.ec == std::errc::result_out_of_range) {
    if (overflows(digits)) return LiteralStatus::OutOfRange;
    v = 0;
  } else if (r.ec != std::errc()) {
    return LiteralStatus::Malformed;
  }
  if (negative) v = -v;
  if (d.code == DTypeCode::Float64) {
    *bits = std::bit_cast<uint64_t>(v);
    return LiteralStatus::Ok;
  }
  if (d.code == DTypeCode::Float16) {
    uint16_t h = Half::fromDouble(v);
    if ((h & 0x7fffu) == 0x7c00u) return LiteralStatus::OutOfRange;  // a finite decimal rounded to inf
    *bits = h;
    return LiteralStatus::Ok;
  }
  return LiteralStatus::Malformed;
}

LiteralStatus parseHexBits(std::string_view digits, DataType d, uint64_t* bits) {
  if (digits.size() < 3) return LiteralStatus::Malformed;
  uint64_t v = 0;
  for (size_t i = 2; i < digits.size(); ++i) {
    char c = digits[i];
    int h = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    if (h < 0 || h > 15) return LiteralStatus::Malformed;
    if (v >> 60) return LiteralStatus::OutOfRange;
    v = v * 16 + static_cast<uint64_t>(h);
  }
  int width = d.bits();
  if (width < 64 && (v >> width) != 0) return LiteralStatus::OutOfRange;
  *bits = v;
  return LiteralStatus::Ok;
}

LiteralStatus parseIntValue(std::string_view digits, bool negative, DataType d, int64_t* value) {
  int width = d.bits();
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    if (negative) return LiteralStatus::Malformed;
    uint64_t bits = 0;
    LiteralStatus s = parseHexBits(digits, d, &bits);
    if (s != LiteralStatus::Ok) return s;
    // Sign-extend the raw pattern for signed types.
    if (d.isInt() && !d.isUnsigned() && width < 64 && (bits >> (width - 1)) & 1u) bits |= ~uint64_t(0) << width;
    *value = static_cast<int64_t>(bits);
    return LiteralStatus::Ok;
  }
  if (digits.empty()) return LiteralStatus::Malformed;
  uint64_t magnitude = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return LiteralStatus::Malformed;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (std::numeric_limits<uint64_t>::max() - digit) / 10) return LiteralStatus::OutOfRange;
    magnitude = magnitude * 10 + digit;
  }
  int64_t lo, hi;
  switch (d.code) {
    case DTypeCode::Bool: lo = 0, hi = 1; break;
    case DTypeCode::UInt8: lo = 0, hi = 255; break;
    case DTypeCode::Int8: lo = -128, hi = 127; break;
    case DTypeCode::Int16: lo = -32768, hi = 32767; break;
    case DTypeCode::Int32: lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max(); break;
    default: lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max(); break;
  }
  if (negative) {
    uint64_t limit = static_cast<uint64_t>(-(lo + 1)) + 1;  // |lo| without overflow
    if (magnitude > limit) return LiteralStatus::OutOfRange;
    *value = magnitude == limit ? lo : -static_cast<int64_t>(magnitude);
  } else {
    if (magnitude > static_cast<uint64_t>(hi)) return LiteralStatus::OutOfRange;
    *value = static_cast<int64_t>(magnitude);
  }
  return LiteralStatus::Ok;
}

uint64_t elementBits(const NDArray& a, int64_t i) {
  const uint8_t* p = a.rawData() + static_cast<size_t>(i) * a.dtype().bytes();
  switch (a.dtype().bytes()) {
    case 1: return p[0];
    case 2: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

void storeElementBits(NDArray& a, int64_t i, uint64_t bits) {
  uint8_t* p = a.mutableData() + static_cast<size_t>(i) * a.dtype().bytes();
  switch (a.dtype().bytes()) {
    case 1: p[0] = static_cast<uint8_t>(bits); break;
    case 2: {
      uint16_t v = static_cast<uint16_t>(bits);
      std::memcpy(p, &v, 2);
      break;
    }
    case 4: {
      uint32_t v = static_cast<uint32_t>(bits);
      std::memcpy(p, &v, 4);
      break;
    }
    default: std::memcpy(p, &bits, 8); break;
  }
}

/// Shortest decimal for a half: the fewest significant digits that read back
/// (through parseFloatBits) to the same bit pattern.
static void appendHalfDecimal(std::string& out, uint16_t h) {
  double v = Half::toFloatBits(h);
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, precision);
    std::string_view text(buf, static_cast<size_t>(r.ptr - buf));
    bool negative = !text.empty() && text[0] == '-';
    uint64_t back = 0;
    if (parseFloatBits(negative ? text.substr(1) : text, negative, DTypeCode::Float16, &back) == LiteralStatus::Ok &&
        back == h) {
      // Those digits in their most compact layout: 65500 rather than 6.55e+04.
      double digitsValue = 0;
      std::from_chars(text.data(), text.data() + text.size(), digitsValue);
      auto compact = std::to_chars(buf, buf + sizeof buf, digitsValue);
      out.append(buf, compact.ptr);
      return;
    }
  }
  out.append(buf);  // unreachable: 17 digits always round-trip
}

/// Appends a finite or infinite float (not NaN) of dtype d given by its bits.
static void appendFloatBits(std::string& out, DataType d, uint64_t bits) {
  char buf[64];
  switch (d.code) {
    case DTypeCode::Float16: {
      uint16_t h = static_cast<uint16_t>(bits);
      if ((h & 0x7fffu) == 0x7c00u) {
        out += (h & 0x8000u) ? "-inf" : "inf";
        return;
      }
      appendHalfDecimal(out, h);
      return;
    }
    case DTypeCode::Float32: {
      float f = std::bit_cast<float>(static_cast<uint32_t>(bits));
      if (std::isinf(f)) {
        out += f < 0 ? "-inf" : "inf";
        return;
      }
      auto r = std::to_chars(buf, buf + sizeof buf, f);
      out.append(buf, r.ptr);
      return;
    }
    default: {
      double v = std::bit_cast<double>(bits);
      if (std::isinf(v)) {
        out += v < 0 ? "-inf" : "inf";
        return;
      }
      auto r = std::to_chars(buf, buf + sizeof buf, v);
      out.append(buf, r.ptr);
      return;
    }
  }
}

static bool isNaNBits(DataType d, uint64_t bits) {
  switch (d.code) {
    case DTypeCode::Float16: return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu) != 0;
    case DTypeCode::Float32: return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu) != 0;
    default: return std::isnan(std::bit_cast<double>(bits));
  }
}

static void appendHex(std::string& out, uint64_t bits, int width) {
  static const char* kDigits = "0123456789abcdef";
  out += "0x";
  for (int shift = width - 4; shift >= 0; shift -= 4) out += kDigits[(bits >> shift) & 0xf];
}

void appendElement(std::string& out, const NDArray& a, int64_t i) {
  DataType d = a.dtype();
  uint64_t bits = elementBits(a, i);
  if (d.isFloat()) {
    if (isNaNBits(d, bits)) {
      if (bits == canonicalNaNBits(d))
        out += "nan";
      else
        appendHex(out, bits, d.bits());
      return;
    }
    appendFloatBits(out, d, bits);
    return;
  }
  if (d.isBool()) {
    if (bits <= 1) {
      out += bits ? "True" : "False";
    } else {
      appendHex(out, bits, 8);
    }
    return;
  }
  char buf[32];
  int64_t v;
  switch (d.code) {
    case DTypeCode::Int8: v = static_cast<int8_t>(bits); break;
    case DTypeCode::Int16: v = static_cast<int16_t>(bits); break;
    case DTypeCode::Int32: v = static_cast<int32_t>(bits); break;
    case DTypeCode::UInt8: v = static_cast<uint8_t>(bits); break;
    default: v = static_cast<int64_t>(bits); break;
  }
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

bool appendScalarLiteral(std::string& out, const NDArray& a) {
  DataType d = a.dtype();
  uint64_t bits = elementBits(a, 0);
  if (d.isBool()) {
    if (bits > 1) return false;
    out += bits ? "True" : "False";
    return true;
  }
  if (d.isFloat()) {
    if (isNaNBits(d, bits)) {
      if (bits != canonicalNaNBits(d)) return false;
      out += "nan";
    } else {
      appendFloatBits(out, d, bits);
    }
    out += dtypeSuffix(d);
    return true;
  }
  appendElement(out, a, 0);
  out += dtypeSuffix(d);
  return true;
}

void appendFloatLiteral(std::string& out, DataType d, double value) {
  if (std::isnan(value)) {
    out += "nan";
    out += dtypeSuffix(d);
    return;
  }
  uint64_t bits;
  switch (d.code) {
    case DTypeCode::Float16: bits = Half::fromDouble(value); break;
    case DTypeCode::Float32: bits = std::bit_cast<uint32_t>(static_cast<float>(value)); break;
    default: bits = std::bit_cast<uint64_t>(value); d = DTypeCode::Float64; break;
  }
  appendFloatBits(out, d, bits);
  out += dtypeSuffix(d);
}

}  // namespace passlab::text
