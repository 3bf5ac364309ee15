// The graph-level evaluator: an explicit-stack machine over expressions.
//
// Each function invocation is a Frame with its own scope and memo. A Visit
// task either produces a value at once (variables, constants, functions) or
// schedules its children followed by a continuation (Finish, BindLet, ...)
// that pops their values. Closure calls push a new frame and a Return task
// instead of recursing, so neither expression depth nor call depth touches
// the C++ stack.
//
// Memory: a per-body plan counts, for each node, how many parents consume
// it. Only nodes with several consumers are memoized, and a memo entry (or a
// variable binding) is dropped when its last consumer has taken it. A nested
// function counts as one consumer of each of its free variables: closures
// copy those values when they are created (see Closure in value.h).
#include "core/interp/interpreter.h"

#include <cstring>

#include <algorithm>
#include <unordered_set>
#include <utility>

#include "core/interp/interp_limits.h"
#include "core/interp/kernels.h"
#include "core/interp/runtime_checks.h"
#include "core/ir/shape_attr.h"
#include "core/ir/limits.h"

namespace passlab {

using interp_checks::checkArgument;
using interp_checks::checkMatchCast;
using interp_checks::concreteShapes;
using interp_checks::hasSymbolicShapeAttr;
using interp_checks::shapeElementsTuple;

namespace {

/// Consumer counts of the nodes of one function body (nested functions excluded).
struct BodyPlan {
  /// Number of parents that consume each node (only nodes consumed more than
  /// once, and every variable node).
  std::unordered_map<const ExprNode*, int64_t> consumers;
};

/// Appends the children of `e` that are evaluated for their value, in order.
void valueChildren(const ExprNode* e, std::vector<const ExprNode*>& out) {
  switch (e->kind) {
    case ExprKind::Call: {
      const auto* call = static_cast<const CallNode*>(e);
      if (call->callee->kind != ExprKind::Op) out.push_back(call->callee.get());
      for (const Expr& a : call->args) out.push_back(a.get());
      break;
    }
    case ExprKind::Tuple:
      for (const Expr& f : static_cast<const TupleNode*>(e)->fields) out.push_back(f.get());
      break;
    case ExprKind::TupleGetItem: out.push_back(static_cast<const TupleGetItemNode*>(e)->tuple.get()); break;
    case ExprKind::Let: {
      const auto* let = static_cast<const LetNode*>(e);
      out.push_back(let->value.get());
      out.push_back(let->body.get());
      break;
    }
    case ExprKind::If: {
      const auto* node = static_cast<const IfNode*>(e);
      out.push_back(node->cond.get());
      out.push_back(node->thenBranch.get());
      out.push_back(node->elseBranch.get());
      break;
    }
    case ExprKind::Dataflow: {
      const auto* df = static_cast<const DataflowNode*>(e);
      for (const Binding& b : df->bindings) out.push_back(b.value.get());
      out.push_back(df->body.get());
      break;
    }
    default: break;  // leaves; a nested Function is a separate body
  }
}

/// The variables a function reads but does not bind (its params, lets,
/// dataflow bindings and nested functions' params are bound), in first-use order.
std::vector<const VarNode*> computeFreeVars(const FunctionNode* fn) {
  std::unordered_set<const ExprNode*> seen;
  std::unordered_set<const VarNode*> bound, usedSet;
  std::vector<const VarNode*> used;
  for (const Var& p : fn->params) bound.insert(p.get());
  std::vector<const ExprNode*> stack{fn->body.get()};
  while (!stack.empty()) {
    const ExprNode* e = stack.back();
    stack.pop_back();
    if (!seen.insert(e).second) continue;
    switch (e->kind) {
      case ExprKind::Var:
        if (usedSet.insert(static_cast<const VarNode*>(e)).second) used.push_back(static_cast<const VarNode*>(e));
        break;
      case ExprKind::Let: bound.insert(static_cast<const LetNode*>(e)->var.get()); break;
      case ExprKind::Function:
        for (const Var& p : static_cast<const FunctionNode*>(e)->params) bound.insert(p.get());
        stack.push_back(static_cast<const FunctionNode*>(e)->body.get());
        break;
      case ExprKind::Dataflow:
        for (const Binding& b : static_cast<const DataflowNode*>(e)->bindings) bound.insert(b.var.get());
        break;
      default: break;
    }
    std::vector<const ExprNode*> children;
    valueChildren(e, children);
    stack.insert(stack.end(), children.begin(), children.end());
  }
  std::vector<const VarNode*> free;
  for (const VarNode* v : used)
    if (!bound.count(v)) free.push_back(v);
  return free;
}

/// Counts consumers in the body `root`; `freeVars` gives a nested function's free variables.
template <class FreeVars>
BodyPlan makePlan(const ExprNode* root, FreeVars&& freeVars) {
  BodyPlan plan;
  std::unordered_map<const ExprNode*, int64_t> counts;
  std::vector<const ExprNode*> stack{root}, children;
  counts[root] = 1;  // the frame itself consumes the body once
  while (!stack.empty()) {
    const ExprNode* e = stack.back();
    stack.pop_back();
    children.clear();
    valueChildren(e, children);
    if (e->kind == ExprKind::Function)  // creating the closure reads each free variable once
      for (const VarNode* v : freeVars(static_cast<const FunctionNode*>(e))) children.push_back(v);
    for (const ExprNode* c : children)
      if (counts[c]++ == 0) stack.push_back(c);  // first sighting: expand once
  }
  for (const auto& [node, n] : counts)
    if (n > 1 || node->kind == ExprKind::Var) plan.consumers.emplace(node, n);
  return plan;
}

/// A value and how many consumers have yet to take it.
struct MemoSlot {
  Value value;
  int64_t remaining;
};

/// One function invocation.
struct Frame {
  std::shared_ptr<Scope> scope;
  const BodyPlan* plan;
  std::unordered_map<const ExprNode*, MemoSlot> memo;
  /// Remaining uses of each variable bound in this frame's own scope.
  std::unordered_map<const ExprNode*, int64_t> varUses;
  /// The shape variables this call has bound (parameters, match_cast), by
  /// name: what a symbolic out_shape or reshape target evaluates under.
  shape::NameEnv shapes;
};


enum class Step : uint8_t { Visit, Finish, BindLet, SelectBranch, BindDataflow, Memo, Return };

struct Task {
  const ExprNode* node;
  uint32_t frame;
  Step step;
  uint32_t index = 0;  // dataflow binding index
};

[[noreturn]] void runtimeError(const Span& span, const std::string& message, const char* rule = "interp.runtime") {
  throwError(span, message, rule);
}

class GraphEvaluator final : public KernelHost {
 public:
  /// `root` is the evaluated expression when it is not part of `mod`.
  GraphEvaluator(IRModule mod, Expr root) : mod_(mod), owner_(std::make_shared<const std::pair<IRModule, Expr>>(std::move(mod), std::move(root))) {}

