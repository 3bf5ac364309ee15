// Flattening and rebuilding of Relax function bodies (see relax_bindings.h).
#include "passes/relax_bindings.h"

#include "core/ir/limits.h"
#include "core/ir/op.h"

namespace passlab::relax_bindings {

FlatBody flatten(const Expr& body) {
  FlatBody out;
  Expr e = body;
  int block = 0;
  bool inLets = false;
  while (true) {
    if (const auto* let = as<LetNode>(e)) {
      if (!inLets) {
        ++block;
        inLets = true;
      }
      out.bindings.push_back({let->var, let->value, false, block, let->span});
      e = let->body;
      continue;
    }
    if (const auto* df = as<DataflowNode>(e)) {
      ++block;
      inLets = false;
      for (const Binding& b : df->bindings) out.bindings.push_back({b.var, b.value, true, block, df->span});
      e = df->body;
      continue;
    }
    break;
  }
  out.result = e;
  return out;
}

namespace {

/// Whether `t` holds a tensor over limits::kMaxTensorElements (the typer reports those).
bool oversized(const Type& t) {
  if (const auto* tt = as<TensorTypeNode>(t)) return !tt->hasDynamicDim() && !limits::checkedElementCount(tt->shape);
  if (const auto* tuple = as<TupleTypeNode>(t))
    for (const Type& f : tuple->fields)
      if (oversized(f)) return true;
  return false;
}

/// The type inferTypes gives a reference to the PrimFunc `name` (kept on the
/// PrimFunc, as the typer keeps it); null when `primFuncs` does not know it.
Type primFuncType(const std::string& name, const PrimFuncLookup& primFuncs) {
  const PrimFuncNode* prim = primFuncs ? primFuncs(name) : nullptr;
  if (!prim) return nullptr;
  if (!prim->checkedType) {
    // (As type_infer.cpp: buffers are tensors, scalars rank-0 tensors, no result.)
    std::vector<Type> params;
    for (const tir::Param& p : prim->params)
      params.push_back(p.buffer ? tensorType(p.buffer->shape, p.buffer->dtype) : tensorType({}, p.var->dtype));
    prim->checkedType = funcType(std::move(params), unitType());
  }
  return prim->checkedType;
}

/// Types a call a pass made, as inferTypes would, when that takes no search:
/// an op call whose arguments are typed, or a call to a PrimFunc of
/// `primFuncs`. Anything else (or anything that fails) is left to the typer,
/// which reports it.
void typeCall(const CallNode& call, const PrimFuncLookup& primFuncs) {
  if (call.checkedType) return;
  if (const auto* gv = as<GlobalVarNode>(call.callee)) {
    // A call to a PrimFunc, with arguments of exactly its parameter types: the
    // typer would give it the PrimFunc's result. Merely compatible arguments
    // are left to the typer.
    const auto* fn = as<FuncTypeNode>(primFuncType(gv->name, primFuncs));
    if (!fn || fn->params.size() != call.args.size()) return;
    for (size_t i = 0; i < call.args.size(); ++i) {
      const Expr& a = call.args[i];
      if (!a->checkedType || a->kind == ExprKind::GlobalVar || !fn->params[i] || !typeEqual(a->checkedType, fn->params[i]))
        return;
    }
    call.checkedType = fn->ret;
    return;
  }
  const OpDef* op = call.op();
  if (!op || (op->numArgs >= 0 && call.args.size() != static_cast<size_t>(op->numArgs))) return;
  std::vector<Type> args;
  args.reserve(call.args.size());
  for (const Expr& a : call.args) {
    // A PrimFunc argument (call_tir's callee) has the type the typer gives it.
    Type t = a->kind == ExprKind::GlobalVar ? primFuncType(as<GlobalVarNode>(a)->name, primFuncs) : a->checkedType;
    if (!t) return;
    args.push_back(std::move(t));
  }
  try {
    Type t = inferOpCallType(*op, args, call.attrs);
    if (t && !oversized(t)) call.checkedType = std::move(t);
  } catch (const TypeRelationError&) {
  }
}

/// Types a tuple of typed fields (its type is theirs).
void typeTuple(const TupleNode& tuple) {
  if (tuple.checkedType) return;
  std::vector<Type> fields;
  for (const Expr& f : tuple.fields) {
    if (!f->checkedType || f->kind == ExprKind::GlobalVar) return;
    fields.push_back(f->checkedType);
  }
  tuple.checkedType = tupleType(std::move(fields));
}

/// Types a binding a pass made where that is direct: an annotated variable, and its value (a call or tuple).
void typeFresh(const Var& var, const Expr& value, const PrimFuncLookup& primFuncs) {
  if (!var->checkedType && var->annotation && !oversized(var->annotation)) var->checkedType = var->annotation;
  if (const auto* call = as<CallNode>(value)) typeCall(*call, primFuncs);
  else if (const auto* tuple = as<TupleNode>(value)) typeTuple(*tuple);
}

/// Whether the binding of `var` to `value` is typed as inferTypes would leave
/// it: both typed (so their subtrees are) and the annotation, if any, equal to
/// the value's type (a merely compatible one is left to the typer to check).
bool bindingTyped(const Var& var, const Expr& value) {
  if (!var->checkedType || !value->checkedType || value->kind == ExprKind::GlobalVar) return false;
  return !var->annotation || typeEqual(var->annotation, value->checkedType);
}

}  // namespace

void typeIfDirect(const Expr& e, const PrimFuncLookup& primFuncs) {
  if (!e || e->checkedType) return;
  if (const auto* call = as<CallNode>(e)) {
    typeCall(*call, primFuncs);
  } else if (const auto* tuple = as<TupleNode>(e)) {
    typeTuple(*tuple);
  } else if (const auto* let = as<LetNode>(e)) {
    if (let->body->checkedType && bindingTyped(let->var, let->value)) let->checkedType = let->body->checkedType;
  } else if (const auto* df = as<DataflowNode>(e)) {
    bool typed = df->body->checkedType != nullptr;
    for (const Binding& b : df->bindings) typed = typed && bindingTyped(b.var, b.value);
    if (typed) df->checkedType = df->body->checkedType;
  }
}

Expr rebuild(const FlatBody& flat, const IRModule* primFuncs) {
  Expr result = flat.result;
  const auto& bs = flat.bindings;
  // A rebuilt node whose parts are all typed gets the type inferTypes would
  // give it (its body's): the VM passes change bindings all along the chain,
  // and every untyped node above a change would send the typer down the whole
  // function again after each of them. New bindings are typed in order first:
  // one may use a variable another new binding above it defines.
  PrimFuncLookup lookup;
  if (primFuncs && *primFuncs)
    lookup = [primFuncs](const std::string& name) { return as<PrimFuncNode>((*primFuncs)->lookup(name)); };
  for (const FlatBinding& b : bs) typeFresh(b.var, b.value, lookup);
  for (size_t i = bs.size(); i-- > 0;) {
    if (!bs[i].dataflow) {
      const bool typed = result->checkedType && bindingTyped(bs[i].var, bs[i].value);
      Type bodyType = typed ? result->checkedType : nullptr;
      result = makeLet(bs[i].var, bs[i].value, result, bs[i].span);
      if (typed && !result->checkedType) result->checkedType = std::move(bodyType);
      continue;
    }
    size_t first = i;
    while (first > 0 && bs[first - 1].dataflow && bs[first - 1].block == bs[i].block) --first;
    std::vector<Binding> block;
    bool typed = result->checkedType != nullptr;
    for (size_t j = first; j <= i; ++j) {
      block.push_back({bs[j].var, bs[j].value});
      typed = typed && bindingTyped(bs[j].var, bs[j].value);
    }
    Type bodyType = typed ? result->checkedType : nullptr;
    result = makeDataflow(std::move(block), result, bs[i].span);
    if (typed && !result->checkedType) result->checkedType = std::move(bodyType);
    i = first;
  }
  return result;
}

FlatBinding bindingLike(const FlatBinding& where, const std::string& name, Type type, Expr value) {
  FlatBinding b;
  b.var = makeVar(name, std::move(type), where.dataflow);
  b.value = std::move(value);
  b.dataflow = where.dataflow;
  b.block = where.block;
  b.span = where.span;
  return b;
}

std::string NameSupply::fresh(const std::string& hint) {
  auto it = counters_.find(hint);
  if (it == counters_.end()) {
    counters_.emplace(hint, 0);
    return hint;
  }
  // A reference, unlike the iterator, stays valid while the map grows.
  int& counter = it->second;
  std::string name = hint;
  while (!counters_.emplace(name, 0).second) name = hint + std::to_string(++counter);
  return name;
}

FlatBinding bindingLike(const FlatBinding& where, NameSupply& names, const std::string& name, Type type, Expr value) {
  return bindingLike(where, names.fresh(name), std::move(type), std::move(value));
}

std::vector<int64_t> intListOf(const AttrValue& v) {
  std::vector<int64_t> out;
  if (v.kind() != AttrValue::Kind::Array) return out;
  for (const AttrValue& x : v.asArray()) out.push_back(x.asInt());
  return out;
}

}  // namespace passlab::relax_bindings
