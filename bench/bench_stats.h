// Small figures the benches share: medians and model sizes, written once so
// every bench reports them the same way.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/ir/functor.h"
#include "core/ir/module.h"

namespace passlab::bench {

/// The median of `v` (the mean of the middle two for an even count); 0 when empty.
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// Op calls in the module's graph-level functions: the "N-op model" of bench output.
inline size_t countOps(const IRModule& mod) {
  size_t n = 0;
  for (const auto& [name, fn] : mod->functions)
    if (fn->kind == ExprKind::Function)
      postOrderVisit(fn, [&](const Expr& e) {
        const auto* c = as<CallNode>(e);
        n += c && c->op();
      });
  return n;
}

}  // namespace passlab::bench
