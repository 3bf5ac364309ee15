// Type relations of the op table and the helpers they share. Internal to
// core/ir: the rest of the compiler reaches relations through OpDef::relation
// or inferOpCallType (op.h).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/op.h"
#include "core/ir/shape_attr.h"

namespace passlab {

// ---- Helpers shared by the relation files ----------------------------------

/// Throws a TypeRelationError with `message`.
[[noreturn]] void relationError(std::string message);
/// The argument types packed in a tuple argument (`(%x, %y)`), or one tensor.
std::vector<Type> packedArgs(const Type& t);
/// "(1, 3, ?)": a shape as TVM prints it.
std::string shapeText(const std::vector<int64_t>& shape);
/// True for a dimension written `?`.
inline bool isDynamicDim(int64_t d) { return d == kDynamicDim; }
/// The tensor type of argument `i`; an error names the argument when it is not a tensor.
const TensorTypeNode& tensorArg(std::span<const Type> args, size_t i, std::string_view role = "");
/// Checks that arguments `first`.. all have the dtype of argument `first`.
void requireSameDType(std::span<const Type> args, size_t first, size_t count);
/// `axis` made non-negative for a tensor of `rank` dims (`extra` widens the range,
/// expand_dims accepts rank+1 positions); an error names the axis and the rank.
int64_t normalizeAxis(int64_t axis, size_t rank, std::string_view what = "axis", size_t extra = 0);
/// The attribute `key` of `op`'s schema from canonical `attrs` (default when absent).
const AttrValue& opAttr(OpId op, const AttrDict& attrs, std::string_view key);
/// An attribute that must be an array of ints; an error names the key.
std::vector<int64_t> intList(const AttrValue& v, std::string_view key);
/// A dtype attribute: empty string means `fallback`; unknown names are errors.
DataType dtypeAttr(const AttrValue& v, std::string_view key, DataType fallback);
/// NumPy broadcasting of two shapes; an error names both shapes.
std::vector<int64_t> broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
/// Result type described by call_tir-style attributes out_shape/out_dtype
/// (a tensor, or a tuple when they are lists of shapes and dtypes). A
/// symbolic dimension (its text, "n * 2") takes the variables of `scope` by
/// name (shape::dimsOfAttr).
Type typeFromOutAttrs(const AttrValue& shapeAttr, const AttrValue& dtypeAttr, const std::vector<tir::Var>& scope = {});
/// The shape variables of the argument types (the scope of typeFromOutAttrs).
std::vector<tir::Var> argShapeVars(std::span<const Type> args);

// ---- Symbolic dimensions (op_relations_symbolic.cpp) --------------------------
// Each relation computes its int64 result as before (symbolic dims read as
// `?`, so every check stays what it was) and, when an argument has a symbolic
// dimension, computes the dims of that result symbolically and merges them.

/// True when some tensor among `args` (tuple fields included) has a symbolic dimension.
bool anySymbolic(std::span<const Type> args);
/// The tensor type `r` with each of its `?` dimensions replaced by the same
/// position of `dims` (simplified); static dims of `r` win, as the int64 rule
/// knew them. `r` unchanged when the ranks differ.
Type withSymbolicDims(const Type& r, const std::vector<shape::Dim>& dims);
/// NumPy broadcasting of symbolic dims (equal dims, or 1 against anything;
/// otherwise the known extent, or `?` between two different symbolic ones).
std::vector<shape::Dim> broadcastDims(const std::vector<shape::Dim>& a, const std::vector<shape::Dim>& b);
/// Product of dims (`?` when one is unknown).
shape::Dim productDims(const std::vector<shape::Dim>& dims);
/// match_cast(value): the value's type, whatever it is; the binding's
/// annotation gives the cast type.
Type relMatchCast(std::span<const Type> args, const AttrDict& attrs);

// ---- Relations ---------------------------------------------------------------
// Elementwise, reductions, constructors, later-phase calls (op_relations_elemwise.cpp).
/// add, subtract, multiply, divide, power, maximum, minimum: NumPy broadcasting, equal dtypes.
Type relBroadcast(std::span<const Type> args, const AttrDict& attrs);
/// equal, less, greater: broadcasting, bool result.
Type relCompare(std::span<const Type> args, const AttrDict& attrs);
/// where(cond, x, y): bool condition, three-way broadcasting.
Type relWhere(std::span<const Type> args, const AttrDict& attrs);
/// Unary ops whose result has the argument type (negative, abs, relu, ...).
Type relIdentity(std::span<const Type> args, const AttrDict& attrs);
/// Transcendental unary ops (exp, log, sqrt, ...): floating-point argument, same type.
Type relFloatUnary(std::span<const Type> args, const AttrDict& attrs);
/// clip: identity, with a_min <= a_max.
Type relClip(std::span<const Type> args, const AttrDict& attrs);
/// cast: same shape, dtype from the attribute.
Type relCast(std::span<const Type> args, const AttrDict& attrs);
/// mean, sum, max, min: axis (None = all), keepdims, exclude.
Type relReduce(std::span<const Type> args, const AttrDict& attrs);
/// argmax/argmin: the shape of the reduction, int32 indices (TVM's ArgReduceRel).
Type relArgReduce(std::span<const Type> args, const AttrDict& attrs);
/// zeros, ones: shape and dtype from attributes.
Type relInitConst(std::span<const Type> args, const AttrDict& attrs);
/// full(fill_value): scalar fill value; dtype attribute or the fill value's.
Type relFull(std::span<const Type> args, const AttrDict& attrs);
/// shape_of: 1-d integer tensor of the rank.
Type relShapeOf(std::span<const Type> args, const AttrDict& attrs);
/// call_tir(func, args): result from out_shape/out_dtype; callee takes inputs then outputs.
Type relCallTir(std::span<const Type> args, const AttrDict& attrs);
/// call_dps_packed(func, args): result from out_shape/out_dtype.
Type relCallDpsPacked(std::span<const Type> args, const AttrDict& attrs);
/// call_pure_packed(func, args...): result from out_shape/out_dtype.
Type relCallPurePacked(std::span<const Type> args, const AttrDict& attrs);
/// invoke_pure_closure(closure, args): checked against the closure type.
Type relInvokePureClosure(std::span<const Type> args, const AttrDict& attrs);
/// vm.builtin.alloc_storage: a 1-d uint8 buffer of `size` bytes.
Type relVmAllocStorage(std::span<const Type> args, const AttrDict& attrs);
/// vm.builtin.alloc_tensor(storage): a tensor that must fit in the storage.
Type relVmAllocTensor(std::span<const Type> args, const AttrDict& attrs);
/// vm.builtin.call_tir(func, inputs and outputs): writes the outputs, returns ().
Type relVmCallTir(std::span<const Type> args, const AttrDict& attrs);

// Device planning, lowered calls and memory builtins (op_relations_device.cpp).
/// on_device(x): x's type, whatever it is (tensors, tuples).
Type relOnDevice(std::span<const Type> args, const AttrDict& attrs);
/// device_copy(x): x's type.
Type relDeviceCopy(std::span<const Type> args, const AttrDict& attrs);
/// call_lowered(func, (inputs...)): a Relay function's result type, or for a
/// PrimFunc (destination passing) the buffers after the inputs.
Type relCallLowered(std::span<const Type> args, const AttrDict& attrs);
/// memory.alloc_storage(size, alignment): Storage.
Type relMemoryAllocStorage(std::span<const Type> args, const AttrDict& attrs);
/// memory.alloc_tensor(storage, offset, shape): Tensor[assert_shape or const_shape, dtype].
Type relMemoryAllocTensor(std::span<const Type> args, const AttrDict& attrs);
/// memory.kill(x): ().
Type relMemoryKill(std::span<const Type> args, const AttrDict& attrs);
/// vm.shape_of(x): 1-d integer tensor of the rank.
Type relVmShapeOf(std::span<const Type> args, const AttrDict& attrs);
/// vm.invoke_tvm_op(func, (inputs...), (outputs...)): writes the outputs, returns ().
Type relVmInvokeTvmOp(std::span<const Type> args, const AttrDict& attrs);
/// vm.reshape_tensor(data, shape): Tensor[newshape, data's dtype].
Type relVmReshapeTensor(std::span<const Type> args, const AttrDict& attrs);

// Relax's VM lowering ops (op_relations_relax_vm.cpp).
/// R.shape([..]): R.Shape([..]).
Type relRelaxShapeExpr(std::span<const Type> args, const AttrDict& attrs);
/// R.prim_value(n): R.Prim(dtype, value n).
Type relRelaxPrimValue(std::span<const Type> args, const AttrDict& attrs);
/// R.null_value(): R.Object.
Type relRelaxNullValue(std::span<const Type> args, const AttrDict& attrs);
/// R.call_packed("f", args..., sinfo_args=(T,)) (func_name=f): T (R.Object when none is given).
Type relRelaxCallPacked(std::span<const Type> args, const AttrDict& attrs);
/// R.str("..") and R.dtype(".."): objects, as TVM's StringImm and DataTypeImm.
Type relRelaxStrImm(std::span<const Type> args, const AttrDict& attrs);
/// R.call_builtin_with_ctx: its out_type, R.Object without one.
Type relRelaxCallBuiltinWithCtx(std::span<const Type> args, const AttrDict& attrs);
/// R.builtin.alloc_tensor(shape, dtype, device, scope): R.Tensor(shape, dtype).
Type relBuiltinAllocTensor(std::span<const Type> args, const AttrDict& attrs);
/// R.memory.alloc_storage / R.vm.alloc_storage: R.Object.
Type relRelaxAllocStorage(std::span<const Type> args, const AttrDict& attrs);
/// R.memory.alloc_tensor / R.vm.alloc_tensor(storage, offset, shape, dtype): R.Tensor(shape, dtype).
Type relRelaxAllocTensor(std::span<const Type> args, const AttrDict& attrs);
/// R.memory.kill_storage / kill_tensor, R.vm.kill_object: R.Tuple.
Type relRelaxKill(std::span<const Type> args, const AttrDict& attrs);

// Neural-network ops (op_relations_nn.cpp).
/// nn.conv2d: any NCHW/OIHW letter permutation, groups, dilation, 1/2/4-value padding.
Type relConv2D(std::span<const Type> args, const AttrDict& attrs);
/// nn.conv2d_transpose: as TVM, kernel I = data channels, output channels O * groups.
Type relConv2DTranspose(std::span<const Type> args, const AttrDict& attrs);
/// nn.dense: data [..., in], weight [units, in].
Type relDense(std::span<const Type> args, const AttrDict& attrs);
/// nn.matmul: transpose_a/transpose_b, tensor_b 2-d.
Type relMatmul(std::span<const Type> args, const AttrDict& attrs);
/// nn.batch_matmul: 3-d, transpose_b defaults to True, batch broadcast of 1.
Type relBatchMatmul(std::span<const Type> args, const AttrDict& attrs);
/// nn.bias_add: 1-d bias matching data.shape[axis].
Type relBiasAdd(std::span<const Type> args, const AttrDict& attrs);
/// nn.batch_norm: (out, mean, var) tuple.
Type relBatchNorm(std::span<const Type> args, const AttrDict& attrs);
/// nn.layer_norm: gamma and beta matching data.shape[axis].
Type relLayerNorm(std::span<const Type> args, const AttrDict& attrs);
/// nn.group_norm: float data whose channel_axis divides into num_groups, axes
/// without the channel axis, gamma and beta of the channel count.
Type relGroupNorm(std::span<const Type> args, const AttrDict& attrs);
/// nn.max_pool2d, nn.avg_pool2d: window, strides, dilation, padding, ceil_mode, layouts.
Type relPool2D(std::span<const Type> args, const AttrDict& attrs);
/// nn.global_avg_pool2d: H and W become 1.
Type relGlobalPool2D(std::span<const Type> args, const AttrDict& attrs);
/// nn.softmax: floating point, axis in range.
Type relSoftmax(std::span<const Type> args, const AttrDict& attrs);
/// nn.pad: pad_width pairs per dimension; pad value as argument or attribute.
Type relPad(std::span<const Type> args, const AttrDict& attrs);
/// image.resize2d: H and W from size.
Type relResize2D(std::span<const Type> args, const AttrDict& attrs);

// Data movement (op_relations_transform.cpp).
/// reshape: newshape with TVM's 0, -1, -2, -3, -4.
Type relReshape(std::span<const Type> args, const AttrDict& attrs);
/// transpose: axes permutation (None reverses).
Type relTranspose(std::span<const Type> args, const AttrDict& attrs);
/// concatenate((a, b, ...)): equal except along axis.
Type relConcatenate(std::span<const Type> args, const AttrDict& attrs);
/// split: equal sections or split indices; tuple result.
Type relSplit(std::span<const Type> args, const AttrDict& attrs);
/// squeeze: listed (or all) unit axes removed.
Type relSqueeze(std::span<const Type> args, const AttrDict& attrs);
/// expand_dims: num_newaxis unit axes at axis.
Type relExpandDims(std::span<const Type> args, const AttrDict& attrs);
/// strided_slice: begin/end/strides/axes, slice_mode end or size, TVM clamping.
Type relStridedSlice(std::span<const Type> args, const AttrDict& attrs);
/// take(data, indices): along axis (or flattened), batch_dims.
Type relTake(std::span<const Type> args, const AttrDict& attrs);
/// layout_transform: plain and blocked layouts (NCHW, NHWC, NCHW4c, ...).
Type relLayoutTransform(std::span<const Type> args, const AttrDict& attrs);

}  // namespace passlab
