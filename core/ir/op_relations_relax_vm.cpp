// Type relations of Relax's VM-lowering ops: the shape and prim values, the
// packed call, and the allocations and kills of CallTIRRewrite,
// StaticPlanBlockMemory, LowerAllocTensor, KillAfterLastUse and
// LowerRuntimeBuiltin (TVM's relax.builtin / relax.memory / relax.vm ops).
#include "core/ir/op_relations.h"
#include "core/ir/type_attr.h"

namespace passlab {

namespace {

/// The dims of a `shape`/`values` attribute that may hold symbolic dims
/// (their text, see shape::dimsOfAttr); negative static extents are errors.
std::vector<shape::Dim> shapeDims(OpId op, const AttrDict& attrs, std::string_view key) {
  const AttrValue& v = opAttr(op, attrs, key);
  std::vector<shape::Dim> dims = shape::dimsOfAttr(v, {});
  for (size_t i = 0; i < dims.size(); ++i) {
    const AttrValue& item = v.asArray()[i];
    if (!dims[i] || (item.kind() == AttrValue::Kind::Int && item.asInt() < 0))
      relationError(std::string(key) + " " + v.toString() + ": entry " + std::to_string(i) + " is not a dimension");
  }
  return dims;
}

/// The static shape of a `shape`/`size` attribute; negative extents are errors.
std::vector<int64_t> staticShape(OpId op, const AttrDict& attrs, std::string_view key) {
  std::vector<int64_t> dims = intList(opAttr(op, attrs, key), key);
  for (int64_t d : dims)
    if (d < 0) relationError(std::string(key) + " " + shapeText(dims) + " has a negative extent");
  return dims;
}

}  // namespace

Type relRelaxShapeExpr(std::span<const Type>, const AttrDict& attrs) {
  // passlab's shape type holds static values only: a symbolic value keeps its rank.
  if (shape::attrHasSymbolic(opAttr(OpId::RelaxShapeExpr, attrs, "values")))
    return shapeTypeOfRank(static_cast<int64_t>(shapeDims(OpId::RelaxShapeExpr, attrs, "values").size()));
  return shapeType(staticShape(OpId::RelaxShapeExpr, attrs, "values"));
}

Type relRelaxPrimValue(std::span<const Type>, const AttrDict& attrs) {
  DataType d = dtypeAttr(opAttr(OpId::RelaxPrimValue, attrs, "dtype"), "dtype", DTypeCode::Int64);
  const AttrValue& value = opAttr(OpId::RelaxPrimValue, attrs, "value");
  if (value.kind() == AttrValue::Kind::String) {
    // R.prim_value(n): TVM's R.Prim(value=n), an int64 over shape variables (by name, as R.shape's).
    std::vector<shape::Dim> dims = shape::dimsOfAttr(AttrValue::array({value}), {});
    if (dims.size() != 1 || !dims[0]) relationError("value " + value.toString() + " is not a shape expression");
    if (d != DataType(DTypeCode::Int64)) relationError("a symbolic prim value is an int64, not " + std::string(d.name()));
    return primTypeOf(dims[0]);
  }
  return primType(d, value.asInt());
}

Type relRelaxNullValue(std::span<const Type>, const AttrDict&) { return objectType(); }

Type relRelaxStrImm(std::span<const Type>, const AttrDict&) { return objectType(); }

/// The result type an `out_type` attribute gives, null without one.
static Type outTypeOf(const AttrDict& attrs) {
  const AttrValue* v = attrs.find("out_type");
  if (!v || v->isNone()) return nullptr;
  Type t = type_attr::decode(*v);
  if (!t) relationError("out_type " + v->toString() + " is not a type");
  return t;
}

Type relRelaxCallBuiltinWithCtx(std::span<const Type>, const AttrDict& attrs) {
  Type t = outTypeOf(attrs);
  return t ? t : objectType();
}

Type relRelaxCallPacked(std::span<const Type>, const AttrDict& attrs) {
  if (Type t = outTypeOf(attrs)) return t;
  const AttrValue& shape = opAttr(OpId::RelaxCallPacked, attrs, "out_shape");
  const AttrValue& dtype = opAttr(OpId::RelaxCallPacked, attrs, "out_dtype");
  if (shape.isNone() && dtype.isNone()) return objectType();
  if (shape.kind() == AttrValue::Kind::Array && shape.asArray().empty() && dtype.kind() == AttrValue::Kind::Array &&
      dtype.asArray().empty())
    return unitType();
  return typeFromOutAttrs(shape, dtype);
}

Type relBuiltinAllocTensor(std::span<const Type>, const AttrDict& attrs) {
  DataType d = dtypeAttr(opAttr(OpId::BuiltinAllocTensor, attrs, "dtype"), "dtype", DTypeCode::Float32);
  if (shape::attrHasSymbolic(opAttr(OpId::BuiltinAllocTensor, attrs, "shape")))
    return shape::tensorOfDims(shapeDims(OpId::BuiltinAllocTensor, attrs, "shape"), d);
  return tensorType(staticShape(OpId::BuiltinAllocTensor, attrs, "shape"), d);
}

Type relRelaxAllocStorage(std::span<const Type>, const AttrDict& attrs) {
  // Both alloc_storage ops share the size field's name and kind. A symbolic
  // size (4 * (m * n)) is one dimension of text.
  const AttrValue* sizeAttr = attrs.find("size");
  if (sizeAttr && shape::attrHasSymbolic(*sizeAttr)) {
    if (sizeAttr->asArray().size() != 1 || !shape::dimsOfAttr(*sizeAttr, {})[0])
      relationError("size must be one byte count, got " + sizeAttr->toString());
    return objectType();
  }
  std::vector<int64_t> size = intList(attrs.find("size") ? *attrs.find("size") : AttrValue::none(), "size");
  if (size.size() != 1 || size[0] < 0) relationError("size must be one non-negative byte count, got " + shapeText(size));
  return objectType();
}

Type relRelaxAllocTensor(std::span<const Type> args, const AttrDict& attrs) {
  if (!as<ObjectTypeNode>(args[0])) relationError("expects the storage (R.Object) first, got " + typeToString(args[0]));
  DataType d = dtypeAttr(opAttr(OpId::RelaxMemAllocTensor, attrs, "dtype"), "dtype", DTypeCode::Float32);
  if (opAttr(OpId::RelaxMemAllocTensor, attrs, "offset").asInt() < 0) relationError("the offset is negative");
  if (shape::attrHasSymbolic(opAttr(OpId::RelaxMemAllocTensor, attrs, "shape")))
    return shape::tensorOfDims(shapeDims(OpId::RelaxMemAllocTensor, attrs, "shape"), d);
  return tensorType(staticShape(OpId::RelaxMemAllocTensor, attrs, "shape"), d);
}

Type relRelaxKill(std::span<const Type> args, const AttrDict&) {
  if (!args[0]) relationError("the killed value has no type");
  return unitType();
}

}  // namespace passlab
