// Generator of large synthetic models for benchmarks (and large-input tests).
#pragma once

#include <cstddef>
#include <string>

namespace passlab::bench {

/// Relay text of a module whose @main has exactly `numOps` op calls: a chain of
/// residual blocks mixing conv2d, bias_add, relu, add, multiply, reshape,
/// transpose, dense and sigmoid, as CNN exports look. Deterministic.
std::string syntheticModelText(size_t numOps);

/// The same model with one planted failure: the op at index `at` (moved to the
/// next relu of the block pattern) becomes `nn.layer_norm`, which LegalizeOps
/// cannot lower (an exported model whose pipeline forgot SimplifyInference), so
/// `InferType,FuseOps,LambdaLifting,LegalizeOps` fails on that one op deep inside.
std::string syntheticModelTextWithFailure(size_t numOps, size_t at);

}  // namespace passlab::bench
