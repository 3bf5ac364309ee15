// FuseOps, written from the behaviour of TVM's FuseOps (GraphPartitioner over
// an indexed forward graph and its post-dominator tree). Every walk over paths
// is iterative: a post-dominator can be far from a node in a long model.
#include "passes/fuse_ops.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/lowering_ops.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/fuse_ops_relax.h"
#include "core/trace/remark_nodes.h"
#include "core/pass/remark_rules.h"
#include "passes/opt_util.h"

namespace passlab {

bool resolveLinkParams(const IRModule& mod, PassContext& ctx, const std::string& pass) {
  if (std::optional<AttrValue> v = ctx.configIfSet(kFuseOpsLinkParamsKey, pass)) return v->asBool();
  if (std::optional<AttrValue> v = ctx.moduleAttr(mod, module_attr::kExecutor, "link-params", pass)) return v->asBool();
  if (std::optional<AttrValue> v = ctx.targetAttr("link-params", pass)) return v->asBool();
  return false;
}

namespace {

// Fusion patterns as TVM numbers them; kTuple sits between injective and opaque.
constexpr int kElemWise = static_cast<int>(FusionPattern::ElemWise);
constexpr int kBroadcast = static_cast<int>(FusionPattern::Broadcast);
constexpr int kInjective = static_cast<int>(FusionPattern::Injective);
constexpr int kCommReduce = static_cast<int>(FusionPattern::CommReduce);
constexpr int kOutEWiseFusable = static_cast<int>(FusionPattern::OutEWiseFusable);
constexpr int kTuple = 7;
constexpr int kOpaque = static_cast<int>(FusionPattern::Opaque);

/// Ops that only make sense outside a fused kernel (calls into other functions,
/// runtime builtins): never wrapped, never fused.
bool neverFused(const OpDef& op) { return isLoweringBuiltin(op.id) || op.stateful; }

/// A scalar constant the code generators embed as an immediate: fused like an
/// elementwise op. float16 is not among them, as in TVM.
bool isSimpleScalarConstant(const ConstantNode& c) {
  if (c.data.ndim() != 0) return false;
  switch (c.data.dtype().code) {
    case DTypeCode::Int32:
    case DTypeCode::Int64:
    case DTypeCode::Float32:
    case DTypeCode::Float64:
    case DTypeCode::Bool: return true;
    default: return false;
  }
}

struct Edge {
  int node;
  int pattern;
};

struct GraphNode {
  Expr ref;
  int pattern = kOpaque;
  /// Used by something outside the dataflow graph (function result, let, if, ...).
  bool externRef = false;
  /// A call to a fusible op: the only nodes that make a group worth wrapping.
  bool fusibleCall = false;
  std::vector<Edge> outputs;
};

/// TVM's IndexedForwardGraph: the nodes of one function body in post-DFS order
/// (producers before consumers), without entering nested functions.
struct ForwardGraph {
  std::vector<GraphNode> nodes;
  std::unordered_map<const ExprNode*, int> index;

  ForwardGraph() = default;
  explicit ForwardGraph(const Expr& body) {
    postOrderVisit(
        body,
        [&](const Expr& e) {
          if (e->kind == ExprKind::Op) return;
          index.emplace(e.get(), static_cast<int>(nodes.size()));
          GraphNode node;
          node.ref = e;
          nodes.push_back(std::move(node));
        },
        [](const Expr& e) { return e->kind != ExprKind::Function; });
    for (size_t i = 0; i < nodes.size(); ++i) connect(static_cast<int>(i));
    markExtern(body);
  }

 private:
  void markExtern(const Expr& e) {
    if (auto it = index.find(e.get()); it != index.end()) nodes[static_cast<size_t>(it->second)].externRef = true;
  }
  void edge(const Expr& from, int to, int pattern) {
    if (auto it = index.find(from.get()); it != index.end()) nodes[static_cast<size_t>(it->second)].outputs.push_back({to, pattern});
  }

