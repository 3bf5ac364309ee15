#include "passes/to_mixed_precision.h"

#include <map>
#include <unordered_set>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "core/trace/remark_nodes.h"
#include "core/pass/remark_rules.h"
#include "passes/legalize_relax.h"
#include "passes/opt_util.h"
#include "passes/to_mixed_precision_relax.h"

namespace passlab {

MixedPrecisionCategory mixedPrecisionCategory(OpId op) {
  switch (op) {
    // Compute-heavy ops with good float16 kernels.
    case OpId::Conv2D:
    case OpId::Conv2DTranspose:
    case OpId::Dense:
    case OpId::Matmul:
    case OpId::BatchMatmul: return MixedPrecisionCategory::Always;
    // Ops that add or move data, simple arithmetic and activations that saturate,
    // pooling; TVM's follow list plus negative, abs, equal and layout_transform,
    // which only move or compare values.
    case OpId::Pad:
    case OpId::Concatenate:
    case OpId::Zeros:
    case OpId::Split:
    case OpId::Squeeze:
    case OpId::Transpose:
    case OpId::ExpandDims:
    case OpId::Reshape:
    case OpId::StridedSlice:
    case OpId::Take:
    case OpId::Where:
    case OpId::Full:
    case OpId::Less:
    case OpId::Greater:
    case OpId::Equal:
    case OpId::Cast:
    case OpId::Add:
    case OpId::Subtract:
    case OpId::Multiply:
    case OpId::Divide:
    case OpId::BiasAdd:
    case OpId::BatchNorm:
    case OpId::Sqrt:
    case OpId::ShapeOf:
    case OpId::Max:
    case OpId::Min:
    case OpId::Maximum:
    case OpId::Minimum:
    case OpId::Negative:
    case OpId::Abs:
    case OpId::Relu:
    case OpId::LeakyRelu:
    case OpId::Sigmoid:
    case OpId::Tanh:
    case OpId::Clip:
    case OpId::MaxPool2D:
    case OpId::AvgPool2D:
    case OpId::Resize2D:
    case OpId::LayoutTransform: return MixedPrecisionCategory::Follow;
    // exp, power, softmax, erf, global_avg_pool2d, sum, mean, layer_norm, ... and
    // every op in no list: |f(x)| >> |x| or long summations.
    default: return MixedPrecisionCategory::Never;
  }
}

namespace {

using opt_util::tensorTypeOf;

bool hasOutDtype(const OpDef& op) {
  for (const AttrField& f : op.attrs)
    if (f.name == "out_dtype") return true;
  return false;
}

/// Rewrites one function's expressions; see the header for the rules.
class MixedPrecisionRewriter final : public ExprMutator {
 public:
  MixedPrecisionRewriter(DataType mixed, DataType accumulation, const FunctionNode* top, bool keepTopResult)
      : mixed_(mixed), accumulation_(accumulation), top_(top), keepTopResult_(keepTopResult) {}
  /// Records a remark per float op call of `function` in `ctx` (remarks on).
  void explainInto(PassContext& ctx, const std::string& pass, const std::string& function) {
    ctx_ = &ctx;
    pass_ = &pass;
    function_ = function;
  }

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    Expr out = convert(original, rebuilt);
    if (!out->checkedType) out->checkedType = original->checkedType;
    noteConstantValued(out);
    return out;
  }

 private:
  /// Remembers whether `e` computes from constants only (a constant, or a pure
  /// op call on such values): those follow the other arguments like constants.
  void noteConstantValued(const Expr& e) {
    bool constant = e->kind == ExprKind::Constant;
    if (const CallNode* c = opt_util::callTo(e, OpId::ShapeOf); c && tensorTypeOf(c->args[0]) &&
                                                            !tensorTypeOf(c->args[0])->hasDynamicDim()) {
      constant = true;  // its value is the static shape
    } else if (const CallNode* c = as<CallNode>(e); c && c->op() && !c->op()->stateful && !c->args.empty()) {
      constant = true;
      for (const Expr& a : c->args) constant = constant && constantValued_.count(a.get());
    } else if (const TupleNode* t = as<TupleNode>(e)) {
      constant = true;
      for (const Expr& f : t->fields) constant = constant && constantValued_.count(f.get());
    }
    if (constant) constantValued_.insert(e.get());
  }

