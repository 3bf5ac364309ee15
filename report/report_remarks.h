// Inside the HTML report: the "Remarks" section (core/workbench/remarks.h).
#pragma once

#include <string>

#include "core/workbench/workbench.h"

namespace passlab {

/// Appends the Remarks section: per event, the remarks counted by rule (missed
/// first), each rule's remarks folded under its count, the first 50 listed.
void writeRemarksSection(std::string& out, const Workbench& wb);

}  // namespace passlab
