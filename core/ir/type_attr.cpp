// Relax types as attribute values (see type_attr.h).
#include "core/ir/type_attr.h"

#include "core/ir/shape_attr.h"

namespace passlab::type_attr {

std::optional<AttrValue> encode(const Type& t) {
  AttrDict d;
  if (const auto* tt = as<TensorTypeNode>(t)) {
    if (tt->hasSymbolicDim()) return std::nullopt;
    d.set("kind", AttrValue::string("Tensor"));
    d.set("dtype", AttrValue::string(std::string(tt->dtype.name())));
    d.set("shape", AttrValue::ints(tt->shape));
  } else if (const auto* sh = as<ShapeTypeNode>(t)) {
    d.set("kind", AttrValue::string("Shape"));
    d.set("ndim", AttrValue::integer(sh->ndim));
    if (sh->values) d.set("values", AttrValue::ints(*sh->values));
  } else if (const auto* pr = as<PrimTypeNode>(t)) {
    d.set("kind", AttrValue::string("Prim"));
    d.set("dtype", AttrValue::string(std::string(pr->dtype.name())));
    if (pr->value) d.set("value", AttrValue::integer(*pr->value));
    // A symbolic value as its text, as shape attributes hold one (shape_attr.h).
    if (pr->symbolic) d.set("value", shape::toAttr(pr->symbolic));
  } else if (as<ObjectTypeNode>(t)) {
    d.set("kind", AttrValue::string("Object"));
  } else if (const auto* tup = as<TupleTypeNode>(t)) {
    std::vector<AttrValue> fields;
    for (const Type& f : tup->fields) {
      std::optional<AttrValue> v = encode(f);
      if (!v) return std::nullopt;
      fields.push_back(std::move(*v));
    }
    d.set("kind", AttrValue::string("Tuple"));
    d.set("fields", AttrValue::array(std::move(fields)));
  } else {
    return std::nullopt;
  }
  return AttrValue::dict(std::move(d));
}

Type decode(const AttrValue& v) {
  if (v.kind() != AttrValue::Kind::Dict) return nullptr;
  const AttrDict& d = v.asDict();
  std::string kind = d.getString("kind");
  auto ints = [&](std::string_view key) -> std::optional<std::vector<int64_t>> {
    const AttrValue* a = d.find(key);
    if (!a || a->kind() != AttrValue::Kind::Array) return std::nullopt;
    for (const AttrValue& x : a->asArray())
      if (x.kind() != AttrValue::Kind::Int || x.asInt() < kDynamicDim) return std::nullopt;
    return a->asInts();
  };
  auto dtype = [&]() { return DataType::parse(d.getString("dtype")); };
  if (kind == "Tensor") {
    auto shape = ints("shape");
    auto dt = dtype();
    if (!shape || !dt || shape->size() > 64) return nullptr;
    return tensorType(std::move(*shape), *dt);
  }
  if (kind == "Shape") {
    int64_t ndim = d.getInt("ndim", -1);
    if (ndim < -1 || ndim > 64) return nullptr;
    if (d.contains("values")) {
      auto values = ints("values");
      if (!values || static_cast<int64_t>(values->size()) != ndim) return nullptr;
      return shapeType(std::move(*values));
    }
    return shapeTypeOfRank(ndim);
  }
  if (kind == "Prim") {
    auto dt = dtype();
    if (!dt) return nullptr;
    const AttrValue* value = d.find("value");
    if (value && value->kind() == AttrValue::Kind::String) {
      std::vector<shape::Dim> dims = shape::dimsOfAttr(AttrValue::array({*value}), {});
      if (dims.size() != 1 || !dims[0] || *dt != DataType(DTypeCode::Int64)) return nullptr;
      return primTypeOf(dims[0]);
    }
    if (value && value->kind() != AttrValue::Kind::Int) return nullptr;
    return primType(*dt, value ? std::optional<int64_t>(value->asInt()) : std::nullopt);
  }
  if (kind == "Object") return objectType();
  if (kind == "Tuple") {
    const AttrValue* fields = d.find("fields");
    if (!fields || fields->kind() != AttrValue::Kind::Array) return nullptr;
    std::vector<Type> out;
    for (const AttrValue& f : fields->asArray()) {
      Type t = decode(f);
      if (!t) return nullptr;
      out.push_back(std::move(t));
    }
    return tupleType(std::move(out));
  }
  return nullptr;
}

}  // namespace passlab::type_attr
