#include "graph/graph_export.h"

#include <cctype>

#include "graph/graphviz_layout.h"

namespace passlab::graph {

EventGraphs graphsOf(const IRModule& before, const IRModule& after, const std::string& rawName, const ModuleEdits* edits) {
  std::string name = !rawName.empty() && rawName[0] == '@' ? rawName.substr(1) : rawName;
  EventGraphs out;
  out.function = name;
  bool inBefore = before && before->lookup(name), inAfter = after && after->lookup(name);
  if (!inBefore && !inAfter) {
    // Let buildGraph say which functions there are.
    (void)buildGraph(after ? after : before, name);
  }
  if (inAfter) out.after = buildGraph(after, name);
  // An untouched function is the same node on both sides: one graph.
  if (inBefore) out.before = inAfter && before->lookup(name) == after->lookup(name) ? out.after : buildGraph(before, name);
  out.diff = diffGraphs(before, out.before, after, out.after, edits);
  return out;
}

EventGraphs eventGraphs(const Workbench& wb, int event, const std::string& function) {
  const TraceEvent& ev = wb.event(event);
  std::string name = function;
  if (name.empty()) {
    name = defaultGraphFunction(ev.after, ev.changedFunctions);
    if (name.empty()) name = defaultGraphFunction(ev.before, ev.changedFunctions);
    if (name.empty()) throw GraphError("event #" + std::to_string(event) + " has no graph-level function to draw");
  }
  try {
    auto edits = ev.before == ev.after ? nullptr : wb.edits(event, Side::Before, event, Side::After);
    return graphsOf(ev.before, ev.after, name, edits.get());
  } catch (const GraphError& e) {
    throw GraphError(std::string(e.what()) + " at event #" + std::to_string(event));
  }
}

GraphFormat graphFormatOf(const std::string& path) {
  auto ends = [&](const char* suffix) {
    std::string s(suffix);
    return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  if (ends(".svg")) return GraphFormat::Svg;
  if (ends(".dot") || ends(".gv")) return GraphFormat::Dot;
  throw GraphError("cannot tell the graph format of '" + path + "': name it .svg or .dot");
}

std::string graphText(const EventGraphs& graphs, Side side, GraphFormat format, double pageHeightPt) {
  const auto& g = graphs.graph(side);
  if (!g)
    throw GraphError("@" + graphs.function + " does not exist " + (side == Side::Before ? "before" : "after") +
                     " this event (the pass " + (side == Side::Before ? "added" : "removed") + " it)");
  CollapseState collapse = defaultCollapse(*g);
  const SideDiff& d = graphs.sideDiff(side);
  if (format == GraphFormat::Dot) return graphToDot(*g, collapse, &d);
  return paginateSvg(renderSvg(*g, collapse, &d), pageHeightPt).svg;
}

std::string eventGraphText(const Workbench& wb, int event, const std::string& function, Side side, GraphFormat format,
                           double pageHeightPt) {
  return graphText(eventGraphs(wb, event, function), side, format, pageHeightPt);
}

std::vector<std::string> changedGraphFunctions(const IRModule& before, const IRModule& after) {
  std::vector<std::string> out;
  if (!after) return out;
  for (const auto& [name, fn] : after->functions) {
    if (!as<FunctionNode>(fn)) continue;
    Expr old = before ? before->lookup(name) : nullptr;
    if (old != fn) out.push_back(name);
  }
  return out;
}

std::string fileSafe(const std::string& text) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ? c : '_';
  return out;
}

}  // namespace passlab::graph
