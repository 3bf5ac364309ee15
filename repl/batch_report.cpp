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

bool writeBatchReport(const Workbench& wb, const std::string& path, std::FILE* err) {
  auto say = [err](const std::string& text) { std::fputs(text.c_str(), err); };
  try {
    ReportStats stats = writeHtmlReport(wb, path, reportOptions(wb));
    say("passlab: wrote the report (" + std::to_string(stats.events) + " events, " + std::to_string(stats.changedEvents) +
        " changed, " + std::to_string((stats.bytes + 1023) / 1024) + " KiB) to " + path + "\n");
    return true;
  } catch (const DiagnosticError& e) {
    say(e.renderAll() + "\n");
  } catch (const std::exception& e) {
    say(std::string("passlab: error: cannot write the report: ") + e.what() + "\n");
  }
  return false;
}

}  // namespace passlab
