// BindTarget: fills missing target attributes; an existing one always wins.
#include "passes/bind_target.h"

#include <map>

#include "core/pass/registry.h"
#include "core/pass/target.h"

namespace passlab {

namespace {

constexpr const char* kPass = "BindTarget";

/// kind plus sorted options: equal for targets that differ only in spacing or option order.
std::string canonical(const std::string& text) {
  TargetSpec spec = parseTarget(text);
  std::map<std::string, std::string> options;
  for (const auto& [key, value] : spec.options.entries()) options[key] = value.toString();
  std::string out = spec.kind;
  for (const auto& [key, value] : options) out += " -" + key + "=" + value;
  return out;
}

/// What BindTarget is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& bindTargetDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = kPass;
    r.info.optLevel = 0;
    // attributes only: meaningful in every phase
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering, Phase::Build};
    r.info.description =
        "Sets the target attribute of every function that has none; a function with another target keeps it "
        "(warning bind-target.conflict).";
    r.info.guarantees = "Every PrimFunc and non-external function has a target; no existing target attribute changed.";
    r.options = {{"target", Kind::String, AttrValue::string(""), "target to bind (TVM style); empty takes the context's target"}};
    r.create = [](const AttrDict& options) {
      BindTargetOptions o;
      o.target = options.getString("target", o.target);
      return createBindTargetPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kBindTargetRegistrar(bindTargetDeclaration);

class BindTargetPass final : public Pass {
 public:
  explicit BindTargetPass(BindTargetOptions options) : opts_(std::move(options)) {
    if (!opts_.target.empty()) options_.set("target", AttrValue::string(opts_.target));
  }
  const PassInfo& info() const override { return bindTargetDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    std::string target = opts_.target;
    if (!target.empty()) {
      ctx.recordOption("target", AttrValue::string(target), kPass);
    } else {
      ctx.targetAttr("kind", kPass);  // records where the target came from
      target = ctx.target;
    }
    if (target.empty()) {
      Diagnostic d;
      d.message = "BindTarget: no target to bind; give one (BindTarget{target=llvm}) or set the context's target";
      d.rule = "bind-target.no-target";
      throw DiagnosticError(std::move(d));
    }
    const std::string wanted = canonical(target);
    IRModule out = mod;
    for (const auto& [name, fn] : mod->functions) {
      if (const auto* f = as<FunctionNode>(fn)) {
        if (std::optional<std::string> reason = defaultFunctionSkipReason(*f)) {
          ctx.notifySkip({kPass, name, *reason});
          continue;
        }
      } else if (fn->kind != ExprKind::PrimFunc) {
        continue;
      }
      const AttrDict& attrs = functionAttrs(fn);
      if (const AttrValue* existing = attrs.find(fn_attr::kTarget)) {
        std::string have = existing->kind() == AttrValue::Kind::String ? existing->asString() : existing->toString();
        if (canonical(have) != wanted) {
          Diagnostic d;
          d.severity = Severity::Warning;
          d.span = fn->span;
          d.function = name;
          d.rule = "bind-target.conflict";
          d.message = "@" + name + " keeps target=\"" + have + "\": BindTarget does not overwrite it with \"" + target + "\"";
          ctx.notifyDiagnostic(d);
        }
        continue;
      }
      AttrDict updated = attrs;
      updated.set(fn_attr::kTarget, AttrValue::string(target));
      if (const auto* f = as<FunctionNode>(fn)) {
        out = withFunction(out, name, withAttrs(*f, updated));
      } else {
        const auto& p = static_cast<const PrimFuncNode&>(*fn);
        out = withFunction(out, name, makePrimFunc(p.params, p.body, updated, p.span));
      }
    }
    return out;
  }

 private:
  BindTargetOptions opts_;
};

}  // namespace

bool sameTarget(const std::string& a, const std::string& b) { return canonical(a) == canonical(b); }

PassPtr createBindTargetPass(const BindTargetOptions& options) { return std::make_shared<BindTargetPass>(options); }

}  // namespace passlab
