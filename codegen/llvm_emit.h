// TIR -> LLVM IR (internal to codegen/). Only forward declarations of LLVM
// types here, so this header costs nothing to include.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/entry_plan.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace passlab::codegen {

class StageWatch;

/// What to emit into one LLVM module.
struct EmitRequest {
  IRModule mod;
  /// PrimFuncs to compile (module names).
  std::vector<std::string> primFuncs;
  /// The entry plan, or null for PrimFuncs only.
  const EntryPlan* plan = nullptr;
  bool allowContract = true;
  /// Force vectorization of `vectorized` loops that compute in floating point.
  /// Off for Hexagon: LLVM 14 cannot put float/half into HVX and scalarizes a
  /// forced vector loop into huge code (minutes of instruction selection).
  bool forceFloatVectorize = true;
  /// Let LLVM inline kernels into the entry and their packed wrappers. Off for
  /// Hexagon: LLVM 14's Hexagon backend miscompiled the whole-program function
  /// it made of ONNX's `test_sce_NCd1d2d3_sum_weight_high_ii_log_prob` (every
  /// kernel alone and the optimized IR are right; the inlined entry returned
  /// 0.908 for 2.04). Called kernels are also what TVM's executors run.
  bool inlineKernels = true;
  /// Timestamps around each call of the entry (BuildOptions::profile).
  bool profile = false;
  /// PrimFuncs emitted as an alias of a structurally equal one (name -> the
  /// name whose code they share); the entry calls the shared code directly.
  std::map<std::string, std::string> shared;
  /// The entry's constants are external symbols (constantSymbol(i)) bound to
  /// the plan's arrays by the JIT, instead of initializers copied into the
  /// module: megabytes of weights no longer pass through bitcode, the
  /// optimizer and the object writer, and inlined kernels cannot fold weight
  /// values into their code.
  bool constantsByAddress = false;
  /// Zero-initialized storage (the entry's intermediates, kernels' scratch
  /// too large for the stack) is an external symbol (storageSymbol) the JIT
  /// binds to pages it maps, instead of a zeroed global. A loader zeroes an
  /// object's .bss page by page: for the detector's 15 MB that was 40 of the
  /// JIT link's 50 ms in this VM, while mapped pages are zeroed by the kernel
  /// when the first run touches them. storageOf lists what to bind.
  bool storageByAddress = false;
  /// Host: parallel loops run on the process's thread pool (their bodies
  /// outlined, see kParallelForSymbol) instead of serially.
  bool parallel = false;
  /// With `parallel`: where each outer parallel loop runs (Artifacts::parallelLoops).
  std::vector<std::string>* parallelLoops = nullptr;
  /// Told each PrimFunc before it is emitted, and asked whether to stop (may be null).
  StageWatch* watch = nullptr;
};

/// Emits the module. Every PrimFunc `f` becomes `void SYM(i8*... buffers,
/// scalars...)` plus `void __passlab_packed_SYM(i8** args)`; the entry becomes
/// `void __passlab_entry(i8** args)` (inputs then outputs). Throws CodegenError.
std::unique_ptr<llvm::Module> emitModule(llvm::LLVMContext& ctx, const EmitRequest& request);

/// Symbol of the packed wrapper of PrimFunc symbol `symbol`.
inline std::string packedSymbol(const std::string& symbol) { return "__passlab_packed_" + symbol; }
/// Symbol of the entry.
inline constexpr const char* kEntrySymbol = "__passlab_entry";
/// The profiled entry's timestamps: `i64 [calls + 1]`, written by each run.
inline constexpr const char* kProfileTicksSymbol = "__passlab_profile_ticks";
/// `i64 ()`: the clock a profiled entry reads (nanoseconds), provided by the host.
inline constexpr const char* kProfileClockSymbol = "__passlab_profile_now";
/// `void (void (*task)(i8*, i64, i64), i8* closure, i64 begin, i64 end)`:
/// runs task(closure, lo, hi) over [begin, end) split among the thread pool's
/// threads and returns when all are done (provided by the host, llvm_backend.cpp).
inline constexpr const char* kParallelForSymbol = "passlab_parallel_for";
/// The static work (staticWork: element operations) from which a parallel
/// loop goes to the thread pool. Handing a loop to the pool and waiting for
/// its chunks costs a few microseconds (more when a worker must be woken);
/// 2^17 element operations are 20-60 us of one core's vector code.
inline constexpr int64_t kParallelMinWork = int64_t{1} << 17;
/// `void (const char* message)`: records a failed TIR assert (the first one of
/// a run; provided by the host, llvm_backend.cpp, which raises it as a
/// CodegenError when the call returns, and by the Hexagon runtime, which
/// writes it to stderr and exits). The failing function returns right after.
inline constexpr const char* kAssertFailSymbol = "passlab_assert_fail";
/// The symbol of the entry's constant `index` under EmitRequest::constantsByAddress.
inline std::string constantSymbol(int index) { return "__passlab_const" + std::to_string(index); }

/// The symbol of zero-initialized storage `name` under EmitRequest::storageByAddress.
inline std::string storageSymbol(const std::string& name) { return "__passlab_storage." + name; }
/// The storage an EmitRequest::storageByAddress module declares: symbol and bytes.
std::vector<std::pair<std::string, uint64_t>> storageOf(const llvm::Module& m);

/// PrimFuncs of `names` that are structurally equal to an earlier one of the
/// list once `global_symbol` is ignored: name -> the first such name.
std::map<std::string, std::string> structurallyEqualKernels(const IRModule& mod, const std::vector<std::string>& names);

}  // namespace passlab::codegen
