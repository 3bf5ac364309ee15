// Folding repeated diagnostics (see diagnostic_fold.h).
#include "core/ir/diagnostic_fold.h"

#include <algorithm>

#include "core/ir/severity_names.h"

namespace passlab {

namespace {

/// Locations listed in a note before "...".
constexpr size_t kLocationsListed = 8;

}  // namespace

bool DiagnosticFolder::accept(const Diagnostic& d) {
  auto same = std::find_if(groups_.begin(), groups_.end(), [&d](const Group& g) {
    return g.severity == d.severity && g.rule == d.rule && g.message == d.message;
  });
  if (same == groups_.end()) same = groups_.insert(groups_.end(), Group{d.severity, d.rule, d.message, 0, {}, 0});
  if (same->shown < kDiagnosticsShownPerMessage) {
    ++same->shown;
    return true;
  }
  ++same->rest;
  if (same->restLocations.size() < kLocationsListed && d.span.known()) same->restLocations.push_back(d.span.location());
  return false;
}

std::string DiagnosticFolder::summary() const {
  std::string out;
  for (const Group& g : groups_) {
    if (g.rest == 0) continue;
    if (!out.empty()) out += "\n";
    out += "note: " + std::to_string(g.rest) + " more " + std::string(severityName(g.severity)) + (g.rest == 1 ? "" : "s") +
           " with the same message";
    std::string where;
    for (const std::string& l : g.restLocations) where += (where.empty() ? "" : ", ") + l;
    if (!where.empty()) out += ", at " + where + (g.rest > g.restLocations.size() ? ", ..." : "");
  }
  return out;
}

std::string renderFolded(const std::vector<Diagnostic>& diagnostics) {
  DiagnosticFolder folder;
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    if (!folder.accept(d)) continue;
    if (!out.empty()) out += "\n";
    out += d.render();
  }
  if (std::string notes = folder.summary(); !notes.empty()) out += (out.empty() ? "" : "\n") + notes;
  return out;
}

}  // namespace passlab
