#include "passes/fold_constant.h"

#include <map>
#include <algorithm>
#include <cstdint>
#include <new>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/type_infer.h"
#include "core/interp/interpreter.h"
#include "core/ir/call_tir.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "core/trace/remark_nodes.h"
#include "core/pass/remark_rules.h"
#include "passes/fuse_ops.h"
#include "passes/infer_type.h"
#include "passes/opt_util.h"

namespace passlab {

namespace {

/// At most this many rounds per function: each round can only make more `if`
/// conditions constant, and real models need one or two.
constexpr int kMaxRounds = 4;

bool foldableOp(const OpDef& op) {
  switch (op.id) {
    case OpId::CallDpsPacked:
    case OpId::CallPurePacked:
    case OpId::MatchCast:
    // A string or dtype is no tensor, though the interpreter holds it as one.
    case OpId::RelaxStrImm:
    case OpId::RelaxDataTypeImm:
    case OpId::InvokePureClosure: return false;
    default: return !op.stateful;
  }
}

bool isPrimitiveFunction(const Expr& e) {
  const FunctionNode* fn = as<FunctionNode>(e);
  return fn && opt_util::isPrimitive(*fn);
}

/// A form needing no evaluation: a constant, or a tuple of such forms.
bool isTrivialForm(const Expr& form) {
  if (form->kind == ExprKind::Constant) return true;
  const TupleNode* t = as<TupleNode>(form);
  if (!t) return false;
  for (const Expr& f : t->fields)
    if (!isTrivialForm(f)) return false;
  return true;
}

/// Which nodes of a function have a value known at compile time ("foldable"),
/// the expression computing it with let-bound variables replaced by their
/// values ("form"), and the roots to evaluate: non-trivial foldable nodes used
/// where a run-time value is expected.
class ConstantAnalysis {
 public:
  /// With `explain`, also records what remarks need (candidates, sources) on the same walk.
  explicit ConstantAnalysis(const Function& fn, bool explain = false) : root_(fn.get()), explain_(explain) {
    size_t nodes = 0;
    postOrderVisit(
        fn,
        [&](const Expr& e) {
          ++nodes;
          if (const LetNode* let = as<LetNode>(e)) letValue_.emplace(let->var.get(), let->value);
        },
        [](const Expr& e) { return !isPrimitiveFunction(e); });
    // Most nodes of a model hold a run-time value: sized once, not rehashed as it fills.
    if (explain_) source_.reserve(nodes);
    analyse(fn);
  }

  /// The form of a foldable node, or null.
  const Expr* form(const ExprNode* e) const {
    auto it = form_.find(e);
    return it == form_.end() ? nullptr : &it->second;
  }
  bool foldable(const ExprNode* e) const { return form_.count(e) != 0; }
  bool trivial(const ExprNode* e) const { return trivial_.count(e) != 0; }
  /// A let whose value is foldable: the binding disappears.
  bool dropsBinding(const LetNode& let) const { return foldable(let.var.get()); }
  const std::vector<Expr>& roots() const { return roots_; }
  /// Some `if` has a condition that is foldable but needs evaluation first.
  bool pendingIf() const { return pendingIf_; }

  // ---- Remarks (only with `explain`) ----
  /// Op calls that take a compile-time value and are still not foldable, in post-order.
  const std::vector<Expr>& unfoldedCandidates() const { return candidates_; }
  /// Primitive functions the analysis does not enter.
  const std::vector<Expr>& primitives() const { return primitives_; }
  /// Where the run-time value of non-foldable `e` comes from: a variable or a
  /// call never evaluated at compile time (null when unknown).
  const ExprNode* runtimeSource(const ExprNode* e) const {
    auto it = source_.find(e);
    return it == source_.end() ? nullptr : it->second;
  }