  Expr convert(const Expr& original, const Expr& rebuilt) {
    switch (rebuilt->kind) {
      case ExprKind::Call: return convertCall(original, as<CallNode>(rebuilt));
      case ExprKind::Tuple: {
        if (rebuilt == original) return rebuilt;
        std::vector<Type> types;
        for (const Expr& f : as<TupleNode>(rebuilt)->fields) types.push_back(f->checkedType);
        rebuilt->checkedType = tupleType(std::move(types));
        return rebuilt;
      }
      case ExprKind::TupleGetItem: {
        if (rebuilt == original) return rebuilt;
        const TupleGetItemNode* item = as<TupleGetItemNode>(rebuilt);
        if (const TupleTypeNode* t = as<TupleTypeNode>(item->tuple->checkedType))
          if (item->index >= 0 && static_cast<size_t>(item->index) < t->fields.size())
            rebuilt->checkedType = t->fields[static_cast<size_t>(item->index)];
        return rebuilt;
      }
      case ExprKind::Let: {
        // The variable keeps its type, so the bound value is brought back to it.
        const LetNode* let = as<LetNode>(rebuilt);
        Expr value = restore(let->value, as<LetNode>(original)->value->checkedType);
        Expr out = value == let->value ? rebuilt : makeLet(let->var, value, let->body, let->span);
        out->checkedType = let->body->checkedType;
        return out;
      }
      case ExprKind::If: {
        const IfNode* i = as<IfNode>(rebuilt);
        const IfNode* o = as<IfNode>(original);
        Expr cond = restore(i->cond, o->cond->checkedType);
        Expr thenBranch = restore(i->thenBranch, original->checkedType);
        Expr elseBranch = restore(i->elseBranch, original->checkedType);
        if (cond == i->cond && thenBranch == i->thenBranch && elseBranch == i->elseBranch) return rebuilt;
        return makeIf(cond, thenBranch, elseBranch, i->span);
      }
      case ExprKind::Function: return convertFunction(original, as<FunctionNode>(rebuilt));
      case ExprKind::Dataflow: {
        const DataflowNode* d = as<DataflowNode>(rebuilt);
        const DataflowNode* o = as<DataflowNode>(original);
        std::vector<Binding> bindings = d->bindings;
        bool changed = false;
        for (size_t i = 0; i < bindings.size(); ++i) {
          Expr v = restore(bindings[i].value, o->bindings[i].value->checkedType);
          changed = changed || v != bindings[i].value;
          bindings[i].value = v;
        }
        Expr out = changed ? makeDataflow(std::move(bindings), d->body, d->span) : rebuilt;
        out->checkedType = d->body->checkedType;
        return out;
      }
      default: return rebuilt;
    }
  }

  Expr convertFunction(const Expr& original, const FunctionNode* fn) {
    const bool isTop = original.get() == top_;
    const Type& originalBody = as<FunctionNode>(original)->body->checkedType;
    Expr body = isTop && !keepTopResult_ ? fn->body : restore(fn->body, originalBody);
    if (body == as<FunctionNode>(original)->body) return original;
    Type ret = isTop ? body->checkedType : fn->retType;
    Function out = makeFunction(fn->params, body, ret, fn->attrs, fn->span);
    std::vector<Type> params;
    for (const Var& p : fn->params) params.push_back(p->checkedType ? p->checkedType : p->annotation);
    out->checkedType = funcType(std::move(params), body->checkedType);
    return out;
  }

