// The external (BYOC) codegen registry: which ops and composite patterns each
// external compiler takes. AnnotateTarget decides offloading from it and
// PartitionGraph forms composite functions from its patterns; the C code
// generation of a codegen lives elsewhere (codegen/).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/expr.h"

namespace passlab {

/// A chain of ops fused into one `Composite` function: each op takes the
/// previous one's result as its first argument (TVM's pattern table entries
/// of the form op1 -> op2 -> op3).
struct CompositePattern {
  /// `Composite` attribute value, "<codegen>.<name>" as TVM spells it.
  std::string name;
  /// Ops from the innermost (first evaluated) to the root.
  std::vector<OpId> chain;
  /// TVM's `PartitionedFromPattern` text: op names each followed by '_'.
  std::string partitionedFromPattern() const;
};

/// One external codegen.
struct ExternalCodegen {
  /// Value of the `Compiler` attribute ("ccompiler").
  std::string name;
  std::string description;
  /// Ops it takes one at a time (checked further by `accepts`).
  std::vector<OpId> ops;
  /// Extra conditions on a call of a listed op (e.g. only ungrouped conv2d);
  /// null accepts every call of a listed op. Returns the reason for a refusal.
  std::function<std::string(const CallNode&)> refuse;
  /// Composite patterns, longest first (matching tries them in order).
  std::vector<CompositePattern> patterns;

  /// True when the codegen takes this op call on its own.
  bool supports(const CallNode& call) const;
};

/// The codegens by name. Built-in ones are present from the start.
class ExternalCodegenRegistry {
 public:
  /// The process-wide registry (holds `ccompiler`).
  static ExternalCodegenRegistry& global();
  /// Adds a codegen; a duplicate name throws std::invalid_argument.
  void add(ExternalCodegen codegen);
  /// The codegen named `name`, or null.
  const ExternalCodegen* find(std::string_view name) const;
  /// Registered names, sorted.
  std::vector<std::string> names() const;

 private:
  std::vector<ExternalCodegen> codegens_;
};

/// The built-in `ccompiler` codegen: elementwise ops, ungrouped conv2d with
/// unit strides and dense, with composite patterns conv2d+bias_add+relu and dense+bias_add.
ExternalCodegen makeCCompilerCodegen();

}  // namespace passlab