  /// The children a rewrite must visit (binding positions and dropped values excluded).
  void consumedChildren(const Expr& e, std::vector<Expr>& out) const {
    switch (e->kind) {
      case ExprKind::Let: {
        const LetNode* let = as<LetNode>(e);
        if (!dropsBinding(*let)) out.push_back(let->value);
        out.push_back(let->body);
        return;
      }
      case ExprKind::Function:
        if (!isPrimitiveFunction(e)) out.push_back(as<FunctionNode>(e)->body);
        return;
      case ExprKind::Call: {
        const CallNode* call = as<CallNode>(e);
        if (!call->op()) out.push_back(call->callee);
        out.insert(out.end(), call->args.begin(), call->args.end());
        return;
      }
      case ExprKind::Dataflow: {
        const DataflowNode* d = as<DataflowNode>(e);
        for (const Binding& b : d->bindings) out.push_back(b.value);
        out.push_back(d->body);
        return;
      }
      case ExprKind::Var:
        return;  // a use of a variable consumes nothing; its let does
      default: appendChildren(e, out); return;
    }
  }

 private:
  /// What a node's analysis depends on: its consumed children, and for a
  /// let-bound variable the value bound to it.
  void dependencies(const Expr& e, std::vector<Expr>& out) const {
    if (const VarNode* v = as<VarNode>(e)) {
      if (auto it = letValue_.find(v); it != letValue_.end()) out.push_back(it->second);
      return;
    }
    if (const LetNode* let = as<LetNode>(e)) {
      // The variable too: an unused binding of a foldable value is dropped as well.
      out.push_back(let->value);
      out.push_back(let->var);
      out.push_back(let->body);
      return;
    }
    consumedChildren(e, out);
  }

  void analyse(const Expr& root) {
    std::unordered_set<const ExprNode*> done;
    std::vector<std::pair<Expr, bool>> stack{{root, false}};
    std::vector<Expr> deps;
    while (!stack.empty()) {
      auto [node, expanded] = stack.back();
      if (done.count(node.get())) {
        stack.pop_back();
        continue;
      }
      if (!expanded) {
        stack.back().second = true;
        deps.clear();
        dependencies(node, deps);
        for (auto it = deps.rbegin(); it != deps.rend(); ++it)
          if (*it && !done.count(it->get())) stack.emplace_back(*it, false);
        continue;
      }
      stack.pop_back();
      done.insert(node.get());
      classify(node);
    }
  }

  void setForm(const Expr& e, Expr form) {
    if (isTrivialForm(form)) trivial_.insert(e.get());
    form_.emplace(e.get(), std::move(form));
  }

  void classify(const Expr& e) {
    switch (e->kind) {
      case ExprKind::Constant: setForm(e, e); break;
      case ExprKind::Var:
        if (auto it = letValue_.find(as<VarNode>(e)); it != letValue_.end())
          if (const Expr* f = form(it->second.get())) setForm(e, *f);
        break;
      case ExprKind::Call: classifyCall(e); break;
      case ExprKind::Tuple: {
        const TupleNode* t = as<TupleNode>(e);
        std::vector<Expr> fields;
        bool same = true;
        for (const Expr& f : t->fields) {
          const Expr* ff = form(f.get());
          if (!ff) break;
          same = same && *ff == f;
          fields.push_back(*ff);
        }
        if (fields.size() == t->fields.size()) setForm(e, same ? e : makeTuple(std::move(fields), t->span));
        break;
      }
      case ExprKind::TupleGetItem: {
        const TupleGetItemNode* item = as<TupleGetItemNode>(e);
        const Expr* tf = form(item->tuple.get());
        if (!tf) break;
        const TupleNode* literal = as<TupleNode>(*tf);
        if (literal && item->index >= 0 && static_cast<size_t>(item->index) < literal->fields.size())
          setForm(e, literal->fields[static_cast<size_t>(item->index)]);
        else
          setForm(e, *tf == item->tuple ? e : makeTupleGetItem(*tf, item->index, item->span));
        break;
      }
      case ExprKind::If: {
        const IfNode* i = as<IfNode>(e);
        const Expr* cond = form(i->cond.get());
        const ConstantNode* c = cond ? as<ConstantNode>(*cond) : nullptr;
        if (cond && !c) pendingIf_ = true;
        if (c && c->data.numElements() == 1) {
          const Expr& taken = c->data.getAsDouble(0) != 0 ? i->thenBranch : i->elseBranch;
          if (const Expr* f = form(taken.get())) setForm(e, *f);
        }
        break;
      }
      default: break;
    }
    if (!foldable(e.get())) collectRoots(e);
    if (explain_) note(e);
  }

