// Type inference: a post-order walk over each function with an explicit stack
// (models are 100k-deep chains), op calls typed through the op table's
// relations, globals typed from their signatures or inferred on demand.
#include "core/analysis/type_infer.h"

#include <unordered_map>
#include <unordered_set>

#include "core/ir/limits.h"
#include "core/support/pointer_index.h"
#include "core/ir/functor.h"

namespace passlab {

namespace {

/// Types match where both are known; a `?` dimension matches any extent (a
/// declared `Tensor[(?, 3)]` accepts an inferred `Tensor[(8, 3)]` and back).
bool compatible(const Type& a, const Type& b) {
  if (a == b) return true;
  // R.Object (R.Any) is Relax's top type: any value may be bound to or passed as one.
  if (as<ObjectTypeNode>(a) || as<ObjectTypeNode>(b)) return a && b;
  if (!a || !b || a->kind != b->kind) return false;
  if (const auto* x = as<ShapeTypeNode>(a)) {
    const auto* y = as<ShapeTypeNode>(b);
    if (x->ndim >= 0 && y->ndim >= 0 && x->ndim != y->ndim) return false;
    return !x->values || !y->values || x->values == y->values;
  }
  if (const auto* x = as<PrimTypeNode>(a)) {
    const auto* y = as<PrimTypeNode>(b);
    // A symbolic value (R.Prim(value=n)) fits any value: it is checked at run time.
    return x->dtype == y->dtype && (!x->value || !y->value || x->value == y->value);
  }
  if (a->kind == TypeKind::Storage) return true;
  if (const auto* x = as<TensorTypeNode>(a)) {
    const auto* y = as<TensorTypeNode>(b);
    // TVM's void dtype and unknown rank fit any dtype and rank.
    if (!x->unknownDtype && !y->unknownDtype && x->dtype != y->dtype) return false;
    if (x->unknownRank || y->unknownRank) return true;
    if (x->shape.size() != y->shape.size()) return false;
    for (size_t i = 0; i < x->shape.size(); ++i)
      if (x->shape[i] != y->shape[i] && x->shape[i] != kDynamicDim && y->shape[i] != kDynamicDim) return false;
    return true;
  }
  if (const auto* x = as<TupleTypeNode>(a)) {
    const auto* y = as<TupleTypeNode>(b);
    if (x->fields.size() != y->fields.size()) return false;
    for (size_t i = 0; i < x->fields.size(); ++i)
      if (!compatible(x->fields[i], y->fields[i])) return false;
    return true;
  }
  const auto* x = as<FuncTypeNode>(a);
  const auto* y = as<FuncTypeNode>(b);
  if (x->params.size() != y->params.size() || !compatible(x->ret, y->ret)) return false;
  for (size_t i = 0; i < x->params.size(); ++i)
    if (!compatible(x->params[i], y->params[i])) return false;
  return true;
}

/// The type a PrimFunc has when referenced from graph level: buffers are
/// tensors, scalar parameters rank-0 tensors, and it returns nothing (it
/// writes its output buffers: destination-passing style).
Type primFuncType(const PrimFuncNode& f) {
  std::vector<Type> params;
  for (const tir::Param& p : f.params)
    params.push_back(p.buffer ? tensorType(p.buffer->shape, p.buffer->dtype) : tensorType({}, p.var->dtype));
  return funcType(std::move(params), unitType());
}

class FunctionTyper;

/// Module-wide state: function signatures, which functions are being inferred
/// (to catch recursion without a declared return type), the diagnostics.
class ModuleTyper {
 public:
  explicit ModuleTyper(const IRModule* mod) : mod_(mod) {}

  /// Infers every graph-level function (each once, in name order).
  void inferAll();
  /// Infers the global function `name` unless done or in progress.
  void inferFunction(const std::string& name);
  /// The type of `@name` as seen by a caller; null (with a diagnostic) when unknown.
  Type globalType(const GlobalVarNode& gv, FunctionTyper& caller);
  /// Records a diagnostic.
  void report(Diagnostic d) { diagnostics_.push_back(std::move(d)); }
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

 private:
  enum class State : uint8_t { Running, Done };
  const IRModule* mod_;
  std::unordered_map<std::string, State> state_;
  std::vector<Diagnostic> diagnostics_;
};

/// Infers the types of one expression tree (a global function's body or a
/// standalone expression).
class FunctionTyper {
 public:
  FunctionTyper(ModuleTyper& module, std::string functionName, Span fallback)
      : module_(module), function_(std::move(functionName)), fallback_(std::move(fallback)) {}

