// CallTIRRewrite: TVM's relax.transform.CallTIRRewrite, explicit output
// allocation for destination-passing calls.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The CallTIRRewrite pass. In every Relax function (not Compiler/Extern or
/// Primitive ones), each binding `lv = R.call_tir(f, (x, y), out_sinfo=T)`
/// becomes, as in TVM:
///
///     alloc: T = R.builtin.alloc_tensor(R.shape(S), R.dtype(D), R.prim_value(0), R.str("global"))
///     _: R.Tuple = cls.f(x, y, alloc)
///     lv: T = alloc
///
/// one `alloc` per output tensor in output order, `lv` bound to the tuple of
/// them for several outputs (nested output tuples are flattened for the call
/// and rebuilt). `R.call_dps_packed("g", ...)` becomes
/// `R.call_packed("g", x, y, alloc)`. An argument that is not a tuple
/// expression is passed as is before the outputs. A call_tir returned without
/// a binding is bound to `gv` first. Outputs must have static shapes (a
/// symbolic one is a located error). Other bindings are unchanged; functions
/// with nothing to rewrite keep their identity.
PassPtr createCallTIRRewritePass();

}  // namespace passlab
