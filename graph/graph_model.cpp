#include "graph/graph_model.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

#include "core/ir/tir.h"

namespace passlab::graph {

const char* nodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::Param: return "param";
    case NodeKind::Constant: return "const";
    case NodeKind::Op: return "op";
    case NodeKind::GlobalCall: return "global-call";
    case NodeKind::Call: return "call";
    case NodeKind::Tuple: return "tuple";
    case NodeKind::Projection: return "projection";
    case NodeKind::If: return "if";
    case NodeKind::Global: return "global";
    case NodeKind::FreeVar: return "free-var";
    case NodeKind::Output: return "output";
  }
  return "?";
}

const char* clusterKindName(ClusterKind kind) {
  switch (kind) {
    case ClusterKind::Fused: return "fused";
    case ClusterKind::Compiler: return "compiler";
    case ClusterKind::Function: return "function";
    case ClusterKind::Chain: return "chain";
  }
  return "?";
}

std::vector<std::string> Node::lines() const {
  std::vector<std::string> out;
  out.reserve(2 + details.size());
  out.push_back(title);
  out.insert(out.end(), details.begin(), details.end());
  if (!type.empty()) out.push_back(type);
  return out;
}

size_t FunctionGraph::laidOutCount() const {
  return static_cast<size_t>(std::count_if(nodes.begin(), nodes.end(), [](const Node& n) { return n.chipOf < 0; }));
}

size_t FunctionGraph::opCount() const {
  return static_cast<size_t>(std::count_if(nodes.begin(), nodes.end(), [](const Node& n) { return n.kind == NodeKind::Op; }));
}

bool FunctionGraph::inside(int node, int cluster) const {
  for (int c = nodes[static_cast<size_t>(node)].cluster; c >= 0; c = clusters[static_cast<size_t>(c)].parent)
    if (c == cluster) return true;
  return false;
}

namespace {

std::string shortDtype(DataType d) {
  std::string name(d.name());
  if (name.rfind("float", 0) == 0) return "f" + name.substr(5);
  if (name.rfind("uint", 0) == 0) return "u" + name.substr(4);
  if (name.rfind("int", 0) == 0) return "i" + name.substr(3);
  return name;
}

std::string shapeText(const std::vector<int64_t>& shape, DataType dtype) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += shape[i] == kDynamicDim ? "?" : std::to_string(shape[i]);
  }
  return s + ") " + shortDtype(dtype);
}

std::string clip(std::string s, size_t max) {
  if (s.size() > max && max > 3) s = s.substr(0, max - 3) + "...";
  return s;
}

/// Where variables are bound while one function body is walked.
struct Scope {
  Scope* parent = nullptr;
  int cluster = -1;
  std::unordered_map<const ExprNode*, int> memo;
  std::unordered_map<const VarNode*, int> vars;
  /// `let %f = fn ...`: calls through %f draw the function in place.
  std::unordered_map<const VarNode*, const FunctionNode*> fnVars;
};

class Builder {
 public:
  Builder(const IRModule& mod, FunctionGraph& g, const BuildOptions& o) : mod_(mod), g_(g), o_(o) {}

  void build(const FunctionNode& fn) {
    Scope top;
    for (const Var& p : fn.params) top.vars[p.get()] = param(*p, -1);
    int result = visit(fn.body, top);
    int out = add(NodeKind::Output, "output", nullptr, -1);
    g_.nodes[static_cast<size_t>(out)].type = shortType(fn.body ? fn.body->checkedType : nullptr);
    if (result >= 0) edge(result, out, 0);
    finish();
  }

 private:
  int add(NodeKind kind, std::string title, const ExprNode* ir, int cluster) {
    Node n;
    n.kind = kind;
    n.title = std::move(title);
    n.ir = ir;
    n.cluster = cluster;
    if (ir) {
      n.type = shortType(ir->checkedType);
      g_.nodeOf.emplace(ir, static_cast<int>(g_.nodes.size()));
    }
    g_.nodes.push_back(std::move(n));
    return static_cast<int>(g_.nodes.size()) - 1;
  }

  int param(const VarNode& v, int cluster) {
    int n = add(NodeKind::Param, "%" + v.name, &v, cluster);
    Node& node = g_.nodes[static_cast<size_t>(n)];
    if (node.type.empty()) node.type = shortType(v.annotation);
    return n;
  }

