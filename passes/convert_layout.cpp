#include "passes/convert_layout.h"

#include <map>
#include <optional>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/convert_layout_relax.h"
#include "passes/legalize_relax.h"
#include "passes/opt_util.h"
#include "core/pass/remark_rules.h"

namespace passlab {

namespace {

using opt_util::callAttr;
using opt_util::tensorTypeOf;

/// A value computed in layout `current` where the original program had `original`
/// (both 4 letters, a permutation of each other).
struct LayoutState {
  std::string original;
  std::string current;
  friend bool operator==(const LayoutState& a, const LayoutState& b) { return a.original == b.original && a.current == b.current; }
};
using FieldStates = std::vector<std::optional<LayoutState>>;

/// One-input elementwise ops: the layout passes straight through. Read from
/// the op table's fusion pattern so a new elementwise op needs no edit here.
bool isUnaryElementwise(const OpDef& op) {
  // full's one input is the fill value, not a tensor the output is laid out like.
  return op.pattern == FusionPattern::ElemWise && op.numArgs == 1 && op.id != OpId::Full;
}

/// Two-input broadcasting ops (where has three inputs and is not rewritten;
/// bias_add broadcasts along an axis attribute and is remapped instead).
bool isBroadcastBinary(const OpDef& op) {
  return op.pattern == FusionPattern::Broadcast && op.numArgs == 2 && op.id != OpId::BiasAdd;
}

/// The letters of `sub` in the order they have in `layout`.
std::string reorderedLike(const std::string& sub, const std::string& layout) {
  std::string out;
  for (char c : layout)
    if (sub.find(c) != std::string::npos) out += c;
  return out;
}

size_t rankOf(const Expr& original) {
  const TensorTypeNode* t = tensorTypeOf(original);
  return t ? t->shape.size() : static_cast<size_t>(-1);
}

class LayoutRewriter final : public ExprMutator {
 public:
  LayoutRewriter(std::string dataLayout, std::string kernelLayout) : data_(std::move(dataLayout)), kernel_(std::move(kernelLayout)) {}

  /// True once some convolution was converted.
  bool converted() const { return converted_; }
  /// Records a remark per convolution, and per op that sends a value back to its layout, in `ctx`.
  void explainInto(PassContext& ctx, const std::string& pass, const std::string& function) {
    ctx_ = &ctx;
    pass_ = &pass;
    function_ = function;
  }

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    Expr out = convert(original, rebuilt);
    if (out != original && !out->checkedType && !state_.count(out.get()) && !fields_.count(out.get()))
      out->checkedType = original->checkedType;
    return out;
  }

 private:
  const LayoutState* stateOf(const Expr& e) const {
    auto it = state_.find(e.get());
    return it == state_.end() ? nullptr : &it->second;
  }

  Expr layoutTransform(const Expr& e, const std::string& src, const std::string& dst) {
    if (src == dst) return e;
    auto key = std::make_tuple(e.get(), src, dst);
    if (auto it = transforms_.find(key); it != transforms_.end()) return it->second;
    Expr out = makeOpCall(OpId::LayoutTransform, {e}, {{"src_layout", AttrValue::string(src)}, {"dst_layout", AttrValue::string(dst)}});
    transforms_.emplace(key, out);
    return out;
  }

  /// The value in the layout the original program had.
  Expr untransform(const Expr& e) {
    if (const LayoutState* s = stateOf(e)) return layoutTransform(e, s->current, s->original);
    auto it = fields_.find(e.get());
    const TupleNode* t = as<TupleNode>(e);
    if (it == fields_.end() || !t) return e;
    std::vector<Expr> fields;
    for (const Expr& f : t->fields) fields.push_back(untransform(f));
    return makeTuple(std::move(fields), t->span);
  }

  Expr withState(Expr e, const LayoutState& s) {
    state_[e.get()] = s;
    return e;
  }

