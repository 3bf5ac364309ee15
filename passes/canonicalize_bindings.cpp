// CanonicalizeBindings (see canonicalize_bindings.h).
#include "passes/canonicalize_bindings.h"

#include <set>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/opt_util.h"

namespace passlab {

namespace {

/// Replaces variables by the ones they alias.
class AliasSubstitution final : public ExprMutator {
 public:
  explicit AliasSubstitution(const std::unordered_map<const ExprNode*, Expr>& alias) : alias_(alias) {}

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (e->kind != ExprKind::Var) return std::nullopt;
    Expr cur = e;
    for (auto it = alias_.find(cur.get()); it != alias_.end(); it = alias_.find(cur.get())) cur = it->second;
    return cur;
  }

 private:
  const std::unordered_map<const ExprNode*, Expr>& alias_;
};

class Canonicalizer {
 public:
  Expr spine(const Expr& e) {
    if (const auto* let = as<LetNode>(e)) {
      Expr value = subst(let->value);
      if (value->kind == ExprKind::Var) {
        alias_[let->var.get()] = value;
        return spine(let->body);
      }
      return makeLet(let->var, value, spine(let->body), let->span);
    }
    if (const auto* df = as<DataflowNode>(e)) return dataflow(*df);
    return subst(e);
  }

 private:
  Expr dataflow(const DataflowNode& df) {
    std::vector<Binding> out;
    std::unordered_map<const ExprNode*, size_t> definedAt;
    std::set<const ExprNode*> renamed;
    for (const Binding& b : df.bindings) {
      Expr value = subst(b.value);
      if (const auto* w = as<VarNode>(value)) {
        if (b.var->isDataflow || !w->isDataflow) {
          alias_[b.var.get()] = value;
          continue;
        }
        // An output bound to a dataflow variable of this block takes over its binding.
        if (auto it = definedAt.find(w); it != definedAt.end() && !renamed.count(w)) {
          out[it->second].var = b.var;
          alias_[w] = b.var;
          renamed.insert(w);
          continue;
        }
      }
      if (b.var->isDataflow) definedAt[b.var.get()] = out.size();
      out.push_back({b.var, value});
    }
    // Bindings between a renamed variable and its new name read the new name.
    for (Binding& b : out) b.value = subst(b.value);
    Expr body = spine(df.body);
    if (out.empty()) return body;
    return makeDataflow(std::move(out), body, df.span);
  }

  Expr subst(const Expr& e) {
    if (alias_.empty()) return e;
    AliasSubstitution s(alias_);
    return s.mutate(e);
  }

  std::unordered_map<const ExprNode*, Expr> alias_;
};

bool hasVarBinding(const Expr& body) {
  bool found = false;
  postOrderVisit(body, [&](const Expr& e) {
    if (const auto* let = as<LetNode>(e)) found = found || let->value->kind == ExprKind::Var;
    if (const auto* df = as<DataflowNode>(e))
      for (const Binding& b : df->bindings) found = found || b.value->kind == ExprKind::Var;
  });
  return found;
}

/// What CanonicalizeBindings is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& canonicalizeBindingsDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "CanonicalizeBindings";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering};
    r.info.description =
        "Removes variable-to-variable bindings (y = x: uses of y read x); in a dataflow block an output bound to a "
        "dataflow variable takes over that variable's binding; empty dataflow blocks go.";
    r.info.guarantees = "No let or dataflow binding of one variable to another remains outside skipped functions.";
    r.create = [](const AttrDict&) { return createCanonicalizeBindingsPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kCanonicalizeBindingsRegistrar(canonicalizeBindingsDeclaration);

class CanonicalizeBindingsPass final : public Pass {
 public:
  const PassInfo& info() const override { return canonicalizeBindingsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    // A function without a variable binding has nothing to canonicalize and
    // records no skip either.
    auto skip = [](const FunctionNode& f) { return hasVarBinding(f.body) ? defaultFunctionSkipReason(f) : std::nullopt; };
    IRModule out = opt_util::mapFunctions(
        mod, ctx, info().name,
        [](const Function& f, const std::string&) -> Function {
          if (!hasVarBinding(f->body)) return f;
          Canonicalizer c;
          Expr body = c.spine(f->body);
          return body == f->body ? f : makeFunction(f->params, body, f->retType, f->attrs, f->span);
        },
        skip);
    return out == mod ? mod : inferTypes(out);
  }
};

}  // namespace

PassPtr createCanonicalizeBindingsPass() { return std::make_shared<CanonicalizeBindingsPass>(); }

}  // namespace passlab
