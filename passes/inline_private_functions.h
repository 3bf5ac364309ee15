// InlinePrivateFunctions: subroutines inlined for code generators that cannot emit calls (seed 004).
#pragma once

#include <string>
#include <vector>

#include "core/pass/pass.h"

namespace passlab {

/// Config key: the target kinds whose code generator cannot emit calls between
/// PrimFuncs. The one place the capability is registered; its default lists
/// `hexagon` (the device path emits each kernel as one self-contained function),
/// and every read is recorded, so the trace shows why a function was inlined.
inline constexpr const char* kTargetsWithoutCallsKey = "tir.InlinePrivateFunctions.targets_without_calls";
/// Default of kTargetsWithoutCallsKey.
std::vector<std::string> defaultTargetsWithoutCalls();

/// The InlinePrivateFunctions pass. For every PrimFunc whose `target` kind is
/// in kTargetsWithoutCallsKey, each call statement `@sub(...)` of a private
/// PrimFunc (one without `global_symbol`) is replaced by the callee's body:
/// buffer parameters become the caller's buffers (flat-indexed when the
/// shapes differ), scalar parameters are let-bound to the argument, loop
/// variables and scratch buffers are fresh. Inlining repeats through nested
/// subroutines. Private PrimFuncs nothing calls any more are removed. Callers
/// whose target can emit calls are recorded as skipped with the reason; a call
/// to a public PrimFunc from such a target, or a call used as a value, is a
/// warning (rule `inline-private.cannot-inline`); recursion fails the pass.
PassPtr createInlinePrivateFunctionsPass();

}  // namespace passlab