  Expr convert(const Expr& original, const Expr& rebuilt) {
    switch (rebuilt->kind) {
      case ExprKind::Call: {
        if (as<CallNode>(rebuilt)->op()) return convertOpCall(original, rebuilt);
        return rebuildAll(rebuilt);
      }
      case ExprKind::Tuple: {
        // Fields keep their layouts: a consumer such as concatenate may follow them.
        FieldStates states;
        bool any = false;
        for (const Expr& f : as<TupleNode>(rebuilt)->fields) {
          const LayoutState* s = stateOf(f);
          states.push_back(s ? std::optional<LayoutState>(*s) : std::nullopt);
          any = any || s;
        }
        if (any) fields_[rebuilt.get()] = std::move(states);
        return rebuilt;
      }
      case ExprKind::TupleGetItem: {
        const TupleGetItemNode* item = as<TupleGetItemNode>(rebuilt);
        auto it = fields_.find(item->tuple.get());
        if (it != fields_.end() && item->index >= 0 && static_cast<size_t>(item->index) < it->second.size() &&
            it->second[static_cast<size_t>(item->index)])
          return withState(rebuilt, *it->second[static_cast<size_t>(item->index)]);
        return rebuildAll(rebuilt);
      }
      case ExprKind::Var:
      case ExprKind::GlobalVar:
      case ExprKind::Constant:
      case ExprKind::Op:
      case ExprKind::PrimFunc: return rebuilt;
      default: return rebuildAll(rebuilt);  // let, if, function, dataflow: every value back to its layout
    }
  }

  /// `e` with every child in its original layout.
  Expr rebuildAll(const Expr& e) {
    std::vector<Expr> children;
    appendChildren(e, children);
    bool changed = false;
    for (Expr& c : children) {
      if (!c || c->kind == ExprKind::Var) continue;  // binding positions stay variables
      Expr u = untransform(c);
      changed = changed || u != c;
      c = u;
    }
    return changed ? rebuildWithChildren(e, children) : e;
  }

  Expr convertOpCall(const Expr& original, const Expr& rebuilt) {
    const CallNode& call = *as<CallNode>(rebuilt);
    const OpDef& op = *call.op();
    const LayoutState* first = call.args.empty() ? nullptr : stateOf(call.args[0]);
    if (op.id == OpId::Conv2D) return convertConv(original, rebuilt);
    if (isUnaryElementwise(op) && first) return withState(rebuilt, *first);
    if (isBroadcastBinary(op)) {
      if (std::optional<Expr> out = convertBinary(original, call)) return *out;
    } else if (first) {
      const LayoutState s = *first;
      AttrDict attrs = call.attrs;
      auto remapAxis = [&](const char* key) {
        std::optional<int64_t> axis = opt_util::normalizedAxis(callAttr(call, key).asInt(), 4);
        if (!axis) return false;
        attrs.set(key, AttrValue::integer(static_cast<int64_t>(s.current.find(s.original[static_cast<size_t>(*axis)]))));
        return true;
      };
      switch (op.id) {
        case OpId::BiasAdd:
          if (remapAxis("axis")) return withState(makeOpCall(op.id, call.args, attrs, call.span), s);
          break;
        case OpId::BatchNorm:
          if (remapAxis("axis")) {
            Expr out = makeOpCall(op.id, call.args, attrs, call.span);
            fields_[out.get()] = {s, std::nullopt, std::nullopt};
            return out;
          }
          break;
        case OpId::MaxPool2D:
        case OpId::AvgPool2D:
        case OpId::GlobalAvgPool2D:
          if (callAttr(call, "layout").asString() == s.original && callAttr(call, "out_layout").asString().empty()) {
            attrs.set("layout", AttrValue::string(s.current));
            return withState(makeOpCall(op.id, call.args, attrs, call.span), s);
          }
          break;
        case OpId::Pad: {
          const std::vector<AttrValue>& widths = callAttr(call, "pad_width").asArray();
          if (widths.size() != 4) break;
          std::vector<AttrValue> permuted;
          for (char axis : s.current) permuted.push_back(widths[s.original.find(axis)]);
          attrs.set("pad_width", AttrValue::array(std::move(permuted)));
          return withState(makeOpCall(op.id, call.args, attrs, call.span), s);
        }
        default: break;
      }
    }
    if (op.id == OpId::Concatenate) {
      auto it = fields_.find(call.args[0].get());
      bool same = it != fields_.end() && !it->second.empty();
      if (same)
        for (const auto& f : it->second) same = same && f && *f == *it->second.front();
      if (same) {
        const LayoutState s = *it->second.front();
        std::optional<int64_t> axis = opt_util::normalizedAxis(callAttr(call, "axis").asInt(), 4);
        if (axis) {
          AttrDict attrs = call.attrs;
          attrs.set("axis", AttrValue::integer(static_cast<int64_t>(s.current.find(s.original[static_cast<size_t>(*axis)]))));
          return withState(makeOpCall(op.id, call.args, attrs, call.span), s);
        }
      }
    }
    if (ctx_) explainTransformBack(original, call);
    return rebuildAll(rebuilt);
  }

