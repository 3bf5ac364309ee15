// Type relations of the op table and the helpers they share. Internal to
// core/ir: the rest of the compiler reaches relations through OpDef::relation
// or inferOpCallType (op.h).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/op.h"

namespace passlab {

// ---- Helpers shared by the relation files ----------------------------------

/// Throws a TypeRelationError with `message`.
[[noreturn]] void relationError(std::string message);
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
/// (a tensor, or a tuple when they are lists of shapes and dtypes).
Type typeFromOutAttrs(const AttrValue& shapeAttr, const AttrValue& dtypeAttr);

// ---- Relations ---------------------------------------------------------------
// Elementwise, reductions, constructors, later-phase calls (op_relations_elemwise.cpp).
Type relBroadcast(std::span<const Type> args, const AttrDict& attrs);
Type relCompare(std::span<const Type> args, const AttrDict& attrs);
Type relWhere(std::span<const Type> args, const AttrDict& attrs);
Type relIdentity(std::span<const Type> args, const AttrDict& attrs);
Type relFloatUnary(std::span<const Type> args, const AttrDict& attrs);
Type relClip(std::span<const Type> args, const AttrDict& attrs);
Type relCast(std::span<const Type> args, const AttrDict& attrs);
Type relReduce(std::span<const Type> args, const AttrDict& attrs);
Type relInitConst(std::span<const Type> args, const AttrDict& attrs);
Type relFull(std::span<const Type> args, const AttrDict& attrs);
Type relShapeOf(std::span<const Type> args, const AttrDict& attrs);
Type relCallTir(std::span<const Type> args, const AttrDict& attrs);
Type relCallDpsPacked(std::span<const Type> args, const AttrDict& attrs);
Type relCallPurePacked(std::span<const Type> args, const AttrDict& attrs);
Type relInvokePureClosure(std::span<const Type> args, const AttrDict& attrs);
Type relVmAllocStorage(std::span<const Type> args, const AttrDict& attrs);
Type relVmAllocTensor(std::span<const Type> args, const AttrDict& attrs);
Type relVmCallTir(std::span<const Type> args, const AttrDict& attrs);

// Neural-network ops (op_relations_nn.cpp).
Type relConv2D(std::span<const Type> args, const AttrDict& attrs);
Type relConv2DTranspose(std::span<const Type> args, const AttrDict& attrs);
Type relDense(std::span<const Type> args, const AttrDict& attrs);
Type relMatmul(std::span<const Type> args, const AttrDict& attrs);
Type relBatchMatmul(std::span<const Type> args, const AttrDict& attrs);
Type relBiasAdd(std::span<const Type> args, const AttrDict& attrs);
Type relBatchNorm(std::span<const Type> args, const AttrDict& attrs);
Type relLayerNorm(std::span<const Type> args, const AttrDict& attrs);
Type relPool2D(std::span<const Type> args, const AttrDict& attrs);
Type relGlobalPool2D(std::span<const Type> args, const AttrDict& attrs);
Type relSoftmax(std::span<const Type> args, const AttrDict& attrs);
Type relPad(std::span<const Type> args, const AttrDict& attrs);
Type relResize2D(std::span<const Type> args, const AttrDict& attrs);

// Data movement (op_relations_transform.cpp).
Type relReshape(std::span<const Type> args, const AttrDict& attrs);
Type relTranspose(std::span<const Type> args, const AttrDict& attrs);
Type relConcatenate(std::span<const Type> args, const AttrDict& attrs);
Type relSplit(std::span<const Type> args, const AttrDict& attrs);
Type relSqueeze(std::span<const Type> args, const AttrDict& attrs);
Type relExpandDims(std::span<const Type> args, const AttrDict& attrs);
Type relStridedSlice(std::span<const Type> args, const AttrDict& attrs);
Type relTake(std::span<const Type> args, const AttrDict& attrs);
Type relLayoutTransform(std::span<const Type> args, const AttrDict& attrs);

}  // namespace passlab
