#include "core/ir/type.h"

#include <functional>

#include "core/ir/diagnostic.h"
#include "core/ir/limits.h"
#include "core/ir/shape_expr.h"
#include "core/ir/tir.h"

namespace passlab {

bool TensorTypeNode::hasDynamicDim() const {
  if (unknownRank) return true;
  for (int64_t d : shape)
    if (d == kDynamicDim) return true;
  return false;
}

int64_t TensorTypeNode::numElements() const {
  if (hasDynamicDim()) return -1;
  std::optional<int64_t> n = limits::checkedElementCount(shape);
  // Parsers, importers and type inference reject such types with a located
  // error; reaching here means one of them let it through.
  if (!n) throwError({}, "internal: " + limits::tooManyElementsMessage(shape), "limits.elements");
  return *n;
}

namespace limits {
std::string tooManyElementsMessage(std::span<const int64_t> shape) {
  std::string dims;
  for (int64_t d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  return "a tensor of shape (" + dims + ") has more than 2^60 elements (the limit on one tensor's size)";
}
}  // namespace limits

/// Splits dims into the static part and the symbolic part: a symbolic dim that
/// is a constant becomes a static one; the others read kDynamicDim in `dims`.
/// Returns whether any dim stays symbolic.
static bool foldConstantDims(std::vector<int64_t>& dims, std::vector<tir::PrimExpr>& symbolic) {
  bool any = false;
  symbolic.resize(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!symbolic[i]) continue;
    if (const auto* imm = tir::as<tir::IntImmNode>(symbolic[i])) {
      dims[i] = imm->value;
      symbolic[i] = nullptr;
      continue;
    }
    dims[i] = kDynamicDim;
    any = true;
  }
  return any;
}

Type tensorType(std::vector<int64_t> shape, DataType dtype) {
  return std::make_shared<const TensorTypeNode>(std::move(shape), dtype);
}
Type tensorType(std::vector<int64_t> shape, DataType dtype, std::vector<tir::PrimExpr> symbolic) {
  if (!foldConstantDims(shape, symbolic)) symbolic.clear();
  return std::make_shared<const TensorTypeNode>(std::move(shape), dtype, std::move(symbolic));
}
Type tensorTypeOf(std::optional<DataType> dtype, int64_t ndim) {
  auto t = std::make_shared<TensorTypeNode>(std::vector<int64_t>(ndim < 0 ? 0 : static_cast<size_t>(ndim), kDynamicDim),
                                            dtype.value_or(DataType(DTypeCode::Float32)));
  t->unknownDtype = !dtype;
  t->unknownRank = ndim < 0;
  return t;
}
Type withUnknownDtype(const Type& tensor) {
  const auto* t = as<TensorTypeNode>(tensor);
  if (!t) return tensor;
  auto out = std::make_shared<TensorTypeNode>(*t);
  out->unknownDtype = true;
  out->dtype = DataType(DTypeCode::Float32);
  return out;
}
Type withVDevice(const Type& tensor, std::string vdevice) {
  const auto* t = as<TensorTypeNode>(tensor);
  if (!t) return tensor;
  auto out = std::make_shared<TensorTypeNode>(*t);
  out->vdevice = std::move(vdevice);
  return out;
}
Type shapeTypeSymbolic(std::vector<int64_t> values, std::vector<tir::PrimExpr> symbolic) {
  if (!foldConstantDims(values, symbolic)) return shapeType(std::move(values));
  auto t = std::make_shared<ShapeTypeNode>(static_cast<int64_t>(values.size()), std::move(values));
  t->symbolic = std::move(symbolic);
  return t;
}
Type tupleType(std::vector<Type> fields) { return std::make_shared<const TupleTypeNode>(std::move(fields)); }
Type funcType(std::vector<Type> params, Type ret) {
  return std::make_shared<const FuncTypeNode>(std::move(params), std::move(ret));
}
Type unitType() {
  static const Type kUnit = tupleType({});
  return kUnit;
}

Type storageType() {
  static const Type kStorage = std::make_shared<const StorageTypeNode>();
  return kStorage;
}

Type shapeType(std::vector<int64_t> values) {
  int64_t n = static_cast<int64_t>(values.size());
  return std::make_shared<const ShapeTypeNode>(n, std::move(values));
}
Type shapeTypeOfRank(int64_t ndim) { return std::make_shared<const ShapeTypeNode>(ndim, std::nullopt); }
Type objectType() {
  static const Type kObject = std::make_shared<const ObjectTypeNode>();
  return kObject;
}
Type primType(DataType dtype, std::optional<int64_t> value) { return std::make_shared<const PrimTypeNode>(dtype, value); }
Type primTypeOf(tir::PrimExpr value) {
  const DataType i64(DTypeCode::Int64);
  if (!value) return primType(i64);
  if (const auto* imm = tir::as<tir::IntImmNode>(value)) return primType(i64, imm->value);
  return std::make_shared<const PrimTypeNode>(i64, std::nullopt, std::move(value));
}

bool typeEqual(const Type& a, const Type& b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
    case TypeKind::Tensor: {
      auto* x = as<TensorTypeNode>(a);
      auto* y = as<TensorTypeNode>(b);
      if (x->unknownDtype != y->unknownDtype || x->unknownRank != y->unknownRank || x->vdevice != y->vdevice) return false;
      if ((!x->unknownDtype && x->dtype != y->dtype) || x->shape != y->shape) return false;
      return (!x->hasSymbolicDim() && !y->hasSymbolicDim()) || shape::equalShapes(*x, *y);
    }
    case TypeKind::Tuple: {
      auto* x = as<TupleTypeNode>(a);
      auto* y = as<TupleTypeNode>(b);
      if (x->fields.size() != y->fields.size()) return false;
      for (size_t i = 0; i < x->fields.size(); ++i)
        if (!typeEqual(x->fields[i], y->fields[i])) return false;
      return true;
    }
    case TypeKind::Func: {
      auto* x = as<FuncTypeNode>(a);
      auto* y = as<FuncTypeNode>(b);
      if (x->params.size() != y->params.size() || !typeEqual(x->ret, y->ret)) return false;
      for (size_t i = 0; i < x->params.size(); ++i)
        if (!typeEqual(x->params[i], y->params[i])) return false;
      return true;
    }
    case TypeKind::Storage:
    case TypeKind::Object: return true;
    case TypeKind::Shape: {
      auto* x = as<ShapeTypeNode>(a);
      auto* y = as<ShapeTypeNode>(b);
      if (x->ndim != y->ndim || x->values != y->values || x->symbolic.size() != y->symbolic.size()) return false;
      for (size_t i = 0; i < x->symbolic.size(); ++i)
        if (!shape::equal(x->symbolic[i], y->symbolic[i])) return false;
      return true;
    }
    case TypeKind::Prim: {
      auto* x = as<PrimTypeNode>(a);
      auto* y = as<PrimTypeNode>(b);
      return x->dtype == y->dtype && x->value == y->value && !x->symbolic == !y->symbolic &&
             (!x->symbolic || shape::equal(x->symbolic, y->symbolic));
    }
  }
  return false;
}

