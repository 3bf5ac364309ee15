// Constants by reference in the IR view: which `meta[relay.Constant][N]`
// (Relay) or `metadata["relax.expr.Constant"][N]` (TVMScript) lies under a
// column of a printed line, and what hovering it shows (what `show const N`
// prints). Plain functions, no ImGui, so the span finding is tested on its own
// (tests/gui/test_gui_constants.cpp); the IR panel maps the mouse to a column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/workbench/workbench.h"

namespace passlab::gui {

/// One constant reference in a line: bytes [begin, end) spell it, `number` is its N.
struct ConstantRefSpan {
  size_t begin = 0;
  size_t end = 0;
  int32_t number = -1;
  /// True for the TVMScript spelling (`metadata["relax.expr.Constant"][N]`).
  bool tvmscript = false;
  bool operator==(const ConstantRefSpan&) const = default;
};

/// Every constant reference in `line`, left to right. A word that only ends in
/// `meta` (`%meta`, `my_meta`), another metadata kind (`meta[VirtualDevice][0]`)
/// or an unfinished reference is not one.
std::vector<ConstantRefSpan> constantRefsIn(std::string_view line);

/// The reference whose spelling covers byte `column` of `line` (its brackets
/// and number included), or nullopt.
std::optional<ConstantRefSpan> constantRefAt(std::string_view line, size_t column);

/// The reference as printed, e.g. `meta[relay.Constant][3]`.
std::string constantRefText(const ConstantRefSpan& span);

/// The tooltip of a hovered reference: what `show const N` prints (the reference,
/// then describeConstant of the session's constant N), or the workbench's
/// message when N names no constant.
std::string constantTooltip(const Workbench& workbench, const ConstantRefSpan& span);

/// The console line a click on the reference runs (`show const N`; adding
/// `--all` from the history prints every value).
std::string constantCommand(const ConstantRefSpan& span);

}  // namespace passlab::gui
