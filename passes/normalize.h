// Normalize: TVM's relax.transform.Normalize, the normal form the Relax
// BlockBuilder keeps.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The Normalize pass. In every graph-level function, as TVM's normalizer:
///  * an operand that is neither a leaf (variable, global, constant, op) nor a
///    tuple is bound to a fresh variable just before the binding that uses it
///    (a dataflow variable inside a dataflow block), innermost first, so that
///    `R.multiply(R.add(x, x), y)` becomes `gv = R.add(x, x); R.multiply(gv, y)`.
///    Call arguments and callees, tuple fields, projected tuples and if
///    conditions are operands; one node used twice is bound once;
///  * a function body or an inner function's body that ends in a non-leaf,
///    non-tuple value binds it and returns the variable. An if branch keeps
///    its final value (its operands normalized): passlab's reading of
///    TVMScript's `y = value` closing a branch, which TVM holds as a binding.
/// A function already in normal form is returned as is.
PassPtr createNormalizePass();

}  // namespace passlab
