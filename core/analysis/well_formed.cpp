// The well-formed checker: scoping of variables (defined once, before use, in
// scope), globals that exist and agree with their global_symbol, dataflow
// blocks free of control flow and side effects, annotations that agree with
// inferred types, and the phase invariants. Graph level is walked with an
// explicit stack of visit/bind/unbind actions (models are 100k-node chains);
// TIR recursively.
#include "core/analysis/well_formed.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/lowering_ops.h"
#include "core/ir/tir_functor.h"

namespace passlab {

const std::vector<WellFormedRule>& wellFormedRules() {
  static const std::vector<WellFormedRule> kRules = {
      {"wf.undefined-var", 0, "every variable is defined before its use and used only in its scope"},
      {"wf.duplicate-def", 0, "every variable (and TIR buffer) is defined once"},
      {"wf.param-of-two-functions", 0, "no variable is a parameter of two functions"},
      {"wf.undefined-global", 0, "every referenced global is defined in the module"},
      {"wf.global-symbol-mismatch", 0, "a global's global_symbol, where present, equals its name"},
      {"wf.duplicate-global-symbol", 0, "no two globals share a global_symbol"},
      {"wf.dataflow-var-outside", 0, "dataflow variables are bound only inside dataflow blocks"},
      {"wf.dataflow-var-escape", 0, "dataflow variables are used only inside their block"},
      {"wf.if-in-dataflow", 0, "no if inside a dataflow block"},
      {"wf.impure-in-dataflow", 0, "no impure call (stateful op, impure or extern function) inside a dataflow block"},
      {"wf.type-mismatch", 0, "annotations agree with inferred types"},
      {"wf.undefined-buffer", 0, "TIR buffers are parameters or allocated"},
      {"wf.nested-primfunc", 0, "a PrimFunc is only a module-level function"},
      {"wf.inner-function", 1,
       "no inner function except functions with a Compiler attribute, and Primitive (fused) functions until phase 2 "
       "(LambdaLifting lifts the others; LegalizeOps lowers fused ones)"},
      {"wf.lowered-call-in-optimization", 0,
       "call_lowered and the memory.* and vm.* builtins only in phase 0 (as TVM prints them after its own lowering) "
       "or from phase 2: in phase 1 (optimization) nothing is lowered yet"},
      {"wf.dataflow-after-phase1", 2, "no dataflow blocks (ToNonDataflow removes them)"},
      {"wf.device-annotation-after-lowering", 2,
       "no on_device after LegalizeOps (device planning is over; devices live in the virtual_device annotations)"},
      {"wf.unlegalized-op", 2, "no operator outside the lowering builtins (LegalizeOps lowers them to call_tir)"},
      {"wf.purity-unmarked", 3, "every function is marked impure (is_pure=0) or force-pure (force_pure=1)"},
      {"wf.purity-wrapper", 3, "no call_pure_packed or invoke_pure_closure (RemovePurityChecking unwraps them)"},
      {"wf.dps-call", 3, "no call_tir or call_dps_packed (VMBuiltinLower lowers them)"},
      {"wf.not-anf", 3, "A-normal form: call operands, if conditions and projected tuples are atoms"},
  };
  return kRules;
}

bool isAnfLeaf(const Expr& e) {
  return e && (e->kind == ExprKind::Var || e->kind == ExprKind::GlobalVar || e->kind == ExprKind::Constant || e->kind == ExprKind::Op);
}

bool isAnfAtom(const Expr& e) {
  if (isAnfLeaf(e)) return true;
  const auto* t = as<TupleNode>(e);
  if (!t) return false;
  for (const Expr& f : t->fields)
    if (!isAnfLeaf(f)) return false;
  return true;
}

namespace {

/// An insert-only set of node pointers with open addressing: the checker marks
/// every node of 100k-node models, and a node-based set spends most of its time
/// in malloc and cache misses.
class NodeSet {
 public:
  /// Inserts `p`; false when it was already present.
  bool insert(const void* p) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = slot(p);
    if (slots_[i] == p) return false;
    slots_[i] = p;
    ++size_;
    return true;
  }

