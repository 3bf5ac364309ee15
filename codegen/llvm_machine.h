// The LLVM machinery every back-end source of codegen/ shares: target
// machines, the optimization pipeline, object and assembly emission, and
// where LLVM's diagnostics go. Internal to codegen/ (LLVM types).
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
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

/// LLVM 14's O3 function pipeline, loop and SLP vectorization included,
/// without the inliner and the interprocedural passes (kKernelPipeline).
void optimize(llvm::Module& m, llvm::TargetMachine& tm);

/// Code generation of `m` itself (it rewrites the IR it runs on).
std::string emitFileConsuming(llvm::Module& m, llvm::TargetMachine& tm, llvm::CodeGenFileType type);

/// Code generation of a copy of `source`.
std::string emitFile(const llvm::Module& source, llvm::TargetMachine& tm, llvm::CodeGenFileType type);

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
