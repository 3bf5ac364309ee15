// The reducer (core/workbench/reduce.h): candidate rewrites, the ddmin driver
// and the scratch workbench that judges candidates.
#include "core/workbench/reduce.h"

#include <algorithm>
#include <chrono>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/text/printer.h"
#include "core/workbench/reproducer.h"

namespace passlab {
namespace {

// ---- Measuring ----------------------------------------------------------------

/// The order candidates must decrease in (lexicographically), so every
/// accepted candidate is strictly smaller and the reduction terminates.
struct Size {
  long ops = 0, functions = 0, attrs = 0, constElems = 0, paramElems = 0;
  bool operator<(const Size& o) const {
    return std::tie(ops, functions, attrs, constElems, paramElems) < std::tie(o.ops, o.functions, o.attrs, o.constElems, o.paramElems);
  }
};

long typeElems(const Type& t) {
  if (const auto* tt = as<TensorTypeNode>(t)) return tt->hasDynamicDim() ? 1 : std::max<long>(1, tt->numElements());
  if (const auto* tu = as<TupleTypeNode>(t)) {
    long n = 0;
    for (const Type& f : tu->fields) n += typeElems(f);
    return n;
  }
  return 1;
}

Size measure(const IRModule& mod) {
  Size s;
  s.functions = static_cast<long>(mod->functions.size());
  s.attrs = static_cast<long>(mod->attrs.size());
  for (const auto& [name, fn] : mod->functions) {
    s.attrs += static_cast<long>(functionAttrs(fn).size());
    const auto* f = as<FunctionNode>(fn);
    if (!f) continue;
    for (const Var& p : f->params) s.paramElems += typeElems(p->annotation);
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* c = as<CallNode>(e)) {
        if (c->op()) ++s.ops;
        s.attrs += static_cast<long>(c->attrs.size());
      } else if (const auto* k = as<ConstantNode>(e)) {
        s.constElems += k->data.numElements();
      }
    });
  }
  return s;
}

/// Names of global functions referenced anywhere (as callee or value).
std::set<std::string> referencedGlobals(const IRModule& mod) {
  std::set<std::string> out;
  for (const auto& [name, fn] : mod->functions)
    if (as<FunctionNode>(fn))
      postOrderVisit(fn, [&](const Expr& e) {
        if (const auto* g = as<GlobalVarNode>(e)) out.insert(g->name);
      });
  return out;
}

/// `mod` without the functions no root (the original's entry points) reaches
/// any more: once a rewrite drops the last call to a lifted function, the
/// function goes too, so cutting a call also cuts what it called.
IRModule collectGarbage(const IRModule& mod, const std::set<std::string>& roots) {
  std::set<std::string> reached;
  std::vector<std::string> work;
  for (const std::string& r : roots)
    if (mod->lookup(r) && reached.insert(r).second) work.push_back(r);
  while (!work.empty()) {
    Expr fn = mod->lookup(work.back());
    work.pop_back();
    if (!as<FunctionNode>(fn)) continue;
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* g = as<GlobalVarNode>(e))
        if (mod->lookup(g->name) && reached.insert(g->name).second) work.push_back(g->name);
    });
  }
  if (reached.size() == mod->functions.size()) return mod;
  std::map<std::string, Expr> kept;
  for (const auto& [name, fn] : mod->functions)
    if (reached.count(name)) kept.emplace(name, fn);
  return makeModule(std::move(kept), mod->attrs);
}

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

/// One thing a reduction may change. Which fields matter depends on the reduction.
struct Target {
  std::string function;         ///< global function ("" = the module)
  const ExprNode* node = nullptr;  ///< a call or constant of that function
  std::string key;              ///< attribute key
  int param = -1, dim = -1;     ///< shapes: parameter and dimension
};

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

/// A reduction: how to list its targets in a module and apply a chunk of them.
struct Reduction {
  std::string name;
  std::function<std::vector<Target>(const IRModule&)> targets;
  std::function<IRModule(const IRModule&, const std::vector<Target>&)> apply;
  /// Applies one target at a time and binary-searches for the first target (in
  /// list order) that keeps the predicate, instead of ddmin over chunks.
  bool search = false;
};

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

