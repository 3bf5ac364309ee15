// InlinePrivateFunctions: copies private subroutine bodies into callers on
// targets that cannot emit calls, with fresh loop variables and scratch buffers.
#include "passes/inline_private_functions.h"

#include <set>
#include <unordered_map>

#include "core/pass/registry.h"
#include "core/ir/tir_functor.h"
#include "core/pass/target.h"
#include "passes/pass_util.h"
#include "core/pass/remark_rules.h"

namespace passlab {

namespace {

namespace T = tir;

constexpr const char* kPass = "InlinePrivateFunctions";
/// Deeper nesting than this is taken for recursion.
constexpr int kMaxDepth = 16;

/// Copies a callee's body into its caller: buffers and variables substituted,
/// bound variables and scratch buffers renewed.
class BodyCopier : private T::StmtExprMutator {
 public:
  /// Callee buffer -> caller buffer.
  std::unordered_map<const T::BufferNode*, T::Buffer> buffers;
  /// Callee variable -> replacement.
  std::unordered_map<const T::VarNode*, T::PrimExpr> vars;

  /// `e` in the caller's terms (what mentions no callee variable or buffer stays shared).
  T::PrimExpr expr(const T::PrimExpr& e) { return mutate(e); }
  /// `s` in the caller's terms, with fresh bound variables and scratch buffers.
  T::Stmt stmt(const T::Stmt& s) { return mutate(s); }

 private:
  using T::StmtExprMutator::mutate;
  /// Statements that bind a variable or a buffer, and stores (whose buffer is
  /// substituted), are copied here; the rest is rebuilt generically.
  T::Stmt mutate(const T::Stmt& s) override {
    if (!s) return s;
    switch (s->kind) {
      case T::StmtKind::Store: {
        const auto& st = static_cast<const T::StoreNode&>(*s);
        auto [buffer, idx] = access(st.buffer, st.indices);
        return T::store(buffer, std::move(idx), expr(st.value));
      }
      case T::StmtKind::For: {
        const auto& f = static_cast<const T::ForNode&>(*s);
        T::Var v = T::makeVar(f.var->name, f.var->dtype);
        T::PrimExpr mn = expr(f.min), ext = expr(f.extent);
        vars[f.var.get()] = v;
        return T::forLoop(v, mn, ext, f.forKind, stmt(f.body));
      }
      case T::StmtKind::LetStmt: {
        const auto& l = static_cast<const T::LetStmtNode&>(*s);
        T::Var v = T::makeVar(l.var->name, l.var->dtype);
        T::PrimExpr value = expr(l.value);
        vars[l.var.get()] = v;
        return T::letStmt(v, value, stmt(l.body));
      }
      case T::StmtKind::Allocate: {
        const auto& a = static_cast<const T::AllocateNode&>(*s);
        T::Buffer b = T::makeBuffer(a.buffer->name, a.buffer->dtype, a.buffer->shape);
        buffers[a.buffer.get()] = b;
        return T::allocate(b, stmt(a.body));
      }
      case T::StmtKind::AllocateConst: {
        const auto& a = static_cast<const T::AllocateConstNode&>(*s);
        T::Buffer b = T::makeBuffer(a.buffer->name, a.buffer->dtype, a.buffer->shape);
        buffers[a.buffer.get()] = b;
        return T::allocateConst(b, a.data, stmt(a.body));
      }
      case T::StmtKind::Block: return block(static_cast<const T::BlockNode&>(*s));
      case T::StmtKind::IfThenElse:
      case T::StmtKind::Seq:
      case T::StmtKind::Evaluate:
      case T::StmtKind::Assert: break;
    }
    return mutateChildren(s);
  }

  /// A block copy: bindings and domains in the caller's terms, fresh
  /// iteration variables and scratch buffers.
  T::Stmt block(const T::BlockNode& b) {
    std::vector<T::BlockIterVar> ivs;
    for (const T::BlockIterVar& iv : b.iterVars)
      ivs.push_back({T::makeVar(iv.var->name, iv.var->dtype), expr(iv.min), expr(iv.extent), iv.iterKind, expr(iv.binding)});
    for (size_t i = 0; i < ivs.size(); ++i) vars[b.iterVars[i].var.get()] = ivs[i].var;
    std::vector<T::Buffer> alloc;
    for (const T::Buffer& a : b.allocBuffers) {
      alloc.push_back(T::makeBuffer(a->name, a->dtype, a->shape));
      buffers[a.get()] = alloc.back();
    }
    T::PrimExpr pred = b.predicate ? expr(b.predicate) : nullptr;
    return T::block(b.name, std::move(ivs), std::move(pred), regions(b.reads), regions(b.writes), std::move(alloc),
                    b.init ? stmt(b.init) : nullptr, stmt(b.body), b.annotations);
  }

