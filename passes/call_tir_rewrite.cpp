// CallTIRRewrite (see call_tir_rewrite.h).
#include "passes/call_tir_rewrite.h"

#include "core/analysis/type_infer.h"
#include "core/ir/diagnostic.h"
#include "core/ir/call_tir.h"
#include "core/ir/shape_attr.h"
#include "passes/opt_util.h"
#include "core/pass/registry.h"
#include "passes/relax_bindings.h"

namespace passlab {

namespace {

using relax_bindings::FlatBinding;
using relax_bindings::FlatBody;

const CallNode* dpsCall(const Expr& e) {
  const auto* c = as<CallNode>(e);
  const OpDef* op = c ? c->op() : nullptr;
  return op && (op->id == OpId::CallTir || op->id == OpId::CallDpsPacked) ? c : nullptr;
}

bool hasDpsCall(const FlatBody& body) {
  if (dpsCall(body.result)) return true;
  for (const FlatBinding& b : body.bindings)
    if (dpsCall(b.value)) return true;
  return false;
}

class Rewriter {
 public:
  Rewriter(std::vector<FlatBinding>& out, relax_bindings::NameSupply& names) : out_(out), names_(names) {}

  /// Emits the allocations and the call for `call`; returns the value `where`'s variable is bound to.
  Expr rewrite(const FlatBinding& where, const CallNode& call) {
    Type outType = call.checkedType;
    if (!outType) throwError(call.span, "CallTIRRewrite: the call has no type (run InferType first)", "lower.untyped");
    const OpDef& op = *call.op();
    std::vector<Expr> args;
    if (const auto* tuple = as<TupleNode>(call.args[1])) args = tuple->fields;
    else args.push_back(call.args[1]);
    // call_tir_inplace (TVM's rewrite): an output with an in-place index is
    // that argument, only the -1 outputs are allocated and passed.
    std::vector<int64_t> inplace = inplaceIndices(call);
    if (!inplace.empty()) {
      if (as<TupleTypeNode>(outType))
        for (const Type& f : as<TupleTypeNode>(outType)->fields)
          if (as<TupleTypeNode>(f))
            throwError(call.span, "CallTIRRewrite: call_tir_inplace does not support nested tuple outputs", "lower.out-type");
    }
    std::vector<Expr> outs;
    allocate(where, call, outType, outs, inplace, args);
    for (size_t i = 0; i < outs.size(); ++i)
      if (inplace.empty() || (i < inplace.size() && inplace[i] == -1)) args.push_back(outs[i]);
    // tir_vars go to the PrimFunc's trailing scalar parameters. TVM (0.25)
    // emits R.call_tir_dyn, which unpacks the shape at run time; passlab has
    // no call_tir_dyn, so it passes known values as int64 scalar constants and refuses
    // symbolic ones (BindSymbolicVars makes them known).
    if (const AttrValue* vars = call.attrs.find("tir_vars"); vars && vars->kind() == AttrValue::Kind::Array) {
      for (const AttrValue& v : vars->asArray()) {
        if (v.kind() != AttrValue::Kind::Int)
          throwError(call.span, "CallTIRRewrite: tir_vars value " + v.toString() + " is symbolic; passlab has no call_tir_dyn "
                     "to pass it at run time (bind the shape variables first: BindSymbolicVars)", "lower.dynamic-shape");
        // An int64 scalar: what a PrimFunc's scalar parameter takes from graph level.
        args.push_back(makeConstant(NDArray::scalar(DTypeCode::Int64, static_cast<double>(v.asInt())), call.span));
      }
    }
    Expr invoke;
    Type invokeType;
    if (op.id == OpId::CallTir) {
      invoke = makeCall(call.args[0], std::move(args), {}, call.span);
      invokeType = unitType();
    } else {
      const auto* g = as<GlobalVarNode>(call.args[0]);
      if (!g) throwError(call.span, "CallTIRRewrite: call_dps_packed must name its packed function", "lower.dps-callee");
      AttrDict attrs;
      attrs.set("func_name", AttrValue::string(g->name));
      invoke = makeOpCall(OpId::RelaxCallPacked, std::move(args), attrs, call.span);
      invokeType = objectType();
    }
    out_.push_back(relax_bindings::bindingLike(where, names_, "_", invokeType, invoke));
    size_t index = 0;
    return rebuildOutput(outType, outs, index);
  }