  void connect(int id) {
    GraphNode& node = nodes[static_cast<size_t>(id)];
    const Expr e = node.ref;
    switch (e->kind) {
      case ExprKind::Call: {
        const CallNode* call = as<CallNode>(e);
        const OpDef* op = call->op();
        if (!op) {
          node.pattern = kOpaque;
          edge(call->callee, id, kOpaque);
          for (const Expr& a : call->args) edge(a, id, kOpaque);
          return;
        }
        node.fusibleCall = !neverFused(*op);
        node.pattern = node.fusibleCall ? static_cast<int>(op->pattern) : kOpaque;
        const TensorTypeNode* result = opt_util::tensorTypeOf(e);
        for (const Expr& a : call->args) {
          int pattern = node.pattern;
          // A broadcast whose argument already has the result's shape is elementwise for that argument.
          const TensorTypeNode* argType = opt_util::tensorTypeOf(a);
          if (pattern == kBroadcast && argType && result && argType->shape == result->shape) pattern = kElemWise;
          edge(a, id, pattern);
        }
        return;
      }
      case ExprKind::Tuple: {
        node.pattern = kTuple;
        for (const Expr& f : as<TupleNode>(e)->fields) {
          if (opt_util::tensorTypeOf(f))
            edge(f, id, kInjective);
          else
            markExtern(f);
        }
        return;
      }
      case ExprKind::TupleGetItem: {
        const TupleGetItemNode* item = as<TupleGetItemNode>(e);
        const TupleTypeNode* tupleType = as<TupleTypeNode>(item->tuple->checkedType);
        bool allTensors = tupleType != nullptr;
        if (tupleType)
          for (const Type& f : tupleType->fields) allTensors = allTensors && as<TensorTypeNode>(f);
        if (allTensors) {
          node.pattern = kInjective;
          edge(item->tuple, id, kInjective);
        } else {
          node.pattern = kOpaque;
          markExtern(item->tuple);
        }
        return;
      }
      case ExprKind::Constant:
        node.pattern = isSimpleScalarConstant(*as<ConstantNode>(e)) ? kElemWise : kOpaque;
        return;
      case ExprKind::Let:
      case ExprKind::If:
      case ExprKind::Dataflow: {
        // Scopes are fusion boundaries: everything they hold is used from outside the graph.
        node.pattern = kOpaque;
        std::vector<Expr> children;
        appendChildren(e, children);
        for (const Expr& c : children) markExtern(c);
        return;
      }
      default: node.pattern = kOpaque; return;
    }
  }
};

/// The post-dominator tree of a ForwardGraph (TVM's DominatorTree::PostDom).
struct PostDominatorTree {
  std::vector<int> parent, depth, pattern;

  explicit PostDominatorTree(const ForwardGraph& g) {
    const size_t n = g.nodes.size();
    parent.assign(n, -1);
    depth.assign(n, 1);
    pattern.assign(n, kOpaque);
    for (size_t k = n; k-- > 0;) {
      const GraphNode& node = g.nodes[k];
      if (node.externRef || node.outputs.empty()) continue;
      int p = kElemWise;
      int lca = node.outputs.front().node;
      p = std::max(p, node.outputs.front().pattern);
      for (size_t i = 1; i < node.outputs.size(); ++i) {
        lca = leastCommonAncestor(lca, node.outputs[i].node, p);
        p = std::max(p, node.outputs[i].pattern);
      }
      parent[k] = lca;
      depth[k] = lca >= 0 ? depth[static_cast<size_t>(lca)] + 1 : 1;
      pattern[k] = p;
    }
  }

 private:
  int leastCommonAncestor(int a, int b, int& p) const {
    while (a != b) {
      if (a < 0 || b < 0) return -1;
      const size_t ua = static_cast<size_t>(a), ub = static_cast<size_t>(b);
      if (depth[ua] < depth[ub]) {
        p = std::max(p, pattern[ub]);
        b = parent[ub];
      } else if (depth[ub] < depth[ua]) {
        p = std::max(p, pattern[ua]);
        a = parent[ua];
      } else {
        p = std::max({p, pattern[ua], pattern[ub]});
        a = parent[ua];
        b = parent[ub];
      }
    }
    return a;
  }
};

/// TVM's GraphPartitioner: union-find groups over the graph nodes.
class Partitioner {
 public:
  Partitioner(const ForwardGraph& g, int maxDepth) : g_(g), maxDepth_(maxDepth), stamp_(g.nodes.size(), 0) {
    groups_.resize(g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      groups_[i].pattern = g.nodes[i].pattern;
      groups_[i].anchor = g.nodes[i].pattern == kOutEWiseFusable;
    }
  }

  void run(const PostDominatorTree& dom) {
    for (int phase = 0; phase < 3; ++phase) runPhase(dom, phase);
  }

  /// Why a node did not join its post-dominator's group (remarks only).
  enum class Miss : uint8_t { None, NoSink, MaxDepth, Tuple, Pattern, Path, Reduce };
  struct MissInfo {
    Miss why = Miss::None;
    int sink = -1;
    /// Path: the node on the way whose group pattern broke the rule.
    int blocker = -1;
    int domPattern = kOpaque;
    int64_t size = 0;
  };
  /// Records why each node stays out of its post-dominator's group.
  void explain() { misses_.assign(g_.nodes.size(), {}); }
  const MissInfo& miss(int k) const { return misses_[static_cast<size_t>(k)]; }
  int groupPattern(int k) { return groups_[static_cast<size_t>(root(k))].pattern; }

