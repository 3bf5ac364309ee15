// Relax-form LegalizeOps (see legalize_relax.h): each op binding of a Relax
// function becomes a call_tir of a private block-form PrimFunc.
#include "passes/legalize_relax.h"
#include "passes/pass_util.h"
#include "passes/relax_bindings.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/structural_equal.h"
#include "core/ir/functor.h"
#include "core/ir/lowering_ops.h"
#include "core/pass/remark_rules.h"

namespace passlab {

namespace {

namespace T = tir;
using legalize_relax::KernelInput;


class RelaxLegalizer final : public ExprMutator {
 public:
  RelaxLegalizer(const IRModule& mod, std::map<std::string, Expr>& newFuncs, const RelaxLegalizeRemarks* remarks)
      : mod_(mod), newFuncs_(newFuncs), remarks_(remarks) {
    kernels_ = [this](const std::string& name) -> const PrimFuncNode* {
      auto it = newFuncs_.find(name);
      return as<PrimFuncNode>(it != newFuncs_.end() ? it->second : mod_->lookup(name));
    };
  }

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (e->kind == ExprKind::Function) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    // Typed as made (post-order: its parts are by now), so the typer after the
    // pass types the calls it could not, not the whole function again.
    Expr out = legalize(original, rebuilt);
    if (out->kind == ExprKind::Call) {
      const auto* call = static_cast<const CallNode*>(out.get());
      if (call->args.size() == 2) relax_bindings::typeIfDirect(call->args[1], kernels_);
    }
    relax_bindings::typeIfDirect(out, kernels_);
    return out;
  }

 private:
  Expr legalize(const Expr& original, const Expr& rebuilt) {
    const auto* call = as<CallNode>(rebuilt);
    const OpDef* op = call ? call->op() : nullptr;
    if (!op || isLoweringBuiltin(op->id)) return rebuilt;
    const auto* orig = static_cast<const CallNode*>(original.get());
    const std::string opName(op->name);
    const TensorTypeNode* out = pass_util::staticTensorType(original->checkedType);
    // A tuple of static tensors (nn.batch_norm) is one call_tir with several outputs.
    std::vector<const TensorTypeNode*> outs;
    if (const auto* tuple = as<TupleTypeNode>(original->checkedType); !out && tuple) {
      for (const Type& f : tuple->fields) outs.push_back(pass_util::staticTensorType(f));
      if (outs.empty() || std::find(outs.begin(), outs.end(), nullptr) != outs.end()) outs.clear();
    }
    if (!out && outs.empty()) return missed(original, rebuilt, opName + "'s result has no static tensor shape");
    // The call_tir's arguments, and what the kernel is made of besides the
    // op's attributes: each input's type (or inlined scalar) and the outputs'.
    const bool namesMatter = legalize_relax::kernelDependsOnInputNames(*call);
    std::vector<Expr> callArgs;
    std::string shape;
    for (size_t i = 0; i < call->args.size(); ++i) {
      const Expr& arg = call->args[i];
      const TensorTypeNode* t = pass_util::staticTensorType(orig->args[i]->checkedType);
      if (!t) return missed(original, rebuilt, opName + "'s argument " + std::to_string(i) + " has no static tensor shape");
      appendTensorKey(shape, *t);
      if (const auto* c = as<ConstantNode>(arg); c && t->shape.empty()) {
        const double v = c->data.getAsDouble(0);
        shape.append("=").append(reinterpret_cast<const char*>(&v), sizeof v);
        continue;
      }
      if (namesMatter) shape.append("@").append(inputName(arg, i)).push_back('\0');
      callArgs.push_back(arg);
    }
    shape.append(out ? "->" : "->(");
    if (out) appendTensorKey(shape, *out);
    for (const TensorTypeNode* t : outs) appendTensorKey(shape, *t);

    // A call the same as one legalized before (a model repeats its layers)
    // gets that kernel without building it again: building would give a
    // structurally equal PrimFunc, which addFunction would resolve to the
    // same name.
    std::vector<Made>& sameShape = made_[{op->id, std::move(shape)}];
    const Made* kernel = nullptr;
    for (const Made& m : sameShape)
      if (m.attrs == call->attrs) kernel = &m;
    const bool reused = kernel != nullptr;
    if (!kernel) {
      std::optional<Made> built = build(*call, *orig, out, outs);
      if (!built) return missed(original, rebuilt, "no Relax-form kernel for " + opName + " with these attributes");
      sameShape.push_back(std::move(*built));
      kernel = &sameShape.back();
    }
    if (remarks_)
      remarks_->ctx.remark(makeRemark(remarks_->pass, RemarkRule::LegalizeKernel, remarks_->function, {original},
                                      opName + " → call_tir(" + kernel->name + "): TVM's topi compute, output block " +
                                          kernel->outputBlock +
                                          (reused || kernel->reusedEarlier ? " (reuses the structurally equal " + kernel->name + ")" : "")));
    AttrDict callAttrs;
    if (out) {
      callAttrs.set("out_shape", AttrValue::ints(out->shape));
      callAttrs.set("out_dtype", AttrValue::string(std::string(out->dtype.name())));
    } else {
      std::vector<AttrValue> shapes, dtypes;
      for (const TensorTypeNode* t : outs) {
        shapes.push_back(AttrValue::ints(t->shape));
        dtypes.push_back(AttrValue::string(std::string(t->dtype.name())));
      }
      callAttrs.set("out_shape", AttrValue::array(std::move(shapes)));
      callAttrs.set("out_dtype", AttrValue::array(std::move(dtypes)));
    }
    return makeOpCall(OpId::CallTir, {makeGlobalVar(kernel->name), makeTuple(callArgs)}, callAttrs, orig->span);
  }