  void edge(int from, int to, int port) {
    if (from < 0 || to < 0) return;
    g_.edges.push_back(Edge{from, to, port, g_.nodes[static_cast<size_t>(from)].type});
  }

  int lookupVar(const VarNode* v, Scope& sc) {
    for (Scope* s = &sc; s; s = s->parent) {
      auto it = s->vars.find(v);
      if (it != s->vars.end()) return it->second;
      auto f = s->fnVars.find(v);
      if (f != s->fnVars.end()) {
        // A function bound by let and used as a value: draw it once, where it is bound.
        int r = functionValue(*f->second, *s);
        s->vars[v] = r;
        return r;
      }
    }
    // Bound outside the function: one node per variable.
    Scope* root = &sc;
    while (root->parent) root = root->parent;
    auto it = root->vars.find(v);
    if (it != root->vars.end()) return it->second;
    int n = add(NodeKind::FreeVar, "%" + v->name, v, -1);
    root->vars[v] = n;
    return n;
  }

  const FunctionNode* calledFunction(const CallNode& call, Scope& sc) {
    if (auto f = as<FunctionNode>(call.callee)) return f;
    if (auto v = as<VarNode>(call.callee)) {
      for (Scope* s = &sc; s; s = s->parent) {
        auto it = s->fnVars.find(v);
        if (it != s->fnVars.end()) return it->second;
        if (s->vars.count(v)) break;
      }
    }
    return nullptr;
  }

  int newCluster(const FunctionNode& fn, const ExprNode* call, int parent) {
    Cluster c;
    if (const AttrValue* comp = fn.attrs.find(fn_attr::kCompiler)) {
      c.kind = ClusterKind::Compiler;
      c.label = "Compiler=" + comp->asString();
      if (const AttrValue* composite = fn.attrs.find(fn_attr::kComposite)) c.label += " " + composite->asString();
    } else if (fn.attrs.getInt(fn_attr::kPrimitive, 0) != 0) {
      c.kind = ClusterKind::Fused;
      c.label = "fused";
    } else {
      c.kind = ClusterKind::Function;
      c.label = "fn";
    }
    c.parent = parent;
    c.function = &fn;
    c.call = call;
    int id = static_cast<int>(g_.clusters.size());
    g_.clusters.push_back(std::move(c));
    if (parent >= 0) g_.clusters[static_cast<size_t>(parent)].children.push_back(id);
    g_.clusterOf.emplace(&fn, id);
    if (call) g_.clusterOf.emplace(call, id);
    return id;
  }

  /// A function literal applied in place: its body drawn inside a box, its
  /// parameters wired straight to the call's arguments.
  int inlineCall(const CallNode& call, const FunctionNode& fn, const std::vector<int>& args, Scope& sc) {
    int cl = newCluster(fn, &call, sc.cluster);
    Scope inner;
    inner.parent = &sc;
    inner.cluster = cl;
    for (size_t i = 0; i < fn.params.size(); ++i)
      inner.vars[fn.params[i].get()] = i < args.size() ? args[i] : param(*fn.params[i], cl);
    return visit(fn.body, inner);
  }

  /// A function literal used as a value: a box with its parameters and body.
  int functionValue(const FunctionNode& fn, Scope& sc) {
    int cl = newCluster(fn, nullptr, sc.cluster);
    Scope inner;
    inner.parent = &sc;
    inner.cluster = cl;
    for (const Var& p : fn.params) inner.vars[p.get()] = param(*p, cl);
    return visit(fn.body, inner);
  }

  int memoOf(const Expr& e, Scope& sc) {
    if (!e) return -1;
    auto it = sc.memo.find(e.get());
    return it == sc.memo.end() ? -1 : it->second;
  }

  void opDetails(Node& n, const AttrDict& attrs) {
    for (const auto& [key, value] : attrs.entries()) {
      if (static_cast<int>(n.details.size()) >= o_.maxDetails) break;
      n.details.push_back(clip(key + "=" + value.toString(), static_cast<size_t>(o_.maxDetailChars)));
    }
  }