  /// The representative of node `i`'s group.
  int root(int i) {
    int r = i;
    while (groups_[static_cast<size_t>(r)].parent >= 0) r = groups_[static_cast<size_t>(r)].parent;
    while (groups_[static_cast<size_t>(i)].parent >= 0) {
      int next = groups_[static_cast<size_t>(i)].parent;
      groups_[static_cast<size_t>(i)].parent = r;
      i = next;
    }
    return r;
  }

 private:
  struct Group {
    int parent = -1;
    int pattern = kOpaque;
    bool anchor = false;
    int64_t numNodes = 1;
  };

  void runPhase(const PostDominatorTree& dom, int phase) {
    for (size_t k = 0; k < g_.nodes.size(); ++k) {
      const int nid = static_cast<int>(k);
      const Group& own = groups_[k];
      if (own.pattern == kOpaque) continue;
      const int sink = dom.parent[k];
      // Phase 2 only adds injective ops to tuples; the reasons of phases 0 and 1 stand.
      auto missed = [&](Miss why, int blocker = -1, int64_t size = 0) {
        if (!misses_.empty() && phase < 2) misses_[k] = {why, sink, blocker, dom.pattern[k], size};
      };
      if (sink < 0) {
        missed(Miss::NoSink);
        continue;
      }
      if (int64_t size = countFusedNodesWithNewChild(nid, sink); size > maxDepth_) {
        missed(Miss::MaxDepth, -1, size);
        continue;
      }
      const int domPattern = dom.pattern[k];
      const int sinkGroupPattern = groups_[static_cast<size_t>(sink)].pattern;
      if (phase == 2) {
        // Injective ops into tuples that were themselves fused into an injective consumer.
        if (own.pattern > kInjective) continue;
        const Group& sinkRoot = groups_[static_cast<size_t>(root(sink))];
        if (sinkRoot.pattern == kTuple) continue;
        if (sinkGroupPattern == kTuple && sinkRoot.pattern <= kInjective &&
            checkPath(nid, sink, [](int kind, bool) { return kind <= kInjective; }))
          commitFuse(nid, sink);
        continue;
      }
      if (root(nid) == root(sink)) continue;
      if (sinkGroupPattern == kTuple) {  // nothing fuses into a tuple in phases 0 and 1
        missed(Miss::Tuple);
        continue;
      }
      if (own.pattern == kOutEWiseFusable) {
        if (phase != 0) continue;
        // conv2d-like anchors take the elementwise tail when every op on the way is at most broadcast.
        if (domPattern != kElemWise)
          missed(Miss::Pattern);
        else if (checkPath(nid, sink, [](int kind, bool) { return kind <= kBroadcast; }))
          commitFuse(nid, sink);
        else
          missed(Miss::Path, blocked_);
      } else if (own.pattern <= kBroadcast) {
        if (domPattern <= kInjective || domPattern == kCommReduce) {
          auto cond = [](int kind, bool isSink) {
            if (!isSink) return kind <= kInjective;
            return kind <= kBroadcast || kind == kCommReduce || kind == kInjective || kind == kOutEWiseFusable;
          };
          if (checkPath(nid, sink, cond))
            commitFuse(nid, sink);
          else
            missed(Miss::Path, blocked_);
        } else {
          missed(Miss::Pattern);
        }
      } else if (own.pattern == kInjective || own.pattern == kTuple) {
        // Deferred to phase 1 so that anchors settle their groups first.
        if (phase != 1) continue;
        if (checkPath(nid, sink, [](int kind, bool) { return kind <= kInjective; }))
          commitFuse(nid, sink);
        else
          missed(Miss::Path, blocked_);
      } else if (own.pattern == kCommReduce) {
        // A reduction does not fuse into its consumer; its inputs fuse into it.
        missed(Miss::Reduce);
      }
    }
  }

  /// Calls `visit(node)` on every node reachable from `src`'s outputs up to and
  /// including `sink`, each once; stops (returning false) when `visit` does.
  template <class Visit>
  bool forEachOnPaths(int src, int sink, Visit visit) {
    ++currentStamp_;
    std::vector<int> stack;
    for (const Edge& e : g_.nodes[static_cast<size_t>(src)].outputs) stack.push_back(e.node);
    while (!stack.empty()) {
      int n = stack.back();
      stack.pop_back();
      if (stamp_[static_cast<size_t>(n)] == currentStamp_) continue;
      stamp_[static_cast<size_t>(n)] = currentStamp_;
      if (!visit(n)) return false;
      if (n == sink) continue;
      for (const Edge& e : g_.nodes[static_cast<size_t>(n)].outputs) stack.push_back(e.node);
    }
    return true;
  }

