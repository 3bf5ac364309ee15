// Structural equality and hashing modulo variable names.
//
// Graph level: an iterative simultaneous walk (models are 100k-deep chains).
// Variables bound at the same position (function parameter i, let variable,
// dataflow binding i) are mapped to each other when their binder is met; a use
// must then agree with the mapping. Free variables must be the same node.
// TIR: recursive (loop nests are shallow), with the same binding discipline
// for scalar variables and buffers.
#include "core/analysis/structural_equal.h"
#include "core/ir/shape_expr.h"

#include <bit>
#include <cstring>
#include <functional>
#include <iterator>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/functor.h"
#include "core/ir/tir_functor.h"

namespace passlab {

namespace {

void mix(size_t& h, size_t x) { h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); }

size_t doubleBits(double v) {
  if (v != v) return 0x7ff8;  // every NaN hashes alike (they compare equal here)
  if (v == 0) v = 0;          // +0 and -0 compare equal, so they must hash alike
  return std::hash<uint64_t>()(std::bit_cast<uint64_t>(v));
}

/// Bijection between the variables (or buffers) of two sides.
template <class T>
class Bijection {
 public:
  /// Maps a ↔ b; false when either is already mapped to something else.
  bool bind(const T* a, const T* b) {
    auto [ia, newA] = forward_.emplace(a, b);
    auto [ib, newB] = backward_.emplace(b, a);
    return ia->second == b && ib->second == a && newA == newB;
  }
  /// True when a use of `a` on the left matches `b` on the right.
  bool matches(const T* a, const T* b) const {
    auto it = forward_.find(a);
    if (it != forward_.end()) return it->second == b;
    // Free on the left: must be the same node and free on the right too.
    return a == b && !backward_.count(b);
  }

 private:
  std::unordered_map<const T*, const T*> forward_, backward_;
};

// ---- TIR ---------------------------------------------------------------------

class TirEqual {
 public:
  bool func(const PrimFuncNode& a, const PrimFuncNode& b) {
    if (a.attrs != b.attrs || a.params.size() != b.params.size()) return false;
    for (size_t i = 0; i < a.params.size(); ++i) {
      const tir::Param &pa = a.params[i], &pb = b.params[i];
      if (!bindVar(pa.var, pb.var)) return false;
      if (!pa.buffer != !pb.buffer) return false;
      if (pa.buffer && !bindBuffer(pa.buffer, pb.buffer)) return false;
    }
    return stmt(a.body, b.body);
  }
  /// Two expressions outside any function: their free variables and buffers must be the same nodes.
  bool freeExpr(const tir::PrimExpr& a, const tir::PrimExpr& b) { return expr(a, b); }

 private:
  bool bindVar(const tir::Var& a, const tir::Var& b) {
    if (!a || !b) return a == b;
    return a->dtype == b->dtype && vars_.bind(a.get(), b.get());
  }
  bool bindBuffer(const tir::Buffer& a, const tir::Buffer& b) {
    return a->dtype == b->dtype && a->shape == b->shape && buffers_.bind(a.get(), b.get());
  }
  bool useBuffer(const tir::Buffer& a, const tir::Buffer& b) { return buffers_.matches(a.get(), b.get()); }

  bool exprs(const std::vector<tir::PrimExpr>& a, const std::vector<tir::PrimExpr>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!expr(a[i], b[i])) return false;
    return true;
  }