  void explainTransformBack(const Expr& original, const CallNode& call) {
    for (const Expr& a : call.args)
      if (const LayoutState* s = stateOf(a)) {
        remark(RemarkRule::LayoutTransformBack, original,
               std::string(call.op()->name) + " cannot follow " + s->current + ": its input is transformed back to " + s->original);
        return;
      }
  }

  void remark(RemarkRule rule, const Expr& node, std::string message) {
    ctx_->remark(makeRemark(*pass_, rule, function_, {node}, std::move(message)));
  }

  std::optional<Expr> convertBinary(const Expr& original, const CallNode& call) {
    const CallNode* originalCall = as<CallNode>(original);
    const LayoutState* s = nullptr;
    for (const Expr& a : call.args)
      if (const LayoutState* st = stateOf(a)) {
        if (s && !(*s == *st)) return std::nullopt;
        s = st;
      }
    if (!s || rankOf(original) != 4) return std::nullopt;
    std::vector<Expr> args;
    for (size_t i = 0; i < call.args.size(); ++i) {
      const Expr& a = call.args[i];
      if (stateOf(a)) {
        args.push_back(a);
        continue;
      }
      const size_t rank = rankOf(originalCall->args[i]);
      if (rank == 0) {
        args.push_back(a);
      } else if (rank == 4) {
        args.push_back(layoutTransform(a, s->original, s->current));
      } else if (rank < 4) {
        // A lower-rank operand broadcasts against the trailing axes; it can follow
        // only when its axes stay trailing in the new layout (CHW → HWC).
        std::string sub = s->original.substr(4 - rank);
        std::string moved = reorderedLike(sub, s->current);
        if (moved != s->current.substr(4 - rank)) return std::nullopt;
        args.push_back(layoutTransform(a, sub, moved));
      } else {
        return std::nullopt;
      }
    }
    return withState(makeCall(call.callee, std::move(args), call.attrs, call.span), *s);
  }

