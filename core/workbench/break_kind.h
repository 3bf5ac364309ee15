// The names of breakpoint kinds, shared by every face: the REPL's `break`
// command parses them and the GUI persists them, so they are written once.
#pragma once

#include <optional>
#include <string_view>

#include "core/workbench/workbench.h"

namespace passlab {

/// "pass", "func", "attr", "diag", "numeric" or "remark".
std::string_view breakKindName(BreakKind kind);

/// The kind named `name` (breakKindName's words, plus "function" for func), or nullopt.
std::optional<BreakKind> breakKindFromName(std::string_view name);

}  // namespace passlab
