// Type relations of device planning (on_device, device_copy), of lowered calls
// (call_lowered) and of the memory and VM builtins TVM's memory planning
// prints (memory.alloc_storage, memory.alloc_tensor, memory.kill,
// vm.shape_of, vm.invoke_tvm_op, vm.reshape_tensor).
#include "core/ir/limits.h"
#include "core/ir/op_relations.h"

namespace passlab {

namespace {

/// A rank-0 integer tensor (sizes, offsets, alignments).
void requireIntScalar(std::span<const Type> args, size_t i, std::string_view role) {
  const TensorTypeNode& t = tensorArg(args, i, role);
  if (!t.shape.empty() || !t.dtype.isInt())
    relationError("expects " + std::string(role) + " to be an integer scalar, got " + typeToString(args[i]));
}

/// A 1-d integer tensor (a shape given as data).
void requireShapeTensor(std::span<const Type> args, size_t i, std::string_view role) {
  const TensorTypeNode& t = tensorArg(args, i, role);
  if (t.shape.size() != 1 || !t.dtype.isInt())
    relationError("expects " + std::string(role) + " to be a 1-d integer tensor, got " + typeToString(args[i]));
}

/// The fields of a tuple type (a single non-tuple type counts as one field).
std::vector<Type> fieldsOf(const Type& t) {
  if (const auto* tuple = as<TupleTypeNode>(t)) return tuple->fields;
  return {t};
}

}  // namespace

Type relOnDevice(std::span<const Type> args, const AttrDict&) {
  if (!args[0]) relationError("the annotated expression has no type");
  return args[0];
}

Type relDeviceCopy(std::span<const Type> args, const AttrDict&) {
  if (!args[0]) relationError("the copied expression has no type");
  return args[0];
}

Type relCallLowered(std::span<const Type> args, const AttrDict&) {
  const auto* fn = as<FuncTypeNode>(args[0]);
  if (!fn) relationError("callee must be a global function, got " + typeToString(args[0]));
  std::vector<Type> inputs = packedArgs(args[1]);
  if (inputs.size() > fn->params.size())
    relationError("callee takes " + std::to_string(fn->params.size()) + " parameters but the call passes " +
                  std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!typeEqual(fn->params[i], inputs[i]))
      relationError("argument " + std::to_string(i) + " has type " + typeToString(inputs[i]) + " but the callee expects " +
                    typeToString(fn->params[i]));
  bool returnsNothing = typeEqual(fn->ret, unitType());
  if (inputs.size() == fn->params.size()) {
    // A Relay-level function (an Extern stub, a lowered graph function): its result.
    if (returnsNothing && !fn->params.empty())
      relationError("the callee writes no output buffer: it takes exactly the " + std::to_string(inputs.size()) +
                    " inputs and returns nothing");
    return fn->ret;
  }
  // A PrimFunc: the buffers after the inputs are its outputs, and the call
  // returns them (one tensor, or a tuple of several).
  if (!returnsNothing)
    relationError("callee takes " + std::to_string(fn->params.size()) + " parameters but the call passes " +
                  std::to_string(inputs.size()));
  std::vector<Type> outs(fn->params.begin() + static_cast<std::ptrdiff_t>(inputs.size()), fn->params.end());
  return outs.size() == 1 ? outs[0] : tupleType(std::move(outs));
}

Type relMemoryAllocStorage(std::span<const Type> args, const AttrDict& attrs) {
  requireIntScalar(args, 0, "the size");
  requireIntScalar(args, 1, "the alignment");
  return storageType();
}

Type relMemoryAllocTensor(std::span<const Type> args, const AttrDict& attrs) {
  if (!as<StorageTypeNode>(args[0])) relationError("expects the storage (type Storage) first, got " + typeToString(args[0]));
  requireIntScalar(args, 1, "the offset");
  requireShapeTensor(args, 2, "the shape");
  DataType dtype = dtypeAttr(opAttr(OpId::MemoryAllocTensor, attrs, "dtype"), "dtype", DTypeCode::Float32);
  // As TVM's AllocTensorRel: a constant shape, else the asserted one; the
  // shape argument itself is data the type cannot see.
  const AttrValue& written = opAttr(OpId::MemoryAllocTensor, attrs, "const_shape");
  // A const_shape that is a metadata reference has data the relation cannot read.
  const AttrValue& constShape = written.kind() == AttrValue::Kind::Array ? written : AttrValue::none();
  const AttrValue& assertShape = opAttr(OpId::MemoryAllocTensor, attrs, "assert_shape");
  const AttrValue& shape = !constShape.isNone() ? constShape : assertShape;
  if (shape.isNone()) relationError("needs const_shape or assert_shape to know the tensor's shape");
  std::vector<int64_t> dims = intList(shape, !constShape.isNone() ? "const_shape" : "assert_shape");
  const auto* given = as<TensorTypeNode>(args[2]);
  if (!isDynamicDim(given->shape[0]) && given->shape[0] != static_cast<int64_t>(dims.size()))
    relationError("the shape argument has " + std::to_string(given->shape[0]) + " dimensions but the attributes give " +
                  std::to_string(dims.size()));
  return tensorType(std::move(dims), dtype);
}

Type relMemoryKill(std::span<const Type> args, const AttrDict&) {
  if (!args[0]) relationError("the killed value has no type");
  return unitType();
}

Type relVmShapeOf(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& t = tensorArg(args, 0);
  DataType d = dtypeAttr(opAttr(OpId::VmShapeOf, attrs, "dtype"), "dtype", DTypeCode::Int64);
  if (!d.isInt()) relationError("dtype must be an integer type, got " + std::string(d.name()));
  return tensorType({static_cast<int64_t>(t.shape.size())}, d);
}

Type relVmInvokeTvmOp(std::span<const Type> args, const AttrDict&) {
  const auto* fn = as<FuncTypeNode>(args[0]);
  if (!fn) relationError("callee must be a function, got " + typeToString(args[0]));
  std::vector<Type> inputs = fieldsOf(args[1]);
  std::vector<Type> outputs = fieldsOf(args[2]);
  if (fn->params.size() != inputs.size())
    relationError("callee takes " + std::to_string(fn->params.size()) + " parameters but the call passes " +
                  std::to_string(inputs.size()) + " inputs");
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!typeEqual(fn->params[i], inputs[i]))
      relationError("input " + std::to_string(i) + " has type " + typeToString(inputs[i]) + " but the callee expects " +
                    typeToString(fn->params[i]));
  std::vector<Type> results = fieldsOf(fn->ret);
  if (results.size() != outputs.size())
    relationError("callee returns " + std::to_string(results.size()) + " value(s) but " + std::to_string(outputs.size()) +
                  " output buffer(s) are passed");
  for (size_t i = 0; i < outputs.size(); ++i)
    if (!typeEqual(results[i], outputs[i]))
      relationError("output " + std::to_string(i) + " has type " + typeToString(outputs[i]) + " but the callee returns " +
                    typeToString(results[i]));
  return unitType();
}

Type relVmReshapeTensor(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "the data");
  requireShapeTensor(args, 1, "the shape");
  std::vector<int64_t> dims = intList(opAttr(OpId::VmReshapeTensor, attrs, "newshape"), "newshape");
  for (int64_t d : dims)
    if (d < 0) relationError("newshape must be static and non-negative, got " + shapeText(dims));
  std::optional<int64_t> count = limits::checkedElementCount(dims);
  if (!count) relationError(limits::tooManyElementsMessage(dims));
  int64_t n = *count;
  if (!data.hasDynamicDim() && n != data.numElements())
    relationError("cannot reshape " + typeToString(args[0]) + " (" + std::to_string(data.numElements()) +
                  " elements) to " + shapeText(dims));
  return tensorType(std::move(dims), data.dtype);
}

}  // namespace passlab
