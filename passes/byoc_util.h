// Helpers shared by the BYOC passes (AnnotateTarget, MergeCompilerRegions,
// PartitionGraph, OutlineCompilerFunctions, MarkCompilerFunctionsAsExtern).
//
// Representation: a *compiler region* is a call to a function literal that
// carries a `Compiler` attribute, called in place:
//   %1 = fn (%ccompiler_in0: ..., Compiler="ccompiler") { nn.relu(%ccompiler_in0) };
//   %2 = %1(%0);
// This stands for TVM's compiler_begin/compiler_end annotations: the printer,
// parser, type checker and interpreter handle it without new ops, a diff shows
// each region, and it is exactly the shape Inline leaves for partitioned
// functions, so OutlineCompilerFunctions lifts both the same way.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>

#include "core/ir/functor.h"
#include "core/ir/module.h"

namespace passlab::byoc {

/// The literal and its compiler when `e` is a call to a `Compiler` function
/// literal (a region), else null.
const FunctionNode* regionCallee(const Expr& e);

/// The `Compiler` attribute of `fn` ("" when absent).
std::string compilerOf(const FunctionNode& fn);

/// Replaces variables by expressions (parameters by arguments); replacement
/// values are inserted as they are, never visited.
class Substituter final : public ExprMutator {
 public:
  /// Substitutes every key of `map` (a Var node) by its value.
  explicit Substituter(std::unordered_map<const ExprNode*, Expr> map) : map_(std::move(map)) {}

 protected:
  std::optional<Expr> preVisit(const Expr& e) override;

 private:
  std::unordered_map<const ExprNode*, Expr> map_;
};

/// For every node of `root` (nested function literals not entered), how many
/// distinct nodes use it: `multiply(%0, %0)` is one user of %0.
std::unordered_map<const ExprNode*, int> distinctUsers(const Expr& root);

/// True when `fn` carries `Compiler` equal to `compiler` (any `Compiler`
/// when `compiler` is empty): the filter of the passes' `compiler` options.
bool matchesCompiler(const FunctionNode& fn, const std::string& compiler);

/// A global name `tvmgen_default_<compiler>_main_<k>` not yet in `taken`,
/// with k counting up from `next` (updated past the name returned).
std::string freshGlobalName(const std::string& compiler, int& next, const std::map<std::string, Expr>& taken);

}  // namespace passlab::byoc
