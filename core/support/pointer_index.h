// Pointer -> dense index, open addressing over one flat array: the lookup
// table of the printer's per-node records (core/text/printer.h), of its node
// numbering, and of the matcher's node ids (NodeIdMap in
// core/analysis/node_match.h). A node-based std::unordered_map costs an
// allocation per entry and a cache miss per lookup; a 100k-op module prints
// ~300k nodes, and matching or an aligned diff looks each one up several
// times in tables far larger than the caches. Key and value share a slot, so
// a probe touches one cache line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace passlab {

/// Maps non-null pointers to uint32_t indices (typically "the order in which
/// the key was first seen", so side arrays indexed by it stay dense).
class PointerIndex {
 public:
  /// `find`'s answer for an absent key.
  static constexpr uint32_t kAbsent = 0xffffffffu;

  /// The index of `key`, kAbsent when absent (or null).
  uint32_t find(const void* key) const {
    if (!key || slots_.empty()) return kAbsent;
    for (size_t i = slot(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return slots_[i].val;
      if (!slots_[i].key) return kAbsent;
    }
  }
  /// Whether `key` is present.
  bool contains(const void* key) const { return find(key) != kAbsent; }
  /// The index of `key`; when absent, records `next` for it. Second: whether
  /// it was recorded now. One probe sequence. `key` must not be null.
  std::pair<uint32_t, bool> insert(const void* key, uint32_t next) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = slot(key);
    for (; slots_[i].key; i = (i + 1) & mask_)
      if (slots_[i].key == key) return {slots_[i].val, false};
    slots_[i] = {key, next};
    ++size_;
    return {next, true};
  }
  /// Records `key` -> `index` without looking for it first: `key` must be
  /// absent and not null (a table being filled from distinct keys).
  void put(const void* key, uint32_t index) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = slot(key);
    while (slots_[i].key) i = (i + 1) & mask_;
    slots_[i] = {key, index};
    ++size_;
  }
  /// Replaces every index v by `to[v]` (kAbsent when v is out of range): one
  /// sweep over the table, no probing, so an index of nodes can become an
  /// index of records without being built again. Entries mapped to kAbsent
  /// read as absent.
  void remap(const std::vector<uint32_t>& to) {
    for (Slot& s : slots_)
      if (s.key) s.val = s.val < to.size() ? to[s.val] : kAbsent;
  }
  /// Room for `n` entries without growing (the table stays at most half full).
  void reserve(size_t n) {
    size_t cap = 64;
    while (cap < 2 * (n + 1)) cap *= 2;
    if (cap > slots_.size()) grow(cap);
  }
  /// Number of entries.
  size_t size() const { return size_; }
  /// Forgets every entry (keeps the memory).
  void clear() {
    for (Slot& s : slots_) s = Slot{};
    size_ = 0;
  }

 private:
  struct Slot {
    const void* key = nullptr;
    uint32_t val = kAbsent;
  };
  size_t slot(const void* key) const {
    return static_cast<size_t>((reinterpret_cast<uintptr_t>(key) >> 4) * 0x9E3779B97F4A7C15ull >> shift_) & mask_;
  }
  void grow(size_t minCap = 0) {
    std::vector<Slot> old = std::move(slots_);
    size_t cap = minCap > 0 ? minCap : old.empty() ? size_t{64} : old.size() * 2;
    slots_.assign(cap, Slot{});
    mask_ = cap - 1;
    shift_ = 64;
    for (size_t c = cap; c > 1; c >>= 1) --shift_;
    for (const Slot& s : old) {
      if (!s.key) continue;
      size_t i = slot(s.key);
      while (slots_[i].key) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  size_t mask_ = 0, size_ = 0;
  unsigned shift_ = 64;
};

/// A set of pointers over PointerIndex (the nodes an aligned diff prints without type comments).
class PointerSet {
 public:
  /// Adds `key` (null is ignored).
  void insert(const void* key) {
    if (key) index_.insert(key, 0);
  }
  /// 1 when `key` is in the set, else 0 (std::set's spelling).
  size_t count(const void* key) const { return index_.contains(key) ? 1 : 0; }
  /// Number of members.
  size_t size() const { return index_.size(); }
  /// Whether the set is empty.
  bool empty() const { return index_.size() == 0; }

 private:
  PointerIndex index_;
};

}  // namespace passlab