  /// Regions over the caller's buffers; a buffer addressed through flat
  /// storage (another shape) is declared as accessed whole.
  std::vector<T::BufferRegion> regions(const std::vector<T::BufferRegion>& rs) {
    std::vector<T::BufferRegion> out;
    for (const T::BufferRegion& r : rs) {
      auto it = buffers.find(r.buffer.get());
      T::BufferRegion copy{it == buffers.end() ? r.buffer : it->second, {}};
      if (copy.buffer->shape == r.buffer->shape) {
        for (const auto& [mn, ext] : r.ranges) copy.ranges.emplace_back(expr(mn), expr(ext));
      } else {
        for (int64_t d : copy.buffer->shape) copy.ranges.emplace_back(T::intImm(DTypeCode::Int32, 0), T::intImm(DTypeCode::Int32, d));
      }
      out.push_back(std::move(copy));
    }
    return out;
  }

  /// Callee variables become their replacements, loads read the caller's buffers.
  T::PrimExpr mutate(const T::PrimExpr& e) override {
    if (const auto* v = T::as<T::VarNode>(e)) {
      auto it = vars.find(v);
      return it == vars.end() ? e : it->second;
    }
    if (const auto* l = T::as<T::LoadNode>(e)) {
      auto [buffer, idx] = access(l->buffer, l->indices);
      return T::load(buffer, std::move(idx));
    }
    if (const auto* let = T::as<T::LetNode>(e)) {
      // A fresh variable, as for a let statement (the callee may be inlined twice).
      T::Var v = T::makeVar(let->var->name, let->var->dtype);
      T::PrimExpr value = expr(let->value);
      vars[let->var.get()] = v;
      return T::let(v, std::move(value), expr(let->body));
    }
    return StmtExprMutator::mutate(e);
  }

  /// The caller's buffer and indices for an access of callee buffer `b`; a
  /// caller buffer of another shape is addressed through its flat storage.
  std::pair<T::Buffer, std::vector<T::PrimExpr>> access(const T::Buffer& b, const std::vector<T::PrimExpr>& indices) {
    std::vector<T::PrimExpr> idx;
    for (const T::PrimExpr& i : indices) idx.push_back(expr(i));
    auto it = buffers.find(b.get());
    if (it == buffers.end()) return {b, idx};
    const T::Buffer& to = it->second;
    if (to->shape == b->shape || idx.size() != b->shape.size()) return {to, idx};
    T::PrimExpr flat;
    for (size_t d = 0; d < idx.size(); ++d)
      flat = d == 0 ? idx[0] : T::binary(T::BinaryOp::Add, T::binary(T::BinaryOp::Mul, flat, T::intImm(idx[d]->dtype, b->shape[d])), idx[d]);
    return {to, {flat ? flat : T::intImm(DTypeCode::Int32, 0)}};
  }
};

/// Inlines the private callees of one PrimFunc.
class CallerInliner : private T::StmtExprMutator {
 public:
  CallerInliner(const IRModule& mod, const std::string& caller, PassContext& ctx) : mod_(mod), caller_(caller), ctx_(ctx) {}

  /// The caller's body with every inlinable call statement replaced.
  T::Stmt run(const PrimFuncNode& fn) {
    for (const T::Param& p : fn.params)
      if (p.buffer && p.var) dataVars_[p.var.get()] = p.buffer;
    return mutate(fn.body);
  }
  std::set<std::string> inlined;

 private:
  /// Expressions hold no call statements: they stay as they are.
  T::PrimExpr mutate(const T::PrimExpr& e) override { return e; }

