// The node matcher (see node_match.h): indexing, the matching phases and the
// edit script. Summaries and aligned printing live in change_summary.cpp.
//
// Every traversal is iterative: a 100k-op chain must not touch the C++ stack.
#include "core/trace/node_match.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_set>

#include "core/ir/type.h"

namespace passlab {

namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

/// Nodes of one snapshot's visited functions, numbered in post-order (inputs
/// before users, a call's arguments before its callee, so the parameters of
/// a called function literal can stand for those arguments).
struct SideIndex {
  const IRModuleNode* mod = nullptr;
  std::vector<const ExprNode*> nodes;
  std::unordered_map<const ExprNode*, uint32_t> ids;
  /// Inputs of node i: inputs[inputStart[i] .. inputStart[i+1]) (raw, not resolved).
  std::vector<uint32_t> inputStart{0};
  std::vector<uint32_t> inputs;
  /// Global function (index into ModuleEdits::functionNames) and innermost enclosing
  /// function node (a literal, or the global's own FunctionNode) of each node.
  std::vector<int32_t> global;
  std::vector<uint32_t> container;
  /// A parameter standing for a call argument (kNone otherwise).
  std::vector<uint32_t> alias;
  /// Counterpart on the other side (kNone when unmatched).
  std::vector<uint32_t> match;
  /// Users through resolved inputs (CSR).
  std::vector<uint32_t> userStart, users;
  /// Root FunctionNode id of each visited global (by function-name index).
  std::unordered_map<int32_t, uint32_t> roots;

  uint32_t size() const { return static_cast<uint32_t>(nodes.size()); }
  uint32_t numInputs(uint32_t i) const { return inputStart[i + 1] - inputStart[i]; }
  uint32_t input(uint32_t i, uint32_t slot) const { return inputs[inputStart[i] + slot]; }
  uint32_t resolve(uint32_t i) const {
    for (int guard = 0; i != kNone && alias[i] != kNone && guard < 64; ++guard) i = alias[i];
    return i;
  }
  uint32_t resolvedInput(uint32_t i, uint32_t slot) const { return resolve(input(i, slot)); }
};

bool indexed(ExprKind k) { return k != ExprKind::Op && k != ExprKind::PrimFunc; }

/// Inputs of a node in matching order (calls: arguments, then the callee unless it is an op).
template <class F>
void forEachInput(const ExprNode* e, F&& f) {
  switch (e->kind) {
    case ExprKind::Call: {
      auto* c = as<CallNode>(e);
      for (const Expr& a : c->args) f(a.get());
      if (c->callee && c->callee->kind != ExprKind::Op) f(c->callee.get());
      return;
    }
    case ExprKind::Tuple:
      for (const Expr& x : as<TupleNode>(e)->fields) f(x.get());
      return;
    case ExprKind::TupleGetItem: f(as<TupleGetItemNode>(e)->tuple.get()); return;
    case ExprKind::Let: {
      auto* l = as<LetNode>(e);
      f(l->var.get());
      f(l->value.get());
      f(l->body.get());
      return;
    }
    case ExprKind::If: {
      auto* i = as<IfNode>(e);
      f(i->cond.get());
      f(i->thenBranch.get());
      f(i->elseBranch.get());
      return;
    }
    case ExprKind::Function: {
      // Parameters are declarations, not inputs: the body is the only input.
      f(as<FunctionNode>(e)->body.get());
      return;
    }
    case ExprKind::Dataflow: {
      auto* d = as<DataflowNode>(e);
      for (const Binding& b : d->bindings) {
        f(b.var.get());
        f(b.value.get());
      }
      f(d->body.get());
      return;
    }
    default: return;
  }
}

class Matcher {
 public:
  Matcher(const IRModule& before, const IRModule& after, const MatchOptions& options, ModuleEdits& out)
      : options_(options), out_(out) {
    b_.mod = before.get();
    a_.mod = after.get();
  }
  void run();

 private:
  int32_t nameIndex(const std::string& name);
  void indexFunction(SideIndex& s, int32_t global, const Expr& fn);
  void aliasGlobals(SideIndex& s);
  void buildUsers(SideIndex& s);
  void link(uint32_t a, uint32_t b) {
    a_.match[a] = b;
    b_.match[b] = a;
  }
  bool sameLabel(uint32_t a, uint32_t b) const;
  bool corresponds(uint32_t a, uint32_t b) const;
  bool slotCorresponds(uint32_t a, uint32_t b, uint32_t k) const;
  uint32_t score(uint32_t a, uint32_t b) const;
  bool tryPair(uint32_t x, uint32_t y);
  void matchIdentity();
  void matchLeaves();
  bool matchParams(uint32_t a, uint32_t b);
  size_t bottomUp();
  size_t topDown();
  uint8_t changesOf(uint32_t a, uint32_t b) const;
  bool moved(uint32_t a, uint32_t b) const;
  void emit();
  void emitPrimFunc(FunctionEdit& f, const PrimFuncNode* before, const PrimFuncNode* after);

