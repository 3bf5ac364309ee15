// Shared relation helpers, and the relations of elementwise ops, reductions,
// tensor constructors and the later-phase calls (call_tir, VM builtins).
#include <algorithm>

#include "core/ir/limits.h"
#include "core/ir/op_relations.h"

namespace passlab {

// ---- Helpers -------------------------------------------------------------------

void relationError(std::string message) { throw TypeRelationError(std::move(message)); }

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += isDynamicDim(shape[i]) ? "?" : std::to_string(shape[i]);
  }
  return out + ")";
}

const TensorTypeNode& tensorArg(std::span<const Type> args, size_t i, std::string_view role) {
  if (i >= args.size()) relationError("missing argument " + std::to_string(i));
  const auto* t = as<TensorTypeNode>(args[i]);
  if (!t) {
    std::string what = role.empty() ? "argument " + std::to_string(i) : std::string(role);
    relationError("expects " + what + " to be a tensor, got " + typeToString(args[i]));
  }
  return *t;
}

void requireSameDType(std::span<const Type> args, size_t first, size_t count) {
  const TensorTypeNode& base = tensorArg(args, first);
  for (size_t i = first + 1; i < first + count; ++i) {
    const TensorTypeNode& t = tensorArg(args, i);
    if (t.dtype != base.dtype)
      relationError("argument dtypes differ: " + typeToString(args[first]) + " and " + typeToString(args[i]));
  }
}

int64_t normalizeAxis(int64_t axis, size_t rank, std::string_view what, size_t extra) {
  int64_t n = static_cast<int64_t>(rank + extra);
  if (axis < -n || axis >= n)
    relationError(std::string(what) + " " + std::to_string(axis) + " is out of range for a tensor of rank " +
                  std::to_string(rank));
  return axis < 0 ? axis + n : axis;
}

const AttrValue& opAttr(OpId op, const AttrDict& attrs, std::string_view key) {
  return attrOrDefault(opDef(op), attrs, key);
}

std::vector<int64_t> intList(const AttrValue& v, std::string_view key) {
  if (v.kind() != AttrValue::Kind::Array) relationError("attribute '" + std::string(key) + "' must be a list of ints, got " + v.toString());
  for (const AttrValue& item : v.asArray())
    if (item.kind() != AttrValue::Kind::Int && item.kind() != AttrValue::Kind::Bool)
      relationError("attribute '" + std::string(key) + "' must be a list of ints, got " + v.toString());
  return v.asInts();
}

DataType dtypeAttr(const AttrValue& v, std::string_view key, DataType fallback) {
  if (v.isNone() || (v.kind() == AttrValue::Kind::String && v.asString().empty())) return fallback;
  if (v.kind() != AttrValue::Kind::String) relationError("attribute '" + std::string(key) + "' must be a dtype string, got " + v.toString());
  std::optional<DataType> d = DataType::parse(v.asString());
  if (!d) relationError("attribute '" + std::string(key) + "' names an unknown dtype \"" + v.asString() + "\"");
  return *d;
}

std::vector<int64_t> broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right, as NumPy does; missing leading dims count as 1.
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x == y || y == 1) {
      out[i] = x;
    } else if (x == 1) {
      out[i] = y;
    } else if (isDynamicDim(x) || isDynamicDim(y)) {
      out[i] = isDynamicDim(x) ? y : x;  // the static extent is what a run must have
    } else {
      relationError("incompatible shapes " + shapeText(a) + " and " + shapeText(b) + " (dimension " +
                    std::to_string(i) + ": " + std::to_string(x) + " vs " + std::to_string(y) + ")");
    }
  }
  return out;
}

std::vector<tir::Var> argShapeVars(std::span<const Type> args) {
  std::vector<tir::Var> vars;
  for (const Type& t : args) shape::collectTypeVars(t, vars);
  return vars;
}

/// One out_shape entry as a tensor type: ints, or texts of symbolic dims.
static Type outTensor(const AttrValue& shape, DataType dtype, const std::vector<tir::Var>& scope) {
  if (!shape::attrHasSymbolic(shape)) return tensorType(intList(shape, "out_shape"), dtype);
  std::vector<shape::Dim> dims = shape::dimsOfAttr(shape, scope);
  for (size_t i = 0; i < dims.size(); ++i)
    if (!dims[i] && shape.asArray()[i].kind() == AttrValue::Kind::String)
      relationError("out_shape dimension " + std::to_string(i) + " (" + shape.asArray()[i].toString() + ") is not a dimension");
  return shape::tensorOfDims(dims, dtype);
}

