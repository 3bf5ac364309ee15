// Code generation: TIR PrimFuncs (and the call_tir sequence of a module's
// entry function) to LLVM IR, then to a host JIT or a Hexagon object that is
// linked with the project's freestanding runtime and run under qemu-hexagon;
// `Compiler="ccompiler"` functions become C compiled with clang-14.
//
// This header holds no LLVM types: LLVM headers stay inside codegen/*.cpp
// (they cost seconds per file to compile and would leak into every layer).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/module.h"
#include "core/ir/ndarray.h"

namespace passlab::codegen {

/// A failure of code generation or of the external tools it drives (clang,
/// ld.lld, qemu). The message names the function and, where known, the IR
/// location (file:line:col).
class CodegenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A build stopped by BuildOptions::cancelled: its message says where
/// ("while optimizing @fused_conv2d (12 of 81 functions)").
class BuildCancelled : public CodegenError {
 public:
  using CodegenError::CodegenError;
};

/// Where a build is, for a face's status line or progress bar.
struct BuildProgress {
  /// What is being done: "emitting LLVM IR", "optimizing", "generating
  /// assembly", "generating the object", "compiling".
  std::string stage;
  /// The function worked on (its module name; an LLVM symbol for the packed
  /// wrappers and the entry).
  std::string function;
  /// Functions (or units) of the stage started so far, this one included, and their total.
  int done = 0, total = 0;
};

/// Where code runs.
enum class TargetKind : uint8_t { Host, Hexagon };

/// A code-generation target parsed from TVM-style text: `llvm`,
/// `llvm -mcpu=...`, `hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b`.
struct Target {
  TargetKind kind = TargetKind::Host;
  /// LLVM triple ("" for the host: the JIT's own).
  std::string triple;
  /// CPU and feature string ("" for the host: detected).
  std::string cpu;
  std::string features;
  /// The text it was parsed from.
  std::string text;

  /// Parses target text; throws CodegenError for an unknown target kind.
  static Target parse(std::string_view text);
  /// The default Hexagon target (v68, HVX 128-byte; docs/codegen.md).
  static Target hexagon();
  /// The newest Hexagon CPU that `qemu-hexagon` 7.2 (Debian 12's) emulates:
  /// v67 with 128-byte HVX. Code meant to run under qemu is built for it, so
  /// that what runs is what was built (docs/codegen.md, "Running Hexagon code").
  static Target hexagonEmulated();
  /// This target if qemu can run its code as built, else hexagonEmulated()
  /// (a Hexagon CPU newer than v67). Host targets are returned unchanged.
  Target forEmulator() const;
  /// The Hexagon architecture version of `cpu` (68 for "hexagonv68"), 0 when
  /// it names none.
  int hexagonVersion() const;
  /// The host.
  static Target host();
  /// "host" or "hexagon".
  std::string_view kindName() const { return kind == TargetKind::Host ? "host" : "hexagon"; }
};

/// Shape and dtype of one entry argument or result.
struct TensorSig {
  DataType dtype;
  std::vector<int64_t> shape;
  /// Bytes of storage.
  int64_t bytes() const;
};

/// What code generation produced for one target.
struct Artifacts {
  Target target;
  /// LLVM IR as emitted from TIR, and after LLVM's optimization (O3's function pipeline).
  std::string llvmIR;
  std::string llvmIROptimized;
  /// Target assembly (Hexagon; for the host, the assembly of the JIT's code).
  std::string assembly;
  /// Relocatable object.
  std::vector<uint8_t> object;
  /// Generated C for each `ccompiler` function, by name.
  std::map<std::string, std::string> externC;
  /// PrimFuncs compiled (module names).
  std::vector<std::string> functions;
  /// PrimFuncs whose assembly uses HVX vector registers (Hexagon only).
  std::vector<std::string> hvxFunctions;
  /// Why each other PrimFunc has no HVX code (Hexagon only), by name: the
  /// build output explains a "none" instead of leaving the user to guess.
  std::map<std::string, std::string> scalarReasons;
  /// Entry function of the graph level ("" when the module has none that can
  /// be compiled) with its argument and result signatures.
  std::string entry;
  std::vector<TensorSig> entryInputs;
  std::vector<TensorSig> entryOutputs;
  /// The entry's calls in order (PrimFunc module names, or ccompiler function
  /// names): what each timestamp interval of a profiled run measures.
  std::vector<std::string> entryCalls;
  /// Wall time of TIR->LLVM, optimization and object emission, in ms. A
  /// host JIT build that keeps no text optimizes and emits its partitions in
  /// parallel: optimizeMs is then the wall time of both, objectMs 0.
  double emitMs = 0, optimizeMs = 0, objectMs = 0;
  /// The vector unit the code is generated for (vectorUnitOf: ISA, float32
  /// lanes, registers, CPU): what `-mattr` / `-mcpu` of the target chose.
  std::string vectorUnit;
  /// Threads that optimized and compiled the code (1: one module on the caller's thread).
  int compileThreads = 1;
  /// Host JIT builds compiled unit by unit: where the units' time went,
  /// summed over the units (thread CPU time, ms): reading their bitcode,
  /// LLVM's optimization pipeline, and machine code (instruction selection to
  /// the object file); and the caller's wall time cutting the module into
  /// units and finding shared bodies.
  double unitsParseMs = 0, unitsOptimizeMs = 0, unitsMachineCodeMs = 0, splitMs = 0;
  /// A host JIT build compiled unit by unit (a kernel with its packed
  /// wrapper, or "(entry)"): each unit's optimization and machine code time
  /// on its worker, in ms (0 when its object was reused).
  std::vector<std::pair<std::string, double>> unitCompileMs;
  /// Units whose object was reused from an earlier build
  /// (BuildOptions::reuseCompiledKernels); reusedUnitsFromDisk of them came
  /// from the cache directory (BuildOptions::objectCacheDir), the rest from
  /// this process's memory.
  int reusedUnits = 0, reusedUnitsFromDisk = 0;
  /// Warnings and remarks LLVM reported, in order (e.g. a `vectorized` loop
  /// it could not vectorize). The library never prints them.
  std::vector<std::string> llvmDiagnostics;
  /// Host JIT builds with a pool of several threads (setThreadCount): each
  /// outer parallel loop of a kernel and where it runs, "@kernel: loop co,
  /// 9 iterations, 75264 element operations: thread pool" or "...: serial
  /// (below the pool's threshold of N)". A loop with less work than a
  /// pool's hand-off costs runs serially.
  std::vector<std::string> parallelLoops;
  /// PrimFuncs whose code was shared with a structurally equal one compiled
  /// once (BuildOptions::dedupKernels): name -> the name compiled.
  std::map<std::string, std::string> sharedKernels;
  /// Host JIT builds (BuildOptions::shareKernelBodies): groups of PrimFuncs
  /// compiled as one body taking the constants in which they differ, with
  /// that body's number of such parameters.
  std::vector<std::pair<std::vector<std::string>, int>> kernelsSharingBodies;

