// The LLVM machinery every back-end source of codegen/ shares: target
// machines, the optimization pipeline, object and assembly emission, and
// where LLVM's diagnostics go. Internal to codegen/ (LLVM types).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <llvm/Support/CodeGen.h>
#include <llvm/Support/Error.h>

#include "codegen/codegen.h"

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
class Triple;
}  // namespace llvm

namespace passlab::codegen {

/// Milliseconds since `t0`.
double msSince(std::chrono::steady_clock::time_point t0);

/// Registers the host and Hexagon targets and passlab's LLVM options, once per process.
void initializeLLVM();

/// The module as LLVM assembly text.
std::string toString(const llvm::Module& m);

/// The message of an llvm::Error (consumed).
std::string errorText(llvm::Error e);

/// A target machine for `target` (the host: this CPU and its features).
std::unique_ptr<llvm::TargetMachine> makeTargetMachine(const Target& target);

/// Whether code for `triple` calls glibc's vector math library (libmvec)
/// for `exp` and friends in vectorized loops: x86-64 GNU/Linux with
/// libmvec.so.1 loadable (it is then loaded into the process for the JIT).
/// Objects written for such a target link with -lmvec.
bool usesVectorMathLibrary(const llvm::Triple& triple);

/// The vector unit `tm` generates code for, as the schedules see it: "avx512:
/// 16 float32 lanes, 32 zmm registers (CPU znver3)", "avx2: ...", "hvx: ...".
std::string vectorUnitOf(const llvm::TargetMachine& tm);

/// A short text naming everything of `target`'s machine that shapes its code
/// (triple, CPU, features): part of the key of a compiled object.
std::string machineSignature(const llvm::TargetMachine& tm);

/// One stage of a build watched for BuildOptions::progress and ::cancelled:
/// the stage notes each function LLVM (or the emitter) starts on, the watch
/// reports it to the face when it changed, and once cancelled it stays so
/// (LLVM's optional passes are then skipped and the stage's caller throws).
/// Reports only on the thread that made it; cancelled() may be asked on any.
class StageWatch {
 public:
  /// `total`: the functions the stage goes over; `nameOf` turns an LLVM symbol
  /// into the name the user knows (null: the symbol itself).
  StageWatch(const BuildOptions& options, std::string stage, int total,
             std::function<std::string(const std::string&)> nameOf = nullptr);
  /// Notes that the stage works on `symbol` now (a report when it changed).
  void at(const std::string& symbol);
  /// Notes that one more unit of a parallel stage started (counted on any
  /// thread; reported when called on the watch's own thread).
  void unitStarted(const std::string& symbol);
  /// Sets the total once the stage knows it (before any unit starts).
  void setTotal(int total) { total_ = total; }
  /// True once BuildOptions::cancelled said so.
  bool cancelled();
  /// Throws BuildCancelled naming the stage and the function when cancelled().
  void throwIfCancelled();
  /// True when a face listens or can cancel (otherwise the stage need not watch).
  bool active() const { return static_cast<bool>(options_.progress) || static_cast<bool>(options_.cancelled); }

 private:
  const BuildOptions& options_;
  std::string stage_;
  int total_;
  std::function<std::string(const std::string&)> nameOf_;
  std::thread::id owner_ = std::this_thread::get_id();
  std::string last_;
  std::atomic<int> done_{0};
  std::atomic<bool> cancelled_{false};
};

/// LLVM 14's O3 function pipeline, loop and SLP vectorization included,
/// without the inliner and the interprocedural passes (kKernelPipeline).
/// With a watch, each function's first pass reports it and a cancelled
/// watch makes LLVM skip every optional pass left.
void optimize(llvm::Module& m, llvm::TargetMachine& tm, StageWatch* watch = nullptr);

/// Code generation of `m` itself (it rewrites the IR it runs on). With a
/// watch, as optimize: a cancelled one leaves the rest at -O0 (instruction
/// selection cannot be skipped, its optimizations can).
std::string emitFileConsuming(llvm::Module& m, llvm::TargetMachine& tm, llvm::CodeGenFileType type, StageWatch* watch = nullptr);

/// Code generation of a copy of `source`.
std::string emitFile(const llvm::Module& source, llvm::TargetMachine& tm, llvm::CodeGenFileType type, StageWatch* watch = nullptr);

/// Where the warnings of every LLVM context of one build go (shared: a JIT
/// compiles after the build returns, workers on other threads).
struct DiagnosticSink {
  std::mutex mutex;
  std::vector<std::string> messages;
};

/// Routes the warnings of `ctx` into `sink`: the library never prints them.
void collectDiagnostics(llvm::LLVMContext& ctx, const std::shared_ptr<DiagnosticSink>& sink);

/// The warnings collected so far.
std::vector<std::string> diagnosticsOf(DiagnosticSink& sink);

}  // namespace passlab::codegen
