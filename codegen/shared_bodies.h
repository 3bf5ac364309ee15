// Kernels that differ only in sizes share one compiled body. Internal to
// codegen/ (LLVM types).
//
// A model's pointwise convolutions are one schedule at several channel
// counts and spatial sizes: their LLVM functions are the same instructions
// with different integer constants (strides, trip counts, offsets). Compiling
// each costs 10-50 ms of O3 and instruction selection, which is most of a cold
// JIT build. Here such kernels become thin functions that call one body taking
// the constants that differ as arguments, so the body is compiled once.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Module;
}  // namespace llvm

namespace passlab::codegen {

/// One body several kernels now call.
struct SharedBody {
  /// The body's LLVM symbol.
  std::string body;
  /// The kernels' LLVM symbols, in module order; each passes its own constants.
  std::vector<std::string> kernels;
  /// Integer constants the body takes as arguments.
  int parameters = 0;
};

/// Makes every group of two or more kernels in `m` whose definitions are the
/// same instructions up to some constants call one body (an internal,
/// noinline function taking the constants that differ as trailing arguments)
/// and returns the groups. Integer operands of arithmetic, comparisons,
/// selects, phis and one-index address computations may differ, and
/// floating-point operands of fadd/fsub/fmul/fdiv other than 0 and ±1. In an
/// innermost loop a constant up to 16 must be equal unless it is
/// loop-invariant arithmetic: trip counts, windows and lane strides decide
/// unrolling and vectorization. Stack buffers may differ in length when the
/// longest is larger than the vector registers (so none is a register tile):
/// the body allocates the longest and takes the length of its zeroing. A
/// divisor, a global and a call's other operands must be equal. `kernels`
/// names the candidate functions by symbol;
/// others (the entry, packed wrappers) are left alone.
std::vector<SharedBody> shareKernelBodies(llvm::Module& m, const std::vector<std::string>& kernels);

}  // namespace passlab::codegen