 private:
  size_t slot(const void* p) const {
    size_t mask = slots_.size() - 1;
    // Node addresses are 16-byte aligned: drop the zero bits, then mix.
    size_t i = ((reinterpret_cast<uintptr_t>(p) >> 4) * 0x9E3779B97F4A7C15ull) & mask;
    while (slots_[i] && slots_[i] != p) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<const void*> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, nullptr);
    for (const void* p : old)
      if (p) slots_[slot(p)] = p;
  }
  std::vector<const void*> slots_;
  size_t size_ = 0;
};

/// Same rule as type inference: equal where both are known, `?` matches anything.
bool consistent(const Type& a, const Type& b) {
  if (!a || !b || a == b) return true;
  if (as<ObjectTypeNode>(a) || as<ObjectTypeNode>(b)) return true;  // Relax's top type
  if (a->kind != b->kind) return false;
  if (a->kind == TypeKind::Storage || a->kind == TypeKind::Shape || a->kind == TypeKind::Prim) return typeEqual(a, b);
  if (const auto* x = as<TensorTypeNode>(a)) {
    const auto* y = as<TensorTypeNode>(b);
    if (x->dtype != y->dtype || x->shape.size() != y->shape.size()) return false;
    for (size_t i = 0; i < x->shape.size(); ++i)
      if (x->shape[i] != y->shape[i] && x->shape[i] != kDynamicDim && y->shape[i] != kDynamicDim) return false;
    return true;
  }
  if (const auto* x = as<TupleTypeNode>(a)) {
    const auto* y = as<TupleTypeNode>(b);
    if (x->fields.size() != y->fields.size()) return false;
    for (size_t i = 0; i < x->fields.size(); ++i)
      if (!consistent(x->fields[i], y->fields[i])) return false;
    return true;
  }
  const auto* x = as<FuncTypeNode>(a);
  const auto* y = as<FuncTypeNode>(b);
  if (x->params.size() != y->params.size() || !consistent(x->ret, y->ret)) return false;
  for (size_t i = 0; i < x->params.size(); ++i)
    if (!consistent(x->params[i], y->params[i])) return false;
  return true;
}

class Checker {
 public:
  explicit Checker(const IRModuleNode& mod) : mod_(mod), phase_(mod.phase()) {}

  std::vector<Diagnostic> run() {
    std::map<std::string, std::string> symbols;  // global_symbol -> first global carrying it
    for (const auto& [name, fn] : mod_.functions) {
      function_ = name;
      fallback_ = fn ? fn->span : Span{};
      if (fn) checkGlobalAttrs(name, fn, symbols);
      if (!fn) {
        report({}, "wf.null-function", "@" + name + " has no definition");
      } else if (const auto* prim = as<PrimFuncNode>(fn)) {
        checkPrimFunc(*prim);
      } else if (as<FunctionNode>(fn)) {
        checkGraph(fn);
      } else {
        report(fn->span, "wf.not-a-function", "@" + name + " is bound to something other than a function");
      }
    }
    return std::move(diagnostics_);
  }

 private:
  /// global_symbol against the name and the other globals; purity marks in phase 3.
  void checkGlobalAttrs(const std::string& name, const Expr& fn, std::map<std::string, std::string>& symbols) {
    const AttrDict& attrs = functionAttrs(fn);
    if (const AttrValue* symbol = attrs.find(fn_attr::kGlobalSymbol); symbol && symbol->kind() == AttrValue::Kind::String) {
      if (symbol->asString() != name)
        report(fn->span, "wf.global-symbol-mismatch",
               "@" + name + " has global_symbol \"" + symbol->asString() + "\"; it must equal the global's name");
      auto [it, fresh] = symbols.emplace(symbol->asString(), name);
      if (!fresh)
        report(fn->span, "wf.duplicate-global-symbol",
               "@" + name + " and @" + it->second + " share global_symbol \"" + symbol->asString() + "\"");
    }
    const auto* graph = as<FunctionNode>(fn);
    if (phase_ >= 3 && graph && !external(*graph) && !isForcePure(attrs) &&
        !(attrs.contains(fn_attr::kIsPure) && attrs.getInt(fn_attr::kIsPure, 1) == 0))
      report(fn->span, "wf.purity-unmarked",
             "@" + name + " is neither impure (is_pure=0) nor force-pure (force_pure=1) in phase " + std::to_string(phase_) +
                 "; RemovePurityChecking marks functions");
  }