  Expr convertConv(const Expr& original, const Expr& rebuilt) {
    const CallNode& call = *as<CallNode>(rebuilt);
    const std::string dataLayout = callAttr(call, "data_layout").asString();
    const std::string kernelLayout = callAttr(call, "kernel_layout").asString();
    const std::string outLayout = callAttr(call, "out_layout").asString();
    const bool supported = callAttr(call, "groups").asInt() == 1 && (dataLayout == "NCHW" || dataLayout == "NHWC") &&
                           (outLayout.empty() || outLayout == dataLayout);
    if (!supported) {
      if (ctx_)
        remark(RemarkRule::LayoutUnsupported, original,
               "nn.conv2d kept in " + dataLayout + ": " +
                   (callAttr(call, "groups").asInt() != 1 ? "groups = " + std::to_string(callAttr(call, "groups").asInt()) + " (grouped)"
                    : dataLayout != "NCHW" && dataLayout != "NHWC" ? "only NCHW and NHWC are converted"
                                                                   : "out_layout " + outLayout + " differs from the data layout"));
      return rebuildAll(rebuilt);
    }
    const LayoutState* in = stateOf(call.args[0]);
    const std::string arriving = in ? in->current : dataLayout;
    const std::string kernel = kernel_ == "default" ? (data_ == "NHWC" ? "HWIO" : "OIHW") : kernel_;
    if (!in && dataLayout == data_ && kernelLayout == kernel) {
      if (ctx_) remark(RemarkRule::LayoutAlready, original, "nn.conv2d already in " + data_ + "/" + kernel);
      return rebuilt;
    }
    if (ctx_)
      remark(RemarkRule::LayoutConverted, original,
             "nn.conv2d converted from " + dataLayout + "/" + kernelLayout + " to " + data_ + "/" + kernel +
                 (in ? " (its input already arrives in " + in->current + ")" : ""));
    AttrDict attrs = call.attrs;
    attrs.set("data_layout", AttrValue::string(data_));
    attrs.set("kernel_layout", AttrValue::string(kernel));
    attrs.erase("out_layout");
    Expr out = makeOpCall(OpId::Conv2D, {layoutTransform(call.args[0], arriving, data_), layoutTransform(call.args[1], kernelLayout, kernel)},
                          attrs, call.span);
    converted_ = true;
    return data_ == dataLayout ? out : withState(out, LayoutState{dataLayout, data_});
  }