  void classifyCall(const Expr& e) {
    const CallNode* call = as<CallNode>(e);
    const OpDef* op = call->op();
    if (!op || !foldableOp(*op) || call->args.empty()) return;
    if (op->id == OpId::ShapeOf) {
      // The value depends only on the argument's static type, never on its data.
      if (const TensorTypeNode* t = opt_util::tensorTypeOf(call->args[0]); t && !t->hasDynamicDim()) {
        DataType dtype = DataType::parse(opt_util::callAttr(*call, "dtype").asString()).value_or(DTypeCode::Int64);
        NDArray shape(dtype, {static_cast<int64_t>(t->shape.size())});
        for (size_t i = 0; i < t->shape.size(); ++i) shape.setFromDouble(static_cast<int64_t>(i), static_cast<double>(t->shape[i]));
        setForm(e, makeConstant(std::move(shape), call->span));
      }
      return;
    }
    if (op->id == OpId::CallTir && isInplaceCallTir(*call)) return;  // TVM's FoldConstant folds call_tir only, never call_tir_inplace
    if (op->id == OpId::CallTir) {
      // TVM folds a call_tir of constants by running its PrimFunc: here the TIR interpreter does.
      const Expr* tuple = call->args.size() == 2 && as<GlobalVarNode>(call->args[0]) ? form(call->args[1].get()) : nullptr;
      if (tuple) form_.emplace(e.get(), *tuple == call->args[1] ? e : makeCall(call->callee, {call->args[0], *tuple}, call->attrs, call->span));
      return;
    }
    std::vector<Expr> args;
    bool same = true;
    for (const Expr& a : call->args) {
      const Expr* f = form(a.get());
      if (!f) return;
      same = same && *f == a;
      args.push_back(*f);
    }
    form_.emplace(e.get(), same ? e : makeCall(call->callee, std::move(args), call->attrs, call->span));
  }

  void collectRoots(const Expr& consumer) {
    std::vector<Expr> children;
    consumedChildren(consumer, children);
    for (const Expr& c : children)
      if (c && foldable(c.get()) && !trivial(c.get()) && rootSet_.insert(c.get()).second) roots_.push_back(c);
  }

  std::unordered_map<const VarNode*, Expr> letValue_;
  std::unordered_map<const ExprNode*, Expr> form_;
  std::unordered_set<const ExprNode*> trivial_;
  std::vector<Expr> roots_;
  std::unordered_set<const ExprNode*> rootSet_;
  bool pendingIf_ = false;

  /// Remarks: a non-foldable node's run-time source (children are noted first),
  /// and the candidates and Primitive functions.
  void note(const Expr& e) {
    if (e.get() != root_ && isPrimitiveFunction(e)) {
      primitives_.push_back(e);
      return;
    }
    if (foldable(e.get())) return;
    const CallNode* call = as<CallNode>(e);
    if (e->kind == ExprKind::Var || (call && (!call->op() || !foldableOp(*call->op())))) source_.emplace(e.get(), e.get());
    if (!call) return;
    bool anyConstant = false;
    for (const Expr& a : call->args) {
      if (foldable(a.get())) {
        anyConstant = true;
      } else if (!source_.count(e.get())) {
        if (const ExprNode* s = runtimeSource(a.get())) source_.emplace(e.get(), s);
      }
    }
    if (anyConstant && call->op()) candidates_.push_back(e);
  }