  /// Types every node under `root`; returns the root's type (null on error).
  Type run(const Expr& root);
  /// Reports an error at `span` (the function's span when unknown).
  void error(const Span& span, std::string rule, std::string message) {
    Diagnostic d;
    d.span = span.known() ? span : fallback_;
    d.message = std::move(message);
    d.rule = std::move(rule);
    d.function = function_;
    module_.report(std::move(d));
  }

 private:
  /// Whether `e` needs no (more) work in this run.
  bool done(const ExprNode* e) const {
    // The sets are empty in the common case: no hashing per node then (this
    // runs after every pass over every rebuilt node).
    if (!failed_.empty() && failed_.count(e)) return true;
    if (!e->checkedType) return false;
    // A call to a global depends on the callee's current signature, which a
    // pass may have changed: such calls are always re-checked (cheaply).
    return !(callsGlobal(e) && !rechecked_.count(e));
  }
  static bool callsGlobal(const ExprNode* e) {
    const auto* call = as<CallNode>(e);
    return call && as<GlobalVarNode>(call->callee);
  }
  /// Records that `var` is bound to `value`.
  void bindValue(const VarNode* var, const ExprNode* value) {
    auto [index, fresh] = bindingIndex_.insert(var, static_cast<uint32_t>(bindingValues_.size()));
    if (fresh) bindingValues_.push_back(value);
    else bindingValues_[index] = value;
  }
  /// The children typed before `e`, in order (records binders on the way).
  void childrenOf(const ExprNode* e, std::vector<const ExprNode*>& order);
  Type typeOf(const ExprNode* e);
  Type typeOf(const Expr& e) { return typeOf(e.get()); }
  Type compute(const ExprNode* e);
  Type computeCall(const CallNode& call);
  Type computeVar(const VarNode& var);
  bool checkBinding(const VarNode& var, const Expr& value);
  /// For `let %f = fn (%x, ...) {...}` with an untyped parameter: the first
  /// call of %f in the let's body, when its arguments use only variables
  /// already in scope (so they can be typed before the closure). Else null.
  const CallNode* closureCallSite(const LetNode& let);

