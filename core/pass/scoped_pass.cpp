#include "core/pass/scoped_pass.h"

namespace passlab {

namespace {

class CompilerScopedPass final : public Pass {
 public:
  CompilerScopedPass(PassPtr inner, std::string compiler) : inner_(std::move(inner)), compiler_(std::move(compiler)) {
    options_.set("compiler", AttrValue::string(compiler_));
    for (const auto& [key, value] : inner_->options().entries()) options_.set(key, value);
  }

  const PassInfo& info() const override { return inner_->info(); }
  std::vector<PassPtr> subPasses() const override { return inner_->subPasses(); }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    const std::string& pass = info().name;
    ctx.recordOption("compiler", AttrValue::string(compiler_), pass);
    std::map<std::string, Expr> scoped;
    std::map<std::string, AttrDict> originalAttrs;
    for (const auto& [name, fn] : mod->functions) {
      const FunctionNode* f = as<FunctionNode>(fn);
      if (!f) continue;
      const AttrValue* compiler = f->attrs.find(fn_attr::kCompiler);
      if (!compiler || compiler->kind() != AttrValue::Kind::String || compiler->asString() != compiler_) {
        ctx.notifySkip({pass, name,
                        "not a Compiler=\"" + compiler_ + "\" function: the pass is scoped to compiler=" + compiler_});
        continue;
      }
      AttrDict attrs = f->attrs;
      attrs.erase(fn_attr::kCompiler);
      attrs.erase(fn_attr::kPrimitive);
      // And its external symbol: the view is a plain graph-level function
      // (a global_symbol outside a Compiler function marks a Relax module).
      attrs.erase(fn_attr::kGlobalSymbol);
      Function view = withAttrs(*f, std::move(attrs));
      view->checkedType = f->checkedType;
      scoped.emplace(name, view);
      originalAttrs.emplace(name, f->attrs);
    }
    if (scoped.empty()) return mod;
    IRModule view = makeModule(scoped, mod->attrs);
    IRModule result = inner_->run(view, ctx);
    if (result == view) return mod;

    std::map<std::string, Expr> functions = mod->functions;
    bool changed = false;
    for (const auto& [name, fn] : result->functions) {
      auto before = scoped.find(name);
      if (before != scoped.end() && before->second == fn) continue;
      changed = true;
      const FunctionNode* f = as<FunctionNode>(fn);
      if (before == scoped.end() || !f) {
        functions[name] = fn;  // a function the pass added
        continue;
      }
      // The original attributes, in their order, updated with what the pass set or removed.
      const AttrDict& original = originalAttrs.at(name);
      AttrDict attrs;
      for (const auto& [key, value] : original.entries()) {
        if (key == fn_attr::kCompiler || key == fn_attr::kPrimitive || key == fn_attr::kGlobalSymbol) {
          attrs.set(key, value);
        } else if (const AttrValue* now = f->attrs.find(key)) {
          attrs.set(key, *now);
        }
      }
      for (const auto& [key, value] : f->attrs.entries()) attrs.set(key, value);
      Function restored = withAttrs(*f, std::move(attrs));
      restored->checkedType = f->checkedType;
      functions[name] = restored;
    }
    // A function missing from the result is kept: the view holds no entry
    // function, so "unused" there (DeadCodeElimination{remove_unused_functions})
    // says nothing about the real module.
    return changed ? makeModule(std::move(functions), mod->attrs) : mod;
  }

 private:
  PassPtr inner_;
  std::string compiler_;
};

}  // namespace

PassPtr scopeToCompiler(PassPtr inner, std::string compiler) {
  return std::make_shared<CompilerScopedPass>(std::move(inner), std::move(compiler));
}

}  // namespace passlab
