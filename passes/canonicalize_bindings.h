// CanonicalizeBindings: TVM's relax.transform.CanonicalizeBindings for
// variable-to-variable bindings.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The CanonicalizeBindings pass. In every graph-level function, along the
/// chain of let bindings and dataflow blocks of its body:
///  * a binding of a variable to another variable (`y = x`) goes, and every
///    use of `y` reads `x` (chains collapse to their first variable);
///  * inside a dataflow block, an output bound to a dataflow variable of the
///    block (`gv = lv`) takes that variable's binding (`gv = <lv's value>`),
///    every use of `lv` reading `gv`;
///  * a dataflow block left without bindings goes.
/// Other bindings are unchanged; a function with nothing to do is returned as is.
PassPtr createCanonicalizeBindingsPass();

}  // namespace passlab
