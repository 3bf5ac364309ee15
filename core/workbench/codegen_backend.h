// The seam between the workbench and code generation.
//
// passlab_core cannot link passlab_codegen (LLVM lives above it), so the
// workbench records builds through this interface and the layer that links
// code generation (the REPL, hence the GUI's console too) registers an
// implementation with Workbench::setCodegenBackend. The workbench turns what
// the backend returns into trace events; the backend never touches the trace.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/ir/module.h"
#include "core/trace/build_log.h"

namespace passlab {

/// What to build.
struct CodegenRequest {
  /// Target text as the user gave it (`host`, `llvm`, `hexagon`, full TVM-style text).
  std::string target = "host";
  /// Graph-level function compiled as the module entry.
  std::string entry = "main";
  /// Also run the compiled entry on seeded inputs and compare it with the
  /// interpreter (a `run` stage).
  bool run = false;
  uint32_t seed = 0;
  /// Also time the entry on the host with a timestamp around each call (a
  /// `profile` stage: latency, and per PrimFunc calls, ms, share, GFLOP/s).
  bool profile = false;
  /// Timed runs of the profile (after one warm-up).
  int repeat = 10;
  /// Per kernel, the schedule LegalizeOps chose for it (its `legalize.*` rule
  /// without the prefix: "conv-pointwise"), shown in the profile table. The
  /// workbench fills it from the trace's remarks (kernelSchedules).
  std::map<std::string, std::string> kernelSchedules;
};

/// One stage of a build: becomes a child event of the build event.
struct CodegenStage {
  /// Short stage name, used as the event's pass name: `llvm`, `llvm-opt`, `asm`, `object`, `c`, `run`, `profile`.
  std::string name;
  /// The stage's text: the whole module's first (function ""), then one per function.
  std::vector<CodegenArtifact> artifacts;
};

/// What a backend produced for one build.
struct CodegenOutcome {
  /// Canonical target text (e.g. `llvm`, `hexagon -mcpu=...`), shown as the build event's options.
  std::string target;
  /// Human-readable summary (functions compiled, HVX use, entry signature), kept on the build event.
  std::string summary;
  std::vector<CodegenStage> stages;
};

/// Code generation as the workbench sees it.
class CodegenBackend {
 public:
  virtual ~CodegenBackend() = default;
  /// Compiles `mod`. Throws (any std::exception) with a message for the user when it cannot.
  virtual CodegenOutcome build(const IRModule& mod, const CodegenRequest& request) = 0;
};

}  // namespace passlab
