// The code generator the faces register with the workbench
// (Workbench::setCodegenBackend): passlab_codegen's build, cut into the
// stages the trace records (LLVM IR, optimized LLVM IR, assembly, object, C),
// each split per PrimFunc / ccompiler function.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "codegen/codegen.h"
#include "core/workbench/workbench.h"

namespace passlab {

/// Expected outputs of earlier reference runs, by reference module (its
/// identity: modules are immutable and the cache keeps them alive), entry,
/// seed and interpreter, so a second `run` of the same module and inputs
/// skips the interpreter. Holds the few most recent runs.
class ReferenceCache {
 public:
  /// The outputs stored for this run, or null.
  const std::vector<NDArray>* find(const IRModule& mod, const std::string& entry, uint32_t seed, bool tir) const;
  /// Stores the outputs of a run (dropping the oldest beyond kCapacity).
  void store(const IRModule& mod, const std::string& entry, uint32_t seed, bool tir, std::vector<NDArray> outputs);
  /// Runs kept: a 96x96 model's outputs are small, its modules are shared with the trace.
  static constexpr size_t kCapacity = 8;

 private:
  using Key = std::tuple<const void*, std::string, uint32_t, bool>;
  struct Entry {
    IRModule module;
    std::vector<NDArray> outputs;
    uint64_t stamp = 0;
  };
  std::map<Key, Entry> entries_;
  uint64_t clock_ = 0;
};

/// What `run` compares the compiled code with.
struct RunReference {
  /// The module the interpreter runs; null: the module that is compiled.
  IRModule module;
  /// True when that module reaches PrimFuncs, so the TIR interpreter runs their loops.
  bool tir = true;
  /// How the output names the reference ("the graph-level interpreter on #12 FuseOps ...").
  std::string label;
  /// Earlier reference runs (may be null: nothing cached).
  ReferenceCache* cache = nullptr;
  /// A status line for a reference run longer than about a second (may be null).
  std::function<void(const std::string&)> status;
  /// Polled while the reference runs; true stops waiting for it (may be null).
  std::function<bool()> cancelled;
};

/// passlab_codegen behind the workbench's CodegenBackend interface.
class LlvmCodegenBackend : public CodegenBackend {
 public:
  /// Builds with codegen::build; a CodegenError carries its message out unchanged.
  CodegenOutcome build(const IRModule& mod, const CodegenRequest& request) override;
  /// The full artifacts of the most recent successful build (the object file
  /// is binary, so only the trace's text stages hold the rest); null before one.
  const codegen::Artifacts* lastArtifacts() const { return last_ ? &*last_ : nullptr; }
  /// Reference outputs of `run` commands on this workbench.
  ReferenceCache& referenceCache() { return references_; }

  /// What a face hears of the builds this backend makes and how it stops
  /// them: set around one command (the REPL's `build`), null otherwise.
  struct Hooks {
    /// Each function a stage of the build starts on (codegen::BuildOptions::progress).
    std::function<void(const codegen::BuildProgress&)> progress;
    /// Polled between functions and LLVM passes, and by `build --run`'s reference run.
    std::function<bool()> cancelled;
  };
  Hooks hooks;