  /// Calls a closure from outside the machine (the entry point).
  Value callClosure(const Closure& callee, std::vector<Value> args, const Span& span) {
    if (callee.function->kind == ExprKind::PrimFunc) return callPrimFuncValue(callee, args, span);
    uint32_t f = pushCallFrame(callee, std::move(args), span);
    return run(static_cast<const FunctionNode*>(callee.function.get())->body.get(), f);
  }

  /// Evaluates `expr` in a scope holding `env`.
  Value evalExpr(const Expr& expr, const Environment& env) {
    auto scope = std::make_shared<Scope>();
    for (const auto& [var, value] : env) scope->bindings.emplace(var, value);
    frames_.push_back(Frame{std::move(scope), &planFor(expr.get()), {}, {}, {}});
    return run(expr.get(), static_cast<uint32_t>(frames_.size() - 1));
  }

  /// The closure of module-level function `name` (error at `span` when missing).
  Value globalClosure(const std::string& name, const Span& span) {
    Expr fn = mod_ ? mod_->lookup(name) : nullptr;
    if (!fn || (fn->kind != ExprKind::Function && fn->kind != ExprKind::PrimFunc))
      runtimeError(span, "no function @" + name + " in the module");
    return Value::closure(Closure{fn, nullptr, name, nullptr});
  }

