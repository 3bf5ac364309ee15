#include "passes/fold_scale_axis.h"

#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/opt_util.h"

namespace passlab {

namespace {

using opt_util::callAttr;
using opt_util::callTo;
using opt_util::tensorTypeOf;

/// The per-channel values of a constant scale `s` applied to a value of
/// `shape` by broadcasting, when `s` varies at most along `axis` (a size-1
/// axis repeats its value): one value per channel.
std::optional<std::vector<double>> channelScale(const ConstantNode& s, const std::vector<int64_t>& shape, size_t axis) {
  const std::vector<int64_t>& sShape = s.data.shape();
  if (sShape.size() > shape.size() || axis >= shape.size() || !s.data.dtype().isFloat()) return std::nullopt;
  const size_t offset = shape.size() - sShape.size();
  int64_t along = 1;
  for (size_t i = 0; i < sShape.size(); ++i) {
    if (i + offset == axis) {
      if (sShape[i] != 1 && sShape[i] != shape[axis]) return std::nullopt;
      along = sShape[i];
    } else if (sShape[i] != 1) {
      return std::nullopt;
    }
  }
  std::vector<double> values(static_cast<size_t>(shape[axis]));
  for (size_t c = 0; c < values.size(); ++c) values[c] = s.data.getAsDouble(along == 1 ? 0 : static_cast<int64_t>(c));
  return values;
}

/// A constant of `rank` dims, all 1 but `axis`, holding `values` in `dtype`.
Expr axisConstant(const std::vector<double>& values, DataType dtype, size_t rank, size_t axis) {
  std::vector<int64_t> shape(rank, 1);
  shape[axis] = static_cast<int64_t>(values.size());
  NDArray data(dtype, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) data.setFromDouble(static_cast<int64_t>(i), values[i]);
  return makeConstant(std::move(data));
}

/// weight * scale laid out along `axis` of the weight.
Expr scaleWeight(const Expr& weight, const Expr& originalWeight, const std::vector<double>& values, size_t axis) {
  const TensorTypeNode* t = tensorTypeOf(originalWeight);
  return makeOpCall(OpId::Multiply, {weight, axisConstant(values, t->dtype, t->shape.size(), axis)});
}

/// The constant operand and the other operand of a multiply, if one is constant.
std::optional<std::pair<size_t, const ConstantNode*>> constantOperand(const CallNode& mul) {
  if (mul.args.size() != 2) return std::nullopt;
  if (const ConstantNode* c = as<ConstantNode>(mul.args[1])) return std::make_pair(size_t{0}, c);
  if (const ConstantNode* c = as<ConstantNode>(mul.args[0])) return std::make_pair(size_t{1}, c);
  return std::nullopt;
}

class ScaleFolder final : public ExprMutator {
 public:
  explicit ScaleFolder(const Expr& fn) : uses_(opt_util::useCounts(fn)) {}
  int folded() const { return folded_; }

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    Expr out = rebuilt;
    if (callTo(original, OpId::Multiply)) {
      if (std::optional<Expr> b = backward(original, rebuilt)) out = *b;
    } else if (callTo(original, OpId::Conv2D) || callTo(original, OpId::Dense)) {
      if (std::optional<Expr> f = forward(original, rebuilt)) out = *f;
    }
    if (out != rebuilt) ++folded_;
    if (out != original && !out->checkedType) out->checkedType = original->checkedType;
    return out;
  }

 private:
  bool singleUse(const Expr& e) const {
    auto it = uses_.find(e.get());
    return it != uses_.end() && it->second == 1;
  }

  /// Output channel axis of a conv2d call.
  static size_t convOutChannelAxis(const CallNode& conv) {
    std::string layout = callAttr(conv, "out_layout").asString();
    if (layout.empty()) layout = callAttr(conv, "data_layout").asString();
    return layout.find('C');
  }

  /// conv2d(x, w) with its output scaled by `values` per output channel.
  Expr scaledConv(const CallNode& conv, const CallNode& originalConv, const std::vector<double>& values) const {
    const size_t o = callAttr(conv, "kernel_layout").asString().find('O');
    return makeCall(conv.callee, {conv.args[0], scaleWeight(conv.args[1], originalConv.args[1], values, o)}, conv.attrs, conv.span);
  }

