// FuseTIR (see fuse_tir.h).
#include "passes/fuse_tir.h"

#include "core/pass/remark_rules.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/call_tir.h"
#include "core/ir/functor.h"
#include "core/ir/tir_functor.h"
#include "core/pass/registry.h"
#include "passes/pass_util.h"

namespace passlab {

namespace {

namespace T = tir;

/// A copy of a callee's statements with its buffers replaced and every loop,
/// let and block variable fresh (one PrimFunc may be called twice in a group).
class Inliner final : public T::StmtExprMutator {
 public:
  std::unordered_map<const T::BufferNode*, T::Buffer> buffers;
  std::set<std::string>* blockNames = nullptr;

  using T::StmtExprMutator::mutate;
  T::PrimExpr mutate(const T::PrimExpr& e) override {
    if (!e) return e;
    if (const auto* v = T::as<T::VarNode>(e)) {
      auto it = vars_.find(v);
      return it != vars_.end() ? it->second : e;
    }
    if (const auto* l = T::as<T::LoadNode>(e)) {
      std::vector<T::PrimExpr> idx = l->indices;
      for (T::PrimExpr& i : idx) i = mutate(i);
      return T::load(buffer(l->buffer), std::move(idx));
    }
    if (const auto* let = T::as<T::LetNode>(e)) {
      T::PrimExpr value = mutate(let->value);
      T::Var v = fresh(let->var);
      return T::let(v, std::move(value), mutate(let->body));
    }
    return mutateChildren(e);
  }

  T::Stmt mutate(const T::Stmt& s) override {
    if (!s) return s;
    switch (s->kind) {
      case T::StmtKind::Store: {
        const auto& st = static_cast<const T::StoreNode&>(*s);
        std::vector<T::PrimExpr> idx = st.indices;
        for (T::PrimExpr& i : idx) i = mutate(i);
        return T::store(buffer(st.buffer), std::move(idx), mutate(st.value));
      }
      case T::StmtKind::For: {
        const auto& f = static_cast<const T::ForNode&>(*s);
        T::Var v = fresh(f.var);
        return T::forLoop(v, mutate(f.min), mutate(f.extent), f.forKind, mutate(f.body));
      }
      case T::StmtKind::LetStmt: {
        const auto& l = static_cast<const T::LetStmtNode&>(*s);
        T::PrimExpr value = mutate(l.value);
        T::Var v = fresh(l.var);
        return T::letStmt(v, std::move(value), mutate(l.body));
      }
      case T::StmtKind::Allocate: {
        const auto& a = static_cast<const T::AllocateNode&>(*s);
        return T::allocate(buffer(a.buffer), mutate(a.body));
      }
      case T::StmtKind::Block: {
        const auto& b = static_cast<const T::BlockNode&>(*s);
        std::vector<T::BlockIterVar> ivs;
        for (const T::BlockIterVar& iv : b.iterVars) {
          T::PrimExpr binding = mutate(iv.binding);
          ivs.push_back({fresh(iv.var), mutate(iv.min), mutate(iv.extent), iv.iterKind, binding});
        }
        auto regions = [&](const std::vector<T::BufferRegion>& rs) {
          std::vector<T::BufferRegion> out;
          for (const T::BufferRegion& r : rs) {
            T::BufferRegion n{buffer(r.buffer), {}};
            for (const auto& [mn, ext] : r.ranges) n.ranges.emplace_back(mutate(mn), mutate(ext));
            out.push_back(std::move(n));
          }
          return out;
        };
        std::vector<T::Buffer> allocs;
        for (const T::Buffer& a : b.allocBuffers) allocs.push_back(buffer(a));
        return T::block(uniqueBlockName(b.name), std::move(ivs), mutate(b.predicate), regions(b.reads), regions(b.writes),
                        std::move(allocs), mutate(b.init), mutate(b.body), b.annotations);
      }
      default: return mutateChildren(s);
    }
  }

 private:
  T::Buffer buffer(const T::Buffer& b) {
    auto it = buffers.find(b.get());
    if (it != buffers.end()) return it->second;
    // A buffer of the callee's own (scratch): a copy, so two inlined calls do not share it.
    T::Buffer copy = T::makeBuffer(b->name, b->dtype, b->shape);
    buffers.emplace(b.get(), copy);
    return copy;
  }

