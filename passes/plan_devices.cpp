// PlanDevices: union-find over the values of every graph-level function. Each
// class of values that must live together carries at most one device and the
// reason it got it; annotations fix classes, ops merge their operands' and
// result's classes, and the few places a value may change device (on_device
// without constrain_result, a call into another target's function) are kept
// as boundaries where the rewrite inserts device_copy.
#include "passes/plan_devices.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/ir/virtual_device.h"
#include "core/pass/registry.h"

namespace passlab {

namespace {

constexpr const char* kPass = "PlanDevices";

/// Classes of values that share a device.
class DeviceClasses {
 public:
  int make() {
    parent_.push_back(static_cast<int>(parent_.size()));
    device_.push_back(-1);
    reason_.emplace_back();
    return parent_.back();
  }
  int find(int x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  int64_t device(int x) { return device_[find(x)]; }
  const std::string& reason(int x) { return reason_[find(x)]; }
  /// Gives class x `device`; returns false (and leaves it) when it already has another.
  bool fix(int x, int64_t device, const std::string& why) {
    int r = find(x);
    if (device_[r] >= 0) return device_[r] == device;
    device_[r] = device;
    reason_[r] = why;
    return true;
  }
  /// Merges two classes; false when both have devices and they differ.
  bool unite(int a, int b) {
    int ra = find(a), rb = find(b);
    if (ra == rb) return true;
    if (device_[ra] >= 0 && device_[rb] >= 0 && device_[ra] != device_[rb]) return false;
    if (device_[ra] < 0) {
      device_[ra] = device_[rb];
      reason_[ra] = reason_[rb];
    }
    parent_[rb] = ra;
    return true;
  }

 private:
  std::vector<int> parent_;
  std::vector<int64_t> device_;
  std::vector<std::string> reason_;
};

std::string where(const Span& span) { return span.known() ? " at " + span.location() : ""; }

AttrValue deviceRef(int64_t index) { return AttrValue::metaRef(kVirtualDeviceKind, index); }

/// A computed value (not a variable, constant or on_device), which TVM pins
/// to its device before copying it away.
bool needsPin(const Expr& value) {
  const auto* call = as<CallNode>(value);
  return call && !(call->op() && call->op()->id == OpId::OnDevice);
}

/// `on_device(value, virtual_device=device, constrain_result=True)`.
Expr pin(const Expr& value, int64_t device, const Span& span) {
  AttrDict attrs;
  attrs.set("virtual_device", deviceRef(device));
  attrs.set("constrain_result", AttrValue::boolean(true));
  return makeOpCall(OpId::OnDevice, {value}, attrs, span);
}

class Planner {
 public:
  Planner(const IRModule& mod, PassContext& ctx) : mod_(mod), ctx_(ctx), table_(virtualDeviceTable(mod)) {}

  IRModule run() {
    chooseDefault();
    std::vector<std::pair<std::string, const FunctionNode*>> planned;
    for (const auto& [name, fn] : mod_->functions) {
      const auto* f = as<FunctionNode>(fn);
      if (!f) continue;
      if (std::optional<std::string> reason = defaultFunctionSkipReason(*f)) {
        ctx_.notifySkip(FunctionSkip{kPass, name, *reason});
        skipped_.insert(name);
        continue;
      }
      planned.emplace_back(name, f);
    }
    for (const auto& [name, f] : planned) collect(name, mod_->functions.at(name), *f);
    if (!conflicts_.empty()) throw DiagnosticError(std::move(conflicts_));
    followPreferences();
    settleDefaults();
    IRModule out = mod_;
    for (const auto& [name, f] : planned) {
      Expr rewritten = rewriteFunction(name, mod_->functions.at(name), *f);
      if (rewritten != mod_->functions.at(name)) out = withFunction(out, name, rewritten);
    }
    if (out == mod_ && table_.size() == virtualDeviceTable(mod_).size()) return mod_;
    return inferTypes(withVirtualDeviceTable(out, table_));
  }

 private:
  // ---- Devices ----