 private:
  void allocate(const FlatBinding& where, const CallNode& call, const Type& t, std::vector<Expr>& outs,
                const std::vector<int64_t>& inplace, const std::vector<Expr>& args) {
    if (const auto* tup = as<TupleTypeNode>(t)) {
      for (const Type& f : tup->fields) allocate(where, call, f, outs, inplace, args);
      return;
    }
    size_t i = outs.size();
    if (i < inplace.size() && inplace[i] >= 0 && inplace[i] < static_cast<int64_t>(args.size())) {
      outs.push_back(args[inplace[i]]);
      return;
    }
    const auto* tt = as<TensorTypeNode>(t);
    if (!tt) throwError(call.span, "CallTIRRewrite: an output of type " + typeToString(t) + " is not a tensor", "lower.out-type");
    bool unknown = false;
    for (size_t d = 0; d < tt->shape.size(); ++d) unknown = unknown || (tt->shape[d] == kDynamicDim && !tt->symbolicDim(d));
    if (unknown)
      throwError(call.span, "CallTIRRewrite: output " + typeToString(t) + " has an unknown dimension (?); TVM allocates "
                 "static or symbolic shapes only", "lower.dynamic-shape");
    AttrDict attrs;
    // A symbolic output is allocated with its dims (R.shape([n, 8])), as TVM does.
    attrs.set("shape", tt->hasSymbolicDim() ? shape::toAttrList(shape::dimsOf(*tt)) : AttrValue::ints(tt->shape));
    attrs.set("dtype", AttrValue::string(std::string(tt->dtype.name())));
    attrs.set("runtime_device_index", AttrValue::integer(0));
    attrs.set("storage_scope", AttrValue::string("global"));
    FlatBinding b = relax_bindings::bindingLike(where, names_, "alloc", t, makeOpCall(OpId::BuiltinAllocTensor, {}, attrs, call.span));
    outs.push_back(b.var);
    out_.push_back(std::move(b));
  }

  Expr rebuildOutput(const Type& t, const std::vector<Expr>& outs, size_t& index) {
    if (const auto* tup = as<TupleTypeNode>(t)) {
      std::vector<Expr> fields;
      for (const Type& f : tup->fields) fields.push_back(rebuildOutput(f, outs, index));
      return makeTuple(std::move(fields));
    }
    return outs[index++];
  }

  std::vector<FlatBinding>& out_;
  relax_bindings::NameSupply& names_;
};

Function rewriteFunction(const Function& fn, const IRModule& mod, relax_bindings::NameSupply& names) {
  FlatBody body = relax_bindings::flatten(fn->body);
  if (!hasDpsCall(body)) return fn;
  FlatBody out;
  Rewriter rw(out.bindings, names);
  for (const FlatBinding& b : body.bindings) {
    const CallNode* call = dpsCall(b.value);
    if (!call) {
      out.bindings.push_back(b);
      continue;
    }
    FlatBinding rebound = b;
    rebound.value = rw.rewrite(b, *call);
    out.bindings.push_back(std::move(rebound));
  }
  out.result = body.result;
  if (const CallNode* call = dpsCall(body.result)) {
    FlatBinding where;
    where.block = body.bindings.empty() ? 1 : body.bindings.back().block;
    FlatBinding gv = relax_bindings::bindingLike(where, names, "gv", call->checkedType, nullptr);
    gv.value = rw.rewrite(gv, *call);
    out.result = gv.var;
    out.bindings.push_back(std::move(gv));
  }
  // The kernels it calls are the module's, unchanged.
  return makeFunction(fn->params, relax_bindings::rebuild(out, &mod), fn->retType, fn->attrs, fn->span);
}

/// What CallTIRRewrite is: its entry in the registry and in docs/passes.md.
const PassRegistration& callTirRewriteDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "CallTIRRewrite";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Lowering};
    r.info.description =
        "Gives every call_tir / call_tir_inplace / call_dps_packed its outputs explicitly: R.builtin.alloc_tensor per "
        "output tensor (call_tir_inplace: per -1 output; the others are their arguments), then a call of the PrimFunc "
        "(or R.call_packed) with inputs and outputs; the binding reads the allocation(s).";
    r.info.guarantees = "No call_tir, call_tir_inplace or call_dps_packed remains in Relax functions outside skipped ones.";
    r.create = [](const AttrDict&) { return createCallTIRRewritePass(); };
        return r;
  }();
  return declaration;
}

const PassRegistrar kCallTirRewriteRegistrar(callTirRewriteDeclaration);

class CallTIRRewritePass final : public Pass {
 public:
  const PassInfo& info() const override { return callTirRewriteDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    relax_bindings::NameSupply names;  // one per run, as TVM's BlockBuilder has
    IRModule out = opt_util::mapFunctions(mod, ctx, info().name, [&](const Function& f, const std::string&) {
      opt_util::ensureTyped(f, mod);
      return rewriteFunction(f, mod, names);
    });
    return out == mod ? mod : inferTypes(out);
  }
};

}  // namespace

PassPtr createCallTIRRewritePass() { return std::make_shared<CallTIRRewritePass>(); }

}  // namespace passlab
