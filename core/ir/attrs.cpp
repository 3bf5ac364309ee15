#include "core/ir/attrs.h"

#include <cmath>
#include <cstdio>
#include <functional>

namespace passlab {

AttrValue AttrValue::boolean(bool b) {
  AttrValue v;
  v.kind_ = Kind::Bool;
  v.bool_ = b;
  return v;
}
AttrValue AttrValue::integer(int64_t i) {
  AttrValue v;
  v.kind_ = Kind::Int;
  v.int_ = i;
  return v;
}
AttrValue AttrValue::floating(double f) {
  AttrValue v;
  v.kind_ = Kind::Float;
  v.float_ = f;
  return v;
}
AttrValue AttrValue::string(std::string s) {
  AttrValue v;
  v.kind_ = Kind::String;
  v.string_ = std::move(s);
  return v;
}
AttrValue AttrValue::array(std::vector<AttrValue> items) {
  AttrValue v;
  v.kind_ = Kind::Array;
  v.array_ = std::move(items);
  return v;
}
AttrValue AttrValue::dict(AttrDict d) {
  AttrValue v;
  v.kind_ = Kind::Dict;
  v.dict_ = std::make_shared<const AttrDict>(std::move(d));
  return v;
}
AttrValue AttrValue::metaRef(std::string kind, int64_t index) {
  AttrValue v;
  v.kind_ = Kind::MetaRef;
  v.string_ = std::move(kind);
  v.int_ = index;
  return v;
}
AttrValue AttrValue::ints(const std::vector<int64_t>& items) {
  std::vector<AttrValue> vs;
  vs.reserve(items.size());
  for (int64_t i : items) vs.push_back(integer(i));
  return array(std::move(vs));
}

const AttrDict& AttrValue::asDict() const {
  static const AttrDict kEmpty;
  return dict_ ? *dict_ : kEmpty;
}

std::vector<int64_t> AttrValue::asInts() const {
  std::vector<int64_t> out;
  out.reserve(array_.size());
  for (const AttrValue& v : array_) out.push_back(v.asInt());
  return out;
}

bool operator==(const AttrValue& a, const AttrValue& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case AttrValue::Kind::None: return true;
    case AttrValue::Kind::Bool: return a.bool_ == b.bool_;
    case AttrValue::Kind::Int: return a.int_ == b.int_;
    case AttrValue::Kind::Float: return a.float_ == b.float_ || (std::isnan(a.float_) && std::isnan(b.float_));
    case AttrValue::Kind::String: return a.string_ == b.string_;
    case AttrValue::Kind::Array: return a.array_ == b.array_;
    case AttrValue::Kind::Dict: return a.asDict() == b.asDict();
    case AttrValue::Kind::MetaRef: return a.int_ == b.int_ && a.string_ == b.string_;
  }
  return false;
}

size_t AttrValue::hash() const {
  size_t h = static_cast<size_t>(kind_) * 0x9e3779b97f4a7c15ull;
  auto mix = [&h](size_t x) { h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  switch (kind_) {
    case Kind::None: break;
    case Kind::Bool: mix(bool_); break;
    case Kind::Int: mix(std::hash<int64_t>()(int_)); break;
    case Kind::Float: mix(std::hash<double>()(float_)); break;
    case Kind::String: mix(std::hash<std::string>()(string_)); break;
    case Kind::Array:
      for (const AttrValue& v : array_) mix(v.hash());
      break;
    case Kind::Dict: mix(asDict().hash()); break;
    case Kind::MetaRef:
      mix(std::hash<std::string>()(string_));
      mix(std::hash<int64_t>()(int_));
      break;
  }
  return h;
}

static std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

/// Shortest text that reads back to the same double, with TVM's `f` suffix.
static std::string floatText(double f) {
  if (std::isnan(f)) return "nanf";
  if (std::isinf(f)) return f > 0 ? "inff" : "-inff";
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, f);
    if (std::strtod(buf, nullptr) == f) break;
  }
  std::string s = buf;
  return s + "f";
}

std::string AttrValue::toString() const {
  switch (kind_) {
    case Kind::None: return "None";
    case Kind::Bool: return bool_ ? "True" : "False";
    case Kind::Int: return std::to_string(int_);
    case Kind::Float: return floatText(float_);
    case Kind::String: return quote(string_);
    case Kind::Array: {
      std::string out = "[";
      for (size_t i = 0; i < array_.size(); ++i) out += (i ? ", " : "") + array_[i].toString();
      return out + "]";
    }
    case Kind::Dict: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, v] : asDict().entries()) {
        out += (first ? "" : ", ") + quote(k) + ": " + v.toString();
        first = false;
      }
      return out + "}";
    }
    case Kind::MetaRef: return "meta[" + string_ + "][" + std::to_string(int_) + "]";
  }
  return "None";
}

AttrDict::AttrDict(std::initializer_list<Entry> entries) {
  for (const Entry& e : entries) set(e.first, e.second);
}

const AttrValue* AttrDict::find(std::string_view key) const {
  for (const Entry& e : entries_)
    if (e.first == key) return &e.second;
  return nullptr;
}

void AttrDict::set(std::string key, AttrValue value) {
  for (Entry& e : entries_)
    if (e.first == key) {
      e.second = std::move(value);
      return;
    }
  entries_.emplace_back(std::move(key), std::move(value));
}

bool AttrDict::erase(std::string_view key) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->first == key) {
      entries_.erase(it);
      return true;
    }
  return false;
}

int64_t AttrDict::getInt(std::string_view key, int64_t fallback) const {
  const AttrValue* v = find(key);
  return v && !v->isNone() ? v->asInt() : fallback;
}

std::string AttrDict::getString(std::string_view key, std::string fallback) const {
  const AttrValue* v = find(key);
  return v && v->kind() == AttrValue::Kind::String ? v->asString() : fallback;
}

bool AttrDict::getBool(std::string_view key, bool fallback) const {
  const AttrValue* v = find(key);
  return v && !v->isNone() ? v->asBool() : fallback;
}

size_t AttrDict::hash() const {
  size_t h = 0xcbf29ce484222325ull;
  for (const Entry& e : entries_) {
    h ^= std::hash<std::string>()(e.first) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= e.second.hash() + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return h;
}

}  // namespace passlab
