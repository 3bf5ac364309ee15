// SimplifyExpr: algebraic identities that provably keep the type.
#pragma once

#include <string>
#include <vector>

#include "core/pass/pass.h"

namespace passlab {

/// Options of SimplifyExpr (pipeline: `SimplifyExpr{disabled_rules=[cast]}`).
struct SimplifyExprOptions {
  /// Rule families not to apply; see simplifyExprRuleNames().
  std::vector<std::string> disabledRules;
};

/// The rule families, in the order they are documented:
///   identity         x*1, 1*x, x+0, 0+x, x-0, x/1 → x (constants checked element by element)
///   reshape          reshape(reshape(x)) → reshape(x); reshape to the same type → x
///   transpose        transpose(transpose(x)) → one transpose, or x when the composed
///                    permutation is the identity; an identity transpose → x
///   cast             cast(x) to x's own dtype → x
///   double_negation  negative(negative(x)) → x
///   idempotent       nn.relu(nn.relu(x)) → nn.relu(x)
const std::vector<std::string>& simplifyExprRuleNames();

/// The SimplifyExpr function pass. A rewrite applies only when the types prove
/// it exact: the replacement has the same type (shape and dtype) as the original,
/// so a broadcasting `x * ones` that widens x is left alone. Types come from
/// checkedType (run InferType first); a function without types is inferred on
/// the spot, and left unchanged with a warning when inference fails. Throws
/// DiagnosticError for an unknown rule name.
PassPtr createSimplifyExprPass(const SimplifyExprOptions& options = {});

}  // namespace passlab
