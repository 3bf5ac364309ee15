// Text of the remark faces: the REPL's `remarks` and `why-not`, and batch
// mode's `--remarks` lines (file:line:col: remark: ...).
#pragma once

#include <string>
#include <vector>

#include "core/workbench/remarks.h"
#include "repl/style.h"

namespace passlab {

/// Remarks grouped per event, counted by rule (missed first); below the counts,
/// the remarks themselves: all with `all`, else the first few of each rule.
std::string formatRemarks(const Workbench& wb, const std::vector<RemarkHit>& hits, const Style& style, bool all);

/// One remark as a compiler prints it: `LOCATION: remark: MESSAGE [rule] (pass, nodes)`;
/// LOCATION is the first node's source location, else `SOURCE:@function`
/// (`source` the input's name).
std::string formatRemarkLine(const std::string& source, const RemarkHit& hit);

/// `show --remarks`: the module event `id` was given (its `before`), each line
/// followed by the event's remarks on the nodes printed on that line, as
/// comments; remarks about no printed node first. With `function`, only that
/// function's lines. The text-face form of the GUI's gutter marks.
std::string formatRemarkedModule(const Workbench& wb, int id, const std::string& function, const Style& style);

/// The answer of `why-not A B`.
std::string formatWhyNot(const Workbench& wb, const std::string& a, const std::string& b, const WhyNotAnswer& answer,
                         const Style& style);

/// Parses a batch `--remarks=` value: comma-separated pass names, optionally
/// after `KIND:` (missed, applied, analysis), e.g. `missed:FuseOps,FoldConstant`;
/// "all" (or empty) for every pass. WorkbenchError on an unknown kind.
RemarkQuery parseRemarkFilter(const std::string& spec, std::vector<std::string>& passes);

}  // namespace passlab
