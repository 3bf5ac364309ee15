#include "passes/vm_builtin_lower.h"

#include "core/ir/limits.h"
#include "core/pass/registry.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/well_formed.h"
#include "core/ir/call_tir.h"
#include "core/ir/functor.h"
#include "core/ir/op_relations.h"

namespace passlab {

namespace {

bool isDpsCall(const Expr& e) {
  const auto* call = as<CallNode>(e);
  const OpDef* op = call ? call->op() : nullptr;
  return op && (op->id == OpId::CallTir || op->id == OpId::CallDpsPacked);
}

/// True when `fn`'s body has nothing to lower: no destination-passing call, a
/// let chain whose bound values have atomic operands, ending in an atom.
bool alreadyLowered(const FunctionNode& fn) {
  bool lowered = true;
  postOrderVisit(
      fn.body,
      [&](const Expr& e) {
        if (isDpsCall(e) || e->kind == ExprKind::Dataflow) lowered = false;
        if (const auto* c = as<CallNode>(e)) {
          lowered = lowered && isAnfLeaf(c->callee);
          for (const Expr& a : c->args) lowered = lowered && isAnfAtom(a);
        }
        if (const auto* g = as<TupleGetItemNode>(e)) lowered = lowered && isAnfAtom(g->tuple);
        if (const auto* i = as<IfNode>(e)) lowered = lowered && isAnfLeaf(i->cond);
        if (const auto* t = as<TupleNode>(e))
          for (const Expr& f : t->fields) lowered = lowered && isAnfLeaf(f);
      },
      [](const Expr& e) { return e->kind != ExprKind::Function; });
  return lowered;
}

/// Lowers one function body. Scopes (the body, if branches) each collect their
/// own bindings; operand trees are walked iteratively, so a long chain of nested
/// calls costs heap, not stack.
class Lowerer {
 public:
  Expr lowerScope(const Expr& body) {
    std::vector<Binding> scope;
    std::unordered_map<const ExprNode*, Expr> memo;
    std::swap(scope, bindings_);
    std::swap(memo, memo_);
    Expr result = spine(body);
    std::swap(scope, bindings_);
    std::swap(memo, memo_);
    for (size_t i = scope.size(); i-- > 0;) result = makeLet(scope[i].var, scope[i].value, result);
    return result;
  }

 private:
  /// Emits the bindings of a let chain into the current scope; returns its result as an atom.
  Expr spine(Expr e) {
    while (true) {
      if (const auto* let = as<LetNode>(e)) {
        bindings_.push_back({let->var, flatten(let->value, true)});
        e = let->body;
      } else if (e && e->kind == ExprKind::Dataflow) {
        throwError(e->span, "VMBuiltinLower: a dataflow block in phase 2; run ToNonDataflow first", "lower.dataflow");
      } else {
        return flatten(e, false);
      }
    }
  }

  Expr bind(Expr value, const char* name) {
    Var v = makeVar(name);
    bindings_.push_back({v, std::move(value)});
    return v;
  }

  Expr atomOf(const Expr& e) { return isAnfAtom(memo_.at(e.get())) ? memo_.at(e.get()) : bind(memo_.at(e.get()), "t"); }
  Expr leafOf(const Expr& e) {
    Expr m = memo_.at(e.get());
    return isAnfLeaf(m) ? m : bind(m, "t");
  }

  /// `e` with atomic operands; the root itself stays unbound when `keepRoot`, else is an atom.
  Expr flatten(const Expr& e, bool keepRoot) {
    if (!e || isAnfLeaf(e)) return e;
    if (auto it = memo_.find(e.get()); it != memo_.end()) return it->second;
    auto enter = [](const Expr& n) {
      return n->kind == ExprKind::Call || n->kind == ExprKind::Tuple || n->kind == ExprKind::TupleGetItem;
    };
    postOrderVisit(
        e,
        [&](const Expr& n) {
          if (memo_.count(n.get())) return;
          bool root = keepRoot && n == e;
          memo_[n.get()] = lowerNode(n, root);
        },
        [&](const Expr& n) { return !memo_.count(n.get()) && enter(n); });
    Expr out = memo_.at(e.get());
    if (!keepRoot && !isAnfAtom(out)) out = bind(out, "t");
    return out;
  }

