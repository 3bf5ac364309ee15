// ConvertLayout in Relax form (see convert_layout_relax.h).
#include "passes/convert_layout_relax.h"

#include <optional>
#include <set>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/remark_rules.h"
#include "passes/opt_util.h"

namespace passlab {

namespace {

using opt_util::callAttr;

/// A value computed in layout `current` where the original program had `original`.
struct LayoutState {
  std::string original;
  std::string current;
};

/// True when `layout` is a permutation of the letters of `of` (NHWC of NCHW).
bool permutationOf(const std::string& layout, const std::string& of) {
  if (layout.size() != of.size()) return false;
  std::string a = layout, b = of;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b && std::set<char>(a.begin(), a.end()).size() == a.size();
}

/// The rank of `e`'s static type (checked before the rewrite), or -1 when unknown.
int rankOf(const Expr& e) {
  const auto* t = e && e->checkedType ? as<TensorTypeNode>(e->checkedType) : nullptr;
  if (!t) return -1;
  return static_cast<int>(t->shape.size());
}

/// Replaces remapped variables.
class Substitution final : public ExprMutator {
 public:
  explicit Substitution(const std::unordered_map<const ExprNode*, Expr>& remap) : remap_(remap) {}

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (e->kind == ExprKind::Function) return e;
    if (e->kind != ExprKind::Var) return std::nullopt;
    auto it = remap_.find(e.get());
    return it == remap_.end() ? e : it->second;
  }

