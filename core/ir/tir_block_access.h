// The regions a block reads and writes, found from its statements, for blocks
// written without T.reads / T.writes (TVM's parser fills them in the same way).
#pragma once

#include "core/ir/tir.h"

namespace passlab::tir {

/// Reads and writes of a block with this `init` and `body`, in order of first
/// access. A buffer accessed at one index tuple made only of variables bound
/// outside the body (the block's own variables, enclosing loops) gets that
/// point; any other access pattern gets the whole buffer. Buffers in
/// `allocated` (the block's scratch) are left out, as are buffers allocated
/// inside. A buffer both read and written is in both lists (a reduction's
/// output reads itself).
std::pair<std::vector<BufferRegion>, std::vector<BufferRegion>> detectBlockAccess(const Stmt& init, const Stmt& body,
                                                                                  const std::vector<Buffer>& allocated);

}  // namespace passlab::tir
