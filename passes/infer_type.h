// InferType: fills the type of every expression of every graph-level function.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The InferType module pass: runs type inference (core/analysis/type_infer.h)
/// over the module. Types are caches on the shared nodes, so the module object
/// is returned unchanged; a type error fails the pass with located diagnostics.
PassPtr createInferTypePass();

}  // namespace passlab