  void callPrimFunc(const std::string& name, std::span<const NDArray> buffers, size_t readOnlyCount) override {
    Expr fn = mod_ ? mod_->lookup(name) : nullptr;
    if (!fn || fn->kind != ExprKind::PrimFunc) throw KernelError("no PrimFunc @" + name + " in the module");
    interp_detail::runPrimFunc(mod_, *static_cast<const PrimFuncNode*>(fn.get()), name, buffers, readOnlyCount);
  }

 private:
  const BodyPlan& planFor(const ExprNode* body) {
    auto it = plans_.find(body);
    if (it == plans_.end())
      it = plans_.emplace(body, makePlan(body, [this](const FunctionNode* fn) -> const std::vector<const VarNode*>& { return freeVars(fn); })).first;
    return it->second;
  }

  const std::vector<const VarNode*>& freeVars(const FunctionNode* fn) {
    auto it = freeVars_.find(fn);
    if (it == freeVars_.end()) it = freeVars_.emplace(fn, computeFreeVars(fn)).first;
    return it->second;
  }

  /// A closure of the nested function `fn` with its free variables' current values.
  Value makeClosure(const FunctionNode* fn, uint32_t f) {
    auto captured = std::make_shared<Scope>();
    for (const VarNode* v : freeVars(fn)) {
      // Unbound here only for a let-bound function that calls itself; the
      // let binding turns that into the closure's recursiveVar.
      if (const Value* value = frames_[f].scope->find(v)) captured->bindings.emplace(v, *value);
      consumeVar(v, f);
    }
    return Value::closure(Closure{exprHandle(fn), std::move(captured), "", nullptr});
  }

  /// Binds a graph function's parameters in a new frame; returns its index.
  uint32_t pushCallFrame(const Closure& callee, std::vector<Value> args, const Span& span) {
    const auto* fn = static_cast<const FunctionNode*>(callee.function.get());
    std::string what = callee.globalName.empty() ? std::string("closure") : "@" + callee.globalName;
    if (args.size() != fn->params.size())
      runtimeError(span, what + " takes " + std::to_string(fn->params.size()) + " argument(s), got " + std::to_string(args.size()));
    // The frames are on the heap, so only this bound keeps a function that
    // calls itself without a base case from growing until memory runs out.
    if (static_cast<int64_t>(frames_.size()) >= limits::kMaxCallDepth)
      runtimeError(span, "call depth exceeds " + std::to_string(limits::kMaxCallDepth) + " nested calls (calling " + what +
                             "; a recursion without a base case?)", "limits.call-depth");
    auto scope = std::make_shared<Scope>();
    scope->parent = callee.captured;
    if (callee.recursiveVar) scope->bindings.emplace(callee.recursiveVar, Value::closure(callee));
    shape::Env shapeEnv;
    for (size_t i = 0; i < args.size(); ++i) {
      checkArgument(fn->params[i]->annotation, args[i], *fn->params[i], span, shapeEnv);
      scope->bindings.insert_or_assign(fn->params[i].get(), std::move(args[i]));
    }
    frames_.push_back(Frame{std::move(scope), &planFor(fn->body.get()), {}, {}, {}});
    shape::addNames(shapeEnv, frames_.back().shapes);
    return static_cast<uint32_t>(frames_.size() - 1);
  }

  /// A direct call of a PrimFunc value: destination-passing, result `()`.
  /// call_lowered of a PrimFunc: the inputs are given, the outputs (its
  /// remaining buffer parameters) are allocated here and returned.
  Value callLoweredPrimFunc(const Closure& callee, const std::vector<Value>& inputs, const Span& span) {
    const auto& prim = *static_cast<const PrimFuncNode*>(callee.function.get());
    std::vector<NDArray> buffers;
    for (const Value& a : inputs) {
      if (!a.isTensor()) runtimeError(span, "@" + callee.globalName + " takes tensors, got " + a.describe());
      buffers.push_back(a.tensor());
    }
    if (buffers.size() > prim.params.size())
      runtimeError(span, "@" + callee.globalName + " takes " + std::to_string(prim.params.size()) + " buffers, got " +
                             std::to_string(buffers.size()) + " inputs");
    std::vector<Value> outs;
    for (size_t i = buffers.size(); i < prim.params.size(); ++i) {
      const tir::Param& p = prim.params[i];
      if (!p.buffer) runtimeError(span, "@" + callee.globalName + ": output parameter " + std::to_string(i) + " is not a buffer");
      buffers.emplace_back(p.buffer->dtype, p.buffer->shape);
      outs.push_back(buffers.back());
    }
    try {
      interp_detail::runPrimFunc(mod_, prim, callee.globalName, buffers, inputs.size());
    } catch (const KernelError& e) {
      runtimeError(span, e.what());
    }
    return outs.size() == 1 ? outs[0] : Value::tuple(std::move(outs));
  }

