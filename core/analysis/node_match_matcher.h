// The node matcher's internals (core/analysis/node_match.h), shared by its two
// files: node_match.cpp indexes both snapshots and runs the matching phases,
// node_match_edits.cpp turns the matching into ModuleEdits.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/analysis/node_match.h"

namespace passlab::node_match_detail {

/// An unmatched or absent node id.
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

/// Node -> id of one side (kNone == NodeIdMap::kAbsent).
using NodeIds = NodeIdMap;

/// Nodes of one snapshot's visited functions, numbered in post-order (inputs
/// before users, a call's arguments before its callee, so the parameters of
/// a called function literal can stand for those arguments).
struct SideIndex {
  const IRModuleNode* mod = nullptr;
  std::vector<const ExprNode*> nodes;
  NodeIds ids;
  /// Inputs of node i: inputs[inputStart[i] .. inputStart[i+1]) (raw, not resolved).
  std::vector<uint32_t> inputStart{0};
  std::vector<uint32_t> inputs;
  /// Global function (index into ModuleEdits::functionNames) and innermost enclosing
  /// function node (a literal, or the global's own FunctionNode) of each node.
  std::vector<int32_t> global;
  std::vector<uint32_t> container;
  /// A parameter standing for a call argument (kNone otherwise).
  std::vector<uint32_t> alias;
  /// The variable a let or dataflow binding binds node i to (kNone when i is
  /// no binding's value): two matched values bind corresponding variables,
  /// whatever their kind (ToNonDataflow turns a DataflowVar into a Var).
  std::vector<uint32_t> binder;
  /// Counterpart on the other side (kNone when unmatched).
  std::vector<uint32_t> match;
  /// What sameLabel compares, read once while indexing: (kind << 16) | (op id + 1),
  /// 0 in the low half for nodes that are not op calls. Comparing labels then
  /// touches two small arrays instead of two nodes and their callees.
  std::vector<uint32_t> label;
  /// Bottom-up's start in users[] for each node: users before it are all
  /// matched already (matches are never undone), so a hub's matched users are
  /// skipped once, not at every visit.
  std::vector<uint32_t> openUser;
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
  /// Whether node i is a call of an op.
  bool isOpCall(uint32_t i) const { return (label[i] & 0xffffu) != 0; }
};

/// Pairs the nodes of two snapshots (run) and writes the edit script (emit).
class Matcher {
 public:
  Matcher(const IRModule& before, const IRModule& after, const MatchOptions& options, ModuleEdits& out)
      : options_(options), out_(out) {
    before_.mod = before.get();
    after_.mod = after.get();
  }
  void run();

 private:
  int32_t nameIndex(const std::string& name);
  void indexFunction(SideIndex& s, int32_t global, const Expr& fn);
  void aliasGlobals(SideIndex& s);
  void buildUsers(SideIndex& s);
  void link(uint32_t a, uint32_t b) {
    after_.match[a] = b;
    before_.match[b] = a;
    // Matched values bind corresponding variables; linking them at once lets
    // the variables' users match in the same bottom-up sweep (a chain of
    // one-input ops reads nothing else that is matched).
    uint32_t va = after_.binder[a], vb = before_.binder[b];
    if (va != kNone && vb != kNone && after_.match[va] == kNone && before_.match[vb] == kNone && sameLabel(va, vb)) {
      after_.match[va] = vb;
      before_.match[vb] = va;
    }
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
  /// Moves of ops into new functions and out of old ones (ModuleEdits::movedInto*, movedOutOf*).
  struct MoveTally {
    /// New destination functions seen, by after node id (a flag per node: no hashing per moved op), and their number.
    std::vector<char> into;
    uint32_t intoCount = 0;
    std::unordered_set<uint32_t> outOf;
    /// functionKind of each new destination function, counted.
    std::map<std::string, uint32_t> destinationKinds;
  };
  /// Turns the matching into ModuleEdits: the function edits, the folds, then a record per node.
  void emit();
  /// Before global name index -> after global name index for every rename.
  std::unordered_map<int32_t, int32_t> renamedGlobals() const;
  /// One FunctionEdit per global of either side, sorted by name.
  void emitFunctions();
  /// The edit of after global `name` (kept, changed, renamed or added).
  FunctionEdit afterFunctionEdit(const std::string& name, const Expr& fn, const std::unordered_map<int32_t, int32_t>& renamedFrom);
  void emitPrimFunc(FunctionEdit& f, const PrimFuncNode* before, const PrimFuncNode* after);
  /// For each before node, the inserted constant its value now comes from (kNone otherwise);
  /// counts ModuleEdits::foldConstants and newConstantInputs.
  std::vector<uint32_t> findFolds();
  /// Marks the unmatched before nodes in `work` and their inputs as folded into
  /// constant `c`; true when one of them is an op call.
  bool foldInputsInto(uint32_t c, std::vector<uint32_t>& work, std::vector<uint32_t>& foldedInto) const;
  /// The node records: every after node, then the unmatched before nodes.
  void emitRecords(const std::vector<uint32_t>& foldedInto);
  /// The record of after node `a`: inserted, or matched (kept, updated, moved).
  NodeEdit afterRecord(uint32_t a, MoveTally& moves);
  /// The record of an unmatched before node: folded into a constant, or deleted.
  NodeEdit unmatchedBeforeRecord(uint32_t b, const std::vector<uint32_t>& foldedInto) const;
  /// Counts the move of op `a` (matched with `b`) into a new function or out of an old one.
  void tallyMove(uint32_t a, uint32_t b, MoveTally& moves);
  /// Appends one record and counts it in the module and in its function; its index.
  uint32_t addRecord(const NodeEdit& e, bool opCall, int32_t global, bool afterSide);

  const MatchOptions& options_;
  ModuleEdits& out_;
  /// The two snapshots' indexes. Throughout, a node id named `a` is one of
  /// after_ and an id named `b` one of before_.
  SideIndex before_, after_;
  /// Index into ModuleEdits::functions by after name and by before name.
  std::unordered_map<std::string, size_t> functionByAfter_, functionByBefore_;
  /// The same by global name index (-1: none), so a record finds its function without hashing a name.
  std::vector<int64_t> functionOfAfter_, functionOfBefore_;
  std::unordered_map<std::string, int32_t> nameIds_;
  /// Call sites of globals seen while indexing: global name index → call node ids.
  std::unordered_map<int32_t, std::vector<uint32_t>> callSites_;
  /// Before global renamed to after global (name indices).
  std::unordered_map<int32_t, int32_t> renamed_;
};

}  // namespace passlab::node_match_detail
