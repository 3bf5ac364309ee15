// The reducer's candidate rewrites (see reduce_reductions.h): truncating a
// function after a call, dropping uncalled functions, turning calls into
// parameters or bypassing them, inlining single-call globals, dropping
// attributes, shrinking constants and parameter shapes.
#include "core/workbench/reduce_reductions.h"

#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/functor.h"
#include "core/ir/type.h"

namespace passlab::reduce_detail {

std::set<std::string> referencedGlobals(const IRModule& mod) {
  std::set<std::string> out;
  for (const auto& [name, fn] : mod->functions)
    if (as<FunctionNode>(fn))
      postOrderVisit(fn, [&](const Expr& e) {
        if (const auto* g = as<GlobalVarNode>(e)) out.insert(g->name);
      });
  return out;
}

namespace {

/// Calls in `fn`'s body outside nested functions, in post-order.
std::vector<const CallNode*> topLevelCalls(const FunctionNode& fn) {
  std::vector<const CallNode*> out;
  postOrderVisit(
      fn.body,
      [&](const Expr& e) {
        if (const auto* c = as<CallNode>(e)) out.push_back(c);
      },
      [](const Expr& e) { return !as<FunctionNode>(e); });
  return out;
}

bool staticTensor(const Type& t) {
  const auto* tt = as<TensorTypeNode>(t);
  return tt && !tt->hasDynamicDim();
}

Expr zeroConstant(const Type& t) {
  const auto* tt = as<TensorTypeNode>(t);
  return makeConstant(NDArray(tt->dtype, tt->shape));
}

// ---- Rewriting ------------------------------------------------------------------

/// How far below a bypassed call its stand-in may be found.
constexpr int kBypassDepth = 6;

/// What to do to a node.
enum class NodeChange : uint8_t { Param, Bypass, Scalar, DropAttrs };

/// Applies node edits in one function; new parameters are collected.
class EditMutator : public ExprMutator {
 public:
  EditMutator(NodeChange edit, std::unordered_map<const ExprNode*, std::vector<std::string>> nodes, bool canAddParams)
      : edit_(edit), nodes_(std::move(nodes)), canAddParams_(canAddParams) {}
  std::vector<Var> newParams;

 protected:
  std::optional<Expr> preVisit(const Expr& original) override {
    if (!nodes_.count(original.get())) return std::nullopt;
    if (edit_ == NodeChange::Param) {
      if (canAddParams_ && original->checkedType) {
        Var v = makeVar("r" + std::to_string(newParams.size()), original->checkedType);
        newParams.push_back(v);
        return v;
      }
      if (staticTensor(original->checkedType)) return zeroConstant(original->checkedType);
    } else if (edit_ == NodeChange::Scalar) {
      const auto* k = as<ConstantNode>(original);
      if (k && k->data.numElements() > 1)
        return makeConstant(NDArray::scalar(k->data.dtype(), k->data.getAsDouble(0)), original->span);
    }
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    auto it = nodes_.find(original.get());
    if (it == nodes_.end()) return rebuilt;
    const auto* call = as<CallNode>(original);
    const auto* now = as<CallNode>(rebuilt);
    if (!call || !now) return rebuilt;
    if (edit_ == NodeChange::Bypass) {
      // The nearest input of the call's own type stands in for it (an argument,
      // else an argument's argument, ...: so reshape(reshape(x)) becomes x), else
      // zeros of that type. Inputs were rewritten first: mutate() finds them memoized.
      std::vector<const CallNode*> level{call};
      for (int depth = 0; depth < kBypassDepth && !level.empty(); ++depth) {
        std::vector<const CallNode*> next;
        for (const CallNode* c : level)
          for (const Expr& arg : c->args) {
            if (arg->checkedType && typeEqual(arg->checkedType, original->checkedType)) return mutate(arg);
            if (const auto* inner = as<CallNode>(arg)) next.push_back(inner);
          }
        level = std::move(next);
      }
      if (staticTensor(original->checkedType)) return zeroConstant(original->checkedType);
      return rebuilt;
    }
    if (edit_ == NodeChange::DropAttrs) {
      AttrDict attrs = now->attrs;
      for (const std::string& key : it->second) attrs.erase(key);
      return makeCall(now->callee, now->args, std::move(attrs), now->span);
    }
    return rebuilt;
  }