  /// vm.invoke_tvm_op(func, (inputs...), (outputs...)): the function's
  /// results are written into the given output tensors.
  Value invokeTvmOp(const std::vector<Value>& args, const Span& span) {
    if (args.size() != 3 || !args[0].isClosure())
      runtimeError(span, "vm.invoke_tvm_op expects (function, (inputs...), (outputs...))");
    const Closure& callee = *args[0].closure();
    std::vector<Value> inputs = args[1].isTuple() ? args[1].fields() : std::vector<Value>{args[1]};
    std::vector<Value> outputs = args[2].isTuple() ? args[2].fields() : std::vector<Value>{args[2]};
    std::vector<NDArray> outBuffers;
    for (const Value& o : outputs) {
      if (!o.isTensor()) runtimeError(span, "vm.invoke_tvm_op: an output is " + o.describe() + ", not a tensor");
      outBuffers.push_back(o.tensor());
    }
    if (callee.function->kind == ExprKind::PrimFunc) {
      std::vector<NDArray> buffers;
      for (const Value& a : inputs) {
        if (!a.isTensor()) runtimeError(span, "vm.invoke_tvm_op: an input is " + a.describe() + ", not a tensor");
        buffers.push_back(a.tensor());
      }
      buffers.insert(buffers.end(), outBuffers.begin(), outBuffers.end());
      try {
        interp_detail::runPrimFunc(mod_, *static_cast<const PrimFuncNode*>(callee.function.get()), callee.globalName, buffers,
                                   inputs.size());
      } catch (const KernelError& e) {
        runtimeError(span, e.what());
      }
      return Value();
    }
    Value result = callClosure(callee, std::move(inputs), span);
    std::vector<Value> results = result.isTuple() ? result.fields() : std::vector<Value>{result};
    if (results.size() != outBuffers.size())
      runtimeError(span, "vm.invoke_tvm_op: the function returns " + std::to_string(results.size()) + " value(s) for " +
                             std::to_string(outBuffers.size()) + " output(s)");
    for (size_t i = 0; i < results.size(); ++i) {
      if (!results[i].isTensor()) runtimeError(span, "vm.invoke_tvm_op: result " + std::to_string(i) + " is not a tensor");
      const NDArray& r = results[i].tensor();
      NDArray& out = outBuffers[i];
      if (r.dtype() != out.dtype() || r.shape() != out.shape())
        runtimeError(span, "vm.invoke_tvm_op: result " + std::to_string(i) + " is " + results[i].describe() +
                               " but its output buffer is " + outputs[i].describe());
      if (r.byteSize()) std::memcpy(out.mutableData(), r.rawData(), r.byteSize());
    }
    return Value();
  }

  Value callPrimFuncValue(const Closure& callee, const std::vector<Value>& args, const Span& span) {
    std::vector<NDArray> buffers;
    for (const Value& a : args) {
      if (!a.isTensor()) runtimeError(span, "@" + callee.globalName + " takes tensors, got " + a.describe());
      buffers.push_back(a.tensor());
    }
    try {
      interp_detail::runPrimFunc(mod_, *static_cast<const PrimFuncNode*>(callee.function.get()), callee.globalName, buffers, 0);
    } catch (const KernelError& e) {
      runtimeError(span, e.what());
    }
    return Value();
  }

  Value pop() {
    Value v = std::move(values_.back());
    values_.pop_back();
    return v;
  }

