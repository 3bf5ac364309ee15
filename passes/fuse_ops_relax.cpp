// FuseOps in Relax form (see fuse_ops_relax.h).
#include "passes/fuse_ops_relax.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/remark_rules.h"
#include "passes/fuse_ops.h"
#include "passes/legalize_relax.h"

namespace passlab {

namespace {

constexpr int kElemWise = static_cast<int>(FusionPattern::ElemWise);
constexpr int kBroadcast = static_cast<int>(FusionPattern::Broadcast);
constexpr int kOpaque = static_cast<int>(FusionPattern::Opaque);

/// The PrimFunc a call_tir (or call_tir_inplace: TVM's FuseOps groups both
/// alike) calls, with its name; null when `e` is not one.
const PrimFuncNode* calledPrimFunc(const IRModule& mod, const Expr& e, std::string* name = nullptr) {
  const auto* call = as<CallNode>(e);
  const OpDef* op = call ? call->op() : nullptr;
  if (!op || op->id != OpId::CallTir || call->args.size() != 2 || !as<TupleNode>(call->args[1])) return nullptr;
  // A call with tir_vars stays unfused: TVM's FuseOps passes the values to the
  // fused function as an R.Shape parameter, which this pass does not build yet.
  if (call->attrs.find("tir_vars")) return nullptr;
  const auto* g = as<GlobalVarNode>(call->args[0]);
  if (!g) return nullptr;
  if (name) *name = g->name;
  return as<PrimFuncNode>(mod->lookup(g->name));
}

/// The call_tir's arguments (the tuple's fields).
const std::vector<Expr>& callTirArgs(const Expr& e) { return as<TupleNode>(as<CallNode>(e)->args[1])->fields; }

class BlockFuser final : public ExprMutator {
 public:
  BlockFuser(const IRModule& mod, int maxDepth, std::map<std::string, Expr>& newFuncs, PassContext* remarks, const std::string& pass)
      : mod_(mod), maxDepth_(maxDepth), newFuncs_(newFuncs), remarks_(remarks), pass_(pass) {}

  /// The global function being fused (remarks name it).
  std::string function;
  /// Groups made and call_tir bindings seen in it (the summary remark).
  size_t groupsMade = 0, callsSeen = 0;

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (e->kind == ExprKind::Function) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr&, const Expr& rebuilt) override {
    const auto* df = as<DataflowNode>(rebuilt);
    return df ? fuseBlock(*df, rebuilt) : rebuilt;
  }

