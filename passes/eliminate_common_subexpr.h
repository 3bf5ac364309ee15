// EliminateCommonSubexpr: one node for each repeated pure op call.
#pragma once

#include <string>
#include <vector>

#include "core/pass/pass.h"

namespace passlab {

/// Options of EliminateCommonSubexpr (pipeline: `EliminateCommonSubexpr{skip_ops=[nn.dropout]}`).
struct EliminateCommonSubexprOptions {
  /// Ops never merged, in addition to stateful ones (TVM's `fskip`).
  std::vector<std::string> skipOps;
};

/// The EliminateCommonSubexpr function pass. Two calls to the same op with
/// equal attributes and pointer-identical arguments become one node (bottom-up,
/// so whole repeated subtrees collapse). Stateful ops and `skipOps` are never
/// merged. A call is reused only where it is in scope: in the same branch of an
/// `if`, or in an enclosing one, and never across nested functions. A `let`
/// (or dataflow binding) whose value repeats an enclosing binding's value is
/// rebound to that binding's variable (`let %b = %a;`), as Relax's CSE does.
/// Throws DiagnosticError for an unknown op name in skipOps.
PassPtr createEliminateCommonSubexprPass(const EliminateCommonSubexprOptions& options = {});

}  // namespace passlab