  bool expr(const tir::PrimExpr& a, const tir::PrimExpr& b) {
    using namespace tir;
    if (!a || !b) return a == b;
    if (a->kind != b->kind || a->dtype != b->dtype) return false;
    switch (a->kind) {
      case PrimExprKind::IntImm: return as<IntImmNode>(a)->value == as<IntImmNode>(b)->value;
      case PrimExprKind::FloatImm: {
        double x = as<FloatImmNode>(a)->value, y = as<FloatImmNode>(b)->value;
        return x == y || (x != x && y != y);
      }
      case PrimExprKind::Var: return vars_.matches(as<tir::VarNode>(a), as<tir::VarNode>(b));
      case PrimExprKind::Binary: {
        auto *x = as<BinaryNode>(a), *y = as<BinaryNode>(b);
        return x->op == y->op && expr(x->a, y->a) && expr(x->b, y->b);
      }
      case PrimExprKind::Not: return expr(as<NotNode>(a)->a, as<NotNode>(b)->a);
      case PrimExprKind::Select: {
        auto *x = as<SelectNode>(a), *y = as<SelectNode>(b);
        return expr(x->cond, y->cond) && expr(x->trueValue, y->trueValue) && expr(x->falseValue, y->falseValue);
      }
      case PrimExprKind::Cast: return expr(as<CastNode>(a)->value, as<CastNode>(b)->value);
      case PrimExprKind::Call: {
        auto *x = as<tir::CallNode>(a), *y = as<tir::CallNode>(b);
        return x->callee == y->callee && x->isGlobal == y->isGlobal && exprs(x->args, y->args);
      }
      case PrimExprKind::Load: {
        auto *x = as<LoadNode>(a), *y = as<LoadNode>(b);
        return useBuffer(x->buffer, y->buffer) && exprs(x->indices, y->indices);
      }
      case PrimExprKind::Let: {
        auto *x = as<tir::LetNode>(a), *y = as<tir::LetNode>(b);
        return expr(x->value, y->value) && bindVar(x->var, y->var) && expr(x->body, y->body);
      }
    }
    return false;
  }

  bool stmt(const tir::Stmt& a, const tir::Stmt& b) {
    using namespace tir;
    if (!a || !b) return a == b;
    if (a->kind != b->kind) return false;
    switch (a->kind) {
      case StmtKind::Store: {
        auto *x = as<StoreNode>(a), *y = as<StoreNode>(b);
        return useBuffer(x->buffer, y->buffer) && exprs(x->indices, y->indices) && expr(x->value, y->value);
      }
      case StmtKind::For: {
        auto *x = as<ForNode>(a), *y = as<ForNode>(b);
        return x->forKind == y->forKind && expr(x->min, y->min) && expr(x->extent, y->extent) && bindVar(x->var, y->var) &&
               stmt(x->body, y->body);
      }
      case StmtKind::LetStmt: {
        auto *x = as<LetStmtNode>(a), *y = as<LetStmtNode>(b);
        return expr(x->value, y->value) && bindVar(x->var, y->var) && stmt(x->body, y->body);
      }
      case StmtKind::IfThenElse: {
        auto *x = as<IfThenElseNode>(a), *y = as<IfThenElseNode>(b);
        return expr(x->cond, y->cond) && stmt(x->thenCase, y->thenCase) && stmt(x->elseCase, y->elseCase);
      }
      case StmtKind::Allocate: {
        auto *x = as<AllocateNode>(a), *y = as<AllocateNode>(b);
        return bindBuffer(x->buffer, y->buffer) && stmt(x->body, y->body);
      }
      case StmtKind::AllocateConst: {
        auto *x = as<AllocateConstNode>(a), *y = as<AllocateConstNode>(b);
        return x->data.bitwiseEqual(y->data) && bindBuffer(x->buffer, y->buffer) && stmt(x->body, y->body);
      }
      case StmtKind::Seq: {
        auto *x = as<SeqNode>(a), *y = as<SeqNode>(b);
        if (x->stmts.size() != y->stmts.size()) return false;
        for (size_t i = 0; i < x->stmts.size(); ++i)
          if (!stmt(x->stmts[i], y->stmts[i])) return false;
        return true;
      }
      case StmtKind::Evaluate: return expr(as<EvaluateNode>(a)->value, as<EvaluateNode>(b)->value);
      case StmtKind::Assert: {
        auto *x = as<AssertStmtNode>(a), *y = as<AssertStmtNode>(b);
        return x->errorKind == y->errorKind && x->message == y->message && expr(x->cond, y->cond) && stmt(x->body, y->body);
      }
      case StmtKind::Block: return block(*as<BlockNode>(a), *as<BlockNode>(b));
    }
    return false;
  }

