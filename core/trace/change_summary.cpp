// From a matching to words and text: the one-line change summary, the edit
// script per function, and the aligned (renumbering-proof) print and diff.
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "core/ir/functor.h"
#include "core/ir/type.h"
#include "core/trace/change_summary.h"
#include "core/trace/moved_lines.h"

namespace passlab {

namespace {

std::string plural(uint32_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string opName(const ExprNode* e) {
  if (auto* c = as<CallNode>(e))
    if (const OpDef* op = c->op()) return std::string(op->name);
  return "";
}

/// "data_layout NCHW→NHWC, kernel_layout OIHW→HWIO" (changed keys only).
std::string attrDelta(const AttrDict& x, const AttrDict& y) {
  std::string out;
  auto shown = [](const AttrValue* v) {
    if (!v) return std::string("∅");
    std::string s = v->toString();
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return s;
  };
  auto addKey = [&](const std::string& k) {
    const AttrValue* a = x.find(k);
    const AttrValue* b = y.find(k);
    if (a && b && *a == *b) return;
    if (!out.empty()) out += ", ";
    out += k + " " + shown(a) + "→" + shown(b);
  };
  for (const auto& [k, v] : x.entries()) addKey(k);
  for (const auto& [k, v] : y.entries())
    if (!x.find(k)) addKey(k);
  return out;
}

/// What changed in an update, in words.
std::string changeWords(const NodeEdit& e) {
  std::string out;
  auto add = [&](const std::string& s) {
    if (!out.empty()) out += "; ";
    out += s;
  };
  if (e.changes & kAttrsChanged) {
    auto* x = as<CallNode>(e.before);
    auto* y = as<CallNode>(e.after);
    if (x && y) {
      add(attrDelta(x->attrs, y->attrs));
    } else if (auto* fx = as<FunctionNode>(e.before)) {
      add("attributes " + attrDelta(fx->attrs, as<FunctionNode>(e.after)->attrs));
    } else {
      add("attributes");
    }
  }
  if (e.changes & kArityChanged) add("number of inputs");
  else if (e.changes & kInputsRewired) add("inputs rewired");
  if (e.changes & kDataChanged) add("data");
  if (e.changes & kTypeChanged)
    add("type " + typeToString(e.before->checkedType) + "→" + typeToString(e.after->checkedType));
  return out;
}

/// "3 nn.conv2d (data_layout NCHW→NHWC), 2 add" from per-op groups, largest first.
std::string groupList(const std::map<std::string, std::pair<uint32_t, std::string>>& groups, size_t limit = 3) {
  std::vector<std::pair<std::string, std::pair<uint32_t, std::string>>> v(groups.begin(), groups.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  std::string out;
  uint32_t rest = 0, restOps = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i >= limit) {
      ++rest;
      restOps += v[i].second.first;
      continue;
    }
    if (i) out += ", ";
    out += std::to_string(v[i].second.first) + " " + v[i].first;
    if (!v[i].second.second.empty()) out += " (" + v[i].second.second + ")";
  }
  if (rest) out += " and " + std::to_string(restOps) + " more of " + plural(rest, "other op", "other ops");
  return out;
}

}  // namespace

/// FuseTIR's merges: a global that was a Primitive graph-level function and
/// is now a PrimFunc, with the PrimFuncs its call_tirs called.
static std::map<std::string, std::set<std::string>> mergedPrimFuncs(const ModuleEdits& m) {
  std::map<std::string, std::set<std::string>> merged;
  for (const auto& [name, fn] : m.before->functions) {
    const auto* group = as<FunctionNode>(fn);
    if (!group || !group->attrs.getBool(fn_attr::kPrimitive) || !as<PrimFuncNode>(m.after->lookup(name))) continue;
    std::set<std::string>& callees = merged[name];
    postOrderVisit(group->body, [&](const Expr& e) {
      const auto* call = as<CallNode>(e);
      if (call && call->op() && call->op()->id == OpId::CallTir && !call->args.empty())
        if (const auto* g = as<GlobalVarNode>(call->args[0])) callees.insert(g->name);
    });
  }
  return merged;
}

namespace {

/// Per-op groups: op name -> (count, what changed).
using OpGroups = std::map<std::string, std::pair<uint32_t, std::string>>;

/// Writes changeSummary's clauses in the order they are said: merges, moves,
/// folds, per-op groups, globals, bare nodes, module attributes.
class SummaryWriter {
 public:
  explicit SummaryWriter(const ModuleEdits& m) : m_(m), merged_(mergedPrimFuncs(m)) {}