  const MatchOptions& options_;
  ModuleEdits& out_;
  SideIndex b_, a_;
  std::unordered_map<std::string, int32_t> nameIds_;
  /// Call sites of globals seen while indexing: global name index → call node ids.
  std::unordered_map<int32_t, std::vector<uint32_t>> callSites_;
  /// Before global renamed to after global (name indices).
  std::unordered_map<int32_t, int32_t> renamed_;
};

int32_t Matcher::nameIndex(const std::string& name) {
  auto [it, inserted] = nameIds_.try_emplace(name, static_cast<int32_t>(out_.functionNames.size()));
  if (inserted) out_.functionNames.push_back(name);
  return it->second;
}

void Matcher::indexFunction(SideIndex& s, int32_t global, const Expr& fn) {
  // Post-order: ids grow from inputs to users, so every user has a larger id.
  uint32_t first = s.size();
  struct Frame {
    const ExprNode* e;
    bool exit;
  };
  std::vector<Frame> stack{{fn.get(), false}};
  std::vector<const ExprNode*> kids;
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    const ExprNode* e = f.e;
    if (!f.exit) {
      if (!e || !indexed(e->kind) || s.ids.count(e)) continue;
      stack.push_back({e, true});
      kids.clear();
      if (auto* fnNode = as<FunctionNode>(e))
        for (const Var& p : fnNode->params) kids.push_back(p.get());
      forEachInput(e, [&](const ExprNode* c) { kids.push_back(c); });
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back({*it, false});
      continue;
    }
    if (s.ids.count(e)) continue;
    uint32_t id = s.size();
    s.ids.emplace(e, id);
    s.nodes.push_back(e);
    forEachInput(e, [&](const ExprNode* c) {
      auto it = c ? s.ids.find(c) : s.ids.end();
      s.inputs.push_back(it == s.ids.end() ? kNone : it->second);
    });
    s.inputStart.push_back(static_cast<uint32_t>(s.inputs.size()));
    s.global.push_back(global);
    s.container.push_back(kNone);
    s.alias.push_back(kNone);
    if (auto* c = as<CallNode>(e)) {
      if (auto* gv = as<GlobalVarNode>(c->callee)) {
        callSites_[nameIndex(gv->name)].push_back(id);
      } else if (auto* lit = as<FunctionNode>(c->callee)) {
        // The call stands for the literal's result, and the literal's parameters
        // for the call's arguments: ops moved into or out of a function still
        // see their original inputs.
        auto body = s.ids.find(lit->body.get());
        if (body != s.ids.end()) s.alias[id] = body->second;
        for (size_t i = 0; i < lit->params.size() && i < c->args.size(); ++i) {
          auto p = s.ids.find(lit->params[i].get());
          auto a = s.ids.find(c->args[i].get());
          if (p != s.ids.end() && a != s.ids.end() && s.alias[p->second] == kNone && p->second != a->second)
            s.alias[p->second] = a->second;
        }
      }
    }
  }
  if (s.size() == first) return;
  // Enclosing functions, users before inputs (first user wins in a DAG).
  uint32_t root = s.size() - 1;
  s.roots[global] = root;
  s.container[root] = root;
  for (uint32_t id = root + 1; id-- > first;) {
    uint32_t inner = s.nodes[id]->kind == ExprKind::Function ? id : s.container[id];
    if (inner == kNone) inner = root;
    auto setKid = [&](const ExprNode* c) {
      auto it = c ? s.ids.find(c) : s.ids.end();
      if (it != s.ids.end() && it->second >= first && s.container[it->second] == kNone) s.container[it->second] = inner;
    };
    if (auto* fnNode = as<FunctionNode>(s.nodes[id]))
      for (const Var& p : fnNode->params) setKid(p.get());
    forEachInput(s.nodes[id], setKid);
  }
}