  bool regions(const std::vector<tir::BufferRegion>& a, const std::vector<tir::BufferRegion>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!useBuffer(a[i].buffer, b[i].buffer) || a[i].ranges.size() != b[i].ranges.size()) return false;
      for (size_t d = 0; d < a[i].ranges.size(); ++d)
        if (!expr(a[i].ranges[d].first, b[i].ranges[d].first) || !expr(a[i].ranges[d].second, b[i].ranges[d].second)) return false;
    }
    return true;
  }

  /// Blocks match field by field; iteration variables pair up by position
  /// (each binding is compared before its variable is bound, as it is
  /// evaluated outside the block).
  bool block(const tir::BlockNode& x, const tir::BlockNode& y) {
    if (x.name != y.name || x.iterVars.size() != y.iterVars.size() || x.allocBuffers.size() != y.allocBuffers.size() ||
        x.annotations != y.annotations)
      return false;
    for (size_t i = 0; i < x.iterVars.size(); ++i) {
      const tir::BlockIterVar &u = x.iterVars[i], &v = y.iterVars[i];
      if (u.iterKind != v.iterKind || !expr(u.min, v.min) || !expr(u.extent, v.extent) || !expr(u.binding, v.binding)) return false;
    }
    for (size_t i = 0; i < x.iterVars.size(); ++i)
      if (!bindVar(x.iterVars[i].var, y.iterVars[i].var)) return false;
    for (size_t i = 0; i < x.allocBuffers.size(); ++i)
      if (!bindBuffer(x.allocBuffers[i], y.allocBuffers[i])) return false;
    return expr(x.predicate, y.predicate) && regions(x.reads, y.reads) && regions(x.writes, y.writes) && stmt(x.init, y.init) &&
           stmt(x.body, y.body);
  }

  Bijection<tir::VarNode> vars_;
  Bijection<tir::BufferNode> buffers_;
};

/// TIR hash: bound variables and buffers hash by their binding order (the walk
/// is a deterministic pre-order, as the equality's), free ones by identity.
class TirHash {
 public:
  size_t func(const PrimFuncNode& f) {
    size_t h = 0x7012;
    mix(h, f.attrs.hash());
    for (const tir::Param& p : f.params) {
      mix(h, bindVar(p.var));
      mix(h, p.buffer ? bindBuffer(p.buffer) : 0x51);
    }
    mix(h, stmt(f.body));
    return h;
  }

 private:
  size_t bindVar(const tir::Var& v) {
    if (!v) return 0x3;
    size_t index = vars_.size();
    vars_.emplace(v.get(), index);
    size_t h = static_cast<size_t>(v->dtype.code);
    mix(h, index);
    return h;
  }
  size_t bindBuffer(const tir::Buffer& b) {
    size_t index = buffers_.size();
    buffers_.emplace(b.get(), index);
    return bufferShape(*b) ^ (index * 0x100000001b3ull);
  }
  static size_t bufferShape(const tir::BufferNode& b) {
    size_t h = static_cast<size_t>(b.dtype.code) + 0xb0f;
    for (int64_t d : b.shape) mix(h, std::hash<int64_t>()(d));
    return h;
  }
  size_t useBuffer(const tir::Buffer& b) {
    auto it = buffers_.find(b.get());
    return it != buffers_.end() ? it->second * 0x100000001b3ull : std::hash<const void*>()(b.get());
  }

