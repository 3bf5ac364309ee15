// `passlab FILE --pass-pipeline=SPEC --report=OUT.html`: the batch run, which
// a workbench records as the REPL's, written as the HTML report
// (report/html_report.h).
#pragma once

#include <cstdio>

#include <string>
#include "core/workbench/workbench.h"
#include "report/html_report.h"

namespace passlab {

/// The report options of the faces: graphs drawn by the graph layer (graph/),
/// which the report itself does not depend on.
ReportOptions reportOptions(const Workbench& wb);

/// Writes the report of the run recorded in `wb` (batch mode's own workbench:
/// the report shows the run the batch made, not a second one) to `path`, and a
/// one-line summary to `err`. Returns false (with a message on `err`) when the
/// report cannot be made or written.
bool writeBatchReport(const Workbench& wb, const std::string& path, std::FILE* err);

}  // namespace passlab
