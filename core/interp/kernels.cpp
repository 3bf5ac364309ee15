// Dispatch from OpId to the kernel families, plus the later-phase calls that
// run low-level functions (call_tir, call_dps_packed, the VM builtins).
#include "core/interp/kernels.h"
#include "core/interp/vm_builtins.h"

#include <cstring>

#include "core/interp/kernel_ops.h"

namespace passlab {

namespace kernels {
namespace {

/// Output tensors described by out_shape/out_dtype: one shape and dtype, or lists of them.
std::vector<NDArray> allocateOutputs(const KernelCall& call) {
  const AttrValue& shapes = call.attr("out_shape");
  const AttrValue& dtypes = call.attr("out_dtype");
  if (shapes.kind() != AttrValue::Kind::Array) call.fail("out_shape must be a shape or a list of shapes");
  bool tupleOut = !shapes.asArray().empty() && shapes.asArray().front().kind() == AttrValue::Kind::Array;
  auto dtypeOf = [&](const AttrValue& v) {
    std::optional<DataType> d = v.kind() == AttrValue::Kind::String ? DataType::parse(v.asString()) : std::nullopt;
    if (!d) call.fail("out_dtype " + v.toString() + " is not a dtype");
    return *d;
  };
  std::vector<NDArray> outs;
  if (!tupleOut) {
    outs.emplace_back(dtypeOf(dtypes), shapes.asInts());
    return outs;
  }
  if (dtypes.kind() != AttrValue::Kind::Array || dtypes.asArray().size() != shapes.asArray().size())
    call.fail("out_dtype must list one dtype per output shape");
  for (size_t i = 0; i < shapes.asArray().size(); ++i) outs.emplace_back(dtypeOf(dtypes.asArray()[i]), shapes.asArray()[i].asInts());
  return outs;
}

/// Argument 1 of the DPS calls: a tuple of tensors, or one tensor.
std::vector<NDArray> packedInputs(const KernelCall& call) {
  if (call.arg(1).isTensor()) return {call.tensor(1)};
  return call.tensorTuple(1);
}

/// The name of the module-level PrimFunc argument 0 refers to.
std::string primFuncCallee(const KernelCall& call) {
  const Closure* callee = call.arg(0).closure();
  if (!callee || callee->globalName.empty())
    call.fail("callee must be a module-level function, got " + call.arg(0).describe());
  if (callee->function->kind != ExprKind::PrimFunc)
    call.fail("@" + callee->globalName + " is not a low-level function (PrimFunc); it cannot be called in destination-passing style");
  return callee->globalName;
}

KernelHost& requireHost(const KernelCall& call) {
  if (!call.host()) call.fail("needs the interpreter to run a module function");
  return *call.host();
}

/// vm.builtin.alloc_tensor and memory.alloc_tensor: a tensor that must fit in
/// `storage` at `offset`. A fresh tensor instead of a view into the storage:
/// memory planning only shares storage between tensors whose lifetimes do not
/// overlap, so the values a program can observe are the same.
NDArray tensorInStorage(const KernelCall& call, const NDArray& storage, int64_t offset, DataType dtype,
                        const std::vector<int64_t>& shape) {
  int64_t bytes = productOf(shape) * dtype.bytes();
  if (offset < 0 || offset + bytes > storage.numElements())
    call.fail("tensor of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
              " does not fit in storage of " + std::to_string(storage.numElements()) + " bytes");
  return NDArray(dtype, shape);
}

/// call_tir and call_dps_packed: fresh outputs, inputs read-only, outputs returned.
/// call_tir's tir_vars (evaluated by the interpreter before the call): the
/// PrimFunc's trailing scalar parameters, each an int64 scalar.
void appendTirVars(const KernelCall& call, std::vector<NDArray>& buffers) {
  const AttrValue& vars = call.attr("tir_vars");
  if (vars.isNone()) return;
  if (vars.kind() != AttrValue::Kind::Array) call.fail("tir_vars must be a list of integers");
  for (const AttrValue& v : vars.asArray()) {
    if (v.kind() != AttrValue::Kind::Int) call.fail("tir_vars value " + v.toString() + " is not an integer");
    buffers.push_back(NDArray::scalar(DTypeCode::Int64, static_cast<double>(v.asInt())));
  }
}

Value destinationPassingCall(const KernelCall& call) {
  std::string callee = primFuncCallee(call);
  std::vector<NDArray> buffers = packedInputs(call);
  size_t inputs = buffers.size();
  std::vector<NDArray> outs = allocateOutputs(call);
  buffers.insert(buffers.end(), outs.begin(), outs.end());
  appendTirVars(call, buffers);
  requireHost(call).callPrimFunc(callee, buffers, inputs);
  bool tupleOut = call.attr("out_shape").asArray().size() > 0 && call.attr("out_shape").asArray().front().kind() == AttrValue::Kind::Array;
  if (!tupleOut) return outs[0];
  std::vector<Value> fields(outs.begin(), outs.end());
  return Value::tuple(std::move(fields));
}

/// call_tir_inplace: the PrimFunc writes output i into argument
/// inplace_indices[i] (fresh outputs for -1). The arguments it writes are
/// copied first, so the caller's values keep their contents: passlab's values
/// are immutable, and TVM's contract (no later use of an in-place argument)
/// makes the copy unobservable in a well-formed program.
Value inplaceCall(const KernelCall& call) {
  std::string callee = primFuncCallee(call);
  std::vector<NDArray> buffers = packedInputs(call);
  std::vector<NDArray> fresh = allocateOutputs(call);
  const auto& indices = call.attr("inplace_indices").asArray();
  if (indices.size() != fresh.size()) call.fail("inplace_indices must list one index per output");
  std::vector<NDArray> outs;
  std::vector<NDArray> extra;
  for (size_t i = 0; i < indices.size(); ++i) {
    int64_t j = indices[i].asInt();
    if (j == -1) {
      outs.push_back(fresh[i]);
      extra.push_back(fresh[i]);
      continue;
    }
    if (j < 0 || j >= static_cast<int64_t>(buffers.size())) call.fail("in-place index " + std::to_string(j) + " is not an argument");
    NDArray copy(buffers[j].dtype(), buffers[j].shape());
    if (copy.byteSize()) std::memcpy(copy.mutableData(), buffers[j].rawData(), copy.byteSize());
    buffers[j] = copy;
    outs.push_back(copy);
  }
  buffers.insert(buffers.end(), extra.begin(), extra.end());
  appendTirVars(call, buffers);
  requireHost(call).callPrimFunc(callee, buffers, 0);
  bool tupleOut = call.attr("out_shape").asArray().size() > 0 && call.attr("out_shape").asArray().front().kind() == AttrValue::Kind::Array;
  if (!tupleOut) return outs[0];
  std::vector<Value> fields(outs.begin(), outs.end());
  return Value::tuple(std::move(fields));
}

}  // namespace
}  // namespace kernels

Value runKernel(const OpDef& op, std::span<const Value> args, const AttrDict& attrs, KernelHost* host) {
  using namespace kernels;
  KernelCall call(op, args, attrs, host);
  if (op.numArgs >= 0 && args.size() != static_cast<size_t>(op.numArgs))
    call.fail("expects " + std::to_string(op.numArgs) + " argument(s), got " + std::to_string(args.size()));
  // No default: -Wswitch names any op of ops.def that lacks a kernel here.
  switch (op.id) {
    case OpId::Add:
    case OpId::Subtract:
    case OpId::Multiply:
    case OpId::Divide:
    case OpId::Mod:
    case OpId::FloorMod:
    case OpId::Power:
    case OpId::Maximum:
    case OpId::Minimum:
    case OpId::Equal:
    case OpId::Less:
    case OpId::Greater: return binaryKernel(call, op.id);
    case OpId::Where: return whereKernel(call);

    case OpId::Negative:
    case OpId::Abs:
    // The float-math category of ops.def.
#define PASSLAB_OP(id, name, pattern)
#define PASSLAB_FLOAT_MATH_OP(id, name, intrinsic) case OpId::id:
#include "core/ir/ops.def"
#undef PASSLAB_OP
    case OpId::Round:
    case OpId::Floor:
    case OpId::Ceil:
    case OpId::Relu:
    case OpId::Gelu:
    case OpId::Silu: return unaryKernel(call, op.id);
    case OpId::Clip: return clipKernel(call);
    case OpId::LeakyRelu: return leakyReluKernel(call);
    case OpId::Cast: return castKernel(call);

    case OpId::Conv2D: return conv2dKernel(call);
    case OpId::Conv2DTranspose: return conv2dTransposeKernel(call);
    case OpId::Dense: return denseKernel(call);
    case OpId::Matmul: return matmulKernel(call);
    case OpId::BatchMatmul: return batchMatmulKernel(call);
    case OpId::BiasAdd: return biasAddKernel(call);
    case OpId::BatchNorm: return batchNormKernel(call);
    case OpId::LayerNorm: return layerNormKernel(call);
    case OpId::GroupNorm: return groupNormKernel(call);
    case OpId::MaxPool2D: return pool2dKernel(call, true);
    case OpId::AvgPool2D: return pool2dKernel(call, false);
    case OpId::GlobalAvgPool2D: return globalAvgPool2dKernel(call);
    case OpId::Softmax: return softmaxKernel(call);
    case OpId::Pad:
      if (args.empty() || args.size() > 2) call.fail("expects 1 or 2 arguments (data, pad_value), got " + std::to_string(args.size()));
      return padKernel(call);

    case OpId::Reshape: return reshapeKernel(call);
    case OpId::Transpose: return transposeKernel(call);
    case OpId::Concatenate: return concatenateKernel(call);
    case OpId::Split: return splitKernel(call);
    case OpId::Squeeze: return squeezeKernel(call);
    case OpId::ExpandDims: return expandDimsKernel(call);
    case OpId::StridedSlice: return stridedSliceKernel(call);
    case OpId::Take: return takeKernel(call);
    case OpId::LayoutTransform: return layoutTransformKernel(call);
    case OpId::Resize2D: return resize2dKernel(call);

    case OpId::Mean:
    case OpId::Sum:
    case OpId::Max:
    case OpId::Min:
    case OpId::Prod: return reduceKernel(call, op.id);
    case OpId::ArgMax:
    case OpId::ArgMin: return argReduceKernel(call, op.id);

    case OpId::Zeros: return initKernel(call, 0.0);
    case OpId::Ones: return initKernel(call, 1.0);
    case OpId::Full: return fullKernel(call);
    case OpId::ShapeOf: return shapeOfKernel(call);

    case OpId::CallTir:
      if (!call.attr("inplace_indices").isNone()) return inplaceCall(call);
      return destinationPassingCall(call);
    case OpId::CallDpsPacked: return destinationPassingCall(call);
    case OpId::CallPurePacked:
    case OpId::InvokePureClosure: call.fail("calls a closure; only the graph interpreter evaluates it");
    // The value itself; the graph interpreter checks it against the binding's type.
    case OpId::MatchCast: return call.arg(0);
    case OpId::VmAllocStorage: {
      int64_t size = call.attrInt("size");
      if (size < 0) call.fail("size must be non-negative");
      return NDArray(DTypeCode::UInt8, {size});  // storage is a 1-d uint8 buffer of its byte size
    }
    case OpId::VmAllocTensor: {
      const NDArray& storage = call.tensor(0);
      std::vector<int64_t> shape = call.attrInts("shape");
      return tensorInStorage(call, storage, call.attrInt("offset"), call.attrDType("dtype", DTypeCode::Float32), shape);
    }
    case OpId::VmCallTir: {
      std::string callee = primFuncCallee(call);
      std::vector<NDArray> buffers = packedInputs(call);
      requireHost(call).callPrimFunc(callee, buffers, 0);
      return Value();
    }

    // Devices are a plan, not a place the interpreter has: the data is the same.
    case OpId::OnDevice:
    case OpId::DeviceCopy: return call.arg(0);
    case OpId::CallLowered:
    case OpId::VmInvokeTvmOp: call.fail("calls a function; only the graph interpreter evaluates it");
    case OpId::MemoryAllocStorage: {
      const NDArray& size = call.tensor(0);
      if (size.ndim() != 0 || !size.dtype().isInt()) call.fail("the size must be an integer scalar");
      double bytes = size.getAsDouble(0);
      if (bytes < 0 || bytes > double(int64_t(1) << 40)) call.fail("size " + std::to_string(int64_t(bytes)) + " is out of range");
      return NDArray(DTypeCode::UInt8, {static_cast<int64_t>(bytes)});  // storage: its bytes
    }
    case OpId::MemoryAllocTensor: {
      const NDArray& storage = call.tensor(0);
      const NDArray& shapeData = call.tensor(2);
      if (shapeData.ndim() != 1 || !shapeData.dtype().isInt()) call.fail("the shape must be a 1-d integer tensor");
      std::vector<int64_t> shape;
      for (int64_t i = 0; i < shapeData.numElements(); ++i) shape.push_back(static_cast<int64_t>(shapeData.getAsDouble(i)));
      for (int64_t d : shape)
        if (d < 0) call.fail("shape " + shapeString(shape) + " has a negative dimension");
      return tensorInStorage(call, storage, static_cast<int64_t>(call.tensor(1).getAsDouble(0)),
                             call.attrDType("dtype", DTypeCode::Float32), shape);
    }
    case OpId::MemoryKill: return Value();
    // Relax's VM lowering: allocations are fresh tensors (a planned storage
    // is only checked for room: the interpreter's tensors never alias), kills
    // free nothing, and the PrimFunc calls between them write their outputs.
    case OpId::RelaxMemKillStorage:
    case OpId::RelaxMemKillTensor:
    case OpId::RelaxVmKillObject:
    case OpId::RelaxNullValue: return Value();
    case OpId::RelaxShapeExpr: {
      std::vector<int64_t> values = call.attrInts("values");
      NDArray out(DTypeCode::Int64, {static_cast<int64_t>(values.size())});
      for (size_t i = 0; i < values.size(); ++i) out.setFromDouble(static_cast<int64_t>(i), static_cast<double>(values[i]));
      return out;
    }
    case OpId::RelaxPrimValue: return NDArray::scalar(call.attrDType("dtype", DTypeCode::Int64), static_cast<double>(call.attrInt("value")));
    case OpId::BuiltinAllocTensor: return NDArray(call.attrDType("dtype", DTypeCode::Float32), call.attrInts("shape"));
    case OpId::RelaxMemAllocStorage:
    case OpId::RelaxVmAllocStorage: {
      std::vector<int64_t> size = call.attrInts("size");
      if (size.size() != 1 || size[0] < 0 || size[0] > (int64_t(1) << 40)) call.fail("the size must be one byte count");
      return NDArray(DTypeCode::UInt8, {size[0]});
    }
    case OpId::RelaxMemAllocTensor:
    case OpId::RelaxVmAllocTensor:
      return tensorInStorage(call, call.tensor(0), call.attrInt("offset"), call.attrDType("dtype", DTypeCode::Float32),
                             call.attrInts("shape"));
    case OpId::RelaxStrImm:
    case OpId::RelaxDataTypeImm: return vmStringValue(call.attrString("value"));
    case OpId::RelaxCallBuiltinWithCtx: {
      const std::string& name = call.attrString("func_name");
      if (std::optional<Value> v = runVmBuiltin(call, name)) return *v;
      call.fail("calls the builtin \"" + name + "\", which the interpreter does not have");
    }
    case OpId::RelaxCallPacked: {
      const std::string& name = call.attrString("func_name");
      if (std::optional<Value> v = runVmBuiltin(call, name)) return *v;
      if (name == "vm.builtin.reshape" && args.size() == 2) {
        const NDArray& data = call.tensor(0);
        const NDArray& shape = call.tensor(1);
        std::vector<int64_t> dims;
        for (int64_t i = 0; i < shape.numElements(); ++i) dims.push_back(static_cast<int64_t>(shape.getAsDouble(i)));
        if (productOf(dims) != data.numElements()) call.fail("cannot reshape " + shapeString(data.shape()) + " to " + shapeString(dims));
        return data.reshaped(dims);
      }
      call.fail("calls the packed function \"" + name + "\", which the interpreter does not have");
    }
    case OpId::VmShapeOf: return shapeOfKernel(call);
    case OpId::VmReshapeTensor: {
      const NDArray& data = call.tensor(0);
      std::vector<int64_t> shape = call.attrInts("newshape");
      if (productOf(shape) != data.numElements())
        call.fail("cannot reshape " + shapeString(data.shape()) + " to " + shapeString(shape));
      return data.reshaped(shape);
    }
  }
  call.fail("has no reference kernel");
}

}  // namespace passlab