  size_t expr(const tir::PrimExpr& e) {
    using namespace tir;
    if (!e) return 0x11;
    size_t h = static_cast<size_t>(e->kind) * 131 + static_cast<size_t>(e->dtype.code);
    // The node's own fields, then its operands in forEachChild order.
    if (const auto* imm = as<IntImmNode>(e)) {
      mix(h, std::hash<int64_t>()(imm->value));
    } else if (const auto* f = as<FloatImmNode>(e)) {
      mix(h, doubleBits(f->value));
    } else if (const auto* v = as<tir::VarNode>(e)) {
      auto it = vars_.find(v);
      mix(h, it != vars_.end() ? it->second : std::hash<const void*>()(e.get()));
    } else if (const auto* b = as<BinaryNode>(e)) {
      mix(h, static_cast<size_t>(b->op));
    } else if (const auto* c = as<tir::CallNode>(e)) {
      mix(h, std::hash<std::string>()(c->callee));
      mix(h, c->isGlobal);
    } else if (const auto* l = as<LoadNode>(e)) {
      mix(h, useBuffer(l->buffer));
    } else if (const auto* let = as<tir::LetNode>(e)) {
      // Bound before its body is hashed (the value cannot mention it), in TirEqual's order.
      mix(h, expr(let->value));
      mix(h, bindVar(let->var));
      mix(h, expr(let->body));
      return h;
    }
    forEachChild(e, [&](const PrimExpr& c) { mix(h, expr(c)); });
    return h;
  }

  size_t stmt(const tir::Stmt& s) {
    using namespace tir;
    if (!s) return 0x13;
    size_t h = static_cast<size_t>(s->kind) * 0x2545f491;
    switch (s->kind) {
      case StmtKind::Store: {
        auto* x = as<StoreNode>(s);
        mix(h, useBuffer(x->buffer));
        for (const PrimExpr& i : x->indices) mix(h, expr(i));
        mix(h, expr(x->value));
        break;
      }
      case StmtKind::For: {
        auto* x = as<ForNode>(s);
        mix(h, static_cast<size_t>(x->forKind));
        mix(h, expr(x->min));
        mix(h, expr(x->extent));
        mix(h, bindVar(x->var));
        mix(h, stmt(x->body));
        break;
      }
      case StmtKind::LetStmt: {
        auto* x = as<LetStmtNode>(s);
        mix(h, expr(x->value));
        mix(h, bindVar(x->var));
        mix(h, stmt(x->body));
        break;
      }
      case StmtKind::IfThenElse: {
        auto* x = as<IfThenElseNode>(s);
        mix(h, expr(x->cond));
        mix(h, stmt(x->thenCase));
        mix(h, stmt(x->elseCase));
        break;
      }
      case StmtKind::Allocate: {
        auto* x = as<AllocateNode>(s);
        mix(h, bindBuffer(x->buffer));
        mix(h, stmt(x->body));
        break;
      }
      case StmtKind::AllocateConst: {
        auto* x = as<AllocateConstNode>(s);
        mix(h, x->data.contentHash());
        mix(h, bindBuffer(x->buffer));
        mix(h, stmt(x->body));
        break;
      }
      case StmtKind::Seq:
        for (const Stmt& c : as<SeqNode>(s)->stmts) mix(h, stmt(c));
        break;
      case StmtKind::Evaluate: mix(h, expr(as<EvaluateNode>(s)->value)); break;
      case StmtKind::Assert: {
        auto* x = as<AssertStmtNode>(s);
        mix(h, std::hash<std::string>()(x->errorKind));
        mix(h, std::hash<std::string>()(x->message));
        mix(h, expr(x->cond));
        mix(h, stmt(x->body));
        break;
      }
      case StmtKind::Block: mix(h, block(*as<BlockNode>(s))); break;
    }
    return h;
  }

  size_t regions(const std::vector<tir::BufferRegion>& rs) {
    size_t h = rs.size();
    for (const tir::BufferRegion& r : rs) {
      mix(h, useBuffer(r.buffer));
      for (const auto& [mn, ext] : r.ranges) {
        mix(h, expr(mn));
        mix(h, expr(ext));
      }
    }
    return h;
  }