  /// The table entry for a device type (and target), added when missing.
  int64_t deviceFor(int deviceType, const std::string& target) {
    std::string_view kind = std::string_view(target).substr(0, target.find(' '));
    for (size_t i = 0; i < table_.size(); ++i) {
      const VirtualDevice& d = table_[i];
      if (d.deviceType != deviceType || d.virtualDeviceId != 0) continue;
      std::string_view dkind = std::string_view(d.target).substr(0, d.target.find(' '));
      if (target.empty() || d.target.empty() || dkind == kind) return static_cast<int64_t>(i);
    }
    VirtualDevice d;
    d.deviceType = deviceType;
    d.target = target;
    table_.push_back(d);
    return static_cast<int64_t>(table_.size() - 1);
  }

  int64_t deviceOfRef(const AttrValue& ref) {
    int64_t index = ref.metaIndex();
    if (static_cast<size_t>(index) >= table_.size()) table_.resize(static_cast<size_t>(index) + 1);
    return index;
  }

  /// `meta[VirtualDevice][1] (hexagon:0)`: the reference and the device it names.
  std::string describe(int64_t device) const {
    return deviceRef(device).toString() + " (" + shortName(device) + ")";
  }
  /// `hexagon:0`, or `placeholder N` for a device the text did not describe.
  std::string shortName(int64_t device) const {
    const VirtualDevice& d = table_[static_cast<size_t>(device)];
    return d.isPlaceholder() ? "placeholder " + std::to_string(device) : d.shortName();
  }

  void chooseDefault() {
    std::optional<AttrValue> fallback = ctx_.configIfSet(kFallbackDeviceTypeKey, kPass);
    if (fallback) {
      defaultDevice_ = deviceFor(static_cast<int>(fallback->asInt()), "");
      defaultReason_ = "default device: " + std::string(kFallbackDeviceTypeKey) + "=" + fallback->toString();
      return;
    }
    std::optional<AttrValue> kind = ctx_.targetAttr("kind", kPass);
    int type = kind ? deviceTypeOfTarget(kind->asString()) : device_type::kUnknown;
    if (type != device_type::kUnknown) {
      defaultDevice_ = deviceFor(type, ctx_.target);
      defaultReason_ = "default device: the context target \"" + ctx_.target + "\"";
      return;
    }
    defaultDevice_ = deviceFor(device_type::kCPU, "");
    defaultReason_ = std::string("default device: cpu (") + kFallbackDeviceTypeKey + " is not set and there is no target)";
  }

  // ---- Classes ----

  int cls(const ExprNode* e) {
    auto [it, added] = classOf_.try_emplace(e, 0);
    if (added) it->second = classes_.make();
    return it->second;
  }

  void fix(const ExprNode* e, int64_t device, const std::string& why, const std::string& fn) {
    int c = cls(e);
    if (classes_.fix(c, device, why)) return;
    conflict(fn, e->span, "put on " + describe(classes_.device(c)) + " by " + classes_.reason(c) + ", and on " +
                              describe(device) + " by " + why);
  }

  void unite(const ExprNode* a, const ExprNode* b, const std::string& fn) {
    int ca = cls(a), cb = cls(b);
    if (classes_.unite(ca, cb)) return;
    conflict(fn, a->span, "needed on " + describe(classes_.device(ca)) + " (" + classes_.reason(ca) + ") and on " +
                              describe(classes_.device(cb)) + " (" + classes_.reason(cb) + ")");
  }

  void conflict(const std::string& fn, const Span& span, const std::string& what) {
    Diagnostic d;
    d.span = span;
    d.function = fn;
    d.rule = "plan-devices.conflict";
    d.message = "@" + fn + ": a value is " + what;
    conflicts_.push_back(std::move(d));
  }

  /// The device a global's `target` attribute names, or -1.
  int64_t targetDevice(const std::string& name) {
    const FunctionNode* f = mod_->lookupFunction(name);
    if (!f || skipped_.count(name)) return -1;
    std::string target = f->attrs.getString(fn_attr::kTarget);
    int type = deviceTypeOfTarget(target);
    return type == device_type::kUnknown ? -1 : deviceFor(type, target);
  }

  // ---- Constraints ----