 private:
  Expr fuseBlock(const DataflowNode& df, const Expr& self) {
    const size_t n = df.bindings.size();
    std::unordered_map<const ExprNode*, int> bindingOf;
    for (size_t i = 0; i < n; ++i) bindingOf[df.bindings[i].var.get()] = static_cast<int>(i);
    std::vector<FusionGraphNode> nodes(n);
    std::vector<std::string> primNames(n);
    for (size_t i = 0; i < n; ++i) {
      const Binding& b = df.bindings[i];
      FusionGraphNode& node = nodes[i];
      node.externRef = !b.var->isDataflow;
      const PrimFuncNode* prim = calledPrimFunc(mod_, b.value, &primNames[i]);
      if (!prim) {
        // Anything else is opaque, and what it uses is used from outside the graph.
        postOrderVisit(b.value, [&](const Expr& e) {
          if (auto it = bindingOf.find(e.get()); it != bindingOf.end()) nodes[static_cast<size_t>(it->second)].externRef = true;
        }, [](const Expr& e) { return e->kind != ExprKind::Function; });
        continue;
      }
      node.pattern = static_cast<int>(prim->attrs.getInt("op_pattern", kOpaque));
      const TensorTypeNode* result = as<TensorTypeNode>(b.var->checkedType ? b.var->checkedType : b.value->checkedType);
      for (const Expr& a : callTirArgs(b.value)) {
        auto it = bindingOf.find(a.get());
        if (it == bindingOf.end()) continue;
        int pattern = node.pattern;
        // A broadcast whose argument already has the result's shape is elementwise for that argument.
        const TensorTypeNode* argType = as<TensorTypeNode>(a->checkedType);
        if (pattern == kBroadcast && argType && result && argType->shape == result->shape) pattern = kElemWise;
        nodes[static_cast<size_t>(it->second)].outputs.push_back({static_cast<int>(i), pattern});
      }
    }
    std::vector<FusionMiss> misses;
    std::vector<int> groupPatterns;
    std::vector<int> roots = partitionFusionGraph(nodes, maxDepth_, remarks_ ? &misses : nullptr, remarks_ ? &groupPatterns : nullptr);
    if (remarks_) explainBoundaries(df, nodes, primNames, roots, misses, groupPatterns);
    std::map<int, std::vector<int>> groups;
    for (size_t i = 0; i < n; ++i)
      if (!primNames[i].empty()) groups[roots[i]].push_back(static_cast<int>(i));
    std::vector<Binding> out;
    std::set<int> dropped;
    std::unordered_map<int, Expr> replaced;
    for (auto& [root, members] : groups) {
      if (members.size() < 2 || !singleOutput(df, members, bindingOf)) continue;
      replaced[members.back()] = buildGroup(df, members, primNames, remarks_ ? groupPatterns[static_cast<size_t>(members.back())] : 0);
      for (size_t k = 0; k + 1 < members.size(); ++k) dropped.insert(members[k]);
    }
    if (replaced.empty()) return self;
    for (size_t i = 0; i < n; ++i) {
      if (dropped.count(static_cast<int>(i))) continue;
      auto it = replaced.find(static_cast<int>(i));
      out.push_back({df.bindings[i].var, it != replaced.end() ? it->second : df.bindings[i].value});
    }
    return makeDataflow(std::move(out), df.body, df.span);
  }

  /// Every member but the last is used only by members (and not outside the block).
  bool singleOutput(const DataflowNode& df, const std::vector<int>& members,
                    const std::unordered_map<const ExprNode*, int>& bindingOf) const {
    std::set<int> in(members.begin(), members.end());
    for (size_t k = 0; k + 1 < members.size(); ++k)
      if (!df.bindings[static_cast<size_t>(members[k])].var->isDataflow) return false;
    for (size_t i = 0; i < df.bindings.size(); ++i) {
      if (in.count(static_cast<int>(i))) continue;
      bool usesInner = false;
      postOrderVisit(df.bindings[i].value, [&](const Expr& e) {
        auto it = bindingOf.find(e.get());
        usesInner = usesInner || (it != bindingOf.end() && in.count(it->second) && it->second != members.back());
      });
      if (usesInner) return false;
    }
    return true;
  }

