#include "passes/mark_compiler_functions_as_extern.h"

#include "core/pass/registry.h"
#include "passes/byoc_util.h"

namespace passlab {

namespace {

/// What MarkCompilerFunctionsAsExtern is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& markCompilerFunctionsAsExternDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = "MarkCompilerFunctionsAsExtern";
    r.info.optLevel = 0;
    r.info.required = {"OutlineCompilerFunctions"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Turns every global Compiler function (compiled by its codegen by now) into an Extern=1 stub with every "
        "other attribute dropped.";
    r.info.guarantees = "No global function of the codegen keeps Compiler, Primitive, Inline or global_symbol; each has Extern=1.";
    r.options = {{"compiler", Kind::String, AttrValue::string(""), "only functions of this codegen (empty: all)"}};
    r.create = [](const AttrDict& options) {
      MarkCompilerFunctionsAsExternOptions o;
      o.compiler = options.getString("compiler", o.compiler);
      return createMarkCompilerFunctionsAsExternPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kMarkCompilerFunctionsAsExternRegistrar(markCompilerFunctionsAsExternDeclaration);

class MarkCompilerFunctionsAsExternPass final : public Pass {
 public:
  explicit MarkCompilerFunctionsAsExternPass(MarkCompilerFunctionsAsExternOptions options) : opts_(std::move(options)) {
    if (!opts_.compiler.empty()) options_.set("compiler", AttrValue::string(opts_.compiler));
  }

  const PassInfo& info() const override { return markCompilerFunctionsAsExternDeclaration().info; }

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