  template <class Cond>
  bool checkPath(int src, int sink, Cond cond) {
    return forEachOnPaths(src, sink, [&](int n) {
      if (cond(groups_[static_cast<size_t>(root(n))].pattern, n == sink)) return true;
      blocked_ = n;
      return false;
    });
  }

  void mergeInto(int child, int target) {
    int c = root(child), t = root(target);
    if (c == t) return;
    Group& from = groups_[static_cast<size_t>(c)];
    Group& to = groups_[static_cast<size_t>(t)];
    to.numNodes += from.numNodes;
    from.parent = t;
    if (from.anchor) {
      to.anchor = true;
      to.pattern = std::max(from.pattern, to.pattern);
    }
  }

  void commitFuse(int src, int sink) {
    const int target = root(sink);
    mergeInto(src, target);
    forEachOnPaths(src, sink, [&](int n) {
      if (n != sink) mergeInto(n, target);
      return true;
    });
  }

  int64_t countFusedNodesWithNewChild(int child, int sink) {
    int64_t count = groups_[static_cast<size_t>(root(sink))].numNodes + groups_[static_cast<size_t>(child)].numNodes;
    forEachOnPaths(child, sink, [&](int n) {
      if (n != sink) count += groups_[static_cast<size_t>(n)].numNodes;
      return count <= maxDepth_;  // no need to look further once over the limit
    });
    return count;
  }

  const ForwardGraph& g_;
  int64_t maxDepth_;
  std::vector<Group> groups_;
  std::vector<uint32_t> stamp_;
  uint32_t currentStamp_ = 0;
  std::vector<MissInfo> misses_;  // empty unless explain()
  int blocked_ = -1;              // the node the last failed checkPath stopped at
};

/// Copies the type of the node a rewrite replaced (fusion never changes a type).
void keepType(const Expr& original, const Expr& result) {
  if (result != original && !result->checkedType) result->checkedType = original->checkedType;
}

/// Where FuseOps remarks go; null when remarks are off.
struct FuseExplainer {
  PassContext& ctx;
  const std::string& pass;
  /// The global function being fused.
  std::string function;
  int optLevel;
  int64_t maxDepth;
  bool linkParams;
};

/// TVM's names of the fusion patterns (and of the partitioner's tuple kind).
const char* patternName(int pattern) {
  switch (pattern) {
    case kElemWise: return "ElemWise";
    case kBroadcast: return "Broadcast";
    case kInjective: return "Injective";
    case kCommReduce: return "CommReduce";
    case kOutEWiseFusable: return "OutEWiseFusable";
    case kTuple: return "Tuple";
    default: return "Opaque";
  }
}

/// What a pattern's ops may fuse into, for the remark of a node that did not
/// (made once per pattern: thousands of remarks append it).
const std::string& patternRule(int own) {
  static const std::array<std::string, kOpaque + 1> kRules = [] {
    std::array<std::string, kOpaque + 1> rules;
    for (int p = 0; p <= kOpaque; ++p) {
      if (p == kOutEWiseFusable) rules[p] = "OutEWiseFusable ops take only an elementwise tail whose ops are at most Broadcast";
      else if (p <= kBroadcast)
        rules[p] = std::string(patternName(p)) + " ops fuse into their post-dominator only along a path that is at most Injective (or "
                   "ends in a CommReduce)";
      else rules[p] = std::string(patternName(p)) + " ops fuse only along Injective ops";
    }
    return rules;
  }();
  return kRules.at(static_cast<size_t>(std::clamp(own, 0, static_cast<int>(kOpaque))));
}

/// Appends every piece to `out` (no temporaries of the concatenation).
template <typename... Pieces>
void appendAll(std::string& out, const Pieces&... pieces) {
  (out.append(std::string_view(pieces)), ...);
}

/// Fuses one function body: partitions it and wraps every group holding a
/// fusible op call into a Primitive function called in place.
class BodyFuser final : public ExprMutator {
 public:
  BodyFuser(const Expr& body, bool linkParams, int optLevel, int maxDepth, const FuseExplainer* explain = nullptr)
      : graph_(body), linkParams_(linkParams) {
    Partitioner partitioner(graph_, maxDepth);
    if (explain) partitioner.explain();
    // At fuse_opt_level 0 nothing is fused: every op call is its own group (TVM's Partition).
    if (optLevel > 0) partitioner.run(PostDominatorTree(graph_));
    const size_t n = graph_.nodes.size();
    groupOf_.resize(n);
    std::unordered_map<int, size_t> groupIndex;
    for (size_t i = 0; i < n; ++i) {
      int r = partitioner.root(static_cast<int>(i));
      auto [it, added] = groupIndex.emplace(r, groups_.size());
      if (added) groups_.emplace_back();
      Group& group = groups_[it->second];
      group.members.push_back(static_cast<int>(i));  // increasing: producers first
      group.hasCall = group.hasCall || graph_.nodes[i].fusibleCall;
      groupOf_[i] = static_cast<int>(it->second);
    }
    for (Group& group : groups_) {
      group.output = group.members.back();
      group.wrap = group.hasCall && singleOutput(group);
    }
    if (explain) explainGroups(partitioner, *explain);
  }

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    // Nested functions were fused on their own (or are Primitive/external): leave them.
    if (e->kind == ExprKind::Function) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    keepType(original, rebuilt);
    Expr result = rebuilt;
    if (auto it = graph_.index.find(original.get()); it != graph_.index.end()) {
      const Group& group = groups_[static_cast<size_t>(groupOf_[static_cast<size_t>(it->second)])];
      if (group.wrap && group.output == it->second) result = buildGroup(group);
    }
    done_[original.get()] = result;
    return result;
  }