  Expr convertCall(const Expr& original, const CallNode* call) {
    const CallNode* originalCall = as<CallNode>(original);
    const OpDef* op = call->op();
    std::vector<Expr> args = call->args;
    if (!op) {
      // Another function's parameters keep their types.
      for (size_t i = 0; i < args.size(); ++i) args[i] = restore(args[i], originalCall->args[i]->checkedType);
      return rebuildCall(original, call, std::move(args), call->attrs, false);
    }
    MixedPrecisionCategory category = mixedPrecisionCategory(op->id);
    const TensorTypeNode* result = tensorTypeOf(original);
    const bool notFloat32 = category == MixedPrecisionCategory::Always && !(result && result->dtype == DTypeCode::Float32);
    if (notFloat32) category = MixedPrecisionCategory::Never;  // only float32 computations are converted
    bool reduced = false;
    std::string keptInput;  // a FOLLOW op's first input not in the reduced type (remarks)
    if (category == MixedPrecisionCategory::Follow) {
      bool anyReduced = false, allReduced = true;
      for (const Expr& a : args) forEachFloatValue(a, [&](const Expr& v, DataType dt) {
          if (constantValued_.count(v.get())) return;  // constants and constant expressions follow the others
          anyReduced = anyReduced || dt == mixed_;
          allReduced = allReduced && dt == mixed_;
          if (dt != mixed_ && keptInput.empty() && ctx_) keptInput = describeNode(v) + " is " + std::string(dt.name());
        });
      reduced = anyReduced && allReduced;
      if (!anyReduced && keptInput.empty() && ctx_) keptInput = "no input is " + std::string(mixed_.name());
    } else if (category == MixedPrecisionCategory::Always) {
      reduced = true;
    }
    if (ctx_ && result && result->dtype.isFloat()) explainCall(original, *op, category, reduced, notFloat32, keptInput, *result);
    AttrDict attrs = call->attrs;
    bool widen = false;
    if (reduced) {
      for (Expr& a : args) a = toType(a, mixed_);
      if (category == MixedPrecisionCategory::Always && hasOutDtype(*op)) {
        attrs.set("out_dtype", AttrValue::string(std::string(accumulation_.name())));
        attrs = canonicalizeAttrs(*op, attrs);
        widen = accumulation_ != mixed_;
      }
    } else {
      for (size_t i = 0; i < args.size(); ++i) args[i] = restore(args[i], originalCall->args[i]->checkedType);
    }
    return rebuildCall(original, call, std::move(args), std::move(attrs), widen);
  }

  Expr rebuildCall(const Expr& original, const CallNode* call, std::vector<Expr> args, AttrDict attrs, bool castResult) {
    const CallNode* originalCall = as<CallNode>(original);
    bool same = attrs == originalCall->attrs && call->callee == originalCall->callee;
    for (size_t i = 0; same && i < args.size(); ++i) same = args[i] == originalCall->args[i];
    if (same) return original;
    Expr out = makeCall(call->callee, std::move(args), std::move(attrs), call->span);
    const CallNode* c = as<CallNode>(out);
    if (const OpDef* op = c->op()) {
      std::vector<Type> types;
      for (const Expr& a : c->args) types.push_back(a->checkedType);
      out->checkedType = inferOpCallType(*op, types, c->attrs);
    } else {
      out->checkedType = original->checkedType;
    }
    return castResult ? castTensor(out, mixed_) : out;
  }

  void explainCall(const Expr& original, const OpDef& op, MixedPrecisionCategory category, bool reduced, bool notFloat32,
                   const std::string& keptInput, const TensorTypeNode& result) {
    const std::string name(op.name), mixed(mixed_.name()), type(result.dtype.name());
    RemarkRule rule;
    std::string message;
    if (notFloat32) {
      rule = RemarkRule::AmpNotFloat32;
      message = "kept " + type + ": " + name + " is on the ALWAYS list, but only float32 computations are converted";
    } else if (category == MixedPrecisionCategory::Always) {
      rule = RemarkRule::AmpAlways;
      message = name + " computed in " + mixed + " (ALWAYS list), accumulating in " + std::string(accumulation_.name());
    } else if (category == MixedPrecisionCategory::Follow) {
      rule = reduced ? RemarkRule::AmpFollow : RemarkRule::AmpFollowKept;
      message = reduced ? name + " computed in " + mixed + ": a FOLLOW op whose inputs are all " + mixed
                        : "kept " + type + ": " + name + " is on the FOLLOW list and " + keptInput;
    } else {
      rule = RemarkRule::AmpNeverList;
      message = "kept " + type + ": " + name + " is on the NEVER list";
    }
    ctx_->remark(makeRemark(*pass_, rule, function_, {original}, std::move(message)));
  }

  /// Calls `f(value, dtype)` for a floating-point tensor value, or for each field of a literal tuple.
  template <class F>
  void forEachFloatValue(const Expr& e, F f) {
    if (const TupleNode* t = as<TupleNode>(e)) {
      for (const Expr& field : t->fields) forEachFloatValue(field, f);
      return;
    }
    if (const TensorTypeNode* t = tensorTypeOf(e); t && t->dtype.isFloat()) f(e, t->dtype);
  }

