// The resource limits of passlab, in one place (docs/limits.md lists them with
// how each one is raised). Every limit exists so that no input, however
// hostile, can crash the process (stack overflow), exhaust its memory, or
// produce a silently wrong answer (an element count that wrapped around).
// Exceeding a limit is a located error that names the limit.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace passlab::limits {

/// Deepest nesting every recursive parser accepts (Relay text, TIR text,
/// metadata, pipeline specs): deeper input is a located error, never a stack
/// overflow. Fixed: no real model nests this deep.
inline constexpr int kMaxNestingDepth = 512;

/// Most graph-level function invocations the interpreter keeps open at once
/// (a function that calls itself without a base case stops here). Fixed.
inline constexpr int64_t kMaxCallDepth = 100000;

/// Largest element count of one tensor (type or value). Products of
/// dimensions are computed with overflow checks against this bound, so byte
/// sizes (at most 8 bytes an element) always fit in int64. 2^60.
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 60;

/// The product of `shape`'s dimensions, or nullopt when it exceeds
/// kMaxTensorElements (or a dimension is negative, i.e. dynamic). The one
/// helper every shape product goes through.
inline std::optional<int64_t> checkedElementCount(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return std::nullopt;
    if (d != 0 && n > kMaxTensorElements / d) {
      // Keep scanning: a zero dimension later makes the product 0.
      for (int64_t rest : shape)
        if (rest == 0) return 0;
      return std::nullopt;
    }
    n *= d;
  }
  return n;
}

/// `a * b` for non-negative sizes, or nullopt when it exceeds kMaxTensorElements.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  if (a < 0 || b < 0) return std::nullopt;
  if (a != 0 && b > kMaxTensorElements / a) return std::nullopt;
  return a * b;
}

/// "more than 2^60 elements (the limit on one tensor)": the error text.
std::string tooManyElementsMessage(std::span<const int64_t> shape);

}  // namespace passlab::limits