 private:
  struct Group {
    std::vector<int> members;
    int output = -1;
    bool hasCall = false;
    bool wrap = false;
  };

  std::string nodeText(int k) const { return describeNode(graph_.nodes[static_cast<size_t>(k)].ref); }
  /// Appends "op (Pattern)" to `out` (remark messages are built in one buffer).
  void appendNodeWithPattern(std::string& out, int k) const {
    appendNodeDescription(out, graph_.nodes[static_cast<size_t>(k)].ref);
    out += " (";
    out += patternName(graph_.nodes[static_cast<size_t>(k)].pattern);
    out += ")";
  }

  /// Remarks: every group made, and every producer whose consumers are in
  /// another group with the rule that kept them apart.
  void explainGroups(Partitioner& partitioner, const FuseExplainer& x) {
    const std::string& pass = x.pass;
    size_t made = 0, calls = 0;
    for (const Group& group : groups_) {
      if (!group.wrap) continue;
      ++made;
      // One allocation for the node list and about one for the message: a
      // 10k-op model makes thousands of these (bench/bench_remarks).
      std::vector<Expr> nodes;
      nodes.reserve(group.members.size());
      for (int m : group.members)
        if (graph_.nodes[static_cast<size_t>(m)].fusibleCall) nodes.push_back(graph_.nodes[static_cast<size_t>(m)].ref);
      const size_t ops = nodes.size();
      std::string message;
      message.reserve(48 + 24 * ops);
      if (ops != 1) {
        message += "fused ";
        message += std::to_string(ops);
        message += " ops into one Primitive function: ";
      }
      for (size_t m = 0; m < ops; ++m) {
        if (m) message += " → ";
        appendNodeDescription(message, nodes[m]);
      }
      if (ops == 1) message += " alone in a Primitive function";
      message += " (group pattern ";
      message += patternName(partitioner.groupPattern(group.output));
      message += ")";
      x.ctx.remark(makeRemark(pass, RemarkRule::FuseGroup, x.function, std::move(nodes), std::move(message)));
    }
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
      const GraphNode& node = graph_.nodes[i];
      const CallNode* call = as<CallNode>(node.ref);
      if (!call) continue;
      ++calls;
      std::vector<int> consumers;
      for (const Edge& e : node.outputs)
        if (groupOf_[static_cast<size_t>(e.node)] != groupOf_[i] &&
            std::find(consumers.begin(), consumers.end(), e.node) == consumers.end())
          consumers.push_back(e.node);
      if (consumers.empty()) continue;
      const int k = static_cast<int>(i);
      std::vector<Expr> nodes;
      nodes.reserve(1 + consumers.size());
      nodes.push_back(node.ref);
      std::string edge;
      edge.reserve(160);
      appendNodeWithPattern(edge, k);
      edge += " → ";
      for (size_t c = 0; c < consumers.size(); ++c) {
        nodes.push_back(graph_.nodes[static_cast<size_t>(consumers[c])].ref);
        if (c) edge += ", ";
        appendNodeWithPattern(edge, consumers[c]);
      }
      edge += ": ";
      const bool fanOut = node.outputs.size() > 1;
      const Partitioner::MissInfo& miss = partitioner.miss(k);
      auto sinkText = [&] { return miss.sink >= 0 ? nodeText(miss.sink) : std::string(); };
      RemarkRule rule = RemarkRule::FusePatternBoundary;
      std::string& why = edge;  // the reason is appended to the edge text in place
      const int consumerPattern = graph_.nodes[static_cast<size_t>(consumers.front())].pattern;
      if (x.optLevel == 0) {
        rule = RemarkRule::FuseOptLevel;
        why += "fusion opt level 0: every op call is a group of its own";
      } else if (node.pattern == kOpaque || (!fanOut && consumerPattern == kOpaque && miss.why != Partitioner::Miss::NoSink)) {
        rule = RemarkRule::FuseOpaque;
        if (node.pattern == kOpaque) appendAll(why, nodeText(k), " is Opaque: it is never fused with anything");
        else why += "the consumer is Opaque: it is never fused with anything";
      } else {
        switch (miss.why) {
          case Partitioner::Miss::NoSink:
            if (node.externRef) {
              rule = RemarkRule::FuseOutput;
              why += "the value is also used outside the dataflow graph (function result, let or if), so no group continues past it";
            } else {
              rule = RemarkRule::FuseFanOut;
              appendAll(why, std::to_string(node.outputs.size()), " uses with no common post-dominator to fuse into");
            }
            break;
          case Partitioner::Miss::MaxDepth:
            rule = RemarkRule::FuseMaxDepth;
            appendAll(why, "joining ", sinkText(), "'s group would make ", std::to_string(miss.size), " nodes, more than ",
                      kFuseOpsMaxDepthKey, " = ", std::to_string(x.maxDepth));
            break;
          case Partitioner::Miss::Tuple:
            rule = RemarkRule::FuseTuple;
            why += "its post-dominator is a tuple, and nothing but an injective op fuses into a tuple";
            break;
          case Partitioner::Miss::Reduce:
            rule = RemarkRule::FuseReduction;
            why += "a CommReduce op never fuses into its consumer (its inputs fuse into it)";
            break;
          case Partitioner::Miss::Pattern:
            rule = fanOut ? RemarkRule::FuseFanOut : RemarkRule::FusePatternBoundary;
            if (node.pattern == kOutEWiseFusable && consumerPattern == kOutEWiseFusable && !fanOut)
              why += "two OutEWiseFusable ops never share a group";
            else
              appendAll(why, patternRule(node.pattern), "; the path to ", sinkText(), " is ", patternName(miss.domPattern));
            break;
          case Partitioner::Miss::Path:
            rule = fanOut ? RemarkRule::FuseFanOut : RemarkRule::FusePatternBoundary;
            appendAll(why, patternRule(node.pattern), "; ");
            if (miss.blocker == miss.sink) why += "its post-dominator ";
            else appendAll(why, fanOut ? "a diamond: " : "", "the path to ", sinkText(), " passes ");
            appendAll(why, nodeText(miss.blocker), " in a ", patternName(partitioner.groupPattern(miss.blocker)), " group");
            break;
          case Partitioner::Miss::None:
            why += "the consumers joined another group first";
            break;
        }
      }
      x.ctx.remark(makeRemark(pass, rule, x.function, std::move(nodes), std::move(edge)));
    }
    x.ctx.remark(makeRemark(pass, RemarkRule::FuseSummary, x.function, {},
                            std::to_string(made) + (made == 1 ? " group from " : " groups from ") + std::to_string(calls) +
                                (calls == 1 ? " call" : " calls") + " at fusion opt level " +
                                std::to_string(x.optLevel) + " (" + kFuseOpsMaxDepthKey + " = " + std::to_string(x.maxDepth) +
                                ", link_params " + (x.linkParams ? "on: constants stay inside kernels" : "off: constants become parameters") +
                                ")"));
  }