  /// `e` with its float tensors (or literal-tuple fields) converted to `dtype`.
  Expr toType(const Expr& e, DataType dtype) {
    if (const TupleNode* t = as<TupleNode>(e)) {
      std::vector<Expr> fields;
      std::vector<Type> types;
      bool same = true;
      for (const Expr& f : t->fields) {
        fields.push_back(toType(f, dtype));
        types.push_back(fields.back()->checkedType);
        same = same && fields.back() == f;
      }
      if (same) return e;
      Expr out = makeTuple(std::move(fields), t->span);
      out->checkedType = tupleType(std::move(types));
      return out;
    }
    return castTensor(e, dtype);
  }

  /// `e` brought back to `type` (its original type): float dtypes restored, tuples field by field.
  Expr restore(const Expr& e, const Type& type) {
    if (const TensorTypeNode* want = as<TensorTypeNode>(type)) {
      const TensorTypeNode* have = tensorTypeOf(e);
      return have && have->dtype.isFloat() && have->dtype != want->dtype ? castTensor(e, want->dtype) : e;
    }
    const TupleTypeNode* want = as<TupleTypeNode>(type);
    const TupleNode* t = as<TupleNode>(e);
    if (!want || !t || want->fields.size() != t->fields.size()) return e;
    std::vector<Expr> fields;
    std::vector<Type> types;
    bool same = true;
    for (size_t i = 0; i < t->fields.size(); ++i) {
      fields.push_back(restore(t->fields[i], want->fields[i]));
      types.push_back(fields.back()->checkedType);
      same = same && fields.back() == t->fields[i];
    }
    if (same) return e;
    Expr out = makeTuple(std::move(fields), t->span);
    out->checkedType = tupleType(std::move(types));
    return out;
  }

  /// A float tensor in `dtype`: constants converted, casts shared and undone when possible.
  Expr castTensor(const Expr& e, DataType dtype) {
    const TensorTypeNode* t = tensorTypeOf(e);
    if (!t || !t->dtype.isFloat() || t->dtype == dtype) return e;
    auto key = std::make_pair(e.get(), dtype.code);
    if (auto it = casts_.find(key); it != casts_.end()) return it->second;
    Expr out;
    if (const ConstantNode* c = as<ConstantNode>(e)) {
      NDArray data(dtype, c->data.shape());
      for (int64_t i = 0; i < data.numElements(); ++i) data.setFromDouble(i, c->data.getAsDouble(i));
      out = makeConstant(std::move(data), c->span);
    } else if (const CallNode* cast = opt_util::callTo(e, OpId::Cast); cast && tensorTypeOf(cast->args[0]) &&
                                                                        tensorTypeOf(cast->args[0])->dtype == dtype) {
      out = cast->args[0];  // cast(cast(x, float16), float32) of a float32 x: x itself, as TVM does
    } else {
      out = makeOpCall(OpId::Cast, {e}, {{"dtype", AttrValue::string(std::string(dtype.name()))}});
      out->checkedType = tensorType(t->shape, dtype);
    }
    casts_.emplace(key, out);
    return out;
  }

