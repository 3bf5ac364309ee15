// Queries over the remarks recorded in a workbench's trace (core/pass/remark.h):
// filtered, with their nodes named as the faces print them, and grouped by rule
// so a 700-op model reads as counts before it reads as a list.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/trace/remark_nodes.h"
#include "core/workbench/workbench.h"

namespace passlab {

/// Which remarks a query keeps (every field empty: all).
struct RemarkQuery {
  /// Pass name.
  std::string pass;
  std::optional<RemarkKind> kind;
  /// Rule id, or a rule prefix ending in '.' ("fuse.").
  std::string rule;
  /// Global function, without '@'; a LegalizeOps remark also matches the
  /// kernel it names (Remark::kernel), so `remarks @KERNEL` finds a kernel's strategy.
  std::string function;
  /// A node as the event's `before` module prints it ("%5").
  std::string node;
  /// Only this event and its nested events (-1: every event of the timeline).
  int event = -1;
};

/// One remark found, with its nodes named.
struct RemarkHit {
  int event = 0;
  const Remark* remark = nullptr;
  /// Names of remark->nodes in the event's `before` print ("%5", or what the node is).
  std::vector<std::string> nodes;
  /// Where the first node is: its source location when it came from a parsed
  /// file ("model.relay:12:5"), else "" (faces fall back to the function).
  std::string location;
};

/// The remarks matching `query`, in timeline order (within an event: as emitted).
std::vector<RemarkHit> findRemarks(const Workbench& wb, const RemarkQuery& query);
/// The same over any trace (batch mode has no workbench): events in `order`,
/// nodes named as `print` prints each event's `before` module.
std::vector<RemarkHit> findRemarks(const Trace& trace, const std::vector<int>& order, const PrintOptions& print,
                                   const RemarkQuery& query);

/// Remarks of one event, counted by rule.
struct RemarkEventSummary {
  int event = 0;
  std::string pass;
  /// (rule, kind, count), missed first, then applied, then analysis; larger counts first.
  struct Count {
    RemarkRule rule;
    RemarkKind kind;
    size_t count = 0;
  };
  std::vector<Count> counts;
  /// Indices into the hits the summary was made from, ordered like `counts`.
  std::vector<size_t> hits;
};
/// `hits` grouped per event (timeline order), counted by rule.
std::vector<RemarkEventSummary> summarizeRemarks(const std::vector<RemarkHit>& hits);

/// Why two nodes of one event are not together: the remarks naming both
/// (a boundary between them, or the group holding both), then those naming
/// either. Looks at event `event` and its nested events when it has remarks
/// (-1: the cursor's), else at the whole timeline.
struct WhyNotAnswer {
  std::vector<RemarkHit> both;
  std::vector<RemarkHit> first;
  std::vector<RemarkHit> second;
  /// The events searched ("#4 FuseOps", "the whole trace").
  std::string scope;
};
WhyNotAnswer whyNot(const Workbench& wb, const std::string& a, const std::string& b, int event = -1);

/// Per kernel (PrimFunc) made by the LegalizeOps runs on the timeline up to
/// and including event `event`, the schedule chosen for its main loop nest:
/// the `legalize.*` rule id without "legalize." ("conv-pointwise"), a
/// convolution's or matmul's before the other ops'. The latest run wins.
std::map<std::string, std::string> kernelSchedules(const Workbench& wb, int event);

/// The remarks of `hits` as JSON: {"remarks":[{event, pass, kind, rule, function, [kernel,]
/// message, location, nodes:[...]}, ...]} (`--remarks-json`).
std::string remarksJson(const std::vector<RemarkHit>& hits);

}  // namespace passlab
