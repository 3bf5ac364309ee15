// The reducer's candidate rewrites (internal to core/workbench/reduce*.cpp):
// each reduction lists its targets in a module and applies a chunk of them.
// reduce.cpp measures, judges and drives them.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/ir/module.h"

namespace passlab::reduce_detail {

/// One thing a reduction may change. Which fields matter depends on the reduction.
struct Target {
  std::string function;         ///< global function ("" = the module)
  const ExprNode* node = nullptr;  ///< a call or constant of that function
  std::string key;              ///< attribute key
  int param = -1, dim = -1;     ///< shapes: parameter and dimension
};

/// A reduction: how to list its targets in a module and apply a chunk of them.
struct Reduction {
  std::string name;
  std::function<std::vector<Target>(const IRModule&)> targets;
  std::function<IRModule(const IRModule&, const std::vector<Target>&)> apply;
  /// Applies one target at a time and binary-searches for the first target (in
  /// list order) that keeps the predicate, instead of ddmin over chunks.
  bool search = false;
};

/// Every reduction, in the order the reducer tries them.
std::vector<Reduction> makeReductions();

/// Names of global functions referenced anywhere (as callee or value).
std::set<std::string> referencedGlobals(const IRModule& mod);

}  // namespace passlab::reduce_detail
