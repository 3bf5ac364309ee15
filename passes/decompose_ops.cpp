// DecomposeOpsForInference (see decompose_ops.h).
#include "passes/decompose_ops.h"

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "passes/legalize_relax.h"
#include "passes/normalize.h"
#include "passes/opt_util.h"
#include "core/pass/registry.h"

namespace passlab {

namespace {

using opt_util::callAttr;

Expr call(OpId op, std::vector<Expr> args, const AttrDict& attrs = {}) { return makeOpCall(op, std::move(args), attrs); }

/// A 1-d parameter shaped to broadcast along `axis` of a rank-`ndim` tensor.
Expr alongAxis(const Expr& param, int64_t ndim, int64_t axis) {
  const TensorTypeNode* t = opt_util::tensorTypeOf(param);
  if (!t || t->shape.size() != 1) return param;
  std::vector<int64_t> shape(static_cast<size_t>(ndim), 1);
  shape[static_cast<size_t>(axis)] = t->shape[0];
  return call(OpId::Reshape, {param}, {{"newshape", AttrValue::ints(shape)}});
}

class Decomposer final : public ExprMutator {
 public:
  bool changed = false;

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (e->kind == ExprKind::Function) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    const CallNode* bn = opt_util::callTo(rebuilt, OpId::BatchNorm);
    if (!bn || bn->args.size() != 5) return rebuilt;
    const TensorTypeNode* data = opt_util::tensorTypeOf(as<CallNode>(original)->args[0]);
    if (!data || data->hasDynamicDim()) return rebuilt;
    const int64_t ndim = static_cast<int64_t>(data->shape.size());
    std::optional<int64_t> axis = opt_util::normalizedAxis(callAttr(*bn, "axis").asInt(), ndim);
    if (!axis) throwError(bn->span, "nn.batch_norm: axis out of range for a rank-" + std::to_string(ndim) + " input", "DecomposeOpsForInference");
    const double epsilon = static_cast<float>(callAttr(*bn, "epsilon").asFloat());
    Expr out = call(OpId::Divide, {call(OpId::Subtract, {bn->args[0], alongAxis(bn->args[3], ndim, *axis)}),
                                   call(OpId::Sqrt, {call(OpId::Add, {alongAxis(bn->args[4], ndim, *axis),
                                                                      opt_util::scalarConstant(data->dtype, epsilon)})})});
    if (callAttr(*bn, "scale").asBool()) out = call(OpId::Multiply, {out, alongAxis(bn->args[1], ndim, *axis)});
    if (callAttr(*bn, "center").asBool()) out = call(OpId::Add, {out, alongAxis(bn->args[2], ndim, *axis)});
    changed = true;
    return makeTuple({out, bn->args[3], bn->args[4]}, bn->span);
  }
};

/// What DecomposeOpsForInference is (its entry in the registry and in docs/passes.md).
const PassRegistration& decomposeOpsDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "DecomposeOpsForInference";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Rewrites nn.batch_norm into its inference arithmetic, (x - mean) / sqrt(var + epsilon) * gamma + beta with the "
        "parameters reshaped along the axis, and the tuple (out, mean, var) in its place (TVM's pass of that name).";
    r.info.guarantees = "No nn.batch_norm remains outside skipped functions; Relax functions stay in normal form.";
    r.create = [](const AttrDict&) { return createDecomposeOpsForInferencePass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kDecomposeOpsRegistrar(decomposeOpsDeclaration);

class DecomposeOpsForInferencePass final : public Pass {
 public:
  const PassInfo& info() const override { return decomposeOpsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    const std::string& name = info().name;
    bool any = false;
    IRModule out = opt_util::mapFunctions(mod, ctx, name, [&](const Function& fn, const std::string&) -> Function {
      bool has = false;
      postOrderVisit(fn, [&](const Expr& e) { has = has || opt_util::callTo(e, OpId::BatchNorm); });
      if (!has) return fn;
      opt_util::ensureTyped(fn, mod);
      Decomposer d;
      Expr body = d.mutate(fn->body);
      if (!d.changed) return fn;
      any = true;
      return makeFunction(fn->params, body, fn->retType, fn->attrs, fn->span);
    });
    if (!any) return mod;
    out = inferTypes(out);
    // TVM's BlockBuilder binds every step; the Relax form keeps that normal form.
    if (isRelaxModule(out)) out = createNormalizePass()->run(out, ctx);
    return out;
  }
};

}  // namespace

PassPtr createDecomposeOpsForInferencePass() { return std::make_shared<DecomposeOpsForInferencePass>(); }

}  // namespace passlab
