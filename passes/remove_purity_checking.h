// RemovePurityChecking: purity stops being tracked for the build phase.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The RemovePurityChecking module pass, as Relax's transform.RemovePurityChecking:
/// every graph-level function not marked impure (`is_pure=0`) gets
/// `force_pure=1`, and the pure wrappers are unwrapped into the plain calls they
/// stand for:
///   call_pure_packed(%f, %a, %b)       ->  %f(%a, %b)
///   invoke_pure_closure(%c, (%a, %b))  ->  %c(%a, %b)
/// (a closure argument that is not a tuple literal is projected field by field
/// from its tuple type; an unknown arity is a DiagnosticError at the call).
/// Functions with `Compiler` or a non-zero `Extern` belong to someone else and
/// are left alone (recorded as skips). Phase 2 only: after it, phase 3's
/// "marked impure or force-pure" and "no purity wrappers" invariants hold.
PassPtr createRemovePurityCheckingPass();

}  // namespace passlab
