#include "core/text/constant_refs.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/ir/type.h"
#include "core/support/strings.h"
#include "core/text/literal.h"

namespace passlab {

std::string_view constantStyleName(ConstantStyle s) {
  switch (s) {
    case ConstantStyle::Ref: return "ref";
    case ConstantStyle::Inline: return "inline";
  }
  return "ref";
}

std::optional<ConstantStyle> constantStyleFromName(std::string_view name) {
  for (ConstantStyle s : {ConstantStyle::Ref, ConstantStyle::Inline})
    if (constantStyleName(s) == name) return s;
  return std::nullopt;
}

bool printsAsReference(const NDArray& data, ConstantStyle style) {
  return style == ConstantStyle::Ref && data.defined() && !data.isPlaceholder() && data.ndim() > 0 &&
         data.numElements() > kInlineConstantMaxElements;
}

std::string constantShapeText(const NDArray& data) {
  std::string out;
  for (size_t i = 0; i < data.ndim(); ++i) out += (i ? "x" : "") + std::to_string(data.shape()[i]);
  return out + (out.empty() ? "" : " ") + std::string(data.dtype().name());
}

std::string describeConstant(const NDArray& data, bool all) {
  constexpr int64_t kShown = 8;
  const int64_t n = data.defined() ? data.numElements() : 0;
  std::string out = typeToString(tensorType(data.shape(), data.dtype())) + ", " + std::to_string(n) +
                    (n == 1 ? " element" : " elements") + " (" + std::to_string(data.byteSize()) + " bytes)\n";
  if (data.isPlaceholder())
    out += "  a placeholder: loaded as meta[relay.Constant][" + std::to_string(data.placeholderIndex()) +
           "] without a #[metadata] section, its data is made up\n";
  else if (data.fromPlaceholder())
    out += "  computed from placeholder constants (made-up data)\n";
  if (n == 0) return out;
  const int64_t shown = all ? n : std::min(n, kShown);
  out += "  values: [";
  for (int64_t i = 0; i < shown; ++i) {
    if (i) out += ", ";
    text::appendElement(out, data, i);
  }
  out += shown < n ? ", ...]  (first " + std::to_string(shown) + " of " + std::to_string(n) + "; --all for every element)\n" : "]\n";
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
  int64_t nans = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = data.getAsDouble(i);
    if (std::isnan(v)) {
      ++nans;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  auto num = [](double v) { return formatSignificant(v, 6); };
  if (nans < n)
    out += "  min " + num(lo) + ", max " + num(hi) + ", mean " + num(sum / static_cast<double>(n - nans));
  else
    out += "  every value is NaN";
  if (nans && nans < n) out += " (" + std::to_string(nans) + " NaN not counted)";
  return out + "\n";
}

int32_t ConstantNumbering::findLocked(const NDArray& data, size_t* hash) const {
  // Storage identity first: a constant shared between snapshots costs no hashing.
  auto [first, last] = byStorage_.equal_range(data.rawData());
  for (auto it = first; it != last; ++it) {
    const NDArray& known = arrays_[static_cast<size_t>(it->second)];
    if (known.dtype() == data.dtype() && known.shape() == data.shape()) return it->second;
  }
  size_t h = data.contentHash();
  if (hash) *hash = h;
  auto [cf, cl] = byContent_.equal_range(h);
  for (auto it = cf; it != cl; ++it)
    if (arrays_[static_cast<size_t>(it->second)].bitwiseEqual(data)) return it->second;
  return -1;
}

int32_t ConstantNumbering::numberOf(const NDArray& data) {
  std::lock_guard lock(mutex_);
  size_t hash = 0;
  int32_t n = findLocked(data, &hash);
  if (n >= 0) {
    // An equal array in new storage: remember the storage too, so the next look-up is cheap.
    if (arrays_[static_cast<size_t>(n)].rawData() != data.rawData()) byStorage_.emplace(data.rawData(), n);
    return n;
  }
  while (reserved_.count(next_)) ++next_;
  n = next_++;
  if (arrays_.size() <= static_cast<size_t>(n)) arrays_.resize(static_cast<size_t>(n) + 1);
  arrays_[static_cast<size_t>(n)] = data;
  byStorage_.emplace(data.rawData(), n);
  byContent_.emplace(hash, n);
  return n;
}

int32_t ConstantNumbering::find(const NDArray& data) const {
  std::lock_guard lock(mutex_);
  return findLocked(data, nullptr);
}

NDArray ConstantNumbering::constant(int32_t n) const {
  std::lock_guard lock(mutex_);
  if (n < 0 || static_cast<size_t>(n) >= arrays_.size()) return NDArray();
  return arrays_[static_cast<size_t>(n)];
}

size_t ConstantNumbering::size() const {
  std::lock_guard lock(mutex_);
  size_t count = 0;
  for (const NDArray& a : arrays_) count += a.defined();
  return count;
}

void ConstantNumbering::reserve(int32_t n) {
  std::lock_guard lock(mutex_);
  if (n < 0 || (static_cast<size_t>(n) < arrays_.size() && arrays_[static_cast<size_t>(n)].defined())) return;
  reserved_.insert(n);
}

std::vector<NDArray> ConstantNumbering::arrays() const {
  std::lock_guard lock(mutex_);
  return arrays_;
}

}  // namespace passlab
