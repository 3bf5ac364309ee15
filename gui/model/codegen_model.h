// View model of the codegen panel. Code generation (LLVM IR, host and Hexagon
// assembly, qemu run output per PrimFunc) comes with a later issue; until the
// workbench exposes it the panel lists what exists already — the PrimFuncs of
// the module at the cursor with their target and symbol — and says that no
// code has been generated.
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

/// What the codegen panel shows.
struct CodegenModel {
  /// PrimFuncs of the module at the selected event, by name.
  std::vector<PrimFuncRow> primFuncs;
  /// Shown where generated code would be.
  std::string emptyMessage;
};

/// The PrimFuncs of event `id`'s module (after) and the empty-state message.
CodegenModel buildCodegenModel(const Workbench& wb, int id);

}  // namespace passlab::gui
