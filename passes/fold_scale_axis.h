// FoldScaleAxis: per-channel scales folded into convolution and dense weights.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The FoldScaleAxis pass (TVM's BackwardFoldScaleAxis then
/// ForwardFoldScaleAxis, behaviour only). A scale is a constant multiplier
/// that varies at most along the channel axis.
///  * Backward: multiply(conv2d(x, w), s) with s per output channel becomes
///    conv2d(x, w * s') (s' laid out along the kernel's O axis); through a
///    bias_add or an add of a per-channel constant b in between, b is scaled
///    too. multiply(dense(x, w), s) with s per unit becomes dense(x, w * s').
///  * Forward: conv2d(multiply(x, s), w) with s per input channel (ungrouped
///    convolutions) becomes conv2d(x, w * s'), also through a nn.relu when
///    every scale is positive (relu(x * s) = relu(x) * s then); likewise
///    dense(multiply(x, s), w) with s per input feature.
/// The conv/dense (and the op in between) must have no other consumer. The
/// scaled weights are `multiply(w, constant)` expressions, so FoldConstant
/// turns constant weights into new constants. Results are typed; functions
/// with nothing to fold are returned unchanged.
PassPtr createFoldScaleAxisPass();

}  // namespace passlab