  /// A remark per producer whose consumers are in another group, with the
  /// partitioner's reason under the Relay form's rule ids.
  void explainBoundaries(const DataflowNode& df, const std::vector<FusionGraphNode>& nodes, const std::vector<std::string>& primNames,
                         const std::vector<int>& roots, const std::vector<FusionMiss>& misses, const std::vector<int>& groupPatterns) {
    auto text = [&](int k) {
      const std::string& prim = primNames[static_cast<size_t>(k)];
      return (prim.empty() ? df.bindings[static_cast<size_t>(k)].var->name : prim) + " (" +
             fusionPatternName(nodes[static_cast<size_t>(k)].pattern) + ")";
    };
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (primNames[i].empty()) continue;
      ++callsSeen;
      std::vector<int> consumers;
      for (const auto& [to, pattern] : nodes[i].outputs)
        if (roots[static_cast<size_t>(to)] != roots[i] && std::find(consumers.begin(), consumers.end(), to) == consumers.end())
          consumers.push_back(to);
      if (consumers.empty()) continue;
      const FusionGraphNode& node = nodes[i];
      const FusionMiss& miss = misses[i];
      std::vector<Expr> refs{df.bindings[i].value};
      std::string edge = text(static_cast<int>(i)) + " → ";
      for (size_t c = 0; c < consumers.size(); ++c) {
        refs.push_back(df.bindings[static_cast<size_t>(consumers[c])].value);
        edge += (c ? ", " : "") + text(consumers[c]);
      }
      const bool fanOut = node.outputs.size() > 1;
      const int consumerPattern = nodes[static_cast<size_t>(consumers.front())].pattern;
      const std::string sink = miss.sink >= 0 ? text(miss.sink) : "";
      RemarkRule rule = RemarkRule::FusePatternBoundary;
      std::string why;
      if (node.pattern == kOpaque || (!fanOut && consumerPattern == kOpaque && miss.why != FusionMiss::Why::NoSink)) {
        rule = RemarkRule::FuseOpaque;
        why = node.pattern == kOpaque ? primNames[i] + " is Opaque (no op_pattern, or an opaque body): it is never fused"
                                      : "the consumer is Opaque: it is never fused with anything";
      } else {
        switch (miss.why) {
          case FusionMiss::Why::NoSink:
            if (node.externRef) {
              rule = RemarkRule::FuseOutput;
              why = "the value is an output of the dataflow block (a non-dataflow variable), so no group continues past it";
            } else {
              rule = RemarkRule::FuseFanOut;
              why = std::to_string(node.outputs.size()) + " uses with no common post-dominator to fuse into";
            }
            break;
          case FusionMiss::Why::MaxDepth:
            rule = RemarkRule::FuseMaxDepth;
            why = "joining " + sink + "'s group would make " + std::to_string(miss.size) + " nodes, more than relay.FuseOps.max_depth = " +
                  std::to_string(maxDepth_);
            break;
          case FusionMiss::Why::Tuple:
            rule = RemarkRule::FuseTuple;
            why = "its post-dominator is a tuple, and nothing but an injective op fuses into a tuple";
            break;
          case FusionMiss::Why::Reduce:
            rule = RemarkRule::FuseReduction;
            why = "a CommReduce op never fuses into its consumer (its inputs fuse into it)";
            break;
          case FusionMiss::Why::Pattern:
            rule = fanOut ? RemarkRule::FuseFanOut : RemarkRule::FusePatternBoundary;
            if (node.pattern == static_cast<int>(FusionPattern::OutEWiseFusable) &&
                consumerPattern == static_cast<int>(FusionPattern::OutEWiseFusable) && !fanOut)
              why = "two OutEWiseFusable ops never share a group";
            else
              why = fusionPatternRule(node.pattern) + "; the path to " + sink + " is " + fusionPatternName(miss.domPattern);
            break;
          case FusionMiss::Why::Path:
            rule = fanOut ? RemarkRule::FuseFanOut : RemarkRule::FusePatternBoundary;
            why = fusionPatternRule(node.pattern) + "; " +
                  (miss.blocker == miss.sink ? "its post-dominator "
                                             : std::string(fanOut ? "a diamond: " : "") + "the path to " + sink + " passes ") +
                  text(miss.blocker) + " in a " + fusionPatternName(groupPatterns[static_cast<size_t>(miss.blocker)]) + " group";
            break;
          case FusionMiss::Why::None: why = "the consumers joined another group first"; break;
        }
      }
      remarks_->remark(makeRemark(pass_, rule, function, std::move(refs), edge + ": " + why));
    }
  }