  /// Pops the last n values in evaluation order.
  std::vector<Value> popN(size_t n) {
    std::vector<Value> out(std::make_move_iterator(values_.end() - static_cast<std::ptrdiff_t>(n)), std::make_move_iterator(values_.end()));
    values_.resize(values_.size() - n);
    return out;
  }

  /// Pushes a node's result for its consumer, memoizing it for the others.
  void produce(const ExprNode* node, uint32_t f, Value v) {
    const BodyPlan& plan = *frames_[f].plan;
    auto it = plan.consumers.find(node);
    if (it != plan.consumers.end() && it->second > 1 && node->kind != ExprKind::Var)
      frames_[f].memo.emplace(node, MemoSlot{v, it->second - 1});
    values_.push_back(std::move(v));
  }

  void bindVar(uint32_t f, const VarNode* var, Value v) {
    Frame& frame = frames_[f];
    auto it = frame.plan->consumers.find(var);
    int64_t uses = it == frame.plan->consumers.end() ? 0 : it->second;
    if (uses == 0) return;  // never read: do not keep the value alive
    frame.scope->bindings.insert_or_assign(var, std::move(v));
    frame.varUses[var] = uses;
  }

  void visitVar(const VarNode* var, uint32_t f) {
    const Value* v = frames_[f].scope->find(var);
    if (!v) runtimeError(var->span, "variable %" + var->name + " has no value");
    values_.push_back(*v);
    consumeVar(var, f);
  }

  /// Releases a binding of this frame once its last use has been read.
  void consumeVar(const VarNode* var, uint32_t f) {
    Frame& frame = frames_[f];
    auto it = frame.varUses.find(var);
    if (it != frame.varUses.end() && --it->second <= 0) {
      frame.scope->bindings.erase(var);
      frame.varUses.erase(it);
    }
  }

  void schedule(const ExprNode* node, uint32_t f, Step step, uint32_t index = 0) { tasks_.push_back(Task{node, f, step, index}); }

  void visit(const ExprNode* e, uint32_t f) {
    Frame& frame = frames_[f];
    auto memo = frame.memo.find(e);
    if (memo != frame.memo.end()) {
      values_.push_back(memo->second.value);
      if (--memo->second.remaining <= 0) frame.memo.erase(memo);
      return;
    }
    bool shared = false;
    if (auto it = frame.plan->consumers.find(e); it != frame.plan->consumers.end()) shared = it->second > 1;
    switch (e->kind) {
      case ExprKind::Var: visitVar(static_cast<const VarNode*>(e), f); return;
      case ExprKind::GlobalVar:
        values_.push_back(globalClosure(static_cast<const GlobalVarNode*>(e)->name, e->span));
        return;
      case ExprKind::Constant: values_.push_back(static_cast<const ConstantNode*>(e)->data); return;
      case ExprKind::Op:
        runtimeError(e->span, "op " + std::string(static_cast<const OpNode*>(e)->def->name) + " used as a value", "interp.unsupported");
      case ExprKind::Function:  // memoized when shared: its free variables were counted once
        produce(e, f, makeClosure(static_cast<const FunctionNode*>(e), f));
        return;
      case ExprKind::PrimFunc: values_.push_back(Value::closure(Closure{exprHandle(e), nullptr, "", nullptr})); return;
      case ExprKind::Tuple: {
        schedule(e, f, Step::Finish);
        const auto& fields = static_cast<const TupleNode*>(e)->fields;
        for (size_t i = fields.size(); i-- > 0;) schedule(fields[i].get(), f, Step::Visit);
        return;
      }
      case ExprKind::TupleGetItem:
        schedule(e, f, Step::Finish);
        schedule(static_cast<const TupleGetItemNode*>(e)->tuple.get(), f, Step::Visit);
        return;
      case ExprKind::Call: {
        const auto* call = static_cast<const CallNode*>(e);
        schedule(e, f, Step::Finish);
        for (size_t i = call->args.size(); i-- > 0;) schedule(call->args[i].get(), f, Step::Visit);
        if (call->callee->kind != ExprKind::Op) schedule(call->callee.get(), f, Step::Visit);
        return;
      }
      case ExprKind::Let:
        if (shared) schedule(e, f, Step::Memo);
        schedule(e, f, Step::BindLet);
        schedule(static_cast<const LetNode*>(e)->value.get(), f, Step::Visit);
        return;
      case ExprKind::If:
        if (shared) schedule(e, f, Step::Memo);
        schedule(e, f, Step::SelectBranch);
        schedule(static_cast<const IfNode*>(e)->cond.get(), f, Step::Visit);
        return;
      case ExprKind::Dataflow: {
        const auto* df = static_cast<const DataflowNode*>(e);
        if (shared) schedule(e, f, Step::Memo);
        if (df->bindings.empty()) {
          schedule(df->body.get(), f, Step::Visit);
        } else {
          schedule(e, f, Step::BindDataflow, 0);
          schedule(df->bindings[0].value.get(), f, Step::Visit);
        }
        return;
      }
    }
  }