  /// Every member but the output is used only inside the group (the partition
  /// guarantees it; checked so that a violation can never produce wrong IR).
  bool singleOutput(const Group& group) const {
    const int id = groupOf_[static_cast<size_t>(group.output)];
    for (int m : group.members) {
      const GraphNode& node = graph_.nodes[static_cast<size_t>(m)];
      if (m == group.output) continue;
      if (node.externRef) return false;
      for (const Edge& e : node.outputs)
        if (groupOf_[static_cast<size_t>(e.node)] != id) return false;
    }
    return true;
  }

  Expr buildGroup(const Group& group) {
    const int id = groupOf_[static_cast<size_t>(group.output)];
    std::unordered_map<int, Expr> built;
    std::unordered_map<const ExprNode*, Var> paramOf;
    std::vector<Var> params;
    std::vector<Type> paramTypes;
    std::vector<Expr> args;
    auto parameterFor = [&](const Expr& original, const Expr& value) -> Expr {
      if (auto it = paramOf.find(original.get()); it != paramOf.end()) return it->second;
      Var p = makeVar("p" + std::to_string(params.size()), original->checkedType);
      p->checkedType = original->checkedType;
      paramOf.emplace(original.get(), p);
      params.push_back(p);
      paramTypes.push_back(original->checkedType);
      args.push_back(value);
      return p;
    };
    std::vector<Expr> children;
    for (int m : group.members) {
      const Expr& node = graph_.nodes[static_cast<size_t>(m)].ref;
      children.clear();
      appendChildren(node, children);
      for (Expr& child : children) {
        if (!child || child->kind == ExprKind::Op) continue;
        auto idx = graph_.index.find(child.get());
        if (idx != graph_.index.end() && groupOf_[static_cast<size_t>(idx->second)] == id) {
          child = built.at(idx->second);
          continue;
        }
        auto done = done_.find(child.get());
        Expr value = done != done_.end() ? done->second : child;
        // link_params keeps constants in the kernel; otherwise they are passed in.
        child = linkParams_ && value->kind == ExprKind::Constant ? value : parameterFor(child, value);
      }
      Expr rebuilt = rebuildWithChildren(node, children);
      keepType(node, rebuilt);
      built.emplace(m, rebuilt);
    }
    const Expr& output = graph_.nodes[static_cast<size_t>(group.output)].ref;
    AttrDict attrs;
    attrs.set(fn_attr::kPrimitive, AttrValue::integer(1));
    Function fn = makeFunction(params, built.at(group.output), output->checkedType, std::move(attrs));
    fn->checkedType = funcType(paramTypes, output->checkedType);
    Expr call = makeCall(fn, std::move(args), {}, output->span);
    call->checkedType = output->checkedType;
    return call;
  }

