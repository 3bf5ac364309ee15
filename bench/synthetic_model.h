// Generator of large synthetic models for benchmarks (and large-input tests).
#pragma once

#include <cstddef>
#include <string>

namespace passlab::bench {

/// Relay text of a module whose @main has exactly `numOps` op calls: a chain of
/// residual blocks mixing conv2d, bias_add, relu, add, multiply, reshape,
/// transpose, dense and sigmoid, as CNN exports look. Deterministic.
std::string syntheticModelText(size_t numOps);

}  // namespace passlab::bench