  void collect(const std::string& name, const Expr& fnExpr, const FunctionNode& fn) {
    postOrderVisit(fnExpr, [&](const Expr& e) { constrain(name, e); });
    // An on_device that is the function's result puts the result there (as
    // in TVM): nothing after it could want the value elsewhere.
    Expr result = fn.body;
    while (true) {
      if (const auto* l = as<LetNode>(result)) result = l->body;
      else if (const auto* d = as<DataflowNode>(result)) result = d->body;
      else break;
    }
    if (const auto* call = as<CallNode>(result); call && call->op() && call->op()->id == OpId::OnDevice) {
      const AttrValue& vd = attrOrDefault(*call->op(), call->attrs, "virtual_device");
      if (isVirtualDeviceRef(vd)) fix(result.get(), deviceOfRef(vd), "on_device" + where(call->span) + " (the result)", name);
    }
    if (const AttrValue* vd = fn.attrs.find("virtual_device"); vd && isVirtualDeviceRef(*vd))
      fix(fnExpr.get(), deviceOfRef(*vd), "@" + name + "'s virtual_device attribute", name);
    if (int64_t d = targetDevice(name); d >= 0)
      fix(fnExpr.get(), d, "@" + name + "'s target \"" + fn.attrs.getString(fn_attr::kTarget) + "\"", name);
  }

  void constrain(const std::string& fn, const Expr& e) {
    const ExprNode* node = e.get();
    switch (e->kind) {
      case ExprKind::Var: {
        const auto* v = as<VarNode>(e);
        if (isVirtualDeviceRef(v->virtualDevice))
          fix(node, deviceOfRef(v->virtualDevice), "%" + v->name + "'s virtual_device annotation", fn);
        else
          cls(node);
        break;
      }
      case ExprKind::Constant: cls(node); break;
      case ExprKind::Tuple:
        for (const Expr& f : as<TupleNode>(e)->fields) unite(node, f.get(), fn);
        cls(node);
        break;
      case ExprKind::TupleGetItem: unite(node, as<TupleGetItemNode>(e)->tuple.get(), fn); break;
      case ExprKind::Let: {
        const auto* l = as<LetNode>(e);
        if (const auto* literal = as<FunctionNode>(l->value)) closures_[l->var.get()] = literal;
        unite(l->var.get(), l->value.get(), fn);
        unite(node, l->body.get(), fn);
        break;
      }
      case ExprKind::If: {
        const auto* i = as<IfNode>(e);
        unite(node, i->cond.get(), fn);
        unite(node, i->thenBranch.get(), fn);
        unite(node, i->elseBranch.get(), fn);
        break;
      }
      case ExprKind::Function: unite(node, as<FunctionNode>(e)->body.get(), fn); break;
      case ExprKind::Dataflow: {
        const auto* d = as<DataflowNode>(e);
        for (const Binding& b : d->bindings) unite(b.var.get(), b.value.get(), fn);
        unite(node, d->body.get(), fn);
        break;
      }
      case ExprKind::Call: constrainCall(fn, e, *as<CallNode>(e)); break;
      default: break;
    }
  }