  int buildCall(const CallNode& call, Scope& sc) {
    std::vector<int> args;
    args.reserve(call.args.size());
    for (const Expr& a : call.args) args.push_back(memoOf(a, sc));
    if (const FunctionNode* fn = calledFunction(call, sc)) return inlineCall(call, *fn, args, sc);
    int n;
    if (const OpDef* op = call.op()) {
      n = add(NodeKind::Op, std::string(op->name), &call, sc.cluster);
      opDetails(g_.nodes[static_cast<size_t>(n)], call.attrs);
    } else if (auto gv = as<GlobalVarNode>(call.callee)) {
      n = add(NodeKind::GlobalCall, "@" + gv->name, &call, sc.cluster);
      Node& node = g_.nodes[static_cast<size_t>(n)];
      if (Expr callee = mod_->lookup(gv->name)) {
        g_.callees.emplace_back(gv->name, callee);
        const AttrDict& attrs = functionAttrs(callee);
        for (const char* key : {fn_attr::kCompiler, fn_attr::kExtern, fn_attr::kPrimitive})
          if (const AttrValue* v = attrs.find(key)) node.details.push_back(clip(std::string(key) + "=" + v->toString(), 40));
        if (as<PrimFuncNode>(callee)) node.details.push_back("PrimFunc");
      }
      opDetails(node, call.attrs);
    } else {
      n = add(NodeKind::Call, "call", &call, sc.cluster);
      if (auto v = as<VarNode>(call.callee)) {
        g_.nodes[static_cast<size_t>(n)].title = "call %" + v->name;
      } else {
        edge(memoOf(call.callee, sc), n, static_cast<int>(args.size()));
      }
    }
    for (size_t i = 0; i < args.size(); ++i) edge(args[i], n, static_cast<int>(i));
    return n;
  }

