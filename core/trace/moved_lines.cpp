#include "core/trace/moved_lines.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include "core/ir/functor.h"
#include "core/analysis/node_match.h"
#include "core/trace/diff_views.h"

namespace passlab {

namespace {

/// What the nodes printed on one line say about it.
enum class LineVerdict : uint8_t { None, Move, Change };

LineVerdict combine(LineVerdict a, LineVerdict b) { return std::max(a, b); }

/// A move with nothing else changed (a type known on one side only is not a change).
bool cleanMove(const NodeEdit& e) { return e.kind == EditKind::Moved && (e.changes & ~kTypeUnknown) == 0; }

class Classifier {
 public:
  explicit Classifier(const ModuleEdits& m) : m_(m) {}

  /// Verdict per 1-based line of one side's print.
  std::vector<LineVerdict> verdicts(const PrintedModule& printed, bool before) {
    size_t lines = static_cast<size_t>(std::count(printed.text.begin(), printed.text.end(), '\n')) + 2;
    std::vector<LineVerdict> out(lines, LineVerdict::None);
    auto mark = [&](uint32_t line, LineVerdict v) {
      if (line < out.size()) out[line] = combine(out[line], v);
    };
    printed.nodes.forEachRange([&](const void* key, const TextRange& range) {
      // Keys are graph nodes, functions or TIR statements: only matched graph
      // nodes have a record, and only the record's pointers are dereferenced.
      const auto* node = static_cast<const ExprNode*>(key);
      const NodeEdit* e = before ? m_.findBefore(node) : m_.findAfter(node);
      if (!e || e->kind == EditKind::Kept) {
        // A kept node (LambdaLifting reuses a literal's body as the global's):
        // remember where its counterpart prints, in case its line moved.
        const ExprNode* other = e ? (before ? e->after : e->before) : node;
        if (other && range.line < out.size()) {
          std::vector<const ExprNode*>& partner = keptPartner(before);
          if (partner.size() < out.size()) partner.resize(out.size(), nullptr);
          if (!partner[range.line]) partner[range.line] = other;
        }
        return;
      }
      const ExprNode* self = before ? e->before : e->after;
      if (!self || self != node) return;
      LineVerdict v = verdictOf(*e, self, before);
      if (v == LineVerdict::None) return;
      mark(range.line, v);
      // A function's closing line belongs to it (a group's `}` is a bracket too);
      // a function that moved and got attributes (a lifted global's
      // global_symbol) shows them on its header, not on its `}`.
      if (self->kind == ExprKind::Function && range.endLine > range.line) {
        bool attrsOnly = e->kind == EditKind::Moved && (e->changes & ~(kAttrsChanged | kTypeUnknown)) == 0;
        mark(range.endLine, attrsOnly ? LineVerdict::Move : v);
      }
    });
    return out;
  }

 private:
  LineVerdict verdictOf(const NodeEdit& e, const ExprNode* self, bool before) {
    switch (e.kind) {
      case EditKind::Kept: return LineVerdict::None;
      case EditKind::Moved: return cleanMove(e) ? LineVerdict::Move : LineVerdict::Change;
      case EditKind::Updated: return sameCallOfMovedFunction(e) ? LineVerdict::Move : LineVerdict::Change;
      case EditKind::Folded: return LineVerdict::Change;
      case EditKind::Inserted:
      case EditKind::Deleted: break;
    }
    // A parameter is part of its function's header line: it says nothing of its own.
    if (self->kind == ExprKind::Var) return LineVerdict::None;
    if (self->kind == ExprKind::Function) return isGroup(self, before) ? LineVerdict::Move : LineVerdict::Change;
    if (auto* call = as<CallNode>(self)) {
      const ExprNode* callee = call->callee.get();
      if (callee && callee->kind == ExprKind::Function) return isGroup(callee, before) ? LineVerdict::Move : LineVerdict::Change;
      if (auto* gv = callee && callee->kind == ExprKind::GlobalVar ? static_cast<const GlobalVarNode*>(callee) : nullptr) {
        const IRModule& mod = before ? m_.before : m_.after;
        Expr fn = mod->lookup(gv->name);
        if (fn && fn->kind == ExprKind::Function) {
          const NodeEdit* fe = before ? m_.findBefore(fn.get()) : m_.findAfter(fn.get());
          // The global must itself be new (or gone): a call of an existing function is a real insertion.
          bool oneSided = fe && (fe->kind == EditKind::Inserted || fe->kind == EditKind::Deleted);
          return oneSided && isGroup(fn.get(), before) ? LineVerdict::Move : LineVerdict::Change;
        }
      }
    }
    return LineVerdict::Change;
  }