 private:
  /// A kernel made for some call: its PrimFunc's name in the module.
  struct Made {
    /// The call's attributes (part of what the kernel is made of).
    AttrDict attrs;
    std::string name;
    /// The output buffer's (and block's) name, for the remark.
    std::string outputBlock;
    /// addFunction found a structurally equal PrimFunc made before.
    bool reusedEarlier = false;
  };

  /// The name the PrimFunc gives argument `i`'s buffer: the variable's, as
  /// TVM's emit_te names its placeholders.
  static std::string inputName(const Expr& arg, size_t i) {
    if (const auto* v = as<VarNode>(arg)) return v->name;
    return "p" + std::to_string(i);
  }

  static void appendTensorKey(std::string& key, const TensorTypeNode& t) {
    key.append(t.dtype.name());
    for (int64_t d : t.shape) key.append(",").append(std::to_string(d));
    key.push_back(';');
  }

  /// Builds `call`'s kernel (types from `orig`, already known static) and adds its PrimFunc.
  std::optional<Made> build(const CallNode& call, const CallNode& orig, const TensorTypeNode* out,
                            const std::vector<const TensorTypeNode*>& outs) {
    std::vector<KernelInput> inputs;
    std::vector<T::Param> params;
    for (size_t i = 0; i < call.args.size(); ++i) {
      const Expr& arg = call.args[i];
      const TensorTypeNode* t = pass_util::staticTensorType(orig.args[i]->checkedType);
      if (const auto* c = as<ConstantNode>(arg); c && t->shape.empty()) {
        double v = c->data.getAsDouble(0);
        inputs.push_back({nullptr, t->dtype.isFloat() ? T::floatImm(t->dtype, v) : T::intImm(t->dtype, static_cast<int64_t>(v))});
        continue;
      }
      std::string name = inputName(arg, i);
      T::Buffer b = T::makeBuffer(name, t->dtype, t->shape);
      inputs.push_back({b, nullptr});
      params.push_back({T::makeVar(name, t->dtype), b});
    }
    std::optional<legalize_relax::Kernel> kernel;
    std::vector<T::Buffer> moreOutputs;
    if (out) {
      kernel = legalize_relax::buildKernel(call, inputs, *out);
    } else if (std::optional<legalize_relax::TupleKernel> t = legalize_relax::buildTupleKernel(call, inputs, outs)) {
      kernel = std::move(t->kernel);
      moreOutputs = std::move(t->moreOutputs);
    }
    if (!kernel) return std::nullopt;
    params.push_back({T::makeVar(kernel->output->name, kernel->output->dtype), kernel->output});
    for (const T::Buffer& b : moreOutputs) params.push_back({T::makeVar(b->name, b->dtype), b});
    AttrDict attrs;
    attrs.set("tir.noalias", AttrValue::boolean(true));
    const size_t before = newFuncs_.size();
    Made made;
    made.attrs = call.attrs;
    made.name = addFunction(kernel->name, makePrimFunc(std::move(params), kernel->body, std::move(attrs)));
    made.outputBlock = kernel->output->name;
    made.reusedEarlier = newFuncs_.size() == before;
    return made;
  }