  /// Functions left to an external code generator: the phase invariants do not reach into them.
  static bool external(const FunctionNode& fn) {
    return fn.attrs.contains(fn_attr::kCompiler) || fn.attrs.getInt(fn_attr::kExtern, 0) != 0;
  }

  void report(const Span& span, std::string rule, std::string message) {
    Diagnostic d;
    d.span = span.known() ? span : fallback_;
    d.rule = std::move(rule);
    d.message = std::move(message);
    d.function = function_;
    diagnostics_.push_back(std::move(d));
  }

  // ---- Graph level --------------------------------------------------------------

  /// One pending action of the walk.
  struct Action {
    enum Kind : uint8_t { Visit, Bind, BindDataflow, Unbind, Hide } kind;
    const ExprNode* node;    // Visit: the node; Bind/Unbind/Hide: the VarNode
    const ExprNode* parent;  // Visit: the parent (for spans of variable uses); Bind: the binder
    /// Visit: inside the value of a dataflow binding; inside a function left to an external codegen.
    bool inDataflow = false;
    bool inExternal = false;
  };

  void checkGraph(const Expr& root) {
    const auto* rootFn = as<FunctionNode>(root);
    stack_.push_back({Action::Visit, root.get(), nullptr, false, rootFn && external(*rootFn)});
    while (!stack_.empty()) {
      Action a = stack_.back();
      stack_.pop_back();
      // Only Bind/Unbind/Hide actions carry a variable.
      const auto* var = a.kind == Action::Visit ? nullptr : static_cast<const VarNode*>(a.node);
      switch (a.kind) {
        case Action::Visit:
          flags_ = a;
          visit(a.node, a.parent);
          break;
        case Action::Bind:
        case Action::BindDataflow: bind(var, a.parent, a.kind == Action::BindDataflow); break;
        case Action::Unbind: inScope_.erase(var); break;
        case Action::Hide:
          // Dataflow-local variables leave scope at the end of their block.
          inScope_.erase(var);
          hidden_.insert(var);
          break;
      }
    }
    inScope_.clear();
  }

  void bind(const VarNode* var, const ExprNode* binder, bool inDataflow) {
    auto [it, fresh] = binders_.emplace(var, binder);
    if (!fresh && it->second != binder && binder->kind == ExprKind::Function && it->second->kind == ExprKind::Function)
      report(var->span.known() ? var->span : binder->span, "wf.param-of-two-functions",
             "%" + var->name + " is a parameter of two functions (each function needs its own parameter variables)");
    else if (!fresh && it->second != binder)
      report(var->span.known() ? var->span : binder->span, "wf.duplicate-def",
             "%" + var->name + " is bound more than once (each variable must have a single definition)");
    if (var->isDataflow && !inDataflow)
      report(var->span.known() ? var->span : binder->span, "wf.dataflow-var-outside",
             "dataflow variable %" + var->name + " is bound outside a dataflow block");
    inScope_.insert(var);
    if (var->annotation && var->checkedType && !consistent(var->annotation, var->checkedType))
      report(var->span, "wf.type-mismatch",
             "%" + var->name + " is annotated " + typeToString(var->annotation) + " but typed " + typeToString(var->checkedType));
  }

  /// One binder binding the same variable twice (`fn (%x, %x)`): the module-wide
  /// check cannot see it, since both bindings have the same binder node.
  template <class T, class GetVar>
  void reportRepeats(const std::vector<T>& items, GetVar getVar) {
    std::unordered_set<const VarNode*> seen;
    for (const T& item : items) {
      const Var& v = getVar(item);
      if (!seen.insert(v.get()).second)
        report(v->span, "wf.duplicate-def", "%" + v->name + " is bound more than once in the same binder");
    }
  }

  void useVar(const VarNode* var, const ExprNode* parent) {
    if (inScope_.count(var)) return;
    const Span& span = parent && parent->span.known() ? parent->span : var->span;
    if (hidden_.count(var))
      report(span, "wf.dataflow-var-escape", "dataflow variable %" + var->name + " is used outside its dataflow block");
    else if (binders_.count(var))
      report(span, "wf.undefined-var", "%" + var->name + " is used outside the scope of its definition");
    else
      report(span, "wf.undefined-var", "%" + var->name + " is used but never defined");
  }

