// The well-formed checker: scoping rules that hold in every phase, and the
// phase invariants of the module's `phase` attribute (seed 002).
#pragma once

#include <string>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"

namespace passlab {

/// Function attributes that record purity in the later phases, as Relax does
/// (`relax.force_pure` and the purity of a function's signature).
namespace fn_attr {
/// Non-zero: the function may contain impure calls but counts as pure for its callers.
inline constexpr const char* kForcePure = "force_pure";
/// TVM's spelling of kForcePure (True), which RemovePurityChecking writes on Relax modules.
inline constexpr const char* kRelaxForcePure = "relax.force_pure";
/// Zero: the function is impure (it has side effects); absent means pure.
inline constexpr const char* kIsPure = "is_pure";
}  // namespace fn_attr

/// True when `attrs` mark the function force-pure under either spelling.
inline bool isForcePure(const AttrDict& attrs) {
  return attrs.getInt(fn_attr::kForcePure, 0) != 0 || attrs.getInt(fn_attr::kRelaxForcePure, 0) != 0;
}

/// One rule of the checker, for listings and docs.
struct WellFormedRule {
  /// Stable id used in diagnostics and breakpoints ("wf.inner-function").
  std::string id;
  /// The first phase the rule applies in (0: always).
  int fromPhase = 0;
  /// What the rule demands.
  std::string description;
};

/// Every rule the checker knows, in a fixed order.
const std::vector<WellFormedRule>& wellFormedRules();

/// A leaf of A-normal form: a variable, a global, a constant or an op.
bool isAnfLeaf(const Expr& e);
/// An operand A-normal form allows: a leaf, or a tuple of leaves (the argument
/// tuple of call_tir and the VM builtins).
bool isAnfAtom(const Expr& e);

/// Checks `mod` and returns every violation found (never stops at the first).
/// Each diagnostic has a rule id from wellFormedRules(), the function it is in
/// and the span of the offending node where known (else the function's span).
/// The phase invariants are read from the module's `phase` attribute; functions
/// with a `Compiler` attribute (and everything inside them) belong to an
/// external code generator and are exempt from them.
std::vector<Diagnostic> checkWellFormed(const IRModule& mod);

}  // namespace passlab