  /// The node with its children already lowered (in memo_); bound unless `root`.
  Expr lowerNode(const Expr& n, bool root) {
    auto finish = [&](Expr value) { return root || isAnfAtom(value) ? value : bind(std::move(value), "t"); };
    switch (n->kind) {
      case ExprKind::Var:
      case ExprKind::GlobalVar:
      case ExprKind::Constant:
      case ExprKind::Op: return n;
      case ExprKind::Tuple: {
        std::vector<Expr> fields;
        for (const Expr& f : as<TupleNode>(n)->fields) fields.push_back(leafOf(f));
        return makeTuple(std::move(fields), n->span);
      }
      case ExprKind::TupleGetItem: {
        const auto* g = as<TupleGetItemNode>(n);
        return finish(makeTupleGetItem(atomOf(g->tuple), g->index, n->span));
      }
      case ExprKind::Call: {
        const auto* c = as<CallNode>(n);
        Expr callee = leafOf(c->callee);
        std::vector<Expr> args;
        for (const Expr& a : c->args) args.push_back(atomOf(a));
        if (isDpsCall(n)) return lowerDps(*c, args);
        return finish(makeCall(callee, std::move(args), c->attrs, c->span));
      }
      case ExprKind::Let:
      case ExprKind::Dataflow: return spine(n);  // a nested let chain joins the current scope
      case ExprKind::If: {
        const auto* i = as<IfNode>(n);
        Expr cond = flatten(i->cond, false);
        if (!isAnfLeaf(cond)) cond = bind(cond, "t");
        return finish(makeIf(cond, lowerScope(i->thenBranch), lowerScope(i->elseBranch), n->span));
      }
      case ExprKind::Function: return root ? n : bind(n, "f");  // only external functions remain in phase 2
      case ExprKind::PrimFunc: return n;
    }
    return n;
  }