  void constrainCall(const std::string& fn, const Expr& e, const CallNode& call) {
    const ExprNode* node = e.get();
    if (const OpDef* op = call.op()) {
      if (op->id == OpId::OnDevice) {
        const AttrValue& vd = attrOrDefault(*op, call.attrs, "virtual_device");
        if (!isVirtualDeviceRef(vd)) {
          unite(node, call.args[0].get(), fn);  // no device given: a no-op annotation
          return;
        }
        fix(call.args[0].get(), deviceOfRef(vd), "on_device" + where(call.span), fn);
        if (attrOrDefault(*op, call.attrs, "constrain_result").asBool())
          unite(node, call.args[0].get(), fn);
        else
          cls(node);  // its consumers decide; a copy bridges the two
        return;
      }
      if (op->id == OpId::DeviceCopy) {
        const AttrValue& src = attrOrDefault(*op, call.attrs, "src_virtual_device");
        const AttrValue& dst = attrOrDefault(*op, call.attrs, "dst_virtual_device");
        if (isVirtualDeviceRef(src)) fix(call.args[0].get(), deviceOfRef(src), "device_copy" + where(call.span), fn);
        if (isVirtualDeviceRef(dst)) fix(node, deviceOfRef(dst), "device_copy" + where(call.span), fn);
        cls(node);
        return;
      }
      for (const Expr& a : call.args)
        if (a->kind != ExprKind::GlobalVar && a->kind != ExprKind::Function) operand(node, a.get(), fn);
      cls(node);
      return;
    }
    if (const auto* gv = as<GlobalVarNode>(call.callee)) {
      int64_t device = targetDevice(gv->name);
      const FunctionNode* callee = mod_->lookupFunction(gv->name);
      if (device >= 0) {
        // Another target's function: the call runs there; arguments are copied in.
        fix(node, device, "@" + gv->name + "'s target \"" + callee->attrs.getString(fn_attr::kTarget) + "\"", fn);
        targetCalls_.insert(node);
        for (const Expr& a : call.args) {
          cls(a.get());
          prefs_.push_back({a.get(), node, "an argument of @" + gv->name + ", which runs on " + shortName(device)});
        }
        return;
      }
      if (callee && !skipped_.count(gv->name)) {
        for (size_t i = 0; i < callee->params.size() && i < call.args.size(); ++i)
          operand(callee->params[i].get(), call.args[i].get(), fn);
        unite(node, mod_->functions.at(gv->name).get(), fn);
        return;
      }
    } else if (const FunctionNode* literal = closureOf(call.callee)) {
      // A function literal called in place or through the variable a let bound it to.
      for (size_t i = 0; i < literal->params.size() && i < call.args.size(); ++i)
        operand(literal->params[i].get(), call.args[i].get(), fn);
      unite(node, literal, fn);
      return;
    }
    // External functions, PrimFuncs, closures in variables: computed where their arguments are.
    for (const Expr& a : call.args) operand(node, a.get(), fn);
    cls(node);
  }

  const FunctionNode* closureOf(const Expr& callee) const {
    if (const auto* literal = as<FunctionNode>(callee)) return literal;
    auto it = closures_.find(callee.get());
    return it == closures_.end() ? nullptr : it->second;
  }

  /// `user` reads `value`: the same device, except that the result of a call
  /// into another target's function is only a preference (a copy bridges it).
  void operand(const ExprNode* user, const ExprNode* value, const std::string& fn) {
    if (!targetCalls_.count(value)) {
      unite(user, value, fn);
      return;
    }
    cls(user);
    const auto& call = static_cast<const CallNode&>(*value);
    prefs_.push_back({user, value,
                      "uses the result of @" + static_cast<const GlobalVarNode&>(*call.callee).name + " on " +
                          shortName(classes_.device(cls(value)))});
  }

  /// Values that only touch another target's call go where that call runs,
  /// so a parameter used only there is placed there rather than copied.
  void followPreferences() {
    for (bool changed = true; changed;) {
      changed = false;
      for (const Preference& p : prefs_) {
        int c = cls(p.value);
        if (classes_.device(c) >= 0) continue;
        int64_t d = classes_.device(cls(p.anchor));
        if (d < 0) continue;
        classes_.fix(c, d, p.why);
        changed = true;
      }
    }
  }

  /// What nothing decided goes to the default device (every value planned has
  /// a class, the functions themselves included).
  void settleDefaults() {
    for (const auto& [node, c] : classOf_) classes_.fix(c, defaultDevice_, defaultReason_);
  }

  int64_t deviceOf(const ExprNode* e) {
    auto it = classOf_.find(e);
    return it == classOf_.end() ? defaultDevice_ : classes_.device(it->second);
  }

  // ---- Rewrite ----

  class Rewriter : public ExprMutator {
   public:
    Rewriter(Planner& planner, std::string fn) : p_(planner), fn_(std::move(fn)) {}
    std::unordered_map<const VarNode*, Var> params;

   protected:
    std::optional<Expr> preVisit(const Expr& e) override {
      if (const auto* v = as<VarNode>(e))
        if (auto it = params.find(v); it != params.end()) return it->second;
      return std::nullopt;
    }

