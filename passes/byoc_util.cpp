#include "passes/byoc_util.h"

#include <algorithm>

namespace passlab::byoc {

const FunctionNode* regionCallee(const Expr& e) {
  const CallNode* call = as<CallNode>(e);
  const FunctionNode* fn = call ? as<FunctionNode>(call->callee) : nullptr;
  return fn && fn->attrs.contains(fn_attr::kCompiler) ? fn : nullptr;
}

std::string compilerOf(const FunctionNode& fn) { return fn.attrs.getString(fn_attr::kCompiler, ""); }

std::optional<Expr> Substituter::preVisit(const Expr& e) {
  auto it = map_.find(e.get());
  if (it != map_.end()) return it->second;
  return std::nullopt;
}

std::unordered_map<const ExprNode*, int> distinctUsers(const Expr& root) {
  std::unordered_map<const ExprNode*, int> users;
  std::vector<Expr> children;
  postOrderVisit(
      root,
      [&](const Expr& e) {
        children.clear();
        appendChildren(e, children);
        std::sort(children.begin(), children.end());
        children.erase(std::unique(children.begin(), children.end()), children.end());
        for (const Expr& c : children)
          if (c) ++users[c.get()];
      },
      [&](const Expr& e) { return e == root || e->kind != ExprKind::Function; });
  return users;
}

bool matchesCompiler(const FunctionNode& fn, const std::string& compiler) {
  if (!fn.attrs.contains(fn_attr::kCompiler)) return false;
  return compiler.empty() || compilerOf(fn) == compiler;
}

std::string freshGlobalName(const std::string& compiler, int& next, const std::map<std::string, Expr>& taken) {
  while (true) {
    std::string name = "tvmgen_default_" + compiler + "_main_" + std::to_string(next++);
    if (!taken.count(name)) return name;
  }
}

}  // namespace passlab::byoc
