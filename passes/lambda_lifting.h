// LambdaLifting: inner functions become globals; the module enters phase 1.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The LambdaLifting module pass, the 0 -> 1 phase transition (seed 002): every
/// function nested in a graph-level global is lifted to a new global
/// `@<outer>_<letvar>` (or `@<outer>_lifted` for an anonymous one, suffixed
/// `_1`, `_2`, ... when taken), innermost first, keeping its attributes.
/// Variables it captures become leading parameters, and its calls pass them:
///   def @main(%x) { let %f = fn (%y) { add(%x, %y) }; %f(%x) }
///   ->  def @main(%x) { @main_f(%x, %x) }   def @main_f(%x1, %y) { add(%x1, %y) }
/// A lifted function that captures nothing may also be used as a value (it
/// becomes the global); one that captures variables and is used other than as
/// a callee needs a closure, which this IR lacks: a DiagnosticError at it.
/// Functions with a `Compiler` attribute stay where they are (external codegen
/// regions keep their inner structure), as do globals FunctionPass would skip.
/// Sets the module attribute `phase` to 1 (never lowers it); functions with nothing to lift keep
/// their identity. Lifted nodes are untyped: run InferType afterwards.
PassPtr createLambdaLiftingPass();

}  // namespace passlab