  /// A shared handle to a node reached through a raw pointer. Every node the
  /// machine visits is owned by the module or the evaluated expression, so
  /// the handle shares their ownership: a closure returned to the caller keeps
  /// its function alive.
  Expr exprHandle(const ExprNode* e) const { return Expr(owner_, e); }

  void finishCall(const CallNode* call, uint32_t f) {
    if (const OpDef* op = call->op()) {
      std::vector<Value> args = popN(call->args.size());
      if (op->id == OpId::InvokePureClosure || op->id == OpId::CallPurePacked) {
        if (args.empty() || !args[0].isClosure())
          runtimeError(call->span, std::string(op->name) + ": callee must be a function, got " + (args.empty() ? "nothing" : args[0].describe()));
        Closure callee = *args[0].closure();
        std::vector<Value> callArgs;
        if (op->id == OpId::InvokePureClosure) {
          if (args.size() != 2 || !args[1].isTuple()) runtimeError(call->span, "invoke_pure_closure expects (closure, (args...))");
          callArgs = args[1].fields();
        } else {
          callArgs.assign(args.begin() + 1, args.end());
        }
        enterCall(call, f, callee, std::move(callArgs));
        return;
      }
      if (op->id == OpId::CallLowered) {
        if (args.size() != 2 || !args[0].isClosure())
          runtimeError(call->span, "call_lowered: callee must be a global function, got " + (args.empty() ? "nothing" : args[0].describe()));
        const Closure& callee = *args[0].closure();
        std::vector<Value> inputs = args[1].isTuple() ? args[1].fields() : std::vector<Value>{args[1]};
        if (callee.function->kind == ExprKind::PrimFunc) {
          produce(call, f, callLoweredPrimFunc(callee, inputs, call->span));
          return;
        }
        enterCall(call, f, callee, std::move(inputs));
        return;
      }
      if (op->id == OpId::VmInvokeTvmOp) {
        produce(call, f, invokeTvmOp(args, call->span));
        return;
      }
      if (op->id == OpId::CallDpsPacked && args.size() == 2 && args[0].isClosure() &&
          args[0].closure()->function->kind == ExprKind::Function) {
        // An external function the interpreter can see the body of (a BYOC
        // function kept in the module): run its body on the inputs.
        Closure callee = *args[0].closure();
        enterCall(call, f, callee, args[1].isTuple() ? args[1].fields() : std::vector<Value>{args[1]});
        return;
      }
      if (op->id == OpId::RelaxCallPacked && !args.empty() && args[0].isTensor() && as<ShapeTypeNode>(call->args[0]->checkedType) &&
          call->attrs.getString("func_name") == "vm.builtin.match_shape")
        args[0] = shapeElementsTuple(args[0].tensor());
      Value result;
      try {
        if (op->id == OpId::RelaxPrimValue && call->attrs.find("value") &&
            call->attrs.find("value")->kind() == AttrValue::Kind::String) {
          // R.prim_value(n): the value of n this call has bound.
          std::optional<AttrValue> v = shape::evaluateAttr(*call->attrs.find("value"), frames_[f].shapes);
          if (!v) runtimeError(call->span, "R.prim_value(" + call->attrs.find("value")->asString() + ") mentions a shape variable this call has not bound", "interp.type-mismatch");
          AttrDict attrs = call->attrs;
          attrs.set("value", std::move(*v));
          result = runKernel(*op, args, attrs, this);
        } else if (hasSymbolicShapeAttr(call->attrs))
          result = runKernel(*op, args, concreteShapes(call->attrs, frames_[f].shapes, call->span), this);
        else
          result = runKernel(*op, args, call->attrs, this);
      } catch (const KernelError& e) {
        runtimeError(call->span, e.what());
      }
      produce(call, f, std::move(result));
      return;
    }
    std::vector<Value> args = popN(call->args.size());
    Value callee = pop();
    if (!callee.isClosure()) runtimeError(call->span, "cannot call " + callee.describe());
    enterCall(call, f, *callee.closure(), std::move(args));
  }

