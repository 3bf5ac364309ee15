// FuseTIR: each fused Relax group (a Primitive function of call_tirs, from
// Relax-form FuseOps) becomes one PrimFunc, as TVM's relax.transform.FuseTIR.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The FuseTIR pass. For every global graph-level function with attribute
/// Primitive whose body is a dataflow block of call_tir bindings (each
/// argument a parameter or an earlier binding, one output each):
///  * a PrimFunc of the same name replaces it: its parameters are one buffer
///    per Relax parameter (named after it) and the last call's output buffer;
///    the other calls' outputs become `T.alloc_buffer`s of the root block
///    (named `<output>_intermediate`), as do the callees' own scratch buffers;
///    the callees' bodies follow one another with their buffers substituted
///    and fresh loop and block variables; a repeated block name takes TVM's
///    suffix (compute, compute_1; compute1, compute2). Attributes:
///    `tir.noalias` only (op_pattern is dropped).
///  * each call of the function becomes a call_tir of the new PrimFunc with the
///    same arguments and the function's result type;
///  * PrimFuncs only the fused groups called are removed.
/// Groups in any other form are left as they are.
PassPtr createFuseTIRPass();

}  // namespace passlab