  ForwardGraph graph_;
  bool linkParams_;
  std::vector<Group> groups_;
  std::vector<int> groupOf_;
  std::unordered_map<const ExprNode*, Expr> done_;
};

/// Visits functions innermost first and fuses each body; Primitive and
/// external-codegen functions are left alone.
class FunctionFuser final : public ExprMutator {
 public:
  FunctionFuser(bool linkParams, int optLevel, int maxDepth, const FuseExplainer* explain = nullptr)
      : linkParams_(linkParams), optLevel_(optLevel), maxDepth_(maxDepth), explain_(explain) {}

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    if (const FunctionNode* fn = as<FunctionNode>(e); fn && (opt_util::isPrimitive(*fn) || fn->attrs.contains(fn_attr::kCompiler))) {
      if (const AttrValue* compiler = fn->attrs.find(fn_attr::kCompiler); compiler && explain_)
        explain_->ctx.remark(makeRemark(explain_->pass, RemarkRule::FuseCompilerFunction, explain_->function, {e},
                                        "fn with Compiler=" + compiler->toString() +
                                            " is left to its external codegen: its ops are not fused"));
      return e;
    }
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    keepType(original, rebuilt);
    const FunctionNode* fn = as<FunctionNode>(rebuilt);
    if (!fn) return rebuilt;
    BodyFuser fuser(fn->body, linkParams_, optLevel_, maxDepth_, explain_);
    Expr body = fuser.mutate(fn->body);
    if (body == fn->body) return rebuilt;
    Function out = makeFunction(fn->params, body, fn->retType, fn->attrs, fn->span);
    out->checkedType = original->checkedType;
    return out;
  }

 private:
  bool linkParams_;
  int optLevel_;
  int maxDepth_;
  const FuseExplainer* explain_;
};