 private:
  NodeChange edit_;
  std::unordered_map<const ExprNode*, std::vector<std::string>> nodes_;
  bool canAddParams_;
};

/// Replaces variables (by node) with expressions.
class SubstMutator : public ExprMutator {
 public:
  explicit SubstMutator(std::unordered_map<const ExprNode*, Expr> map) : map_(std::move(map)) {}

 protected:
  std::optional<Expr> preVisit(const Expr& original) override {
    auto it = map_.find(original.get());
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::unordered_map<const ExprNode*, Expr> map_;
};

/// `fn` without parameters its body no longer uses (only for functions nothing calls).
Function dropUnusedParams(const Function& fn) {
  std::unordered_set<const ExprNode*> used;
  postOrderVisit(fn->body, [&](const Expr& e) {
    if (as<VarNode>(e)) used.insert(e.get());
  });
  std::vector<Var> kept;
  for (const Var& p : fn->params)
    if (used.count(p.get())) kept.push_back(p);
  if (kept.size() == fn->params.size()) return fn;
  return makeFunction(std::move(kept), fn->body, fn->retType, fn->attrs, fn->span);
}

/// Groups node targets by function and applies `edit` to each function.
IRModule applyNodeEdit(const IRModule& mod, const std::vector<Target>& chunk, NodeChange edit) {
  std::map<std::string, std::unordered_map<const ExprNode*, std::vector<std::string>>> byFunction;
  for (const Target& t : chunk) byFunction[t.function][t.node].push_back(t.key);
  const std::set<std::string> referenced = referencedGlobals(mod);
  IRModule out = mod;
  for (auto& [name, nodes] : byFunction) {
    const auto* fn = mod->lookupFunction(name);
    if (!fn) continue;
    const bool uncalled = !referenced.count(name);
    EditMutator mutator(edit, std::move(nodes), uncalled);
    Expr body = mutator.mutate(fn->body);
    if (body == fn->body) continue;
    std::vector<Var> params = fn->params;
    params.insert(params.end(), mutator.newParams.begin(), mutator.newParams.end());
    Function rebuilt = makeFunction(std::move(params), body, fn->retType, fn->attrs, fn->span);
    if (uncalled) rebuilt = dropUnusedParams(rebuilt);
    out = withFunction(out, name, rebuilt);
  }
  return out;
}

std::vector<Target> callTargets(const IRModule& mod, bool opsOnly) {
  std::vector<Target> out;
  for (const auto& [name, fn] : mod->functions)
    if (const auto* f = as<FunctionNode>(fn))
      for (const CallNode* c : topLevelCalls(*f))
        if (!opsOnly || c->op()) out.push_back(Target{name, c, "", -1, -1});
  return out;
}

// ---- The reductions: each a pair (targets, apply) ------------------------------

/// truncate: the calls of uncalled functions (their return type may change), in post-order.
std::vector<Target> truncationPoints(const IRModule& mod) {
  std::vector<Target> out;
  std::set<std::string> referenced = referencedGlobals(mod);
  for (const auto& [name, fn] : mod->functions)
    if (const auto* f = as<FunctionNode>(fn); f && !referenced.count(name))
      for (const CallNode* c : topLevelCalls(*f))
        if (c != f->body.get()) out.push_back(Target{name, c, "", -1, -1});
  return out;
}

/// truncate: the function returns the call; everything after it goes.
IRModule truncateAt(const IRModule& mod, const std::vector<Target>& chunk) {
  IRModule out = mod;
  for (const Target& t : chunk) {
    const auto* f = out->lookupFunction(t.function);
    Expr body;
    postOrderVisit(
        f->body, [&](const Expr& e) { if (e.get() == t.node) body = e; },
        [](const Expr& e) { return !as<FunctionNode>(e); });
    if (!body) continue;
    out = withFunction(out, t.function, dropUnusedParams(makeFunction(f->params, body, nullptr, f->attrs, f->span)));
  }
  return out;
}

/// functions: the functions nothing calls (the others go with their last caller).
std::vector<Target> uncalledFunctions(const IRModule& mod) {
  std::vector<Target> out;
  std::set<std::string> referenced = referencedGlobals(mod);
  for (const auto& [name, fn] : mod->functions)
    if (!referenced.count(name)) out.push_back(Target{name, nullptr, "", -1, -1});
  return out;
}

IRModule removeFunctions(const IRModule& mod, const std::vector<Target>& chunk) {
  IRModule out = mod;
  for (const Target& t : chunk) out = withoutFunction(out, t.function);
  return out;
}

/// inline: globals called exactly once, directly, and never used as a value.
std::vector<Target> singleCallGlobals(const IRModule& mod) {
  std::map<std::string, int> calls, uses;
  for (const auto& [name, fn] : mod->functions)
    if (as<FunctionNode>(fn))
      postOrderVisit(fn, [&](const Expr& e) {
        if (const auto* g = as<GlobalVarNode>(e)) ++uses[g->name];
        if (const auto* c = as<CallNode>(e))
          if (const auto* g = as<GlobalVarNode>(c->callee)) ++calls[g->name];
      });
  std::vector<Target> out;
  for (const auto& [name, n] : calls)
    if (n == 1 && uses[name] == 1 && mod->lookupFunction(name)) out.push_back(Target{name, nullptr, "", -1, -1});
  return out;
}

/// Replaces calls of the named globals by their bodies (arguments substituted for parameters).
class GlobalInliner : public ExprMutator {
 public:
  GlobalInliner(const IRModule& m, const std::set<std::string>& names) : mod_(m), names_(names) {}

