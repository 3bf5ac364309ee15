// ToMixedPrecision in Relax form (see to_mixed_precision_relax.h).
#include "passes/to_mixed_precision_relax.h"

#include <cmath>
#include <set>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/remark_rules.h"
#include "passes/opt_util.h"

namespace passlab {

RelaxMixedPolicy relaxMixedPolicy(OpId op) {
  switch (op) {
    case OpId::Conv2D:
    case OpId::Conv2DTranspose:
    case OpId::Matmul:
    case OpId::Dense:
    case OpId::BatchMatmul: return RelaxMixedPolicy::Always;
    // TVM's Relax registers these with kFollow (pooling.cc, nn.cc, image/resize.cc, ternary.cc).
    case OpId::MaxPool2D:
    case OpId::AvgPool2D:
    case OpId::GlobalAvgPool2D:
    case OpId::LayerNorm:
    case OpId::GroupNorm:
    case OpId::Resize2D:
    case OpId::Clip:
    case OpId::Where:
    case OpId::BiasAdd: return RelaxMixedPolicy::Follow;  // passlab's bias_add is an add (TVM's Relax writes R.add)
    // No policy: normalization with statistics, softmax, pad (nn.cc registers none).
    case OpId::BatchNorm:
    case OpId::Softmax:
    case OpId::Pad: return RelaxMixedPolicy::None;
    default: break;
  }
  const OpDef& def = opDef(op);
  // Unary and binary arithmetic (op_common.h, binary.h) and data movement (manipulate.cc, index.cc).
  if (def.pattern == FusionPattern::ElemWise || def.pattern == FusionPattern::Broadcast ||
      def.pattern == FusionPattern::Injective)
    return RelaxMixedPolicy::Follow;
  return RelaxMixedPolicy::None;  // reductions (statistical.cc) and the rest
}

namespace {

/// What the uses of a variable need (TVM's only_fp16_map lattice).
enum class Need : uint8_t { Unknown, Float16, Float32 };

const TensorTypeNode* tensorOf(const Expr& e) {
  if (!e) return nullptr;
  if (const auto* v = as<VarNode>(e); v && v->annotation) return as<TensorTypeNode>(v->annotation);
  return e->checkedType ? as<TensorTypeNode>(e->checkedType) : nullptr;
}

bool isF16OrF32(DataType d) { return d == DataType(DTypeCode::Float16) || d == DataType(DTypeCode::Float32); }

class Rewriter {
 public:
  /// `inputs`: the float16 parameters that replace the fp16_input_names ones.
  Rewriter(const Function& fn, const IRModule& mod, DataType outDtype, std::unordered_map<const ExprNode*, Expr> inputs,
           PassContext& ctx, const std::string& pass, std::string global)
      : fn_(fn), mod_(mod), outDtype_(outDtype), ctx_(ctx), pass_(pass), global_(std::move(global)), inputs_(std::move(inputs)) {
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* v = as<VarNode>(e)) names_.insert(v->name);
    });
    collectNeeds();
  }

  Expr run() { return mutateSpine(fn_->body); }

 private:
  // ---- backward step: which variables are used only by Always ops ----
  void need(const Expr& e, Need n) {
    if (e->kind != ExprKind::Var) return;
    Need& cur = needs_[e.get()];
    cur = std::max(cur, n);  // Float32 is the bottom of the lattice
  }

  void collectNeeds() { uses(fn_->body); }

  /// Records the needs of the uses in `e` (binding positions are not uses).
  void uses(const Expr& e) {
    if (const auto* df = as<DataflowNode>(e)) {
      for (const Binding& b : df->bindings) valueUses(b.value);
      return uses(df->body);
    }
    if (const auto* let = as<LetNode>(e)) {
      valueUses(let->value);
      return uses(let->body);
    }
    valueUses(e);
  }

  void valueUses(const Expr& value) {
    const auto* call = as<CallNode>(value);
    const OpDef* op = call ? call->op() : nullptr;
    if (op && relaxMixedPolicy(op->id) == RelaxMixedPolicy::Always) {
      for (const Expr& a : call->args) {
        if (a->kind == ExprKind::Var)
          need(a, Need::Float16);
        else
          valueUses(a);
      }
      return;
    }
    if (value->kind == ExprKind::Dataflow || value->kind == ExprKind::Let) return uses(value);
    // Every other use needs the original dtype: a Follow or no-policy op, a
    // tuple, a return, an if.
    postOrderVisit(value, [&](const Expr& x) { need(x, Need::Float32); },
                   [](const Expr& x) { return x->kind != ExprKind::Function; });
  }

  Need needOf(const Expr& var) const {
    auto it = needs_.find(var.get());
    return it == needs_.end() ? Need::Unknown : it->second;
  }

  // ---- forward step ----
  Expr mutateSpine(const Expr& e) {
    if (const auto* df = as<DataflowNode>(e)) {
      Expr body = mutateSpine(df->body);
      std::vector<Binding> bindings = block(*df);
      if (!changed_ && body == df->body) return e;
      return makeDataflow(std::move(bindings), body, df->span);
    }
    if (const auto* let = as<LetNode>(e)) {
      Expr body = mutateSpine(let->body);
      return body == let->body ? e : makeLet(let->var, let->value, body, let->span);
    }
    return e;
  }

  std::string freshName() {
    std::string name = "lv";
    for (int k = 1; names_.count(name); ++k) name = "lv" + std::to_string(k);
    names_.insert(name);
    return name;
  }

  Var emitAs(const std::string& name, const Expr& value, bool dataflow = true) {
    Type t = inferExprType(value, &mod_);
    Var v = makeVar(name, t, dataflow);
    v->checkedType = t;
    out_.push_back({v, value});
    changed_ = true;
    return v;
  }

  /// `e` as dtype `to` (an R.astype binding), when `e` is a float16/float32 tensor of another dtype.
  Expr cast(const Expr& e, DataType to) {
    const TensorTypeNode* t = tensorOf(e);
    if (!t || t->dtype == to || !isF16OrF32(t->dtype)) return e;
    return emitAs(freshName(), makeOpCall(OpId::Cast, {e}, {{"dtype", AttrValue::string(std::string(to.name()))}}));
  }

  /// The current value of `e` (a remapped variable) as it is now.
  Expr current(const Expr& e) {
    auto it = remap_.find(e.get());
    if (it != remap_.end()) return it->second;
    auto in = inputs_.find(e.get());
    return in == inputs_.end() ? e : in->second;
  }

  /// The current value of `e` in `e`'s original dtype.
  Expr inOriginal(const Expr& e) {
    Expr cur = current(e);
    if (cur == e) return e;
    const TensorTypeNode* t = tensorOf(e);
    return t ? cast(cur, t->dtype) : cur;
  }

  /// True when `e` (current) can be computed with in float16 (TVM's AllFP16Castable).
  bool fp16Castable(const Expr& e) {
    const TensorTypeNode* t = tensorOf(e);
    if (!t || t->dtype == DataType(DTypeCode::Float16)) return true;
    if (const auto* c = as<ConstantNode>(e)) {
      for (int64_t i = 0; i < c->data.numElements(); ++i)
        if (std::abs(c->data.getAsDouble(i)) > 65504.0) return false;
      return true;
    }
    return false;
  }

  void castIfFp16Only(const Expr& var) {
    if (needOf(var) != Need::Float16) return;
    Expr cur = current(var);
    Expr casted = cast(cur, DataType(DTypeCode::Float16));
    if (casted != cur) remap_[var.get()] = casted;
  }

  void remark(RemarkRule rule, const Expr& node, std::string message) {
    if (ctx_.remarksEnabled()) ctx_.remark(makeRemark(pass_, rule, global_, {node}, std::move(message)));
  }

  /// Binds `b.var` to `value`; a changed dtype gives a new variable of the same name.
  void rebind(const Binding& b, const Expr& value) {
    const TensorTypeNode* was = tensorOf(b.var);
    Type t = inferExprType(value, &mod_);
    const auto* now = as<TensorTypeNode>(t);
    if (was && now && was->dtype != now->dtype) {
      Var v = makeVar(b.var->name, t, b.var->isDataflow, b.var->span);
      v->checkedType = t;
      remap_[b.var.get()] = v;
      out_.push_back({v, value});
      changed_ = true;
      return;
    }
    out_.push_back({b.var, value});
    if (value != b.value) changed_ = true;
  }

  std::vector<Binding> block(const DataflowNode& df) {
    out_.clear();
    for (const Var& p : fn_->params) castIfFp16Only(p);
    for (const Binding& b : df.bindings) {
      binding(b);
      // A block output is used after the block: it keeps its dtype (TVM casts only dataflow variables).
      if (b.var->isDataflow) castIfFp16Only(b.var);
    }
    for (const Var& p : fn_->params) remap_.erase(p.get());
    return std::move(out_);
  }

  void binding(const Binding& b) {
    const auto* call = as<CallNode>(b.value);
    const OpDef* op = call ? call->op() : nullptr;
    const TensorTypeNode* result = tensorOf(b.value);
    if (!op) return rebind(b, substituteOriginal(b.value));
    const RelaxMixedPolicy policy = relaxMixedPolicy(op->id);
    const std::string name(op->name);
    const DataType f16(DTypeCode::Float16), f32(DTypeCode::Float32);
    if (policy == RelaxMixedPolicy::None) {
      if (result && result->dtype == f32)
        remark(RemarkRule::AmpNeverList, b.value, "kept float32: " + name + " has no mixed-precision policy (TVM's Relax NEVER case)");
      return rebind(b, substituteOriginal(b.value));
    }
    std::vector<Expr> args;
    for (const Expr& a : call->args) args.push_back(current(a));
    AttrDict attrs = call->attrs;
    DataType target = f16;
    if (policy == RelaxMixedPolicy::Always) {
      const TensorTypeNode* in = tensorOf(call->args.empty() ? Expr() : call->args[0]);
      if (!in || !isF16OrF32(in->dtype)) {
        remark(RemarkRule::AmpNotFloat32, b.value, name + " computes " + (in ? std::string(in->dtype.name()) : "?") + ": left as it is");
        return rebind(b, substituteOriginal(b.value));
      }
      if (hasOutDtype(*op)) attrs.set("out_dtype", AttrValue::string(std::string(outDtype_.name())));
      remark(RemarkRule::AmpAlways, b.value,
             name + " computed from float16 inputs, accumulating in " + std::string(outDtype_.name()) + " (ALWAYS)");
    } else {
      bool castable = true;
      for (const Expr& a : args) castable = castable && fp16Castable(a);
      target = castable ? f16 : f32;
      if (result && isF16OrF32(result->dtype)) {
        if (castable)
          remark(RemarkRule::AmpFollow, b.value, name + " computed in float16: every input is float16 (FOLLOW)");
        else
          remark(RemarkRule::AmpFollowKept, b.value, name + " kept float32: an input is float32 (FOLLOW)");
      }
    }
    for (Expr& a : args) a = castTensor(a, target);
    Expr value = makeCall(call->callee, std::move(args), attrs, call->span);
    if (!b.var->isDataflow) {
      // A block output keeps its dtype.
      const TensorTypeNode* now = as<TensorTypeNode>(inferExprType(value, &mod_));
      if (result && now && now->dtype != result->dtype && isF16OrF32(now->dtype)) {
        Var lv = emitAs(freshName(), value);
        value = makeOpCall(OpId::Cast, {lv}, {{"dtype", AttrValue::string(std::string(result->dtype.name()))}});
      }
    } else if (policy == RelaxMixedPolicy::Always) {
      const TensorTypeNode* now = as<TensorTypeNode>(inferExprType(value, &mod_));
      if (now && now->dtype != f16 && isF16OrF32(now->dtype)) {
        Var lv = emitAs(freshName(), value);
        value = makeOpCall(OpId::Cast, {lv}, {{"dtype", AttrValue::string("float16")}});
      }
    }
    rebind(b, value);
  }

  static bool hasOutDtype(const OpDef& op) {
    for (const AttrField& f : op.attrs)
      if (f.name == "out_dtype") return true;
    return false;
  }

  /// A tensor argument (or a tuple of them) as `to`.
  Expr castTensor(const Expr& a, DataType to) {
    if (const auto* t = as<TupleNode>(a)) {
      std::vector<Expr> fields;
      for (const Expr& f : t->fields) fields.push_back(castTensor(f, to));
      return makeTuple(std::move(fields), t->span);
    }
    return cast(a, to);
  }

  /// `e` with every remapped variable replaced by its value in the original dtype.
  Expr substituteOriginal(const Expr& e) {
    if (e->kind == ExprKind::Var) return inOriginal(e);
    std::vector<Expr> children;
    appendChildren(e, children);
    if (e->kind == ExprKind::Function || children.empty()) return e;
    bool changed = false;
    for (Expr& c : children) {
      if (!c) continue;
      Expr n = substituteOriginal(c);
      changed = changed || n != c;
      c = n;
    }
    return changed ? rebuildWithChildren(e, children) : e;
  }

  const Function& fn_;
  const IRModule& mod_;
  DataType outDtype_;
  PassContext& ctx_;
  const std::string& pass_;
  std::string global_;
  bool changed_ = false;
  std::set<std::string> names_;
  std::unordered_map<const ExprNode*, Need> needs_;
  std::unordered_map<const ExprNode*, Expr> remap_;
  /// fp16_input_names: original parameter -> its float16 parameter, for the
  /// whole function (remap_'s parameter entries last one block).
  std::unordered_map<const ExprNode*, Expr> inputs_;
  std::vector<Binding> out_;
};

}  // namespace