    Expr rewrite(const Expr& original, const Expr& rebuilt) override {
      if (const auto* literal = as<FunctionNode>(rebuilt)) {
        // A closure, as TVM plans it: its parameters and its result get devices too.
        AttrValue device = deviceRef(p_.deviceOf(original.get()));
        const AttrValue* current = literal->attrs.find("virtual_device");
        if (current && *current == device) return rebuilt;
        AttrDict attrs = literal->attrs;
        attrs.set("virtual_device", device);
        return makeFunction(literal->params, literal->body, literal->retType, std::move(attrs), literal->span);
      }
      const auto* call = as<CallNode>(rebuilt);
      if (!call) return rebuilt;
      const OpDef* op = call->op();
      if (op && op->id == OpId::OnDevice) {
        // As TVM leaves a plan: the devices live in the parameters' and
        // functions' annotations, so an on_device stays only where a value is
        // copied away (pinned to its source device, below).
        const AttrValue& vd = attrOrDefault(*op, call->attrs, "virtual_device");
        if (!isVirtualDeviceRef(vd)) return rebuilt;
        int64_t src = vd.metaIndex(), dst = p_.deviceOf(original.get());
        if (src == dst) return call->args[0];
        return p_.copy(fn_, call->args[0], src, dst,
                       "the result of on_device" + where(call->span) + " is used on " + p_.shortName(dst), call->span);
      }
      if (op && op->id == OpId::DeviceCopy) {
        // As TVM: the copied value, computed on the source device, says so.
        const AttrValue& src = attrOrDefault(*op, call->attrs, "src_virtual_device");
        // Already pinned (a plan planned again): the same nodes come back.
        const auto& before = static_cast<const CallNode&>(*original);
        if (const auto* kept = as<CallNode>(before.args[0]); kept && kept->op() && kept->op()->id == OpId::OnDevice &&
                                                             !kept->args.empty() && call->args[0] == kept->args[0] &&
                                                             attrOrDefault(*kept->op(), kept->attrs, "virtual_device") == src &&
                                                             attrOrDefault(*kept->op(), kept->attrs, "constrain_result").asBool())
          return original;
        if (!isVirtualDeviceRef(src) || !needsPin(call->args[0])) return rebuilt;
        return makeCall(call->callee, {pin(call->args[0], src.metaIndex(), call->span)}, call->attrs, call->span);
      }
      // A call into another target's function, or a use of one's result:
      // where the two sides' devices differ, the value is copied across.
      const auto& before = static_cast<const CallNode&>(*original);
      bool intoTarget = p_.targetCalls_.count(original.get()) > 0;
      int64_t here = p_.deviceOf(original.get());
      std::vector<Expr> args = call->args;
      bool changed = false;
      for (size_t i = 0; i < args.size(); ++i) {
        const ExprNode* arg = before.args[i].get();
        if (!intoTarget && !p_.targetCalls_.count(arg)) continue;
        if (arg->kind == ExprKind::GlobalVar || arg->kind == ExprKind::Function) continue;
        int64_t there = p_.deviceOf(arg);
        if (there == here) continue;
        std::string why = intoTarget ? "argument " + std::to_string(i) + " of " + calleeName(before) + ", which runs on " +
                                           p_.shortName(here)
                                     : "the result of " + calleeName(static_cast<const CallNode&>(*arg)) + " is used on " +
                                           p_.shortName(here);
        args[i] = p_.copy(fn_, args[i], there, here, why, call->span);
        changed = true;
      }
      if (changed) return makeCall(call->callee, std::move(args), call->attrs, call->span);
      return rebuilt;
    }

   private:
    static std::string calleeName(const CallNode& call) {
      if (const auto* gv = as<GlobalVarNode>(call.callee)) return "@" + gv->name;
      if (const OpDef* op = call.op()) return std::string(op->name);
      return "a function";
    }
    Planner& p_;
    std::string fn_;
  };

  Expr copy(const std::string& fn, Expr value, int64_t src, int64_t dst, const std::string& why, const Span& span) {
    if (needsPin(value)) value = pin(value, src, span);
    AttrDict attrs;
    attrs.set("src_virtual_device", deviceRef(src));
    attrs.set("dst_virtual_device", deviceRef(dst));
    ctx_.recordDecision("device_copy.@" + fn + "." + std::to_string(++copies_[fn]),
                        AttrValue::string(describe(src) + " -> " + describe(dst) + ": " + why), kPass);
    return makeOpCall(OpId::DeviceCopy, {value}, attrs, span);
  }