 private:
  const std::unordered_map<const ExprNode*, Expr>& remap_;
};

class BlockConverter final : public ExprMutator {
 public:
  BlockConverter(const Function& fn, const RelaxLayouts& layouts, PassContext& ctx, const std::string& pass, std::string global)
      : layouts_(layouts), ctx_(ctx), pass_(pass), global_(std::move(global)), subst_(remap_) {
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* v = as<VarNode>(e)) names_.insert(v->name);
    });
  }

  bool converted() const { return converted_; }

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (e->kind == ExprKind::Function) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr&, const Expr& rebuilt) override {
    const auto* df = as<DataflowNode>(rebuilt);
    if (!df) return rebuilt;
    out_.clear();
    for (const Binding& b : df->bindings) convertBinding(b);
    bool same = out_.size() == df->bindings.size();
    for (size_t i = 0; same && i < out_.size(); ++i) same = out_[i].var == df->bindings[i].var && out_[i].value == df->bindings[i].value;
    if (same) return rebuilt;
    return makeDataflow(std::move(out_), df->body, df->span);
  }

 private:
  const LayoutState* stateOf(const Expr& e) const {
    auto it = state_.find(e.get());
    return it == state_.end() ? nullptr : &it->second;
  }

  /// The layouts of a tuple's fields (nn.batch_norm's, R.split's): none for a field in its original layout.
  using TupleLayout = std::vector<std::optional<LayoutState>>;
  const TupleLayout* tupleStateOf(const Expr& e) const {
    auto it = tupleState_.find(e.get());
    return it == tupleState_.end() ? nullptr : &it->second;
  }

  std::string freshName() {
    std::string name = "lv";
    for (int k = 1; names_.count(name); ++k) name = "lv" + std::to_string(k);
    names_.insert(name);
    return name;
  }

  Var emit(const Expr& value) {
    Var v = makeVar(freshName(), nullptr, true);
    out_.push_back({v, value});
    return v;
  }

  /// The R.permute_dims of `x` from layout `from` to layout `to`.
  static Expr permuteCall(const Expr& x, const std::string& from, const std::string& to) {
    std::vector<int64_t> axes;
    for (char c : to) axes.push_back(static_cast<int64_t>(from.find(c)));
    return makeOpCall(OpId::Transpose, {x}, {{"axes", AttrValue::ints(axes)}});
  }

  /// `x` (in layout `from`) permuted into layout `to`, as a new binding.
  Expr permute(const Expr& x, const std::string& from, const std::string& to) {
    if (from == to) return x;
    return emit(permuteCall(x, from, to));
  }

  /// The value of `e` (already substituted) in the layout the original program had.
  Expr inOriginal(const Expr& e) {
    if (const LayoutState* s = stateOf(e)) return permute(e, s->current, s->original);
    if (const TupleLayout* fields = tupleStateOf(e)) {
      // Field by field, as TVM rewrites a tuple: each projected, and permuted back where it was converted.
      std::vector<Expr> items;
      for (size_t i = 0; i < fields->size(); ++i) {
        Expr item = emit(makeTupleGetItem(e, static_cast<int>(i)));
        const std::optional<LayoutState>& f = (*fields)[i];
        items.push_back(f ? permute(item, f->current, f->original) : item);
      }
      return makeTuple(std::move(items));
    }
    if (const auto* t = as<TupleNode>(e)) {
      std::vector<Expr> fields;
      bool changed = false;
      for (const Expr& f : t->fields) {
        fields.push_back(inOriginal(f));
        changed = changed || fields.back() != f;
      }
      return changed ? makeTuple(std::move(fields), t->span) : e;
    }
    return e;
  }

  void remark(RemarkRule rule, const Expr& node, std::string message) {
    if (ctx_.remarksEnabled()) ctx_.remark(makeRemark(pass_, rule, global_, {node}, std::move(message)));
  }

  /// Binds the result of `b` computed as `value` in layout state `s`.
  void bindConverted(const Binding& b, const Expr& value, const LayoutState& s) {
    // Back in the original order (a reduction that dropped the moved axes): nothing to follow.
    if (s.current == s.original) {
      out_.push_back({b.var, value});
      return;
    }
    if (b.var->isDataflow) {
      Var v = makeVar(b.var->name, nullptr, true, b.var->span);
      state_[v.get()] = s;
      remap_[b.var.get()] = v;
      out_.push_back({v, value});
      return;
    }
    // A block output keeps its original layout (and its variable).
    Var lv = emit(value);
    state_[lv.get()] = s;
    out_.push_back({b.var, permuteCall(lv, s.current, s.original)});
  }

  /// Binds the tuple result of `b` computed as `value` with field layouts `fields`.
  void bindConvertedTuple(const Binding& b, const Expr& value, TupleLayout fields) {
    if (b.var->isDataflow) {
      Var v = makeVar(b.var->name, nullptr, true, b.var->span);
      tupleState_[v.get()] = std::move(fields);
      remap_[b.var.get()] = v;
      out_.push_back({v, value});
      return;
    }
    // A block output: the tuple is rebuilt from its fields in their original layouts.
    Var lv = emit(value);
    tupleState_[lv.get()] = std::move(fields);
    out_.push_back({b.var, inOriginal(lv)});
  }

  /// `axis` of a rank-n value in layout `s.original`, as a position in `s.current`.
  static std::optional<int64_t> remapAxis(const LayoutState& s, int64_t axis) {
    std::optional<int64_t> a = opt_util::normalizedAxis(axis, static_cast<int64_t>(s.original.size()));
    if (!a) return std::nullopt;
    return static_cast<int64_t>(s.current.find(s.original[static_cast<size_t>(*a)]));
  }

  /// Binds `b` unchanged in layout: every converted operand back to its original layout.
  void bindOriginal(const Binding& b, const Expr& value) {
    const auto* call = as<CallNode>(value);
    if (call && call->op()) {
      std::vector<Expr> args;
      bool back = false;
      for (const Expr& a : call->args) {
        args.push_back(inOriginal(a));
        back = back || args.back() != a;
      }
      if (back) {
        remark(RemarkRule::LayoutTransformBack, b.value,
               std::string(call->op()->name) + " cannot follow the converted layout: its input is permuted back");
        out_.push_back({b.var, makeCall(call->callee, std::move(args), call->attrs, call->span)});
        return;
      }
    }
    out_.push_back({b.var, inOriginal(value)});
  }

  void convertBinding(const Binding& b) {
    Expr value = subst_.mutate(b.value);
    if (const auto* item = as<TupleGetItemNode>(value)) {
      // A field of a converted tuple keeps the field's layout.
      if (const TupleLayout* fields = tupleStateOf(item->tuple); fields && item->index >= 0 && static_cast<size_t>(item->index) < fields->size()) {
        if (const std::optional<LayoutState>& f = (*fields)[static_cast<size_t>(item->index)]) return bindConverted(b, value, *f);
        out_.push_back({b.var, value});
        return;
      }
    }
    const auto* call = as<CallNode>(value);
    const OpDef* op = call ? call->op() : nullptr;
    if (!op) return bindOriginal(b, value);
    if (op->id == OpId::Conv2D) return convertConv(b, *call);
    if (op->id == OpId::Concatenate) return convertConcat(b, *call);
    const LayoutState* first = nullptr;
    for (const Expr& a : call->args)
      if ((first = stateOf(a))) break;
    if (!first) return bindOriginal(b, value);
    const LayoutState s = *first;
    AttrDict attrs = call->attrs;
    const std::string name(op->name);
    if (op->pattern == FusionPattern::ElemWise && call->args.size() == 1 && op->id != OpId::Full) {
      remark(RemarkRule::LayoutFollow, b.value, name + " follows " + s.current + " (elementwise)");
      return bindConverted(b, value, s);
    }
    if (op->pattern == FusionPattern::Broadcast && call->args.size() == 2 && op->id != OpId::BiasAdd) {
      const auto* original = as<CallNode>(b.value);
      std::vector<Expr> args;
      bool ok = true;
      for (size_t i = 0; ok && i < call->args.size(); ++i) {
        const Expr& a = call->args[i];
        const int rank = rankOf(original->args[i]);
        if (const LayoutState* st = stateOf(a)) {
          args.push_back(permute(a, st->current, s.current));
        } else if (rank == 0) {
          args.push_back(a);
        } else if (rank == 4) {
          args.push_back(a);  // permuted below, once every operand is known to follow
        } else {
          ok = false;
        }
      }
      if (ok) {
        for (size_t i = 0; i < args.size(); ++i)
          if (!stateOf(call->args[i]) && rankOf(original->args[i]) == 4) args[i] = permute(args[i], s.original, s.current);
        remark(RemarkRule::LayoutFollow, b.value, name + " follows " + s.current + " (broadcast, 4-d or scalar operands)");
        return bindConverted(b, makeCall(call->callee, std::move(args), call->attrs, call->span), s);
      }
      remark(RemarkRule::LayoutTransformBack, b.value,
             name + " cannot follow " + s.current + ": an operand is neither 4-d nor a scalar, so the input is permuted back");
      return bindOriginalQuiet(b, value);
    }
    if (op->id == OpId::BiasAdd && call->args.size() == 2 && stateOf(call->args[0]) && !stateOf(call->args[1])) {
      // passlab's bias_add (TVM's Relax writes R.add of a reshaped bias): the 1-d bias follows through the axis.
      if (std::optional<int64_t> axis = opt_util::normalizedAxis(callAttr(*call, "axis").asInt(), 4)) {
        attrs.set("axis", AttrValue::integer(static_cast<int64_t>(s.current.find(s.original[static_cast<size_t>(*axis)]))));
        remark(RemarkRule::LayoutFollow, b.value, name + " follows " + s.current + " (axis remapped)");
        return bindConverted(b, makeOpCall(op->id, call->args, attrs, call->span), s);
      }
    }
    if (op->id == OpId::BatchNorm && call->args.size() == 5 && stateOf(call->args[0])) {
      // TVM's InferLayoutBatchNorm: the data's layout, the axis found in it; mean and variance stay 1-d.
      bool statsConverted = false;
      for (size_t i = 1; i < 5; ++i) statsConverted = statsConverted || stateOf(call->args[i]);
      if (std::optional<int64_t> axis = remapAxis(s, callAttr(*call, "axis").asInt()); axis && !statsConverted) {
        attrs.set("axis", AttrValue::integer(*axis));
        remark(RemarkRule::LayoutFollow, b.value, name + " follows " + s.current + " (axis remapped; the moments keep theirs)");
        return bindConvertedTuple(b, makeOpCall(op->id, call->args, attrs, call->span), {s, std::nullopt, std::nullopt});
      }
    }
    if (op->id == OpId::LayerNorm && call->args.size() == 3 && stateOf(call->args[0]) && !stateOf(call->args[1]) &&
        !stateOf(call->args[2])) {
      if (std::optional<int64_t> axis = remapAxis(s, callAttr(*call, "axis").asInt())) {
        attrs.set("axis", AttrValue::integer(*axis));
        remark(RemarkRule::LayoutFollow, b.value, name + " follows " + s.current + " (axis remapped)");
        return bindConverted(b, makeOpCall(op->id, call->args, attrs, call->span), s);
      }
    }
    if (op->id == OpId::GroupNorm && call->args.size() == 3 && stateOf(call->args[0]) && !stateOf(call->args[1]) &&
        !stateOf(call->args[2])) {
      // TVM's InferLayoutGroupNorm: the data's layout; channel_axis and every axis found in it.
      std::optional<int64_t> channel = remapAxis(s, callAttr(*call, "channel_axis").asInt());
      std::vector<int64_t> axes;
      bool all = channel.has_value();
      for (const AttrValue& a : callAttr(*call, "axes").asArray()) {
        std::optional<int64_t> axis = all ? remapAxis(s, a.asInt()) : std::nullopt;
        all = all && axis;
        if (axis) axes.push_back(*axis);
      }
      if (all) {
        attrs.set("channel_axis", AttrValue::integer(*channel));
        attrs.set("axes", AttrValue::ints(axes));
        remark(RemarkRule::LayoutFollow, b.value, name + " follows " + s.current + " (channel_axis and axes remapped)");
        return bindConverted(b, makeOpCall(op->id, call->args, attrs, call->span), s);
      }
    }
    if (call->args.size() == 1 && op->id == OpId::Split) {
      const auto* tuple = as<TupleTypeNode>(b.value->checkedType);
      if (std::optional<int64_t> axis = remapAxis(s, callAttr(*call, "axis").asInt()); axis && tuple) {
        attrs.set("axis", AttrValue::integer(*axis));
        remark(RemarkRule::LayoutFollow, b.value, name + " follows " + s.current + " (axis remapped, every part in it)");
        return bindConvertedTuple(b, makeOpCall(op->id, call->args, attrs, call->span), TupleLayout(tuple->fields.size(), s));
      }
    }
    if (call->args.size() == 1 && op->pattern == FusionPattern::CommReduce && !callAttr(*call, "exclude").asBool())
      return convertReduce(b, *call, s);
    if (call->args.size() == 1) {
      switch (op->id) {
        case OpId::MaxPool2D:
        case OpId::AvgPool2D:
        case OpId::GlobalAvgPool2D:
          if (callAttr(*call, "layout").asString() == s.original && callAttr(*call, "out_layout").asString().empty()) {
            attrs.set("layout", AttrValue::string(s.current));
            remark(RemarkRule::LayoutFollow, b.value, name + " follows " + s.current + " (its layout attribute)");
            return bindConverted(b, makeOpCall(op->id, call->args, attrs, call->span), s);
          }
          break;
        case OpId::Softmax:
          if (std::optional<int64_t> axis = opt_util::normalizedAxis(callAttr(*call, "axis").asInt(), 4)) {
            attrs.set("axis", AttrValue::integer(static_cast<int64_t>(s.current.find(s.original[static_cast<size_t>(*axis)]))));
            remark(RemarkRule::LayoutFollow, b.value, name + " follows " + s.current + " (axis remapped)");
            return bindConverted(b, makeOpCall(op->id, call->args, attrs, call->span), s);
          }
          break;
        default: break;
      }
    }
    bindOriginal(b, value);
  }

  /// bindOriginal without a second remark (the caller gave the reason).
  void bindOriginalQuiet(const Binding& b, const Expr& value) {
    const auto* call = as<CallNode>(value);
    std::vector<Expr> args;
    for (const Expr& a : call->args) args.push_back(inOriginal(a));
    out_.push_back({b.var, makeCall(call->callee, std::move(args), call->attrs, call->span)});
  }

  /// TVM's InferLayoutStatistical: the reduced axes found in the input's
  /// layout; with keepdims the result keeps that layout, without it the
  /// remaining axes keep their order (which may be the original one again).
  void convertReduce(const Binding& b, const CallNode& call, const LayoutState& s) {
    const size_t rank = s.original.size();
    std::vector<bool> reduced(rank, false);
    const AttrValue axes = callAttr(call, "axis");
    if (axes.isNone()) reduced.assign(rank, true);
    else
      for (const AttrValue& a : axes.asArray()) {
        std::optional<int64_t> n = opt_util::normalizedAxis(a.asInt(), static_cast<int64_t>(rank));
        if (!n) return bindOriginal(b, makeCall(call.callee, call.args, call.attrs, call.span));
        reduced[static_cast<size_t>(*n)] = true;
      }
    std::string gone;
    for (size_t d = 0; d < rank; ++d)
      if (reduced[d]) gone += s.original[d];
    std::vector<int64_t> newAxes;
    LayoutState out{"", ""};
    for (size_t d = 0; d < rank; ++d) {
      if (gone.find(s.current[d]) != std::string::npos) newAxes.push_back(static_cast<int64_t>(d));
      else out.current += s.current[d];
      if (gone.find(s.original[d]) == std::string::npos) out.original += s.original[d];
    }
    const bool keep = callAttr(call, "keepdims").asBool();
    AttrDict attrs = call.attrs;
    attrs.set("axis", AttrValue::ints(newAxes));
    const std::string name(call.op()->name);
    remark(RemarkRule::LayoutFollow, b.value,
           name + " follows " + s.current + " (reduced axes remapped" + (keep ? ")" : "; the result is " + out.current + ")"));
    bindConverted(b, makeOpCall(call.op()->id, call.args, attrs, call.span), keep ? s : out);
  }

  /// TVM's InferLayoutConcat: every part in the layout of the first, the axis found in it.
  void convertConcat(const Binding& b, const CallNode& call) {
    const auto* parts = call.args.size() == 1 ? as<TupleNode>(call.args[0]) : nullptr;
    const auto* originalCall = as<CallNode>(b.value);
    const auto* originalParts = originalCall && originalCall->args.size() == 1 ? as<TupleNode>(originalCall->args[0]) : nullptr;
    const LayoutState* first = parts && !parts->fields.empty() ? stateOf(parts->fields[0]) : nullptr;
    std::optional<int64_t> axis = first ? remapAxis(*first, callAttr(call, "axis").asInt()) : std::nullopt;
    bool ok = first && axis && originalParts && originalParts->fields.size() == parts->fields.size();
    for (size_t i = 0; ok && i < parts->fields.size(); ++i)
      ok = stateOf(parts->fields[i]) || rankOf(originalParts->fields[i]) == static_cast<int>(first->original.size());
    if (!ok) return bindOriginal(b, makeCall(call.callee, call.args, call.attrs, call.span));
    const LayoutState s = *first;
    std::vector<Expr> fields;
    for (const Expr& f : parts->fields) {
      const LayoutState* st = stateOf(f);
      fields.push_back(st ? permute(f, st->current, s.current) : permute(f, s.original, s.current));
    }
    AttrDict attrs = call.attrs;
    attrs.set("axis", AttrValue::integer(*axis));
    remark(RemarkRule::LayoutFollow, b.value, "concatenate follows " + s.current + " (every part in it, axis remapped)");
    bindConverted(b, makeOpCall(OpId::Concatenate, {makeTuple(std::move(fields), parts->span)}, attrs, call.span), s);
  }

  void convertConv(const Binding& b, const CallNode& call) {
    const std::string dataLayout = callAttr(call, "data_layout").asString();
    const std::string kernelLayout = callAttr(call, "kernel_layout").asString();
    const std::string outLayout = callAttr(call, "out_layout").asString();
    const std::string& D = layouts_.data;
    const std::string& K = layouts_.kernel;
    if (!permutationOf(dataLayout, "NCHW") || !permutationOf(kernelLayout, "OIHW") ||
        (!outLayout.empty() && outLayout != dataLayout)) {
      remark(RemarkRule::LayoutUnsupported, b.value,
             "nn.conv2d kept in " + dataLayout + "/" + kernelLayout + ": " +
                 (!outLayout.empty() && outLayout != dataLayout ? "out_layout " + outLayout + " differs from the data layout"
                                                                 : "only permutations of NCHW/OIHW are converted"));
      return bindOriginalQuiet(b, makeCall(call.callee, call.args, call.attrs, call.span));
    }
    const LayoutState* in = stateOf(call.args[0]);
    if (!in && dataLayout == D && kernelLayout == K) {
      remark(RemarkRule::LayoutAlready, b.value, "nn.conv2d already in " + D + "/" + K);
      return bindOriginalQuiet(b, makeCall(call.callee, call.args, call.attrs, call.span));
    }
    remark(RemarkRule::LayoutConverted, b.value,
           "nn.conv2d converted from " + dataLayout + "/" + kernelLayout + " to " + D + "/" + K +
               (in ? " (its input already arrives in " + in->current + ")" : ""));
    converted_ = true;
    Expr data = in ? permute(call.args[0], in->current, D) : permute(call.args[0], dataLayout, D);
    Expr kernel = permute(inOriginal(call.args[1]), kernelLayout, K);
    AttrDict attrs = call.attrs;
    attrs.set("data_layout", AttrValue::string(D));
    attrs.set("kernel_layout", AttrValue::string(K));
    attrs.erase("out_layout");
    Expr conv = makeOpCall(OpId::Conv2D, {data, kernel}, attrs, call.span);
    if (D == dataLayout) {
      out_.push_back({b.var, conv});
      return;
    }
    bindConverted(b, conv, LayoutState{dataLayout, D});
  }

  const RelaxLayouts& layouts_;
  PassContext& ctx_;
  const std::string& pass_;
  std::string global_;
  bool converted_ = false;
  std::set<std::string> names_;
  std::vector<Binding> out_;
  std::unordered_map<const ExprNode*, Expr> remap_;
  std::unordered_map<const ExprNode*, LayoutState> state_;
  std::unordered_map<const ExprNode*, TupleLayout> tupleState_;
  Substitution subst_;
};

}  // namespace

Function convertLayoutRelax(const Function& fn, const IRModule& mod, const RelaxLayouts& layouts, PassContext& ctx,
                            const std::string& pass, const std::string& global) {
  opt_util::ensureTyped(fn, mod);
  BlockConverter converter(fn, layouts, ctx, pass, global);
  Expr body = converter.mutate(fn->body);
  if (body == fn->body || !converter.converted()) return fn;
  Function result = makeFunction(fn->params, body, fn->retType, fn->attrs, fn->span);
  inferExprType(result, &mod);
  return result;
}

}  // namespace passlab