  void enterCall(const CallNode* call, uint32_t f, const Closure& callee, std::vector<Value> args) {
    if (callee.function->kind == ExprKind::PrimFunc) {
      produce(call, f, callPrimFuncValue(callee, args, call->span));
      return;
    }
    uint32_t nf = pushCallFrame(callee, std::move(args), call->span);
    schedule(call, f, Step::Return);
    schedule(static_cast<const FunctionNode*>(callee.function.get())->body.get(), nf, Step::Visit);
  }

  void finish(const Task& t) {
    const ExprNode* e = t.node;
    uint32_t f = t.frame;
    switch (e->kind) {
      case ExprKind::Tuple: produce(e, f, Value::tuple(popN(static_cast<const TupleNode*>(e)->fields.size()))); return;
      case ExprKind::TupleGetItem: {
        const auto* node = static_cast<const TupleGetItemNode*>(e);
        Value tuple = pop();
        if (!tuple.isTuple() || node->index < 0 || static_cast<size_t>(node->index) >= tuple.fields().size())
          runtimeError(e->span, "cannot take field " + std::to_string(node->index) + " of " + tuple.describe());
        produce(e, f, tuple.fields()[node->index]);
        return;
      }
      case ExprKind::Call: finishCall(static_cast<const CallNode*>(e), f); return;
      default: runtimeError(e->span, "internal: unexpected continuation");
    }
  }

  void step(const Task& t) {
    switch (t.step) {
      case Step::Visit: visit(t.node, t.frame); return;
      case Step::Finish: finish(t); return;
      case Step::BindLet: {
        const auto* let = static_cast<const LetNode*>(t.node);
        Value value = pop();
        const Closure* c = value.closure();
        if (c && c->captured && !c->recursiveVar && !c->captured->bindings.count(let->var.get()) &&
            c->function->kind == ExprKind::Function) {
          const auto& free = freeVars(static_cast<const FunctionNode*>(c->function.get()));
          if (std::find(free.begin(), free.end(), let->var.get()) != free.end()) {
            Closure recursive = *c;  // `let %f = fn ... %f(...)`: calls rebind %f
            recursive.recursiveVar = let->var.get();
            value = Value::closure(std::move(recursive));
          }
        }
        checkMatchCast(*let->var, let->value, value, frames_[t.frame].shapes);
        bindVar(t.frame, let->var.get(), std::move(value));
        schedule(let->body.get(), t.frame, Step::Visit);  // tail position: the let's value is the body's
        return;
      }
      case Step::SelectBranch: {
        const auto* node = static_cast<const IfNode*>(t.node);
        Value cond = pop();
        if (!cond.isTensor() || cond.tensor().numElements() != 1)
          runtimeError(node->cond->span.known() ? node->cond->span : node->span, "if condition must be a scalar tensor, got " + cond.describe());
        schedule((cond.tensor().getAsDouble(0) != 0.0 ? node->thenBranch : node->elseBranch).get(), t.frame, Step::Visit);
        return;
      }
      case Step::BindDataflow: {
        const auto* df = static_cast<const DataflowNode*>(t.node);
        Value bound = pop();
        checkMatchCast(*df->bindings[t.index].var, df->bindings[t.index].value, bound, frames_[t.frame].shapes);
        bindVar(t.frame, df->bindings[t.index].var.get(), std::move(bound));
        uint32_t next = t.index + 1;
        if (next < df->bindings.size()) {
          schedule(t.node, t.frame, Step::BindDataflow, next);
          schedule(df->bindings[next].value.get(), t.frame, Step::Visit);
        } else {
          schedule(df->body.get(), t.frame, Step::Visit);
        }
        return;
      }
      case Step::Memo: {
        auto it = frames_[t.frame].plan->consumers.find(t.node);
        frames_[t.frame].memo.emplace(t.node, MemoSlot{values_.back(), it->second - 1});
        return;
      }
      case Step::Return:
        frames_.pop_back();  // the callee's frame is always the innermost one
        produce(t.node, t.frame, pop());
        return;
    }
  }

