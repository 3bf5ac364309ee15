#include "passes/simplify_inference.h"

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/opt_util.h"

namespace passlab {

namespace {

using opt_util::callAttr;
using opt_util::callTo;
using opt_util::expandBiasToMatchAxis;
using opt_util::scalarConstant;

Expr call(OpId op, std::vector<Expr> args, const AttrDict& attrs = {}) { return makeOpCall(op, std::move(args), attrs); }

/// batch_norm's output 0 in inference form (see the header for the formula).
Expr unpackBatchNorm(const CallNode& bn, const TensorTypeNode& dataType) {
  const Expr& data = bn.args[0];
  const Expr& gamma = bn.args[1];
  const Expr& beta = bn.args[2];
  const Expr& movingMean = bn.args[3];
  const Expr& movingVar = bn.args[4];
  const DataType dtype = dataType.dtype;
  const int64_t ndim = static_cast<int64_t>(dataType.shape.size());
  // TVM stores epsilon as a float attribute and builds the scalar from it in the data's dtype.
  const double epsilon = static_cast<float>(callAttr(bn, "epsilon").asFloat());
  std::optional<int64_t> axis = opt_util::normalizedAxis(callAttr(bn, "axis").asInt(), ndim);
  if (!axis) throwError(bn.span, "nn.batch_norm: axis out of range for a rank-" + std::to_string(ndim) + " input", "SimplifyInference");

  Expr scale = call(OpId::Divide, {scalarConstant(dtype, 1.0), call(OpId::Sqrt, {call(OpId::Add, {movingVar, scalarConstant(dtype, epsilon)})})});
  if (callAttr(bn, "scale").asBool()) scale = call(OpId::Multiply, {scale, gamma});
  Expr shift = call(OpId::Multiply, {call(OpId::Negative, {movingMean}), scale});
  if (callAttr(bn, "center").asBool()) shift = call(OpId::Add, {shift, beta});
  scale = expandBiasToMatchAxis(scale, ndim, *axis);
  shift = expandBiasToMatchAxis(shift, ndim, *axis);
  return call(OpId::Add, {call(OpId::Multiply, {data, scale}), shift});
}

/// layer_norm in inference form over one axis.
Expr unpackLayerNorm(const CallNode& ln, const TensorTypeNode& dataType) {
  const Expr& data = ln.args[0];
  const DataType dtype = dataType.dtype;
  const int64_t ndim = static_cast<int64_t>(dataType.shape.size());
  const double epsilon = static_cast<float>(callAttr(ln, "epsilon").asFloat());
  std::optional<int64_t> axis = opt_util::normalizedAxis(callAttr(ln, "axis").asInt(), ndim);
  if (!axis) throwError(ln.span, "nn.layer_norm: axis out of range for a rank-" + std::to_string(ndim) + " input", "SimplifyInference");
  AttrDict reduce = {{"axis", AttrValue::ints({*axis})}, {"keepdims", AttrValue::boolean(true)}};
  Expr mean = call(OpId::Mean, {data}, reduce);
  Expr centered = call(OpId::Subtract, {data, mean});
  // The population variance, as TVM's variance(data, mean, unbiased=False).
  Expr variance = call(OpId::Mean, {call(OpId::Multiply, {centered, centered})}, reduce);
  Expr out = call(OpId::Divide, {centered, call(OpId::Sqrt, {call(OpId::Add, {variance, scalarConstant(dtype, epsilon)})})});
  if (callAttr(ln, "scale").asBool()) out = call(OpId::Multiply, {out, expandBiasToMatchAxis(ln.args[1], ndim, *axis)});
  if (callAttr(ln, "center").asBool()) out = call(OpId::Add, {out, expandBiasToMatchAxis(ln.args[2], ndim, *axis)});
  return out;
}

/// group_norm as layer normalization over groups: the data reshaped with its
/// channel axis split into (groups, channels per group), the statistics over
/// the channels of a group and `axes`, reshaped back, then gamma and beta per
/// channel (the form of TVM's GroupNormToInferUnpack). Static shapes only.
std::optional<Expr> unpackGroupNorm(const CallNode& gn, const TensorTypeNode& dataType) {
  if (dataType.hasDynamicDim()) return std::nullopt;
  const Expr& data = gn.args[0];
  const int64_t ndim = static_cast<int64_t>(dataType.shape.size());
  const double epsilon = static_cast<float>(callAttr(gn, "epsilon").asFloat());
  std::optional<int64_t> channel = opt_util::normalizedAxis(callAttr(gn, "channel_axis").asInt(), ndim);
  const int64_t groups = callAttr(gn, "num_groups").asInt();
  if (!channel || groups <= 0) return std::nullopt;
  const size_t c = static_cast<size_t>(*channel);
  std::vector<int64_t> split;
  for (size_t d = 0; d < dataType.shape.size(); ++d) {
    if (d != c) {
      split.push_back(dataType.shape[d]);
      continue;
    }
    split.push_back(groups);
    split.push_back(dataType.shape[d] / groups);
  }
  std::vector<int64_t> axes{*channel + 1};
  for (const AttrValue& a : callAttr(gn, "axes").asArray()) {
    std::optional<int64_t> axis = opt_util::normalizedAxis(a.asInt(), ndim);
    if (!axis) return std::nullopt;
    axes.push_back(*axis < *channel ? *axis : *axis + 1);
  }
  AttrDict reduce = {{"axis", AttrValue::ints(axes)}, {"keepdims", AttrValue::boolean(true)}};
  Expr grouped = call(OpId::Reshape, {data}, {{"newshape", AttrValue::ints(split)}});
  Expr centered = call(OpId::Subtract, {grouped, call(OpId::Mean, {grouped}, reduce)});
  Expr variance = call(OpId::Mean, {call(OpId::Multiply, {centered, centered})}, reduce);
  Expr normalized = call(OpId::Divide, {centered, call(OpId::Sqrt, {call(OpId::Add, {variance, scalarConstant(dataType.dtype, epsilon)})})});
  Expr out = call(OpId::Reshape, {normalized}, {{"newshape", AttrValue::ints(dataType.shape)}});
  if (callAttr(gn, "scale").asBool()) out = call(OpId::Multiply, {out, expandBiasToMatchAxis(gn.args[1], ndim, *channel)});
  if (callAttr(gn, "center").asBool()) out = call(OpId::Add, {out, expandBiasToMatchAxis(gn.args[2], ndim, *channel)});
  return out;
}

class InferenceSimplifier final : public ExprMutator {
 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    if (const TupleGetItemNode* item = as<TupleGetItemNode>(rebuilt); item && item->index == 0) {
      if (const CallNode* bn = callTo(item->tuple, OpId::BatchNorm); bn && bn->args.size() == 5) {
        // Rewrites below keep every type, so the original call's argument types hold.
        const CallNode* originalCall = as<CallNode>(as<TupleGetItemNode>(original)->tuple);
        const TensorTypeNode* dataType = originalCall ? opt_util::tensorTypeOf(originalCall->args[0]) : nullptr;
        if (dataType) return unpackBatchNorm(*bn, *dataType);
      }
    }
    if (const CallNode* ln = callTo(rebuilt, OpId::LayerNorm); ln && ln->args.size() == 3) {
      const TensorTypeNode* dataType = opt_util::tensorTypeOf(as<CallNode>(original)->args[0]);
      if (dataType) return unpackLayerNorm(*ln, *dataType);
    }
    if (const CallNode* gn = callTo(rebuilt, OpId::GroupNorm); gn && gn->args.size() == 3) {
      const TensorTypeNode* dataType = opt_util::tensorTypeOf(as<CallNode>(original)->args[0]);
      if (dataType)
        if (std::optional<Expr> unpacked = unpackGroupNorm(*gn, *dataType)) return *unpacked;
    }
    return rebuilt;
  }
};

/// What SimplifyInference is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& simplifyInferenceDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "SimplifyInference";
    r.level = PassLevel::Function;
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Rewrites nn.batch_norm (element 0), nn.layer_norm and nn.group_norm (static shapes) in inference form into "
        "elementwise arithmetic, reductions and (group_norm) reshapes.";
    r.info.guarantees =
        "No batch_norm(...).0, no layer_norm and no group_norm of static shape remains outside skipped functions; every rewritten expression keeps its type.";
    r.create = [](const AttrDict&) { return createSimplifyInferencePass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kSimplifyInferenceRegistrar(simplifyInferenceDeclaration);

class SimplifyInferencePass final : public FunctionPass {
 public:
  const PassInfo& info() const override { return simplifyInferenceDeclaration().info; }

  Function runOnFunction(const Function& fn, const std::string& name, const IRModule& mod, PassContext& ctx) const override {
    bool hasNorm = false;
    postOrderVisit(fn, [&](const Expr& e) { hasNorm = hasNorm || callTo(e, OpId::BatchNorm) || callTo(e, OpId::LayerNorm) || callTo(e, OpId::GroupNorm); });
    if (!hasNorm) return fn;
    opt_util::ensureTyped(fn, mod);
    InferenceSimplifier simplifier;
    Expr result = simplifier.mutate(fn);
    if (result == fn) return fn;
    Function out = std::static_pointer_cast<const FunctionNode>(result);
    inferExprType(out, &mod);
    return out;
  }
};

}  // namespace

PassPtr createSimplifyInferencePass() { return std::make_shared<SimplifyInferencePass>(); }

}  // namespace passlab
