// Host code compiled on every hardware thread, one unit per kernel, with the
// objects of units compiled before in this process reused. Internal to
// codegen/ (LLVM types).
#pragma once

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "codegen/llvm_machine.h"

namespace llvm {
class MemoryBuffer;
class Module;
}  // namespace llvm

namespace passlab::codegen {

/// The name prefix of the units of kernels compileUnitsInParallel is told to
/// compile together.
inline const std::string kTogetherUnit = "__passlab_together";

/// What compiling a module unit by unit produced.
struct UnitObjects {
  /// One object per unit, in no particular order, for the JIT to link.
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  /// Per unit (named by its first function's LLVM symbol): milliseconds its
  /// worker spent optimizing and compiling it, 0 for a reused object.
  std::vector<std::pair<std::string, double>> unitMs;
  /// Units whose object came from an earlier build (this process's or, through
  /// the cache directory, another's); reusedFromDisk of them from the directory.
  int reused = 0, reusedFromDisk = 0;
  /// Thread CPU time summed over the compiled units (ms): bitcode reading,
  /// the optimization pipeline, machine code; and the caller's wall time
  /// cutting the module into units.
  double parseMs = 0, optimizeMs = 0, machineCodeMs = 0, splitMs = 0;
};

/// Optimizes and compiles host module `m` (consumed) to objects on `threads`
/// threads. The module is cut into units, a kernel with its packed wrapper or
/// the entry, each moved through bitcode into an LLVM context of its own
/// (a context belongs to one thread); the largest units start first. With
/// `reuse`, a unit whose bitcode and target machine equal one compiled before
/// takes that object (and its LLVM warnings) instead: a workbench rebuilds
/// the same kernels after every pass step and run. Such units are kept in
/// the process and, when `cacheDir` is not "", in that directory for later
/// processes (ObjectCache). The kernels named in `together` (by symbol) share
/// units of a few, with their packed wrappers: kernels that only call a shared body
/// cost less than a unit's fixed cost (a pass pipeline and an object file).
/// Those kernels, packed wrappers and the entry only pass arguments on; they
/// are compiled without optimization (optnone).
/// A watch (may be null) counts the units as they start and stops starting
/// them once cancelled (the caller then throws BuildCancelled).
UnitObjects compileUnitsInParallel(llvm::Module& m, const Target& target, unsigned threads, bool reuse, const std::string& cacheDir,
                                   const std::set<std::string>& together, const std::shared_ptr<DiagnosticSink>& sink,
                                   StageWatch* watch = nullptr);

}  // namespace passlab::codegen