  /// Pushes an action; visits inherit the flags of the node being visited.
  void push(Action::Kind kind, const ExprNode* node, const ExprNode* parent) {
    if (node) stack_.push_back({kind, node, parent, flags_.inDataflow, flags_.inExternal});
  }
  void pushVisit(const ExprNode* node, const ExprNode* parent, bool inDataflow, bool inExternal) {
    if (node) stack_.push_back({Action::Visit, node, parent, inDataflow, inExternal});
  }

  /// A call that may have a side effect: a stateful op, or a call to a global
  /// marked impure or extern (a packed function).
  bool impureCall(const CallNode& c) const {
    if (const OpDef* op = c.op()) return op->stateful;
    if (const auto* gv = as<GlobalVarNode>(c.callee)) {
      const AttrDict& attrs = functionAttrs(mod_.lookup(gv->name));
      if (isForcePure(attrs)) return false;
      return attrs.getInt(fn_attr::kExtern, 0) != 0 || (attrs.contains(fn_attr::kIsPure) && attrs.getInt(fn_attr::kIsPure, 1) == 0);
    }
    return false;
  }

  /// Phase rules on one call (outside external functions).
  void checkCallPhase(const CallNode& c) {
    const OpDef* op = c.op();
    if (op && phase_ == 1 && isTvmLoweredForm(op->id))
      report(c.span, "wf.lowered-call-in-optimization",
             std::string(op->name) + " in phase 1: call_lowered and the memory/VM builtins come from lowering (phase 2)");
    if (op && phase_ >= 2 && op->id == OpId::OnDevice)
      report(c.span, "wf.device-annotation-after-lowering",
             "on_device in phase " + std::to_string(phase_) + ": LegalizeOps drops device annotations");
    else if (op && phase_ >= 2 && !isLoweringBuiltin(op->id))
      report(c.span, "wf.unlegalized-op",
             "operator " + std::string(op->name) + " in phase " + std::to_string(phase_) +
                 ": only call_tir, call_dps_packed, the purity wrappers and vm.builtin.* remain after LegalizeOps");
    if (op && phase_ >= 3 && (op->id == OpId::CallPurePacked || op->id == OpId::InvokePureClosure))
      report(c.span, "wf.purity-wrapper",
             std::string(op->name) + " in phase " + std::to_string(phase_) + "; RemovePurityChecking unwraps it in phase 2");
    if (op && phase_ >= 3 && (op->id == OpId::CallTir || op->id == OpId::CallDpsPacked))
      report(c.span, "wf.dps-call",
             std::string(op->name) + " in phase " + std::to_string(phase_) + "; VMBuiltinLower lowers it to VM builtins");
    if (phase_ >= 3) {
      bool anf = isAnfLeaf(c.callee);
      for (const Expr& a : c.args) anf = anf && isAnfAtom(a);
      if (!anf)
        report(c.span, "wf.not-anf",
               "a call operand is not a variable, constant, global or tuple of those; phase " + std::to_string(phase_) +
                   " requires A-normal form");
    }
  }

  /// Checks annotation vs. inferred type of a binding's value.
  void checkBinding(const VarNode& var, const Expr& value) {
    if (var.annotation && value && value->checkedType && !consistent(var.annotation, value->checkedType))
      report(value->span.known() ? value->span : var.span, "wf.type-mismatch",
             "%" + var.name + " is annotated " + typeToString(var.annotation) + " but its value has type " +
                 typeToString(value->checkedType));
  }

