// FuseOps in Relax form: TVM's relax.transform.FuseOps over the call_tir
// bindings of dataflow blocks.
#pragma once

#include <optional>

#include "core/pass/pass.h"

namespace passlab {

/// True when FuseOps takes the Relax form on `mod`: a Relax module (see
/// isRelaxModule) whose functions call PrimFuncs through call_tir.
bool fuseInRelaxForm(const IRModule& mod);

/// FuseOps over call_tir, as TVM's Relax FuseOps: in every dataflow block of
/// every graph-level function (Primitive ones excepted), each binding of a
/// call_tir is a node whose pattern is its PrimFunc's `op_pattern` (opaque
/// without one; AnnotateTIROpPattern sets them), edges follow the arguments,
/// and the nodes are grouped by TVM's GraphPartitioner (see FuseOps). Every
/// group of two or more calls becomes a private global
/// `fused_<prim>_<prim>...` function with attribute Primitive=True whose body
/// is a dataflow block of the group's call_tirs; values from outside the group
/// (variables and constants) become its parameters in order of first use. The
/// group's bindings give way to one binding of its last variable to the call.
/// Bindings used outside the block (non-dataflow variables) are never fused
/// into a consumer. With `optLevel` 0 nothing is fused. Returns `mod` itself
/// when nothing fused. With `remarks`, records the FuseOps remarks of the
/// Relax form on it for `pass`: each group (fuse.group), each producer whose
/// consumers are in another group with the partitioner's rule (the Relay
/// form's rule ids: fuse.pattern-boundary, fuse.fan-out, fuse.opaque, ...),
/// and a fuse.summary per function.
IRModule fuseOpsRelax(const IRModule& mod, int optLevel, int maxDepth, PassContext* remarks = nullptr,
                      const std::string& pass = "FuseOps");

}  // namespace passlab
