// Scalar data types and the IEEE half-precision value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace passlab {

/// The element types a tensor or TIR value can have.
enum class DTypeCode : uint8_t { Bool, Int8, Int16, Int32, Int64, UInt8, Float16, Float32, Float64 };

/// A scalar element type. Value type: cheap to copy and compare.
struct DataType {
  DTypeCode code = DTypeCode::Float32;

  constexpr DataType() = default;
  constexpr DataType(DTypeCode c) : code(c) {}  // NOLINT: implicit on purpose, DTypeCode is a DataType.

  /// Size of one element in bits (bool counts as 8: it is stored in a byte).
  int bits() const;
  /// Size of one element in bytes.
  int bytes() const { return bits() / 8; }
  /// True for float16/32/64.
  bool isFloat() const;
  /// True for signed and unsigned integers (not bool).
  bool isInt() const;
  /// True for uint8.
  bool isUnsigned() const { return code == DTypeCode::UInt8; }
  /// True for bool.
  bool isBool() const { return code == DTypeCode::Bool; }
  /// TVM's spelling: "float32", "int8", "bool", ...
  std::string_view name() const;
  /// Parses TVM's spelling; nullopt for an unknown name.
  static std::optional<DataType> parse(std::string_view text);

  friend bool operator==(DataType a, DataType b) { return a.code == b.code; }
  friend bool operator!=(DataType a, DataType b) { return a.code != b.code; }
};

/// IEEE 754 binary16. Stored as its bit pattern; every arithmetic result that is
/// produced through `Half(float)` is rounded to nearest-even, as hardware does.
struct Half {
  uint16_t bits = 0;

  constexpr Half() = default;
  /// Rounds a float to the nearest half (ties to even), with overflow to inf and
  /// gradual underflow to subnormals.
  explicit Half(float value) : bits(fromFloat(value)) {}
  /// Builds a Half from its raw bit pattern.
  static constexpr Half fromBits(uint16_t raw) {
    Half h;
    h.bits = raw;
    return h;
  }
  /// The exact float value of this half.
  float toFloat() const { return toFloatBits(bits); }
  explicit operator float() const { return toFloat(); }

  /// Rounds a float to a half bit pattern (round to nearest, ties to even).
  static uint16_t fromFloat(float value);
  /// Rounds a double directly to half (avoids double rounding through float).
  static uint16_t fromDouble(double value);
  /// Widens a half bit pattern to float (exact).
  static float toFloatBits(uint16_t raw);
};

}  // namespace passlab