  void visit(const ExprNode* e, const ExprNode* parent) {
    if (const auto* var = as<VarNode>(e)) {
      useVar(var, parent);  // every occurrence: a shared variable may be used out of scope anywhere
      return;
    }
    if (!visited_.insert(e)) return;  // shared subtree: checked once
    // Actions are pushed in reverse: the last pushed runs first.
    switch (e->kind) {
      case ExprKind::Var:
      case ExprKind::Constant:
      case ExprKind::Op: break;
      case ExprKind::GlobalVar: {
        const auto* gv = as<GlobalVarNode>(e);
        if (!mod_.lookup(gv->name)) report(gv->span.known() ? gv->span : (parent ? parent->span : Span{}), "wf.undefined-global",
                                           "@" + gv->name + " is not defined in the module");
        break;
      }
      case ExprKind::Call: {
        const auto* c = as<CallNode>(e);
        if (flags_.inDataflow && impureCall(*c))
          report(e->span, "wf.impure-in-dataflow", "an impure call inside a dataflow block (dataflow blocks must be side-effect free)");
        if (!flags_.inExternal) checkCallPhase(*c);
        for (size_t i = c->args.size(); i-- > 0;) push(Action::Visit, c->args[i].get(), e);
        push(Action::Visit, c->callee.get(), e);
        break;
      }
      case ExprKind::Tuple: {
        const auto* t = as<TupleNode>(e);
        for (size_t i = t->fields.size(); i-- > 0;) push(Action::Visit, t->fields[i].get(), e);
        break;
      }
      case ExprKind::TupleGetItem:
        if (phase_ >= 3 && !flags_.inExternal && !isAnfAtom(as<TupleGetItemNode>(e)->tuple))
          report(e->span, "wf.not-anf", "a projection of a non-atomic tuple; phase " + std::to_string(phase_) + " requires A-normal form");
        push(Action::Visit, as<TupleGetItemNode>(e)->tuple.get(), e);
        break;
      case ExprKind::Let: {
        const auto* l = as<LetNode>(e);
        checkBinding(*l->var, l->value);
        push(Action::Unbind, l->var.get(), e);
        push(Action::Visit, l->body.get(), e);
        // A let-bound function may call itself (recursive closures, as in Relay).
        bool recursive = as<FunctionNode>(l->value) != nullptr;
        if (!recursive) push(Action::Bind, l->var.get(), e);
        push(Action::Visit, l->value.get(), e);
        if (recursive) push(Action::Bind, l->var.get(), e);
        break;
      }
      case ExprKind::If: {
        const auto* i = as<IfNode>(e);
        if (flags_.inDataflow) report(e->span, "wf.if-in-dataflow", "an if inside a dataflow block (dataflow blocks hold no control flow)");
        if (phase_ >= 3 && !flags_.inExternal && !isAnfLeaf(i->cond))
          report(e->span, "wf.not-anf", "an if condition is not an atom; phase " + std::to_string(phase_) + " requires A-normal form");
        push(Action::Visit, i->elseBranch.get(), e);
        push(Action::Visit, i->thenBranch.get(), e);
        push(Action::Visit, i->cond.get(), e);
        break;
      }
      case ExprKind::Function: {
        const auto* f = as<FunctionNode>(e);
        bool ext = flags_.inExternal || external(*f);
        // FuseOps' groups are inner Primitive functions by design; they stay
        // nested through optimization and LegalizeOps turns them into PrimFuncs.
        bool fusedBeforeLowering = phase_ < 2 && f->attrs.getInt(fn_attr::kPrimitive, 0) != 0;
        if (parent && !ext && !fusedBeforeLowering && phase_ >= 1)
          report(e->span, "wf.inner-function",
                 "an inner function in phase " + std::to_string(phase_) +
                     " (only functions with a Compiler attribute, and fused Primitive functions before phase 2, may stay nested "
                     "after phase 0; LambdaLifting lifts the others)");
        // A function body is neither in the enclosing dataflow block nor outside an external function.
        flags_.inDataflow = false;
        flags_.inExternal = ext;
        if (f->retType && f->body && f->body->checkedType && !consistent(f->retType, f->body->checkedType))
          report(e->span, "wf.type-mismatch",
                 "the function declares return type " + typeToString(f->retType) + " but its body has type " +
                     typeToString(f->body->checkedType));
        reportRepeats(f->params, [](const Var& p) { return p; });
        for (const Var& p : f->params) push(Action::Unbind, p.get(), e);
        push(Action::Visit, f->body.get(), e);
        for (size_t i = f->params.size(); i-- > 0;) push(Action::Bind, f->params[i].get(), e);
        break;
      }
      case ExprKind::Dataflow: {
        const auto* d = as<DataflowNode>(e);
        if (phase_ >= 2 && !flags_.inExternal)
          report(e->span, "wf.dataflow-after-phase1",
                 "a dataflow block in phase " + std::to_string(phase_) + "; ToNonDataflow turns it into plain bindings");
        reportRepeats(d->bindings, [](const Binding& bd) { return bd.var; });
        // Outputs stay in scope for the body; dataflow-local variables do not.
        for (const Binding& b : d->bindings)
          if (!b.var->isDataflow) push(Action::Unbind, b.var.get(), e);
        push(Action::Visit, d->body.get(), e);
        for (const Binding& b : d->bindings)
          if (b.var->isDataflow) push(Action::Hide, b.var.get(), e);
        for (size_t i = d->bindings.size(); i-- > 0;) {
          checkBinding(*d->bindings[i].var, d->bindings[i].value);
          push(Action::BindDataflow, d->bindings[i].var.get(), e);
          pushVisit(d->bindings[i].value.get(), e, true, flags_.inExternal);
        }
        break;
      }
      case ExprKind::PrimFunc:
        report(e->span, "wf.nested-primfunc", "a PrimFunc can only be a module-level function");
        break;
    }
  }

