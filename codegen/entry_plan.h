// The entry function of a built module as a flat plan of calls over static
// buffers: what the generated entry does, and what the C++ runners marshal.
// Internal to codegen/.
#pragma once

#include <string>
#include <vector>

#include "codegen/codegen.h"

namespace passlab::codegen {

/// One buffer of the plan.
struct PlanSlot {
  /// Input i / constant i / scratch owned by the entry (a static global).
  enum class Kind : uint8_t { Input, Const, Temp } kind = Kind::Temp;
  int index = 0;
  TensorSig sig;
  /// Temp: the block of EntryPlan::storageBytes that holds it. Temps whose
  /// lifetimes (first to last step that passes them) do not overlap share one.
  int storage = -1;
};

/// One call: a PrimFunc (call_tir) or an external C function, on slots.
struct PlanStep {
  std::string callee;
  bool external = false;
  std::vector<int> args;
};

/// The whole entry: inputs are slots 0..inputs-1; outputs name the slots the
/// entry copies into its output arguments.
struct EntryPlan {
  std::string name;
  std::vector<PlanSlot> slots;
  std::vector<NDArray> constants;
  std::vector<PlanStep> steps;
  std::vector<int> outputs;
  int inputCount = 0;
  /// Sizes of the static blocks the temps live in (assignStorage).
  std::vector<int64_t> storageBytes;
};

/// Plans graph-level function `name` of `mod`, temps placed in shared
/// storage blocks. Throws CodegenError (located
/// at the offending expression) for a body that is not a call sequence.
EntryPlan planEntry(const IRModule& mod, const std::string& name);

/// The symbol of a PrimFunc: its `global_symbol` or its module name.
std::string symbolOf(const IRModule& mod, const std::string& name);

}  // namespace passlab::codegen