  T::Var fresh(const T::Var& v) {
    T::Var n = T::makeVar(v->name, v->dtype);
    vars_[v.get()] = n;
    return n;
  }

  /// TVM's FuseTIR block names: a repeated name takes the next number
  /// (compute1 -> compute2) or a `_N` suffix.
  std::string uniqueBlockName(const std::string& name) {
    if (!blockNames->count(name)) {
      blockNames->insert(name);
      return name;
    }
    size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
    std::string base = digits < name.size() ? name.substr(0, digits) : name + "_";
    long n = digits < name.size() ? std::stol(name.substr(digits)) : 0;
    std::string out;
    do out = base + std::to_string(++n);
    while (blockNames->count(out));
    blockNames->insert(out);
    return out;
  }

  std::unordered_map<const T::VarNode*, T::Var> vars_;
};


/// Scratch buffers get names unique in the fused function.
std::string uniqueName(std::set<std::string>& used, const std::string& name) {
  std::string out = name;
  for (int k = 1; used.count(out); ++k) out = name + "_" + std::to_string(k);
  used.insert(out);
  return out;
}

/// The static tensor types of a call's result: one for a tensor, one per field
/// for a tuple of tensors; empty when any is not static.
std::vector<const TensorTypeNode*> outputTypes(const Type& t) {
  if (const TensorTypeNode* one = pass_util::staticTensorType(t)) return {one};
  std::vector<const TensorTypeNode*> out;
  if (const auto* tuple = as<TupleTypeNode>(t)) {
    for (const Type& f : tuple->fields) {
      const TensorTypeNode* ft = pass_util::staticTensorType(f);
      if (!ft) return {};
      out.push_back(ft);
    }
  }
  return out;
}

/// The fused PrimFunc of group `fn`, or null when the group is not in the
/// form FuseOps writes. `callees` receives the PrimFuncs it called; `inplace`
/// one entry per output of the group: the group parameter it is written into
/// in place (a call_tir_inplace made it that parameter; TVM's FuseTIR then
/// calls the fused PrimFunc with call_tir_inplace), or -1 for a fresh output.
/// `intermediates` the number of call results that stayed root-block allocations.
/// A binding's value is a call_tir (its outputs: fresh buffers, or for
/// call_tir_inplace the buffers of the arguments it names), a projection of an
/// earlier multi-output binding, or a tuple of earlier bindings.
PrimFunc fuseGroup(const IRModule& mod, const FunctionNode& fn, std::set<std::string>& callees, std::string& why,
                   std::vector<int64_t>& inplace, size_t& intermediates) {
  inplace.clear();
  intermediates = 0;
  // Fresh results of the group's calls; those not returned are its intermediates.
  std::vector<T::Buffer> freshResults;
  const auto* df = as<DataflowNode>(fn.body);
  if (!df || df->bindings.empty() || df->body != df->bindings.back().var) {
    why = "its body is not one dataflow block ending in its last binding";
    return nullptr;
  }
  // Each value's buffers, one per tensor it holds (TVM's expr2buffers).
  std::unordered_map<const ExprNode*, std::vector<T::Buffer>> bufferOf;
  std::vector<T::Param> params;
  std::set<std::string> names;
  for (const Var& p : fn.params) {
    const TensorTypeNode* t = pass_util::staticTensorType(p->annotation ? p->annotation : p->checkedType);
    if (!t) {
      why = "parameter " + p->name + " has no static tensor shape";
      return nullptr;
    }
    T::Buffer b = T::makeBuffer(uniqueName(names, p->name), t->dtype, t->shape);
    bufferOf[p.get()] = {b};
    params.push_back({T::makeVar(b->name, b->dtype), b});
  }
  const size_t inputs = params.size();
  std::vector<T::Buffer> scratch;
  std::vector<T::Stmt> stmts;
  std::set<std::string> blockNames;
  for (size_t k = 0; k < df->bindings.size(); ++k) {
    const Binding& b = df->bindings[k];
    const bool last = k + 1 == df->bindings.size();
    if (const auto* item = as<TupleGetItemNode>(b.value)) {
      auto it = bufferOf.find(item->tuple.get());
      if (it == bufferOf.end() || item->index < 0 || static_cast<size_t>(item->index) >= it->second.size()) {
        why = "binding " + b.var->name + ": a projection of something that is not an earlier binding's tuple";
        return nullptr;
      }
      bufferOf[b.var.get()] = {it->second[static_cast<size_t>(item->index)]};
      continue;
    }
    if (const auto* tuple = as<TupleNode>(b.value)) {
      std::vector<T::Buffer> all;
      for (const Expr& f : tuple->fields) {
        auto it = bufferOf.find(f.get());
        if (it == bufferOf.end()) {
          why = "binding " + b.var->name + ": a tuple of something that is not a parameter or an earlier binding";
          return nullptr;
        }
        all.insert(all.end(), it->second.begin(), it->second.end());
      }
      bufferOf[b.var.get()] = std::move(all);
      continue;
    }
    const auto* call = as<CallNode>(b.value);
    const OpDef* op = call ? call->op() : nullptr;
    if (!op || op->id != OpId::CallTir || call->args.size() != 2) {
      why = "binding " + b.var->name + " is not a call_tir";
      return nullptr;
    }
    const auto* g = as<GlobalVarNode>(call->args[0]);
    const auto* args = as<TupleNode>(call->args[1]);
    const PrimFuncNode* callee = g ? as<PrimFuncNode>(mod->lookup(g->name)) : nullptr;
    std::vector<const TensorTypeNode*> outs = outputTypes(b.var->checkedType ? b.var->checkedType : b.value->checkedType);
    // Output i is written into argument into[i] (call_tir_inplace), or into a fresh buffer (-1).
    std::vector<int64_t> into(outs.size(), -1);
    if (isInplaceCallTir(*call)) {
      into = inplaceIndices(*call);
      for (int64_t i : into)
        if (i < -1 || (args && i >= static_cast<int64_t>(args->fields.size())) || into.size() != outs.size()) {
          why = "binding " + b.var->name + ": its inplace_indices do not name one argument (or -1) per output";
          return nullptr;
        }
    }
    const size_t fresh = static_cast<size_t>(std::count(into.begin(), into.end(), -1));
    if (!callee || !args || outs.empty() || callee->params.size() != args->fields.size() + fresh) {
      why = "binding " + b.var->name + ": " +
            (!callee ? "its callee is not a PrimFunc of the module" : outs.empty() ? "its result has no static shape" : "its arguments do not match the PrimFunc's");
      return nullptr;
    }
    callees.insert(g->name);
    Inliner inliner;
    inliner.blockNames = &blockNames;
    for (size_t i = 0; i < args->fields.size(); ++i) {
      auto it = bufferOf.find(args->fields[i].get());
      if (it == bufferOf.end() || it->second.size() != 1 || !callee->params[i].buffer) {
        why = "binding " + b.var->name + ": argument " + std::to_string(i) + " is not a parameter or an earlier binding of the group";
        return nullptr;
      }
      inliner.buffers[callee->params[i].buffer.get()] = it->second[0];
    }
    // The callee's root block dissolves: its scratch joins the fused root's.
    T::Stmt body = callee->body;
    if (const auto* root = T::as<T::BlockNode>(body); root && root->iterVars.empty() && root->name == "root") {
      for (const T::Buffer& a : root->allocBuffers) {
        T::Buffer copy = T::makeBuffer(uniqueName(names, a->name), a->dtype, a->shape);
        inliner.buffers[a.get()] = copy;
        scratch.push_back(copy);
      }
      body = root->body;
    }
    std::vector<T::Buffer> results;
    size_t nextFresh = args->fields.size();
    for (size_t o = 0; o < outs.size(); ++o) {
      if (into[o] >= 0) {
        // Written in place: the result is the argument's buffer, no new one.
        results.push_back(inliner.buffers[callee->params[static_cast<size_t>(into[o])].buffer.get()]);
        continue;
      }
      const T::Buffer& calleeOut = callee->params[nextFresh++].buffer;
      if (!calleeOut) {
        why = g->name + " has no output buffer";
        return nullptr;
      }
      T::Buffer result = T::makeBuffer(uniqueName(names, calleeOut->name + (last ? "" : "_intermediate")), outs[o]->dtype, outs[o]->shape);
      inliner.buffers[calleeOut.get()] = result;
      scratch.push_back(result);
      freshResults.push_back(result);
      results.push_back(result);
    }
    bufferOf[b.var.get()] = std::move(results);
    T::Stmt inlined = inliner.mutate(body);
    if (const auto* s = T::as<T::SeqNode>(inlined)) stmts.insert(stmts.end(), s->stmts.begin(), s->stmts.end());
    else stmts.push_back(inlined);
  }
  // The group's outputs: a parameter written in place is named by its index; any
  // other buffer (fresh, or an intermediate written in place) becomes an output parameter.
  bool anyInplace = false;
  for (const T::Buffer& result : bufferOf.at(df->bindings.back().var.get())) {
    int64_t at = -1;
    for (size_t p = 0; p < params.size(); ++p)
      if (params[p].buffer == result) at = static_cast<int64_t>(p);
    if (at >= static_cast<int64_t>(inputs) || (at >= 0 && std::count(inplace.begin(), inplace.end(), at) > 0)) {
      why = "the group returns " + result->name + " twice; each output needs its own buffer";
      return nullptr;
    }
    if (at < 0) {
      std::erase(scratch, result);
      params.push_back({T::makeVar(result->name, result->dtype), result});
    }
    anyInplace = anyInplace || at >= 0;
    inplace.push_back(at);
  }
  if (!anyInplace) inplace.clear();
  for (const T::Buffer& r : freshResults) intermediates += std::count(scratch.begin(), scratch.end(), r) > 0 ? 1 : 0;
  T::Stmt body = stmts.size() == 1 ? stmts[0] : T::seq(std::move(stmts));
  body = T::block("root", {}, nullptr, {}, {}, std::move(scratch), nullptr, body);
  AttrDict attrs;
  attrs.set("tir.noalias", AttrValue::boolean(true));
  return makePrimFunc(std::move(params), body, std::move(attrs));
}

/// Calls of the fused groups become call_tir of their PrimFuncs
/// (call_tir_inplace for a group with an output written into a parameter).
class CallRewriter final : public ExprMutator {
 public:
  CallRewriter(const std::set<std::string>& fused, const std::map<std::string, std::vector<int64_t>>& inplace)
      : fused_(fused), inplace_(inplace) {}

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    const auto* call = as<CallNode>(rebuilt);
    const auto* g = call ? as<GlobalVarNode>(call->callee) : nullptr;
    if (!g || !fused_.count(g->name)) return rebuilt;
    std::vector<const TensorTypeNode*> outs = outputTypes(original->checkedType);
    if (outs.empty()) return rebuilt;
    AttrDict attrs;
    if (as<TensorTypeNode>(original->checkedType)) {
      attrs.set("out_shape", AttrValue::ints(outs[0]->shape));
      attrs.set("out_dtype", AttrValue::string(std::string(outs[0]->dtype.name())));
    } else {
      std::vector<AttrValue> shapes, dtypes;
      for (const TensorTypeNode* t : outs) {
        shapes.push_back(AttrValue::ints(t->shape));
        dtypes.push_back(AttrValue::string(std::string(t->dtype.name())));
      }
      attrs.set("out_shape", AttrValue::array(std::move(shapes)));
      attrs.set("out_dtype", AttrValue::array(std::move(dtypes)));
    }
    auto in = inplace_.find(g->name);
    if (in != inplace_.end() && !in->second.empty()) attrs.set(kInplaceIndicesAttr, AttrValue::ints(in->second));
    return makeOpCall(OpId::CallTir, {call->callee, makeTuple(call->args)}, attrs, call->span);
  }

