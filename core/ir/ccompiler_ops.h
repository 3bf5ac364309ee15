// The `ccompiler` external codegen's op table: the C emitter
// (codegen/c_codegen.cpp) writes each op from its row, and AnnotateTarget
// (passes/external_codegen.cpp, which may not include codegen/) offers the rows
// marked `offered`. An op the emitter cannot write has no row, so what is
// offered to ccompiler cannot drift from what it emits. A test
// (tests/codegen/test_codegen.cpp) emits every offered op.
#pragma once

#include <array>
#include <cstddef>

#include "core/ir/op.h"

namespace passlab {

/// One op the C emitter writes.
struct CCompilerOp {
  OpId op;
  /// The element formula of an elementwise op over broadcast operands, `$0`
  /// and `$1` standing for them ("pl_max($0, $1)"); null for the ops whose loop
  /// nest the emitter writes itself (clip, bias_add, dense, conv2d).
  const char* formula;
  /// Offered by AnnotateTarget one op at a time. Only what plain C without libm
  /// can compute: the emitted C is also linked into freestanding Hexagon
  /// programs, so exp, log, sqrt, tanh and sigmoid (libm calls) have no row.
  /// nn.bias_add is written only inside the composite patterns.
  bool offered;
};

/// The C emitter's table.
inline constexpr CCompilerOp kCCompilerTable[] = {
    {OpId::Add, "$0 + $1", true},
    {OpId::Subtract, "$0 - $1", true},
    {OpId::Multiply, "$0 * $1", true},
    {OpId::Divide, "$0 / $1", true},
    {OpId::Maximum, "pl_max($0, $1)", true},
    {OpId::Minimum, "pl_min($0, $1)", true},
    {OpId::Negative, "-$0", true},
    {OpId::Abs, "pl_abs($0)", true},
    {OpId::Relu, "pl_max($0, 0.0f)", true},
    {OpId::Clip, nullptr, true},
    {OpId::BiasAdd, nullptr, false},
    {OpId::Conv2D, nullptr, true},
    {OpId::Dense, nullptr, true},
};

/// The row of `op`, or null when the emitter cannot write it.
constexpr const CCompilerOp* findCCompilerOp(OpId op) {
  for (const CCompilerOp& row : kCCompilerTable)
    if (row.op == op) return &row;
  return nullptr;
}

/// The ops offered to ccompiler one by one: the table's `offered` rows, in order.
inline constexpr auto kCCompilerOps = [] {
  constexpr size_t count = [] {
    size_t n = 0;
    for (const CCompilerOp& row : kCCompilerTable) n += row.offered;
    return n;
  }();
  std::array<OpId, count> out{};
  size_t i = 0;
  for (const CCompilerOp& row : kCCompilerTable)
    if (row.offered) out[i++] = row.op;
  return out;
}();

}  // namespace passlab
