// AnnotateTIROpPattern: every PrimFunc gets TVM's `op_pattern` attribute, the
// fusion pattern its TIR body shows (Relax's FuseOps reads it).
#pragma once

#include "core/ir/tir.h"
#include "core/pass/pass.h"

namespace passlab {

/// The fusion pattern of a PrimFunc's body as TVM's AnalyzeOpPatternKind
/// finds it, block by block: a block whose loads read the stored element
/// (elementwise), a subsequence of its indices (broadcast) or only its
/// variables (injective) takes that pattern; a reduction block whose update is
/// a multiply-add (matmul, conv2d) or whose loads mix reduction and spatial
/// variables (pooling) is out-ewise-fusable, other reductions comm-reduce; a
/// reduction followed by an injective block writing the output (softmax) is
/// out-ewise-fusable. The function's pattern is the largest of its blocks'.
/// A body without blocks (passlab's scheduled loop nests) is opaque.
FusionPattern analyzeOpPattern(const PrimFuncNode& fn);

/// The AnnotateTIROpPattern pass: sets `op_pattern` (an integer, TVM's
/// OpPatternKind) on every PrimFunc that has none; the module is otherwise unchanged.
PassPtr createAnnotateTIROpPatternPass();

}  // namespace passlab