Type typeFromOutAttrs(const AttrValue& shapeAttr, const AttrValue& dtypeAttrValue, const std::vector<tir::Var>& scope) {
  const auto& shapes = shapeAttr.asArray();
  bool tupleOut = shapeAttr.kind() == AttrValue::Kind::Array && !shapes.empty() &&
                  shapes.front().kind() == AttrValue::Kind::Array;
  if (!tupleOut) {
    if (dtypeAttrValue.kind() != AttrValue::Kind::String)
      relationError("out_dtype must be one dtype when out_shape is one shape, got " + dtypeAttrValue.toString());
    DataType d = dtypeAttr(dtypeAttrValue, "out_dtype", DTypeCode::Float32);
    return outTensor(shapeAttr, d, scope);
  }
  if (dtypeAttrValue.kind() != AttrValue::Kind::Array || dtypeAttrValue.asArray().size() != shapes.size())
    relationError("out_dtype must list one dtype per output shape (" + std::to_string(shapes.size()) + "), got " +
                  dtypeAttrValue.toString());
  std::vector<Type> fields;
  for (size_t i = 0; i < shapes.size(); ++i)
    fields.push_back(outTensor(shapes[i], dtypeAttr(dtypeAttrValue.asArray()[i], "out_dtype", DTypeCode::Float32), scope));
  return tupleType(std::move(fields));
}

// ---- Elementwise ---------------------------------------------------------------

Type relBroadcast(std::span<const Type> args, const AttrDict&) {
  const TensorTypeNode& a = tensorArg(args, 0);
  const TensorTypeNode& b = tensorArg(args, 1);
  requireSameDType(args, 0, 2);
  Type r = tensorType(broadcastShapes(a.shape, b.shape), a.dtype);
  return anySymbolic(args) ? withSymbolicDims(r, broadcastDims(shape::dimsOf(a), shape::dimsOf(b))) : r;
}

Type relCompare(std::span<const Type> args, const AttrDict& attrs) {
  Type t = relBroadcast(args, attrs);
  return shape::withDType(*as<TensorTypeNode>(t), DTypeCode::Bool);
}

Type relWhere(std::span<const Type> args, const AttrDict&) {
  const TensorTypeNode& cond = tensorArg(args, 0, "the condition");
  const TensorTypeNode& x = tensorArg(args, 1);
  const TensorTypeNode& y = tensorArg(args, 2);
  if (!cond.dtype.isBool()) relationError("condition must be bool, got " + typeToString(args[0]));
  requireSameDType(args, 1, 2);
  Type r = tensorType(broadcastShapes(cond.shape, broadcastShapes(x.shape, y.shape)), x.dtype);
  if (!anySymbolic(args)) return r;
  return withSymbolicDims(r, broadcastDims(shape::dimsOf(cond), broadcastDims(shape::dimsOf(x), shape::dimsOf(y))));
}

Type relIdentity(std::span<const Type> args, const AttrDict&) {
  tensorArg(args, 0);
  return args[0];
}

Type relFloatUnary(std::span<const Type> args, const AttrDict&) {
  const TensorTypeNode& t = tensorArg(args, 0);
  if (!t.dtype.isFloat()) relationError("expects a floating-point tensor, got " + typeToString(args[0]));
  return args[0];
}

Type relClip(std::span<const Type> args, const AttrDict& attrs) {
  tensorArg(args, 0);
  double lo = opAttr(OpId::Clip, attrs, "a_min").asFloat();
  double hi = opAttr(OpId::Clip, attrs, "a_max").asFloat();
  if (lo > hi) relationError("a_min " + std::to_string(lo) + " is greater than a_max " + std::to_string(hi));
  return args[0];
}

Type relCast(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& t = tensorArg(args, 0);
  const AttrValue& dtype = opAttr(OpId::Cast, attrs, "dtype");
  if (dtype.kind() == AttrValue::Kind::String && dtype.asString().empty()) relationError("dtype must not be empty");
  return shape::withDType(t, dtypeAttr(dtype, "dtype", t.dtype));
}

// ---- Reductions ----------------------------------------------------------------

