#include "passes/mark_compiler_functions_as_extern.h"

#include "passes/byoc_util.h"
#include "passes/registry.h"

namespace passlab {

namespace {

class MarkCompilerFunctionsAsExternPass final : public Pass {
 public:
  explicit MarkCompilerFunctionsAsExternPass(MarkCompilerFunctionsAsExternOptions options) : opts_(std::move(options)) {
    if (!opts_.compiler.empty()) options_.set("compiler", AttrValue::string(opts_.compiler));
  }

  const PassInfo& info() const override { return builtinPassInfo("MarkCompilerFunctionsAsExtern"); }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    ctx.recordOption("compiler", AttrValue::string(opts_.compiler), info().name);
    std::map<std::string, Expr> functions = mod->functions;
    bool changed = false;
    for (auto& [name, fn] : functions) {
      const FunctionNode* node = as<FunctionNode>(fn);
      if (!node || !byoc::matchesCompiler(*node, opts_.compiler)) continue;
      AttrDict stub;
      stub.set(fn_attr::kExtern, AttrValue::integer(1));
      Function marked = withAttrs(*node, std::move(stub));
      marked->checkedType = node->checkedType;
      fn = marked;
      changed = true;
    }
    return changed ? makeModule(std::move(functions), mod->attrs) : mod;
  }

 private:
  MarkCompilerFunctionsAsExternOptions opts_;
};

}  // namespace

PassPtr createMarkCompilerFunctionsAsExternPass(const MarkCompilerFunctionsAsExternOptions& options) {
  return std::make_shared<MarkCompilerFunctionsAsExternPass>(options);
}

}  // namespace passlab
