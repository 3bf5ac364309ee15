#include "passes/outline_compiler_functions.h"

#include <unordered_map>

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/pass/registry.h"
#include "passes/byoc_util.h"
#include "passes/opt_util.h"

namespace passlab {

namespace {

/// Global names for Compiler functions, shared among structurally equal ones
/// (TVM's GlobalSymbolCache). The global_symbol is left out of the key: two
/// partitions of the same subgraph differ only in it.
class GlobalSymbolCache {
 public:
  explicit GlobalSymbolCache(std::map<std::string, Expr>& functions) : functions_(functions) {}

  /// The global for `fn`: an existing one for a structurally equal function, or a new one.
  std::string globalFor(const Function& fn) {
    AttrDict key = fn->attrs;
    key.erase(fn_attr::kGlobalSymbol);
    Function keyed = withAttrs(*fn, std::move(key));
    size_t hash = structuralHash(keyed);
    for (const auto& [candidate, name] : buckets_[hash])
      if (structuralEqual(candidate, keyed)) return name;
    const std::string compiler = byoc::compilerOf(*fn);
    std::string name = fn->attrs.getString(fn_attr::kGlobalSymbol, "");
    if (name.empty() || functions_.count(name)) name = byoc::freshGlobalName(compiler, counters_[compiler], functions_);
    AttrDict attrs = fn->attrs;
    if (attrs.contains(fn_attr::kGlobalSymbol)) attrs.set(fn_attr::kGlobalSymbol, AttrValue::string(name));
    functions_[name] = withAttrs(*fn, std::move(attrs));
    buckets_[hash].emplace_back(keyed, name);
    ++made_;
    return name;
  }
  int made() const { return made_; }

 private:
  std::map<std::string, Expr>& functions_;
  std::unordered_map<size_t, std::vector<std::pair<Expr, std::string>>> buckets_;
  std::map<std::string, int> counters_;
  int made_ = 0;
};

class Outliner final : public ExprMutator {
 public:
  Outliner(GlobalSymbolCache& cache, const std::string& compiler) : cache_(cache), compiler_(compiler) {}
  int outlined() const { return outlined_; }

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    const FunctionNode* fn = byoc::regionCallee(rebuilt);
    if (!fn || !byoc::matchesCompiler(*fn, compiler_)) return rebuilt;
    const CallNode& call = static_cast<const CallNode&>(*rebuilt);
    std::string name = cache_.globalFor(std::static_pointer_cast<const FunctionNode>(call.callee));
    ++outlined_;
    return makeCall(makeGlobalVar(name), call.args, call.attrs, call.span);
  }

 private:
  GlobalSymbolCache& cache_;
  const std::string& compiler_;
  int outlined_ = 0;
};

/// What OutlineCompilerFunctions is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& outlineCompilerFunctionsDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = "OutlineCompilerFunctions";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Lifts function literals carrying Compiler (inlined partitions) back to globals; structurally equal ones "
        "share one global (a cache keyed by structural hash).";
    r.info.guarantees =
        "No call to a Compiler function literal remains outside skipped functions; attributes, Inline=1 included, "
        "are kept; structurally equal functions (global_symbol aside) have one global.";
    r.options = {{"compiler", Kind::String, AttrValue::string(""), "only functions of this codegen (empty: all)"}};
    r.create = [](const AttrDict& options) {
      OutlineCompilerFunctionsOptions o;
      o.compiler = options.getString("compiler", o.compiler);
      return createOutlineCompilerFunctionsPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kOutlineCompilerFunctionsRegistrar(outlineCompilerFunctionsDeclaration);

class OutlineCompilerFunctionsPass final : public Pass {
 public:
  explicit OutlineCompilerFunctionsPass(OutlineCompilerFunctionsOptions options) : opts_(std::move(options)) {
    if (!opts_.compiler.empty()) options_.set("compiler", AttrValue::string(opts_.compiler));
  }

  const PassInfo& info() const override { return outlineCompilerFunctionsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    ctx.recordOption("compiler", AttrValue::string(opts_.compiler), info().name);
    std::map<std::string, Expr> functions = mod->functions;
    GlobalSymbolCache cache(functions);
    bool changed = false;
    for (const auto& [name, fn] : mod->functions) {
      const FunctionNode* node = as<FunctionNode>(fn);
      if (!node) continue;
      if (std::optional<std::string> reason = defaultFunctionSkipReason(*node)) {
        ctx.notifySkip({info().name, name, *reason});
        continue;
      }
      Outliner outliner(cache, opts_.compiler);
      Expr out = outliner.mutate(fn);
      if (outliner.outlined() == 0 || out == fn) continue;
      functions[name] = out;
      changed = true;
    }
    if (!changed) return mod;
    return inferTypes(makeModule(std::move(functions), mod->attrs));
  }

 private:
  OutlineCompilerFunctionsOptions opts_;
};

}  // namespace

PassPtr createOutlineCompilerFunctionsPass(const OutlineCompilerFunctionsOptions& options) {
  return std::make_shared<OutlineCompilerFunctionsPass>(options);
}

}  // namespace passlab