  /// The kernels in kernelsSharingBodies, over all groups.
  int kernelsOnSharedBodies() const {
    int n = 0;
    for (const auto& group : kernelsSharingBodies) n += static_cast<int>(group.first.size());
    return n;
  }
};

/// The directory of compiled kernels kept between processes: $PASSLAB_CACHE_DIR
/// when set ("" or "off": none), else $XDG_CACHE_HOME/passlab/kernels, else
/// $HOME/.cache/passlab/kernels, else none.
std::string defaultObjectCacheDir();

/// Sizes the process's thread pool for compiled kernels' parallel loops (at
/// least 1; 1, the default, keeps profiles reproducible). Host code built
/// while it has more than one thread runs its outer parallel loops on it,
/// each range split in a few chunks per thread that the threads claim (loops
/// with little work stay serial); code built with one thread has
/// no calls into it. Numerics do not change: every output element is summed
/// by one thread in the same order.
void setThreadCount(int threads);
/// The pool's threads (1 until setThreadCount).
int threadCount();
/// Nanoseconds each pool thread (0: the caller) spent in parallel loops'
/// chunks since the last resetThreadBusy (or resize).
std::vector<int64_t> threadBusyNs();
/// Zeroes threadBusyNs.
void resetThreadBusy();

/// Forgets the compiled kernels this process holds in memory (the cache
/// directory stays): a benchmark or test then sees what a new process sees.
void forgetCompiledKernelsInMemory();

/// Build options.
struct BuildOptions {
  /// Graph-level function to compile as the module entry (its body must be a
  /// sequence of call_tir calls and calls of `ccompiler` functions).
  std::string entry = "main";
  /// Allow fused multiply-add contraction: faster, but no longer rounds every
  /// product as the interpreter does (on hosts with AVX512-FP16 even float16
  /// products fuse), so off by default; the benchmarks turn it on.
  bool allowContract = false;
  /// Emit the assembly text as well (costs a second code-generation run).
  bool emitAssembly = true;
  /// Keep the LLVM IR text (Artifacts::llvmIR, llvmIROptimized). Printing a
  /// module with embedded weights costs as much as optimizing it; runners that
  /// only execute the code turn it off.
  bool keepText = true;
  /// Instrument the entry (host only): a timestamp before its first call and
  /// after each call, read back by HostModule::lastProfile. The kernels are
  /// the same code; the timestamps are opaque calls LLVM cannot move work across.
  bool profile = false;
  /// Compile structurally equal PrimFuncs (equal but for global_symbol) once;
  /// the others become aliases of that code (Artifacts::sharedKernels).
  bool dedupKernels = true;
  /// Host JIT builds: kernels whose LLVM code differs only in large integer
  /// constants (sizes, strides) call one body that takes those constants as
  /// arguments, compiled once (Artifacts::kernelsSharingBodies).
  bool shareKernelBodies = true;
  /// Host JIT builds: take the object of a kernel compiled before when its
  /// LLVM IR and target machine are the same (rebuilding after a pass step
  /// or for a profiled run recompiles only what changed).
  bool reuseCompiledKernels = true;
  /// With reuseCompiledKernels, also keep compiled kernels in this directory
  /// and take them from there, so the next process that builds the same
  /// kernels links them instead ("": this process only). Bounded to 512 MiB,
  /// least recently used first out.
  std::string objectCacheDir = defaultObjectCacheDir();
  /// Host JIT builds (HostModule::compile): the target whose -mcpu / -mattr
  /// the code is compiled for (`llvm -mattr=-avx512f`: AVX2 on an AVX-512
  /// machine); the host CPU as it is by default.
  Target hostTarget = Target::host();
  /// Called as the build moves from one function to the next in each stage
  /// (on the calling thread only, also in a parallel build); null: silent.
  std::function<void(const BuildProgress&)> progress;
  /// Polled between functions and between LLVM's passes on a function (the
  /// calling thread and the compile threads may call it at once): once it
  /// returns true the remaining passes are skipped and the build throws
  /// BuildCancelled. Null: never cancelled.
  std::function<bool()> cancelled;
};

/// Compiles every PrimFunc of `mod` whose `target` attribute (or the module's
/// when absent) is of `target`'s kind, plus the entry when it has one.
/// PrimFuncs without any target go to every build. Throws CodegenError
/// (BuildCancelled when BuildOptions::cancelled stopped it).
Artifacts build(const IRModule& mod, const Target& target, const BuildOptions& options = {});

/// Writes the artifacts to `dir` (created): `<kind>.ll`, `<kind>.opt.ll`,
/// `<kind>.s`, `<kind>.o`, `<name>.c`. Returns the file names written, in order.
std::vector<std::string> writeArtifacts(const Artifacts& artifacts, const std::string& dir);

/// A module compiled for the host with ORC LLJIT.
class HostModule {
 public:
  /// JIT-compiles `mod` for the host (PrimFuncs, entry, external C).
  static std::unique_ptr<HostModule> compile(const IRModule& mod, const BuildOptions& options = {});
  virtual ~HostModule() = default;
  /// Runs PrimFunc `name` on `args` in place (one array per parameter; a 0-d
  /// array for scalars), like evaluatePrimFunc. Checks counts and sizes.
  virtual void callPrimFunc(const std::string& name, std::span<const NDArray> args) = 0;
  /// Runs the entry on `inputs`; returns fresh outputs.
  virtual std::vector<NDArray> runEntry(const std::vector<NDArray>& inputs) = 0;
  /// What was compiled.
  virtual const Artifacts& artifacts() const = 0;
  /// Nanoseconds spent in each call of the last runEntry, in the order of
  /// Artifacts::entryCalls (empty unless compiled with BuildOptions::profile).
  virtual std::vector<int64_t> lastProfile() const = 0;
};

/// Outcome of running a build for Hexagon under qemu.
struct HexagonRun {
  std::vector<NDArray> outputs;
  /// Wall time of compiling the runtime, linking, and running, in ms.
  double linkMs = 0, runMs = 0;
};

/// Links `artifacts` (a Hexagon build with an entry) with the runtime under
/// `workDir` and runs it with `qemu-hexagon -cpu v67` on `inputs`.
HexagonRun runHexagon(const Artifacts& artifacts, const std::vector<NDArray>& inputs, const std::string& workDir);

/// Builds, links and runs PrimFunc `name` alone for Hexagon on `args`; returns
/// the arrays after the call (the buffers the function wrote).
std::vector<NDArray> runPrimFuncHexagon(const IRModule& mod, const std::string& name, std::span<const NDArray> args,
                                        const std::string& workDir, Artifacts* artifactsOut = nullptr);

/// Emits C for a graph-level function with `Compiler="ccompiler"`: one
/// destination-passing function `void NAME(const T* in..., T* out)`.
/// Throws CodegenError for ops it does not support.
std::string emitC(const IRModule& mod, const std::string& function);

/// Signatures of the entry function `name` of `mod` (inputs, outputs).
std::pair<std::vector<TensorSig>, std::vector<TensorSig>> entrySignature(const IRModule& mod, const std::string& name);

/// Floating-point operations of one call of PrimFunc `primFunc`, counted from
/// its loop nest: 2 per executed multiply-accumulate store (`acc[i] = acc[i] +
/// x * y`, the reductions of conv2d, conv2d_transpose, dense and matmul),
/// with guarded taps counted as taken. 0 for kernels without one.
int64_t multiplyAccumulateFlops(const IRModule& mod, const std::string& primFunc);

/// Largest |a - b| over all elements of paired arrays (infinite when shapes or
/// dtypes differ, or one is NaN where the other is not).
double maxAbsError(const std::vector<NDArray>& a, const std::vector<NDArray>& b);

/// A fresh private temporary directory (for Hexagon work files).
std::string makeTempDir(const std::string& prefix);

/// Directory of the Hexagon runtime sources (codegen/runtime/hexagon).
std::string runtimeDir();

}  // namespace passlab::codegen
