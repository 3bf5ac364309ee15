// Attribute values and ordered attribute dictionaries (function, call and module attributes).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace passlab {

class AttrDict;

/// One attribute value: None, bool, int, float, string, array, nested
/// dictionary, or a reference into TVM's metadata (`meta[VirtualDevice][1]`).
class AttrValue {
 public:
  /// Which alternative is held.
  enum class Kind : uint8_t { None, Bool, Int, Float, String, Array, Dict, MetaRef };

  AttrValue() = default;
  /// Constructors for each kind.
  static AttrValue none() { return {}; }
  static AttrValue boolean(bool b);
  static AttrValue integer(int64_t i);
  static AttrValue floating(double f);
  static AttrValue string(std::string s);
  static AttrValue array(std::vector<AttrValue> items);
  static AttrValue dict(AttrDict d);
  /// `meta[kind][index]`: an object TVM keeps in the metadata section rather
  /// than in the text (virtual devices). What it stands for lives in the module
  /// (see core/ir/virtual_device.h), so the reference itself is just its name.
  static AttrValue metaRef(std::string kind, int64_t index);
  /// An array of ints (the common case: strides, padding, shapes).
  static AttrValue ints(const std::vector<int64_t>& items);

  Kind kind() const { return kind_; }
  bool isNone() const { return kind_ == Kind::None; }
  bool asBool() const { return kind_ == Kind::Int ? int_ != 0 : bool_; }
  int64_t asInt() const { return kind_ == Kind::Bool ? (bool_ ? 1 : 0) : kind_ == Kind::Float ? static_cast<int64_t>(float_) : int_; }
  double asFloat() const { return kind_ == Kind::Int ? static_cast<double>(int_) : float_; }
  const std::string& asString() const { return string_; }
  /// For a MetaRef: the metadata kind ("VirtualDevice") and the index.
  const std::string& metaKind() const { return string_; }
  int64_t metaIndex() const { return int_; }
  const std::vector<AttrValue>& asArray() const { return array_; }
  /// The nested dictionary (empty dictionary for other kinds).
  const AttrDict& asDict() const;
  /// The array as ints (each element via asInt()).
  std::vector<int64_t> asInts() const;

  /// Deep equality (Int 1 and Bool true are different values).
  friend bool operator==(const AttrValue& a, const AttrValue& b);
  friend bool operator!=(const AttrValue& a, const AttrValue& b) { return !(a == b); }
  /// Stable hash consistent with ==.
  size_t hash() const;
  /// Text form used by the printer: 1, 1f, True, "s", [1, 2], {"k": v}, None.
  std::string toString() const;

 private:
  Kind kind_ = Kind::None;
  bool bool_ = false;
  int64_t int_ = 0;
  double float_ = 0;
  std::string string_;
  std::vector<AttrValue> array_;
  std::shared_ptr<const AttrDict> dict_;
};

/// An insertion-ordered dictionary from string keys to AttrValue. Insertion order is
/// kept so printing is deterministic and print -> parse -> print is the identity.
class AttrDict {
 public:
  using Entry = std::pair<std::string, AttrValue>;

  AttrDict() = default;
  /// From a list of entries (later duplicates overwrite earlier ones).
  AttrDict(std::initializer_list<Entry> entries);

  /// The value for `key`, or null.
  const AttrValue* find(std::string_view key) const;
  /// True when `key` is present.
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  /// Sets `key` (keeps its position if present, appends otherwise).
  void set(std::string key, AttrValue value);
  /// Removes `key`; returns whether it was present.
  bool erase(std::string_view key);
  /// Typed lookups with a fallback for absent keys.
  int64_t getInt(std::string_view key, int64_t fallback = 0) const;
  std::string getString(std::string_view key, std::string fallback = "") const;
  bool getBool(std::string_view key, bool fallback = false) const;

  const std::vector<Entry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }

  /// Order-sensitive equality.
  friend bool operator==(const AttrDict& a, const AttrDict& b) { return a.entries_ == b.entries_; }
  friend bool operator!=(const AttrDict& a, const AttrDict& b) { return !(a == b); }
  size_t hash() const;

 private:
  std::vector<Entry> entries_;
};

}  // namespace passlab
