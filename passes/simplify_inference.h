// SimplifyInference: normalization ops in inference form become elementwise arithmetic.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The SimplifyInference function pass (TVM's SimplifyInference), for models
/// that only run inference:
///   nn.batch_norm(x, gamma, beta, mean, var).0
///     → add(multiply(x, s), t) with s = 1 / sqrt(var + epsilon) * gamma and
///       t = -mean * s + beta, both expanded to broadcast along `axis`
///       ((C) → (C, 1, 1) for NCHW);
///   nn.layer_norm(x, gamma, beta)
///     → (x - mean(x)) / sqrt(mean((x - mean(x))^2) + epsilon) * gamma + beta
///       over `axis`.
/// `scale=False` drops gamma and `center=False` drops beta, as in TVM. Only
/// element 0 of batch_norm's tuple is rewritten: uses of the other elements
/// (the moving statistics) keep the batch_norm call, as TVM leaves them. The
/// scale and shift are expressions over the parameters, so FoldConstant turns
/// them into constants when the parameters are constants. Functions without
/// normalization ops are returned unchanged (same pointer).
PassPtr createSimplifyInferencePass();

}  // namespace passlab