  /// Call statements are inlined; the scratch buffers a call may name are noted on the way down.
  T::Stmt mutate(const T::Stmt& s) override {
    if (!s) return s;
    if (s->kind == T::StmtKind::Evaluate) return evaluate(s);
    if (const auto* a = T::as<T::AllocateNode>(s)) allocated_[a->buffer->name] = a->buffer;
    if (const auto* a = T::as<T::AllocateConstNode>(s)) allocated_[a->buffer->name] = a->buffer;
    if (const auto* b = T::as<T::BlockNode>(s))
      for (const T::Buffer& a : b->allocBuffers) allocated_[a->name] = a;
    return mutateChildren(s);
  }

  /// `s` with its call inlined when the callee is a private PrimFunc.
  T::Stmt evaluate(const T::Stmt& s) {
    const auto* c = T::as<T::CallNode>(static_cast<const T::EvaluateNode&>(*s).value);
    if (!c || !c->isGlobal) return s;
    Expr callee = mod_->lookup(c->callee);
    const auto* prim = as<PrimFuncNode>(callee);
    if (!prim) return s;
    if (prim->attrs.contains(fn_attr::kGlobalSymbol)) {
      if (ctx_.remarksEnabled())
        ctx_.remark(makeRemark(kPass, RemarkRule::PrivatePublic, caller_, {callee},
                               "@" + c->callee + " not inlined into @" + caller_ + ": it is public (global_symbol)"));
      warn("@" + caller_ + " calls public @" + c->callee + ", which InlinePrivateFunctions does not inline; its target cannot emit the call");
      return s;
    }
    if (depth_ >= kMaxDepth) {
      Diagnostic d;
      d.rule = "inline-private.recursion";
      d.function = caller_;
      d.message = "InlinePrivateFunctions: @" + caller_ + " reaches @" + c->callee + " through more than " +
                  std::to_string(kMaxDepth) + " nested calls (recursion cannot be inlined)";
      throw DiagnosticError(std::move(d));
    }
    return inlineCall(*c, *prim);
  }

  /// The caller's buffer an argument names (a data variable or an allocation's name).
  T::Buffer bufferOf(const T::PrimExpr& arg) {
    const auto* v = T::as<T::VarNode>(arg);
    if (!v) return nullptr;
    if (auto it = dataVars_.find(v); it != dataVars_.end()) return it->second;
    if (auto it = allocated_.find(v->name); it != allocated_.end()) return it->second;
    return nullptr;
  }

  T::Stmt inlineCall(const T::CallNode& call, const PrimFuncNode& callee) {
    if (callee.params.size() != call.args.size()) {
      warn("@" + call.callee + " takes " + std::to_string(callee.params.size()) + " arguments, the call in @" + caller_ + " passes " +
           std::to_string(call.args.size()) + "; left as a call");
      return T::evaluate(T::call(call.dtype, call.callee, call.args, true));
    }
    BodyCopier copier;
    std::vector<std::pair<T::Var, T::PrimExpr>> lets;
    for (size_t i = 0; i < call.args.size(); ++i) {
      const T::Param& p = callee.params[i];
      if (p.buffer) {
        T::Buffer b = bufferOf(call.args[i]);
        if (!b) {
          warn("argument " + std::to_string(i) + " of @" + call.callee + " in @" + caller_ + " does not name a buffer; left as a call");
          return T::evaluate(T::call(call.dtype, call.callee, call.args, true));
        }
        copier.buffers[p.buffer.get()] = b;
        if (p.var) copier.vars[p.var.get()] = call.args[i];
      } else {
        T::Var v = T::makeVar(p.var->name, p.var->dtype);
        lets.emplace_back(v, call.args[i]);
        copier.vars[p.var.get()] = v;
      }
    }
    inlined.insert(call.callee);
    if (ctx_.remarksEnabled())
      ctx_.remark(makeRemark(kPass, RemarkRule::PrivateInlined, caller_, {mod_->lookup(call.callee)},
                             "@" + call.callee + " inlined into @" + caller_ + " (its target cannot emit calls)"));
    T::Stmt body = callee.body ? copier.stmt(callee.body) : T::seq({});
    ++depth_;  // the callee's own private calls
    body = mutate(body);
    --depth_;
    for (size_t i = lets.size(); i-- > 0;) body = T::letStmt(lets[i].first, lets[i].second, body);
    return body;
  }