  /// In the order TirEqual::block compares.
  size_t block(const tir::BlockNode& b) {
    size_t h = std::hash<std::string>()(b.name);
    mix(h, b.annotations.hash());
    for (const tir::BlockIterVar& iv : b.iterVars) {
      mix(h, static_cast<size_t>(iv.iterKind));
      mix(h, expr(iv.min));
      mix(h, expr(iv.extent));
      mix(h, expr(iv.binding));
    }
    for (const tir::BlockIterVar& iv : b.iterVars) mix(h, bindVar(iv.var));
    for (const tir::Buffer& buf : b.allocBuffers) mix(h, bindBuffer(buf));
    mix(h, expr(b.predicate));
    mix(h, regions(b.reads));
    mix(h, regions(b.writes));
    mix(h, stmt(b.init));
    mix(h, stmt(b.body));
    return h;
  }

  std::unordered_map<const tir::VarNode*, size_t> vars_;
  std::unordered_map<const tir::BufferNode*, size_t> buffers_;
};

// ---- Graph level ---------------------------------------------------------------

struct PairHash {
  size_t operator()(const std::pair<const ExprNode*, const ExprNode*>& p) const {
    size_t h = std::hash<const void*>()(p.first);
    mix(h, std::hash<const void*>()(p.second));
    return h;
  }
};

class GraphEqual {
 public:
  bool run(const ExprNode* a, const ExprNode* b) {
    stack_.emplace_back(a, b);
    while (!stack_.empty()) {
      auto [x, y] = stack_.back();
      stack_.pop_back();
      if (!x || !y) {
        if (x != y) return false;
        continue;
      }
      if (!proven_.insert({x, y}).second) continue;  // shared subtree already compared
      if (!local(x, y)) return false;
    }
    return true;
  }

 private:
  bool bindVar(const Var& a, const Var& b) {
    // TVM's rule: a variable's type is its struct info whether written or
    // inferred, so `gv: R.Tensor(...) = v` equals `gv = v` of that type.
    auto typeOf = [](const Var& v) { return v->annotation ? v->annotation : v->checkedType; };
    return a->isDataflow == b->isDataflow && typeEqual(typeOf(a), typeOf(b)) &&
           a->virtualDevice == b->virtualDevice && vars_.bind(a.get(), b.get());
  }
  /// Queues child pairs so they are compared in evaluation order.
  void push(std::initializer_list<std::pair<const ExprNode*, const ExprNode*>> pairs) {
    for (auto it = std::rbegin(pairs); it != std::rend(pairs); ++it) stack_.push_back(*it);
  }
  void pushAll(const std::vector<Expr>& a, const std::vector<Expr>& b) {
    for (size_t i = a.size(); i-- > 0;) stack_.emplace_back(a[i].get(), b[i].get());
  }

