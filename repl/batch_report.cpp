#include "repl/batch_report.h"

#include <memory>
#include <string>

#include "graph/graph_export.h"

namespace passlab {

ReportOptions reportOptions(const Workbench& wb) {
  ReportOptions options;
  options.graphSvg = [&wb](int event, const std::string& function, Side side) {
    return graph::eventGraphText(wb, event, function, side, graph::GraphFormat::Svg);
  };
  return options;
}

bool writeBatchReport(const BatchOptions& o, const IRModule& loaded, const TextOrigin& origin, const PassRegistry& registry,
                      std::FILE* err) {
  auto say = [err](const std::string& text) { std::fputs(text.c_str(), err); };
  try {
    // The caller owns the registry and outlives this workbench.
    Workbench wb(std::shared_ptr<const PassRegistry>(&registry, [](const PassRegistry*) {}));
    LoadOptions load;
    load.typeCheck = o.typeCheck;
    wb.loadModule(loaded, o.input == "-" ? "<stdin>" : o.input, load, origin);
    wb.setPrintSyntax(batchPrintSyntax(o, origin));
    wb.setConstantStyle(o.constants);
    if (o.optLevel >= 0) wb.setOptLevel(o.optLevel);
    if (o.hasTarget) wb.setTarget(o.target);
    for (const auto& [key, text] : o.config) wb.setConfigText(key, text);
    wb.setDisabledPasses({o.disabledPasses.begin(), o.disabledPasses.end()});
    wb.setRequiredPasses({o.requiredPasses.begin(), o.requiredPasses.end()});
    if (o.verifyEach) wb.setVerifyEach(true);
    if (o.hasPipeline) {
      wb.setPipeline(o.pipeline);
      wb.run();
    }
    ReportStats stats = writeHtmlReport(wb, o.report, reportOptions(wb));
    say("passlab: wrote the report (" + std::to_string(stats.events) + " events, " + std::to_string(stats.changedEvents) +
        " changed, " + std::to_string((stats.bytes + 1023) / 1024) + " KiB) to " + o.report + "\n");
    return true;
  } catch (const DiagnosticError& e) {
    say(e.renderAll() + "\n");
  } catch (const std::exception& e) {
    say(std::string("passlab: error: cannot write the report: ") + e.what() + "\n");
  }
  return false;
}

}  // namespace passlab