  std::string data_;
  std::string kernel_;
  bool converted_ = false;
  PassContext* ctx_ = nullptr;  // remarks on: where they go
  const std::string* pass_ = nullptr;
  std::string function_;
  std::unordered_map<const ExprNode*, LayoutState> state_;
  std::unordered_map<const ExprNode*, FieldStates> fields_;
  std::map<std::tuple<const ExprNode*, std::string, std::string>, Expr> transforms_;
};

/// What ConvertLayout is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& convertLayoutDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    ConvertLayoutOptions defaults;
    PassRegistration r;
    r.info.name = "ConvertLayout";
    r.level = PassLevel::Function;
    r.info.optLevel = 3;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Converts nn.conv2d to the desired data/kernel layouts, inserting layout_transform where needed and "
        "propagating the layout through layout-agnostic ops.";
    r.info.guarantees =
        "Every ungrouped NCHW/NHWC conv2d uses the desired layouts; function signatures and results are unchanged.";
    r.options = {
        {"data_layout", Kind::String, AttrValue::string(defaults.dataLayout), "desired conv2d data layout: NCHW or NHWC"},
        {"kernel_layout", Kind::String, AttrValue::string(defaults.kernelLayout),
         "desired conv2d kernel layout: OIHW, HWIO, OHWI or default"},
        {"desired_layouts", Kind::Dict, AttrValue::dict(AttrDict{}),
         "TVM's form: {nn.conv2d=[DATA,KERNEL]} (or relax.nn.conv2d); replaces data_layout/kernel_layout"},
    };
    r.create = [](const AttrDict& options) {
      ConvertLayoutOptions o;
      o.dataLayout = options.getString("data_layout", o.dataLayout);
      o.kernelLayout = options.getString("kernel_layout", o.kernelLayout);
      if (const AttrValue* desired = options.find("desired_layouts"); desired && desired->kind() == Kind::Dict)
        applyDesiredLayouts(desired->asDict(), o);
      return createConvertLayoutPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kConvertLayoutRegistrar(convertLayoutDeclaration);

class ConvertLayoutPass final : public Pass {
 public:
  explicit ConvertLayoutPass(ConvertLayoutOptions options) : options(std::move(options)) {
    const ConvertLayoutOptions& o = this->options;
    if (o.dataLayout != "NCHW" && o.dataLayout != "NHWC")
      throwError({}, "ConvertLayout: data_layout must be NCHW or NHWC, got '" + o.dataLayout + "'", "pipeline");
    if (o.kernelLayout != "default" && o.kernelLayout != "OIHW" && o.kernelLayout != "HWIO" && o.kernelLayout != "OHWI")
      throwError({}, "ConvertLayout: kernel_layout must be OIHW, HWIO, OHWI or default, got '" + o.kernelLayout + "'", "pipeline");
    ConvertLayoutOptions defaults;
    if (o.dataLayout != defaults.dataLayout) options_.set("data_layout", AttrValue::string(o.dataLayout));
    if (o.kernelLayout != defaults.kernelLayout) options_.set("kernel_layout", AttrValue::string(o.kernelLayout));
  }

  const PassInfo& info() const override { return convertLayoutDeclaration().info; }
  // TVM registers Relay's ConvertLayout at opt level 3 and Relax's at 0.
  int optLevelOn(const IRModule& mod) const override { return isRelaxModule(mod) ? 0 : info().optLevel; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    const std::string& name = info().name;
    ctx.recordOption("data_layout", AttrValue::string(options.dataLayout), name);
    ctx.recordOption("kernel_layout", AttrValue::string(options.kernelLayout), name);
    if (isRelaxModule(mod)) {
      // TVM's Relax form names the kernel layout explicitly; "default" is the Relay pass's pairing.
      RelaxLayouts layouts{options.dataLayout,
                           options.kernelLayout != "default" ? options.kernelLayout : (options.dataLayout == "NHWC" ? "HWIO" : "OIHW")};
      return opt_util::mapFunctions(mod, ctx, name, [&](const Function& fn, const std::string& global) -> Function {
        return convertLayoutRelax(fn, mod, layouts, ctx, name, global);
      });
    }
    return opt_util::mapFunctions(mod, ctx, name, [&](const Function& fn, const std::string& global) -> Function {
      bool hasConv = false;
      postOrderVisit(fn, [&](const Expr& e) { hasConv = hasConv || opt_util::callTo(e, OpId::Conv2D); });
      if (!hasConv) return fn;
      opt_util::ensureTyped(fn, mod);
      LayoutRewriter rewriter(options.dataLayout, options.kernelLayout);
      if (ctx.remarksEnabled()) rewriter.explainInto(ctx, name, global);
      Expr out = rewriter.mutate(fn);
      if (out == fn || !rewriter.converted()) return fn;
      Function result = std::static_pointer_cast<const FunctionNode>(out);
      inferExprType(result, &mod);
      return result;
    });
  }

 private:
  ConvertLayoutOptions options;
};

}  // namespace

void applyDesiredLayouts(const AttrDict& desired, ConvertLayoutOptions& options) {
  for (const auto& [op, value] : desired.entries()) {
    if (op != "nn.conv2d" && op != "relax.nn.conv2d")
      throwError({}, "ConvertLayout: desired_layouts names '" + op + "'; only nn.conv2d (or relax.nn.conv2d) is converted", "pipeline");
    const std::vector<AttrValue>* items = value.kind() == AttrValue::Kind::Array ? &value.asArray() : nullptr;
    bool strings = items && !items->empty() && items->size() <= 2;
    for (size_t i = 0; strings && i < items->size(); ++i) strings = (*items)[i].kind() == AttrValue::Kind::String;
    if (!strings)
      throwError({}, "ConvertLayout: desired_layouts[" + op + "] must be [DATA_LAYOUT, KERNEL_LAYOUT], e.g. [NHWC,OHWI]", "pipeline");
    options.dataLayout = (*items)[0].asString();
    options.kernelLayout = items->size() == 2 ? (*items)[1].asString() : "default";
  }
}

PassPtr createConvertLayoutPass(const ConvertLayoutOptions& options) { return std::make_shared<ConvertLayoutPass>(options); }

}  // namespace passlab
