#include "passes/external_codegen.h"

#include "core/ir/ccompiler_ops.h"

#include <algorithm>
#include <stdexcept>

namespace passlab {

std::string CompositePattern::partitionedFromPattern() const {
  std::string out;
  for (OpId id : chain) out += std::string(opDef(id).name) + "_";
  return out;
}

bool ExternalCodegen::supports(const CallNode& call) const {
  const OpDef* op = call.op();
  if (!op || std::find(ops.begin(), ops.end(), op->id) == ops.end()) return false;
  return !refuse || refuse(call).empty();
}

ExternalCodegen makeCCompilerCodegen() {
  ExternalCodegen c;
  c.name = "ccompiler";
  c.description = "TVM's example C codegen: elementwise arithmetic, abs, relu, clip, ungrouped unit-stride conv2d, dense";
  c.ops.assign(kCCompilerOps.begin(), kCCompilerOps.end());  // what codegen/c_codegen.cpp emits
  // Its convolution kernel is a plain loop nest over one group with unit
  // strides; grouped (depthwise) and strided convolutions stay with the main compiler.
  c.refuse = [](const CallNode& call) -> std::string {
    const OpDef* op = call.op();
    if (op->id != OpId::Conv2D) return "";
    if (attrOrDefault(*op, call.attrs, "groups").asInt() != 1) return "grouped conv2d";
    for (int64_t s : attrOrDefault(*op, call.attrs, "strides").asInts())
      if (s != 1) return "strided conv2d";
    return "";
  };
  c.patterns = {{"ccompiler.conv2d_bias_relu", {OpId::Conv2D, OpId::BiasAdd, OpId::Relu}},
                {"ccompiler.dense_bias", {OpId::Dense, OpId::BiasAdd}}};
  return c;
}

ExternalCodegenRegistry& ExternalCodegenRegistry::global() {
  static ExternalCodegenRegistry registry = [] {
    ExternalCodegenRegistry r;
    r.add(makeCCompilerCodegen());
    return r;
  }();
  return registry;
}

void ExternalCodegenRegistry::add(ExternalCodegen codegen) {
  if (find(codegen.name)) throw std::invalid_argument("external codegen '" + codegen.name + "' is registered twice");
  codegens_.push_back(std::move(codegen));
}

const ExternalCodegen* ExternalCodegenRegistry::find(std::string_view name) const {
  for (const ExternalCodegen& c : codegens_)
    if (c.name == name) return &c;
  return nullptr;
}

std::vector<std::string> ExternalCodegenRegistry::names() const {
  std::vector<std::string> out;
  for (const ExternalCodegen& c : codegens_) out.push_back(c.name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace passlab