  DataType mixed_;
  DataType accumulation_;
  const FunctionNode* top_;
  bool keepTopResult_;
  std::map<std::pair<const ExprNode*, DTypeCode>, Expr> casts_;
  std::unordered_set<const ExprNode*> constantValued_;
  PassContext* ctx_ = nullptr;  // remarks on: where they go
  const std::string* pass_ = nullptr;
  std::string function_;
};

DataType parseFloatType(const std::string& text, const char* what) {
  std::optional<DataType> dt = DataType::parse(text);
  if (!dt || (dt->code != DTypeCode::Float16 && dt->code != DTypeCode::Float32))
    throwError({}, std::string(what) + " must be float16 or float32, got '" + text + "'", "ToMixedPrecision");
  return *dt;
}

/// What ToMixedPrecision is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& toMixedPrecisionDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    ToMixedPrecisionOptions defaults;
    PassRegistration r;
    r.info.name = "ToMixedPrecision";
    r.level = PassLevel::Function;
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Computes float32 graphs in float16 by TVM's always/follow/never op lists; float32 constants become float16 constants.";
    r.info.guarantees =
        "Always-list ops compute in float16 (accumulating in relay.ToMixedPrecision.accumulation_dtype); never-list ops "
        "see only float32; function parameters keep their types.";
    r.options = {{"mixed_precision_type", Kind::String, AttrValue::string(defaults.mixedPrecisionType),
                  "the reduced floating-point type (float16)"},
                 {"out_dtype", Kind::String, AttrValue::string(defaults.outDtype),
                  "Relax form: accumulation dtype of conv2d/matmul (TVM's relax ToMixedPrecision out_dtype)"},
                 {"fp16_input_names", Kind::Array, AttrValue::array({}),
                  "Relax form: parameters that already hold float16 values; they become float16 parameters, used "
                  "without casts (TVM's fp16_input_names)"}};
    r.configKeys = {
        {kKeepOrigOutputDtypeKey, Kind::Bool, AttrValue::boolean(false), "cast @main's result back to its original dtype"},
        {kAccumulationDtypeKey, Kind::String, AttrValue::string(defaults.mixedPrecisionType),
         "accumulation dtype (out_dtype) of conv2d/dense/matmul in float16; float32 accumulates wide and casts the result"},
    };
    r.create = [](const AttrDict& options) {
      ToMixedPrecisionOptions o;
      o.mixedPrecisionType = options.getString("mixed_precision_type", o.mixedPrecisionType);
      o.outDtype = options.getString("out_dtype", o.outDtype);
      if (options.contains("fp16_input_names")) o.fp16InputNames = optionStrings(options, "fp16_input_names");
      return createToMixedPrecisionPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kToMixedPrecisionRegistrar(toMixedPrecisionDeclaration);

class ToMixedPrecisionPass final : public Pass {
 public:
  explicit ToMixedPrecisionPass(ToMixedPrecisionOptions options) : mixed_(parseFloatType(options.mixedPrecisionType, "mixed_precision_type")) {
    if (mixed_ != DTypeCode::Float16) throwError({}, "ToMixedPrecision: mixed_precision_type must be float16 (the reduced type of this IR)", "pipeline");
    if (options.mixedPrecisionType != ToMixedPrecisionOptions{}.mixedPrecisionType) options_.set("mixed_precision_type", AttrValue::string(options.mixedPrecisionType));
    outDtype_ = parseFloatType(options.outDtype, "out_dtype");
    if (outDtype_ != DTypeCode::Float16 && outDtype_ != DTypeCode::Float32)
      throwError({}, "ToMixedPrecision: out_dtype must be float32 or float16, got '" + options.outDtype + "'", "pipeline");
    if (options.outDtype != ToMixedPrecisionOptions{}.outDtype) options_.set("out_dtype", AttrValue::string(options.outDtype));
    fp16InputNames_ = std::move(options.fp16InputNames);
    if (!fp16InputNames_.empty()) options_.set("fp16_input_names", stringArrayValue(fp16InputNames_));
  }

  const PassInfo& info() const override { return toMixedPrecisionDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    const std::string& name = info().name;
    if (isRelaxModule(mod)) {
      ctx.recordOption("out_dtype", AttrValue::string(std::string(outDtype_.name())), name);
      if (!fp16InputNames_.empty()) ctx.recordOption("fp16_input_names", stringArrayValue(fp16InputNames_), name);
      return opt_util::mapFunctions(mod, ctx, name, [&](const Function& fn, const std::string& global) -> Function {
        return toMixedPrecisionRelax(fn, mod, outDtype_, fp16InputNames_, ctx, name, global);
      });
    }
    const bool keepOrig = ctx.config(kKeepOrigOutputDtypeKey, name).asBool();
    const DataType accumulation = parseFloatType(ctx.config(kAccumulationDtypeKey, name).asString(), kAccumulationDtypeKey);
    return opt_util::mapFunctions(mod, ctx, name, [&](const Function& fn, const std::string& fnName) -> Function {
      opt_util::ensureTyped(fn, mod);
      // Only @main's result may change type: other functions have callers.
      MixedPrecisionRewriter rewriter(mixed_, accumulation, fn.get(), keepOrig || fnName != "main");
      if (ctx.remarksEnabled()) rewriter.explainInto(ctx, name, fnName);
      Expr out = rewriter.mutate(fn);
      if (out == fn) return fn;
      Function result = std::static_pointer_cast<const FunctionNode>(out);
      inferExprType(result, &mod);
      return result;
    });
  }

 private:
  DataType mixed_;
  DataType outDtype_ = DTypeCode::Float32;
  std::vector<std::string> fp16InputNames_;
};

}  // namespace

PassPtr createToMixedPrecisionPass(const ToMixedPrecisionOptions& options) { return std::make_shared<ToMixedPrecisionPass>(options); }

}  // namespace passlab