std::vector<Reduction> makeReductions() {
  std::vector<Reduction> r;
  r.push_back({"truncate",
               [](const IRModule& mod) {
                 // Calls of uncalled functions (their return type may change), in post-order.
                 std::vector<Target> out;
                 std::set<std::string> referenced = referencedGlobals(mod);
                 for (const auto& [name, fn] : mod->functions)
                   if (const auto* f = as<FunctionNode>(fn); f && !referenced.count(name))
                     for (const CallNode* c : topLevelCalls(*f))
                       if (c != f->body.get()) out.push_back(Target{name, c, "", -1, -1});
                 return out;
               },
               [](const IRModule& mod, const std::vector<Target>& chunk) {
                 // The function returns the call: everything after it goes.
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
               },
               true});
  r.push_back({"functions",
               [](const IRModule& mod) {
                 // Functions nothing calls: the others go with their last caller.
                 std::vector<Target> out;
                 std::set<std::string> referenced = referencedGlobals(mod);
                 for (const auto& [name, fn] : mod->functions)
                   if (!referenced.count(name)) out.push_back(Target{name, nullptr, "", -1, -1});
                 return out;
               },
               [](const IRModule& mod, const std::vector<Target>& chunk) {
                 IRModule out = mod;
                 for (const Target& t : chunk) out = withoutFunction(out, t.function);
                 return out;
               }});
  r.push_back({"inputs", [](const IRModule& mod) { return callTargets(mod, false); },
               [](const IRModule& mod, const std::vector<Target>& chunk) { return applyNodeEdit(mod, chunk, NodeChange::Param); }});
  r.push_back({"bypass", [](const IRModule& mod) { return callTargets(mod, false); },
               [](const IRModule& mod, const std::vector<Target>& chunk) { return applyNodeEdit(mod, chunk, NodeChange::Bypass); }});
  r.push_back({"inline",
               [](const IRModule& mod) {
                 // Globals called exactly once, directly, and never used as a value.
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
               },
               [](const IRModule& mod, const std::vector<Target>& chunk) {
                 std::set<std::string> inlined;
                 for (const Target& t : chunk) inlined.insert(t.function);
                 IRModule out = mod;
                 for (const auto& [name, fnExpr] : mod->functions) {
                   const auto* fn = as<FunctionNode>(fnExpr);
                   if (!fn || inlined.count(name)) continue;
                   class Inliner : public ExprMutator {
                    public:
                     Inliner(const IRModule& m, const std::set<std::string>& names) : mod_(m), names_(names) {}

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
                   Inliner inliner(mod, inlined);
                   Expr body = inliner.mutate(fn->body);
                   if (body != fn->body) out = withFunction(out, name, makeFunction(fn->params, body, fn->retType, fn->attrs, fn->span));
                 }
                 for (const std::string& name : inlined) out = withoutFunction(out, name);
                 return out;
               }});
  r.push_back({"attrs",
               [](const IRModule& mod) {
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
               },
               [](const IRModule& mod, const std::vector<Target>& chunk) {
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
               }});
  r.push_back({"constants",
               [](const IRModule& mod) {
                 std::vector<Target> out;
                 for (const auto& [name, fn] : mod->functions)
                   if (as<FunctionNode>(fn))
                     postOrderVisit(fn, [&](const Expr& e) {
                       if (const auto* k = as<ConstantNode>(e); k && k->data.numElements() > 1) out.push_back(Target{name, e.get(), "", -1, -1});
                     });
                 return out;
               },
               [](const IRModule& mod, const std::vector<Target>& chunk) { return applyNodeEdit(mod, chunk, NodeChange::Scalar); }});
  r.push_back({"shapes",
               [](const IRModule& mod) {
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
               },
               [](const IRModule& mod, const std::vector<Target>& chunk) {
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
               }});
  return r;
}

// ---- Judging ----------------------------------------------------------------------

/// A scratch workbench with the job's configuration that runs the pipeline on candidates.
class Runner {
 public:
  Runner(std::shared_ptr<const PassRegistry> registry, const ReduceJob& job) : wb_(std::move(registry)), numeric_(job.numeric) {
    wb_.setRunSettings(job.settings);
    wb_.setRemarks(false);  // no predicate reads remarks: candidates run without building them
    wb_.setPipeline(job.pipeline);
  }

  /// Runs the pipeline on a type-checked module and evaluates the predicate.
  BisectProbe judge(const IRModule& typed, const BisectPredicate& predicate) {
    wb_.loadModule(typed, "<candidate>", LoadOptions{false});
    try {
      wb_.run();
    } catch (const WorkbenchError&) {
      // Nothing ran (every pass refused or skipped): the predicate looks at #0.
    }
    std::optional<NumericReference> reference;
    if (predicate.kind == BisectPredicate::Kind::Numeric) {
      try {
        reference.emplace(typed, numeric_);
      } catch (const std::exception& e) {
        BisectProbe p;
        p.detail = std::string("cannot run the candidate: ") + e.what();
        return p;
      }
    }
    return evaluatePredicate(predicate, wb_.trace(), lastTopLevel(wb_.trace()), reference ? &*reference : nullptr);
  }

  const Workbench& workbench() const { return wb_; }

  static int lastTopLevel(const Trace& trace) {
    int last = 0;
    for (int id : trace.topLevel())
      if (!trace.event(id).codegen) last = id;
    return last;
  }

 private:
  Workbench wb_;
  NumericCheckOptions numeric_;
};

/// The rule of the innermost failed event's first error ("" when none).
std::string innermostFailureRule(const Trace& trace, const std::string& pass) {
  std::string rule;
  for (const TraceEvent& ev : trace.events()) {
    if (ev.status != EventStatus::Failed || (!pass.empty() && ev.pass != pass)) continue;
    for (const Diagnostic& d : ev.diagnostics)
      if (d.severity == Severity::Error && !d.rule.empty()) {
        rule = d.rule;  // later events are deeper or later: keep the last
        break;
      }
  }
  return rule;
}

using Clock = std::chrono::steady_clock;

}  // namespace