  /// Runs the machine on `root` in frame `f` until it yields one value.
  Value run(const ExprNode* root, uint32_t f) {
    size_t baseTasks = tasks_.size();
    size_t baseValues = values_.size();
    schedule(root, f, Step::Visit);
    while (tasks_.size() > baseTasks) {
      Task t = tasks_.back();
      tasks_.pop_back();
      // Every step: a relaxed load is nothing next to a step, and one step may
      // be a whole kernel, so polling less often would let Ctrl-C wait long.
      if (interp::interruptRequested()) runtimeError(t.node->span, interp::kInterruptedMessage, "interp.interrupted");
      try {
        step(t);
      } catch (const AllocationLimitError& e) {
        runtimeError(t.node->span, e.diagnostics().front().message, "limits.memory");
      }
    }
    frames_.pop_back();
    Value result = std::move(values_.back());
    values_.resize(baseValues);
    return result;
  }

  IRModule mod_;
  /// Owns everything the evaluation can reach (module and root expression).
  std::shared_ptr<const void> owner_;
  std::unordered_map<const ExprNode*, BodyPlan> plans_;
  std::unordered_map<const FunctionNode*, std::vector<const VarNode*>> freeVars_;
  std::vector<Frame> frames_;
  std::vector<Task> tasks_;
  std::vector<Value> values_;
};

}  // namespace

Value evaluate(const IRModule& mod, const std::string& function, const std::vector<Value>& args) {
  AllocationBudget budget(interp::maxBytes(), interp::maxBytesHint());
  GraphEvaluator evaluator(mod, nullptr);
  Expr fn = mod ? mod->lookup(function) : nullptr;
  if (!fn) throwError({}, "no function @" + function + " in the module", "interp.runtime");
  Value callee = evaluator.globalClosure(function, fn->span);
  // After CallTIRRewrite a call_tir_inplace is a PrimFunc call that writes its
  // argument, as on TVM's VM: the entry's tensors are copied so the caller's
  // arrays (the numeric check's inputs, the JIT's reference) keep their data.
  std::vector<Value> own;
  own.reserve(args.size());
  for (const Value& a : args) {
    if (!a.isTensor()) {
      own.push_back(a);
      continue;
    }
    NDArray copy(a.tensor().dtype(), a.tensor().shape());
    if (copy.byteSize()) std::memcpy(copy.mutableData(), a.tensor().rawData(), copy.byteSize());
    own.push_back(Value(copy));
  }
  return evaluator.callClosure(*callee.closure(), std::move(own), fn->span);
}

Value evaluateExpr(const Expr& expr, const Environment& env, const IRModule& mod) {
  AllocationBudget budget(interp::maxBytes(), interp::maxBytesHint());
  GraphEvaluator evaluator(mod, expr);
  return evaluator.evalExpr(expr, env);
}

void evaluatePrimFunc(const IRModule& mod, const std::string& function, std::span<const NDArray> args) {
  Expr fn = mod ? mod->lookup(function) : nullptr;
  if (!fn || fn->kind != ExprKind::PrimFunc) throwError({}, "no PrimFunc @" + function + " in the module", "interp.runtime");
  AllocationBudget budget(interp::maxBytes(), interp::maxBytesHint());
  try {
    interp_detail::runPrimFunc(mod, *static_cast<const PrimFuncNode*>(fn.get()), function, args, 0);
  } catch (const KernelError& e) {
    throwError(fn->span, e.what(), "interp.runtime");
  } catch (const AllocationLimitError& e) {
    throwError(fn->span, e.diagnostics().front().message, "limits.memory");
  }
}

}  // namespace passlab
