// The node matcher's edit script (see node_match_matcher.h): per-function
// edits (kept, changed, renamed, added, removed; PrimFuncs statement by
// statement), folds into constants, one record per node, and the counts the
// change summary reads.
#include <algorithm>
#include <map>
#include <unordered_set>

#include "core/analysis/node_match_matcher.h"
#include "core/ir/type.h"

namespace passlab::node_match_detail {

namespace {
const char* stmtWhat(const tir::StmtNode* s) { return tir::stmtKindName(s->kind); }

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
  out_.moduleAttrsChanged = !(before_.mod->attrs == after_.mod->attrs);
  emitFunctions();
  std::vector<uint32_t> foldedInto = findFolds();
  emitRecords(foldedInto);
}

std::unordered_map<int32_t, int32_t> Matcher::renamedGlobals() const {
  const IRModuleNode& bm = *before_.mod;
  const IRModuleNode& am = *after_.mod;
  std::unordered_map<int32_t, int32_t> renamedTo = renamed_;
  for (const auto& [global, root] : after_.roots) {
    uint32_t b = after_.match[root];
    if (b == kNone || before_.global[b] == global) continue;
    auto broot = before_.roots.find(before_.global[b]);
    if (broot != before_.roots.end() && broot->second == b && !am.functions.count(out_.functionNames[before_.global[b]]) &&
        !bm.functions.count(out_.functionNames[global]))
      renamedTo.emplace(before_.global[b], global);
  }
  return renamedTo;
}

void Matcher::emitFunctions() {
  ModuleEdits& m = out_;
  const IRModuleNode& bm = *before_.mod;
  const IRModuleNode& am = *after_.mod;
  std::unordered_map<int32_t, int32_t> renamedTo = renamedGlobals();
  std::unordered_map<int32_t, int32_t> renamedFrom;
  for (const auto& [from, to] : renamedTo) renamedFrom.emplace(to, from);
  std::map<std::string, FunctionEdit> sorted;
  for (const auto& [name, fn] : am.functions) sorted.emplace(name, afterFunctionEdit(name, fn, renamedFrom));
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
  for (size_t i = 0; i < m.functions.size(); ++i) {
    if (!m.functions[i].name.empty()) functionByAfter_.emplace(m.functions[i].name, i);
    if (!m.functions[i].beforeName.empty()) functionByBefore_.emplace(m.functions[i].beforeName, i);
  }
  for (FunctionEdit& f : m.functions)
    for (const StmtEdit& st : f.stmts) bump(f.nodes, st.kind);
}

FunctionEdit Matcher::afterFunctionEdit(const std::string& name, const Expr& fn, const std::unordered_map<int32_t, int32_t>& renamedFrom) {
  ModuleEdits& m = out_;
  FunctionEdit f;
  f.name = name;
  Expr old = before_.mod->lookup(name);
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
    old = before_.mod->lookup(f.beforeName);
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
  if (f.primFunc && f.kind != FunctionEdit::Kind::Kept) emitPrimFunc(f, old ? as<PrimFuncNode>(old) : nullptr, as<PrimFuncNode>(fn));
  return f;
}

std::vector<uint32_t> Matcher::findFolds() {
  std::vector<uint32_t> foldedInto(before_.size(), kNone);
  std::vector<uint32_t> work;
  std::unordered_set<uint32_t> takers;
  for (uint32_t c = 0; c < after_.size(); ++c) {
    if (after_.match[c] != kNone || after_.nodes[c]->kind != ExprKind::Constant) continue;
    bool folded = false;
    for (uint32_t u = after_.userStart[c]; u < after_.userStart[c + 1]; ++u) {
      uint32_t user = after_.users[u], bu = after_.match[user];
      if (bu == kNone) continue;
      bool takes = false;
      for (uint32_t k = 0; k < std::min(after_.numInputs(user), before_.numInputs(bu)); ++k) {
        if (after_.resolvedInput(user, k) != c) continue;
        uint32_t old = before_.resolvedInput(bu, k);
        if (old == kNone || before_.match[old] == kNone) takes = true;
        if (old != kNone && before_.match[old] == kNone) work.push_back(old);
      }
      if (takes && after_.isOpCall(user)) takers.insert(user);
      folded = foldInputsInto(c, work, foldedInto) || folded;
    }
    if (folded) ++out_.foldConstants;
  }
  out_.newConstantInputs = static_cast<uint32_t>(takers.size());
  return foldedInto;
}

bool Matcher::foldInputsInto(uint32_t c, std::vector<uint32_t>& work, std::vector<uint32_t>& foldedInto) const {
  bool folded = false;
  while (!work.empty()) {
    uint32_t x = work.back();
    work.pop_back();
    if (before_.match[x] != kNone || foldedInto[x] != kNone) continue;
    ExprKind k = before_.nodes[x]->kind;
    if (k == ExprKind::Var || k == ExprKind::GlobalVar || k == ExprKind::Function) continue;
    foldedInto[x] = c;
    if (before_.isOpCall(x)) folded = true;
    for (uint32_t j = 0; j < before_.numInputs(x); ++j) {
      uint32_t in = before_.resolvedInput(x, j);
      if (in != kNone) work.push_back(in);
    }
  }
  return folded;
}

void Matcher::emitRecords(const std::vector<uint32_t>& foldedInto) {
  ModuleEdits& m = out_;
  MoveTally moves;
  functionOfAfter_.assign(m.functionNames.size(), -1);
  functionOfBefore_.assign(m.functionNames.size(), -1);
  for (size_t g = 0; g < m.functionNames.size(); ++g) {
    if (auto it = functionByAfter_.find(m.functionNames[g]); it != functionByAfter_.end()) functionOfAfter_[g] = static_cast<int64_t>(it->second);
    if (auto it = functionByBefore_.find(m.functionNames[g]); it != functionByBefore_.end()) functionOfBefore_[g] = static_cast<int64_t>(it->second);
  }
  m.edits.reserve(after_.size() + before_.size() / 4);
  // Record index of each node id; the side indexes' node -> id tables then
  // become ModuleEdits' node -> record tables by one sweep each (remap),
  // instead of hashing every node a second time.
  std::vector<uint32_t> recordOfAfter(after_.size(), kNone), recordOfBefore(before_.size(), kNone);
  moves.into.assign(after_.size(), 0);
  for (uint32_t a = 0; a < after_.size(); ++a) {
    if (after_.nodes[a]->kind == ExprKind::GlobalVar) continue;
    recordOfAfter[a] = addRecord(afterRecord(a, moves), after_.isOpCall(a), after_.global[a], true);
    if (after_.match[a] != kNone) recordOfBefore[after_.match[a]] = recordOfAfter[a];
  }
  for (uint32_t b = 0; b < before_.size(); ++b)
    if (before_.match[b] == kNone && before_.nodes[b]->kind != ExprKind::GlobalVar)
      recordOfBefore[b] = addRecord(unmatchedBeforeRecord(b, foldedInto), before_.isOpCall(b), before_.global[b], false);
  after_.ids.remap(recordOfAfter);
  before_.ids.remap(recordOfBefore);
  m.afterIndex = std::move(after_.ids);
  m.beforeIndex = std::move(before_.ids);
  m.movedIntoFunctions = moves.intoCount;
  m.movedOutOfFunctions = static_cast<uint32_t>(moves.outOf.size());
  uint32_t bestCount = 0;
  for (const auto& [kind, count] : moves.destinationKinds)
    if (count > bestCount) {
      bestCount = count;
      m.moveDestinationKind = kind;
    }
}

NodeEdit Matcher::afterRecord(uint32_t a, MoveTally& moves) {
  NodeEdit e;
  e.after = after_.nodes[a];
  e.afterFunction = after_.global[a];
  uint32_t b = after_.match[a];
  if (b == kNone) {
    e.kind = EditKind::Inserted;
    return e;
  }
  e.before = before_.nodes[b];
  e.beforeFunction = before_.global[b];
  e.changes = changesOf(a, b);
  if (moved(a, b)) {
    e.kind = EditKind::Moved;
    tallyMove(a, b, moves);
  } else {
    e.kind = e.changes & ~kTypeUnknown ? EditKind::Updated : EditKind::Kept;
  }
  return e;
}

NodeEdit Matcher::unmatchedBeforeRecord(uint32_t b, const std::vector<uint32_t>& foldedInto) const {
  NodeEdit e;
  e.before = before_.nodes[b];
  e.beforeFunction = before_.global[b];
  if (foldedInto[b] != kNone) {
    e.kind = EditKind::Folded;
    e.after = after_.nodes[foldedInto[b]];
    e.afterFunction = after_.global[foldedInto[b]];
  } else {
    e.kind = EditKind::Deleted;
  }
  return e;
}

void Matcher::tallyMove(uint32_t a, uint32_t b, MoveTally& moves) {
  uint32_t ca = after_.container[a], cb = before_.container[b];
  if (!after_.isOpCall(a) || ca == kNone || cb == kNone) return;
  // Into a function that did not exist before (a new literal or global)?
  uint32_t was = after_.match[ca];
  bool newDest = was == kNone || before_.nodes[was]->kind != ExprKind::Function || (after_.container[ca] == ca && before_.container[was] != was);
  bool oldSource = before_.match[cb] == kNone;
  if (newDest && !moves.into[ca]) {
    moves.into[ca] = 1;
    ++moves.intoCount;
    ++moves.destinationKinds[functionKind(after_.nodes[ca])];
  }
  if (newDest) ++out_.movedIntoOps;
  if (oldSource) {
    moves.outOf.insert(cb);
    ++out_.movedOutOfOps;
  }
}

uint32_t Matcher::addRecord(const NodeEdit& e, bool op, int32_t global, bool afterSide) {
  ModuleEdits& m = out_;
  uint32_t index = static_cast<uint32_t>(m.edits.size());
  m.edits.push_back(e);
  bump(m.nodes, e.kind);
  if (op) bump(m.ops, e.kind);
  const std::vector<int64_t>& table = afterSide ? functionOfAfter_ : functionOfBefore_;
  if (global < 0 || static_cast<size_t>(global) >= table.size() || table[global] < 0) return index;
  FunctionEdit& f = m.functions[table[global]];
  bump(f.nodes, e.kind);
  if (op) bump(f.ops, e.kind);
  if (e.kind != EditKind::Kept || options_.keepAll) f.edits.push_back(index);
  return index;
}

}  // namespace passlab::node_match_detail
