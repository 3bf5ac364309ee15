#include "passes/remove_purity_checking.h"

#include "core/analysis/well_formed.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/legalize_relax.h"

namespace passlab {

namespace {

/// The arguments a closure receives from invoke_pure_closure's tuple operand.
std::vector<Expr> closureArgs(const Expr& packed, const Span& at) {
  if (const auto* tuple = as<TupleNode>(packed)) return tuple->fields;
  const auto* type = packed ? as<TupleTypeNode>(packed->checkedType) : nullptr;
  if (!type)
    throwError(at, "invoke_pure_closure: the argument tuple's arity is unknown (run InferType first)",
               "purity.unknown-arity");
  std::vector<Expr> out;
  for (size_t i = 0; i < type->fields.size(); ++i) {
    out.push_back(makeTupleGetItem(packed, static_cast<int>(i), at));
    out.back()->checkedType = type->fields[i];
  }
  return out;
}

/// Rewrites the pure wrappers into the impure calls they wrap.
class Unwrapper final : public ExprMutator {
 public:
  /// On a Relax module, a call_pure_packed of a function the module does not
  /// define becomes TVM's R.call_packed of it (with the same result type).
  Unwrapper(const IRModule& mod, bool relax) : mod_(mod), relax_(relax) {}

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    const auto* call = as<CallNode>(rebuilt);
    const OpDef* op = call ? call->op() : nullptr;
    if (!op || call->args.empty()) return rebuilt;
    Expr out;
    if (op->id == OpId::CallPurePacked) {
      const auto* g = as<GlobalVarNode>(call->args[0]);
      std::vector<Expr> rest(call->args.begin() + 1, call->args.end());
      if (relax_ && g && !mod_->lookup(g->name)) {
        AttrDict attrs;
        attrs.set("func_name", AttrValue::string(g->name));
        for (const char* key : {"out_shape", "out_dtype"})
          if (const AttrValue* v = call->attrs.find(key)) attrs.set(key, *v);
        out = makeOpCall(OpId::RelaxCallPacked, std::move(rest), attrs, call->span);
      } else {
        out = makeCall(call->args[0], std::move(rest), {}, call->span);
      }
    } else if (op->id == OpId::InvokePureClosure && call->args.size() == 2) {
      out = makeCall(call->args[0], closureArgs(call->args[1], call->span), {}, call->span);
    } else {
      return rebuilt;
    }
    out->checkedType = original->checkedType;
    return out;
  }

 private:
  const IRModule& mod_;
  bool relax_;
};

/// What RemovePurityChecking is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& removePurityCheckingDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "RemovePurityChecking";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Lowering};
    r.info.description =
        "Marks every function not marked impure (is_pure=0) force-pure (force_pure=1; on a Relax module TVM's "
        "relax.force_pure=True) and unwraps call_pure_packed / "
        "invoke_pure_closure into plain calls.";
    r.info.guarantees = "Every graph-level function outside skipped ones is impure or force-pure; no purity wrapper remains.";
    r.create = [](const AttrDict&) { return createRemovePurityCheckingPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kRemovePurityCheckingRegistrar(removePurityCheckingDeclaration);

class RemovePurityCheckingPass final : public Pass {
 public:
  const PassInfo& info() const override { return removePurityCheckingDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    std::map<std::string, Expr> functions = mod->functions;
    bool changed = false;
    // A Relax module gets TVM's own attribute, as its TVMScript shows it.
    const bool relax = isRelaxModule(mod);
    for (auto& [name, fn] : functions) {
      const auto* node = as<FunctionNode>(fn);
      if (!node) continue;
      if (std::optional<std::string> reason = defaultFunctionSkipReason(*node)) {
        ctx.notifySkip({info().name, name, *reason});
        continue;
      }
      // A read-only walk finds whether there is anything to unwrap: most bodies
      // (every one after LegalizeOps) have none, and rewriting costs a memo entry per node.
      bool wrapped = false;
      postOrderVisit(node->body, [&](const Expr& e) {
        const auto* call = as<CallNode>(e);
        const OpDef* op = call ? call->op() : nullptr;
        wrapped = wrapped || (op && !call->args.empty() && (op->id == OpId::CallPurePacked || op->id == OpId::InvokePureClosure));
      });
      Expr body = node->body;
      if (wrapped) body = Unwrapper(mod, relax).mutate(node->body);
      AttrDict attrs = node->attrs;
      bool impure = attrs.contains(fn_attr::kIsPure) && attrs.getInt(fn_attr::kIsPure, 1) == 0;
      if (!impure && !isForcePure(attrs)) {
        if (relax) attrs.set(fn_attr::kRelaxForcePure, AttrValue::boolean(true));
        else attrs.set(fn_attr::kForcePure, AttrValue::integer(1));
      }
      if (body == node->body && attrs == node->attrs) continue;
      Expr rebuilt = makeFunction(node->params, body, node->retType, std::move(attrs), node->span);
      rebuilt->checkedType = node->checkedType;
      fn = std::move(rebuilt);
      changed = true;
    }
    return changed ? makeModule(std::move(functions), mod->attrs) : mod;
  }
};

}  // namespace

PassPtr createRemovePurityCheckingPass() { return std::make_shared<RemovePurityCheckingPass>(); }

}  // namespace passlab