Function toMixedPrecisionRelax(const Function& fn, const IRModule& mod, DataType outDtype,
                               const std::vector<std::string>& fp16InputNames, PassContext& ctx, const std::string& pass,
                               const std::string& global) {
  opt_util::ensureTyped(fn, mod);
  // TVM's fp16_input_names: the named parameters hold float16 values, so
  // they get float16 types; their uses see the new parameter.
  std::vector<Var> params = fn->params;
  std::unordered_map<const ExprNode*, Expr> inputs;
  const std::set<std::string> named(fp16InputNames.begin(), fp16InputNames.end());
  for (Var& p : params) {
    if (!named.count(p->name)) continue;
    const TensorTypeNode* t = tensorOf(p);
    if (!t || !isF16OrF32(t->dtype))
      throwError(p->span, pass + ": fp16_input_names names " + p->name + ", which is not a float16/float32 tensor",
                 "pipeline");
    if (t->dtype == DataType(DTypeCode::Float16)) continue;
    auto f16 = std::make_shared<TensorTypeNode>(*t);
    f16->dtype = DataType(DTypeCode::Float16);
    Type type = f16;
    Var v = makeVar(p->name, type, p->isDataflow, p->span);
    v->checkedType = type;
    inputs[p.get()] = v;
    p = v;
  }
  Rewriter rewriter(fn, mod, outDtype, inputs, ctx, pass, global);
  Expr body = rewriter.run();
  if (body == fn->body && inputs.empty()) return fn;
  if (!inputs.empty()) {
    // Only dataflow blocks are rewritten: a use elsewhere would still name
    // the float32 parameter, which no longer exists.
    postOrderVisit(body, [&](const Expr& e) {
      if (inputs.count(e.get()))
        throwError(e->span.known() ? e->span : fn->span,
                   pass + ": fp16_input_names parameter " + static_cast<const VarNode*>(e.get())->name +
                       " is used outside a dataflow block, which this pass does not rewrite",
                   "pipeline");
    });
  }
  Function result = makeFunction(params, body, fn->retType, fn->attrs, fn->span);
  inferExprType(result, &mod);
  return result;
}

}  // namespace passlab
