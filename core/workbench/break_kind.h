// The names of breakpoint kinds, shared by every face: the REPL's `break`
// command parses them and the GUI persists them, so they are written once.
#pragma once

#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "core/workbench/workbench.h"

namespace passlab {

/// The name of each breakpoint kind, indexed by its value (C strings, so the
/// GUI's combo box takes the table as it is).
inline constexpr const char* kBreakKindNames[] = {"pass", "func", "attr", "diag", "numeric", "remark"};
/// How many kinds there are.
inline constexpr int kBreakKindCount = static_cast<int>(std::size(kBreakKindNames));
static_assert(static_cast<int>(BreakKind::Remark) + 1 == kBreakKindCount, "a BreakKind without a name");

/// "pass", "func", "attr", "diag", "numeric" or "remark" (kBreakKindNames).
std::string_view breakKindName(BreakKind kind);

/// The names for a message: "pass, func, attr, diag, numeric or remark".
std::string breakKindList();

/// The kind named `name` (breakKindName's words, plus "function" for func), or nullopt.
std::optional<BreakKind> breakKindFromName(std::string_view name);

}  // namespace passlab
