// Constants by reference: the one rule both printers (Relay text and
// TVMScript) follow for when a constant is written as a reference to a
// metadata entry (`meta[relay.Constant][N]`, `metadata["relax.expr.Constant"][N]`)
// instead of inline, and the numbering N comes from.
//
// Where the numbering lives: the printers are stateless, so the numbering is a
// value its owner passes in PrintOptions::numbering. The workbench session owns
// one for its whole life, so a constant keeps its number across every event
// (a pass that shares a constant, or rebuilds an equal one, prints the same N),
// and a diff prints both sides with the same numbers. A print without one (a
// file, a test) numbers its own constants 0, 1, ... in print order, which is
// what a `#[metadata]` section needs (its array is indexed by N).
//
// How a printer uses it, per constant `data`:
//   if (printsAsReference(data, options.constants)) {
//     int32_t n = numbering.numberOf(data);   // stable, assigned on first sight
//     ... write the reference to n, and remember n for the metadata section ...
//   } else { ... write it inline ... }
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/ndarray.h"

namespace passlab {

/// How constants print: by reference above the threshold (TVM's way, the
/// default) or always inline (small teaching examples).
enum class ConstantStyle : uint8_t { Ref, Inline };
/// "ref" / "inline".
std::string_view constantStyleName(ConstantStyle s);
/// The style named `name`, or nullopt.
std::optional<ConstantStyle> constantStyleFromName(std::string_view name);

/// A non-scalar constant with more elements than this prints by reference.
inline constexpr int64_t kInlineConstantMaxElements = 16;

/// True when `data` prints as a reference under `style`: a non-scalar array
/// with more than kInlineConstantMaxElements elements. A placeholder (a
/// reference loaded without its data) always prints as the reference it came
/// in as, whatever the style; it is not numbered here.
bool printsAsReference(const NDArray& data, ConstantStyle style);

/// "16x1x1 float32": a constant's shape and dtype in one word ("float32" for a scalar).
std::string constantShapeText(const NDArray& data);

/// What `show const N` prints about a constant: its type and size, the first
/// values (every value with `all`), and min/max/mean; several lines, each
/// ending in '\n'. Notes data made up for a placeholder or computed from one.
std::string describeConstant(const NDArray& data, bool all = false);

/// Numbers constants stably: the same array (same storage, or equal dtype,
/// shape and bytes) always gets the same number. Keeps every numbered array
/// alive, so a number never changes meaning and `constant(n)` can show it.
/// Thread-safe (the GUI prints from worker threads).
class ConstantNumbering {
 public:
  /// The number of `data`, assigned on first sight (the lowest number not yet
  /// used or reserved).
  int32_t numberOf(const NDArray& data);
  /// The number `data` already has, or -1.
  int32_t find(const NDArray& data) const;
  /// The array numbered `n` (undefined when no array has that number).
  NDArray constant(int32_t n) const;
  /// Numbers assigned so far (numbers run 0 .. size()-1, reserved ones excepted).
  size_t size() const;
  /// Keeps `n` free: a placeholder loaded as `meta[relay.Constant][n]` keeps that number.
  void reserve(int32_t n);
  /// The arrays numbered, by number (an undefined array where a number is unused).
  std::vector<NDArray> arrays() const;

 private:
  int32_t findLocked(const NDArray& data, size_t* hash) const;
  mutable std::mutex mutex_;
  /// First byte of storage → numbers using that storage (a reshape shares it).
  std::unordered_multimap<const uint8_t*, int32_t> byStorage_;
  std::unordered_multimap<size_t, int32_t> byContent_;
  std::vector<NDArray> arrays_;
  std::unordered_set<int32_t> reserved_;
  int32_t next_ = 0;
};

}  // namespace passlab