  /// Post-order over one scope's expression DAG with an explicit stack, so
  /// 100k-op chains never recurse. `state` counts the phases of a frame.
  int visit(const Expr& root, Scope& sc) {
    if (!root) return -1;
    struct Frame {
      const ExprNode* e;
      Expr owner;
      size_t state;
    };
    std::vector<Frame> stack;
    stack.push_back({root.get(), root, 0});
    auto push = [&](const Expr& child) {
      if (child && !sc.memo.count(child.get())) stack.push_back({child.get(), child, 0});
    };
    while (!stack.empty()) {
      Frame& f = stack.back();
      const ExprNode* e = f.e;
      if (f.state == 0 && sc.memo.count(e)) {
        stack.pop_back();
        continue;
      }
      int result = -2;  // -2: not done yet
      switch (e->kind) {
        case ExprKind::Var:
          result = lookupVar(static_cast<const VarNode*>(e), sc);
          break;
        case ExprKind::GlobalVar:
          result = add(NodeKind::Global, "@" + static_cast<const GlobalVarNode*>(e)->name, e, sc.cluster);
          break;
        case ExprKind::Constant: {
          const NDArray& data = static_cast<const ConstantNode*>(e)->data;
          result = add(NodeKind::Constant, "const", e, sc.cluster);
          Node& n = g_.nodes[static_cast<size_t>(result)];
          if (data.defined()) {
            n.type = shapeText(data.shape(), data.dtype());
            if (data.numElements() == 1) {
              char buf[32];
              std::snprintf(buf, sizeof buf, "%g", data.getAsDouble(0));
              n.title = std::string("const ") + buf;
            }
          }
          break;
        }
        case ExprKind::Op:
          result = add(NodeKind::Op, std::string(static_cast<const OpNode*>(e)->def->name), e, sc.cluster);
          break;
        case ExprKind::Call: {
          auto call = static_cast<const CallNode*>(e);
          if (f.state == 0) {
            f.state = 1;
            Expr callee = call->callee;
            for (auto it = call->args.rbegin(); it != call->args.rend(); ++it) push(*it);
            if (!as<OpNode>(callee) && !as<GlobalVarNode>(callee) && !as<FunctionNode>(callee) && !as<VarNode>(callee)) push(callee);
            continue;
          }
          result = buildCall(*call, sc);
          break;
        }
        case ExprKind::Tuple: {
          auto t = static_cast<const TupleNode*>(e);
          if (f.state == 0) {
            f.state = 1;
            for (auto it = t->fields.rbegin(); it != t->fields.rend(); ++it) push(*it);
            continue;
          }
          result = add(NodeKind::Tuple, "tuple", e, sc.cluster);
          for (size_t i = 0; i < t->fields.size(); ++i) edge(memoOf(t->fields[i], sc), result, static_cast<int>(i));
          break;
        }
        case ExprKind::TupleGetItem: {
          auto t = static_cast<const TupleGetItemNode*>(e);
          if (f.state == 0) {
            f.state = 1;
            push(t->tuple);
            continue;
          }
          result = add(NodeKind::Projection, "." + std::to_string(t->index), e, sc.cluster);
          edge(memoOf(t->tuple, sc), result, 0);
          break;
        }
        case ExprKind::If: {
          auto i = static_cast<const IfNode*>(e);
          if (f.state == 0) {
            f.state = 1;
            push(i->elseBranch);
            push(i->thenBranch);
            push(i->cond);
            continue;
          }
          result = add(NodeKind::If, "if", e, sc.cluster);
          edge(memoOf(i->cond, sc), result, 0);
          edge(memoOf(i->thenBranch, sc), result, 1);
          edge(memoOf(i->elseBranch, sc), result, 2);
          break;
        }
        case ExprKind::Let: {
          auto l = static_cast<const LetNode*>(e);
          if (f.state == 0) {
            f.state = 1;
            if (auto fn = as<FunctionNode>(l->value)) {
              sc.fnVars[l->var.get()] = fn;
            } else {
              push(l->value);
            }
            continue;
          }
          if (f.state == 1) {
            f.state = 2;
            if (!as<FunctionNode>(l->value)) sc.vars[l->var.get()] = memoOf(l->value, sc);
            push(l->body);
            continue;
          }
          result = memoOf(l->body, sc);
          break;
        }
        case ExprKind::Dataflow: {
          auto d = static_cast<const DataflowNode*>(e);
          // Phases: 2i pushes binding i's value, 2i+1 binds its variable; then the body.
          size_t n = d->bindings.size();
          if (f.state < 2 * n) {
            const Binding& b = d->bindings[f.state / 2];
            if (f.state % 2 == 0) {
              ++f.state;
              if (auto fn = as<FunctionNode>(b.value))
                sc.fnVars[b.var.get()] = fn;
              else
                push(b.value);
            } else {
              ++f.state;
              if (!as<FunctionNode>(b.value)) sc.vars[b.var.get()] = memoOf(b.value, sc);
            }
            continue;
          }
          if (f.state == 2 * n) {
            ++f.state;
            push(d->body);
            continue;
          }
          result = memoOf(d->body, sc);
          break;
        }
        case ExprKind::Function:
          result = functionValue(*static_cast<const FunctionNode*>(e), sc);
          break;
        case ExprKind::PrimFunc:
          result = add(NodeKind::Global, "prim_func", e, sc.cluster);
          break;
      }
      sc.memo[e] = result;
      stack.pop_back();
    }
    return memoOf(root, sc);
  }