const std::vector<std::string>& reductionNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Reduction& r : makeReductions()) out.push_back(r.name);
    return out;
  }();
  return names;
}

int countModuleOps(const IRModule& mod) { return static_cast<int>(measure(mod).ops); }

ReduceJob reduceJobAt(const Workbench& wb) {
  if (!wb.loaded()) throw WorkbenchError("no module loaded");
  const Trace& trace = wb.trace();
  int id = wb.builtEvent(wb.cursor());
  int top = id;
  while (trace.event(top).parent != -1) top = trace.event(top).parent;
  ReduceJob job;
  size_t first = 0;
  if (top == 0) {
    job.module = trace.event(0).after;
  } else {
    size_t index = wb.pipelinePasses().size();
    for (size_t i = 0; i < wb.passesExecuted(); ++i)
      if (wb.eventOfPass(i) == top) index = i;
    if (index >= wb.pipelinePasses().size()) throw WorkbenchError("#" + std::to_string(top) + " is not a pass of the current pipeline");
    const TraceEvent& ev = trace.event(top);
    // A failure (or a pass the cursor is inside) is reduced with that pass rerun.
    const bool rerun = ev.status == EventStatus::Failed || id != top;
    job.module = rerun ? ev.before : ev.after;
    first = rerun ? index : index + 1;
  }
  for (size_t i = first; i < wb.pipelinePasses().size(); ++i)
    job.pipeline += (job.pipeline.empty() ? "" : ",") + pipelineText(*wb.pipelinePasses()[i]);
  if (job.pipeline.empty())
    throw WorkbenchError(wb.pipelinePasses().empty() ? "no pipeline is set: reduce runs the pipeline on every candidate"
                                                     : "no pipeline pass is left after #" + std::to_string(top) +
                                                           ": move the cursor back (`goto 0` reduces the loaded module)");
  job.settings = wb.runSettings();
  job.print = wb.fileOptions();
  if (wb.numericCheck()) job.numeric = *wb.numericCheck();
  job.source = wb.sourceName();
  return job;
}