  Expr buildGroup(const DataflowNode& df, const std::vector<int>& members, const std::vector<std::string>& primNames, int groupPattern) {
    std::unordered_map<const ExprNode*, Expr> inner;  // outer binding var -> inner var
    std::unordered_map<const ExprNode*, Var> paramOf;
    std::vector<Var> params;
    std::vector<Expr> args;
    std::vector<Binding> bindings;
    std::string name = "fused";
    for (size_t k = 0; k < members.size(); ++k) {
      const Binding& b = df.bindings[static_cast<size_t>(members[k])];
      name += "_" + primNames[static_cast<size_t>(members[k])];
      std::vector<Expr> callArgs;
      for (const Expr& a : callTirArgs(b.value)) {
        if (auto it = inner.find(a.get()); it != inner.end()) {
          callArgs.push_back(it->second);
          continue;
        }
        auto p = paramOf.find(a.get());
        if (p == paramOf.end()) {
          const auto* v = as<VarNode>(a);
          Var param = makeVar(v ? v->name : "param_" + std::to_string(params.size()), a->checkedType);
          p = paramOf.emplace(a.get(), param).first;
          params.push_back(param);
          args.push_back(a);
        }
        callArgs.push_back(p->second);
      }
      const auto* call = as<CallNode>(b.value);
      Expr value = makeOpCall(call->op()->id, {call->args[0], makeTuple(callArgs)}, call->attrs, call->span);
      bool last = k + 1 == members.size();
      Var v = makeVar(last ? "gv" : b.var->name, b.var->annotation, !last);
      inner[b.var.get()] = v;
      bindings.push_back({v, value});
    }
    Var result = bindings.back().var;
    const Binding& out = df.bindings[static_cast<size_t>(members.back())];
    Type retType = out.var->checkedType ? out.var->checkedType : out.value->checkedType;
    AttrDict attrs;
    attrs.set(fn_attr::kPrimitive, AttrValue::boolean(true));
    Function fn = makeFunction(params, makeDataflow(std::move(bindings), result), retType, std::move(attrs));
    std::string unique = name;
    for (int k = 1; mod_->lookup(unique) || newFuncs_.count(unique); ++k) unique = name + std::to_string(k);
    newFuncs_[unique] = fn;
    ++groupsMade;
    if (remarks_) {
      std::vector<Expr> refs;
      std::string list;
      for (int m : members) {
        refs.push_back(df.bindings[static_cast<size_t>(m)].value);
        list += (list.empty() ? "" : " → ") + primNames[static_cast<size_t>(m)];
      }
      remarks_->remark(makeRemark(pass_, RemarkRule::FuseGroup, function, std::move(refs),
                                  "fused " + std::to_string(members.size()) + " call_tirs into " + unique + ": " + list +
                                      " (group pattern " + fusionPatternName(groupPattern) + ")"));
    }
    return makeCall(makeGlobalVar(unique), std::move(args), {}, out.value->span);
  }

  IRModule mod_;
  int maxDepth_;
  std::map<std::string, Expr>& newFuncs_;
  PassContext* remarks_;
  const std::string& pass_;
};

}  // namespace

bool fuseInRelaxForm(const IRModule& mod) {
  if (!isRelaxModule(mod)) return false;
  for (const auto& [name, fn] : mod->functions) {
    if (!as<FunctionNode>(fn)) continue;
    bool any = false;
    postOrderVisit(fn, [&](const Expr& e) { any = any || calledPrimFunc(mod, e); });
    if (any) return true;
  }
  return false;
}

IRModule fuseOpsRelax(const IRModule& mod, int optLevel, int maxDepth, PassContext* remarks, const std::string& pass) {
  if (optLevel <= 0) {
    if (remarks)
      remarks->remark(makeRemark(pass, RemarkRule::FuseOptLevel, "", {}, "fusion opt level 0: every call_tir stays a call of its own"));
    return mod;
  }
  std::map<std::string, Expr> newFuncs;
  BlockFuser fuser(mod, maxDepth, newFuncs, remarks, pass);
  IRModule out = mod;
  for (const auto& [name, fn] : mod->functions) {
    const auto* f = as<FunctionNode>(fn);
    if (!f || f->attrs.getBool(fn_attr::kPrimitive) || f->attrs.contains(fn_attr::kCompiler)) continue;
    fuser.function = name;
    fuser.groupsMade = fuser.callsSeen = 0;
    Expr body = fuser.mutate(f->body);
    if (body != f->body) out = withFunction(out, name, makeFunction(f->params, body, f->retType, f->attrs, f->span));
    if (remarks && fuser.callsSeen)
      remarks->remark(makeRemark(pass, RemarkRule::FuseSummary, name, {},
                                 std::to_string(fuser.groupsMade) + (fuser.groupsMade == 1 ? " group from " : " groups from ") +
                                     std::to_string(fuser.callsSeen) + " call_tir bindings at fusion opt level " +
                                     std::to_string(optLevel) + " (relay.FuseOps.max_depth = " + std::to_string(maxDepth) + ")"));
  }
  if (newFuncs.empty()) return mod;
  for (auto& [name, fn] : newFuncs) out = withFunction(out, name, fn);
  return inferTypes(out);
}

}  // namespace passlab
