// DecomposeOpsForInference: TVM's relax.transform.DecomposeOpsForInference,
// batch_norm in inference form as elementwise arithmetic, before LegalizeOps.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The DecomposeOpsForInference pass. Every nn.batch_norm(x, gamma, beta,
/// mean, var) becomes the tuple (out, mean, var) with, as TVM writes it,
///   out = (x - mean') / sqrt(var' + epsilon) * gamma' + beta'
/// (the multiply without `scale`, the add without `center`), where mean',
/// var', gamma' and beta' are the 1-d parameters reshaped to broadcast along
/// the axis (TVM's expand_dims; passlab's Relax spelling has no expand_dims
/// with a list of axes, so it is an R.reshape to the same shape). On a Relax
/// module the result is then put in normal form (each step a binding, as TVM's
/// BlockBuilder emits them). Functions without batch_norm are returned as they
/// are; external-codegen and Primitive functions are skipped.
PassPtr createDecomposeOpsForInferencePass();

}  // namespace passlab