  void warn(const std::string& message) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.rule = "inline-private.cannot-inline";
    d.function = caller_;
    d.message = message;
    ctx_.notifyDiagnostic(d);
  }

  IRModule mod_;
  std::string caller_;
  PassContext& ctx_;
  std::unordered_map<const T::VarNode*, T::Buffer> dataVars_;
  std::unordered_map<std::string, T::Buffer> allocated_;
  /// How many inlined calls deep the statement being rewritten is.
  int depth_ = 0;
};

/// What InlinePrivateFunctions is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& inlinePrivateFunctionsDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = kPass;
    r.info.optLevel = 0;
    // PrimFuncs can be written by hand in any phase
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering, Phase::Build};
    r.info.required = {"BindTarget"};
    r.info.description =
        "Inlines calls of private PrimFuncs (no global_symbol) into callers whose target's code generator cannot emit "
        "calls, and removes the subroutines left unused.";
    r.info.guarantees =
        "No PrimFunc whose target kind is in tir.InlinePrivateFunctions.targets_without_calls calls a private PrimFunc; "
        "callers on other targets are unchanged.";
    std::vector<AttrValue> kinds;
    for (const std::string& k : defaultTargetsWithoutCalls()) kinds.push_back(AttrValue::string(k));
    r.configKeys = {{kTargetsWithoutCallsKey, Kind::Array, AttrValue::array(kinds),
                     "target kinds whose code generator cannot emit calls between PrimFuncs"}};
    r.create = [](const AttrDict&) { return createInlinePrivateFunctionsPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kInlinePrivateFunctionsRegistrar(inlinePrivateFunctionsDeclaration);

class InlinePrivateFunctionsPass final : public Pass {
 public:
  const PassInfo& info() const override { return inlinePrivateFunctionsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    std::set<std::string> noCalls;
    const AttrValue kinds = ctx.config(kTargetsWithoutCallsKey, kPass);
    for (const AttrValue& v : kinds.asArray())
      noCalls.insert(v.kind() == AttrValue::Kind::String ? v.asString() : v.toString());
    IRModule out = mod;
    std::set<std::string> inlined;
    for (const auto& [name, fn] : mod->functions) {
      const auto* prim = as<PrimFuncNode>(fn);
      if (!prim) continue;
      bool calls = false;
      for (const std::string& callee : pass_util::referencedGlobals(fn)) calls = calls || as<PrimFuncNode>(mod->lookup(callee));
      if (!calls) continue;
      const AttrValue* target = prim->attrs.find(fn_attr::kTarget);
      if (!target || target->kind() != AttrValue::Kind::String) {
        ctx.notifySkip({kPass, name, "no target attribute (run BindTarget first)"});
        if (ctx.remarksEnabled())
          ctx.remark(makeRemark(kPass, RemarkRule::PrivateNoTarget, name, {fn}, "@" + name + " has no target attribute: its calls stay"));
        continue;
      }
      std::string kind = parseTarget(target->asString()).kind;
      if (!noCalls.count(kind)) {
        ctx.notifySkip({kPass, name, "target " + kind + " emits calls"});
        if (ctx.remarksEnabled())
          ctx.remark(makeRemark(kPass, RemarkRule::PrivateTargetCalls, name, {fn},
                                "@" + name + "'s calls stay: its target " + kind + " emits calls (" + kTargetsWithoutCallsKey +
                                    " = " + kinds.toString() + ")"));
        continue;
      }
      CallerInliner inliner(mod, name, ctx);
      T::Stmt body = inliner.run(*prim);
      if (body == prim->body) continue;
      inlined.insert(inliner.inlined.begin(), inliner.inlined.end());
      out = withFunction(out, name, makePrimFunc(prim->params, body, prim->attrs, prim->span));
    }
    // Private subroutines that nothing calls any more are gone.
    for (const std::string& name : inlined) {
      bool used = false;
      for (const auto& [other, fn] : out->functions)
        if (other != name && pass_util::referencedGlobals(fn).count(name)) used = true;
      if (!used) out = withoutFunction(out, name);
    }
    return out;
  }
};

}  // namespace

std::vector<std::string> defaultTargetsWithoutCalls() { return {"hexagon"}; }

PassPtr createInlinePrivateFunctionsPass() { return std::make_shared<InlinePrivateFunctionsPass>(); }

}  // namespace passlab
