// View model of the diagnostics panel: the diagnostics of the selected event
// (and of the passes nested in it), its failure, and the functions it skipped,
// each with the place in the printed IR the IR view should scroll to.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/workbench/workbench.h"
#include "gui/model/palette.h"
#include "gui/model/printed_text.h"

namespace passlab::gui {

/// Where in the IR view a row points: a side and a line range of the printed module.
struct IrLocation {
  /// Which printed module (before or after the event).
  Side side = Side::After;
  /// The lines of the node.
  LineRange lines;
  /// 1-based columns on the first and last line (0 = whole line).
  uint32_t column = 0, endColumn = 0;
};

/// One row of the diagnostics panel.
struct DiagnosticRow {
  /// A reported diagnostic, a failure without one, or a skipped function.
  enum class Kind : uint8_t { Diagnostic, Failure, Skip };
  Kind kind = Kind::Diagnostic;
  /// The event that reported it (the selected one or a nested one).
  int event = 0;
  Severity severity = Severity::Error;
  /// Colour of the label.
  ColourRole colour = ColourRole::SeverityError;
  /// "error", "warning", "note", "failed", "skipped".
  std::string label;
  /// Rule id (diagnostics), or the pass (failures and skips).
  std::string rule;
  /// The function concerned ("" when none).
  std::string function;
  /// What happened.
  std::string message;
  /// file:line:col of the source span ("" when unknown).
  std::string sourceLocation;
  /// Where the IR view should go when the row is clicked (none when it cannot be placed).
  std::optional<IrLocation> target;
};

/// The rows for event `id`. `printed(side)` gives the printed module of that
/// side of the event (the IR view's, so line numbers agree). Rows from nested
/// events are included (their nodes mostly live in other modules: such rows
/// are placed by function name when the function exists in this module).
std::vector<DiagnosticRow> buildDiagnosticRows(const Workbench& wb, int id, const PrintedText& before,
                                               const PrintedText& after);

/// Finds where `d` is in `text`: the printed range of the node whose source
/// span matches the diagnostic's, else the definition of its function.
std::optional<IrLocation> locateDiagnostic(const Diagnostic& d, const PrintedText& text, Side side);

/// The role of a severity.
ColourRole colourOf(Severity severity);

}  // namespace passlab::gui