  /// The function a call's callee names: the literal itself, or a global's definition.
  const ExprNode* calleeFunction(const CallNode& c, bool before) const {
    const ExprNode* callee = c.callee.get();
    if (!callee) return nullptr;
    if (callee->kind == ExprKind::Function) return callee;
    if (callee->kind == ExprKind::GlobalVar) {
      const IRModule& mod = before ? m_.before : m_.after;
      Expr fn = mod->lookup(static_cast<const GlobalVarNode*>(callee)->name);
      return fn ? fn.get() : nullptr;
    }
    return nullptr;
  }

  /// An updated call that still applies the same function to the same
  /// arguments, the function having only moved (LambdaLifting turns `%0(%x)`
  /// of a literal into `@main_lifted(%x)`; Inline the reverse): a regroup, not a rewrite.
  bool sameCallOfMovedFunction(const NodeEdit& e) const {
    if ((e.changes & ~(kInputsRewired | kTypeUnknown)) != 0) return false;
    auto* b = as<CallNode>(e.before);
    auto* a = as<CallNode>(e.after);
    if (!b || !a || b->args.size() != a->args.size()) return false;
    const ExprNode* fb = calleeFunction(*b, true);
    const ExprNode* fa = calleeFunction(*a, false);
    if (!fb || !fa || (fb != fa && m_.afterOf(fb) != fa)) return false;
    for (size_t i = 0; i < a->args.size(); ++i)
      if (b->args[i] != a->args[i] && m_.afterOf(b->args[i].get()) != a->args[i].get()) return false;
    return true;
  }

  /// A function literal or global the pass created (or dissolved) that only
  /// holds ops it moved there (or out of there): a group bracket.
  bool isGroup(const ExprNode* fn, bool before) {
    auto [it, inserted] = groups_.try_emplace(fn, false);
    if (!inserted) return it->second;
    size_t ops = 0;
    bool clean = true;
    // A non-owning handle: the module owns the node for as long as the edits live.
    Expr root(std::shared_ptr<const ExprNode>(), fn);
    postOrderVisit(root, [&](const Expr& x) {
      if (!clean || x.get() == fn) return;
      const NodeEdit* e = before ? m_.findBefore(x.get()) : m_.findAfter(x.get());
      auto* c = as<CallNode>(x);
      bool op = c && c->callee && c->callee->kind == ExprKind::Op;
      if (op) ++ops;
      if (!e) return;
      if (x->kind == ExprKind::Var) return;  // the group's parameters are new by definition
      if (e->kind == EditKind::Kept) return;
      if (!cleanMove(*e)) clean = false;
    });
    it->second = clean && ops > 0;
    return it->second;
  }

 public:
  /// Line → the counterpart of a kept node printed on it (first one wins).
  /// By line (null: none); empty when no line has one.
  std::vector<const ExprNode*>& keptPartner(bool before) { return before ? keptBefore_ : keptAfter_; }

