#include "bench/synthetic_model.h"

#include <vector>

namespace passlab::bench {

namespace {

std::string generate(size_t numOps, size_t plantAt) {
  // The block pattern; each entry is one op. `%prev` is the running value
  // (1x16x8x8), `%res` the block input for the residual add.
  enum class Step { Conv, BiasAdd, Relu, AddResidual, MultiplyScale, ReshapeFlat, Dense, Sigmoid, ReshapeBack, Transpose, TransposeBack };
  static const std::vector<Step> kBlock = {Step::Conv,        Step::BiasAdd, Step::Relu,    Step::AddResidual,
                                           Step::MultiplyScale, Step::ReshapeFlat, Step::Dense, Step::Sigmoid,
                                           Step::ReshapeBack, Step::Transpose, Step::TransposeBack};
  constexpr int kWeights = 8;
  std::string out;
  out.reserve(numOps * 80 + 4096);
  out += "#[version = \"0.0.5\"]\n";
  out += "def @main(%data: Tensor[(1, 16, 8, 8), float32]";
  for (int i = 0; i < kWeights; ++i) {
    out += ", %w" + std::to_string(i) + ": Tensor[(16, 16, 3, 3), float32]";
    out += ", %b" + std::to_string(i) + ": Tensor[(16), float32]";
  }
  out += ", %scale: Tensor[(16, 1, 1), float32], %dw: Tensor[(1024, 1024), float32]";
  if (plantAt < numOps) out += ", %gamma: Tensor[(8), float32], %beta: Tensor[(8), float32]";
  out += ") {\n";
  // The planted op replaces a relu, where the running value is 1x16x8x8.
  while (plantAt < numOps && kBlock[plantAt % kBlock.size()] != Step::Relu) ++plantAt;
  std::string prev = "%data";
  std::string residual = "%data";
  size_t block = 0;
  for (size_t i = 0; i < numOps; ++i) {
    Step step = kBlock[i % kBlock.size()];
    if (i % kBlock.size() == 0) {
      residual = prev;
      ++block;
    }
    std::string w = std::to_string(block % kWeights);
    std::string line = "  %" + std::to_string(i) + " = ";
    switch (step) {
      case Step::Conv: line += "nn.conv2d(" + prev + ", %w" + w + ", padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3])"; break;
      case Step::BiasAdd: line += "nn.bias_add(" + prev + ", %b" + w + ")"; break;
      case Step::Relu:
        line += i == plantAt ? "nn.layer_norm(" + prev + ", %gamma, %beta)" : "nn.relu(" + prev + ")";
        break;
      case Step::AddResidual: line += "add(" + prev + ", " + residual + ")"; break;
      case Step::MultiplyScale: line += "multiply(" + prev + ", %scale)"; break;
      case Step::ReshapeFlat: line += "reshape(" + prev + ", newshape=[1, 1024])"; break;
      case Step::Dense: line += "nn.dense(" + prev + ", %dw, units=1024)"; break;
      case Step::Sigmoid: line += "sigmoid(" + prev + ")"; break;
      case Step::ReshapeBack: line += "reshape(" + prev + ", newshape=[1, 16, 8, 8])"; break;
      case Step::Transpose: line += "transpose(" + prev + ", axes=[0, 2, 3, 1])"; break;
      case Step::TransposeBack: line += "transpose(" + prev + ", axes=[0, 3, 1, 2])"; break;
    }
    out += line + ";\n";
    prev = "%" + std::to_string(i);
  }
  out += "  " + prev + "\n}\n";
  return out;
}

}  // namespace

std::string syntheticModelText(size_t numOps) { return generate(numOps, static_cast<size_t>(-1)); }

std::string syntheticModelTextWithFailure(size_t numOps, size_t at) { return generate(numOps, at); }

}  // namespace passlab::bench