size_t typeHash(const Type& t) {
  if (!t) return 0x51ed27;
  size_t h = static_cast<size_t>(t->kind) + 0x9e3779b97f4a7c15ull;
  auto mix = [&h](size_t x) { h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  switch (t->kind) {
    case TypeKind::Tensor: {
      auto* x = as<TensorTypeNode>(t);
      mix(x->unknownDtype ? 0x7011dull : static_cast<size_t>(x->dtype.code));
      mix(x->unknownRank ? 1 : 0);
      // Symbolic dims hash as `?`: equality may bind their variables by position.
      for (int64_t d : x->shape) mix(std::hash<int64_t>()(d));
      break;
    }
    case TypeKind::Tuple:
      for (const Type& f : as<TupleTypeNode>(t)->fields) mix(typeHash(f));
      break;
    case TypeKind::Func: {
      auto* x = as<FuncTypeNode>(t);
      for (const Type& p : x->params) mix(typeHash(p));
      mix(typeHash(x->ret));
      break;
    }
    case TypeKind::Storage:
    case TypeKind::Object: break;
    case TypeKind::Shape: {
      auto* x = as<ShapeTypeNode>(t);
      mix(std::hash<int64_t>()(x->ndim));
      if (x->values)
        for (int64_t v : *x->values) mix(std::hash<int64_t>()(v));
      break;
    }
    case TypeKind::Prim: {
      auto* x = as<PrimTypeNode>(t);
      mix(static_cast<size_t>(x->dtype.code));
      if (x->value) mix(std::hash<int64_t>()(*x->value));
      // A symbolic value hashes as "some value": equality may bind its variables.
      if (x->symbolic) mix(0x5a3bull);
      break;
    }
  }
  return h;
}

std::string typeToString(const Type& t) {
  if (!t) return "?";
  switch (t->kind) {
    case TypeKind::Tensor: {
      auto* x = as<TensorTypeNode>(t);
      // Relay has no unknown rank or dtype: `Tensor[?, void]` names them.
      std::string dtype = x->unknownDtype ? "void" : std::string(x->dtype.name());
      if (x->unknownRank) return "Tensor[?, " + dtype + "]";
      if (x->shape.empty() && !x->unknownDtype) return dtype;
      std::string out = "Tensor[(";
      for (size_t i = 0; i < x->shape.size(); ++i) {
        if (i) out += ", ";
        out += x->shape[i] == kDynamicDim ? "?" : std::to_string(x->shape[i]);
      }
      out += "), ";  // TVM prints (64) for rank 1, without a trailing comma
      out += dtype;
      return out + "]";
    }
    case TypeKind::Tuple: {
      auto* x = as<TupleTypeNode>(t);
      std::string out = "(";
      for (size_t i = 0; i < x->fields.size(); ++i) out += (i ? ", " : "") + typeToString(x->fields[i]);
      if (x->fields.size() == 1) out += ",";
      return out + ")";
    }
    case TypeKind::Func: {
      auto* x = as<FuncTypeNode>(t);
      std::string out = "fn (";
      for (size_t i = 0; i < x->params.size(); ++i) out += (i ? ", " : "") + typeToString(x->params[i]);
      return out + ") -> " + typeToString(x->ret);
    }
    case TypeKind::Storage: return "Storage";
    case TypeKind::Object: return "Object";
    case TypeKind::Shape: {
      auto* x = as<ShapeTypeNode>(t);
      if (!x->values) return x->ndim < 0 ? "Shape" : "Shape(ndim=" + std::to_string(x->ndim) + ")";
      std::string out = "Shape([";
      for (size_t i = 0; i < x->values->size(); ++i) out += (i ? ", " : "") + std::to_string((*x->values)[i]);
      return out + "])";
    }
    case TypeKind::Prim: {
      auto* x = as<PrimTypeNode>(t);
      std::string value = x->value ? ", " + std::to_string(*x->value) : x->symbolic ? ", " + shape::toScript(x->symbolic) : "";
      return "Prim(" + std::string(x->dtype.name()) + value + ")";
    }
  }
  return "?";
}

}  // namespace passlab