  /// Chips, cluster sizes and fused-box labels, once every node exists.
  void finish() {
    std::vector<int> uses(g_.nodes.size(), 0), consumer(g_.nodes.size(), -1);
    for (const Edge& e : g_.edges) {
      ++uses[static_cast<size_t>(e.from)];
      consumer[static_cast<size_t>(e.from)] = e.to;
    }
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      Node& n = g_.nodes[i];
      bool leaf = n.kind == NodeKind::Constant || n.kind == NodeKind::Param || n.kind == NodeKind::FreeVar;
      n.broadcast = leaf && uses[i] > kBroadcastUses;
      // A constant, or a global function named as a value (call_tir's kernel
      // after LegalizeOps), read once is a chip on its reader.
      if ((n.kind != NodeKind::Constant && n.kind != NodeKind::Global) || uses[i] != 1) continue;
      n.chipOf = consumer[i];
    }
    if (o_.foldConstantExprs) foldConstantExprs(uses);
    // Chips in argument order: single-use constants and broadcast inputs.
    for (const Edge& e : g_.edges) {
      const Node& from = g_.nodes[static_cast<size_t>(e.from)];
      if (from.chipOf >= 0 || from.broadcast) g_.nodes[static_cast<size_t>(e.to)].chips.push_back(e.from);
    }
    if (g_.laidOutCount() > o_.foldChainsAbove) foldChains();
    // Box sizes, and fused boxes and chains named after their ops (as TVM names fused functions).
    std::vector<std::vector<std::string>> ops(g_.clusters.size());
    for (const Node& n : g_.nodes) {
      if (n.chipOf >= 0) continue;
      for (int c = n.cluster; c >= 0; c = g_.clusters[static_cast<size_t>(c)].parent) {
        ++g_.clusters[static_cast<size_t>(c)].size;
        if (n.kind == NodeKind::Op) ++g_.clusters[static_cast<size_t>(c)].ops;
        if (n.kind == NodeKind::Op && c == n.cluster) ops[static_cast<size_t>(c)].push_back(n.title);
      }
    }
    for (size_t c = 0; c < g_.clusters.size(); ++c) {
      Cluster& cl = g_.clusters[c];
      // A chain of boxes keeps its "chain of N boxes".
      if ((cl.kind != ClusterKind::Fused && cl.kind != ClusterKind::Chain) || ops[c].empty() ||
          (cl.kind == ClusterKind::Chain && !cl.children.empty()))
        continue;
      std::string label;
      std::unordered_set<std::string> seen;
      int shown = 0;
      for (const std::string& op : ops[c]) {
        if (!seen.insert(op).second) continue;
        if (shown++ == 4) {
          label += "+...";
          break;
        }
        label += (label.empty() ? "" : "+") + op;
      }
      cl.label = (cl.kind == ClusterKind::Fused ? "fused: " : "chain: ") + label;
    }
  }

  /// Constant expressions become chips: an op reading only constants and
  /// constant expressions is one (nodes are made inputs first, so one forward
  /// pass finds them all). One used by a single other node is a chip on it;
  /// one used only by other constant expressions hides inside the chip of its
  /// first reader, with the constants it reads; one read by several ordinary
  /// nodes stays a node (its subtree folded into it), like a shared constant.
  void foldConstantExprs(const std::vector<int>& uses) {
    const size_t count = g_.nodes.size();
    std::vector<std::vector<int>> inputs(count), readers(count);
    for (const Edge& e : g_.edges) {
      inputs[static_cast<size_t>(e.to)].push_back(e.from);
      readers[static_cast<size_t>(e.from)].push_back(e.to);
    }
    std::vector<bool> isExpr(count, false);
    for (size_t i = 0; i < count; ++i) {
      const Node& n = g_.nodes[i];
      if (n.kind != NodeKind::Op || inputs[i].empty()) continue;
      bool allConst = true;
      for (int in : inputs[i]) {
        const Node& src = g_.nodes[static_cast<size_t>(in)];
        if (src.kind != NodeKind::Constant && !isExpr[static_cast<size_t>(in)]) allConst = false;
      }
      isExpr[i] = allConst;
    }
    auto onlyExprReaders = [&](size_t i) {
      if (readers[i].empty()) return false;
      for (int r : readers[i])
        if (!isExpr[static_cast<size_t>(r)]) return false;
      return true;
    };
    for (size_t i = 0; i < count; ++i) {
      Node& n = g_.nodes[i];
      if (isExpr[i]) {
        n.constOps = 1;
        n.broadcast = uses[i] > kBroadcastUses;
        if (uses[i] == 1 || onlyExprReaders(i)) n.chipOf = readers[i].front(), n.broadcast = false;
      } else if (n.kind == NodeKind::Constant && onlyExprReaders(i)) {
        n.chipOf = readers[i].front();
        n.broadcast = false;
      }
    }
    // A chip counts the ops hidden behind it: each hidden expression adds one
    // to the last expression on its way to a drawn node.
    for (size_t i = 0; i < count; ++i) {
      if (!isExpr[i] || g_.nodes[i].chipOf < 0) continue;
      size_t at = i;
      while (true) {
        int next = g_.nodes[at].chipOf;
        if (next < 0 || !isExpr[static_cast<size_t>(next)]) break;
        at = static_cast<size_t>(next);
      }
      if (at != i) ++g_.nodes[at].constOps;
    }
  }

  // Chains are made of units: a node of a scope (the top level or a plain
  // nested function), or a fused or Compiler box applied in place in that scope
  // (after FuseOps a 400-op model is a column of 80 boxes). Unit ids: node i is
  // i, cluster c is nodes.size() + c.

  /// True when cluster `c` is a box of its own inside a chain (not a scope).
  bool isGroup(int c) const {
    const Cluster& cl = g_.clusters[static_cast<size_t>(c)];
    return cl.kind == ClusterKind::Fused || cl.kind == ClusterKind::Compiler;
  }

  /// The unit that stands for `node` in its scope.
  int unitOf(int node) const {
    int c = g_.nodes[static_cast<size_t>(node)].cluster;
    if (c < 0 || !isGroup(c)) return node;
    while (g_.clusters[static_cast<size_t>(c)].parent >= 0 && isGroup(g_.clusters[static_cast<size_t>(c)].parent))
      c = g_.clusters[static_cast<size_t>(c)].parent;
    return static_cast<int>(g_.nodes.size()) + c;
  }

  /// The scope a unit sits in (-1: the top level).
  int scopeOf(int unit) const {
    const int n = static_cast<int>(g_.nodes.size());
    return unit < n ? g_.nodes[static_cast<size_t>(unit)].cluster : g_.clusters[static_cast<size_t>(unit - n)].parent;
  }

  /// A unit that can sit inside a chain: a computed value drawn as a node of
  /// its own, or a box applied in place.
  bool chainable(int unit) const {
    const int n = static_cast<int>(g_.nodes.size());
    if (unit >= n) return g_.clusters[static_cast<size_t>(unit - n)].call != nullptr;
    const Node& node = g_.nodes[static_cast<size_t>(unit)];
    if (node.chipOf >= 0 || node.broadcast) return false;
    // A tuple reading one drawn value (call_tir's argument tuple) is a link like a projection.
    return node.kind == NodeKind::Op || node.kind == NodeKind::Projection || node.kind == NodeKind::GlobalCall ||
           node.kind == NodeKind::Call || node.kind == NodeKind::Tuple;
  }

  /// Runs of at least minChain units, each the only drawn input of the next and
  /// used by nothing else, become Chain clusters inside their common scope.
  void foldChains() {
    const size_t n = g_.nodes.size(), units = n + g_.clusters.size();
    // Drawn edges only (chips and broadcast inputs are not lines in the
    // picture), between units, each pair once (a box may read one value twice).
    std::vector<std::pair<int, int>> links;
    for (const Edge& e : g_.edges) {
      const Node& from = g_.nodes[static_cast<size_t>(e.from)];
      if (from.chipOf >= 0 || from.broadcast) continue;
      int a = unitOf(e.from), b = unitOf(e.to);
      if (a != b) links.emplace_back(a, b);
    }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    std::vector<int> drawnIn(units, 0), drawnOut(units, 0), onlyInput(units, -1);
    for (const auto& [a, b] : links) {
      ++drawnIn[static_cast<size_t>(b)];
      ++drawnOut[static_cast<size_t>(a)];
      onlyInput[static_cast<size_t>(b)] = a;
    }
    // next[a] = b when a feeds only b, b reads only a, and both may be chained in one scope.
    std::vector<int> next(units, -1);
    std::vector<bool> hasPrev(units, false);
    for (size_t b = 0; b < units; ++b) {
      if (drawnIn[b] != 1 || !chainable(static_cast<int>(b))) continue;
      const int a = onlyInput[b];
      if (a < 0 || drawnOut[static_cast<size_t>(a)] != 1 || !chainable(a)) continue;
      if (scopeOf(a) != scopeOf(static_cast<int>(b))) continue;
      next[static_cast<size_t>(a)] = static_cast<int>(b);
      hasPrev[b] = true;
    }
    for (size_t start = 0; start < units; ++start) {
      if (hasPrev[start] || next[start] < 0) continue;
      std::vector<int> run;
      for (int u = static_cast<int>(start); u >= 0; u = next[static_cast<size_t>(u)]) run.push_back(u);
      if (static_cast<int>(run.size()) < o_.minChain) continue;
      const int parent = scopeOf(static_cast<int>(start));
      Cluster c;
      c.kind = ClusterKind::Chain;
      c.label = "chain";
      c.parent = parent;
      const int id = static_cast<int>(g_.clusters.size());
      g_.clusters.push_back(std::move(c));
      int groups = 0;
      for (int u : run) {
        if (u < static_cast<int>(n)) {
          g_.nodes[static_cast<size_t>(u)].cluster = id;
          continue;
        }
        // A box moves under the chain.
        const int box = u - static_cast<int>(n);
        if (parent >= 0) {
          auto& siblings = g_.clusters[static_cast<size_t>(parent)].children;
          siblings.erase(std::remove(siblings.begin(), siblings.end(), box), siblings.end());
        }
        g_.clusters[static_cast<size_t>(box)].parent = id;
        g_.clusters[static_cast<size_t>(id)].children.push_back(box);
        ++groups;
      }
      if (parent >= 0) g_.clusters[static_cast<size_t>(parent)].children.push_back(id);
      if (groups > 0) g_.clusters[static_cast<size_t>(id)].label = "chain of " + std::to_string(groups) + (groups == 1 ? " box" : " boxes");
    }
  }

  const IRModule& mod_;
  FunctionGraph& g_;
  const BuildOptions& o_;
};

}  // namespace