  std::string run() {
    sayMerges();
    tallyNodeEdits();
    sayMoves();
    sayFolds();
    sayOpGroups();
    sayGlobals();
    sayBareNodes();
    if (m_.moduleAttrsChanged) parts_.push_back("module attributes " + attrDelta(m_.before->attrs, m_.after->attrs));
    if (parts_.empty()) return "no change";
    std::string out;
    for (const std::string& p : parts_) {
      if (!out.empty()) out += "; ";
      out += p;
    }
    return out;
  }

 private:
  /// FuseTIR's merges, said first; their functions' edits are not said again.
  void sayMerges() {
    for (const auto& [name, callees] : merged_)
      parts_.push_back("merged " + plural(static_cast<uint32_t>(callees.size()), "PrimFunc", "PrimFuncs") + " into " + name);
  }

  /// Counts the node records into per-op groups, rewrites, lifts and inlines.
  void tallyNodeEdits() {
    for (const NodeEdit& e : m_.edits) {
      if (merged_.count(m_.functionName(e.beforeFunction))) continue;  // said by "merged ... into"
      switch (e.kind) {
        case EditKind::Inserted: countOp(e.after, inserted_, insertedNodes_); break;
        case EditKind::Deleted: countOp(e.before, deleted_, deletedNodes_); break;
        case EditKind::Moved:
        case EditKind::Updated: tallyMatched(e); break;
        default: break;
      }
    }
    for (auto& [op, g] : updated_)
      if (updatedMixed_.count(op)) g.second = "various changes";
  }

  /// What a bare node is called: ToNonDataflow's rewrite reads "inserted 595
  /// bindings; deleted 1 dataflow block", not "inserted 595 nodes".
  enum class BareKind : uint8_t { Binding, DataflowBlock, Other, Count };
  using BareNodes = std::array<uint32_t, static_cast<size_t>(BareKind::Count)>;
  static BareKind bareKind(ExprKind k) {
    return k == ExprKind::Let ? BareKind::Binding : k == ExprKind::Dataflow ? BareKind::DataflowBlock : BareKind::Other;
  }
  /// An inserted or deleted node: into its op's group, or a bare node by kind
  /// (variables are not counted).
  static void countOp(const ExprNode* node, OpGroups& groups, BareNodes& bare) {
    std::string op = opName(node);
    if (!op.empty())
      ++groups[op].first;
    else if (node->kind != ExprKind::Var)
      ++bare[static_cast<size_t>(bareKind(node->kind))];
  }

  static std::string bareText(const BareNodes& n) {
    static constexpr const char* kWords[][2] = {{"binding", "bindings"}, {"dataflow block", "dataflow blocks"}, {"other node", "other nodes"}};
    std::string out;
    bool any = n[0] || n[1];
    for (size_t i = 0; i < n.size(); ++i) {
      if (!n[i]) continue;
      // Alone, other nodes are just "nodes".
      const char* one = any || i < 2 ? kWords[i][0] : "node";
      const char* many = any || i < 2 ? kWords[i][1] : "nodes";
      out += (out.empty() ? "" : ", ") + plural(n[i], one, many);
    }
    return out;
  }

  /// A moved or updated pair: a function lifted to or inlined from a global,
  /// an op rewritten, an op updated (grouped with what changed).
  void tallyMatched(const NodeEdit& e) {
    if (e.kind == EditKind::Moved && e.after->kind == ExprKind::Function) {
      Expr g = m_.after->lookup(m_.functionName(e.afterFunction));
      Expr old = m_.before->lookup(m_.functionName(e.beforeFunction));
      if (g.get() == e.after && old.get() != e.before) ++lifted_;
      if (g.get() != e.after && old.get() == e.before) {
        ++inlined_;
        inlinedGlobals_.insert(m_.functionName(e.beforeFunction));
      }
    }
    if ((e.changes & ~kTypeUnknown) == 0) return;  // a clean move: most records after FuseOps
    std::string op = opName(e.after);
    if (op.empty()) return;
    if (e.changes & (kAttrsChanged | kInputsRewired | kArityChanged)) ++rewritten_;
    if (e.kind != EditKind::Updated || takesNewConstantOnly(e)) return;
    auto& g = updated_[op];
    std::string words = changeWords(e);
    if (g.first == 0)
      g.second = words;
    else if (g.second != words)
      updatedMixed_[op] = true;
    ++g.first;
  }

