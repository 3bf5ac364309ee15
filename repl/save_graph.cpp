#include "repl/save_graph.h"

#include <fstream>
#include <map>

#include "graph/graph_export.h"
#include "repl/command_util.h"

namespace passlab {

using namespace command_util;

void runSaveGraph(CommandContext& ctx, CommandArgs& args, bool before, CommandResult& result) {
  Workbench& wb = ctx.workbench;
  std::string function = args.takeFunction();
  int event = wb.cursor();
  bool whole = false;
  std::vector<std::string> positional;
  const std::vector<std::string>& words = args.words();
  for (size_t i = 1; i < words.size(); ++i) {  // words[0] is "graph"
    if (words[i] == "--event") {
      if (i + 1 >= words.size()) return result.fail("--event needs an event id, e.g. --event 3");
      event = parseEventId(words[++i]);
    } else if (words[i] == "--whole") {
      whole = true;
    } else {
      positional.push_back(words[i]);
    }
  }
  if (positional.size() != 1) return result.fail(usage(*ctx.interpreter.find("save")));
  const std::string& path = positional[0];
  const Side side = before ? Side::Before : Side::After;
  try {
    graph::GraphFormat format = graph::graphFormatOf(path);
    graph::EventGraphs graphs = graph::eventGraphs(wb, event, function);
    // Cut into pages here rather than in graphText, to tell the user how many.
    graph::SvgPages pages;
    pages.svg = graph::graphText(graphs, side, format, 0.0);
    if (format == graph::GraphFormat::Svg && !whole) pages = graph::paginateSvg(pages.svg);
    const std::string& text = pages.svg;
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw WorkbenchError("cannot write '" + path + "'");
    const auto& g = graphs.graph(side);
    const graph::SideDiff& d = graphs.sideDiff(side);
    // Counted by status among the drawn nodes, as "N nodes" counts them (chips show on their readers).
    std::map<graph::DiffStatus, size_t> byStatus;
    for (size_t i = 0; i < g->nodes.size() && i < d.nodes.size(); ++i)
      if (g->nodes[i].chipOf < 0 && d.nodes[i] != graph::DiffStatus::Unchanged) ++byStatus[d.nodes[i]];
    std::string changed;
    for (const auto& [status, n] : byStatus) changed += ", " + std::to_string(n) + " " + graph::diffStatusName(status);
    if (changed.empty()) changed = ", none changed";
    result.out("wrote the graph of @" + graphs.function + " " + (before ? "before" : "after") + " #" + std::to_string(event) +
               " (" + std::to_string(g->laidOutCount()) + " nodes, " + std::to_string(g->clusters.size()) + " boxes" + changed +
               (pages.pages > 1 ? ", " + std::to_string(pages.pages) + " pages" : std::string()) + ") to " + path + "\n");
  } catch (const graph::GraphError& e) {
    result.fail(e.what());
  }
}

}  // namespace passlab
