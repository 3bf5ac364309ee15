// Lowering TVMScript blocks to plain loop-nest TIR, as TVM's LowerInitBlock +
// ConvertBlocksToOpaque + block removal do, so the interpreter and the code
// generators never see a Block.
#pragma once

#include "core/ir/module.h"
#include "core/ir/tir.h"

namespace passlab::tir {

/// True when `s` contains a Block anywhere.
bool hasBlocks(const Stmt& s);

/// `s` with every block replaced by what it means when it runs:
///   let vi = binding (or vi substituted when the binding is a variable or a
///   constant of the same dtype) ...
///   if (predicate) { allocate scratch { if (every reduce var == its min) init; body } }
/// Reads, writes and annotations are dropped. Returns `s` itself when it has no
/// blocks; unchanged subtrees stay shared.
Stmt lowerBlocks(const Stmt& s);

/// `fn` with its body lowered; `fn` itself when it has no blocks.
PrimFunc lowerBlocks(const PrimFunc& fn);

/// `mod` with every PrimFunc lowered; `mod` itself when none has blocks.
IRModule lowerBlocks(const IRModule& mod);

}  // namespace passlab::tir
