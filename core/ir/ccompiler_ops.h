// The ops the `ccompiler` external codegen takes: the one list that both
// AnnotateTarget (passes/external_codegen.cpp, which may not include codegen/)
// and the C emitter (codegen/c_codegen.cpp) read, so what is offered to
// ccompiler can never again drift from what the emitter can write. A test
// (tests/test_codegen.cpp) emits every op of the list.
#pragma once

#include <array>

#include "core/ir/op.h"

namespace passlab {

/// Ops offered to ccompiler one by one. Only what plain C without libm can
/// compute: the emitted C is also linked into freestanding Hexagon programs,
/// so exp, log, sqrt, tanh and sigmoid (libm calls) stay with the main compiler.
/// nn.bias_add is emitted too, but only inside the composite patterns.
inline constexpr std::array kCCompilerOps = {OpId::Add,     OpId::Subtract, OpId::Multiply, OpId::Divide, OpId::Maximum,
                                             OpId::Minimum, OpId::Negative, OpId::Abs,      OpId::Relu,   OpId::Clip,
                                             OpId::Conv2D,  OpId::Dense};

}  // namespace passlab
