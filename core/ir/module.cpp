#include "core/ir/module.h"

namespace passlab {

Expr IRModuleNode::lookup(const std::string& name) const {
  auto it = functions.find(name);
  return it == functions.end() ? nullptr : it->second;
}

const FunctionNode* IRModuleNode::lookupFunction(const std::string& name) const { return as<FunctionNode>(lookup(name)); }

IRModule makeModule(std::map<std::string, Expr> functions, AttrDict attrs) {
  auto m = std::make_shared<IRModuleNode>();
  m->functions = std::move(functions);
  m->attrs = std::move(attrs);
  return m;
}

IRModule withFunction(const IRModule& mod, const std::string& name, Expr fn) {
  auto m = std::make_shared<IRModuleNode>(*mod);
  m->functions[name] = std::move(fn);
  return m;
}

IRModule withoutFunction(const IRModule& mod, const std::string& name) {
  auto m = std::make_shared<IRModuleNode>(*mod);
  m->functions.erase(name);
  return m;
}

IRModule withModuleAttrs(const IRModule& mod, AttrDict attrs) {
  auto m = std::make_shared<IRModuleNode>(*mod);
  m->attrs = std::move(attrs);
  return m;
}

const AttrDict& functionAttrs(const Expr& fn) {
  static const AttrDict kEmpty;
  if (auto* f = as<FunctionNode>(fn)) return f->attrs;
  if (auto* p = as<PrimFuncNode>(fn)) return p->attrs;
  return kEmpty;
}

}  // namespace passlab