  // ---- TIR -------------------------------------------------------------------------

  void checkPrimFunc(const PrimFuncNode& f) {
    tirVars_.clear();
    tirEverBound_.clear();
    tirBuffers_.clear();
    for (const tir::Param& p : f.params) {
      bindTirVar(p.var);
      if (p.buffer && !tirBuffers_.insert(p.buffer.get()).second)
        report(f.span, "wf.duplicate-def", "buffer " + p.buffer->name + " is a parameter more than once");
    }
    stmt(f.body);
  }

  void bindTirVar(const tir::Var& v) {
    if (!v) return;
    tirVars_.insert(v.get());
    if (!tirEverBound_.insert(v.get()).second)
      report(fallback_, "wf.duplicate-def", "TIR variable " + v->name + " is bound more than once");
  }

  void useBuffer(const tir::Buffer& b) {
    if (b && !tirBuffers_.count(b.get()))
      report(fallback_, "wf.undefined-buffer", "buffer " + b->name + " is used but is neither a parameter nor allocated");
  }

  void expr(const tir::PrimExpr& e) {
    using namespace tir;
    if (!e) return;
    if (const auto* v = as<tir::VarNode>(e)) {
      if (!tirVars_.count(v)) report(fallback_, "wf.undefined-var", "TIR variable " + v->name + " is used but never defined");
    } else if (const auto* c = as<tir::CallNode>(e)) {
      if (c->isGlobal && !as<PrimFuncNode>(mod_.lookup(c->callee)))
        report(fallback_, "wf.undefined-global", "@" + c->callee + " is called but is not a PrimFunc of the module");
    } else if (const auto* l = as<LoadNode>(e)) {
      useBuffer(l->buffer);
    } else if (const auto* let = as<tir::LetNode>(e)) {
      expr(let->value);
      bindTirVar(let->var);
      expr(let->body);
      tirVars_.erase(let->var.get());
      return;
    }
    forEachChild(e, [this](const PrimExpr& c) { expr(c); });
  }