  ModuleTyper& module_;
  std::string function_;
  Span fallback_;
  std::vector<std::pair<const ExprNode*, bool>> stack_;
  std::vector<const ExprNode*> children_;
  /// The value bound to each let/dataflow variable met so far.
  /// (Flat tables: this runs after every pass over every binding, and a
  /// node-based map cost an allocation per entry and its destructor a free.)
  /// Keys to indices into bindingValues_.
  PointerIndex bindingIndex_;
  std::vector<const ExprNode*> bindingValues_;
  /// Function parameters met so far (typed by annotation, or by paramArgument_).
  PointerSet params_;
  /// The argument an unannotated parameter of a directly called function literal receives.
  std::unordered_map<const VarNode*, const ExprNode*> paramArgument_;
  /// Nodes whose type could not be determined (errors already reported).
  std::unordered_set<const ExprNode*> failed_;
  /// Calls to globals re-checked in this run.
  PointerSet rechecked_;
};

void ModuleTyper::inferAll() {
  if (!mod_ || !*mod_) return;
  for (const auto& [name, fn] : (*mod_)->functions)
    if (as<FunctionNode>(fn)) inferFunction(name);
}

void ModuleTyper::inferFunction(const std::string& name) {
  if (state_.count(name)) return;
  Expr fn = (*mod_)->lookup(name);
  state_[name] = State::Running;
  FunctionTyper typer(*this, name, fn->span);
  typer.run(fn);
  state_[name] = State::Done;
}

Type ModuleTyper::globalType(const GlobalVarNode& gv, FunctionTyper& caller) {
  Expr fn = mod_ && *mod_ ? (*mod_)->lookup(gv.name) : nullptr;
  if (!fn) {
    caller.error(gv.span, "type.undefined-global", "@" + gv.name + " is not defined in the module");
    return nullptr;
  }
  if (const auto* prim = as<PrimFuncNode>(fn)) {
    // Kept on the PrimFunc itself (its contents determine it): passes share
    // PrimFuncs from module to module, so each is typed once, not once a pass.
    if (!prim->checkedType) prim->checkedType = primFuncType(*prim);
    return prim->checkedType;
  }
  const auto* f = as<FunctionNode>(fn);
  if (!f) {
    caller.error(gv.span, "type.mismatch", "@" + gv.name + " is not a function");
    return nullptr;
  }
  if (f->checkedType) return f->checkedType;
  // A fully declared signature is enough for callers (and makes recursion work).
  bool declared = f->retType != nullptr;
  std::vector<Type> params;
  for (const Var& p : f->params) {
    declared = declared && p->annotation;
    params.push_back(p->annotation);
  }
  if (declared) return funcType(std::move(params), f->retType);
  auto it = state_.find(gv.name);
  if (it != state_.end() && it->second == State::Running) {
    caller.error(gv.span, "type.recursive",
                 "@" + gv.name + " is called recursively but does not declare its return type");
    return nullptr;
  }
  inferFunction(gv.name);
  return f->checkedType;
}

Type FunctionTyper::run(const Expr& root) {
  stack_.clear();
  if (!root) return nullptr;
  stack_.emplace_back(root.get(), false);
  while (!stack_.empty()) {
    auto [e, expanded] = stack_.back();
    if (done(e)) {
      stack_.pop_back();
      continue;
    }
    if (!expanded) {
      children_.clear();
      childrenOf(e, children_);
      stack_.back().second = true;
      // Pushed in reverse, so children are typed in the order listed.
      for (auto it = children_.rbegin(); it != children_.rend(); ++it)
        if (*it && !done(*it)) stack_.emplace_back(*it, false);
      continue;
    }
    stack_.pop_back();
    // A node is typed only when its whole subtree is: a typed node is then
    // known to be well-typed and later runs can trust it. Below a failure the
    // node fails silently (the cause was reported once).
    bool childFailed = false;
    if (!failed_.empty()) {
      // (childrenOf's records were made when `e` was expanded; repeating them changes nothing.)
      children_.clear();
      childrenOf(e, children_);
      for (const ExprNode* c : children_) childFailed = childFailed || (c && failed_.count(c));
    }
    Type t = childFailed ? nullptr : compute(e);
    if (t) {
      if (e->checkedType && !compatible(e->checkedType, t))
        error(e->span, "type.stale",
              "this call was typed " + typeToString(e->checkedType) + " but its callee now gives " + typeToString(t) +
                  "; a pass changed a signature without rebuilding its callers");
      else if (!e->checkedType)
        e->checkedType = t;
      // Only calls to globals consult rechecked_ (done()).
      if (callsGlobal(e)) rechecked_.insert(e);
    } else {
      failed_.insert(e);
    }
  }
  return typeOf(root);
}

void FunctionTyper::childrenOf(const ExprNode* e, std::vector<const ExprNode*>& order) {
  switch (e->kind) {
    case ExprKind::Call: {
      const auto* c = as<CallNode>(e);
      // Untyped parameters of a function literal called right here (as TVM
      // prints fused functions: `%0 = fn (%p0, Primitive=1) {...}; %0(%x)`)
      // take the types of the arguments, which are then typed first.
      bool argsFirst = false;
      if (const auto* fn = as<FunctionNode>(c->callee))
        for (size_t i = 0; i < fn->params.size() && i < c->args.size(); ++i)
          if (!fn->params[i]->annotation) {
            paramArgument_[fn->params[i].get()] = c->args[i].get();
            argsFirst = true;
          }
      bool calleeIsChild = c->callee->kind != ExprKind::Op && c->callee->kind != ExprKind::GlobalVar;
      if (calleeIsChild && !argsFirst) order.push_back(c->callee.get());
      // vm.invoke_tvm_op(fn (%p0, Primitive=1) {...}, (%x,), (%out,)): TVM
      // prints the function with untyped parameters; they take the inputs' types.
      const OpDef* op = c->op();
      const auto* invoked = op && op->id == OpId::VmInvokeTvmOp && c->args.size() == 3 ? as<FunctionNode>(c->args[0]) : nullptr;
      const auto* inputs = invoked ? as<TupleNode>(c->args[1]) : nullptr;
      if (invoked && inputs) {
        for (size_t i = 0; i < invoked->params.size() && i < inputs->fields.size(); ++i)
          if (!invoked->params[i]->annotation) paramArgument_[invoked->params[i].get()] = inputs->fields[i].get();
        order.push_back(c->args[1].get());
        order.push_back(c->args[2].get());
        order.push_back(c->args[0].get());
      } else {
        for (const Expr& a : c->args) order.push_back(a.get());
      }
      if (calleeIsChild && argsFirst) order.push_back(c->callee.get());
      break;
    }
    case ExprKind::Tuple:
      for (const Expr& f : as<TupleNode>(e)->fields) order.push_back(f.get());
      break;
    case ExprKind::TupleGetItem: order.push_back(as<TupleGetItemNode>(e)->tuple.get()); break;
    case ExprKind::Let: {
      // The value is typed before the variable so an unannotated variable can take its type.
      const auto* l = as<LetNode>(e);
      bindValue(l->var.get(), l->value.get());
      order.clear();
      // `let %f = fn (%x, %y) {...}; %f(%a, %b)`: untyped parameters of a
      // closure take the types of its first call's arguments (as TVM's
      // InferType unifies them), which are typed first when they can be.
      if (const CallNode* site = closureCallSite(*l)) {
        const auto* fn = as<FunctionNode>(l->value);
        for (size_t i = 0; i < fn->params.size() && i < site->args.size(); ++i)
          if (!fn->params[i]->annotation) paramArgument_[fn->params[i].get()] = site->args[i].get();
        for (const Expr& a : site->args) order.push_back(a.get());
      }
      order.insert(order.end(), {l->value.get(), l->var.get(), l->body.get()});
      break;
    }
    case ExprKind::If: {
      const auto* i = as<IfNode>(e);
      order = {i->cond.get(), i->thenBranch.get(), i->elseBranch.get()};
      break;
    }
    case ExprKind::Function: {
      const auto* f = as<FunctionNode>(e);
      for (const Var& p : f->params) {
        params_.insert(p.get());
        order.push_back(p.get());
      }
      order.push_back(f->body.get());
      break;
    }
    case ExprKind::Dataflow: {
      const auto* d = as<DataflowNode>(e);
      for (const Binding& b : d->bindings) {
        bindValue(b.var.get(), b.value.get());
        order.push_back(b.value.get());
        order.push_back(b.var.get());
      }
      order.push_back(d->body.get());
      break;
    }
    default: break;
  }
}

const CallNode* FunctionTyper::closureCallSite(const LetNode& let) {
  const auto* fn = as<FunctionNode>(let.value);
  if (!fn) return nullptr;
  bool untyped = false;
  for (const Var& p : fn->params) untyped = untyped || !p->annotation;
  if (!untyped) return nullptr;
  const CallNode* site = nullptr;
  postOrderVisit(let.body, [&](const Expr& e) {
    const auto* call = as<CallNode>(e);
    if (!site && call && call->callee.get() == let.var.get() && call->args.size() == fn->params.size()) site = call;
  });
  if (!site) return nullptr;
  bool ready = true;
  for (const Expr& a : site->args)
    postOrderVisit(a, [&](const Expr& e) {
      if (const auto* v = as<VarNode>(e); v && !params_.count(v) && !bindingIndex_.contains(v)) ready = false;
    });
  return ready ? site : nullptr;
}

Type FunctionTyper::typeOf(const ExprNode* e) {
  if (!e) return nullptr;
  if (const auto* gv = as<GlobalVarNode>(e)) return module_.globalType(*gv, *this);
  return e->checkedType;
}

/// The first tensor in `t` whose static element count is over limits::kMaxTensorElements, or null.
static const TensorTypeNode* oversizedTensor(const Type& t) {
  if (!t) return nullptr;
  if (const auto* tt = as<TensorTypeNode>(t))
    return !tt->hasDynamicDim() && !limits::checkedElementCount(tt->shape) ? tt : nullptr;
  if (const auto* tuple = as<TupleTypeNode>(t))
    for (const Type& f : tuple->fields)
      if (const TensorTypeNode* big = oversizedTensor(f)) return big;
  return nullptr;
}

Type FunctionTyper::computeVar(const VarNode& var) {
  if (var.annotation) {
    // Annotations from the text are checked by the parser; those built by an
    // importer or a pass are checked here, before anything multiplies them out.
    if (const TensorTypeNode* big = oversizedTensor(var.annotation)) {
      error(var.span, "limits.elements", "%" + var.name + ": " + limits::tooManyElementsMessage(big->shape));
      return nullptr;
    }
    return var.annotation;
  }
  if (auto it = paramArgument_.find(&var); it != paramArgument_.end() && params_.count(&var)) {
    // Typed by the call of its function (childrenOf); null when the argument failed.
    return it->second->checkedType;
  }
  if (params_.count(&var)) {
    error(var.span, "type.missing-annotation", "parameter %" + var.name + " needs a type annotation");
    return nullptr;
  }
  const uint32_t bound = bindingIndex_.find(&var);
  if (bound == PointerIndex::kAbsent) {
    error(var.span, "type.unbound-var", "cannot type %" + var.name + ": it has no annotation and is not bound by a let");
    return nullptr;
  }
  const ExprNode* value = bindingValues_[bound];
  if (value->kind == ExprKind::GlobalVar) return typeOf(value);
  // Null either because the value failed (already reported) or because the
  // variable is used inside its own definition.
  if (!value->checkedType && !failed_.count(value))
    error(var.span, "type.unbound-var", "%" + var.name + " is used in its own definition without a type annotation");
  return value->checkedType;
}

bool FunctionTyper::checkBinding(const VarNode& var, const Expr& value) {
  Type valueType = var.annotation ? typeOf(value) : nullptr;
  if (!valueType) return true;
  if (compatible(var.annotation, valueType)) return true;
    error(value->span.known() ? value->span : var.span, "type.mismatch",
          "%" + var.name + " is declared " + typeToString(var.annotation) + " but bound to a value of type " +
              typeToString(valueType));
  return false;
}


Type FunctionTyper::computeCall(const CallNode& call) {
  std::vector<Type> argTypes;
  argTypes.reserve(call.args.size());
  bool known = true;
  for (const Expr& a : call.args) {
    argTypes.push_back(typeOf(a));
    known = known && argTypes.back();
  }
  if (const OpDef* op = call.op()) {
    if (op->numArgs >= 0 && call.args.size() != static_cast<size_t>(op->numArgs)) {
      error(call.span, "type.arg-count",
            std::string(op->name) + " expects " + std::to_string(op->numArgs) + " argument" +
                (op->numArgs == 1 ? "" : "s") + ", got " + std::to_string(call.args.size()));
      return nullptr;
    }
    if (!known) return nullptr;
    try {
      Type result = inferOpCallType(*op, argTypes, call.attrs);
      if (const TensorTypeNode* big = oversizedTensor(result)) {
        error(call.span, "limits.elements", std::string(op->name) + ": " + limits::tooManyElementsMessage(big->shape));
        return nullptr;
      }
      return result;
    } catch (const TypeRelationError& e) {
      std::string message = e.what();
      bool dtype = message.find("dtype") != std::string::npos;
      error(call.span, dtype ? "type.dtype-mismatch" : "type.shape-mismatch", std::move(message));
      return nullptr;
    }
  }
  Type calleeType = typeOf(call.callee);
  if (!calleeType) return nullptr;
  const auto* fn = as<FuncTypeNode>(calleeType);
  std::string calleeName = as<GlobalVarNode>(call.callee)  ? "@" + as<GlobalVarNode>(call.callee)->name
                           : as<VarNode>(call.callee)      ? "%" + as<VarNode>(call.callee)->name
                                                           : std::string("the function");
  if (!fn) {
    error(call.span, "type.not-callable", calleeName + " has type " + typeToString(calleeType) + " and cannot be called");
    return nullptr;
  }
  if (fn->params.size() != call.args.size()) {
    error(call.span, "type.arg-count",
          calleeName + " takes " + std::to_string(fn->params.size()) + " argument" + (fn->params.size() == 1 ? "" : "s") +
              ", got " + std::to_string(call.args.size()));
    return nullptr;
  }
  bool ok = known;
  for (size_t i = 0; i < argTypes.size(); ++i) {
    if (argTypes[i] && fn->params[i] && !compatible(argTypes[i], fn->params[i])) {
      error(call.args[i]->span.known() ? call.args[i]->span : call.span, "type.mismatch",
            "argument " + std::to_string(i) + " of the call to " + calleeName + " has type " + typeToString(argTypes[i]) +
                ", expected " + typeToString(fn->params[i]));
      ok = false;
    }
  }
  return ok ? fn->ret : nullptr;
}

Type FunctionTyper::compute(const ExprNode* e) {
  switch (e->kind) {
    case ExprKind::Var: return computeVar(*as<VarNode>(e));
    case ExprKind::GlobalVar: return typeOf(e);
    case ExprKind::Constant: {
      const auto* c = as<ConstantNode>(e);
      return tensorType(c->data.shape(), c->data.dtype());
    }
    case ExprKind::Op:
      error(e->span, "type.op-as-value", "op " + std::string(as<OpNode>(e)->def->name) + " can only be called");
      return nullptr;
    case ExprKind::Call: return computeCall(*as<CallNode>(e));
    case ExprKind::Tuple: {
      std::vector<Type> fields;
      for (const Expr& f : as<TupleNode>(e)->fields) {
        fields.push_back(typeOf(f));
        if (!fields.back()) return nullptr;
      }
      return tupleType(std::move(fields));
    }
    case ExprKind::TupleGetItem: {
      const auto* g = as<TupleGetItemNode>(e);
      Type t = typeOf(g->tuple);
      if (!t) return nullptr;
      const auto* tuple = as<TupleTypeNode>(t);
      if (!tuple) {
        error(e->span, "type.not-tuple", "cannot take field " + std::to_string(g->index) + " of " + typeToString(t));
        return nullptr;
      }
      if (g->index < 0 || static_cast<size_t>(g->index) >= tuple->fields.size()) {
        error(e->span, "type.tuple-index",
              "index " + std::to_string(g->index) + " is out of range for " + typeToString(t) + " (" +
                  std::to_string(tuple->fields.size()) + " fields)");
        return nullptr;
      }
      return tuple->fields[g->index];
    }
    case ExprKind::Let: {
      const auto* l = as<LetNode>(e);
      if (!checkBinding(*l->var, l->value)) return nullptr;
      return typeOf(l->body);
    }
    case ExprKind::If: {
      const auto* i = as<IfNode>(e);
      Type cond = typeOf(i->cond), a = typeOf(i->thenBranch), b = typeOf(i->elseBranch);
      const auto* c = as<TensorTypeNode>(cond);
      bool condOk = c && c->shape.empty() && c->dtype.isBool();
      if (cond && !condOk)
        error(i->cond->span.known() ? i->cond->span : e->span, "type.if-cond",
              "the condition of an if must be a bool scalar, got " + typeToString(cond));
      if (!a || !b) return nullptr;
      if (!compatible(a, b)) {
        error(e->span, "type.mismatch", "the branches of an if differ: " + typeToString(a) + " and " + typeToString(b));
        return nullptr;
      }
      return condOk ? a : nullptr;
    }
    case ExprKind::Function: {
      const auto* f = as<FunctionNode>(e);
      std::vector<Type> params;
      // Missing ones were reported at the parameter, or inferred from the call (computeVar).
      for (const Var& p : f->params) params.push_back(p->annotation ? p->annotation : p->checkedType);
      Type body = typeOf(f->body);
      if (f->retType && body && !compatible(f->retType, body)) {
        error(e->span, "type.ret-mismatch",
              "the function declares return type " + typeToString(f->retType) + " but its body has type " +
                  typeToString(body));
        return nullptr;
      }
      for (const Type& p : params)
        if (!p) return nullptr;
      if (!body) return nullptr;
      return funcType(std::move(params), f->retType ? f->retType : body);
    }
    case ExprKind::Dataflow: {
      const auto* d = as<DataflowNode>(e);
      bool ok = true;
      for (const Binding& b : d->bindings) ok = checkBinding(*b.var, b.value) && ok;
      return ok ? typeOf(d->body) : nullptr;
    }
    case ExprKind::PrimFunc: return primFuncType(*as<PrimFuncNode>(e));
  }
  return nullptr;
}

}  // namespace

std::vector<Diagnostic> checkTypes(const IRModule& mod) {
  ModuleTyper typer(&mod);
  typer.inferAll();
  return std::move(typer.diagnostics());
}

IRModule inferTypes(const IRModule& mod) {
  std::vector<Diagnostic> diagnostics = checkTypes(mod);
  if (!diagnostics.empty()) throw DiagnosticError(std::move(diagnostics));
  return mod;
}

Type inferExprType(const Expr& e, const IRModule* mod) {
  ModuleTyper module(mod);
  FunctionTyper typer(module, "", e ? e->span : Span{});
  Type t = typer.run(e);
  if (!module.diagnostics().empty()) throw DiagnosticError(std::move(module.diagnostics()));
  return t;
}

}  // namespace passlab