Type relReduce(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& t = tensorArg(args, 0);
  size_t rank = t.shape.size();
  const AttrValue& axisAttr = opAttr(OpId::Sum, attrs, "axis");
  bool keepdims = opAttr(OpId::Sum, attrs, "keepdims").asBool();
  bool exclude = opAttr(OpId::Sum, attrs, "exclude").asBool();
  std::vector<bool> reduced(rank, axisAttr.isNone());
  if (!axisAttr.isNone()) {
    for (int64_t a : intList(axisAttr, "axis")) {
      int64_t axis = normalizeAxis(a, rank);
      if (reduced[axis]) relationError("axis " + std::to_string(a) + " is listed twice");
      reduced[axis] = true;
    }
    // exclude=True reduces every axis *not* listed (TVM semantics).
    if (exclude) reduced.flip();
  }
  std::vector<int64_t> out;
  for (size_t i = 0; i < rank; ++i) {
    if (!reduced[i]) out.push_back(t.shape[i]);
    else if (keepdims) out.push_back(1);
  }
  if (!t.hasSymbolicDim()) return tensorType(std::move(out), t.dtype);
  std::vector<shape::Dim> dims;
  for (size_t i = 0; i < rank; ++i) {
    if (!reduced[i]) dims.push_back(shape::dimOf(t, i));
    else if (keepdims) dims.push_back(shape::constant(1));
  }
  return withSymbolicDims(tensorType(std::move(out), t.dtype), dims);
}

Type relArgReduce(std::span<const Type> args, const AttrDict& attrs) {
  // The reduced shape is relReduce's (argmax shares its axis/keepdims/exclude
  // schema); the indices are int32 as in TVM, whatever the data's dtype.
  Type reduced = relReduce(args, attrs);
  return shape::withDType(*as<TensorTypeNode>(reduced), DTypeCode::Int32);
}

// ---- Constructors and shape queries -------------------------------------------------

static std::vector<int64_t> shapeAttr(const AttrValue& v) {
  std::vector<int64_t> shape = intList(v, "shape");
  for (int64_t d : shape)
    if (d < 0) relationError("shape " + shapeText(shape) + " has a negative dimension");
  return shape;
}

Type relInitConst(std::span<const Type>, const AttrDict& attrs) {
  const AttrValue& dtype = opAttr(OpId::Zeros, attrs, "dtype");
  if (dtype.kind() == AttrValue::Kind::String && dtype.asString().empty()) relationError("dtype must not be empty");
  return tensorType(shapeAttr(opAttr(OpId::Zeros, attrs, "shape")), dtypeAttr(dtype, "dtype", DTypeCode::Float32));
}

Type relFull(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& fill = tensorArg(args, 0, "the fill value");
  if (!fill.shape.empty()) relationError("fill value must be a scalar, got " + typeToString(args[0]));
  return tensorType(shapeAttr(opAttr(OpId::Full, attrs, "shape")), dtypeAttr(opAttr(OpId::Full, attrs, "dtype"), "dtype", fill.dtype));
}

Type relShapeOf(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& t = tensorArg(args, 0);
  DataType d = dtypeAttr(opAttr(OpId::ShapeOf, attrs, "dtype"), "dtype", DTypeCode::Int64);
  if (!d.isInt()) relationError("dtype must be an integer type, got " + std::string(d.name()));
  return tensorType({static_cast<int64_t>(t.shape.size())}, d);
}

// ---- Later-phase calls -------------------------------------------------------------

std::vector<Type> packedArgs(const Type& t) {
  if (const auto* tuple = as<TupleTypeNode>(t)) return tuple->fields;
  if (as<TensorTypeNode>(t)) return {t};
  relationError("expects its arguments as a tuple, got " + typeToString(t));
}

static std::vector<Type> flattenOutputs(const Type& t) {
  if (const auto* tuple = as<TupleTypeNode>(t)) return tuple->fields;
  return {t};
}

/// A symbolic tensor passed where the callee has a static (or symbolic)
/// buffer: dtype and rank must agree, and the dims static on both sides;
/// the rest is checked at run time, as TVM leaves it to the callee.
static bool fitsSymbolically(const Type& expected, const Type& given) {
  const auto* e = as<TensorTypeNode>(expected);
  const auto* g = as<TensorTypeNode>(given);
  if (!e || !g || !(e->hasDynamicDim() || g->hasDynamicDim()) || e->dtype != g->dtype || e->shape.size() != g->shape.size())
    return false;
  for (size_t i = 0; i < e->shape.size(); ++i)
    if (!isDynamicDim(e->shape[i]) && !isDynamicDim(g->shape[i]) && e->shape[i] != g->shape[i]) return false;
  return true;
}

