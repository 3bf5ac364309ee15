#include "gui/model/codegen_model.h"

namespace passlab::gui {

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
  m.emptyMessage = m.primFuncs.empty()
                       ? "No code generated: this module has no PrimFuncs yet (lowering to TIR and LLVM code generation "
                         "come with a later issue)."
                       : "No code generated yet: LLVM IR, host and Hexagon assembly and the qemu run output per "
                         "PrimFunc appear here once the workbench exposes code generation (a later issue).";
  return m;
}

}  // namespace passlab::gui