  /// Compares what belongs to the node itself and queues its children.
  bool local(const ExprNode* a, const ExprNode* b) {
    if (a->kind != b->kind) return false;
    switch (a->kind) {
      case ExprKind::Var: return vars_.matches(as<VarNode>(a), as<VarNode>(b));
      case ExprKind::GlobalVar: return as<GlobalVarNode>(a)->name == as<GlobalVarNode>(b)->name;
      case ExprKind::Constant: return as<ConstantNode>(a)->data.bitwiseEqual(as<ConstantNode>(b)->data);
      case ExprKind::Op: return as<OpNode>(a)->def == as<OpNode>(b)->def;
      case ExprKind::Call: {
        auto *x = as<CallNode>(a), *y = as<CallNode>(b);
        if (x->args.size() != y->args.size() || x->attrs != y->attrs) return false;
        pushAll(x->args, y->args);
        stack_.emplace_back(x->callee.get(), y->callee.get());
        return true;
      }
      case ExprKind::Tuple: {
        auto *x = as<TupleNode>(a), *y = as<TupleNode>(b);
        if (x->fields.size() != y->fields.size()) return false;
        pushAll(x->fields, y->fields);
        return true;
      }
      case ExprKind::TupleGetItem: {
        auto *x = as<TupleGetItemNode>(a), *y = as<TupleGetItemNode>(b);
        if (x->index != y->index) return false;
        push({{x->tuple.get(), y->tuple.get()}});
        return true;
      }
      case ExprKind::Let: {
        auto *x = as<LetNode>(a), *y = as<LetNode>(b);
        if (!bindVar(x->var, y->var)) return false;
        push({{x->value.get(), y->value.get()}, {x->body.get(), y->body.get()}});
        return true;
      }
      case ExprKind::If: {
        auto *x = as<IfNode>(a), *y = as<IfNode>(b);
        push({{x->cond.get(), y->cond.get()}, {x->thenBranch.get(), y->thenBranch.get()}, {x->elseBranch.get(), y->elseBranch.get()}});
        return true;
      }
      case ExprKind::Function: {
        auto *x = as<FunctionNode>(a), *y = as<FunctionNode>(b);
        if (x->params.size() != y->params.size() || x->attrs != y->attrs) return false;
        // Parameters first: they define the shape variables the return type uses.
        for (size_t i = 0; i < x->params.size(); ++i)
          if (!bindVar(x->params[i], y->params[i])) return false;
        if (!typeEqual(x->retType, y->retType)) return false;
        push({{x->body.get(), y->body.get()}});
        return true;
      }
      case ExprKind::Dataflow: {
        auto *x = as<DataflowNode>(a), *y = as<DataflowNode>(b);
        if (x->bindings.size() != y->bindings.size()) return false;
        for (size_t i = 0; i < x->bindings.size(); ++i)
          if (!bindVar(x->bindings[i].var, y->bindings[i].var)) return false;
        stack_.emplace_back(x->body.get(), y->body.get());
        for (size_t i = x->bindings.size(); i-- > 0;) stack_.emplace_back(x->bindings[i].value.get(), y->bindings[i].value.get());
        return true;
      }
      case ExprKind::PrimFunc: return TirEqual().func(*as<PrimFuncNode>(a), *as<PrimFuncNode>(b));
    }
    return false;
  }

  std::vector<std::pair<const ExprNode*, const ExprNode*>> stack_;
  std::unordered_set<std::pair<const ExprNode*, const ExprNode*>, PairHash> proven_;
  Bijection<VarNode> vars_;
  /// Shape variables of b bound to a's by first use (TVM's rule for symbolic shapes).
  shape::VarMap shapeVars_;
  /// Type equality inside a comparison: passlab::typeEqual with the shape
  /// variables bound through shapeVars_ (hides the free function here).
  bool typeEqual(const Type& a, const Type& b) { return shape::typesEqual(a, b, shapeVars_); }
};

/// Post-order hash with one memo entry per node, so a DAG costs its node
/// count. Bound variables hash by their binder kind and position (parameter i,
/// dataflow binding i, let) plus annotation, which equal expressions share
/// whatever their sharing structure; free variables hash by identity.
class GraphHash {
 public:
  size_t run(const Expr& root) {
    if (!root) return 0x0;
    std::vector<std::pair<Expr, bool>> stack{{root, false}};
    std::vector<Expr> children;
    while (!stack.empty()) {
      auto [node, expanded] = stack.back();
      if (memo_.count(node.get())) {
        stack.pop_back();
        continue;
      }
      if (!expanded) {
        stack.back().second = true;
        registerBinders(node.get());
        children.clear();
        appendChildren(node, children);
        for (auto it = children.rbegin(); it != children.rend(); ++it)
          if (*it && !memo_.count(it->get())) stack.emplace_back(*it, false);
        continue;
      }
      stack.pop_back();
      memo_[node.get()] = hashNode(node.get());
    }
    return memo_.at(root.get());
  }

 private:
  void registerBinders(const ExprNode* e) {
    if (auto* f = as<FunctionNode>(e))
      for (size_t i = 0; i < f->params.size(); ++i) binder_[f->params[i].get()] = 0x100 + i;
    if (auto* l = as<LetNode>(e)) binder_[l->var.get()] = 0x1e7;
    if (auto* d = as<DataflowNode>(e))
      for (size_t i = 0; i < d->bindings.size(); ++i) binder_[d->bindings[i].var.get()] = 0xdf00 + i;
  }
  size_t child(const Expr& e) const { return e ? memo_.at(e.get()) : 0x0; }