void Matcher::aliasGlobals(SideIndex& s) {
  // A global called from exactly one visited place: its parameters stand for that call's arguments.
  for (const auto& [global, sites] : callSites_) {
    if (sites.size() != 1) continue;
    auto root = s.roots.find(global);
    if (root == s.roots.end()) continue;
    uint32_t site = sites[0];
    if (site >= s.size() || !as<CallNode>(s.nodes[site])) continue;
    auto* call = as<CallNode>(s.nodes[site]);
    auto* fn = as<FunctionNode>(s.nodes[root->second]);
    if (!fn) continue;
    if (s.numInputs(root->second) == 1 && s.input(root->second, 0) != kNone && s.alias[site] == kNone)
      s.alias[site] = s.input(root->second, 0);
    for (size_t i = 0; i < fn->params.size() && i < call->args.size(); ++i) {
      auto p = s.ids.find(fn->params[i].get());
      auto a = s.ids.find(call->args[i].get());
      if (p != s.ids.end() && a != s.ids.end() && s.alias[p->second] == kNone) s.alias[p->second] = a->second;
    }
  }
  callSites_.clear();
}

void Matcher::buildUsers(SideIndex& s) {
  // Users through raw and through resolved inputs (a user is listed once per input).
  uint32_t n = s.size();
  s.userStart.assign(n + 1, 0);
  std::vector<uint32_t> targets;
  auto targetsOf = [&](uint32_t i) {
    targets.clear();
    for (uint32_t k = 0; k < s.numInputs(i); ++k) {
      uint32_t raw = s.input(i, k), r = s.resolve(raw);
      for (uint32_t t : {raw, r})
        if (t != kNone && std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
    }
  };
  for (uint32_t i = 0; i < n; ++i) {
    targetsOf(i);
    for (uint32_t t : targets) ++s.userStart[t + 1];
  }
  for (uint32_t i = 0; i < n; ++i) s.userStart[i + 1] += s.userStart[i];
  s.users.assign(s.userStart[n], 0);
  std::vector<uint32_t> fill(s.userStart.begin(), s.userStart.end() - 1);
  for (uint32_t i = 0; i < n; ++i) {
    targetsOf(i);
    for (uint32_t t : targets) s.users[fill[t]++] = i;
  }
  s.match.assign(n, kNone);
}

bool Matcher::sameLabel(uint32_t a, uint32_t b) const {
  const ExprNode* x = a_.nodes[a];
  const ExprNode* y = b_.nodes[b];
  if (x->kind != y->kind || x->kind == ExprKind::GlobalVar) return false;
  if (auto* cx = as<CallNode>(x)) return cx->op() == as<CallNode>(y)->op();
  return true;
}

bool Matcher::corresponds(uint32_t a, uint32_t b) const {
  if (a == kNone || b == kNone) return false;
  if (a_.match[a] == b) return true;
  auto* ga = as<GlobalVarNode>(a_.nodes[a]);
  auto* gb = as<GlobalVarNode>(b_.nodes[b]);
  if (!ga || !gb) return false;
  if (ga->name == gb->name) return true;
  auto ia = nameIds_.find(ga->name);
  auto ib = nameIds_.find(gb->name);
  if (ia == nameIds_.end() || ib == nameIds_.end()) return false;
  auto r = renamed_.find(ib->second);
  return r != renamed_.end() && r->second == ia->second;
}

bool Matcher::slotCorresponds(uint32_t a, uint32_t b, uint32_t k) const {
  // Either side may see a parameter or a call where the other sees what it
  // stands for (a function that is called once on one side only).
  uint32_t ra = a_.input(a, k), rb = b_.input(b, k);
  uint32_t xa = a_.resolve(ra), xb = b_.resolve(rb);
  return corresponds(xa, xb) || corresponds(ra, rb) || (ra != xa && corresponds(ra, xb)) ||
         (rb != xb && corresponds(xa, rb));
}

uint32_t Matcher::score(uint32_t a, uint32_t b) const {
  uint32_t n = std::min(a_.numInputs(a), b_.numInputs(b)), hits = 0;
  for (uint32_t k = 0; k < n; ++k) hits += slotCorresponds(a, b, k);
  return hits;
}

void Matcher::matchIdentity() {
  for (uint32_t a = 0; a < a_.size(); ++a) {
    if (a_.nodes[a]->kind == ExprKind::GlobalVar) continue;
    auto it = b_.ids.find(a_.nodes[a]);
    if (it != b_.ids.end() && b_.match[it->second] == kNone) link(a, it->second);
  }
  // A global whose function node is now under another name was renamed.
  for (const auto& [global, root] : a_.roots) {
    uint32_t b = a_.match[root];
    if (b == kNone || b_.global[b] == global) continue;
    auto broot = b_.roots.find(b_.global[b]);
    if (broot != b_.roots.end() && broot->second == b && !a_.mod->functions.count(out_.functionNames[b_.global[b]]))
      renamed_[b_.global[b]] = global;
  }
}

bool Matcher::matchParams(uint32_t a, uint32_t b) {
  auto* fa = as<FunctionNode>(a_.nodes[a]);
  auto* fb = as<FunctionNode>(b_.nodes[b]);
  if (!fa || !fb) return false;
  bool any = false;
  for (size_t i = 0; i < fa->params.size() && i < fb->params.size(); ++i) {
    auto pa = a_.ids.find(fa->params[i].get());
    auto pb = b_.ids.find(fb->params[i].get());
    if (pa == a_.ids.end() || pb == b_.ids.end()) continue;
    if (a_.match[pa->second] != kNone || b_.match[pb->second] != kNone) continue;
    link(pa->second, pb->second);
    any = true;
  }
  return any;
}

void Matcher::matchLeaves() {
  // Same-named global functions and their parameters.
  for (const auto& [global, root] : a_.roots) {
    auto b = b_.roots.find(global);
    if (b == b_.roots.end()) continue;
    if (a_.match[root] == kNone && b_.match[b->second] == kNone) link(root, b->second);
    if (a_.match[root] == b->second) matchParams(root, b->second);
  }
  // Constants by their bytes.
  std::unordered_map<size_t, std::vector<uint32_t>> buckets;
  auto key = [](const NDArray& d) { return d.contentHash() * 31 + d.ndim(); };
  for (uint32_t b = 0; b < b_.size(); ++b)
    if (b_.match[b] == kNone)
      if (auto* c = as<ConstantNode>(b_.nodes[b])) buckets[key(c->data)].push_back(b);
  if (buckets.empty()) return;
  for (uint32_t a = 0; a < a_.size(); ++a) {
    auto* c = as<ConstantNode>(a_.nodes[a]);
    if (!c || a_.match[a] != kNone) continue;
    auto it = buckets.find(key(c->data));
    if (it == buckets.end()) continue;
    for (uint32_t b : it->second) {
      if (b_.match[b] != kNone) continue;
      const NDArray& d = as<ConstantNode>(b_.nodes[b])->data;
      if (d.dtype() == c->data.dtype() && d.shape() == c->data.shape() && d.bitwiseEqual(c->data)) {
        link(a, b);
        break;
      }
    }
  }
}

size_t Matcher::bottomUp() {
  size_t found = 0;
  constexpr int kScan = 64;
  for (uint32_t a = 0; a < a_.size(); ++a) {
    uint32_t na = a_.numInputs(a);
    if (a_.match[a] != kNone || na == 0) continue;
    uint32_t best = kNone, bestScore = 0;
    for (uint32_t k = 0; k < 2 * na; ++k) {
      uint32_t in = k < na ? a_.resolvedInput(a, k) : a_.input(a, k - na);
      if (k >= na && in == a_.resolvedInput(a, k - na)) continue;
      if (in == kNone || a_.match[in] == kNone) continue;
      uint32_t bin = a_.match[in];
      int scanned = 0;
      for (uint32_t u = b_.userStart[bin]; u < b_.userStart[bin + 1] && scanned < kScan; ++u) {
        uint32_t c = b_.users[u];
        if (b_.match[c] != kNone || !sameLabel(a, c)) continue;
        ++scanned;
        if (!options_.moves && b_.global[c] != a_.global[a]) continue;
        uint32_t sc = score(a, c);
        bool better = sc > bestScore || (sc == bestScore && best != kNone && b_.global[best] != a_.global[a] &&
                                         b_.global[c] == a_.global[a]);
        if (better) {
          best = c;
          bestScore = sc;
        }
      }
    }
    if (best == kNone) continue;
    uint32_t n = std::max(na, b_.numInputs(best));
    if (bestScore * 2 < n) continue;
    link(a, best);
    ++found;
  }
  return found;
}

size_t Matcher::topDown() {
  size_t found = 0;
  for (uint32_t a = a_.size(); a-- > 0;) {
    uint32_t b = a_.match[a];
    if (b == kNone) continue;
    if (a_.nodes[a]->kind == ExprKind::Function) found += matchParams(a, b);
    uint32_t n = std::min(a_.numInputs(a), b_.numInputs(b));
    for (uint32_t k = 0; k < n; ++k) {
      uint32_t x = a_.resolvedInput(a, k), y = b_.resolvedInput(b, k);
      if (tryPair(x, y) || tryPair(a_.input(a, k), b_.input(b, k))) {
        ++found;
        continue;
      }
      // An op inserted or removed in between (a cast, a layout_transform): look one level through it.
      // Only between calls: a folded constant must not be paired with what fed the folded op.
      if (x != kNone && y != kNone && a_.match[x] == kNone && b_.match[y] == kNone && as<CallNode>(a_.nodes[x]) &&
          as<CallNode>(b_.nodes[y])) {
        uint32_t xi = a_.numInputs(x) >= 1 ? a_.resolvedInput(x, 0) : kNone;
        uint32_t yi = b_.numInputs(y) >= 1 ? b_.resolvedInput(y, 0) : kNone;
        if (xi != kNone && as<CallNode>(a_.nodes[xi]) && tryPair(xi, y)) ++found;
        else if (yi != kNone && as<CallNode>(b_.nodes[yi]) && tryPair(x, yi)) ++found;
      }
    }
  }
  return found;
}

bool Matcher::tryPair(uint32_t x, uint32_t y) {
  if (x == kNone || y == kNone || a_.match[x] != kNone || b_.match[y] != kNone || !sameLabel(x, y)) return false;
  if (!options_.moves && a_.global[x] != b_.global[y]) return false;
  link(x, y);
  return true;
}

uint8_t Matcher::changesOf(uint32_t a, uint32_t b) const {
  const ExprNode* x = a_.nodes[a];
  const ExprNode* y = b_.nodes[b];
  if (x == y) return 0;
  uint8_t bits = 0;
  if (auto* cx = as<CallNode>(x)) {
    if (!(cx->attrs == as<CallNode>(y)->attrs)) bits |= kAttrsChanged;
  } else if (auto* fx = as<FunctionNode>(x)) {
    if (!(fx->attrs == as<FunctionNode>(y)->attrs)) bits |= kAttrsChanged;
  } else if (auto* tx = as<TupleGetItemNode>(x)) {
    if (tx->index != as<TupleGetItemNode>(y)->index) bits |= kAttrsChanged;
  } else if (auto* kx = as<ConstantNode>(x)) {
    const NDArray& d = as<ConstantNode>(y)->data;
    if (!(kx->data.sharesStorageWith(d) || (kx->data.shape() == d.shape() && kx->data.bitwiseEqual(d)))) bits |= kDataChanged;
  }
  uint32_t na = a_.numInputs(a), nb = b_.numInputs(b);
  if (na != nb) bits |= kArityChanged | kInputsRewired;
  for (uint32_t k = 0; k < std::min(na, nb); ++k)
    if (!slotCorresponds(a, b, k)) {
      bits |= kInputsRewired;
      break;
    }
  const Type& ta = x->kind == ExprKind::Var && as<VarNode>(x)->annotation ? as<VarNode>(x)->annotation : x->checkedType;
  const Type& tb = y->kind == ExprKind::Var && as<VarNode>(y)->annotation ? as<VarNode>(y)->annotation : y->checkedType;
  if (ta && tb && ta != tb && !typeEqual(ta, tb)) bits |= kTypeChanged;
  if (!ta != !tb) bits |= kTypeUnknown;
  return bits;
}

bool Matcher::moved(uint32_t a, uint32_t b) const {
  uint32_t ca = a_.container[a], cb = b_.container[b];
  if (ca == kNone || cb == kNone) return a_.global[a] != b_.global[b];
  return a_.match[ca] != cb;
}

void Matcher::run() {
  const IRModuleNode& bm = *b_.mod;
  const IRModuleNode& am = *a_.mod;
  // Visit graph-level functions that are not the same pointer on both sides.
  auto visit = [&](SideIndex& s, const IRModuleNode& mine, const IRModuleNode& other) {
    for (const auto& [name, fn] : mine.functions) {
      int32_t g = nameIndex(name);
      Expr theirs = other.lookup(name);
      if (theirs == fn || fn->kind == ExprKind::PrimFunc) continue;
      indexFunction(s, g, fn);
    }
    aliasGlobals(s);
    buildUsers(s);
  };
  visit(b_, bm, am);
  visit(a_, am, bm);
  matchIdentity();
  matchLeaves();
  for (int round = 0; round < 4; ++round) {
    size_t found = bottomUp();
    found += topDown();
    if (!found) break;
  }
  emit();
}

namespace {
const char* stmtWhat(const tir::StmtNode* s) {
  switch (s->kind) {
    case tir::StmtKind::Store: return "store";
    case tir::StmtKind::For: return "for";
    case tir::StmtKind::LetStmt: return "let";
    case tir::StmtKind::IfThenElse: return "if";
    case tir::StmtKind::Allocate: return "allocate";
    case tir::StmtKind::AllocateConst: return "allocate_const";
    case tir::StmtKind::Seq: return "seq";
    case tir::StmtKind::Evaluate: return "evaluate";
    case tir::StmtKind::Block: return "block";
  }
  return "?";
}

/// Whether `s` only wraps the rest of the function: an allocation, or a block
/// without iteration variables (TVMScript's implicit root block).
bool isWrapper(const tir::StmtNode* s) {
  return s->kind == tir::StmtKind::Allocate || s->kind == tir::StmtKind::AllocateConst ||
         (s->kind == tir::StmtKind::Block && static_cast<const tir::BlockNode*>(s)->iterVars.empty() &&
          !static_cast<const tir::BlockNode*>(s)->init);
}

/// Coarse statement units of a PrimFunc: allocations (and a root block)
/// wrapping the body, then the top-level statements of what they wrap (loop nests, stores, ...).
std::vector<const tir::StmtNode*> stmtUnits(const PrimFuncNode* fn) {
  std::vector<const tir::StmtNode*> out;
  if (!fn || !fn->body) return out;
  const tir::StmtNode* s = fn->body.get();
  while (s && isWrapper(s)) {
    out.push_back(s);
    s = s->kind == tir::StmtKind::Allocate        ? static_cast<const tir::AllocateNode*>(s)->body.get()
        : s->kind == tir::StmtKind::AllocateConst ? static_cast<const tir::AllocateConstNode*>(s)->body.get()
                                                  : static_cast<const tir::BlockNode*>(s)->body.get();
  }
  if (!s) return out;
  if (s->kind == tir::StmtKind::Seq)
    for (const tir::Stmt& x : static_cast<const tir::SeqNode*>(s)->stmts) out.push_back(x.get());
  else
    out.push_back(s);
  return out;
}
}  // namespace

void Matcher::emitPrimFunc(FunctionEdit& f, const PrimFuncNode* before, const PrimFuncNode* after) {
  std::vector<const tir::StmtNode*> ub = stmtUnits(before), ua = stmtUnits(after);
  std::unordered_map<const tir::StmtNode*, size_t> bpos;
  for (size_t i = 0; i < ub.size(); ++i) bpos.emplace(ub[i], i);
  std::vector<char> bUsed(ub.size(), 0), aUsed(ua.size(), 0);
  std::vector<StmtEdit> out;
  for (size_t i = 0; i < ua.size(); ++i) {
    auto it = bpos.find(ua[i]);
    if (it != bpos.end() && !bUsed[it->second]) {
      bUsed[it->second] = aUsed[i] = 1;
      out.push_back({EditKind::Kept, ub[it->second], ua[i], stmtWhat(ua[i])});
    }
  }
  // Remaining statements of the same kind, in order, are updates.
  size_t j = 0;
  for (size_t i = 0; i < ua.size(); ++i) {
    if (aUsed[i]) continue;
    while (j < ub.size() && (bUsed[j] || ub[j]->kind != ua[i]->kind)) ++j;
    if (j < ub.size()) {
      bUsed[j] = aUsed[i] = 1;
      out.push_back({EditKind::Updated, ub[j], ua[i], stmtWhat(ua[i])});
      ++j;
    }
  }
  for (size_t i = 0; i < ua.size(); ++i)
    if (!aUsed[i]) out.push_back({EditKind::Inserted, nullptr, ua[i], stmtWhat(ua[i])});
  for (size_t i = 0; i < ub.size(); ++i)
    if (!bUsed[i]) out.push_back({EditKind::Deleted, ub[i], nullptr, stmtWhat(ub[i])});
  f.stmts = std::move(out);
}

namespace {
void bump(EditCounts& c, EditKind k) {
  switch (k) {
    case EditKind::Kept: ++c.kept; break;
    case EditKind::Updated: ++c.updated; break;
    case EditKind::Inserted: ++c.inserted; break;
    case EditKind::Deleted: ++c.deleted; break;
    case EditKind::Moved: ++c.moved; break;
    case EditKind::Folded: ++c.folded; break;
  }
}

bool isOpCall(const ExprNode* e) {
  auto* c = as<CallNode>(e);
  return c && c->op();
}

/// What kind of function a move went into: "Primitive", "Compiler=ccompiler", "Composite", "".
std::string functionKind(const ExprNode* fn) {
  const AttrDict* attrs = nullptr;
  if (auto* f = as<FunctionNode>(fn)) attrs = &f->attrs;
  if (!attrs) return "";
  if (auto* c = attrs->find(fn_attr::kCompiler)) return "Compiler=" + c->toString();
  if (attrs->find(fn_attr::kComposite)) return "Composite";
  if (attrs->find(fn_attr::kPrimitive)) return "Primitive";
  return "";
}
}  // namespace

void Matcher::emit() {
  ModuleEdits& m = out_;
  const IRModuleNode& bm = *b_.mod;
  const IRModuleNode& am = *a_.mod;
  m.moduleAttrsChanged = !(bm.attrs == am.attrs);
  // Renames: an added global whose function node matched a removed global's.
  std::unordered_map<int32_t, int32_t> renamedTo = renamed_;
  for (const auto& [global, root] : a_.roots) {
    uint32_t b = a_.match[root];
    if (b == kNone || b_.global[b] == global) continue;
    auto broot = b_.roots.find(b_.global[b]);
    if (broot != b_.roots.end() && broot->second == b && !am.functions.count(m.functionNames[b_.global[b]]) &&
        !bm.functions.count(m.functionNames[global]))
      renamedTo.emplace(b_.global[b], global);
  }
  std::unordered_map<int32_t, int32_t> renamedFrom;
  for (const auto& [from, to] : renamedTo) renamedFrom.emplace(to, from);
  std::map<std::string, FunctionEdit> sorted;
  for (const auto& [name, fn] : am.functions) {
    FunctionEdit f;
    f.name = name;
    Expr old = bm.lookup(name);
    f.primFunc = fn->kind == ExprKind::PrimFunc;
    if (old == fn) {
      f.kind = FunctionEdit::Kind::Kept;
      f.beforeName = name;
    } else if (old) {
      f.kind = FunctionEdit::Kind::Changed;
      f.beforeName = name;
    } else if (auto r = renamedFrom.find(nameIndex(name)); r != renamedFrom.end()) {
      f.kind = FunctionEdit::Kind::Renamed;
      f.beforeName = m.functionNames[r->second];
      old = bm.lookup(f.beforeName);
      ++m.globalsRenamed;
    } else {
      f.kind = FunctionEdit::Kind::Added;
      ++m.globalsAdded;
    }
    if (f.kind != FunctionEdit::Kind::Kept && old) {
      const AttrDict& x = functionAttrs(old);
      const AttrDict& y = functionAttrs(fn);
      for (const auto& [k, v] : x.entries())
        if (!y.find(k) || !(*y.find(k) == v)) f.attrKeysChanged.push_back(k);
      for (const auto& [k, v] : y.entries())
        if (!x.find(k)) f.attrKeysChanged.push_back(k);
    }
    if (f.primFunc && f.kind != FunctionEdit::Kind::Kept)
      emitPrimFunc(f, old ? as<PrimFuncNode>(old) : nullptr, as<PrimFuncNode>(fn));
    sorted.emplace(name, std::move(f));
  }
  for (const auto& [name, fn] : bm.functions) {
    if (am.functions.count(name) || renamedTo.count(nameIndex(name))) continue;
    FunctionEdit f;
    f.kind = FunctionEdit::Kind::Removed;
    f.beforeName = name;
    f.primFunc = fn->kind == ExprKind::PrimFunc;
    if (f.primFunc) emitPrimFunc(f, as<PrimFuncNode>(fn), nullptr);
    ++m.globalsRemoved;
    sorted.emplace(name, std::move(f));
  }
  for (auto& [name, f] : sorted) m.functions.push_back(std::move(f));
  std::unordered_map<std::string, size_t> byAfter, byBefore;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    if (!m.functions[i].name.empty()) byAfter.emplace(m.functions[i].name, i);
    if (!m.functions[i].beforeName.empty()) byBefore.emplace(m.functions[i].beforeName, i);
  }
  for (FunctionEdit& f : m.functions)
    for (const StmtEdit& st : f.stmts) bump(f.nodes, st.kind);

  // Folded: deleted nodes whose value now comes from a constant inserted in their place.
  std::vector<uint32_t> foldedInto(b_.size(), kNone);
  std::vector<uint32_t> work;
  std::unordered_set<uint32_t> takers;
  for (uint32_t c = 0; c < a_.size(); ++c) {
    if (a_.match[c] != kNone || a_.nodes[c]->kind != ExprKind::Constant) continue;
    bool folded = false;
    for (uint32_t u = a_.userStart[c]; u < a_.userStart[c + 1]; ++u) {
      uint32_t user = a_.users[u], bu = a_.match[user];
      if (bu == kNone) continue;
      bool takes = false;
      for (uint32_t k = 0; k < std::min(a_.numInputs(user), b_.numInputs(bu)); ++k) {
        if (a_.resolvedInput(user, k) != c) continue;
        uint32_t old = b_.resolvedInput(bu, k);
        if (old == kNone || b_.match[old] == kNone) takes = true;
        if (old != kNone && b_.match[old] == kNone) work.push_back(old);
      }
      if (takes && isOpCall(a_.nodes[user])) takers.insert(user);
      while (!work.empty()) {
        uint32_t x = work.back();
        work.pop_back();
        if (b_.match[x] != kNone || foldedInto[x] != kNone) continue;
        ExprKind k = b_.nodes[x]->kind;
        if (k == ExprKind::Var || k == ExprKind::GlobalVar || k == ExprKind::Function) continue;
        foldedInto[x] = c;
        if (isOpCall(b_.nodes[x])) folded = true;
        for (uint32_t j = 0; j < b_.numInputs(x); ++j) {
          uint32_t in = b_.resolvedInput(x, j);
          if (in != kNone) work.push_back(in);
        }
      }
    }
    if (folded) ++m.foldConstants;
  }
  m.newConstantInputs = static_cast<uint32_t>(takers.size());

  // Records.
  std::unordered_set<uint32_t> into, outOf;
  std::map<std::string, uint32_t> destKinds;
  m.edits.reserve(a_.size() + b_.size() / 4);
  m.afterIndex.reserve(a_.size());
  m.beforeIndex.reserve(b_.size());
  auto add = [&](const NodeEdit& e, const ExprNode* counted, int32_t global, bool afterSide) {
    uint32_t index = static_cast<uint32_t>(m.edits.size());
    m.edits.push_back(e);
    if (e.after && e.kind != EditKind::Folded) m.afterIndex.emplace(e.after, index);
    if (e.before) m.beforeIndex.emplace(e.before, index);
    bump(m.nodes, e.kind);
    if (isOpCall(counted)) bump(m.ops, e.kind);
    auto& table = afterSide ? byAfter : byBefore;
    auto it = table.find(m.functionNames[global]);
    if (it == table.end()) return;
    FunctionEdit& f = m.functions[it->second];
    bump(f.nodes, e.kind);
    if (isOpCall(counted)) bump(f.ops, e.kind);
    if (e.kind != EditKind::Kept || options_.keepAll) f.edits.push_back(index);
  };
  for (uint32_t a = 0; a < a_.size(); ++a) {
    const ExprNode* x = a_.nodes[a];
    if (x->kind == ExprKind::GlobalVar) continue;
    NodeEdit e;
    e.after = x;
    e.afterFunction = a_.global[a];
    uint32_t b = a_.match[a];
    if (b == kNone) {
      e.kind = EditKind::Inserted;
    } else {
      e.before = b_.nodes[b];
      e.beforeFunction = b_.global[b];
      e.changes = changesOf(a, b);
      if (moved(a, b)) {
        e.kind = EditKind::Moved;
        uint32_t ca = a_.container[a], cb = b_.container[b];
        if (isOpCall(x) && ca != kNone && cb != kNone) {
          // Into a function that did not exist before (a new literal or global)?
          uint32_t was = a_.match[ca];
          bool newDest = was == kNone || b_.nodes[was]->kind != ExprKind::Function ||
                         (a_.container[ca] == ca && b_.container[was] != was);
          bool oldSource = b_.match[cb] == kNone;
          if (newDest && into.insert(ca).second) ++destKinds[functionKind(a_.nodes[ca])];
          if (newDest) ++m.movedIntoOps;
          if (oldSource) {
            outOf.insert(cb);
            ++m.movedOutOfOps;
          }
        }
      } else {
        e.kind = e.changes & ~kTypeUnknown ? EditKind::Updated : EditKind::Kept;
      }
    }
    add(e, x, a_.global[a], true);
  }
  for (uint32_t b = 0; b < b_.size(); ++b) {
    const ExprNode* y = b_.nodes[b];
    if (b_.match[b] != kNone || y->kind == ExprKind::GlobalVar) continue;
    NodeEdit e;
    e.before = y;
    e.beforeFunction = b_.global[b];
    if (foldedInto[b] != kNone) {
      e.kind = EditKind::Folded;
      e.after = a_.nodes[foldedInto[b]];
      e.afterFunction = a_.global[foldedInto[b]];
    } else {
      e.kind = EditKind::Deleted;
    }
    add(e, y, b_.global[b], false);
  }
  m.movedIntoFunctions = static_cast<uint32_t>(into.size());
  m.movedOutOfFunctions = static_cast<uint32_t>(outOf.size());
  uint32_t bestCount = 0;
  for (const auto& [kind, count] : destKinds)
    if (count > bestCount) {
      bestCount = count;
      m.moveDestinationKind = kind;
    }
}

}  // namespace

std::shared_ptr<const ModuleEdits> matchModules(const IRModule& before, const IRModule& after, const MatchOptions& options) {
  auto m = std::make_shared<ModuleEdits>();
  m->before = before;
  m->after = after;
  if (!before || !after) return m;
  Matcher matcher(before, after, options, *m);
  matcher.run();
  return m;
}

}  // namespace passlab
