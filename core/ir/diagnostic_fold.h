// Many diagnostics with one message, folded: a pass that fails the same way on
// every layer of a model (LegalizeOps on 46 batch_norms) would otherwise bury
// its one message under pages of copies.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/ir/diagnostic.h"

namespace passlab {

/// How many diagnostics of one message are rendered in full; the rest are
/// listed by location in a closing note.
inline constexpr size_t kDiagnosticsShownPerMessage = 3;

/// Every diagnostic rendered, newline-separated, except that of those with
/// the same severity, rule and message only the first
/// kDiagnosticsShownPerMessage are rendered; a note at the end counts the
/// rest and lists their first locations.
std::string renderFolded(const std::vector<Diagnostic>& diagnostics);

/// Streams diagnostics one at a time with the same folding (the batch
/// driver prints them as passes report them): accept() says whether to print
/// one now; summary() is the closing notes, "" when nothing was folded.
class DiagnosticFolder {
 public:
  /// True for the first kDiagnosticsShownPerMessage of each message.
  bool accept(const Diagnostic& d);
  /// One note per folded message: how many more, and where.
  std::string summary() const;

 private:
  struct Group {
    Severity severity;
    std::string rule, message;
    size_t shown = 0;
    std::vector<std::string> restLocations;
    size_t rest = 0;
  };
  std::vector<Group> groups_;
};

}  // namespace passlab
