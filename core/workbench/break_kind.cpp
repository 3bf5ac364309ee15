#include "core/workbench/break_kind.h"

namespace passlab {

std::string_view breakKindName(BreakKind kind) {
  switch (kind) {
    case BreakKind::Pass: return "pass";
    case BreakKind::Function: return "func";
    case BreakKind::Attr: return "attr";
    case BreakKind::Diagnostic: return "diag";
    case BreakKind::Numeric: return "numeric";
    case BreakKind::Remark: return "remark";
  }
  return "pass";
}

std::optional<BreakKind> breakKindFromName(std::string_view name) {
  if (name == "function") return BreakKind::Function;
  for (BreakKind k : {BreakKind::Pass, BreakKind::Function, BreakKind::Attr, BreakKind::Diagnostic, BreakKind::Numeric, BreakKind::Remark})
    if (breakKindName(k) == name) return k;
  return std::nullopt;
}

}  // namespace passlab
