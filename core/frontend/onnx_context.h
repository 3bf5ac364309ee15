// Internal to core/frontend: the builder that makes typed expressions for the
// importer, and the per-node context the op converters read from.
#pragma once

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/interp/value.h"
#include "core/ir/expr.h"

namespace passlab::onnx_import {

/// Thrown by the builder and converters for an error located at the current
/// node; the importer adds the node's name, op and opset, and its span.
struct NodeError {
  /// What went wrong, without the node prefix.
  std::string message;
  /// Diagnostic rule ("onnx.unsupported-attribute", "onnx.invalid", ...).
  std::string rule;
};

/// Thrown when a value that must be known at import depends on graph inputs.
struct NeedsConstant {
  /// What needed the value ("Reshape's shape input").
  std::string what;
  /// ONNX names of the graph inputs it depends on.
  std::vector<std::string> inputs;
};

/// Builds expressions whose types are known at once (every op call runs its
/// type relation as it is made), stamped with the current node's span, and
/// evaluates constant subexpressions when a converter needs their value.
class GraphBuilder {
 public:
  /// The span stamped on every expression built from now on.
  void setSpan(Span span) { span_ = std::move(span); }
  /// The current span.
  const Span& span() const { return span_; }

  /// Records that `param` is the graph input named `onnxName` (for messages).
  void registerParam(const VarNode* param, std::string onnxName) { paramNames_[param] = std::move(onnxName); }

  /// A call to `op`, typed through the op's relation. A relation error becomes
  /// a NodeError ("onnx.type").
  Expr call(OpId op, std::vector<Expr> args, const AttrDict& attrs = {});
  /// A constant tensor.
  Expr constant(NDArray data);
  /// A rank-0 constant of `dtype` holding `value`.
  Expr scalar(DataType dtype, double value);
  /// A tuple of expressions (typed).
  Expr tuple(std::vector<Expr> fields);
  /// Field `index` of a tuple-typed expression (typed).
  Expr tupleItem(Expr tuple, int index);

  /// The tensor type of `e` (a NodeError when `e` is a tuple).
  static const TensorTypeNode& tensorType(const Expr& e);
  /// Shape of a tensor-typed expression.
  static const std::vector<int64_t>& shapeOf(const Expr& e) { return tensorType(e).shape; }
  /// Rank of a tensor-typed expression.
  static int64_t rankOf(const Expr& e) { return static_cast<int64_t>(tensorType(e).shape.size()); }
  /// Element type of a tensor-typed expression.
  static DataType dtypeOf(const Expr& e) { return tensorType(e).dtype; }

  /// The value of `e` when it is computable from constants alone (shape_of of a
  /// statically shaped tensor counts as constant), else nullopt.
  std::optional<NDArray> tryEvaluate(const Expr& e);
  /// The value of `e`; throws NeedsConstant naming `what` and the graph inputs
  /// the value depends on.
  NDArray evaluate(const Expr& e, std::string_view what);

  // ---- Compositions shared by the converters ----
  /// reshape to a fully known shape (no special values); `x` itself when equal.
  Expr reshape(Expr x, std::vector<int64_t> shape);
  /// NumPy-broadcasts `x` to `shape` (which must be broadcast-compatible).
  Expr broadcastTo(Expr x, const std::vector<int64_t>& shape);
  /// cast; `x` itself when it already has `dtype`.
  Expr cast(Expr x, DataType dtype);
  /// expand_dims at `axis` (of the result) `count` times.
  Expr expandDims(Expr x, int64_t axis, int64_t count = 1);
  /// squeeze the given axes (all must have extent 1).
  Expr squeeze(Expr x, std::vector<int64_t> axes);
  /// transpose by the permutation `axes`; `x` itself for the identity.
  Expr transpose(Expr x, std::vector<int64_t> axes);
  /// A reduction (sum, mean, max, min) over `axes` (all axes when nullopt).
  Expr reduce(OpId op, Expr x, std::optional<std::vector<int64_t>> axes, bool keepdims);
  /// Binary op with a scalar constant of x's dtype on the right (`x op value`).
  Expr withScalar(OpId op, Expr x, double value);

 private:
  /// Evaluates `root` iteratively; fills `missing` with the graph inputs it
  /// depends on (and returns nullopt) when it is not constant.
  std::optional<Value> evaluateValue(const Expr& root, std::vector<std::string>* missing);

  Span span_;
  std::unordered_map<const VarNode*, std::string> paramNames_;
  /// Values of constant subexpressions computed so far (kept with their node).
  std::unordered_map<const ExprNode*, std::pair<Expr, Value>> memo_;
};

/// Everything a converter reads about one node: inputs as expressions,
/// attributes (each read is recorded, so unread attributes are reported as
/// unsupported), which outputs are used, and the opset.
class NodeContext {
 public:
  /// `inputs` holds one entry per declared input (null for omitted ones).
  NodeContext(GraphBuilder& builder, const onnx::NodeProto& node, int64_t opset, std::vector<Expr> inputs,
              std::vector<bool> outputUsed);

  /// The builder every converter makes its expressions with.
  GraphBuilder& b;
  /// Opset of the default domain.
  const int64_t opset;

  /// The node's op type.
  const std::string& opType() const { return node_.op_type(); }
  /// The node's proto.
  const onnx::NodeProto& node() const { return node_; }