  std::optional<Expr> backward(const Expr& original, const Expr& rebuilt) const {
    const CallNode* mul = as<CallNode>(original);
    const CallNode* newMul = as<CallNode>(rebuilt);
    auto operand = constantOperand(*mul);
    const TensorTypeNode* outType = tensorTypeOf(original);
    if (!operand || !outType || !newMul) return std::nullopt;
    const Expr& x = mul->args[operand->first];
    const Expr& newX = newMul->args[operand->first];
    const ConstantNode& scale = *operand->second;
    // The multiply must not broadcast the value to a bigger shape.
    const TensorTypeNode* xType = tensorTypeOf(x);
    if (!xType || xType->shape != outType->shape || !singleUse(x)) return std::nullopt;

    if (const CallNode* conv = callTo(x, OpId::Conv2D); conv && callTo(newX, OpId::Conv2D)) {
      const size_t axis = convOutChannelAxis(*conv);
      auto values = axis < 4 ? channelScale(scale, outType->shape, axis) : std::nullopt;
      if (!values) return std::nullopt;
      return scaledConv(*as<CallNode>(newX), *conv, *values);
    }
    if (const CallNode* dense = callTo(x, OpId::Dense); dense && callTo(newX, OpId::Dense)) {
      auto values = channelScale(scale, outType->shape, outType->shape.size() - 1);
      if (!values) return std::nullopt;
      const CallNode* nd = as<CallNode>(newX);
      return makeCall(nd->callee, {nd->args[0], scaleWeight(nd->args[1], dense->args[1], *values, 0)}, nd->attrs, nd->span);
    }
    // Through a bias: (conv + b) * s = conv * s + b * s.
    const CallNode* biasOp = callTo(x, OpId::BiasAdd);
    if (!biasOp) biasOp = callTo(x, OpId::Add);
    const CallNode* newBias = as<CallNode>(newX);
    if (!biasOp || !newBias || newBias->op() != biasOp->op() || biasOp->args.size() != 2) return std::nullopt;
    const CallNode* conv = callTo(biasOp->args[0], OpId::Conv2D);
    const CallNode* newConv = callTo(newBias->args[0], OpId::Conv2D);
    if (!conv || !newConv || !singleUse(biasOp->args[0])) return std::nullopt;
    const size_t axis = convOutChannelAxis(*conv);
    auto values = axis < 4 ? channelScale(scale, outType->shape, axis) : std::nullopt;
    if (!values) return std::nullopt;
    Expr bias;
    if (biasOp->op()->id == OpId::BiasAdd) {
      std::optional<int64_t> biasAxis = opt_util::normalizedAxis(callAttr(*biasOp, "axis").asInt(), 4);
      const TensorTypeNode* b = tensorTypeOf(biasOp->args[1]);
      if (!biasAxis || static_cast<size_t>(*biasAxis) != axis || !b || b->shape.size() != 1) return std::nullopt;
      bias = makeOpCall(OpId::Multiply, {newBias->args[1], axisConstant(*values, b->dtype, 1, 0)});
    } else {
      // add(conv, b): b must be a constant that itself varies at most along the channel axis.
      const ConstantNode* b = as<ConstantNode>(biasOp->args[1]);
      if (!b || !channelScale(*b, outType->shape, axis)) return std::nullopt;
      bias = makeOpCall(OpId::Multiply, {newBias->args[1], newMul->args[1 - operand->first]});
    }
    return makeCall(newBias->callee, {scaledConv(*newConv, *conv, *values), bias}, newBias->attrs, newBias->span);
  }

  std::optional<Expr> forward(const Expr& original, const Expr& rebuilt) const {
    const CallNode* call = as<CallNode>(original);
    const CallNode* newCall = as<CallNode>(rebuilt);
    if (call->args.size() != 2 || !newCall) return std::nullopt;
    const bool isConv = call->op()->id == OpId::Conv2D;
    if (isConv && callAttr(*call, "groups").asInt() != 1) return std::nullopt;
    // data = multiply(x, s), or relu(multiply(x, s)) with s > 0.
    Expr data = call->args[0], newData = newCall->args[0];
    bool throughRelu = false;
    if (callTo(data, OpId::Relu) && callTo(newData, OpId::Relu) && singleUse(data)) {
      throughRelu = true;
      data = as<CallNode>(data)->args[0];
      newData = as<CallNode>(newData)->args[0];
    }
    const CallNode* mul = callTo(data, OpId::Multiply);
    const CallNode* newMul = callTo(newData, OpId::Multiply);
    if (!mul || !newMul || !singleUse(data)) return std::nullopt;
    auto operand = constantOperand(*mul);
    const TensorTypeNode* dataType = tensorTypeOf(data);
    const TensorTypeNode* xType = operand ? tensorTypeOf(mul->args[operand->first]) : nullptr;
    if (!operand || !dataType || !xType || xType->shape != dataType->shape) return std::nullopt;
    const size_t dataAxis = isConv ? callAttr(*call, "data_layout").asString().find('C') : dataType->shape.size() - 1;
    if (dataAxis >= dataType->shape.size()) return std::nullopt;
    auto values = channelScale(*operand->second, dataType->shape, dataAxis);
    if (!values) return std::nullopt;
    if (throughRelu)
      for (double v : *values)
        if (!(v > 0)) return std::nullopt;
    Expr x = newMul->args[operand->first];
    if (throughRelu) x = makeOpCall(OpId::Relu, {x});
    const size_t weightAxis = isConv ? callAttr(*call, "kernel_layout").asString().find('I') : 1;
    return makeCall(newCall->callee, {x, scaleWeight(newCall->args[1], call->args[1], *values, weightAxis)}, newCall->attrs,
                    newCall->span);
  }

  std::unordered_map<const ExprNode*, int> uses_;
  int folded_ = 0;
};

/// What FoldScaleAxis is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& foldScaleAxisDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "FoldScaleAxis";
    r.level = PassLevel::Function;
    r.info.optLevel = 3;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Folds a per-channel constant multiply after (backward) or before (forward) conv2d/dense into the weights.";
    r.info.guarantees = "Every folded multiply is gone; the weights carry the scale as multiply(w, constant).";
    r.create = [](const AttrDict&) { return createFoldScaleAxisPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kFoldScaleAxisRegistrar(foldScaleAxisDeclaration);

class FoldScaleAxisPass final : public FunctionPass {
 public:
  const PassInfo& info() const override { return foldScaleAxisDeclaration().info; }

  Function runOnFunction(const Function& fn, const std::string&, const IRModule& mod, PassContext&) const override {
    bool candidate = false;
    postOrderVisit(fn, [&](const Expr& e) { candidate = candidate || callTo(e, OpId::Conv2D) || callTo(e, OpId::Dense); });
    if (!candidate) return fn;
    opt_util::ensureTyped(fn, mod);
    ScaleFolder folder(fn);
    Expr out = folder.mutate(fn);
    if (out == fn || folder.folded() == 0) return fn;
    Function result = std::static_pointer_cast<const FunctionNode>(out);
    inferExprType(result, &mod);
    return result;
  }
};

}  // namespace

PassPtr createFoldScaleAxisPass() { return std::make_shared<FoldScaleAxisPass>(); }

}  // namespace passlab
