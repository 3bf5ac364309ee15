// ToNonDataflow: dataflow blocks become plain let bindings.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The ToNonDataflow function pass, as Relax's transform.ToNonDataflow: every
/// dataflow block `dataflow { %lv = v; output %gv = w; } body` becomes the let
/// chain `let %lv = v; let %gv = w; body`, in binding order. Dataflow-local
/// variables are replaced by ordinary variables of the same name and type (a
/// dataflow variable outside a block is ill-formed). Functions without a
/// dataflow block keep their identity; functions FunctionPass skips (Compiler,
/// Extern) are left alone. Needed before phase 2, which forbids dataflow blocks.
PassPtr createToNonDataflowPass();

}  // namespace passlab
