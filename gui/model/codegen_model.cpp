#include "gui/model/codegen_model.h"

#include <unordered_map>

namespace passlab::gui {
namespace {

/// The build to show for event `id`: its own, else the latest made from it.
int buildFor(const Workbench& wb, int id) {
  if (int own = wb.builds().buildOf(id); own >= 0) return own;
  const std::vector<int> made = wb.builds().buildsFrom(id);
  return made.empty() ? -1 : made.back();
}

void fillBuild(const Workbench& wb, int selected, CodegenModel& m) {
  const TraceEvent& build = wb.event(m.buildEvent);
  m.builtFrom = wb.builds().builtFrom(m.buildEvent);
  m.target = build.options;
  // Options are pipeline text (`target="llvm"`); the panel wants the bare target.
  if (size_t q = m.target.find('"'); q != std::string::npos && m.target.size() > q + 1 && m.target.back() == '"')
    m.target = m.target.substr(q + 1, m.target.size() - q - 2);
  const std::vector<CodegenArtifact>& summary = wb.builds().artifacts(m.buildEvent);
  m.summary = summary.empty() ? std::string() : summary.front().text;
  std::unordered_map<std::string, size_t> row;
  for (int child : build.children) {
    const TraceEvent& stage = wb.event(child);
    const size_t s = m.stages.size();
    if (child == selected) m.selectedStage = static_cast<int>(s);
    m.stages.push_back(stage.pass);
    m.stageEvents.push_back(child);
    m.moduleText.emplace_back();
    for (const CodegenArtifact& a : wb.builds().artifacts(child)) {
      if (a.function.empty()) {
        m.moduleText.back() = a.text;
        continue;
      }
      auto [it, added] = row.emplace(a.function, m.functions.size());
      if (added) m.functions.push_back({a.function, {}});
      m.functions[it->second].text.resize(s + 1);
      m.functions[it->second].text[s] = a.text;
    }
  }
  for (CodegenFunctionCode& f : m.functions) f.text.resize(m.stages.size());
}

}  // namespace

CodegenModel buildCodegenModel(const Workbench& wb, int id) {
  CodegenModel m;
  if (!wb.loaded()) {
    m.emptyMessage = "No model loaded.";
    return m;
  }
  const IRModule& mod = wb.moduleAt(id, Side::After);
  for (const auto& [name, fn] : mod->functions) {
    const auto* prim = as<PrimFuncNode>(fn);
    if (!prim) continue;
    PrimFuncRow row;
    row.name = name;
    row.target = prim->attrs.getString(fn_attr::kTarget);
    row.globalSymbol = prim->attrs.getString(fn_attr::kGlobalSymbol);
    row.params = prim->params.size();
    m.primFuncs.push_back(std::move(row));
  }
  m.buildEvent = buildFor(wb, id);
  if (m.buildEvent >= 0) {
    fillBuild(wb, id, m);
    return m;
  }
  m.emptyMessage = m.primFuncs.empty()
                       ? "No code generated: this module has no PrimFuncs yet (LegalizeOps lowers operators to them)."
                       : "Not built from this event yet: `build` (or `build --target hexagon`) in the console compiles "
                         "the module at the cursor and records its stages in the trace.";
  return m;
}

}  // namespace passlab::gui