  /// call_tir / call_dps_packed with lowered operands -> allocations and the builtin call.
  Expr lowerDps(const CallNode& call, const std::vector<Expr>& args) {
    const OpDef& op = *call.op();
    if (args.size() != 2) throwError(call.span, "VMBuiltinLower: " + std::string(op.name) + " takes a callee and an argument tuple", "lower.arity");
    const Expr& callee = args[0];
    Type outType;
    try {
      outType = typeFromOutAttrs(attrOrDefault(op, call.attrs, "out_shape"), attrOrDefault(op, call.attrs, "out_dtype"));
    } catch (const TypeRelationError& e) {
      throwError(call.span, "VMBuiltinLower: " + std::string(op.name) + ": " + e.what(), "lower.out-type");
    }
    std::vector<Type> outputs = as<TupleTypeNode>(outType) ? as<TupleTypeNode>(outType)->fields : std::vector<Type>{outType};
    std::vector<Expr> all;
    if (const auto* tuple = as<TupleNode>(args[1])) {
      all = tuple->fields;
    } else if (const auto* type = args[1]->checkedType ? as<TupleTypeNode>(args[1]->checkedType) : nullptr) {
      for (size_t i = 0; i < type->fields.size(); ++i) all.push_back(bind(makeTupleGetItem(args[1], static_cast<int>(i)), "t"));
    } else {
      all.push_back(args[1]);  // a single tensor
    }
    // call_tir_inplace: an output with an index is that argument itself.
    std::vector<int64_t> inplace = inplaceIndices(call);
    inplace.resize(outputs.size(), -1);
    std::vector<Expr> allocs, results;
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Type& t = outputs[i];
      if (inplace[i] >= 0 && inplace[i] < static_cast<int64_t>(all.size())) {
        results.push_back(all[inplace[i]]);
        continue;
      }
      const auto* tensor = as<TensorTypeNode>(t);
      if (!tensor || tensor->hasDynamicDim())
        throwError(call.span, "VMBuiltinLower: output " + typeToString(t) + " of " + std::string(op.name) +
                                  " has no static shape; the VM allocates exact sizes", "lower.dynamic-shape");
      std::optional<int64_t> count = limits::checkedElementCount(tensor->shape);
      if (!count) throwError(call.span, "VMBuiltinLower: " + limits::tooManyElementsMessage(tensor->shape), "limits.elements");
      int64_t bytes = *count * tensor->dtype.bytes();
      std::vector<AttrValue> shape;
      for (int64_t d : tensor->shape) shape.push_back(AttrValue::integer(d));
      Expr storage = bind(makeOpCall(OpId::VmAllocStorage, {}, {{"size", AttrValue::integer(bytes)}}, call.span), "storage");
      allocs.push_back(bind(makeOpCall(OpId::VmAllocTensor, {storage},
                                       {{"shape", AttrValue::array(std::move(shape))},
                                        {"dtype", AttrValue::string(std::string(tensor->dtype.name()))}},
                                       call.span),
                            "alloc"));
      results.push_back(allocs.back());
    }
    all.insert(all.end(), allocs.begin(), allocs.end());
    if (op.id == OpId::CallTir)
      bind(makeOpCall(OpId::VmCallTir, {callee, makeTuple(all)}, {}, call.span), "_");
    else
      bind(makeCall(callee, all, {}, call.span), "_");
    return results.size() == 1 ? results[0] : makeTuple(results);
  }

  std::vector<Binding> bindings_;
  std::unordered_map<const ExprNode*, Expr> memo_;
};

/// What VMBuiltinLower is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& vmBuiltinLowerDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "VMBuiltinLower";
    r.info.optLevel = 0;
    r.info.required = {"ToNonDataflow", "RemovePurityChecking"};
    r.info.acceptedPhases = {Phase::Lowering};
    r.info.phaseAfter = Phase::Build;
    r.info.description =
        "Lowers call_tir / call_dps_packed to vm.builtin.alloc_storage + vm.builtin.alloc_tensor + vm.builtin.call_tir "
        "(or a plain packed call) and puts function bodies in A-normal form. Moves the module from phase 2 to phase 3.";
    r.info.guarantees =
        "No call_tir or call_dps_packed remains outside skipped functions; bodies are let chains with atomic operands; "
        "the module is in phase 3.";
    r.create = [](const AttrDict&) { return createVMBuiltinLowerPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kVmBuiltinLowerRegistrar(vmBuiltinLowerDeclaration);

class VMBuiltinLowerPass final : public Pass {
 public:
  const PassInfo& info() const override { return vmBuiltinLowerDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    std::map<std::string, Expr> functions = mod->functions;
    for (auto& [name, fn] : functions) {
      const auto* node = as<FunctionNode>(fn);
      if (!node) continue;
      if (std::optional<std::string> reason = defaultFunctionSkipReason(*node)) {
        ctx.notifySkip({info().name, name, *reason});
        continue;
      }
      if (alreadyLowered(*node)) continue;
      Lowerer lower;
      fn = makeFunction(node->params, lower.lowerScope(node->body), node->retType, node->attrs, node->span);
    }
    AttrDict attrs = mod->attrs;
    // A forced out-of-phase run never moves the module back to an earlier phase.
    attrs.set(module_attr::kPhase, AttrValue::integer(std::max<int64_t>(mod->phase(), 3)));
    return makeModule(std::move(functions), std::move(attrs));
  }
};

}  // namespace

PassPtr createVMBuiltinLowerPass() { return std::make_shared<VMBuiltinLowerPass>(); }

}  // namespace passlab
