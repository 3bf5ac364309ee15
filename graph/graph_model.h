// The dataflow graph of one graph-level function, as the Graph view and the
// SVG export draw it: ops, parameters, constants (chips on their consumer),
// tuples and projections as nodes; values flowing between them as edges;
// fused Primitive functions, Compiler regions and nested functions as boxes
// (clusters) that can be collapsed to one node. Built once per function
// snapshot and immutable afterwards, so every event that shares the function
// (a pass that did not touch it) shares the graph and its layout. What a pass
// changed is kept apart, in a GraphDiff between two graphs (graph_diff.h).
// No Graphviz here: the layout lives in graphviz_layout.h.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"

namespace passlab::graph {

/// What a node stands for.
enum class NodeKind : uint8_t {
  Param,       ///< a parameter of the function
  Constant,    ///< a constant tensor (drawn as a chip on its consumer when it has one)
  Op,          ///< a call to an op of the table
  GlobalCall,  ///< a call to a global function (`@f(...)`), e.g. a BYOC partition
  Call,        ///< a call to anything else (a local variable holding a function)
  Tuple,       ///< (a, b, ...)
  Projection,  ///< t.N
  If,          ///< if (c) { a } else { b }: one node fed by its condition and both results
  Global,      ///< a global function used as a value
  FreeVar,     ///< a variable bound outside the function
  Output,      ///< the function's result
};

/// "param", "const", "op", ...
const char* nodeKindName(NodeKind kind);

/// What a cluster (box) stands for.
enum class ClusterKind : uint8_t {
  Fused,     ///< a function literal with Primitive=1 called in place (FuseOps)
  Compiler,  ///< a function literal with Compiler="..." (AnnotateTarget, MergeCompilerRegions)
  Function,  ///< any other nested function
  /// Not a function: a run of single-input, single-use ops (conv2d → add →
  /// relu → ...), or of fused and Compiler boxes applied in place, drawn as one
  /// box, so a 700-op imported model reads as its branches and joins instead
  /// of a 24,000-point column.
  Chain,
};

/// "fused", "compiler", "function", "chain".
const char* clusterKindName(ClusterKind kind);

/// One node.
struct Node {
  NodeKind kind = NodeKind::Op;
  /// First label line: op name, `%param`, `@global`, `const`, `.0`, ...
  std::string title;
  /// Key attributes, one per line (`strides=[2, 2]`), at most a few.
  std::vector<std::string> details;
  /// Output type, short: `(1, 4, 8, 8) f16`, `(tuple 3)`.
  std::string type;
  /// The IR node this graph node shows (for the matcher and the printer's text
  /// ranges). Null for the Output node.
  const ExprNode* ir = nullptr;
  /// Innermost cluster containing the node (-1: top level).
  int cluster = -1;
  /// Constants drawn as a chip on their only consumer: that consumer's index
  /// (-1: laid out as a node of its own).
  int chipOf = -1;
  /// Chips drawn on this node, in argument order: its single-use constants, and
  /// the widely shared inputs (`broadcast` nodes) it reads.
  std::vector<int> chips;
  /// A parameter or constant read by more than kBroadcastUses nodes: laid out
  /// once without edges, and named by a chip on each reader. Hundreds of edges
  /// from one node spanning the whole graph would dominate the picture and
  /// make the layout quadratic (a shared weight of a synthetic chain).
  bool broadcast = false;
  /// A constant expression: an op whose inputs are all constants or constant
  /// expressions (the batch-norm arithmetic SimplifyInference leaves on the
  /// weights until FoldConstant). When it is a chip, the number of ops the chip
  /// stands for (itself and the hidden subtree that feeds it); else 1. 0 for
  /// any other node.
  int constOps = 0;
  /// Label lines in drawing order (title, details, type).
  std::vector<std::string> lines() const;
};

/// A value flowing from one node into another.
struct Edge {
  int from = 0;
  int to = 0;
  /// Argument position at the consumer.
  int port = 0;
  /// Tensor shape of the value (`(1, 4, 8, 8) f16`), shown on hover.
  std::string shape;
};

/// A box around the nodes of a nested function, or around a linear chain of ops.
struct Cluster {
  ClusterKind kind = ClusterKind::Function;
  /// `fused: nn.conv2d+add+nn.relu`, `Compiler=ccompiler`, `fn`, `chain: nn.conv2d+add+...`.
  std::string label;
  /// Enclosing cluster (-1: top level).
  int parent = -1;
  /// The function literal and the call that applies it (null when not called
  /// in place; both null for a chain, which is not a function).
  const ExprNode* function = nullptr;
  const ExprNode* call = nullptr;
  /// Nodes inside, nested clusters included (chips excluded).
  int size = 0;
  /// Op nodes among them (what a collapsed box counts: "5 ops").
  int ops = 0;
  /// Direct child clusters.
  std::vector<int> children;
};

/// Readers above which a parameter or constant becomes a broadcast node.
inline constexpr int kBroadcastUses = 6;

/// Graphs with more laid-out nodes than this fold their linear chains into
/// Chain boxes (a ten-op teaching example stays as it is written).
inline constexpr size_t kFoldChainsAbove = 150;

/// Options for building a graph.
struct BuildOptions {
  /// Attribute lines kept per op node.
  int maxDetails = 3;
  /// Characters kept per attribute line.
  int maxDetailChars = 30;
  /// Fold runs of single-input, single-use ops (and boxes applied in place)
  /// into Chain boxes when the graph has more than this many laid-out nodes
  /// (SIZE_MAX: never, 0: always).
  size_t foldChainsAbove = kFoldChainsAbove;
  /// The shortest run folded (shorter runs gain nothing from a box).
  int minChain = 2;
  /// Fold constant expressions (ops computing only on constants) into a chip
  /// on their consumer: after SimplifyInference a 700-op model's batch-norm
  /// scale and shift arithmetic is 400 extra nodes in side columns, which made
  /// its graph 6,200 pt wide. Off: every op is a node.
  bool foldConstantExprs = true;
};

/// The graph of one function.
struct FunctionGraph {
  /// Global name (without '@') and the function shown (kept alive, so the
  /// node pointers stay valid and cannot be reused while the graph exists).
  std::string function;
  Expr fn;
  /// Global functions the graph's labels depend on (callees' Compiler attributes).
  std::vector<std::pair<std::string, Expr>> callees;
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Cluster> clusters;
  /// IR node → graph node (the first node showing it).
  std::unordered_map<const ExprNode*, int> nodeOf;
  /// IR call or function literal → cluster.
  std::unordered_map<const ExprNode*, int> clusterOf;

