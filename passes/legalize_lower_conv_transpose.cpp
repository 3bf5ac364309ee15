// LegalizeOps: nn.conv2d_transpose.
#include "core/ir/op.h"
#include "passes/legalize_lower.h"

namespace passlab::legalize {

tir::Stmt lowerConv2DTranspose(const OpLowering& l) {
  throw Unsupported("LegalizeOps has no lowering for op '" + std::string(l.op.name) + "'");
}

}  // namespace passlab::legalize