ReduceResult reduceModule(std::shared_ptr<const PassRegistry> registry, const ReduceJob& job, BisectPredicate predicate,
                          const ReduceOptions& options, const std::function<void(const ReduceProgress&)>& progress,
                          const std::function<bool()>& cancelled) {
  if (!job.module) throw WorkbenchError("nothing to reduce: no module");
  if (!predicate.pass.empty() && !registry->find(predicate.pass)) throw WorkbenchError("unknown pass '" + predicate.pass + "' in the predicate");
  const auto start = Clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  Runner runner(registry, job);
  ReduceResult result;
  result.original = inferTypes(job.module);
  result.opsBefore = countModuleOps(result.original);
  result.functionsBefore = static_cast<int>(result.original->functions.size());

  BisectProbe first = runner.judge(result.original, predicate);
  result.runs = 1;
  if (!first.holds)
    throw WorkbenchError("the predicate (" + describeBisectPredicate(predicate) + ") does not hold for the module to reduce: " + first.detail);
  if (predicate.kind == BisectPredicate::Kind::Fails && predicate.rule.empty() && options.pinFailureRule)
    predicate.rule = innermostFailureRule(runner.workbench().trace(), predicate.pass);
  result.predicate = predicate;

  IRModule best = result.original;
  Size bestSize = measure(best);
  std::string detail = first.detail;
  ReduceProgress status;
  status.opsBefore = result.opsBefore;
  status.opsNow = result.opsBefore;
  status.runs = 1;

  auto stopNow = [&]() -> bool {
    if (!result.stopReason.empty()) return true;
    if (cancelled && cancelled()) result.stopReason = "interrupted";
    else if (options.maxRuns > 0 && result.runs >= options.maxRuns) result.stopReason = "run limit reached";
    else if (options.timeLimitSeconds > 0 && seconds() >= options.timeLimitSeconds) result.stopReason = "time limit reached";
    return !result.stopReason.empty();
  };
  auto report = [&] {
    status.runs = result.runs;
    status.illTyped = result.illTyped;
    status.accepted = result.accepted;
    status.seconds = seconds();
    if (progress) progress(status);
  };

  std::vector<Reduction> reductions = makeReductions();
  if (!options.reductions.empty()) {
    for (const std::string& name : options.reductions)
      if (std::none_of(reductions.begin(), reductions.end(), [&](const Reduction& r) { return r.name == name; }))
        throw WorkbenchError("unknown reduction '" + name + "'");
    std::erase_if(reductions, [&](const Reduction& r) {
      return std::find(options.reductions.begin(), options.reductions.end(), r.name) == options.reductions.end();
    });
  }
  for (const Reduction& r : reductions) result.reductions.push_back(ReductionStats{r.name, 0, 0});

  // One candidate: must be smaller, must type-check, then the pipeline judges it.
  std::set<std::string> roots;
  {
    std::set<std::string> referenced = referencedGlobals(result.original);
    for (const auto& [name, fn] : result.original->functions)
      if (!referenced.count(name)) roots.insert(name);
  }
  auto tryCandidate = [&](IRModule candidate, ReductionStats& stats) -> bool {
    if (candidate == best) return false;
    candidate = collectGarbage(candidate, roots);
    if (!(measure(candidate) < bestSize)) return false;
    IRModule typed;
    try {
      // Type inference trusts nodes that already carry a type, so a call to a
      // removed function would pass it: references are checked first.
      for (const std::string& name : referencedGlobals(candidate))
        if (!candidate->lookup(name)) throw WorkbenchError("@" + name + " is gone");
      typed = inferTypes(candidate);
    } catch (const std::exception&) {
      ++result.illTyped;
      return false;
    }
    ++stats.tried;
    ++result.runs;
    BisectProbe p = runner.judge(typed, predicate);
    // A Ctrl-C during the run stops its evaluations early: its verdict means nothing.
    if (cancelled && cancelled()) return false;
    if (p.holds) {
      best = typed;
      bestSize = measure(best);
      detail = p.detail;
      ++stats.accepted;
      ++result.accepted;
      status.opsNow = static_cast<int>(bestSize.ops);
    }
    report();
    return p.holds;
  };

  bool progressMade = true;
  while (progressMade && !stopNow()) {
    progressMade = false;
    ++result.rounds;
    status.round = result.rounds;
    for (size_t ri = 0; ri < reductions.size() && !stopNow(); ++ri) {
      const Reduction& reduction = reductions[ri];
      ReductionStats& stats = result.reductions[ri];
      status.reduction = reduction.name;
      std::vector<Target> targets = reduction.targets(best);
      if (reduction.search) {
        // The first target that keeps the predicate, by bisection (monotone on a
        // chain: cutting after the culprit keeps it, cutting before loses it).
        size_t lo = 0, hi = targets.size();
        while (lo < hi && !stopNow()) {
          size_t mid = lo + (hi - lo) / 2;
          status.chunk = 1;
          if (tryCandidate(reduction.apply(best, {targets[mid]}), stats)) {
            progressMade = true;
            targets = reduction.targets(best);
            hi = std::min(mid, targets.size());
            lo = std::min(lo, hi);
          } else {
            lo = mid + 1;
          }
        }
        continue;
      }
      size_t chunk = (targets.size() + 1) / 2;
      while (!targets.empty() && chunk >= 1 && !stopNow()) {
        status.chunk = static_cast<int>(chunk);
        report();
        for (size_t begin = 0; begin < targets.size() && !stopNow();) {
          std::vector<Target> part(targets.begin() + static_cast<long>(begin),
                                   targets.begin() + static_cast<long>(std::min(targets.size(), begin + chunk)));
          IRModule candidate;
          try {
            candidate = reduction.apply(best, part);
          } catch (const std::exception&) {
            candidate = best;  // a rewrite the IR refuses (e.g. an attribute schema) is no candidate
          }
          if (tryCandidate(candidate, stats)) {
            progressMade = true;
            // The targets changed; resume at the same place in the new list.
            targets = reduction.targets(best);
          } else {
            begin += chunk;
          }
        }
        if (chunk == 1) break;
        chunk = (chunk + 1) / 2;
        if (chunk > targets.size()) chunk = std::max<size_t>(1, (targets.size() + 1) / 2);
      }
    }
  }

  result.interrupted = !result.stopReason.empty();
  result.reduced = best;
  result.text = printModule(best, job.print);
  result.detail = detail;
  result.opsAfter = countModuleOps(best);
  result.functionsAfter = static_cast<int>(best->functions.size());
  result.seconds = seconds();

  Reproducer& r = result.reproducer;
  r.moduleText = result.text;
  r.syntax = job.print.syntax;
  r.pipeline = job.pipeline;
  r.settings = job.settings;
  r.typeCheck = true;
  r.source = job.source;
  r.predicate = bisectPredicateText(predicate);
  return result;
}

ReduceResult reduceAtCursor(Workbench& wb, const BisectPredicate& predicate, const ReduceOptions& options,
                            const std::function<void(const ReduceProgress&)>& progress) {
  ReduceJob job = reduceJobAt(wb);
  wb.clearCancel();
  ReduceResult result = reduceModule(wb.sharedRegistry(), job, predicate, options, progress, [&wb] { return wb.cancelRequested(); });
  wb.clearCancel();
  return result;
}

BisectProbe evaluatePredicateAtEnd(const Workbench& wb, const BisectPredicate& predicate) {
  const Trace& trace = wb.trace();
  std::optional<NumericReference> reference;
  if (predicate.kind == BisectPredicate::Kind::Numeric)
    reference.emplace(trace.event(0).after, wb.numericCheck() ? *wb.numericCheck() : NumericCheckOptions{});
  return evaluatePredicate(predicate, trace, Runner::lastTopLevel(trace), reference ? &*reference : nullptr);
}

}  // namespace passlab