 protected:
  Expr rewrite(const Expr&, const Expr& rebuilt) override {
    const auto* c = as<CallNode>(rebuilt);
    const auto* g = c ? as<GlobalVarNode>(c->callee) : nullptr;
    if (!g || !names_.count(g->name)) return rebuilt;
    const FunctionNode* callee = mod_->lookupFunction(g->name);
    if (!callee || callee->params.size() != c->args.size()) return rebuilt;
    std::unordered_map<const ExprNode*, Expr> map;
    for (size_t i = 0; i < c->args.size(); ++i) map[callee->params[i].get()] = c->args[i];
    return SubstMutator(std::move(map)).mutate(callee->body);
  }

 private:
  const IRModule& mod_;
  const std::set<std::string>& names_;
};

IRModule inlineGlobals(const IRModule& mod, const std::vector<Target>& chunk) {
  std::set<std::string> inlined;
  for (const Target& t : chunk) inlined.insert(t.function);
  IRModule out = mod;
  for (const auto& [name, fnExpr] : mod->functions) {
    const auto* fn = as<FunctionNode>(fnExpr);
    if (!fn || inlined.count(name)) continue;
    GlobalInliner inliner(mod, inlined);
    Expr body = inliner.mutate(fn->body);
    if (body != fn->body) out = withFunction(out, name, makeFunction(fn->params, body, fn->retType, fn->attrs, fn->span));
  }
  for (const std::string& name : inlined) out = withoutFunction(out, name);
  return out;
}

/// attrs: module attributes, function attributes, attributes of top-level op calls.
std::vector<Target> attributeKeys(const IRModule& mod) {
  std::vector<Target> out;
  for (const auto& [key, value] : mod->attrs.entries()) out.push_back(Target{"", nullptr, key, -1, -1});
  for (const auto& [name, fn] : mod->functions) {
    for (const auto& [key, value] : functionAttrs(fn).entries()) out.push_back(Target{name, nullptr, key, -1, -1});
    if (const auto* f = as<FunctionNode>(fn))
      for (const CallNode* c : topLevelCalls(*f))
        if (c->op())
          for (const auto& [key, value] : c->attrs.entries()) out.push_back(Target{name, c, key, -1, -1});
  }
  return out;
}

IRModule dropAttributes(const IRModule& mod, const std::vector<Target>& chunk) {
  std::vector<Target> nodes;
  IRModule out = mod;
  AttrDict moduleAttrs = mod->attrs;
  std::map<std::string, std::vector<std::string>> fnKeys;
  for (const Target& t : chunk) {
    if (t.node) nodes.push_back(t);
    else if (t.function.empty()) moduleAttrs.erase(t.key);
    else fnKeys[t.function].push_back(t.key);
  }
  if (moduleAttrs != mod->attrs) out = withModuleAttrs(out, moduleAttrs);
  out = applyNodeEdit(out, nodes, NodeChange::DropAttrs);
  for (const auto& [name, keys] : fnKeys) {
    Expr fn = out->lookup(name);
    const auto* f = as<FunctionNode>(fn);
    if (!f) continue;  // PrimFunc attributes stay: codegen needs them
    AttrDict attrs = f->attrs;
    for (const std::string& k : keys) attrs.erase(k);
    out = withFunction(out, name, withAttrs(*f, std::move(attrs)));
  }
  return out;
}

/// constants: tensor constants (more than one element).
std::vector<Target> tensorConstants(const IRModule& mod) {
  std::vector<Target> out;
  for (const auto& [name, fn] : mod->functions)
    if (as<FunctionNode>(fn))
      postOrderVisit(fn, [&out, &name = name](const Expr& e) {
        if (const auto* k = as<ConstantNode>(e); k && k->data.numElements() > 1) out.push_back(Target{name, e.get(), "", -1, -1});
      });
  return out;
}

/// shapes: the dimensions above 1 of the parameters of uncalled functions.
std::vector<Target> parameterDims(const IRModule& mod) {
  std::vector<Target> out;
  std::set<std::string> referenced = referencedGlobals(mod);
  for (const auto& [name, fn] : mod->functions) {
    const auto* f = as<FunctionNode>(fn);
    if (!f || referenced.count(name)) continue;
    for (size_t i = 0; i < f->params.size(); ++i)
      if (const auto* t = as<TensorTypeNode>(f->params[i]->annotation))
        for (size_t d = 0; d < t->shape.size(); ++d)
          if (t->shape[d] > 1) out.push_back(Target{name, nullptr, "", static_cast<int>(i), static_cast<int>(d)});
  }
  return out;
}

/// shapes: the chosen dimensions become 1; inference decides the return type.
IRModule shrinkDims(const IRModule& mod, const std::vector<Target>& chunk) {
  std::map<std::string, std::map<int, std::vector<int>>> dims;
  for (const Target& t : chunk) dims[t.function][t.param].push_back(t.dim);
  IRModule out = mod;
  for (const auto& [name, params] : dims) {
    const auto* f = mod->lookupFunction(name);
    if (!f) continue;
    std::vector<Var> newParams = f->params;
    std::unordered_map<const ExprNode*, Expr> map;
    for (const auto& [index, ds] : params) {
      const Var& old = f->params[static_cast<size_t>(index)];
      const auto* t = as<TensorTypeNode>(old->annotation);
      std::vector<int64_t> shape = t->shape;
      for (int d : ds) shape[static_cast<size_t>(d)] = 1;
      Var v = makeVar(old->name, tensorType(shape, t->dtype), old->isDataflow, old->span);
      newParams[static_cast<size_t>(index)] = v;
      map[old.get()] = v;
    }
    Expr body = SubstMutator(std::move(map)).mutate(f->body);
    // The return type follows the new shapes: inference decides it.
    out = withFunction(out, name, makeFunction(std::move(newParams), body, nullptr, f->attrs, f->span));
  }
  return out;
}

}  // namespace

/// Every reduction, in the order the reducer tries them.
std::vector<Reduction> makeReductions() {
  auto allCalls = [](const IRModule& mod) { return callTargets(mod, false); };
  auto nodeEdit = [](NodeChange change) {
    return [change](const IRModule& mod, const std::vector<Target>& chunk) { return applyNodeEdit(mod, chunk, change); };
  };
  return {
      {"truncate", truncationPoints, truncateAt, true},
      {"functions", uncalledFunctions, removeFunctions},
      {"inputs", allCalls, nodeEdit(NodeChange::Param)},
      {"bypass", allCalls, nodeEdit(NodeChange::Bypass)},
      {"inline", singleCallGlobals, inlineGlobals},
      {"attrs", attributeKeys, dropAttributes},
      {"constants", tensorConstants, nodeEdit(NodeChange::Scalar)},
      {"shapes", parameterDims, shrinkDims},
  };
}

}  // namespace passlab::reduce_detail