  const ExprNode* root_;
  bool explain_;
  std::vector<Expr> candidates_;
  std::vector<Expr> primitives_;
  std::unordered_map<const ExprNode*, const ExprNode*> source_;
};

Expr valueToExpr(const Value& v, bool fromPlaceholder) {
  if (v.isTensor()) {
    NDArray data = v.tensor();
    if (fromPlaceholder && !data.fromPlaceholder()) {
      // A fresh array: marked, so numbers computed from made-up data stay labelled.
      NDArray copy(data.dtype(), data.shape());
      if (data.byteSize()) std::copy(data.rawData(), data.rawData() + data.byteSize(), copy.mutableData());
      copy.markDerivedFromPlaceholder();
      data = std::move(copy);
    }
    return makeConstant(std::move(data));
  }
  std::vector<Expr> fields;
  for (const Value& f : v.fields()) fields.push_back(valueToExpr(f, fromPlaceholder));
  return makeTuple(std::move(fields));
}

/// Bytes of a value of type `t` (tuples summed); 0 when unknown or dynamic.
uint64_t typeBytes(const Type& t) {
  if (const auto* tensor = as<TensorTypeNode>(t)) {
    uint64_t n = tensor->dtype.bytes();
    for (int64_t d : tensor->shape) {
      if (d < 0) return 0;
      n = d == 0 ? 0 : (n > UINT64_MAX / static_cast<uint64_t>(d) ? UINT64_MAX : n * static_cast<uint64_t>(d));
    }
    return n;
  }
  uint64_t total = 0;
  if (const auto* tuple = as<TupleTypeNode>(t))
    for (const Type& f : tuple->fields) total = std::min<uint64_t>(UINT64_MAX / 2, total) + typeBytes(f);
  return total;
}

/// What evaluating a root involves: its largest value and whether it reads placeholder data.
struct RootFacts {
  uint64_t largestBytes = 0;
  bool fromPlaceholder = false;
};

RootFacts factsOf(const Expr& root, const Expr& form) {
  RootFacts facts;
  for (const Expr* tree : {&root, &form})
    postOrderVisit(*tree, [&](const Expr& e) {
      facts.largestBytes = std::max(facts.largestBytes, typeBytes(e->checkedType));
      if (const auto* c = as<ConstantNode>(e)) facts.fromPlaceholder = facts.fromPlaceholder || c->data.fromPlaceholder();
    }, [](const Expr& e) { return !isPrimitiveFunction(e); });
  return facts;
}

/// Rewrites a function with the folded values: roots become their constants,
/// foldable let bindings disappear, literal-tuple projections and constant
/// `if`s are resolved. Iterative, like ExprMutator, but visiting only the
/// children ConstantAnalysis says are consumed.
Expr substitute(const Expr& root, const ConstantAnalysis& analysis, const std::unordered_map<const ExprNode*, Expr>& folded) {
  std::unordered_map<const ExprNode*, Expr> memo;
  std::vector<std::pair<Expr, bool>> stack{{root, false}};
  std::vector<Expr> children;
  auto pre = [&](const Expr& e) -> std::optional<Expr> {
    if (isPrimitiveFunction(e)) return e;
    if (const Expr* f = analysis.form(e.get())) {
      if (analysis.trivial(e.get())) return *f;
      if (auto it = folded.find(e.get()); it != folded.end()) return it->second;
      return e;  // only reachable through replaced nodes or dropped bindings
    }
    return std::nullopt;
  };
  while (!stack.empty()) {
    auto [node, expanded] = stack.back();
    if (memo.count(node.get())) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      if (std::optional<Expr> replaced = pre(node)) {
        memo.emplace(node.get(), *replaced);
        stack.pop_back();
        continue;
      }
      stack.back().second = true;
      children.clear();
      if (const LetNode* let = as<LetNode>(node); let && analysis.dropsBinding(*let))
        children.push_back(let->body);
      else
        appendChildren(node, children);
      for (auto it = children.rbegin(); it != children.rend(); ++it)
        if (*it && !memo.count(it->get())) stack.emplace_back(*it, false);
      continue;
    }
    stack.pop_back();
    Expr result;
    if (const LetNode* let = as<LetNode>(node); let && analysis.dropsBinding(*let)) {
      result = memo.at(let->body.get());
    } else {
      children.clear();
      appendChildren(node, children);
      for (Expr& c : children) c = c ? memo.at(c.get()) : c;
      result = rebuildWithChildren(node, children);
      if (const IfNode* i = as<IfNode>(result)) {
        const ConstantNode* c = as<ConstantNode>(i->cond);
        if (c && c->data.numElements() == 1) result = c->data.getAsDouble(0) != 0 ? i->thenBranch : i->elseBranch;
      } else if (const TupleGetItemNode* item = as<TupleGetItemNode>(result)) {
        const TupleNode* t = as<TupleNode>(item->tuple);
        if (t && item->index >= 0 && static_cast<size_t>(item->index) < t->fields.size()) result = t->fields[static_cast<size_t>(item->index)];
      }
    }
    if (result != node && !result->checkedType) result->checkedType = node->checkedType;
    memo.emplace(node.get(), result);
  }
  return memo.at(root.get());
}

/// "parameter %x", "%v" (a let variable), "the result of @f", or "a value computed at run time".
std::string describeSource(const ExprNode* s, const FunctionNode& fn) {
  if (!s) return "a value computed at run time";
  if (s->kind == ExprKind::Var) {
    const VarNode* v = static_cast<const VarNode*>(s);
    bool param = std::any_of(fn.params.begin(), fn.params.end(), [&](const Var& p) { return p.get() == v; });
    return (param ? "parameter %" : "%") + v->name;
  }
  const CallNode* call = static_cast<const CallNode*>(s);
  if (const OpDef* op = call->op()) return "the result of " + std::string(op->name) + ", which is never evaluated at compile time";
  const GlobalVarNode* g = as<GlobalVarNode>(call->callee);
  return "the result of " + (g ? "@" + g->name : std::string("a call"));
}

/// Remarks on the calls that take a compile-time value and still are not
/// folded, and on the Primitive functions FoldConstant does not enter, from
/// what an explaining ConstantAnalysis recorded (no walk of its own).
void explainUnfolded(const Function& fn, const ConstantAnalysis& analysis, const std::string& function, const std::string& pass,
                     PassContext& ctx) {
  for (const Expr& e : analysis.primitives())
    ctx.remark(makeRemark(pass, RemarkRule::FoldInsidePrimitive, function, {e},
                          "not entered: a Primitive function (already fused) is left as it is"));
  for (const Expr& e : analysis.unfoldedCandidates()) {
    const CallNode* call = as<CallNode>(e);
    const OpDef* op = call->op();
    if (!foldableOp(*op)) {
      ctx.remark(makeRemark(pass, RemarkRule::FoldOpSkipped, function, {e},
                            "not folded: " + std::string(op->name) + " is never evaluated at compile time"));
      continue;
    }
    for (const Expr& a : call->args)
      if (!analysis.foldable(a.get())) {
        ctx.remark(makeRemark(pass, RemarkRule::FoldDependsOnParam, function, {e, a},
                              "not folded: " + std::string(op->name) + " depends on " +
                                  describeSource(analysis.runtimeSource(a.get()), *fn)));
        break;
      }
  }
}

size_t callCount(const Expr& form) {
  size_t n = 0;
  postOrderVisit(form, [&](const Expr& e) { n += as<CallNode>(e) != nullptr; });
  return n;
}

/// What FoldConstant is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& foldConstantDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = "FoldConstant";
    r.level = PassLevel::Function;
    r.info.optLevel = 2;
    r.info.required = {"InferType"};
    // 2: call_tir of constants, as TVM's zero pipeline folds after LegalizeOps
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering};
    r.info.description =
        "Evaluates constant subexpressions (a nested InferType,FuseOps pipeline in a clean CPU child context, then the "
        "interpreter; a call_tir of constants runs its PrimFunc on the TIR interpreter); folds shape_of from static "
        "types, constant lets, tuple projections and constant ifs.";
    r.info.guarantees =
        "No call with only constant arguments remains outside Primitive functions, except zero-argument, stateful and "
        "later-phase calls; values are exactly what the interpreter computes.";
    r.configKeys = {{kFoldConstantLeakKey, Kind::Bool, AttrValue::boolean(false),
                     "teaching switch: the evaluation module inherits the module's executor attribute (TVM's historical "
                     "leak), so the nested FuseOps reads link-params from the module while its own context is clean CPU"},
                    {kFoldConstantMaxBytesKey, Kind::Int, AttrValue::integer(kFoldConstantDefaultMaxBytes),
                     "largest value (in bytes) FoldConstant computes: a constant subexpression with a result or an "
                     "intermediate value larger than this stays unfolded, and the event's diagnostics say so",
                     0}};
    r.create = [](const AttrDict&) { return createFoldConstantPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kFoldConstantRegistrar(foldConstantDeclaration);

class FoldConstantPass final : public FunctionPass {
 public:
  const PassInfo& info() const override { return foldConstantDeclaration().info; }

  Function runOnFunction(const Function& fn, const std::string& name, const IRModule& mod, PassContext& ctx) const override {
    opt_util::ensureTyped(fn, mod);
    Function current = fn;
    for (int round = 0; round < kMaxRounds; ++round) {
      // Only the first round sees the function as the event's `before` module holds it.
      const bool explain = round == 0 && ctx.remarksEnabled();
      ConstantAnalysis analysis(current, explain);
      if (explain) explainUnfolded(current, analysis, name, info().name, ctx);
      std::unordered_map<const ExprNode*, Expr> folded;
      if (!analysis.roots().empty() && !evaluateRoots(analysis, name, mod, ctx, folded)) break;
      Expr out = substitute(current, analysis, folded);
      if (out == current) break;
      current = std::static_pointer_cast<const FunctionNode>(out);
      inferExprType(current, &mod);
      if (!analysis.pendingIf()) break;
    }
    return current;
  }

 private:
  /// Runs the nested pipeline and the interpreter on the roots; fills `folded`
  /// (root → constant or tuple of constants). False (with a warning) on failure.
  bool evaluateRoots(const ConstantAnalysis& analysis, const std::string& function, const IRModule& mod, PassContext& ctx,
                     std::unordered_map<const ExprNode*, Expr>& folded) const {
    const std::string& pass = info().name;
    const std::vector<Expr>& roots = analysis.roots();
    const bool leak = ctx.config(kFoldConstantLeakKey, pass).asBool();
    AttrDict attrs;
    if (const AttrValue* phase = mod->attrs.find(module_attr::kPhase)) attrs.set(module_attr::kPhase, *phase);
    if (leak) {
      // The historical behaviour: the evaluation module keeps what describes the real build.
      for (const char* key : {module_attr::kExecutor, module_attr::kRuntime})
        if (const AttrValue* v = mod->attrs.find(key)) attrs.set(key, *v);
    }
    // Values beyond the size limit are not computed: the roots they belong to stay as they are.
    const int64_t maxBytes = ctx.config(kFoldConstantMaxBytesKey, pass).asInt();
    std::vector<Expr> evaluated;
    std::vector<bool> placeholderData;
    for (const Expr& r : roots) {
      RootFacts facts = factsOf(r, *analysis.form(r.get()));
      if (maxBytes >= 0 && facts.largestBytes > static_cast<uint64_t>(maxBytes)) {
        Diagnostic d;
        d.severity = Severity::Warning;
        d.rule = "fold-constant.too-large";
        d.function = function;
        d.span = r->span;
        d.message = "FoldConstant left a constant subexpression of @" + function + " unfolded: it computes a value of " +
                    std::to_string(facts.largestBytes) + " bytes, more than " + kFoldConstantMaxBytesKey + " = " +
                    std::to_string(maxBytes);
        ctx.notifyDiagnostic(d);
        if (ctx.remarksEnabled())
          ctx.remark(makeRemark(pass, RemarkRule::FoldTooLarge, function, {r},
                                "not folded: " + describeNode(r) + " computes a value of " + std::to_string(facts.largestBytes) +
                                    " bytes, more than " + kFoldConstantMaxBytesKey + " = " + std::to_string(maxBytes)));
        continue;
      }
      evaluated.push_back(r);
      placeholderData.push_back(facts.fromPlaceholder);
    }
    if (evaluated.empty()) return true;
    std::vector<Expr> fields;
    for (const Expr& r : evaluated) fields.push_back(*analysis.form(r.get()));
    std::map<std::string, Expr> evalFunctions;
    // The PrimFuncs the folded call_tirs call come along.
    for (const Expr& f : fields)
      postOrderVisit(f, [&](const Expr& e) {
        if (const auto* g = as<GlobalVarNode>(e))
          if (Expr prim = mod->lookup(g->name); prim && prim->kind == ExprKind::PrimFunc) evalFunctions.emplace(g->name, prim);
      });
    evalFunctions.emplace("main", makeFunction({}, makeTuple(std::move(fields))));
    IRModule evalModule = makeModule(std::move(evalFunctions), std::move(attrs));
    std::shared_ptr<PassContext> child = ctx.makeChild(kFoldConstantEvalContext);
    child->target = kFoldConstantEvalTarget;
    try {
      evalModule = runPass(*createInferTypePass(), evalModule, *child);
      evalModule = runPass(*createFuseOpsPass(), evalModule, *child);
      Value result = evaluate(evalModule, "main", {});
      for (size_t i = 0; i < evaluated.size(); ++i) {
        Expr value = valueToExpr(result.fields().at(i), placeholderData[i]);
        if (!value->checkedType) value->checkedType = evaluated[i]->checkedType;
        if (ctx.remarksEnabled())
          ctx.remark(makeRemark(pass, RemarkRule::FoldFolded, function, {evaluated[i]},
                                "folded " + describeNode(evaluated[i]) + " (" + std::to_string(callCount(*analysis.form(evaluated[i].get()))) +
                                    " calls) into a constant " + typeToString(value->checkedType)));
        folded.emplace(evaluated[i].get(), std::move(value));
      }
    } catch (const std::bad_alloc&) {
      Diagnostic d;
      d.severity = Severity::Warning;
      d.rule = "fold-constant.too-large";
      d.function = function;
      d.message = "FoldConstant left @" + function + " unfolded: evaluating its constant subexpressions ran out of memory";
      ctx.notifyDiagnostic(d);
      return false;
    } catch (const DiagnosticError& error) {
      Diagnostic d = error.diagnostics().empty() ? Diagnostic{} : error.diagnostics().front();
      d.severity = Severity::Warning;
      d.rule = "fold-constant.eval-failed";
      d.function = function;
      d.message = "FoldConstant left @" + function + " unfolded: evaluating its " + std::to_string(evaluated.size()) +
                  " constant subexpressions failed: " + d.message;
      ctx.notifyDiagnostic(d);
      if (ctx.remarksEnabled()) ctx.remark(makeRemark(pass, RemarkRule::FoldEvalFailed, function, evaluated, d.message));
      return false;
    }
    return true;
  }
};

}  // namespace

PassPtr createFoldConstantPass() { return std::make_shared<FoldConstantPass>(); }

}  // namespace passlab