  size_t hashNode(const ExprNode* e) {
    size_t h = static_cast<size_t>(e->kind) * 0x9e3779b1u + 1;
    switch (e->kind) {
      case ExprKind::Var: {
        auto* v = as<VarNode>(e);
        auto it = binder_.find(v);
        mix(h, it != binder_.end() ? it->second : std::hash<const void*>()(v));
        // No type: equality compares the written-or-inferred type, which a hash
        // taken before inference would not see.
        mix(h, v->virtualDevice.hash());
        mix(h, v->isDataflow);
        break;
      }
      case ExprKind::GlobalVar: mix(h, std::hash<std::string>()(as<GlobalVarNode>(e)->name)); break;
      case ExprKind::Constant: mix(h, as<ConstantNode>(e)->data.contentHash()); break;
      case ExprKind::Op: mix(h, static_cast<size_t>(as<OpNode>(e)->def->id)); break;
      case ExprKind::Call: {
        auto* c = as<CallNode>(e);
        mix(h, c->attrs.hash());
        mix(h, child(c->callee));
        for (const Expr& a : c->args) mix(h, child(a));
        break;
      }
      case ExprKind::Tuple:
        for (const Expr& f : as<TupleNode>(e)->fields) mix(h, child(f));
        break;
      case ExprKind::TupleGetItem:
        mix(h, static_cast<size_t>(as<TupleGetItemNode>(e)->index));
        mix(h, child(as<TupleGetItemNode>(e)->tuple));
        break;
      case ExprKind::Let: {
        auto* l = as<LetNode>(e);
        mix(h, child(l->var));
        mix(h, child(l->value));
        mix(h, child(l->body));
        break;
      }
      case ExprKind::If: {
        auto* i = as<IfNode>(e);
        mix(h, child(i->cond));
        mix(h, child(i->thenBranch));
        mix(h, child(i->elseBranch));
        break;
      }
      case ExprKind::Function: {
        auto* f = as<FunctionNode>(e);
        mix(h, f->attrs.hash());
        mix(h, typeHash(f->retType));
        for (const Var& p : f->params) mix(h, child(p));
        mix(h, child(f->body));
        break;
      }
      case ExprKind::Dataflow: {
        auto* d = as<DataflowNode>(e);
        for (const Binding& b : d->bindings) {
          mix(h, child(b.var));
          mix(h, child(b.value));
        }
        mix(h, child(d->body));
        break;
      }
      case ExprKind::PrimFunc: mix(h, TirHash().func(*as<PrimFuncNode>(e))); break;
    }
    return h;
  }

  std::unordered_map<const ExprNode*, size_t> memo_;
  std::unordered_map<const VarNode*, size_t> binder_;
};

}  // namespace

bool structuralEqual(const Expr& a, const Expr& b) {
  if (!a || !b) return a == b;
  return GraphEqual().run(a.get(), b.get());
}

size_t structuralHash(const Expr& e) { return GraphHash().run(e); }

bool structuralEqual(const tir::PrimExpr& a, const tir::PrimExpr& b) { return TirEqual().freeExpr(a, b); }

bool structuralEqual(const IRModule& a, const IRModule& b) {
  if (!a || !b) return a == b;
  if (a->attrs != b->attrs || a->functions.size() != b->functions.size()) return false;
  for (auto ia = a->functions.begin(), ib = b->functions.begin(); ia != a->functions.end(); ++ia, ++ib)
    if (ia->first != ib->first || !structuralEqual(ia->second, ib->second)) return false;
  return true;
}

size_t structuralHash(const IRModule& m) {
  if (!m) return 0;
  size_t h = m->attrs.hash();
  for (const auto& [name, fn] : m->functions) {
    mix(h, std::hash<std::string>()(name));
    mix(h, structuralHash(fn));
  }
  return h;
}

}  // namespace passlab
