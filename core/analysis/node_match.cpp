// The node matcher (see node_match.h): the ModuleEdits accessors, indexing
// and the matching phases; the edit script is node_match_edits.cpp, the
// summaries and aligned printing core/trace/change_summary.cpp.
//
// Every traversal is iterative: a 100k-op chain must not touch the C++ stack.
#include "core/analysis/node_match.h"
#include "core/analysis/node_match_matcher.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_set>

#include "core/ir/type.h"

namespace passlab {

const char* editKindName(EditKind k) {
  switch (k) {
    case EditKind::Kept: return "kept";
    case EditKind::Updated: return "updated";
    case EditKind::Inserted: return "inserted";
    case EditKind::Deleted: return "deleted";
    case EditKind::Moved: return "moved";
    case EditKind::Folded: return "folded";
  }
  return "?";
}

EditCounts& EditCounts::operator+=(const EditCounts& o) {
  kept += o.kept;
  updated += o.updated;
  inserted += o.inserted;
  deleted += o.deleted;
  moved += o.moved;
  folded += o.folded;
  return *this;
}

const NodeEdit* ModuleEdits::findAfter(const ExprNode* node) const {
  uint32_t i = afterIndex.get(node);
  return i == NodeIdMap::kAbsent ? nullptr : &edits[i];
}

const NodeEdit* ModuleEdits::findBefore(const ExprNode* node) const {
  uint32_t i = beforeIndex.get(node);
  return i == NodeIdMap::kAbsent ? nullptr : &edits[i];
}

const ExprNode* ModuleEdits::beforeOf(const ExprNode* a) const {
  if (const NodeEdit* e = findAfter(a)) return e->before;
  return a;
}

const ExprNode* ModuleEdits::afterOf(const ExprNode* b) const {
  if (const NodeEdit* e = findBefore(b)) return e->kind == EditKind::Folded ? nullptr : e->after;
  return b;
}

const FunctionEdit* ModuleEdits::function(const std::string& name) const {
  for (const FunctionEdit& f : functions)
    if (f.name == name) return &f;
  for (const FunctionEdit& f : functions)
    if (f.name.empty() && f.beforeName == name) return &f;
  return nullptr;
}

const std::string& ModuleEdits::functionName(int32_t index) const {
  static const std::string empty;
  return index < 0 || static_cast<size_t>(index) >= functionNames.size() ? empty : functionNames[index];
}

namespace node_match_detail {

namespace {

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

}  // namespace

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
      if (!e || !indexed(e->kind) || s.ids.has(e)) continue;
      stack.push_back({e, true});
      kids.clear();
      if (auto* fnNode = as<FunctionNode>(e))
        for (const Var& p : fnNode->params) kids.push_back(p.get());
      forEachInput(e, [&](const ExprNode* c) { kids.push_back(c); });
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back({*it, false});
      continue;
    }
    uint32_t id = s.size();
    if (!s.ids.insert(e, id)) continue;  // reached again through another user
    s.nodes.push_back(e);
    forEachInput(e, [&](const ExprNode* c) {
      s.inputs.push_back(s.ids.get(c));
    });
    s.inputStart.push_back(static_cast<uint32_t>(s.inputs.size()));
    s.global.push_back(global);
    s.container.push_back(kNone);
    s.alias.push_back(kNone);
    s.binder.push_back(kNone);
    const OpDef* op = e->kind == ExprKind::Call ? as<CallNode>(e)->op() : nullptr;
    s.label.push_back(static_cast<uint32_t>(e->kind) << 16 | (op ? static_cast<uint32_t>(op->id) + 1 : 0u));
    auto bind = [&s](const Expr& var, const Expr& value) {
      uint32_t v = s.ids.get(var.get()), x = s.ids.get(value.get());
      if (v != kNone && x != kNone && s.binder[x] == kNone) s.binder[x] = v;
    };
    if (auto* let = as<LetNode>(e)) bind(let->var, let->value);
    if (auto* df = as<DataflowNode>(e))
      for (const Binding& b : df->bindings) bind(b.var, b.value);
    if (auto* c = as<CallNode>(e)) {
      if (auto* gv = as<GlobalVarNode>(c->callee)) {
        callSites_[nameIndex(gv->name)].push_back(id);
      } else if (auto* lit = as<FunctionNode>(c->callee)) {
        // The call stands for the literal's result, and the literal's parameters
        // for the call's arguments: ops moved into or out of a function still
        // see their original inputs.
        uint32_t body = s.ids.get(lit->body.get());
        if (body != kNone) s.alias[id] = body;
        for (size_t i = 0; i < lit->params.size() && i < c->args.size(); ++i) {
          uint32_t p = s.ids.get(lit->params[i].get());
          uint32_t a = s.ids.get(c->args[i].get());
          if (p != kNone && a != kNone && s.alias[p] == kNone && p != a) s.alias[p] = a;
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
    auto setKid = [&](uint32_t k) {
      if (k != kNone && k >= first && s.container[k] == kNone) s.container[k] = inner;
    };
    if (auto* fnNode = as<FunctionNode>(s.nodes[id]))
      for (const Var& p : fnNode->params) setKid(s.ids.get(p.get()));
    // The inputs' ids are already in s.inputs (forEachInput's order): no probing.
    for (uint32_t k = s.inputStart[id]; k < s.inputStart[id + 1]; ++k) setKid(s.inputs[k]);
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
      uint32_t p = s.ids.get(fn->params[i].get());
      uint32_t a = s.ids.get(call->args[i].get());
      if (p != kNone && a != kNone && s.alias[p] == kNone) s.alias[p] = a;
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
  s.openUser.assign(s.userStart.begin(), s.userStart.end() - 1);
}

bool Matcher::sameLabel(uint32_t a, uint32_t b) const {
  // Same kind and, for calls, the same op (or both not ops); globals are matched by name only.
  static constexpr uint32_t kGlobalVar = static_cast<uint32_t>(ExprKind::GlobalVar) << 16;
  return after_.label[a] == before_.label[b] && (after_.label[a] & 0xffff0000u) != kGlobalVar;
}

bool Matcher::corresponds(uint32_t a, uint32_t b) const {
  if (a == kNone || b == kNone) return false;
  if (after_.match[a] == b) return true;
  auto* ga = as<GlobalVarNode>(after_.nodes[a]);
  auto* gb = as<GlobalVarNode>(before_.nodes[b]);
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
  uint32_t ra = after_.input(a, k), rb = before_.input(b, k);
  uint32_t xa = after_.resolve(ra), xb = before_.resolve(rb);
  return corresponds(xa, xb) || corresponds(ra, rb) || (ra != xa && corresponds(ra, xb)) ||
         (rb != xb && corresponds(xa, rb));
}

uint32_t Matcher::score(uint32_t a, uint32_t b) const {
  uint32_t n = std::min(after_.numInputs(a), before_.numInputs(b)), hits = 0;
  for (uint32_t k = 0; k < n; ++k) hits += slotCorresponds(a, b, k);
  return hits;
}

void Matcher::matchIdentity() {
  for (uint32_t a = 0; a < after_.size(); ++a) {
    if (after_.nodes[a]->kind == ExprKind::GlobalVar) continue;
    uint32_t b = before_.ids.get(after_.nodes[a]);
    if (b != kNone && before_.match[b] == kNone) link(a, b);
  }
  // A global whose function node is now under another name was renamed.
  for (const auto& [global, root] : after_.roots) {
    uint32_t b = after_.match[root];
    if (b == kNone || before_.global[b] == global) continue;
    auto broot = before_.roots.find(before_.global[b]);
    if (broot != before_.roots.end() && broot->second == b && !after_.mod->functions.count(out_.functionNames[before_.global[b]]))
      renamed_[before_.global[b]] = global;
  }
}

bool Matcher::matchParams(uint32_t a, uint32_t b) {
  auto* fa = as<FunctionNode>(after_.nodes[a]);
  auto* fb = as<FunctionNode>(before_.nodes[b]);
  if (!fa || !fb) return false;
  bool any = false;
  for (size_t i = 0; i < fa->params.size() && i < fb->params.size(); ++i) {
    uint32_t pa = after_.ids.get(fa->params[i].get());
    uint32_t pb = before_.ids.get(fb->params[i].get());
    if (pa == kNone || pb == kNone) continue;
    if (after_.match[pa] != kNone || before_.match[pb] != kNone) continue;
    link(pa, pb);
    any = true;
  }
  return any;
}

void Matcher::matchLeaves() {
  // Same-named global functions and their parameters.
  for (const auto& [global, root] : after_.roots) {
    auto b = before_.roots.find(global);
    if (b == before_.roots.end()) continue;
    if (after_.match[root] == kNone && before_.match[b->second] == kNone) link(root, b->second);
    if (after_.match[root] == b->second) matchParams(root, b->second);
  }
  // Constants by their bytes.
  std::unordered_map<size_t, std::vector<uint32_t>> buckets;
  auto key = [](const NDArray& d) { return d.contentHash() * 31 + d.ndim(); };
  for (uint32_t b = 0; b < before_.size(); ++b)
    if (before_.match[b] == kNone)
      if (auto* c = as<ConstantNode>(before_.nodes[b])) buckets[key(c->data)].push_back(b);
  if (buckets.empty()) return;
  for (uint32_t a = 0; a < after_.size(); ++a) {
    auto* c = as<ConstantNode>(after_.nodes[a]);
    if (!c || after_.match[a] != kNone) continue;
    auto it = buckets.find(key(c->data));
    if (it == buckets.end()) continue;
    for (uint32_t b : it->second) {
      if (before_.match[b] != kNone) continue;
      const NDArray& d = as<ConstantNode>(before_.nodes[b])->data;
      if (d.dtype() == c->data.dtype() && d.shape() == c->data.shape() && d.bitwiseEqual(c->data)) {
        link(a, b);
        break;
      }
    }
  }
}

size_t Matcher::bottomUp() {
  size_t found = 0;
  // At most kScan candidates of the right label per input, among at most kVisit
  // users: a hub (a weight shared by every conv of a 100k-op chain) has
  // thousands of users, mostly matched already, and walking them all for each
  // node made matching after FuseOps quadratic. The node's other inputs have
  // few users and still find its partner.
  constexpr int kScan = 64, kVisit = 256;
  for (uint32_t a = 0; a < after_.size(); ++a) {
    uint32_t na = after_.numInputs(a);
    if (after_.match[a] != kNone || na == 0) continue;
    uint32_t best = kNone, bestScore = 0;
    for (uint32_t k = 0; k < 2 * na; ++k) {
      // A candidate in the same global whose every input corresponds cannot be
      // beaten: the remaining inputs (often a hub, a weight every conv reads)
      // are not scanned.
      if (best != kNone && bestScore >= na && before_.global[best] == after_.global[a]) break;
      uint32_t in = k < na ? after_.resolvedInput(a, k) : after_.input(a, k - na);
      if (k >= na && in == after_.resolvedInput(a, k - na)) continue;
      if (in == kNone || after_.match[in] == kNone) continue;
      uint32_t bin = after_.match[in];
      int scanned = 0, visited = 0;
      uint32_t& open = before_.openUser[bin];
      while (open < before_.userStart[bin + 1] && before_.match[before_.users[open]] != kNone) ++open;
      for (uint32_t u = open; u < before_.userStart[bin + 1] && scanned < kScan && visited++ < kVisit; ++u) {
        uint32_t c = before_.users[u];
        if (before_.match[c] != kNone || !sameLabel(a, c)) continue;
        ++scanned;
        if (!options_.moves && before_.global[c] != after_.global[a]) continue;
        uint32_t sc = score(a, c);
        bool better = sc > bestScore || (sc == bestScore && best != kNone && before_.global[best] != after_.global[a] &&
                                         before_.global[c] == after_.global[a]);
        if (better) {
          best = c;
          bestScore = sc;
        }
      }
    }
    if (best == kNone) continue;
    uint32_t n = std::max(na, before_.numInputs(best));
    if (bestScore * 2 < n) continue;
    link(a, best);
    ++found;
  }
  return found;
}

size_t Matcher::topDown() {
  size_t found = 0;
  for (uint32_t a = after_.size(); a-- > 0;) {
    uint32_t b = after_.match[a];
    if (b == kNone) continue;
    if (after_.nodes[a]->kind == ExprKind::Function) found += matchParams(a, b);
    uint32_t n = std::min(after_.numInputs(a), before_.numInputs(b));
    for (uint32_t k = 0; k < n; ++k) {
      uint32_t x = after_.resolvedInput(a, k), y = before_.resolvedInput(b, k);
      if (tryPair(x, y) || tryPair(after_.input(a, k), before_.input(b, k))) {
        ++found;
        continue;
      }
      // An op inserted or removed in between (a cast, a layout_transform): look one level through it.
      // Only between calls: a folded constant must not be paired with what fed the folded op.
      if (x != kNone && y != kNone && after_.match[x] == kNone && before_.match[y] == kNone && as<CallNode>(after_.nodes[x]) &&
          as<CallNode>(before_.nodes[y])) {
        uint32_t xi = after_.numInputs(x) >= 1 ? after_.resolvedInput(x, 0) : kNone;
        uint32_t yi = before_.numInputs(y) >= 1 ? before_.resolvedInput(y, 0) : kNone;
        if (xi != kNone && as<CallNode>(after_.nodes[xi]) && tryPair(xi, y)) ++found;
        else if (yi != kNone && as<CallNode>(before_.nodes[yi]) && tryPair(x, yi)) ++found;
      }
    }
  }
  return found;
}

bool Matcher::tryPair(uint32_t x, uint32_t y) {
  if (x == kNone || y == kNone || after_.match[x] != kNone || before_.match[y] != kNone || !sameLabel(x, y)) return false;
  if (!options_.moves && after_.global[x] != before_.global[y]) return false;
  link(x, y);
  return true;
}

uint8_t Matcher::changesOf(uint32_t a, uint32_t b) const {
  const ExprNode* x = after_.nodes[a];
  const ExprNode* y = before_.nodes[b];
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
  uint32_t na = after_.numInputs(a), nb = before_.numInputs(b);
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
  uint32_t ca = after_.container[a], cb = before_.container[b];
  if (ca == kNone || cb == kNone) return after_.global[a] != before_.global[b];
  return after_.match[ca] != cb;
}

void Matcher::run() {
  const IRModuleNode& bm = *before_.mod;
  const IRModuleNode& am = *after_.mod;
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
  visit(before_, bm, am);
  // The after side is usually about as big as the before side: size its table
  // once instead of growing it through every power of two.
  after_.ids.reserve(before_.size());
  visit(after_, am, bm);
  matchIdentity();
  matchLeaves();
  for (int round = 0; round < 4; ++round) {
    size_t found = bottomUp();
    found += topDown();
    if (!found) break;
  }
  emit();
}

}  // namespace node_match_detail

std::shared_ptr<const ModuleEdits> matchModules(const IRModule& before, const IRModule& after, const MatchOptions& options) {
  auto m = std::make_shared<ModuleEdits>();
  m->before = before;
  m->after = after;
  if (!before || !after) return m;
  node_match_detail::Matcher matcher(before, after, options, *m);
  matcher.run();
  return m;
}

}  // namespace passlab
