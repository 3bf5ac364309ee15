#include "core/workbench/break_kind.h"

namespace passlab {

std::string describeBreakpoint(const Breakpoint& bp) {
  switch (bp.kind) {
    case BreakKind::Pass: return "pass " + bp.pattern;
    case BreakKind::Function: return "func @" + bp.pattern;
    case BreakKind::Attr: return "attr " + bp.pattern;
    case BreakKind::Diagnostic: return bp.pattern.empty() ? "diag (any)" : "diag " + bp.pattern;
    case BreakKind::Remark: return "remark " + bp.pattern;
    case BreakKind::Numeric: {
      size_t space = bp.pattern.find(' ');
      return "numeric " + bp.pattern.substr(0, space) + " > " + (space == std::string::npos ? "" : bp.pattern.substr(space + 1));
    }
  }
  return "?";
}

std::string_view breakKindName(BreakKind kind) {
  const int index = static_cast<int>(kind);
  return index < kBreakKindCount ? kBreakKindNames[index] : kBreakKindNames[0];
}

std::optional<BreakKind> breakKindFromName(std::string_view name) {
  if (name == "function") return BreakKind::Function;
  for (int i = 0; i < kBreakKindCount; ++i)
    if (kBreakKindNames[i] == name) return static_cast<BreakKind>(i);
  return std::nullopt;
}

std::string breakKindList() {
  std::string out;
  for (int i = 0; i < kBreakKindCount; ++i)
    out += std::string(i == 0 ? "" : i + 1 == kBreakKindCount ? " or " : ", ") + kBreakKindNames[i];
  return out;
}

}  // namespace passlab
