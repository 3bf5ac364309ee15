// KillAfterLastUse (see kill_after_last_use.h).
#include "passes/kill_after_last_use.h"

#include <unordered_map>
#include <unordered_set>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/support/pointer_index.h"
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
  // Per-binding flat tables, indexed by the binding's position (this runs
  // over every binding of main after each build; node-based maps cost an
  // allocation per entry).
  constexpr size_t kNone = static_cast<size_t>(-1);
  constexpr size_t kOutput = static_cast<size_t>(-2);
  const size_t n = body.bindings.size();
  PointerIndex indexOf;
  indexOf.reserve(n);
  std::vector<size_t> lastUse(n, kNone);
  enum Flag : uint8_t { kStorage = 1, kConstant = 2, kKilled = 4 };
  std::vector<uint8_t> flags(n, 0);
  auto uses = [&](const Expr& e, size_t at) {
    postOrderVisit(e, [&](const Expr& v) {
      if (v->kind != ExprKind::Var) return;
      // Parameters are never killed: only bound variables are tracked.
      if (const uint32_t i = indexOf.find(v.get()); i != PointerIndex::kAbsent) lastUse[i] = at;
    });
  };
  for (size_t i = 0; i < n; ++i) {
    const FlatBinding& b = body.bindings[i];
    const uint32_t self = indexOf.insert(b.var.get(), static_cast<uint32_t>(i)).first;
    const auto* call = as<CallNode>(b.value);
    const OpDef* op = call ? call->op() : nullptr;
    if (op && (op->id == OpId::RelaxMemAllocStorage || op->id == OpId::RelaxVmAllocStorage)) {
      flags[self] |= kStorage;
      continue;
    }
    if (isKill(op)) {
      if (!call->args.empty() && as<VarNode>(call->args[0]))
        if (const uint32_t k = indexOf.find(call->args[0].get()); k != PointerIndex::kAbsent) flags[k] |= kKilled;
      continue;
    }
    if (as<ConstantNode>(b.value)) {
      flags[self] |= kConstant;
      continue;
    }
    uses(b.value, i);
  }
  uses(body.result, kOutput);

  std::vector<std::vector<std::pair<OpId, Var>>> killsAfter(n);
  for (int group = 0; group < 3; ++group) {
    for (size_t i = 0; i < n; ++i) {
      const FlatBinding& b = body.bindings[i];
      // (A variable bound twice is tracked at its first binding, as one key was.)
      const uint32_t k = indexOf.find(b.var.get());
      const size_t last = lastUse[k];
      if (last == kNone || last == kOutput || (flags[k] & kKilled)) continue;
      Type t = typeOfVar(*b.var);
      bool inRegister = !(flags[k] & kConstant) && !as<FuncTypeNode>(t) && !as<ShapeTypeNode>(t) && !as<PrimTypeNode>(t);
      OpId kill;
      if (flags[k] & kStorage) kill = OpId::RelaxMemKillStorage;
      else if (as<TensorTypeNode>(t) && inRegister) kill = OpId::RelaxMemKillTensor;
      else if (inRegister) kill = OpId::RelaxVmKillObject;
      else continue;
      int wanted = kill == OpId::RelaxMemKillTensor ? 0 : kill == OpId::RelaxMemKillStorage ? 1 : 2;
      if (wanted == group) killsAfter[last].push_back({kill, b.var});
    }
  }
  FlatBody out;
  out.result = body.result;
  out.bindings.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    out.bindings.push_back(body.bindings[i]);
    for (const auto& [op, var] : killsAfter[i])
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
