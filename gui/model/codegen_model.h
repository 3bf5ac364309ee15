// View model of the codegen panel: the code of one build (Workbench::build)
// per stage and per function — LLVM IR before and after optimization, target
// assembly, the object, C of ccompiler functions — or, when nothing was built
// from the selected event, the PrimFuncs a build would compile.
#pragma once

#include <string>
#include <vector>

#include "core/workbench/workbench.h"

namespace passlab::gui {

/// One low-level function that code generation would compile.
struct PrimFuncRow {
  /// Global name without '@'.
  std::string name;
  /// The `target` attribute ("" when missing: BindTarget has not run).
  std::string target;
  /// The `global_symbol` attribute ("" when missing).
  std::string globalSymbol;
  /// Number of parameters (buffers and scalars).
  size_t params = 0;
};

/// One function's code across a build's stages.
struct CodegenFunctionCode {
  /// Global name without '@'.
  std::string function;
  /// Per stage (CodegenModel::stages), its text ("" where the stage has none for it).
  std::vector<std::string> text;
};

/// What the codegen panel shows.
struct CodegenModel {
  /// PrimFuncs of the module at the selected event, by name.
  std::vector<PrimFuncRow> primFuncs;
  /// Shown when there is no build to show.
  std::string emptyMessage;
  /// The build shown (-1: none): the selected event's own build, else the
  /// most recent one made from the selected event.
  int buildEvent = -1;
  /// The event it compiled, its target text and its summary.
  int builtFrom = -1;
  std::string target;
  std::string summary;
  /// Stage names in build order (the panel's tabs) and their events.
  std::vector<std::string> stages;
  std::vector<int> stageEvents;
  /// The tab to open: the selected stage event's, else 0.
  int selectedStage = 0;
  /// Whole-module text per stage.
  std::vector<std::string> moduleText;
  /// Functions that have code in any stage, in first-seen order.
  std::vector<CodegenFunctionCode> functions;
};

/// The build shown for event `id` (see CodegenModel::buildEvent) and the PrimFuncs of its module.
CodegenModel buildCodegenModel(const Workbench& wb, int id);

}  // namespace passlab::gui