 private:
  const ModuleEdits& m_;
  std::unordered_map<const ExprNode*, bool> groups_;
  std::vector<const ExprNode*> keptBefore_, keptAfter_;
};

/// The function (by PrintedModule::functionLines) each 1-based line belongs to ("" before the first).
std::vector<std::string> functionOfLines(const PrintedModule& p, size_t lines) {
  std::vector<std::pair<uint32_t, std::string>> starts;
  for (const auto& [name, line] : p.functionLines) starts.emplace_back(line, name);
  std::sort(starts.begin(), starts.end());
  std::vector<std::string> out(lines + 2);
  size_t k = 0;
  std::string current;
  for (uint32_t l = 1; l < out.size(); ++l) {
    while (k < starts.size() && starts[k].first <= l) current = starts[k++].second;
    out[l] = current;
  }
  return out;
}

std::string_view trimmed(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  return b == std::string_view::npos ? std::string_view() : s.substr(b);
}

/// Offsets of the starts of each line of `text` (index 0 unused: lines are 1-based),
/// plus the end of the text.
std::vector<size_t> lineStarts(const std::string& text) {
  std::vector<size_t> starts{0, 0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' && i + 1 < text.size()) starts.push_back(i + 1);
  starts.push_back(text.size() + (text.empty() || text.back() == '\n' ? 0 : 1));
  return starts;
}

/// One function's lines (or the preamble before the first).
struct Chunk {
  std::string key;
  uint32_t first = 1, last = 0;  // 1-based, inclusive; last < first when empty
};

std::vector<Chunk> chunksOf(const PrintedModule& printed, size_t lineCount,
                            const std::unordered_map<std::string, std::string>& rename) {
  std::vector<std::pair<uint32_t, std::string>> starts;
  for (const auto& [name, line] : printed.functionLines) {
    auto r = rename.find(name);
    starts.emplace_back(line, r == rename.end() ? name : r->second);
  }
  std::sort(starts.begin(), starts.end());
  std::vector<Chunk> out;
  // The preamble's key cannot be a global's name (names never hold a space).
  out.push_back({" preamble", 1, starts.empty() ? static_cast<uint32_t>(lineCount) : starts.front().first - 1});
  for (size_t i = 0; i < starts.size(); ++i)
    out.push_back({starts[i].second, starts[i].first,
                   i + 1 < starts.size() ? starts[i + 1].first - 1 : static_cast<uint32_t>(lineCount)});
  return out;
}

}  // namespace

void markMovedLines(const ModuleEdits& edits, const PrintedModule& before, const PrintedModule& after,
                    std::vector<DiffLine>& lines) {
  Classifier c(edits);
  std::vector<LineVerdict> old = c.verdicts(before, true), now = c.verdicts(after, false);
  for (DiffLine& l : lines) {
    if (l.kind == DiffLine::Kind::Removed && l.oldLine < old.size()) l.moved = old[l.oldLine] == LineVerdict::Move;
    if (l.kind == DiffLine::Kind::Added && l.newLine < now.size()) l.moved = now[l.newLine] == LineVerdict::Move;
  }
  // A line of kept nodes only that is removed here and added elsewhere moved
  // verbatim, or into another global (its parameters renamed there).
  std::vector<DiffLine*> removedAt(old.size(), nullptr), addedAt(now.size(), nullptr);
  for (DiffLine& l : lines) {
    if (l.kind == DiffLine::Kind::Removed && l.oldLine < old.size()) removedAt[l.oldLine] = &l;
    if (l.kind == DiffLine::Kind::Added && l.newLine < now.size()) addedAt[l.newLine] = &l;
  }
  std::vector<std::string> oldFn = functionOfLines(before, old.size()), newFn = functionOfLines(after, now.size());
  auto partnerLine = [](const PrintedModule& p, const ExprNode* n) -> uint32_t { return p.nodes.line(n); };
  std::vector<std::pair<uint32_t, uint32_t>> movedPairs;
  const std::vector<const ExprNode*>& keptBefore = c.keptPartner(true);
  for (uint32_t line = 0; line < keptBefore.size(); ++line) {
    const ExprNode* other = keptBefore[line];
    if (!other) continue;
    if (old[line] != LineVerdict::None || !removedAt[line]) continue;
    uint32_t to = partnerLine(after, other);
    if (to == 0 || to >= now.size() || !addedAt[to] || now[to] == LineVerdict::Change) continue;
    if (oldFn[line] != newFn[to] || trimmed(removedAt[line]->text) == trimmed(addedAt[to]->text)) movedPairs.emplace_back(line, to);
  }
  for (const auto& [from, to] : movedPairs) {
    removedAt[from]->moved = true;
    addedAt[to]->moved = true;
  }
  // A blank line between moved functions goes with them (the separator of a lifted global).
  auto blank = [](const DiffLine& l) { return trimmed(l.text).empty(); };
  for (size_t i = 0; i < lines.size(); ++i) {
    DiffLine& l = lines[i];
    if (l.kind == DiffLine::Kind::Same || l.moved || !blank(l)) continue;
    auto movedNeighbour = [&](long step) {
      for (long j = static_cast<long>(i) + step; j >= 0 && j < static_cast<long>(lines.size()); j += step) {
        const DiffLine& n = lines[static_cast<size_t>(j)];
        if (n.kind == DiffLine::Kind::Same) return false;
        if (!blank(n)) return n.moved;
      }
      return false;
    };
    l.moved = movedNeighbour(-1) || movedNeighbour(1);
  }
}

std::vector<DiffLine> diffAlignedPrints(const ModuleEdits& edits, const PrintedModule& before, const PrintedModule& after) {
  std::vector<size_t> oldStarts = lineStarts(before.text), newStarts = lineStarts(after.text);
  const size_t oldCount = before.text.empty() ? 0 : oldStarts.size() - 2;
  const size_t newCount = after.text.empty() ? 0 : newStarts.size() - 2;
  // A renamed global is keyed by its after name on both sides.
  std::unordered_map<std::string, std::string> rename;
  for (const FunctionEdit& f : edits.functions)
    if (f.kind == FunctionEdit::Kind::Renamed) rename.emplace(f.beforeName, f.name);
  std::vector<Chunk> oldChunks = chunksOf(before, oldCount, rename), newChunks = chunksOf(after, newCount, {});

  auto slice = [](const std::string& text, const std::vector<size_t>& starts, const Chunk& c) {
    if (c.last < c.first) return std::string_view();
    return std::string_view(text).substr(starts[c.first], starts[c.last + 1] - starts[c.first]);
  };
  // Pair the chunks by key, in print order: a line diff over the key sequences.
  std::string oldKeys, newKeys;
  for (const Chunk& c : oldChunks) oldKeys += c.key + "\n";
  for (const Chunk& c : newChunks) newKeys += c.key + "\n";
  std::vector<DiffLine> out;
  auto emitOneSided = [&](const Chunk& c, bool removed) {
    for (uint32_t l = c.first; l <= c.last; ++l) {
      const std::vector<size_t>& starts = removed ? oldStarts : newStarts;
      const std::string& text = removed ? before.text : after.text;
      size_t length = starts[l + 1] - starts[l];
      if (length > 0 && text[starts[l] + length - 1] == '\n') --length;
      std::string line = text.substr(starts[l], length);
      out.push_back({removed ? DiffLine::Kind::Removed : DiffLine::Kind::Added, removed ? l : 0u, removed ? 0u : l, std::move(line)});
    }
  };
  for (const DiffLine& k : diffLines(oldKeys, newKeys)) {
    if (k.kind == DiffLine::Kind::Removed) {
      emitOneSided(oldChunks[k.oldLine - 1], true);
    } else if (k.kind == DiffLine::Kind::Added) {
      emitOneSided(newChunks[k.newLine - 1], false);
    } else {
      const Chunk& a = oldChunks[k.oldLine - 1];
      const Chunk& b = newChunks[k.newLine - 1];
      for (DiffLine& l : diffLineViewsIgnoringIndent(slice(before.text, oldStarts, a), slice(after.text, newStarts, b))) {
        if (l.oldLine) l.oldLine += a.first - 1;
        if (l.newLine) l.newLine += b.first - 1;
        out.push_back(std::move(l));
      }
    }
  }
  markMovedLines(edits, before, after, out);
  return out;
}

DiffLineCounts countDiffLines(const std::vector<DiffLine>& lines) {
  DiffLineCounts c;
  for (const DiffLine& l : lines) {
    if (l.kind == DiffLine::Kind::Removed) ++(l.moved ? c.movedOut : c.removed);
    if (l.kind == DiffLine::Kind::Added) ++(l.moved ? c.movedIn : c.added);
  }
  return c;
}

std::string movedLinesNote(const DiffLineCounts& c) {
  if (c.moved() == 0) return "";
  return std::to_string(c.moved()) + " line" + (c.moved() == 1 ? "" : "s") + " moved (< from, > to), " +
         std::to_string(c.changed()) + " changed (- +)\n";
}

}  // namespace passlab