/// What FuseOps is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& fuseOpsDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    FuseOpsOptions defaults;
    PassRegistration r;
    r.info.name = "FuseOps";
    r.level = PassLevel::Function;
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    // 2: the Relax form, over call_tir after LegalizeOps
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering};
    r.info.description =
        "Groups op calls by fusion pattern (post-dominator rules of TVM) into Primitive=1 functions called in place; "
        "link_params decides whether constants stay inline.";
    r.info.guarantees =
        "Every fusible op call outside skipped functions is inside a Primitive function; no group exceeds "
        "relay.FuseOps.max_depth nodes; without link_params no fused function holds a non-scalar constant.";
    r.options = {{"fuse_opt_level", Kind::Int, AttrValue::integer(defaults.fuseOptLevel),
                  "fusion level: -1 takes the context's opt_level; 0 wraps every op alone", -1, 4}};
    r.configKeys = {
        {kFuseOpsMaxDepthKey, Kind::Int, AttrValue::integer(256), "maximum number of ops fused into one function", 1},
        {kFuseOpsLinkParamsKey, Kind::Bool, AttrValue::boolean(false),
         "keep constants inline in fused functions (else they become parameters); when not set, the module's executor "
         "link-params, then the target's -link-params decide"},
    };
    r.create = [](const AttrDict& options) {
      FuseOpsOptions o;
      o.fuseOptLevel = static_cast<int>(options.getInt("fuse_opt_level", o.fuseOptLevel));
      return createFuseOpsPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kFuseOpsRegistrar(fuseOpsDeclaration);

class FuseOpsPass final : public Pass {
 public:
  explicit FuseOpsPass(FuseOpsOptions options) : fuseOptLevel_(options.fuseOptLevel) {
    if (fuseOptLevel_ != FuseOpsOptions{}.fuseOptLevel) options_.set("fuse_opt_level", AttrValue::integer(fuseOptLevel_));
  }

  const PassInfo& info() const override { return fuseOpsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    const std::string& name = info().name;
    if (fuseOptLevel_ != FuseOpsOptions{}.fuseOptLevel) ctx.recordOption("fuse_opt_level", AttrValue::integer(fuseOptLevel_), name);
    const int optLevel = fuseOptLevel_ >= 0 ? fuseOptLevel_ : ctx.optLevel;
    const int64_t maxDepth = ctx.config(kFuseOpsMaxDepthKey, name).asInt();
    // A Relax module after LegalizeOps: TVM's Relax FuseOps over call_tir bindings.
    if (fuseInRelaxForm(mod))
      return fuseOpsRelax(mod, optLevel, static_cast<int>(std::min<int64_t>(maxDepth, 1 << 30)), ctx.remarksEnabled() ? &ctx : nullptr, name);
    const bool linkParams = resolveLinkParams(mod, ctx, name);
    return opt_util::mapFunctions(mod, ctx, name, [&](const Function& fn, const std::string& global) -> Function {
      bool hasCall = false;
      postOrderVisit(fn, [&](const Expr& e) { hasCall = hasCall || (as<CallNode>(e) && as<CallNode>(e)->op()); });
      if (!hasCall) return fn;
      opt_util::ensureTyped(fn, mod);
      std::optional<FuseExplainer> explain;
      if (ctx.remarksEnabled()) explain.emplace(FuseExplainer{ctx, name, global, optLevel, maxDepth, linkParams});
      FunctionFuser fuser(linkParams, optLevel, static_cast<int>(std::min<int64_t>(maxDepth, 1 << 30)),
                          explain ? &*explain : nullptr);
      Expr out = fuser.mutate(fn);
      return out == fn ? fn : std::static_pointer_cast<const FunctionNode>(out);
    });
  }

 private:
  int fuseOptLevel_;
};

}  // namespace

std::vector<int> partitionFusionGraph(const std::vector<FusionGraphNode>& nodes, int maxDepth, std::vector<FusionMiss>* misses,
                                      std::vector<int>* groupPatterns) {
  ForwardGraph g;
  for (const FusionGraphNode& n : nodes) {
    GraphNode node;
    node.pattern = n.pattern;
    node.externRef = n.externRef;
    for (const auto& [to, pattern] : n.outputs) node.outputs.push_back({to, pattern});
    g.nodes.push_back(std::move(node));
  }
  Partitioner partitioner(g, maxDepth);
  if (misses) partitioner.explain();
  partitioner.run(PostDominatorTree(g));
  std::vector<int> roots;
  for (size_t i = 0; i < nodes.size(); ++i) roots.push_back(partitioner.root(static_cast<int>(i)));
  if (misses) {
    misses->clear();
    for (size_t i = 0; i < nodes.size(); ++i) {
      const Partitioner::MissInfo& m = partitioner.miss(static_cast<int>(i));
      misses->push_back({static_cast<FusionMiss::Why>(m.why), m.sink, m.blocker, m.domPattern, m.size});
    }
  }
  if (groupPatterns) {
    groupPatterns->clear();
    for (size_t i = 0; i < nodes.size(); ++i) groupPatterns->push_back(partitioner.groupPattern(static_cast<int>(i)));
  }
  return roots;
}

const char* fusionPatternName(int pattern) { return patternName(pattern); }
std::string fusionPatternRule(int pattern) { return patternRule(pattern); }

PassPtr createFuseOpsPass(const FuseOpsOptions& options) { return std::make_shared<FuseOpsPass>(options); }

}  // namespace passlab