 private:
  ReferenceCache references_;
  std::optional<codegen::Artifacts> last_;
};

/// The workbench's backend when it is an LlvmCodegenBackend; otherwise
/// registers a fresh one (so a face that forgot to register still builds).
LlvmCodegenBackend& ensureCodegenBackend(Workbench& wb);

/// `host`, `llvm`, `hexagon` or full target text; WorkbenchError for an unknown target.
codegen::Target parseTargetWord(const std::string& text);

/// Timed host runs (`run --repeat N [--profile]`, `build --profile`).
struct TimingRequest {
  /// Timed runs after one warm-up run.
  int repeat = 10;
  /// Also time every call of the entry (the build is instrumented: BuildOptions::profile).
  bool perKernel = false;
  /// Kernel -> the schedule LegalizeOps chose for it (CodegenRequest::kernelSchedules).
  std::map<std::string, std::string> schedules = {};
};

/// One PrimFunc (or ccompiler function) of a profiled entry.
struct KernelProfile {
  std::string function;
  /// Calls per run of the entry.
  int calls = 0;
  /// Time in it per run of the entry (all its calls; the median over the
  /// timed runs), in ms.
  double msPerRun = 0;
  /// Floating-point operations per run (codegen::multiplyAccumulateFlops x calls; 0: not counted).
  int64_t flopsPerRun = 0;
  /// The shape its output buffer (the last parameter) has, as "1x72x28x28":
  /// in a 700-op model it tells apart kernels whose names only differ by a number.
  std::string output;
  /// The schedule LegalizeOps chose ("conv-pointwise"; "" when unknown):
  /// `remarks LegalizeOps @function` says why, with its tiles.
  std::string schedule;
};

/// What timed runs measured.
struct TimingReport {
  int repeat = 0;
  /// Entry latency over the timed runs.
  double medianMs = 0, minMs = 0;
  bool perKernel = false;
  /// By time, largest first (empty unless perKernel).
  std::vector<KernelProfile> kernels;
  /// Sum of the kernels' time per run (of their medians).
  double kernelMs = 0;
  /// The JIT build before the runs: wall ms (machine code included), its
  /// units (kernels and the entry) and how many reused an earlier build's
  /// object, reusedUnitsFromDisk of them from the cache directory.
  double compileMs = 0;
  int compileUnits = 0, reusedUnits = 0, reusedUnitsFromDisk = 0;
  /// Kernels of that build that call a shared body (differing only in
  /// sizes), and how many bodies they call.
  int kernelsOnSharedBodies = 0, sharedBodies = 0;
  /// With more than one thread in the pool (codegen::setThreadCount): each
  /// thread's time in parallel loops per timed run, ms (0: the caller's).
  std::vector<double> threadMs;
};

/// The latency line and, when profiled, the table of kernels by total time:
/// calls, ms per run, share, GFLOP/s, output shape.
std::string formatTiming(const TimingReport& t);
/// `text` (a build summary, a profile, a run's report: what formatTiming and
/// the build summary write) with its model-sized lists capped at `cap`: a
/// function list ("  PrimFuncs: @a, @b, ...") keeps `cap` names and counts the
/// rest, the kernel table keeps the `cap` slowest kernels, then one row for
/// the others (their count, ms and share), then the total. The records keep
/// every entry; the faces cap what they show (`--all` lifts it). A function
/// list on one line keeps `nameCap` names.
std::string capBuildText(const std::string& text, size_t cap, size_t nameCap);
/// One kernel as the profile stage stores it (parsed back by parseKernelLine).
std::string kernelLine(const KernelProfile& k, double totalMs);
/// Reads a kernelLine back (false when `text` is not one).
bool parseKernelLine(const std::string& text, KernelProfile& out);

/// Compiled code run against the interpreter.
struct RunReport {
  /// Per output the max error and tolerance, then PASS or FAIL ("" when `error` is set).
  std::string text;
  /// Every output within tolerance.
  bool ok = false;
  /// Why it could not run (no such entry, a codegen or qemu failure).
  std::string error;
  /// Set when timing was asked for and the run got that far.
  std::optional<TimingReport> timing;
};

/// Why profiling refuses Hexagon.
inline constexpr const char* kHostOnlyProfiling =
    "timing and profiling are host-only: qemu-hexagon emulates the instructions, its times are not Hexagon hardware times";

/// Runs entry `entry` of `mod` on the host JIT or on Hexagon under qemu
/// (reusing `built` when it is a Hexagon build of that entry) with seeded
/// random inputs, and compares every output with the reference interpreter
/// within a dtype tolerance (float16 1e-2, float32 1e-4, relative to the largest |reference|).
/// `reference` says which module the interpreter runs (null: `mod` itself,
/// its PrimFuncs through the TIR interpreter); the output names it.
/// With `timing` (host only), the compiled entry is then run 1 + timing->repeat
/// times (the first a warm-up) and RunReport::timing filled. `hostTarget`:
/// the host target text whose -mcpu / -mattr the JIT compiles for ("": the
/// host CPU as it is).
RunReport runAndCompare(const IRModule& mod, const std::string& entry, bool hexagon, uint32_t seed,
                        const codegen::Artifacts* built = nullptr, const TimingRequest* timing = nullptr,
                        const RunReference* reference = nullptr, const std::string& hostTarget = "");

/// The text of `symbol`'s definition in LLVM IR text ("" when absent).
std::string llvmFunctionText(const std::string& ir, const std::string& symbol);
/// The assembly of `symbol`: from its label to its .Lfunc_end ("" when absent).
std::string asmFunctionText(const std::string& s, const std::string& symbol);

}  // namespace passlab
