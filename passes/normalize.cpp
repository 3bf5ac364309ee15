// Normalize (see normalize.h).
#include "passes/normalize.h"

#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/pass/registry.h"
#include "passes/opt_util.h"

namespace passlab {

namespace {


class Normalizer {
 public:
  /// A scope (function body, if branch): a spine of lets and dataflow blocks.
  /// An if branch keeps its final value in place: passlab reads TVMScript's
  /// `y = value` at the end of a branch as that value, where TVM binds it.
  Expr scope(const Expr& e, bool bindTail = true) {
    std::unordered_map<const ExprNode*, Expr> saved;
    saved.swap(cache_);
    bool savedDf = inDataflow_;
    std::vector<Binding>* savedOut = out_;
    bool savedTail = bindTail_;
    inDataflow_ = false;
    bindTail_ = bindTail;
    Expr result = spine(e);
    bindTail_ = savedTail;
    cache_.swap(saved);
    inDataflow_ = savedDf;
    out_ = savedOut;
    return result;
  }

 private:
  Expr spine(const Expr& e) {
    if (const auto* let = as<LetNode>(e)) {
      std::vector<Binding> pre;
      Expr value = withOutput(pre, false, [&] { return visitValue(let->value); });
      Expr body = spine(let->body);
      if (pre.empty() && value == let->value && body == let->body) return e;
      return wrap(pre, makeLet(let->var, value, body, let->span));
    }
    if (const auto* df = as<DataflowNode>(e)) {
      std::vector<Binding> bindings;
      bool changed = false;
      withOutput(bindings, true, [&] {
        for (const Binding& b : df->bindings) {
          size_t before = bindings.size();
          Expr value = visitValue(b.value);
          changed = changed || bindings.size() != before || value != b.value;
          bindings.push_back({b.var, value});
        }
        return Expr();
      });
      cache_.clear();
      Expr body = spine(df->body);
      if (!changed && body == df->body) return e;
      return makeDataflow(std::move(bindings), body, df->span);
    }
    std::vector<Binding> pre;
    Expr result = withOutput(pre, false, [&] { return bindTail_ ? operand(e) : visitValue(e); });
    return pre.empty() ? result : wrap(pre, result);
  }

  /// Runs `f` with new bindings going to `out` (dataflow variables when `dataflow`).
  template <class F>
  Expr withOutput(std::vector<Binding>& out, bool dataflow, F f) {
    std::vector<Binding>* savedOut = out_;
    bool savedDf = inDataflow_;
    out_ = &out;
    inDataflow_ = dataflow;
    Expr result = f();
    out_ = savedOut;
    inDataflow_ = savedDf;
    return result;
  }

  static Expr wrap(const std::vector<Binding>& pre, Expr body) {
    for (auto it = pre.rbegin(); it != pre.rend(); ++it) body = makeLet(it->var, it->value, body, it->value->span);
    return body;
  }

  /// An operand: a leaf or tuple stays; anything else is bound first.
  Expr operand(const Expr& e) {
    if (isAnfLeaf(e)) return e;
    if (auto it = cache_.find(e.get()); it != cache_.end()) return it->second;
    Expr value = visitValue(e);
    if (value->kind == ExprKind::Tuple) return value;
    Var v = makeVar(inDataflow_ ? "lv" : "gv", nullptr, inDataflow_, e->span);
    out_->push_back({v, value});
    cache_[e.get()] = v;
    return v;
  }

  /// A bound value: its operands become leaves or tuples; nested scopes are normalized in turn.
  Expr visitValue(const Expr& e) {
    switch (e->kind) {
      case ExprKind::Call: {
        const auto* c = as<CallNode>(e);
        Expr callee = c->callee->kind == ExprKind::Function ? visitValue(c->callee) : operand(c->callee);
        std::vector<Expr> args;
        bool same = callee == c->callee;
        for (const Expr& a : c->args) {
          args.push_back(operand(a));
          same = same && args.back() == a;
        }
        return same ? e : makeCall(callee, std::move(args), c->attrs, c->span);
      }
      case ExprKind::Tuple: {
        const auto* t = as<TupleNode>(e);
        std::vector<Expr> fields;
        bool same = true;
        for (const Expr& f : t->fields) {
          fields.push_back(operand(f));
          same = same && fields.back() == f;
        }
        return same ? e : makeTuple(std::move(fields), t->span);
      }
      case ExprKind::TupleGetItem: {
        const auto* g = as<TupleGetItemNode>(e);
        Expr tuple = operand(g->tuple);
        return tuple == g->tuple ? e : makeTupleGetItem(tuple, g->index, g->span);
      }
      case ExprKind::If: {
        const auto* i = as<IfNode>(e);
        Expr cond = operand(i->cond);
        Expr thenB = scope(i->thenBranch, false);
        Expr elseB = scope(i->elseBranch, false);
        if (cond == i->cond && thenB == i->thenBranch && elseB == i->elseBranch) return e;
        return makeIf(cond, thenB, elseB, i->span);
      }
      case ExprKind::Function: {
        const auto* f = as<FunctionNode>(e);
        Expr body = scope(f->body);
        return body == f->body ? e : makeFunction(f->params, body, f->retType, f->attrs, f->span);
      }
      case ExprKind::Let:
      case ExprKind::Dataflow: return scope(e);
      default: return e;
    }
  }

  std::vector<Binding>* out_ = nullptr;
  bool inDataflow_ = false;
  /// Whether the current scope's final value is bound when it is not a leaf or tuple.
  bool bindTail_ = true;
  /// Operands already bound in the current block, by node (TVM's normalize_binding_map).
  std::unordered_map<const ExprNode*, Expr> cache_;
};

/// What Normalize is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& normalizeDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "Normalize";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering};
    r.info.description =
        "Puts functions in TVM's Relax normal form: an operand that is not a variable, constant, global, op or tuple "
        "(a nested call, a projection, an if) is bound to a fresh variable before its use, innermost first, in the "
        "enclosing block; a body or if branch ending in such a value binds it.";
    r.info.guarantees =
        "Call operands, tuple fields, projected tuples and if conditions are leaves or tuples; bodies end in one.";
    r.create = [](const AttrDict&) { return createNormalizePass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kNormalizeRegistrar(normalizeDeclaration);

class NormalizePass final : public Pass {
 public:
  const PassInfo& info() const override { return normalizeDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    IRModule out = opt_util::mapFunctions(
        mod, ctx, info().name,
        [](const Function& f, const std::string&) -> Function {
          Normalizer n;
          Expr body = n.scope(f->body);
          return body == f->body ? f : makeFunction(f->params, body, f->retType, f->attrs, f->span);
        },
        defaultFunctionSkipReason);
    return out == mod ? mod : inferTypes(out);
  }
};

}  // namespace

PassPtr createNormalizePass() { return std::make_shared<NormalizePass>(); }

}  // namespace passlab
