// The Relax-only passes of the built-in table (TVM's relax.transform names).
#pragma once

#include <vector>

#include "core/pass/registry.h"

namespace passlab {

/// Appends AnnotateTIROpPattern, CanonicalizeBindings and FuseTIR to the built-in table (FuseOps and
/// LegalizeOps take their Relax form on Relax modules themselves).
void addRelaxPasses(std::vector<PassRegistration>& table);

}  // namespace passlab