  /// Statements that bind variables or buffers check their scope here; the
  /// others only use what is in scope, and are walked generically.
  void stmt(const tir::Stmt& s) {
    using namespace tir;
    if (!s) return;
    switch (s->kind) {
      case StmtKind::For: {
        const auto* x = as<ForNode>(s);
        expr(x->min);
        expr(x->extent);
        bindTirVar(x->var);
        stmt(x->body);
        tirVars_.erase(x->var.get());
        return;
      }
      case StmtKind::LetStmt: {
        const auto* x = as<LetStmtNode>(s);
        expr(x->value);
        bindTirVar(x->var);
        stmt(x->body);
        tirVars_.erase(x->var.get());
        return;
      }
      case StmtKind::Allocate:
      case StmtKind::AllocateConst: {
        const Buffer& b = s->kind == StmtKind::Allocate ? as<AllocateNode>(s)->buffer : as<AllocateConstNode>(s)->buffer;
        const Stmt& body = s->kind == StmtKind::Allocate ? as<AllocateNode>(s)->body : as<AllocateConstNode>(s)->body;
        if (!tirBuffers_.insert(b.get()).second) report(fallback_, "wf.duplicate-def", "buffer " + b->name + " is allocated twice");
        if (s->kind == StmtKind::AllocateConst) {
          const NDArray& data = as<AllocateConstNode>(s)->data;
          if (data.dtype() != b->dtype || data.shape() != b->shape)
            report(fallback_, "wf.type-mismatch", "constant data of buffer " + b->name + " does not match its dtype and shape");
        }
        stmt(body);
        tirBuffers_.erase(b.get());
        return;
      }
      case StmtKind::Block: {
        // Bindings and domains are evaluated outside the block; the iteration
        // variables and scratch buffers are in scope for the rest.
        const auto* x = as<BlockNode>(s);
        for (const BlockIterVar& iv : x->iterVars) {
          expr(iv.min);
          expr(iv.extent);
          expr(iv.binding);
        }
        for (const BlockIterVar& iv : x->iterVars) bindTirVar(iv.var);
        for (const Buffer& b : x->allocBuffers)
          if (!tirBuffers_.insert(b.get()).second) report(fallback_, "wf.duplicate-def", "buffer " + b->name + " is allocated twice");
        expr(x->predicate);
        for (const auto* regions : {&x->reads, &x->writes})
          for (const BufferRegion& r : *regions) {
            useBuffer(r.buffer);
            for (const auto& [mn, ext] : r.ranges) {
              expr(mn);
              expr(ext);
            }
          }
        stmt(x->init);
        stmt(x->body);
        for (const Buffer& b : x->allocBuffers) tirBuffers_.erase(b.get());
        for (const BlockIterVar& iv : x->iterVars) tirVars_.erase(iv.var.get());
        return;
      }
      case StmtKind::Store:
        useBuffer(as<StoreNode>(s)->buffer);
        break;
      case StmtKind::Assert: {
        const auto* x = as<AssertStmtNode>(s);
        if (x->cond && !x->cond->dtype.isBool())
          report(fallback_, "wf.type-mismatch", "the condition of assert \"" + x->message + "\" is " + std::string(x->cond->dtype.name()) + ", not bool");
        break;
      }
      case StmtKind::IfThenElse:
      case StmtKind::Seq:
      case StmtKind::Evaluate: break;
    }
    forEachChild(s, [this](const Stmt& c) { stmt(c); }, [this](const PrimExpr& e) { expr(e); });
  }

  const IRModuleNode& mod_;
  const int64_t phase_;
  /// Flags of the Visit action being processed (inherited by the actions it pushes).
  Action flags_{Action::Visit, nullptr, nullptr};
  std::string function_;
  Span fallback_;
  std::vector<Diagnostic> diagnostics_;
  std::vector<Action> stack_;
  /// Where each graph-level variable was bound (module-wide: a variable node
  /// reused as the parameter of two functions is a duplicate definition).
  std::unordered_map<const VarNode*, const ExprNode*> binders_;
  std::unordered_set<const VarNode*> inScope_, hidden_;
  NodeSet visited_;
  /// TIR variables in scope, and every one bound so far in this PrimFunc.
  std::unordered_set<const tir::VarNode*> tirVars_, tirEverBound_;
  std::unordered_set<const tir::BufferNode*> tirBuffers_;
};

}  // namespace

std::vector<Diagnostic> checkWellFormed(const IRModule& mod) {
  if (!mod) return {};
  std::vector<Diagnostic> found = Checker(*mod).run();
  // The walk's stack order is an implementation detail; readers expect source order
  // within each function (functions are already in name order).
  std::unordered_map<std::string, size_t> order;
  for (const Diagnostic& d : found) order.emplace(d.function, order.size());
  std::stable_sort(found.begin(), found.end(), [&](const Diagnostic& a, const Diagnostic& b) {
    return std::tuple(order.at(a.function), a.span.line, a.span.column) < std::tuple(order.at(b.function), b.span.line, b.span.column);
  });
  return found;
}

}  // namespace passlab