 private:
  const std::set<std::string>& fused_;
  const std::map<std::string, std::vector<int64_t>>& inplace_;
};

/// What FuseTIR is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& fuseTirDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "FuseTIR";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Lowering};
    r.info.description =
        "Merges the PrimFuncs of every fused group (a Primitive function of call_tir bindings from FuseOps) into one "
        "PrimFunc of the group's name; intermediate results become root-block allocations. Callers call it through "
        "call_tir, or call_tir_inplace when an output of the group is written in place into one of its parameters (one index per "
        "output, -1 for a fresh one; a call_tir_inplace with several outputs, its projections and tuples fuse too).";
    r.info.guarantees =
        "No global Primitive function of call_tirs remains; each became a PrimFunc of the same name computing the same "
        "values; PrimFuncs only the groups called are removed.";
    r.create = [](const AttrDict&) { return createFuseTIRPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kFuseTirRegistrar(fuseTirDeclaration);

class FuseTIRPass final : public Pass {
 public:
  const PassInfo& info() const override { return fuseTirDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    const std::string& pass = info().name;
    IRModule typed = inferTypes(mod);
    std::map<std::string, PrimFunc> fusedFuncs;
    std::map<std::string, std::vector<int64_t>> inplace;
    std::set<std::string> callees;
    for (const auto& [name, fn] : typed->functions) {
      const auto* f = as<FunctionNode>(fn);
      if (!f || !f->attrs.getBool(fn_attr::kPrimitive) || f->attrs.contains(fn_attr::kCompiler)) continue;
      std::set<std::string> called;
      std::string why;
      std::vector<int64_t> into;
      size_t intermediates = 0;
      PrimFunc p = fuseGroup(typed, *f, called, why, into, intermediates);
      if (p) {
        fusedFuncs[name] = p;
        inplace[name] = into;
        callees.insert(called.begin(), called.end());
      }
      if (!ctx.remarksEnabled()) continue;
      Expr node = mod->lookup(name);
      if (!p) {
        ctx.remark(makeRemark(pass, RemarkRule::FuseTirNotMerged, name, {node}, name + " left as a Relax function: " + why));
        continue;
      }
      std::string list;
      size_t merged = 0;
      for (const Binding& b : as<DataflowNode>(f->body)->bindings) {
        const auto* c = as<CallNode>(b.value);
        if (!c) continue;  // a projection or a tuple of earlier results
        list += (list.empty() ? "" : ", ") + as<GlobalVarNode>(c->args[0])->name;
        ++merged;
      }
      // Results written in place into a parameter or returned need no allocation of their own.
      ctx.remark(makeRemark(pass, RemarkRule::FuseTirMerged, name, {node},
                            "merged " + std::to_string(merged) + " PrimFuncs (" + list + ") into " + name + "; " +
                                std::to_string(intermediates) + " intermediate result" + (intermediates == 1 ? "" : "s") +
                                " became root-block allocations"));
    }
    if (fusedFuncs.empty()) return mod;
    std::set<std::string> fusedNames;
    for (const auto& [name, p] : fusedFuncs) fusedNames.insert(name);
    IRModule out = typed;
    for (const auto& [name, fn] : typed->functions) {
      const auto* f = as<FunctionNode>(fn);
      if (!f || fusedNames.count(name)) continue;
      CallRewriter rewriter(fusedNames, inplace);
      Expr body = rewriter.mutate(f->body);
      if (body != f->body) out = withFunction(out, name, makeFunction(f->params, body, f->retType, f->attrs, f->span));
    }
    for (const auto& [name, p] : fusedFuncs) out = withFunction(out, name, p);
    // The callees nothing calls any more go, as TVM's FuseTIR removes them.
    std::set<std::string> referenced;
    for (const auto& [name, fn] : out->functions)
      if (as<FunctionNode>(fn))
        postOrderVisit(fn, [&](const Expr& e) {
          if (const auto* g = as<GlobalVarNode>(e)) referenced.insert(g->name);
        });
    for (const std::string& c : callees)
      if (!referenced.count(c) && !fusedNames.count(c)) out = withoutFunction(out, c);
    return inferTypes(out);
  }
};

}  // namespace

PassPtr createFuseTIRPass() { return std::make_shared<FuseTIRPass>(); }

}  // namespace passlab
