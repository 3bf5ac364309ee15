#include "passes/registry_relax.h"

#include "passes/annotate_tir_op_pattern.h"
#include "passes/canonicalize_bindings.h"
#include "passes/fuse_tir.h"

namespace passlab {

void addRelaxPasses(std::vector<PassRegistration>& table) {
  {
    PassRegistration r;
    r.info.name = "AnnotateTIROpPattern";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1, 2};
    r.info.description =
        "Sets op_pattern on every PrimFunc that has none: the fusion pattern its block-form body shows (TVM's "
        "AnalyzeOpPatternKind: elementwise, broadcast, injective, comm-reduce, out-ewise-fusable, opaque).";
    r.info.guarantees = "Every PrimFunc has an integer op_pattern attribute; nothing else changes.";
    r.create = [](const AttrDict&) { return createAnnotateTIROpPatternPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "CanonicalizeBindings";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1, 2};
    r.info.description =
        "Removes variable-to-variable bindings (y = x: uses of y read x); in a dataflow block an output bound to a "
        "dataflow variable takes over that variable's binding; empty dataflow blocks go.";
    r.info.guarantees = "No let or dataflow binding of one variable to another remains outside skipped functions.";
    r.create = [](const AttrDict&) { return createCanonicalizeBindingsPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "FuseTIR";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {2};
    r.info.description =
        "Merges the PrimFuncs of every fused group (a Primitive function of call_tir bindings from FuseOps) into one "
        "PrimFunc of the group's name; intermediate results become root-block allocations. Callers call it through "
        "call_tir.";
    r.info.guarantees =
        "No global Primitive function of call_tirs remains; each became a PrimFunc of the same name computing the same "
        "values; PrimFuncs only the groups called are removed.";
    r.create = [](const AttrDict&) { return createFuseTIRPass(); };
    table.push_back(std::move(r));
  }
}

}  // namespace passlab