  /// An op whose only change is reading a constant that was inserted (folded)
  /// is already counted by "take a new constant input".
  bool takesNewConstantOnly(const NodeEdit& e) const {
    auto* c = as<CallNode>(e.after);
    if (!c || (e.changes & ~kTypeUnknown) != kInputsRewired) return false;
    for (const Expr& a : c->args)
      if (const NodeEdit* r = m_.findAfter(a.get()); r && r->kind == EditKind::Inserted && a->kind == ExprKind::Constant)
        return true;
    return false;
  }

  /// Grouped into new functions, moved out of old ones or between functions, lifted, inlined.
  void sayMoves() {
    if (m_.movedIntoOps) {
      std::string kind = m_.moveDestinationKind.empty() ? "new" : m_.moveDestinationKind;
      parts_.push_back("grouped " + plural(m_.movedIntoOps, "op", "ops") + " into " + std::to_string(m_.movedIntoFunctions) + " " +
                       kind + (m_.movedIntoFunctions == 1 ? " function" : " functions") + "; " + plural(rewritten_, "op", "ops") +
                       " rewritten");
    }
    if (m_.movedOutOfOps)
      parts_.push_back("moved " + plural(m_.movedOutOfOps, "op", "ops") + " out of " +
                       plural(m_.movedOutOfFunctions, "function", "functions"));
    uint32_t otherMoves = m_.ops.moved - std::min(m_.ops.moved, m_.movedIntoOps + m_.movedOutOfOps);
    if (otherMoves) parts_.push_back("moved " + plural(otherMoves, "op", "ops") + " between functions");
    if (lifted_) parts_.push_back("lifted " + plural(lifted_, "function", "functions") + " to globals");
    if (inlined_) {
      std::vector<std::string> names(inlinedGlobals_.begin(), inlinedGlobals_.end());
      parts_.push_back("inlined " + summarizeFunctionList(names));
    }
  }

  void sayFolds() {
    if (m_.ops.folded)
      parts_.push_back("folded " + plural(m_.ops.folded, "op", "ops") + " into " + plural(m_.foldConstants, "constant", "constants") +
                       "; " + plural(m_.newConstantInputs, "op takes", "ops take") + " a new constant input");
  }

  /// "inserted 4 layout_transform", "deleted 9 ops (...)", "updated 3 nn.conv2d (...)".
  void sayOpGroups() {
    auto say = [&](const char* verb, const OpGroups& groups) {
      if (groups.empty()) return;
      uint32_t n = 0;
      for (const auto& [op, g] : groups) n += g.first;
      parts_.push_back(groups.size() == 1 ? verb + (" " + groupList(groups))
                                          : verb + (" " + plural(n, "op", "ops")) + " (" + groupList(groups) + ")");
    };
    say("inserted", inserted_);
    say("deleted", deleted_);
    if (!updated_.empty()) parts_.push_back("updated " + groupList(updated_));
  }

  /// Globals added, removed or renamed (beyond lifting, inlining and merging),
  /// statements changed in PrimFuncs, function attributes changed.
  void sayGlobals() {
    std::vector<std::string> added, removed, renamed, attrs, prim;
    uint32_t stmtChanges = 0;
    for (const FunctionEdit& f : m_.functions) {
      if (f.kind == FunctionEdit::Kind::Added) added.push_back(f.name);
      if (mergedAway(f)) continue;
      if (f.kind == FunctionEdit::Kind::Removed && !inlinedGlobals_.count(f.beforeName)) removed.push_back(f.beforeName);
      if (f.kind == FunctionEdit::Kind::Renamed) renamed.push_back(f.beforeName + "→@" + f.name);
      if (!f.attrKeysChanged.empty()) attrs.push_back(f.name.empty() ? f.beforeName : f.name);
      if (f.primFunc && f.kind == FunctionEdit::Kind::Changed) {
        uint32_t c = f.nodes.changed();
        if (c) {
          stmtChanges += c;
          prim.push_back(f.name);
        }
      }
    }
    if (added.size() > lifted_) {
      uint32_t n = static_cast<uint32_t>(added.size() - lifted_);
      parts_.push_back(lifted_ ? "added " + plural(n, "other global", "other globals") : "added " + summarizeFunctionList(added));
    }
    if (!removed.empty()) parts_.push_back("removed " + summarizeFunctionList(removed));
    if (!renamed.empty()) parts_.push_back("renamed " + summarizeFunctionList(renamed));
    if (stmtChanges) parts_.push_back("changed " + plural(stmtChanges, "statement", "statements") + " in " + summarizeFunctionList(prim));
    if (!attrs.empty()) parts_.push_back("changed attributes of " + summarizeFunctionList(attrs));
  }