  /// `original` left as it is (the Relay-form lowering takes it), with a remark saying why.
  Expr missed(const Expr& original, const Expr& rebuilt, const std::string& why) {
    if (remarks_)
      remarks_->ctx.remark(makeRemark(remarks_->pass, RemarkRule::LegalizeMissing, remarks_->function, {original},
                                      why + "; passlab's Relay-form lowering takes it instead of TVM's block form"));
    return rebuilt;
  }

  /// TVM's BlockBuilder: a PrimFunc structurally equal to one already added is
  /// that one; otherwise the name hint, made unique with 1, 2, ...
  std::string addFunction(const std::string& hint, const PrimFunc& fn) {
    const size_t hash = structuralHash(fn);
    auto [first, last] = byHash_.equal_range(hash);
    for (auto it = first; it != last; ++it)
      if (structuralEqual(newFuncs_.at(it->second), fn)) return it->second;
    // Names are only ever added, so the suffixes tried before for this hint
    // are still taken: start after them (a model adds hundreds of "add"s).
    std::string name = hint;
    int& k = nextSuffix_[hint];
    if (k > 0) name = hint + std::to_string(k);
    for (k = std::max(k, 1); mod_->lookup(name) || newFuncs_.count(name); ++k) name = hint + std::to_string(k);
    newFuncs_[name] = fn;
    byHash_.emplace(hash, name);
    return name;
  }

  IRModule mod_;
  std::map<std::string, Expr>& newFuncs_;
  /// The kernels by name, new or the module's (types what rewrite makes).
  relax_bindings::PrimFuncLookup kernels_;
  /// The PrimFuncs made here by structural hash (a model repeats its kernels).
  std::unordered_multimap<size_t, std::string> byHash_;
  /// Per name hint: the suffix addFunction tries first.
  std::unordered_map<std::string, int> nextSuffix_;
  /// The kernels made, by op and by the types (and, where they matter, the
  /// names) of inputs and outputs.
  std::map<std::pair<OpId, std::string>, std::vector<Made>> made_;
  const RelaxLegalizeRemarks* remarks_;
};

}  // namespace

bool isRelaxModule(const IRModule& mod) {
  // A public Relax function carries its global_symbol (TVMScript's R.function);
  // a Relay module's only such functions are external ones (PartitionGraph's
  // Compiler functions, Extern stubs), which say so.
  for (const auto& [name, fn] : mod->functions)
    if (const auto* f = as<FunctionNode>(fn);
        f && f->attrs.contains(fn_attr::kGlobalSymbol) && !f->attrs.contains(fn_attr::kCompiler) &&
        !f->attrs.contains(fn_attr::kExtern))
      return true;
  return false;
}

bool legalizeInRelaxForm(const IRModule& mod, const FunctionNode& fn) {
  if (!isRelaxModule(mod)) return false;
  bool inner = false;
  postOrderVisit(fn.body, [&](const Expr& e) { inner = inner || e->kind == ExprKind::Function; });
  return !inner;
}

Expr legalizeRelaxBody(const Expr& body, const IRModule& mod, std::map<std::string, Expr>& newFuncs, const RelaxLegalizeRemarks* remarks) {
  RelaxLegalizer legalizer(mod, newFuncs, remarks);
  return legalizer.mutate(body);
}

}  // namespace passlab