/// Destination-passing check: a low-level function taking `inputs` then the
/// outputs must have exactly that many parameters, with matching types.
/// `tirVars` trailing parameters take call_tir's tir_vars (TVM's symbolic
/// shape arguments): each must be an integer scalar.
static void checkDpsCallee(const Type& callee, const std::vector<Type>& inputs, const std::vector<Type>& outputs,
                           size_t tirVars = 0) {
  const auto* fn = as<FuncTypeNode>(callee);
  if (!fn) relationError("callee must be a function, got " + typeToString(callee));
  if (fn->params.size() != inputs.size() + outputs.size() + tirVars)
    relationError("callee takes " + std::to_string(fn->params.size()) + " parameters but the call passes " +
                  std::to_string(inputs.size()) + " inputs and " + std::to_string(outputs.size()) + " outputs" +
                  (tirVars ? " and " + std::to_string(tirVars) + " tir_vars" : std::string()));
  for (size_t i = inputs.size() + outputs.size(); i < fn->params.size(); ++i) {
    const auto* scalar = as<TensorTypeNode>(fn->params[i]);
    if (!scalar || !scalar->shape.empty() || scalar->unknownRank || !scalar->dtype.isInt())
      relationError("tir_vars value " + std::to_string(i - inputs.size() - outputs.size()) + " goes to a parameter of type " +
                    typeToString(fn->params[i]) + "; the callee must take an integer scalar (T.int64) there");
  }
  for (size_t i = 0; i < inputs.size() + outputs.size(); ++i) {
    const Type& expected = fn->params[i];
    const Type& given = i < inputs.size() ? inputs[i] : outputs[i - inputs.size()];
    if (!typeEqual(expected, given) && !fitsSymbolically(expected, given))
      relationError(std::string(i < inputs.size() ? "input " : "output ") +
                    std::to_string(i < inputs.size() ? i : i - inputs.size()) + " has type " + typeToString(given) +
                    " but the callee expects " + typeToString(expected));
  }
}

/// call_tir_inplace: output i is argument inplace_indices[i] (same type) or,
/// for -1, a fresh output the callee takes after the arguments.
static Type inplaceCallTir(std::span<const Type> args, const Type& out, const AttrValue& indices, size_t tirVars) {
  std::vector<Type> inputs = packedArgs(args[1]);
  std::vector<Type> outputs = flattenOutputs(out);
  const auto& items = indices.asArray();
  if (items.size() != outputs.size())
    relationError("inplace_indices lists " + std::to_string(items.size()) + " indices for " + std::to_string(outputs.size()) +
                  " outputs");
  // TVM's rules: each index is -1 or an argument, no argument twice, at least
  // one output in place, and an in-place output has its argument's type.
  std::vector<Type> fresh;
  std::vector<bool> used(inputs.size(), false);
  bool anyInPlace = false;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].kind() != AttrValue::Kind::Int) relationError("inplace_indices must be integers, got " + indices.toString());
    int64_t j = items[i].asInt();
    if (j == -1) {
      fresh.push_back(outputs[i]);
      continue;
    }
    if (j < 0 || j >= static_cast<int64_t>(inputs.size()))
      relationError("in-place index " + std::to_string(j) + " is not an argument (the call passes " + std::to_string(inputs.size()) +
                    ")");
    if (used[j]) relationError("in-place index " + std::to_string(j) + " is used twice");
    used[j] = true;
    anyInPlace = true;
    if (!typeEqual(inputs[j], outputs[i]))
      relationError("output " + std::to_string(i) + " is " + typeToString(outputs[i]) + " but argument " + std::to_string(j) +
                    ", which it is written into, is " + typeToString(inputs[j]));
  }
  if (!anyInPlace) relationError("at least one in-place index must not be -1 (use call_tir)");
  checkDpsCallee(args[0], inputs, fresh, tirVars);
  return out;
}

Type relCallTir(std::span<const Type> args, const AttrDict& attrs) {
  Type out = typeFromOutAttrs(opAttr(OpId::CallTir, attrs, "out_shape"), opAttr(OpId::CallTir, attrs, "out_dtype"), argShapeVars(args));
  const AttrValue& inplace = opAttr(OpId::CallTir, attrs, "inplace_indices");
  const AttrValue& tirVars = opAttr(OpId::CallTir, attrs, "tir_vars");
  size_t extra = tirVars.kind() == AttrValue::Kind::Array ? tirVars.asArray().size() : 0;
  if (!inplace.isNone()) return inplaceCallTir(args, out, inplace, extra);
  checkDpsCallee(args[0], packedArgs(args[1]), flattenOutputs(out), extra);
  return out;
}

