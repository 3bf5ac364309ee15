// `passlab FILE --pass-pipeline=SPEC --report=OUT.html`: the batch run
// recorded by a workbench, as the REPL records it, and written as the HTML
// report (report/html_report.h).
#pragma once

#include <cstdio>

#include "core/ir/module.h"
#include "core/pass/registry.h"
#include "core/workbench/workbench.h"
#include "repl/batch.h"
#include "report/html_report.h"

namespace passlab {

/// The report options of the faces: graphs drawn by the graph layer (graph/),
/// which the report itself does not depend on.
ReportOptions reportOptions(const Workbench& wb);

/// Runs the batch pipeline of `options` on `loaded` (the module as loaded and
/// type-checked) in a workbench with the same configuration and writes the
/// report to `options.report`. Passes are deterministic, so the recording is
/// the run the batch just made; a failing pass ends the recording as it ends
/// the batch. Returns false (with a message on `err`) when the report cannot
/// be made or written.
/// `origin` is the syntax the input was written in (the report prints in batchPrintSyntax).
bool writeBatchReport(const BatchOptions& options, const IRModule& loaded, const TextOrigin& origin, const PassRegistry& registry,
                      std::FILE* err);

}  // namespace passlab
