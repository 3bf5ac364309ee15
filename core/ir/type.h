// Types of graph-level expressions: tensors, tuples, functions and the opaque
// storage of TVM's memory planning.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/dtype.h"

namespace passlab {

namespace tir {
struct PrimExprNode;
/// A TIR scalar expression (core/ir/tir.h); a symbolic dimension is one.
using PrimExpr = std::shared_ptr<const PrimExprNode>;
}  // namespace tir

/// Which kind of type a TypeNode is.
enum class TypeKind : uint8_t { Tensor, Tuple, Func, Storage, Shape, Object, Prim };

struct TypeNode;
/// An immutable, shared type. Null means "not known yet" (to be inferred).
using Type = std::shared_ptr<const TypeNode>;

/// Base of all types.
struct TypeNode {
  const TypeKind kind;
  explicit TypeNode(TypeKind k) : kind(k) {}
  virtual ~TypeNode() = default;
};

/// Marks a dimension that is not a constant: written `?` in the input text,
/// or symbolic (see TensorTypeNode::symbolic).
inline constexpr int64_t kDynamicDim = -1;

/// Tensor[(d0, d1, ...), dtype]. A rank-0 tensor prints as just its dtype.
///
/// Symbolic shapes (TVM's `R.Tensor((n, 4))`): `shape` keeps one int64 per
/// dimension for the many readers that only need static extents, with
/// kDynamicDim wherever the extent is not a constant. `symbolic` is empty
/// when no dimension is symbolic; otherwise it has one entry per dimension,
/// null where `shape` says everything (a static extent, or an unknown `?`),
/// and the int64 PrimExpr over shape variables (`n`, `n * 2`) where
/// shape[i] is kDynamicDim. So code that treats kDynamicDim as "unknown" stays
/// right (it only knows less), and the helpers of core/ir/shape_expr.h read
/// and build both together. Shape variables are tir::Vars of dtype int64,
/// shared by every type of one function that mentions them.
struct TensorTypeNode final : TypeNode {
  static constexpr TypeKind kKind = TypeKind::Tensor;
  std::vector<int64_t> shape;
  DataType dtype;
  /// Empty, or per dimension: null, or the symbolic extent (see above).
  std::vector<tir::PrimExpr> symbolic;
  /// TVM's "void" dtype (`R.Tensor(ndim=2)`, `R.Tensor((2, 3))`): the dtype
  /// is not known, and `dtype` holds float32 without meaning it.
  bool unknownDtype = false;
  /// TVM's ndim=-1 (`R.Tensor`, `R.Tensor(dtype="float32")`): the rank is not
  /// known, and `shape` is empty without meaning rank 0.
  bool unknownRank = false;
  /// TVM's `vdevice="llvm:0"`: the virtual device (target kind and index into
  /// the module's vdevice list) a value of this type lives on; empty: none.
  std::string vdevice;
  TensorTypeNode(std::vector<int64_t> s, DataType d, std::vector<tir::PrimExpr> sym = {})
      : TypeNode(kKind), shape(std::move(s)), dtype(d), symbolic(std::move(sym)) {}
  /// True when some dimension is not a constant (`?` or symbolic).
  bool hasDynamicDim() const;
  /// True when some dimension is a symbolic expression.
  bool hasSymbolicDim() const { return !symbolic.empty(); }
  /// The symbolic extent of dimension `i`, null when it has none.
  tir::PrimExpr symbolicDim(size_t i) const { return i < symbolic.size() ? symbolic[i] : nullptr; }
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

/// Relax's `R.Shape([2, 4])` / `R.Shape(ndim=2)`: the type of a shape value
/// (`R.shape([2, 4])`), what Relax's memory ops take as sizes. `values` holds
/// the static extents when known (then ndim is their count); ndim is -1 when
/// even the rank is unknown (`R.Shape`).
struct ShapeTypeNode final : TypeNode {
  static constexpr TypeKind kKind = TypeKind::Shape;
  int64_t ndim = -1;
  std::optional<std::vector<int64_t>> values;
  /// `R.Shape([n, 4])`: empty, or per value null (static: `values` has it, 0
  /// in `values`) or its symbolic expression (then `values` holds kDynamicDim).
  std::vector<tir::PrimExpr> symbolic;
  ShapeTypeNode(int64_t n, std::optional<std::vector<int64_t>> v) : TypeNode(kKind), ndim(n), values(std::move(v)) {}
};

/// Relax's opaque object type: `R.Object` in the releases, `R.Any` on main.
/// Storage from `R.memory.alloc_storage` / `R.vm.alloc_storage` has it.
struct ObjectTypeNode final : TypeNode {
  static constexpr TypeKind kKind = TypeKind::Object;
  ObjectTypeNode() : TypeNode(kKind) {}
};

/// Relax's `R.Prim("int64")` / `R.Prim(value=4)` / `R.Prim(value=n)`: a
/// scalar that is not a tensor (a PrimValue), with its value when known: a
/// constant in `value`, or (`value` empty) a symbolic int64 expression over
/// shape variables in `symbolic`, as ShapeTypeNode keeps its values.
struct PrimTypeNode final : TypeNode {
  static constexpr TypeKind kKind = TypeKind::Prim;
  DataType dtype;
  std::optional<int64_t> value;
  /// Null, or the symbolic value (then `value` is empty).
  tir::PrimExpr symbolic;
  PrimTypeNode(DataType d, std::optional<int64_t> v, tir::PrimExpr sym = nullptr)
      : TypeNode(kKind), dtype(d), value(v), symbolic(std::move(sym)) {}
};

/// Downcast: the node as T, or null when it is another kind (or null).
template <class T>
const T* as(const Type& t) {
  return t && t->kind == T::kKind ? static_cast<const T*>(t.get()) : nullptr;
}

/// Constructors.
Type tensorType(std::vector<int64_t> shape, DataType dtype);
/// A tensor type with symbolic dimensions: `symbolic` as TensorTypeNode
/// documents (an IntImm entry becomes the static extent, and a vector of
/// nulls becomes empty); shape[i] is set to kDynamicDim where symbolic[i] is
/// an expression.
Type tensorType(std::vector<int64_t> shape, DataType dtype, std::vector<tir::PrimExpr> symbolic);
/// A tensor type that knows less than a shape and a dtype (TVM's
/// `R.Tensor(ndim=2)`, `R.Tensor(dtype="float32")`, `R.Tensor`): `dtype`
/// nullopt is the "void" dtype, `ndim` -1 an unknown rank (else the rank,
/// every dimension unknown).
Type tensorTypeOf(std::optional<DataType> dtype, int64_t ndim);
/// `tensor` (a tensor type) with the "void" dtype: TVM's `R.Tensor((2, 3))`.
Type withUnknownDtype(const Type& tensor);
/// `tensor` (a tensor type) on the virtual device `vdevice` ("llvm:0").
Type withVDevice(const Type& tensor, std::string vdevice);
/// `R.Shape([n, 4])` with symbolic values (null entries: static, from `values`).
Type shapeTypeSymbolic(std::vector<int64_t> values, std::vector<tir::PrimExpr> symbolic);
Type tupleType(std::vector<Type> fields);
Type funcType(std::vector<Type> params, Type ret);
/// The empty tuple type `()`.
Type unitType();
/// The storage type (one shared node).
Type storageType();
/// `R.Shape([...])` with known extents.
Type shapeType(std::vector<int64_t> values);
/// `R.Shape(ndim=n)` (n = -1: unknown rank).
Type shapeTypeOfRank(int64_t ndim);
/// `R.Object` / `R.Any` (one shared node).
Type objectType();
/// `R.Prim(dtype)`, with its value when known.
Type primType(DataType dtype, std::optional<int64_t> value = std::nullopt);
/// `R.Prim(value=n)`: an int64 prim value given by an expression (a constant
/// one becomes `value`, null none).
Type primTypeOf(tir::PrimExpr value);

/// Structural equality of types (null equals only null). Symbolic dimensions
/// compare after simplification, shape variables by name (see
/// shape::equal for equality that binds them by position).
bool typeEqual(const Type& a, const Type& b);
/// Hash consistent with typeEqual.
size_t typeHash(const Type& t);
/// Relay text: `Tensor[(1, 3), float32]`, `float32`, `(T0, T1)`, `fn (T) -> R`.
/// Symbolic dimensions print as `?` (Relay text has no shape variables).
std::string typeToString(const Type& t);

}  // namespace passlab