std::string shortType(const Type& t) {
  if (auto tt = as<TensorTypeNode>(t)) return shapeText(tt->shape, tt->dtype);
  if (auto tu = as<TupleTypeNode>(t)) return "(tuple " + std::to_string(tu->fields.size()) + ")";
  if (as<FuncTypeNode>(t)) return "fn";
  return "";
}

std::shared_ptr<const FunctionGraph> buildGraph(const IRModule& mod, const std::string& rawName, const BuildOptions& options) {
  std::string name = !rawName.empty() && rawName[0] == '@' ? rawName.substr(1) : rawName;
  if (!mod) throw GraphError("no module");
  Expr fn = mod->lookup(name);
  if (!fn) {
    std::string list;
    for (const auto& [n, f] : mod->functions) list += (list.empty() ? "@" : ", @") + n;
    throw GraphError("no function @" + name + " in this module (functions: " + (list.empty() ? "none" : list) + ")");
  }
  if (as<PrimFuncNode>(fn))
    throw GraphError("@" + name + " is a PrimFunc (a TIR loop nest); the graph view draws graph-level functions — "
                     "`show @" + name + "` prints its loops");
  auto g = std::make_shared<FunctionGraph>();
  g->function = name;
  g->fn = fn;
  Builder(mod, *g, options).build(*as<FunctionNode>(fn));
  return g;
}