  Expr rewriteFunction(const std::string& name, const Expr& fnExpr, const FunctionNode& fn) {
    Rewriter rewriter(*this, name);
    std::vector<Var> params;
    for (const Var& p : fn.params) {
      int64_t device = deviceOf(p.get());
      ctx_.recordDecision("device.@" + name + ".%" + p->name,
                          AttrValue::string(describe(device) + ": " + classes_.reason(cls(p.get()))), kPass);
      if (p->virtualDevice == deviceRef(device)) {
        params.push_back(p);
        continue;
      }
      Var annotated = makeVarOnDevice(p->name, p->annotation, deviceRef(device), p->span);
      rewriter.params[p.get()] = annotated;
      params.push_back(annotated);
    }
    // Parameters of the closures inside are planned like the function's own.
    postOrderVisit(fn.body, [&](const Expr& e) {
      const auto* literal = as<FunctionNode>(e);
      if (!literal) return;
      for (const Var& p : literal->params) {
        AttrValue device = deviceRef(deviceOf(p.get()));
        if (p->virtualDevice != device) rewriter.params[p.get()] = makeVarOnDevice(p->name, p->annotation, device, p->span);
      }
    });
    int64_t result = deviceOf(fnExpr.get());
    ctx_.recordDecision("device.@" + name, AttrValue::string(describe(result) + ": " + classes_.reason(cls(fnExpr.get()))),
                        kPass);
    Expr body = rewriter.mutate(fn.body);
    const AttrValue* current = fn.attrs.find("virtual_device");
    if (body == fn.body && rewriter.params.empty() && current && *current == deviceRef(result)) return fnExpr;
    AttrDict attrs = fn.attrs;
    attrs.set("virtual_device", deviceRef(result));
    return makeFunction(std::move(params), body, fn.retType, std::move(attrs), fn.span);
  }

  IRModule mod_;
  PassContext& ctx_;
  std::vector<VirtualDevice> table_;
  int64_t defaultDevice_ = 0;
  std::string defaultReason_;
  DeviceClasses classes_;
  std::unordered_map<const ExprNode*, int> classOf_;
  std::unordered_set<const ExprNode*> targetCalls_;
  /// Let-bound function literals, by their variable.
  std::unordered_map<const ExprNode*, const FunctionNode*> closures_;
  /// `value` would rather be on `anchor`'s device (if nothing else decides).
  struct Preference {
    const ExprNode* value;
    const ExprNode* anchor;
    std::string why;
  };
  std::vector<Preference> prefs_;
  std::unordered_set<std::string> skipped_;
  std::unordered_map<std::string, int> copies_;
  std::vector<Diagnostic> conflicts_;
};

/// What PlanDevices is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& planDevicesDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = kPass;
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Decides the virtual device of every value from on_device and device_copy annotations, parameter and function "
        "virtual_device annotations and the targets of called functions; inserts device_copy where a value crosses "
        "devices. Every decision is recorded with the annotation or target that made it.";
    r.info.guarantees =
        "Every parameter of a planned function has a virtual_device and every planned function a virtual_device "
        "attribute; every on_device has constrain_result=True; a value used on another device than its own goes through "
        "device_copy; the virtual_devices table holds every device referenced. Idempotent.";
    r.configKeys = {{kFallbackDeviceTypeKey, Kind::Int, AttrValue::integer(1),
                     "DLPack device type of the default device (1 cpu, 2 cuda, 16 hexagon); when not set, the context "
                     "target's kind decides, else cpu", 1, 17}};
    r.create = [](const AttrDict&) { return createPlanDevicesPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kPlanDevicesRegistrar(planDevicesDeclaration);

class PlanDevicesPass final : public Pass {
 public:
  const PassInfo& info() const override { return planDevicesDeclaration().info; }
  IRModule run(const IRModule& mod, PassContext& ctx) const override { return Planner(mod, ctx).run(); }
};

}  // namespace

PassPtr createPlanDevicesPass() { return std::make_shared<PlanDevicesPass>(); }

}  // namespace passlab
