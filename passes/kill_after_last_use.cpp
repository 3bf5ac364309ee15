// KillAfterLastUse (see kill_after_last_use.h).
#include "passes/kill_after_last_use.h"

#include <unordered_map>
#include <unordered_set>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "passes/opt_util.h"
#include "core/pass/registry.h"
#include "passes/relax_bindings.h"

namespace passlab {

namespace {

using relax_bindings::FlatBinding;
using relax_bindings::FlatBody;

Type typeOfVar(const VarNode& v) { return v.annotation ? v.annotation : v.checkedType; }

/// Replaces variables by the ones they alias.
class Substitution final : public ExprMutator {
 public:
  explicit Substitution(const std::unordered_map<const ExprNode*, Expr>& alias) : alias_(alias) {}

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (e->kind != ExprKind::Var) return std::nullopt;
    auto it = alias_.find(e.get());
    if (it == alias_.end()) return std::nullopt;
    return it->second;
  }

 private:
  const std::unordered_map<const ExprNode*, Expr>& alias_;
};

/// Step 1: trivial bindings removed, their uses reading the bound variable.
FlatBody canonicalize(const FlatBody& body) {
  std::unordered_map<const ExprNode*, Expr> alias;
  FlatBody out;
  // One substitution for the whole body: a variable's alias is decided at its
  // binding, before any use, so what it memoized for one value holds for the next.
  Substitution substitution(alias);
  auto subst = [&](const Expr& e) { return alias.empty() ? e : substitution.mutate(e); };
  for (const FlatBinding& b : body.bindings) {
    Expr value = subst(b.value);
    const Expr* source = nullptr;
    if (as<VarNode>(value)) source = &value;
    const CallNode* cast = opt_util::callTo(value, OpId::MatchCast);
    if (cast && as<VarNode>(cast->args[0])) {
      const Type from = typeOfVar(*as<VarNode>(cast->args[0]));
      if (from && typeEqual(from, typeOfVar(*b.var))) source = &cast->args[0];
    }
    if (source) {
      const Type mine = typeOfVar(*b.var);
      const Type theirs = typeOfVar(*as<VarNode>(*source));
      if (!mine || !theirs || typeEqual(mine, theirs)) {
        alias[b.var.get()] = *source;
        continue;
      }
    }
    FlatBinding kept = b;
    kept.value = value;
    out.bindings.push_back(std::move(kept));
  }
  out.result = subst(body.result);
  return out;
}

bool isKill(const OpDef* op) {
  return op && (op->id == OpId::RelaxMemKillTensor || op->id == OpId::RelaxMemKillStorage || op->id == OpId::RelaxVmKillObject);
}

/// Step 2: the kills.
FlatBody insertKills(const FlatBody& body, relax_bindings::NameSupply& names) {
  constexpr size_t kOutput = static_cast<size_t>(-1);
  std::unordered_map<const ExprNode*, size_t> lastUse;
  std::unordered_set<const ExprNode*> storage, constant, killed;
  auto uses = [&](const Expr& e, size_t at) {
    postOrderVisit(e, [&](const Expr& n) {
      if (n->kind == ExprKind::Var) lastUse[n.get()] = at;
    });
  };
  for (size_t i = 0; i < body.bindings.size(); ++i) {
    const FlatBinding& b = body.bindings[i];
    const auto* call = as<CallNode>(b.value);
    const OpDef* op = call ? call->op() : nullptr;
    if (op && (op->id == OpId::RelaxMemAllocStorage || op->id == OpId::RelaxVmAllocStorage)) {
      storage.insert(b.var.get());
      continue;
    }
    if (isKill(op)) {
      if (!call->args.empty() && as<VarNode>(call->args[0])) killed.insert(call->args[0].get());
      continue;
    }
    if (as<ConstantNode>(b.value)) {
      constant.insert(b.var.get());
      continue;
    }
    uses(b.value, i);
  }
  uses(body.result, kOutput);

  std::unordered_map<size_t, std::vector<std::pair<OpId, Var>>> killsAfter;
  for (int group = 0; group < 3; ++group) {
    for (const FlatBinding& b : body.bindings) {
      auto it = lastUse.find(b.var.get());
      if (it == lastUse.end() || it->second == kOutput || killed.count(b.var.get())) continue;
      Type t = typeOfVar(*b.var);
      bool inRegister = !constant.count(b.var.get()) && !as<FuncTypeNode>(t) && !as<ShapeTypeNode>(t) && !as<PrimTypeNode>(t);
      OpId kill;
      if (storage.count(b.var.get())) kill = OpId::RelaxMemKillStorage;
      else if (as<TensorTypeNode>(t) && inRegister) kill = OpId::RelaxMemKillTensor;
      else if (inRegister) kill = OpId::RelaxVmKillObject;
      else continue;
      int wanted = kill == OpId::RelaxMemKillTensor ? 0 : kill == OpId::RelaxMemKillStorage ? 1 : 2;
      if (wanted == group) killsAfter[it->second].push_back({kill, b.var});
    }
  }
  FlatBody out;
  out.result = body.result;
  for (size_t i = 0; i < body.bindings.size(); ++i) {
    out.bindings.push_back(body.bindings[i]);
    auto it = killsAfter.find(i);
    if (it == killsAfter.end()) continue;
    for (const auto& [op, var] : it->second)
      out.bindings.push_back(relax_bindings::bindingLike(body.bindings[i], names, "_", unitType(), makeOpCall(op, {var})));
  }
  return out;
}

Function killFunction(const Function& fn, const IRModule& mod, relax_bindings::NameSupply& names) {
  FlatBody flat = relax_bindings::flatten(fn->body);
  FlatBody canonical = canonicalize(flat);
  FlatBody out = insertKills(canonical, names);
  bool same = out.result == flat.result && out.bindings.size() == flat.bindings.size();
  for (size_t i = 0; same && i < out.bindings.size(); ++i)
    same = out.bindings[i].var == flat.bindings[i].var && out.bindings[i].value == flat.bindings[i].value;
  if (same) return fn;
  // The kernels it calls are the module's, unchanged.
  return makeFunction(fn->params, relax_bindings::rebuild(out, &mod), fn->retType, fn->attrs, fn->span);
}

/// What KillAfterLastUse is: its entry in the registry and in docs/passes.md.
const PassRegistration& killAfterLastUseDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "KillAfterLastUse";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Lowering};
    r.info.description =
        "Removes trivial bindings, then frees each tensor, storage and VM object right after its last use "
        "(R.memory.kill_tensor / kill_storage, R.vm.kill_object); returned values are never killed.";
    r.info.guarantees = "Every value the function neither returns nor uses later is killed once, after its last use.";
    r.create = [](const AttrDict&) { return createKillAfterLastUsePass(); };
        return r;
  }();
  return declaration;
}

const PassRegistrar kKillAfterLastUseRegistrar(killAfterLastUseDeclaration);

class KillAfterLastUsePass final : public Pass {
 public:
  const PassInfo& info() const override { return killAfterLastUseDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    relax_bindings::NameSupply names;  // one per run, as TVM's BlockBuilder has
    IRModule out = opt_util::mapFunctions(mod, ctx, info().name, [&](const Function& f, const std::string&) {
      opt_util::ensureTyped(f, mod);
      return killFunction(f, mod, names);
    });
    return out == mod ? mod : inferTypes(out);
  }
};

}  // namespace

PassPtr createKillAfterLastUsePass() { return std::make_shared<KillAfterLastUsePass>(); }

}  // namespace passlab