  /// Nodes that are laid out (not chips).
  size_t laidOutCount() const;
  /// Number of op nodes.
  size_t opCount() const;
  /// True when `node` lies inside `cluster` (at any depth).
  bool inside(int node, int cluster) const;
};

/// A graph that cannot be drawn (unknown function, a PrimFunc, ...). The
/// message is meant for the user as is.
class GraphError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Builds the graph of global function `name` of `mod`. GraphError for a
/// missing function (naming the functions there are) or a PrimFunc.
std::shared_ptr<const FunctionGraph> buildGraph(const IRModule& mod, const std::string& name,
                                                const BuildOptions& options = {});

/// Which clusters are drawn collapsed: one flag per cluster.
using CollapseState = std::vector<bool>;
/// Graphs with more nodes than this start with every box collapsed.
inline constexpr size_t kCollapseAllAbove = 1500;
/// Graphs with more nodes than this start with every fused (Primitive) and
/// Compiler box collapsed: after FuseOps a 400-op model reads as its ~80
/// groups, one node each, instead of a 25,000-point strip.
inline constexpr size_t kCollapseGroupsAbove = 150;
/// The collapse state a graph starts with: chains, boxes holding more than
/// `maxExpanded` nodes, fused and Compiler boxes of a graph of more than
/// kCollapseGroupsAbove nodes, and every box of a graph of more than
/// kCollapseAllAbove nodes start collapsed (so a big graph shows its structure first).
CollapseState defaultCollapse(const FunctionGraph& g, int maxExpanded = 24);
/// The node or collapsed cluster that stands for `node` when drawn with
/// `collapse`: {node, -1} when visible, {-1, cluster} when inside a collapsed box
/// (the outermost collapsed one). Chips answer for their consumer.
std::pair<int, int> visibleOwner(const FunctionGraph& g, const CollapseState& collapse, int node);

/// `(1, 4, 8, 8) f16` for a tensor type, `(tuple N)` for a tuple, "" when unknown.
std::string shortType(const Type& t);

/// The function a graph view shows by default at a module: `main` when it is
/// a graph-level function, else the first of `changed` that is one, else the
/// first graph-level function ("" when there is none).
std::string defaultGraphFunction(const IRModule& mod, const std::vector<std::string>& changed = {});

}  // namespace passlab::graph