  /// Number of declared inputs (including omitted trailing ones).
  size_t inputCount() const { return inputs_.size(); }
  /// True when input `i` is present (declared and not the empty name).
  bool hasInput(size_t i) const { return i < inputs_.size() && inputs_[i] != nullptr; }
  /// Input `i`; a NodeError when it is missing.
  const Expr& input(size_t i) const;
  /// The value of input `i`, which must be computable at import.
  NDArray constantInput(size_t i, std::string_view what);
  /// Input `i` as a list of ints (its value must be computable at import).
  std::vector<int64_t> intsInput(size_t i, std::string_view what);
  /// Input `i` as a list of doubles (its value must be computable at import).
  std::vector<double> floatsInput(size_t i, std::string_view what);

  /// Number of declared outputs.
  size_t outputCount() const { return outputUsed_.size(); }
  /// True when output `i` is declared, named and consumed by a node or the graph.
  bool outputUsed(size_t i) const { return i < outputUsed_.size() && outputUsed_[i]; }

  // Attribute accessors. Each read marks the attribute as understood; a value
  // of the wrong attribute type is a NodeError.
  /// True when the node carries attribute `name` (does not mark it read).
  bool hasAttr(std::string_view name) const;
  /// An INT attribute, or `fallback` when absent.
  int64_t attrInt(std::string_view name, int64_t fallback);
  /// An INT attribute, or nullopt when absent.
  std::optional<int64_t> attrIntOpt(std::string_view name);
  /// A FLOAT attribute (widened to double), or `fallback` when absent.
  double attrFloat(std::string_view name, double fallback);
  /// A STRING attribute, or `fallback` when absent.
  std::string attrString(std::string_view name, std::string fallback);
  /// An INTS attribute, or `fallback` when absent.
  std::vector<int64_t> attrInts(std::string_view name, std::vector<int64_t> fallback = {});
  /// An INTS attribute, or nullopt when absent.
  std::optional<std::vector<int64_t>> attrIntsOpt(std::string_view name);
  /// A FLOATS attribute (widened to double), or nullopt when absent.
  std::optional<std::vector<double>> attrFloatsOpt(std::string_view name);
  /// A TENSOR attribute as an NDArray (nullopt when absent).
  std::optional<NDArray> attrTensorOpt(std::string_view name);
  /// Marks an attribute that has no effect on inference as read.
  void ignoreAttr(std::string_view name) { read_.insert(std::string(name)); }
  /// Attributes present on the node that no converter code read.
  std::vector<std::string> unreadAttrs() const;

  /// Raises "unsupported ..." for this node (rule onnx.unsupported-attribute).
  [[noreturn]] void unsupported(const std::string& what) const;
  /// Raises an error for a malformed node (rule onnx.invalid).
  [[noreturn]] void invalid(const std::string& what) const;

 private:
  const onnx::AttributeProto* attr(std::string_view name, int expectedType);

  const onnx::NodeProto& node_;
  std::vector<Expr> inputs_;
  std::vector<bool> outputUsed_;
  std::unordered_set<std::string> read_;
};

/// Converts one node: returns one expression per output it produces (outputs
/// beyond the returned ones must be unused; a null entry means "not produced").
using Converter = std::vector<Expr> (*)(NodeContext& ctx);

/// ONNX op type → converter.
using ConverterTable = std::unordered_map<std::string, Converter>;

// Registration of each op family, one file each (onnx_ops_<family>.cpp).
/// Arithmetic, comparisons, logic, unary math, Clip, Where, Cast, Identity.
void addElementwiseConverters(ConverterTable& table);
/// Activations, the softmax family and Dropout.
void addActivationConverters(ConverterTable& table);
/// Convolutions, Gemm/MatMul and the normalizations.
void addNnConverters(ConverterTable& table);
/// MaxPool, AveragePool, the global pools and LRN.
void addPoolConverters(ConverterTable& table);
/// Reshape, Transpose, Concat, Split, Slice, Squeeze/Unsqueeze, Gather, Pad, Expand, Tile...
void addTransformConverters(ConverterTable& table);
/// Constant, ConstantOfShape, Shape, Size, Range, EyeLike.
void addShapeConverters(ConverterTable& table);
/// The Reduce* ops.
void addReduceConverters(ConverterTable& table);
/// Resize and Upsample.
void addResizeConverters(ConverterTable& table);
/// GatherElements, OneHot, Compress and the losses built on them.
void addGatherConverters(ConverterTable& table);
/// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear.
void addQuantConverters(ConverterTable& table);

/// The sliding-window parameters shared by Conv, ConvTranspose and the pools,
/// one entry per spatial axis.
struct Window {
  /// Window extents, steps and dilations.
  std::vector<int64_t> kernel, strides, dilations;
  /// Padding before and after each spatial axis.
  std::vector<int64_t> padBegin, padEnd;
};

/// Reads kernel_shape (`kernel` when the node has none, as Conv may infer it
/// from the weight), strides, dilations and pads/auto_pad for an input whose
/// spatial extents are `inSpatial`. `readDilations` is false for the pools of
/// opsets that have no dilations attribute.
Window readWindow(NodeContext& ctx, const std::vector<int64_t>& inSpatial, std::optional<std::vector<int64_t>> kernel,
                  bool readDilations = true);

/// A 1-d sliding-window problem as a 2-d one: [N, C, L] becomes [N, C, 1, L]
/// and the window gets a unit leading axis.
Window lift1dWindow(const Window& w);

/// The attribute's value in the listing line of a node ("[3, 3]", "\"SAME_UPPER\"").
std::string describeAttribute(const onnx::AttributeProto& attr);

/// Normalizes a possibly negative axis for a rank; a NodeError names it.
int64_t normalizeOnnxAxis(int64_t axis, int64_t rank, std::string_view what = "axis");

/// "[1, 2, 3]".
std::string listText(const std::vector<int64_t>& values);

}  // namespace passlab::onnx_import