  /// Whether `f` is a merged group or one of the PrimFuncs merged into it.
  bool mergedAway(const FunctionEdit& f) const {
    for (const auto& [name, callees] : merged_)
      if (callees.count(f.beforeName) || name == f.name) return true;
    return false;
  }

  /// When nothing else was said: the nodes (not ops) inserted, deleted or updated.
  void sayBareNodes() {
    if (!parts_.empty()) return;
    std::string inserted = bareText(insertedNodes_), deleted = bareText(deletedNodes_);
    if (!inserted.empty() || !deleted.empty()) {
      if (!inserted.empty()) parts_.push_back("inserted " + inserted);
      if (!deleted.empty()) parts_.push_back("deleted " + deleted);
    } else if (m_.ops.updated || m_.nodes.updated) {
      parts_.push_back("updated " + plural(m_.nodes.updated, "node", "nodes"));
    }
  }

  const ModuleEdits& m_;
  const std::map<std::string, std::set<std::string>> merged_;
  std::vector<std::string> parts_;
  OpGroups inserted_, deleted_, updated_;
  std::map<std::string, bool> updatedMixed_;
  uint32_t rewritten_ = 0, lifted_ = 0, inlined_ = 0;
  BareNodes insertedNodes_{}, deletedNodes_{};
  std::set<std::string> inlinedGlobals_;
};

}  // namespace

std::string changeSummary(const ModuleEdits& m) { return SummaryWriter(m).run(); }

std::string summarizeFunctionList(const std::vector<std::string>& names, size_t limit) {
  std::string out;
  size_t shown = names.size() <= limit ? names.size() : limit;
  for (size_t i = 0; i < shown; ++i) {
    if (i) out += i + 1 == shown && shown == names.size() ? " and " : ", ";
    out += '@' + names[i];
  }
  if (names.size() > shown) out += " and " + std::to_string(names.size() - shown) + " more";
  return out;
}

// ---- Aligned printing -------------------------------------------------------

namespace {

/// A module holding only `name` (empty when absent), so one function prints on its own.
IRModule onlyFunction(const IRModule& mod, const std::string& name) {
  std::map<std::string, Expr> fns;
  if (Expr f = mod->lookup(name)) fns.emplace(name, f);
  return makeModule(std::move(fns));
}

struct AlignedPrint {
  /// Both sides share one numbering, so an unchanged constant prints the same reference on both.
  std::unique_ptr<ConstantNumbering> numbering;
  HiddenTypes hidden;
  PrintedModule before;
  AlignedNames names;
  PrintedModule after;
};

AlignedPrint alignedPrint(const ModuleEdits& m, const std::string& function, const PrintOptions& options,
                          bool withRanges = false) {
  AlignedPrint p;
  bool one = !function.empty();
  const FunctionEdit* f = one ? m.function(function) : nullptr;
  IRModule before = one ? onlyFunction(m.before, f ? f->beforeName : function) : m.before;
  IRModule after = one ? onlyFunction(m.after, f ? f->name : function) : m.after;
  PrintOptions o = options;
  if (one) o.versionHeader = false;
  o.metadataSection = false;
  if (!o.numbering) {
    p.numbering = std::make_unique<ConstantNumbering>();
    o.numbering = p.numbering.get();
  }
  for (const NodeEdit& e : m.edits)
    if (e.changes & kTypeUnknown) {
      p.hidden.insert(e.before);
      p.hidden.insert(e.after);
    }
  o.hiddenTypes = &p.hidden;
  auto print = [&](const IRModule& mod, PrintOptions opts) {
    opts.recordNames = true;
    return withRanges ? printModuleWithRanges(mod, opts) : printModuleWithNames(mod, opts);
  };
  p.before = print(before, o);
  // Start from the before names (nodes shared with before keep them), then
  // give every matched after node its counterpart's name.
  p.names.setBase(&p.before);
  uint32_t maxNumber = 0;
  p.before.nodes.forEachName([&](const void*, std::string_view name) {
    if (name.empty() || name.size() > 9) return;
    uint32_t number = 0;
    for (char c : name) {
      if (c < '0' || c > '9') return;
      number = number * 10 + static_cast<uint32_t>(c - '0');
    }
    maxNumber = std::max<uint32_t>(maxNumber, number + 1);
  });
  p.names.freshBase = maxNumber;
  // A call to a function (a fused literal, a lifted global) stands for the
  // function's result: on the before side a result printed inline borrows the
  // name of the call that stands for it, on the after side the call takes the
  // name of the before node its function's result matched. So `%5 = %4.0`
  // stays the same line when FuseOps puts %4's op into a function.
  auto resultOf = [&](const ExprNode* call, const IRModule& mod) -> const ExprNode* {
    auto* c = as<CallNode>(call);
    if (!c) return nullptr;
    if (auto* fn = as<FunctionNode>(c->callee)) return fn->body.get();
    if (auto* gv = as<GlobalVarNode>(c->callee))
      if (auto* fn = mod->lookupFunction(gv->name)) return fn->body.get();
    return nullptr;
  };
  // Result node -> the call's before name (a view into the before print's names).
  PointerIndex callNameIndex;
  std::vector<std::string_view> callNames;
  for (const NodeEdit& e : m.edits) {
    if (!e.before || e.before->kind != ExprKind::Call) continue;
    std::string_view name = p.before.nodes.name(e.before);
    if (name.empty()) continue;
    const ExprNode* r = resultOf(e.before, m.before);
    if (r && p.before.nodes.name(r).empty() && callNameIndex.insert(r, static_cast<uint32_t>(callNames.size())).second)
      callNames.push_back(name);
  }
  auto beforeName = [&](const ExprNode* b) -> std::string_view {
    std::string_view n = p.before.nodes.name(b);
    if (!n.empty()) return n;
    uint32_t c = callNameIndex.find(b);
    return c == PointerIndex::kAbsent ? std::string_view() : callNames[c];
  };
  for (const NodeEdit& e : m.edits) {
    if (!e.before || !e.after || e.kind == EditKind::Folded) continue;
    // Names restart in every function: a node from another global would take a
    // name the destination's own nodes may need; its line moves anyway.
    if (e.beforeFunction != e.afterFunction && e.beforeFunction >= 0 && e.afterFunction >= 0 &&
        m.functionName(e.beforeFunction) != m.functionName(e.afterFunction)) {
      p.names.erase(e.after);
      continue;
    }
    p.names.setView(e.after, beforeName(e.before));
  }
  // Inserted nodes never take a before name, even when a pointer happens to be
  // shared, except a call standing for a matched result.
  for (const NodeEdit& e : m.edits) {
    if (e.kind != EditKind::Inserted) continue;
    p.names.erase(e.after);
    const ExprNode* r = resultOf(e.after, m.after);
    if (!r) continue;
    const ExprNode* b = m.beforeOf(r);
    if (b && b != r && !m.findAfter(r)->before) b = nullptr;
    if (b) p.names.setView(e.after, beforeName(b));
  }
  o.alignedNames = &p.names;
  p.after = print(after, o);
  return p;
}

}  // namespace

AlignedText printAligned(const ModuleEdits& m, const std::string& function, const PrintOptions& options) {
  if (!m.before || !m.after) return {};
  AlignedPrint p = alignedPrint(m, function, options);
  return {std::move(p.before.text), std::move(p.after.text), std::move(p.before.nodes), std::move(p.after.nodes)};
}

AlignedPrinted printAlignedWithRanges(const ModuleEdits& m, const PrintOptions& options) {
  if (!m.before || !m.after) return {};
  AlignedPrint p = alignedPrint(m, "", options, true);
  return {std::move(p.before), std::move(p.after)};
}

AlignedLines alignedLines(const ModuleEdits& m, const std::string& function, const PrintOptions& options) {
  if (!m.before || !m.after) return {};
  AlignedPrint p = alignedPrint(m, function, options, true);
  AlignedLines out;
  out.lines = diffAlignedPrints(m, p.before, p.after);
  out.before = std::move(p.before.text);
  out.after = std::move(p.after.text);
  return out;
}

std::string alignedDiff(const ModuleEdits& m, const std::string& oldName, const std::string& newName,
                        const std::string& function, int context, const PrintOptions& options) {
  if (!m.before || !m.after) return "";
  AlignedPrint p = alignedPrint(m, function, options, true);
  // Functions paired by name, and lines the pass only moved marked as moves.
  std::vector<DiffLine> lines = diffAlignedPrints(m, p.before, p.after);
  std::string out = renderUnifiedDiff(lines, oldName, newName, context);
  if (out.empty()) return out;
  out += movedLinesNote(countDiffLines(lines));
  // A constant the pass created prints as a reference the reader has not seen
  // before: say what it is ("meta[relay.Constant][7] is new, folded: 16x1x1 float32").
  // The reference as the print syntax spells it.
  auto constantRefText = [&](int32_t n) {
    return options.syntax == TextSyntax::Relay ? "meta[relay.Constant][" + std::to_string(n) + "]"
                                               : "metadata[\"relax.expr.Constant\"][" + std::to_string(n) + "]";
  };
  ConstantNumbering* numbering = options.numbering ? options.numbering : p.numbering.get();
  std::map<int32_t, std::string> created;
  for (const NodeEdit& e : m.edits) {
    if (e.kind != EditKind::Folded && e.kind != EditKind::Inserted) continue;
    const auto* c = e.after ? as<ConstantNode>(e.after) : nullptr;
    if (!c || !printsAsReference(c->data, options.constants)) continue;
    int32_t n = numbering->find(c->data);
    const std::string ref = constantRefText(n);
    if (n < 0 || p.after.text.find(ref) == std::string::npos || p.before.text.find(ref) != std::string::npos) continue;
    // A folded constant is also inserted: "folded" says more.
    if (e.kind == EditKind::Folded)
      created[n] = "folded: " + constantShapeText(c->data);
    else
      created.try_emplace(n, "inserted: " + constantShapeText(c->data));
  }
  for (const auto& [n, what] : created)
    out += constantRefText(n) + " is new, " + what + "\n";
  return out;
}

// ---- Edit script --------------------------------------------------------------

std::string formatEditScript(const ModuleEdits& m, bool all, const std::string& function, const PrintOptions& options,
                             size_t maxLines) {
  if (!m.before || !m.after) return "";
  AlignedPrint p = alignedPrint(m, "", options);
  // Names as the print syntax spells them: `%5` in Relay text, `lv5` in TVMScript.
  const std::string sigil = options.syntax == TextSyntax::Relay ? "%" : "";
  auto nameOf = [&](const ExprNode* e, bool afterSide) -> std::string {
    std::string_view name = (afterSide ? p.after : p.before).nodes.name(e);
    std::string n = name.empty() ? "" : sigil + std::string(name);
    switch (e->kind) {
      case ExprKind::Call: {
        std::string op = opName(e);
        if (op.empty()) op = "call";
        return n.empty() ? op : n + " " + op;
      }
      case ExprKind::Constant: {
        const NDArray& d = as<ConstantNode>(e)->data;
        std::string shape;
        for (int64_t x : d.shape()) shape += (shape.empty() ? "" : ", ") + std::to_string(x);
        return "constant " + std::string(d.dtype().name()) + "[" + shape + "]";
      }
      case ExprKind::Var: return n.empty() ? exprKindName(e->kind) : n;
      case ExprKind::Function:
      case ExprKind::Tuple:
      case ExprKind::TupleGetItem: return n.empty() ? exprKindName(e->kind) : n + " " + exprKindName(e->kind);
      case ExprKind::Let:
      case ExprKind::If:
      case ExprKind::Dataflow: return exprKindName(e->kind);
      default: return n.empty() ? "node" : n;
    }
  };
  auto countsText = [](const EditCounts& c) {
    std::string s;
    auto add = [&](uint32_t n, const char* w) {
      if (!n) return;
      if (!s.empty()) s += ", ";
      s += std::to_string(n) + " " + w;
    };
    add(c.updated, "updated");
    add(c.inserted, "inserted");
    add(c.deleted, "deleted");
    add(c.moved, "moved");
    add(c.folded, "folded");
    if (s.empty()) s = "no op changed";
    return s;
  };
  // Each line with what it reports (a function's header: "function"; a node:
  // its edit kind), so the lines past the cap are summarised by kind.
  std::vector<std::pair<std::string, std::string>> lines;
  std::string out;
  auto flush = [&](const std::string& tag) {
    lines.emplace_back(std::move(out), tag);
    out.clear();
  };
  for (const FunctionEdit& f : m.functions) {
    std::string shownName = f.name.empty() ? f.beforeName : f.name;
    if (!function.empty() && shownName != function && f.beforeName != function) continue;
    if (f.kind == FunctionEdit::Kind::Kept && !all) continue;
    out += "@" + shownName + ": ";
    switch (f.kind) {
      case FunctionEdit::Kind::Kept: out += "unchanged"; break;
      case FunctionEdit::Kind::Changed: out += "changed"; break;
      case FunctionEdit::Kind::Added: out += "added"; break;
      case FunctionEdit::Kind::Removed: out += "removed"; break;
      case FunctionEdit::Kind::Renamed: out += "renamed from @" + f.beforeName; break;
    }
    if (f.kind != FunctionEdit::Kind::Kept) out += " — ops: " + countsText(f.ops);
    if (!f.attrKeysChanged.empty()) {
      out += "; attributes:";
      for (const std::string& k : f.attrKeysChanged) out += " " + k;
    }
    out += '\n';
    flush("function");
    for (uint32_t i : f.edits) {
      const NodeEdit& e = m.edits[i];
      if (!all && e.kind == EditKind::Kept) continue;
      // Parameters and variables only when asked for everything.
      const ExprNode* shown = e.after && e.kind != EditKind::Folded ? e.after : e.before;
      // Variables, and constants that only moved or were folded, are noise unless everything is asked for.
      if (!all && shown->kind == ExprKind::Var && e.kind != EditKind::Updated) continue;
      if (!all && shown->kind == ExprKind::Constant && (e.kind == EditKind::Folded || (e.kind == EditKind::Moved && !e.changes)))
        continue;
      std::string line = "  ";
      std::string kind = editKindName(e.kind);
      kind.resize(9, ' ');
      line += kind;
      switch (e.kind) {
        case EditKind::Inserted: line += nameOf(e.after, true); break;
        case EditKind::Deleted: line += nameOf(e.before, false); break;
        case EditKind::Folded: line += nameOf(e.before, false) + " → " + nameOf(e.after, true); break;
        case EditKind::Moved:
          line += nameOf(e.after, true);
          if (nameOf(e.before, false) != nameOf(e.after, true)) line += " (was " + nameOf(e.before, false) + ")";
          line += " from @" + m.functionName(e.beforeFunction);
          if (e.changes & ~kTypeUnknown) line += ": " + changeWords(e);
          break;
        default:
          line += nameOf(e.after, true);
          if (nameOf(e.before, false) != nameOf(e.after, true)) line += " (was " + nameOf(e.before, false) + ")";
          if (e.changes & ~kTypeUnknown) line += ": " + changeWords(e);
          break;
      }
      out += line + '\n';
      flush(editKindName(e.kind));
    }
    for (const StmtEdit& s : f.stmts) {
      if (!all && s.kind == EditKind::Kept) continue;
      std::string kind = editKindName(s.kind);
      kind.resize(9, ' ');
      out += "  " + kind + s.what + " statement\n";
      flush("statement");
    }
  }
  if (m.moduleAttrsChanged) {
    out += "module attributes changed\n";
    flush("module");
  }
  if (lines.empty()) return "no change\n";
  const size_t shown = maxLines && lines.size() > maxLines ? maxLines : lines.size();
  for (size_t i = 0; i < shown; ++i) out += lines[i].first;
  if (shown < lines.size()) {
    // What the hidden lines report, most frequent first: "393 moved, 12 function headers".
    std::map<std::string, size_t> kinds;
    for (size_t i = shown; i < lines.size(); ++i) ++kinds[lines[i].second];
    std::vector<std::pair<size_t, std::string>> byCount;
    for (const auto& [kind, n] : kinds) byCount.emplace_back(n, kind);
    std::stable_sort(byCount.begin(), byCount.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    out += "… " + std::to_string(lines.size() - shown) + " more lines (";
    for (size_t i = 0; i < byCount.size(); ++i)
      out += (i ? ", " : "") + std::to_string(byCount[i].first) + " " +
             (byCount[i].second == "function" ? (byCount[i].first == 1 ? "function" : "functions") : byCount[i].second);
    out += "); --all lists every one\n";
  }
  return out;
}

}  // namespace passlab
