// Exact text forms of scalar values (internal to core/text).
//
// Printer and parser share these routines so every value survives
// print -> parse bit for bit: floats are written as the shortest decimal that
// reads back to the same value *in their own dtype* (float16 included),
// infinities as inf/-inf, the canonical NaN as nan and any other NaN as its raw
// bit pattern in hex.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/ir/dtype.h"
#include "core/ir/ndarray.h"

namespace passlab::text {

/// The literal suffix of a dtype in Relay text: "f" float32, "f16", "f64",
/// "" int32, "i64", "i16", "i8", "u8"; bool has none (it is written True/False).
std::string_view dtypeSuffix(DataType d);

/// The dtype a suffix names ("" means "no suffix": nullopt with ok=true).
/// Returns false for an unknown suffix.
bool dtypeFromSuffix(std::string_view suffix, std::optional<DataType>* out);

/// Splits a number token into its digits and its suffix ("1e-05f16" -> "1e-05", "f16").
/// Hex tokens (0x...) have no suffix.
void splitNumber(std::string_view token, std::string_view* digits, std::string_view* suffix);

/// Why a literal could not be read.
enum class LiteralStatus : uint8_t { Ok, OutOfRange, Malformed };

/// Reads decimal `digits` (no sign) as a value of float dtype `d`, negated when
/// `negative`, into its raw bit pattern (rounded once, to nearest-even, in `d`).
/// Decimal underflow gives a signed zero; overflow is OutOfRange.
LiteralStatus parseFloatBits(std::string_view digits, bool negative, DataType d, uint64_t* bits);
/// Reads a decimal or 0x-hex integer (no sign) as a value of integer/bool dtype `d`
/// (range-checked; hex is taken as the raw bit pattern of the dtype's width).
LiteralStatus parseIntValue(std::string_view digits, bool negative, DataType d, int64_t* value);
/// Reads a 0x-hex raw bit pattern for any dtype (must fit the dtype's width).
LiteralStatus parseHexBits(std::string_view digits, DataType d, uint64_t* bits);

/// The raw bit pattern of element i (zero-extended).
uint64_t elementBits(const NDArray& a, int64_t i);
/// Stores a raw bit pattern into element i.
void storeElementBits(NDArray& a, int64_t i, uint64_t bits);

/// Appends element i as written inside const data: 1.5, -0, 3, True, inf, nan, 0x7e01.
void appendElement(std::string& out, const NDArray& a, int64_t i);
/// Appends the scalar constant `a` as a Relay literal with its suffix (1f, 2i64,
/// True, -inff, 1f16). Returns false (and appends nothing) when the value has no
/// exact literal spelling (a NaN other than the canonical one); use const(...) then.
bool appendScalarLiteral(std::string& out, const NDArray& a);
/// Appends a floating-point value of dtype `d` (exactly representable in `d`)
/// followed by its suffix, for TIR literals (1f, 0.5f16, nanf).
void appendFloatLiteral(std::string& out, DataType d, double value);

/// Bit pattern of the canonical quiet NaN of a float dtype (what `nan` reads as).
uint64_t canonicalNaNBits(DataType d);

}  // namespace passlab::text
