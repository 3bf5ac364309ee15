// Breakpoints: what each kind watches, and the names of the kinds, shared by
// every face (the REPL's `break` command parses them and the GUI persists
// them, so they are written once). Workbench::addBreakpoint sets them.
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace passlab {

/// What a breakpoint watches.
enum class BreakKind : uint8_t {
  Pass,        ///< an event of the named pass completes
  Function,    ///< the named global function changes (added, removed or rewritten)
  Attr,        ///< an attribute key changes on any function (or on the module)
  Diagnostic,  ///< an event reports a diagnostic with the rule id (any rule when empty)
  Numeric,     ///< the numeric-check error of an event exceeds a threshold (pattern "rel 0.01", "abs 1e-3")
  Remark,      ///< an event emits a remark with the rule id (core/pass/remark.h)
};

/// One breakpoint.
struct Breakpoint {
  /// Stable id (1, 2, ...), never reused within a workbench.
  int id = 0;
  BreakKind kind = BreakKind::Pass;
  /// Pass name, function name (without '@'), attribute key or rule id ("" = any rule).
  std::string pattern;
  bool enabled = true;
  /// How many times a move stopped here.
  int hits = 0;
  /// Numeric breakpoints: the error bound, and whether it bounds the relative
  /// (default) or the absolute error. An event that could not be compared hits too.
  double threshold = 0;
  bool relativeError = true;
};
/// "pass FuseOps", "func @main", "attr Compiler", "diag type.shape-mismatch", "diag (any)", "numeric rel > 0.01".
std::string describeBreakpoint(const Breakpoint& bp);

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
