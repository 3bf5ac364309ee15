// FuseOps: groups op calls into `Primitive=1` functions, as TVM's FuseOps does.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/pass/pass.h"

namespace passlab {

/// Options of FuseOps (pipeline: `FuseOps{fuse_opt_level=0}`).
struct FuseOpsOptions {
  /// TVM's fuse_opt_level: -1 takes the context's opt_level; at 0 every op
  /// call is a group of its own (wrapped, but nothing fused together).
  int fuseOptLevel = -1;
};

/// Config keys read by FuseOps.
inline constexpr const char* kFuseOpsMaxDepthKey = "relay.FuseOps.max_depth";
inline constexpr const char* kFuseOpsLinkParamsKey = "relay.FuseOps.link_params";

/// Decides link_params the way FuseOps does, recording every read on `ctx` on
/// behalf of `pass`: the PassContext key relay.FuseOps.link_params when set
/// explicitly, else the module's executor attribute `link-params`, else the
/// context target's `-link-params` option, else false. Reads stop at the first
/// source that has a value, so the recorded reads show exactly where it came from.
bool resolveLinkParams(const IRModule& mod, PassContext& ctx, const std::string& pass);

/// One node of a fusion graph built outside this file (the Relax form's
/// graph of call_tir bindings), producers before consumers.
struct FusionGraphNode {
  /// The node's FusionPattern as an int (7 for a tuple).
  int pattern = static_cast<int>(FusionPattern::Opaque);
  /// Used from outside the graph: never fused into a consumer.
  bool externRef = false;
  /// (consumer node, pattern of the edge).
  std::vector<std::pair<int, int>> outputs;
};

/// Why a node of a fusion graph stays out of its post-dominator's group
/// (remarks): the partitioner's own reason, with the nodes it concerns.
struct FusionMiss {
  enum class Why : uint8_t { None, NoSink, MaxDepth, Tuple, Pattern, Path, Reduce };
  Why why = Why::None;
  /// The post-dominator it did not join (-1 when none).
  int sink = -1;
  /// Path: the node on the way whose group pattern broke the rule.
  int blocker = -1;
  /// The pattern of the path to the sink (Pattern).
  int domPattern = static_cast<int>(FusionPattern::Opaque);
  /// The group size fusing would have made (MaxDepth).
  int64_t size = 0;
};

/// TVM's name of a fusion pattern given as an int ("OutEWiseFusable"; 7 is "Tuple").
const char* fusionPatternName(int pattern);
/// What ops of `pattern` may fuse into (the rule a boundary remark quotes).
std::string fusionPatternRule(int pattern);

/// TVM's GraphPartitioner (the rules below) over `nodes`: the representative
/// node of each node's group. With `misses`, also why each node stays out of
/// its post-dominator's group, and with `groupPatterns` each node's group pattern.
std::vector<int> partitionFusionGraph(const std::vector<FusionGraphNode>& nodes, int maxDepth,
                                      std::vector<FusionMiss>* misses = nullptr, std::vector<int>* groupPatterns = nullptr);

/// The FuseOps pass. Per graph-level function (skipping external-codegen and
/// Primitive functions, with the skip recorded), it builds the dataflow graph
/// of the body and its post-dominator tree and groups nodes by fusion pattern
/// as TVM's GraphPartitioner does:
///  * an out-ewise-fusable anchor (conv2d, dense, pooling) absorbs the
///    elementwise/broadcast ops on every path to its post-dominator when that
///    relation is elementwise (conv2d → bias_add → relu);
///  * elementwise/broadcast ops fuse into an injective or reduction consumer
///    (and into an anchor group further down);
///  * injective ops and tuples fuse with injective consumers in a second phase,
///    after anchors are settled; a third phase fuses injective ops into tuples
///    that were fused into their consumers;
///  * opaque ops (batch_norm, shape_of, calls to functions) stay alone;
///  * let, if and function boundaries are never crossed;
///  * a group never grows beyond relay.FuseOps.max_depth nodes.
/// Scalar constants of float32/float64/int32/int64/bool are elementwise nodes
/// and fuse into their consumer (TVM's rule, matched to what code generators
/// embed); other constants are opaque. Every group holding an op call becomes
/// `fn (%p0, ..., Primitive=1) { ... }` called in place with the values from
/// outside the group as arguments. With link_params (see resolveLinkParams)
/// constants from outside the group stay inline in the fused function; without
/// it they become parameters and the constants are passed at the call.
/// A function without op calls is returned unchanged (same pointer).
PassPtr createFuseOpsPass(const FuseOpsOptions& options = {});

}  // namespace passlab