Type relCallDpsPacked(std::span<const Type> args, const AttrDict& attrs) {
  // The callee is an external packed function whose signature is not known here.
  packedArgs(args[1]);
  return typeFromOutAttrs(opAttr(OpId::CallDpsPacked, attrs, "out_shape"), opAttr(OpId::CallDpsPacked, attrs, "out_dtype"),
                          argShapeVars(args));
}

Type relCallPurePacked(std::span<const Type> args, const AttrDict& attrs) {
  if (args.empty()) relationError("expects the callee as its first argument");
  return typeFromOutAttrs(opAttr(OpId::CallPurePacked, attrs, "out_shape"),
                          opAttr(OpId::CallPurePacked, attrs, "out_dtype"));
}

Type relInvokePureClosure(std::span<const Type> args, const AttrDict& attrs) {
  Type out = typeFromOutAttrs(opAttr(OpId::InvokePureClosure, attrs, "out_shape"),
                              opAttr(OpId::InvokePureClosure, attrs, "out_dtype"));
  // A closure with a known function type must agree with the declared result.
  if (const auto* fn = as<FuncTypeNode>(args[0])) {
    std::vector<Type> inputs = packedArgs(args[1]);
    if (fn->params.size() != inputs.size())
      relationError("closure takes " + std::to_string(fn->params.size()) + " arguments, got " + std::to_string(inputs.size()));
    for (size_t i = 0; i < inputs.size(); ++i)
      if (!typeEqual(fn->params[i], inputs[i]))
        relationError("argument " + std::to_string(i) + " has type " + typeToString(inputs[i]) + " but the closure expects " +
                      typeToString(fn->params[i]));
    if (fn->ret && !typeEqual(fn->ret, out))
      relationError("closure returns " + typeToString(fn->ret) + " but the call declares " + typeToString(out));
  } else {
    relationError("callee must be a closure, got " + typeToString(args[0]));
  }
  return out;
}

// Storage is modelled as a 1-d uint8 tensor of its byte size, so allocations
// and their sizes stay visible and checkable in ordinary tensor types.
Type relVmAllocStorage(std::span<const Type>, const AttrDict& attrs) {
  int64_t size = opAttr(OpId::VmAllocStorage, attrs, "size").asInt();
  if (size < 0) relationError("size must be non-negative, got " + std::to_string(size));
  return tensorType({size}, DTypeCode::UInt8);
}

Type relVmAllocTensor(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& storage = tensorArg(args, 0, "the storage");
  if (storage.dtype != DataType(DTypeCode::UInt8) || storage.shape.size() != 1)
    relationError("storage must be a 1-d uint8 buffer, got " + typeToString(args[0]));
  std::vector<int64_t> shape = shapeAttr(opAttr(OpId::VmAllocTensor, attrs, "shape"));
  DataType dtype = dtypeAttr(opAttr(OpId::VmAllocTensor, attrs, "dtype"), "dtype", DTypeCode::Float32);
  int64_t offset = opAttr(OpId::VmAllocTensor, attrs, "offset").asInt();
  std::optional<int64_t> count = limits::checkedElementCount(shape);
  if (!count && std::find(shape.begin(), shape.end(), kDynamicDim) == shape.end()) relationError(limits::tooManyElementsMessage(shape));
  int64_t bytes = count ? *count * dtype.bytes() : kDynamicDim;
  if (offset < 0 || (!isDynamicDim(storage.shape[0]) && bytes > storage.shape[0] - offset))
    relationError("tensor of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                  " does not fit in storage of " + std::to_string(storage.shape[0]) + " bytes");
  return tensorType(std::move(shape), dtype);
}

Type relVmCallTir(std::span<const Type> args, const AttrDict&) {
  // Inputs and preallocated outputs are all passed; the call writes the outputs.
  std::vector<Type> all = packedArgs(args[1]);
  const auto* fn = as<FuncTypeNode>(args[0]);
  if (!fn) relationError("callee must be a function, got " + typeToString(args[0]));
  checkDpsCallee(args[0], all, {});
  return unitType();
}

}  // namespace passlab
