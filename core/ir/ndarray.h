// Dense tensors with shared, immutable storage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/dtype.h"

namespace passlab {

/// Thrown when a tensor cannot be allocated: its element count is over
/// limits::kMaxTensorElements, it would exceed the AllocationBudget active on
/// this thread, or the system has no memory for it. Unlocated (rule
/// "limits.memory"); the interpreter rethrows it located at the call.
class AllocationLimitError : public DiagnosticError {
 public:
  /// An error with `message`.
  explicit AllocationLimitError(std::string message);
};

/// While alive, bounds the bytes of tensor storage allocated on this thread
/// that are still live (counted from the budget's creation) to `maxBytes`:
/// an allocation beyond it throws AllocationLimitError. The interpreters
/// install one per evaluation (`set interp-max-bytes`). Budgets nest; the
/// innermost applies.
class AllocationBudget {
 public:
  /// Starts a budget of `maxBytes`; `settingHint` ends the error message
  /// (how to raise the limit).
  AllocationBudget(int64_t maxBytes, std::string settingHint);
  ~AllocationBudget();
  AllocationBudget(const AllocationBudget&) = delete;
  AllocationBudget& operator=(const AllocationBudget&) = delete;

 private:
  friend class NDArray;
  int64_t maxBytes_;
  int64_t baseline_;
  std::string hint_;
  AllocationBudget* previous_;
};

/// Bytes of tensor storage currently live in the process.
int64_t liveTensorBytes();

/// A dense row-major tensor. Copies share the byte storage, so constants that
/// hold the same data (and snapshots of them) cost nothing extra. Storage is
/// treated as immutable once an NDArray is published into the IR; `mutableData`
/// is for the code that creates it.
class NDArray {
 public:
  NDArray() = default;
  /// Allocates zero-filled storage for `shape` elements of `dtype`; throws
  /// AllocationLimitError when that is over a limit or memory is exhausted.
  NDArray(DataType dtype, std::vector<int64_t> shape);

  /// Element type.
  DataType dtype() const { return dtype_; }
  /// Dimensions (empty for a scalar).
  const std::vector<int64_t>& shape() const { return shape_; }
  /// Number of dimensions.
  size_t ndim() const { return shape_.size(); }
  /// Number of elements (1 for a scalar).
  int64_t numElements() const;
  /// Bytes of storage.
  size_t byteSize() const { return static_cast<size_t>(numElements()) * dtype_.bytes(); }
  /// True when this array has storage.
  bool defined() const { return storage_ != nullptr; }

  /// Read-only bytes.
  const uint8_t* rawData() const { return storage_ ? storage_->data() : nullptr; }
  /// Writable bytes; only for the code that is filling a fresh array.
  uint8_t* mutableData() { return storage_ ? storage_->data() : nullptr; }
  /// Typed read-only view; T must match the dtype's size.
  template <class T>
  std::span<const T> values() const {
    return {reinterpret_cast<const T*>(rawData()), static_cast<size_t>(numElements())};
  }
  /// Typed writable view for fresh arrays.
  template <class T>
  std::span<T> mutableValues() {
    return {reinterpret_cast<T*>(mutableData()), static_cast<size_t>(numElements())};
  }

  /// Element i converted to double (exact for every dtype but int64 beyond 2^53).
  double getAsDouble(int64_t i) const;
  /// Element i converted to int64 (floats truncated toward zero, saturating at
  /// the int64 range and NaN → 0, so a hostile initializer cannot reach UB).
  int64_t getAsInt(int64_t i) const;
  /// Stores a double into element i, rounding to the dtype (half: nearest-even).
  void setFromDouble(int64_t i, double v);

  /// A scalar of `dtype` holding `v`.
  static NDArray scalar(DataType dtype, double v);
  /// Same storage, new shape (element count must match).
  NDArray reshaped(std::vector<int64_t> shape) const;
  /// True when dtype, shape and bytes are identical.
  bool bitwiseEqual(const NDArray& other) const;
  /// True when both share the same storage object.
  bool sharesStorageWith(const NDArray& other) const { return storage_ == other.storage_; }
  /// A hash of dtype, shape, contents and placeholder index.
  size_t contentHash() const;

  // ---- Placeholders --------------------------------------------------------
  // TVM prints weights as `meta[relay.Constant][N]` and usually omits the
  // metadata section holding their data. Such a reference loads as a
  // placeholder: an array of the right type filled with made-up, deterministic
  // data, which remembers N so it prints back as it came in. Arrays computed
  // from placeholders (FoldConstant's results) are marked as derived, so
  // numbers computed from made-up data can be labelled as such.

  /// `meta[relay.Constant][index]` with made-up data: a function of index,
  /// dtype and shape only, so parsing the same reference again gives the same
  /// bits. Floats are small and centred (weights scaled by 1/sqrt(fan-in),
  /// rank-0/1 arrays in [0.5, 1.5) so variances stay positive), integers in [0, 4).
  static NDArray placeholder(DataType dtype, std::vector<int64_t> shape, int32_t index);
  /// The N of the `meta[relay.Constant][N]` this array stands for, or -1.
  int32_t placeholderIndex() const { return placeholder_ >= 0 ? placeholder_ : -1; }
  /// True for a placeholder itself.
  bool isPlaceholder() const { return placeholder_ >= 0; }
  /// True for a placeholder and for data computed from one.
  bool fromPlaceholder() const { return placeholder_ != kRealData; }
  /// Marks a fresh array as computed from placeholder data.
  void markDerivedFromPlaceholder() { placeholder_ = kDerived; }

 private:
  static constexpr int32_t kRealData = -1;
  static constexpr int32_t kDerived = -2;
  DataType dtype_;
  std::vector<int64_t> shape_;
  std::shared_ptr<std::vector<uint8_t>> storage_;
  int32_t placeholder_ = kRealData;
};

}  // namespace passlab