CollapseState defaultCollapse(const FunctionGraph& g, int maxExpanded) {
  CollapseState c(g.clusters.size(), false);
  // A big graph shows its structure first: every box collapsed (dot's cost
  // grows with the number of clusters far more than with nodes).
  const size_t n = g.laidOutCount();
  const bool big = n > kCollapseAllAbove, groups = n > kCollapseGroupsAbove;
  for (size_t i = 0; i < g.clusters.size(); ++i) {
    const Cluster& cl = g.clusters[i];
    bool group = cl.kind == ClusterKind::Fused || cl.kind == ClusterKind::Compiler;
    c[i] = big || cl.kind == ClusterKind::Chain || cl.size > maxExpanded || (groups && group);
  }
  return c;
}

std::pair<int, int> visibleOwner(const FunctionGraph& g, const CollapseState& collapse, int node) {
  if (node < 0) return {-1, -1};
  const Node& n = g.nodes[static_cast<size_t>(node)];
  if (n.chipOf >= 0) return visibleOwner(g, collapse, n.chipOf);
  int outer = -1;
  for (int c = n.cluster; c >= 0; c = g.clusters[static_cast<size_t>(c)].parent)
    if (static_cast<size_t>(c) < collapse.size() && collapse[static_cast<size_t>(c)]) outer = c;
  return outer >= 0 ? std::pair<int, int>{-1, outer} : std::pair<int, int>{node, -1};
}

std::string defaultGraphFunction(const IRModule& mod, const std::vector<std::string>& changed) {
  if (!mod) return "";
  auto isGraph = [&](const std::string& n) { return mod->lookupFunction(n) != nullptr; };
  if (isGraph("main")) return "main";
  for (const std::string& n : changed)
    if (isGraph(n)) return n;
  for (const auto& [n, f] : mod->functions)
    if (as<FunctionNode>(f)) return n;
  return "";
}

}  // namespace passlab::graph
