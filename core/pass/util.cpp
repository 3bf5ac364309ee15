#include "core/pass/util.h"

#include <algorithm>
#include <cctype>

namespace passlab::pass_detail {

std::string_view kindName(AttrValue::Kind kind) {
  switch (kind) {
    case AttrValue::Kind::None: return "none";
    case AttrValue::Kind::Bool: return "bool";
    case AttrValue::Kind::Int: return "int";
    case AttrValue::Kind::Float: return "float";
    case AttrValue::Kind::String: return "string";
    case AttrValue::Kind::Array: return "array";
    case AttrValue::Kind::Dict: return "dict";
    case AttrValue::Kind::MetaRef: return "metadata reference";
  }
  return "?";
}

std::optional<AttrValue> coerceToKind(const AttrValue& value, AttrValue::Kind kind) {
  using Kind = AttrValue::Kind;
  if (value.kind() == kind) return value;
  if (kind == Kind::Float && value.kind() == Kind::Int) return AttrValue::floating(static_cast<double>(value.asInt()));
  // A single value where a list is expected is a list of one (TVM's AnnotateTarget takes "ccompiler" or ["ccompiler"]).
  if (kind == Kind::Array && value.kind() != Kind::None) return AttrValue::array({value});
  // 0 and 1 are the only integers that mean a boolean unambiguously (TVM configs write `1`).
  if (kind == Kind::Bool && value.kind() == Kind::Int && (value.asInt() == 0 || value.asInt() == 1))
    return AttrValue::boolean(value.asInt() != 0);
  return std::nullopt;
}

static size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

static std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<std::string> closestName(std::string_view name, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t bestDistance = SIZE_MAX;
  std::string lowerName = lower(name);
  for (const std::string& c : candidates) {
    size_t d = editDistance(name, c);
    // A name that is a prefix of a candidate ("Fold" for "FoldConstant") is a
    // likely abbreviation even when the edit distance is large.
    std::string lowerCandidate = lower(c);
    if (lowerName.size() >= 3 && lowerCandidate.rfind(lowerName, 0) == 0) d = std::min(d, size_t{1});
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  // Allow roughly one typo per three characters, and at least two.
  size_t limit = std::max<size_t>(2, name.size() / 3);
  if (!best || bestDistance > limit) return std::nullopt;
  return best;
}

}  // namespace passlab::pass_detail
