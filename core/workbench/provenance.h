// What `info config KEY` answers (Workbench::provenance): every recorded read
// of a configuration key, with the event that made it, and the setting now.
#pragma once

#include <string>
#include <vector>

#include "core/pass/pass.h"
#include "core/trace/provenance_check.h"

namespace passlab {

/// One recorded configuration read, with the event it belongs to.
struct ProvenanceEntry {
  int event = 0;
  /// The event's pass name and depth.
  std::string eventPass;
  int depth = 0;
  ConfigRead read;
};

/// All reads of a key (or of the keys matching a name), plus the current setting.
struct Provenance {
  /// The query as given.
  std::string query;
  /// Keys the entries are for (exact key first; else every key containing the query).
  std::vector<std::string> keys;
  std::vector<ProvenanceEntry> entries;
  /// Registered default, explicit value in the root context, both printed ("" = none).
  std::string registeredDefault;
  std::string explicitValue;
  bool registered = false;
  /// Provenance conflicts (see provenanceConflicts) of reads of the same
  /// setting: a nested pass took it from the module while its context said otherwise.
  std::vector<ProvenanceConflict> conflicts;
};

}  // namespace passlab
