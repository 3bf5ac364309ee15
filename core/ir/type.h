// Types of graph-level expressions: tensors, tuples, functions and the opaque
// storage of TVM's memory planning.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/ir/dtype.h"

namespace passlab {

/// Which kind of type a TypeNode is.
enum class TypeKind : uint8_t { Tensor, Tuple, Func, Storage };

struct TypeNode;
/// An immutable, shared type. Null means "not known yet" (to be inferred).
using Type = std::shared_ptr<const TypeNode>;

/// Base of all types.
struct TypeNode {
  const TypeKind kind;
  explicit TypeNode(TypeKind k) : kind(k) {}
  virtual ~TypeNode() = default;
};

/// Marks a dimension written `?` in the input text.
inline constexpr int64_t kDynamicDim = -1;

/// Tensor[(d0, d1, ...), dtype]. A rank-0 tensor prints as just its dtype.
struct TensorTypeNode final : TypeNode {
  static constexpr TypeKind kKind = TypeKind::Tensor;
  std::vector<int64_t> shape;
  DataType dtype;
  TensorTypeNode(std::vector<int64_t> s, DataType d) : TypeNode(kKind), shape(std::move(s)), dtype(d) {}
  /// True when some dimension is `?`.
  bool hasDynamicDim() const;
  /// Product of dimensions, -1 for dynamic shapes. Overflow-checked
  /// (limits::checkedElementCount): a type over the limit throws.
  int64_t numElements() const;
};

/// (T0, T1, ...).
struct TupleTypeNode final : TypeNode {
  static constexpr TypeKind kKind = TypeKind::Tuple;
  std::vector<Type> fields;
  explicit TupleTypeNode(std::vector<Type> f) : TypeNode(kKind), fields(std::move(f)) {}
};

/// fn (T0, T1) -> R.
struct FuncTypeNode final : TypeNode {
  static constexpr TypeKind kKind = TypeKind::Func;
  std::vector<Type> params;
  Type ret;
  FuncTypeNode(std::vector<Type> p, Type r) : TypeNode(kKind), params(std::move(p)), ret(std::move(r)) {}
};

/// `Storage`: a block of device memory from memory.alloc_storage, which
/// memory.alloc_tensor places tensors in (TVM's `Storage[]` type call).
struct StorageTypeNode final : TypeNode {
  static constexpr TypeKind kKind = TypeKind::Storage;
  StorageTypeNode() : TypeNode(kKind) {}
};

/// Downcast: the node as T, or null when it is another kind (or null).
template <class T>
const T* as(const Type& t) {
  return t && t->kind == T::kKind ? static_cast<const T*>(t.get()) : nullptr;
}

/// Constructors.
Type tensorType(std::vector<int64_t> shape, DataType dtype);
Type tupleType(std::vector<Type> fields);
Type funcType(std::vector<Type> params, Type ret);
/// The empty tuple type `()`.
Type unitType();
/// The storage type (one shared node).
Type storageType();

/// Structural equality of types (null equals only null).
bool typeEqual(const Type& a, const Type& b);
/// Hash consistent with typeEqual.
size_t typeHash(const Type& t);
/// Relay text: `Tensor[(1, 3), float32]`, `float32`, `(T0, T1)`, `fn (T) -> R`.
std::string typeToString(const Type& t);

}  // namespace passlab
