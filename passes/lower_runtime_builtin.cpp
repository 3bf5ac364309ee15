// LowerRuntimeBuiltin (see lower_runtime_builtin.h).
#include "passes/lower_runtime_builtin.h"

#include <algorithm>

#include "core/analysis/type_infer.h"
#include "core/ir/diagnostic.h"
#include "core/ir/functor.h"
#include "passes/opt_util.h"
#include "passes/relax_bindings.h"
#include "core/pass/registry.h"

namespace passlab {

namespace {

class Lowerer final : public ExprMutator {
 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    // Typed as made (post-order: its parts are by now), so the typer after the pass skips it.
    Expr out = lower(original, rebuilt);
    relax_bindings::typeIfDirect(out);
    return out;
  }

 private:
  Expr lower(const Expr& original, const Expr& rebuilt) {
    const auto* call = as<CallNode>(rebuilt);
    const OpDef* op = call ? call->op() : nullptr;
    if (!op) return rebuilt;
    auto attr = [&](std::string_view key) { return opt_util::callAttr(*call, key); };
    switch (op->id) {
      case OpId::BuiltinAllocTensor:
        throwError(call->span,
                   "LowerRuntimeBuiltin: R.builtin.alloc_tensor should have been lowered earlier by LowerAllocTensor",
                   "lower.alloc-tensor");
      case OpId::RelaxMemAllocStorage: {
        AttrDict a;
        a.set("size", attr("size"));
        a.set("runtime_device_index", attr("virtual_device_index"));
        a.set("dtype", AttrValue::string("uint8"));
        a.set("storage_scope", attr("storage_scope"));
        return makeOpCall(OpId::RelaxVmAllocStorage, {}, a, call->span);
      }
      case OpId::RelaxMemAllocTensor: return makeOpCall(OpId::RelaxVmAllocTensor, call->args, call->attrs, call->span);
      case OpId::RelaxMemKillStorage:
      case OpId::RelaxMemKillTensor: return makeOpCall(OpId::RelaxVmKillObject, call->args, {}, call->span);
      case OpId::Reshape: {
        const auto* tt = as<TensorTypeNode>(original->checkedType);
        if (!tt || tt->hasDynamicDim())
          throwError(call->span, "LowerRuntimeBuiltin: R.reshape to a shape that is not static is not supported yet",
                     "lower.reshape");
        AttrDict shape;
        shape.set("values", AttrValue::ints(tt->shape));
        AttrDict a;
        a.set("func_name", AttrValue::string("vm.builtin.reshape"));
        a.set("out_shape", AttrValue::ints(tt->shape));
        a.set("out_dtype", AttrValue::string(std::string(tt->dtype.name())));
        Expr shapeExpr = makeOpCall(OpId::RelaxShapeExpr, {}, shape);
        relax_bindings::typeIfDirect(shapeExpr);
        return makeOpCall(OpId::RelaxCallPacked, {call->args[0], shapeExpr}, a, call->span);
      }
      default: return rebuilt;
    }
  }
};

/// What LowerRuntimeBuiltin is: its entry in the registry and in docs/passes.md.
const PassRegistration& lowerRuntimeBuiltinDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "LowerRuntimeBuiltin";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Lowering};
    r.info.phaseAfter = Phase::Build;
    r.info.description =
        "TVM's LowerRuntimeBuiltin (formerly VMBuiltinLower) on Relax's memory ops: R.memory.* become R.vm.alloc_storage "
        "/ alloc_tensor / kill_object and R.reshape becomes R.call_packed(\"vm.builtin.reshape\"). Moves the module from "
        "phase 2 to phase 3. passlab's VMBuiltinLower is the one-step lowering `build` consumes.";
    r.info.guarantees = "No R.memory.* op and no R.reshape remains in Relax functions outside skipped ones; phase 3.";
    r.create = [](const AttrDict&) { return createLowerRuntimeBuiltinPass(); };
        return r;
  }();
  return declaration;
}

const PassRegistrar kLowerRuntimeBuiltinRegistrar(lowerRuntimeBuiltinDeclaration);

class LowerRuntimeBuiltinPass final : public Pass {
 public:
  const PassInfo& info() const override { return lowerRuntimeBuiltinDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    IRModule out = opt_util::mapFunctions(mod, ctx, info().name, [&](const Function& f, const std::string&) {
      opt_util::ensureTyped(f, mod);
      Lowerer lower;
      Expr body = lower.mutate(f->body);
      if (body == f->body) return f;
      return makeFunction(f->params, body, f->retType, f->attrs, f->span);
    });
    if (out != mod) out = inferTypes(out);
    AttrDict attrs = out->attrs;
    // A forced out-of-phase run never moves the module back to an earlier phase.
    attrs.set(module_attr::kPhase, AttrValue::integer(std::max<int64_t>(out->phase(), 3)));
    return makeModule(out->functions, std::move(attrs));
  }
};

}  // namespace

PassPtr createLowerRuntimeBuiltinPass() { return std::make_shared<LowerRuntimeBuiltinPass>(); }

}  // namespace passlab
