// Inline: replaces calls to global functions marked Inline=1 by their bodies.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The Inline module pass, as TVM's relay.transform.Inline: every call
/// `@f(args)` to a graph-level global with a non-zero `Inline` attribute is
/// replaced by f's body with the parameters bound to the arguments (bound
/// variables inside the body are renewed per call site, so inlining twice never
/// defines a variable twice). Inline functions calling inline functions are
/// resolved first; recursion among them is a DiagnosticError. An inline function
/// that carries `Compiler` (a partition made by PartitionGraph) is inlined as
/// TVM does it: whole, the call site calling a copy of the function literal
/// with its attributes, which OutlineCompilerFunctions can lift back. A function
/// with a non-zero `Extern` is not inlined (recorded as a skip), nor is anything
/// inlined into functions FunctionPass would skip.
/// Afterwards every inline function nothing references any more is removed
/// (`main` never is). Functions without such calls keep their identity.
PassPtr createInlinePass();

}  // namespace passlab
