#include "passes/simplify_expr.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "passes/pass_util.h"
#include "core/pass/remark_rules.h"
#include "core/trace/remark_nodes.h"

namespace passlab {

const std::vector<std::string>& simplifyExprRuleNames() {
  static const std::vector<std::string> kRules = {"identity", "reshape", "transpose", "cast", "double_negation", "idempotent"};
  return kRules;
}

namespace {

using pass_util::isConstantFilledWith;
using pass_util::staticTensorType;

const CallNode* opCall(const Expr& e, OpId id) {
  const CallNode* c = as<CallNode>(e);
  return c && c->op() && c->op()->id == id ? c : nullptr;
}

bool sameType(const Expr& a, const Expr& b) { return a && b && a->checkedType && b->checkedType && typeEqual(a->checkedType, b->checkedType); }

/// The permutation of a transpose call over `rank` dimensions (axes None or empty: reversed).
std::optional<std::vector<int64_t>> transposePermutation(const CallNode& call, size_t rank) {
  const AttrValue& axes = attrOrDefault(*call.op(), call.attrs, "axes");
  std::vector<int64_t> perm;
  if (axes.isNone() || axes.asArray().empty()) {
    for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(rank - 1 - i));
    return perm;
  }
  perm = axes.asInts();
  if (perm.size() != rank) return std::nullopt;
  for (int64_t& a : perm) {
    if (a < 0) a += static_cast<int64_t>(rank);
    if (a < 0 || a >= static_cast<int64_t>(rank)) return std::nullopt;
  }
  return perm;
}

bool isIdentityPermutation(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

class Simplifier final : public ExprMutator {
 public:
  explicit Simplifier(const std::set<std::string>& disabled) : disabled_(disabled) {}
  /// Records a remark per rewrite of `function` in `ctx`.
  void explainInto(PassContext& ctx, const std::string& pass, const std::string& function) {
    ctx_ = &ctx;
    pass_ = &pass;
    function_ = function;
  }

 protected:
  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    // A rewrite below kept every type, so a rebuilt node has its original's type;
    // carrying it lets the rules above see types without re-running inference.
    if (rebuilt != original && !rebuilt->checkedType && original->checkedType) rebuilt->checkedType = original->checkedType;
    const CallNode* call = as<CallNode>(rebuilt);
    if (!call || !call->op() || !original->checkedType) return rebuilt;
    Expr simplified = simplify(*call, original);
    if (!simplified || simplified == rebuilt) return rebuilt;
    // The safety condition of every rule, checked once more for all of them.
    if (!simplified->checkedType) simplified->checkedType = original->checkedType;
    if (!typeEqual(simplified->checkedType, original->checkedType)) return rebuilt;
    if (ctx_)
      ctx_->remark(makeRemark(*pass_, RemarkRule::SimplifyRewrite, function_, {original},
                              std::string(call->op()->name) + " → " + describeNode(simplified) + ": rule " + ruleOf(call->op()->id)));
    return simplified;
  }

 private:
  bool enabled(const char* rule) const { return !disabled_.count(rule); }

  /// The SimplifyExpr rule (simplifyExprRuleNames) that rewrites calls of `op`.
  static const char* ruleOf(OpId op) {
    switch (op) {
      case OpId::Reshape: return "reshape";
      case OpId::Transpose: return "transpose";
      case OpId::Cast: return "cast";
      case OpId::Negative: return "double_negation";
      case OpId::Relu: return "idempotent";
      default: return "identity";
    }
  }

  Expr simplify(const CallNode& call, const Expr& original) {
    const std::vector<Expr>& args = call.args;
    switch (call.op()->id) {
      case OpId::Add:
        if (!enabled("identity") || args.size() != 2) return nullptr;
        if (isConstantFilledWith(args[1], 0) && sameType(args[0], original)) return args[0];
        if (isConstantFilledWith(args[0], 0) && sameType(args[1], original)) return args[1];
        return nullptr;
      case OpId::Subtract:
        if (!enabled("identity") || args.size() != 2) return nullptr;
        if (isConstantFilledWith(args[1], 0) && sameType(args[0], original)) return args[0];
        return nullptr;
      case OpId::Multiply:
        if (!enabled("identity") || args.size() != 2) return nullptr;
        if (isConstantFilledWith(args[1], 1) && sameType(args[0], original)) return args[0];
        if (isConstantFilledWith(args[0], 1) && sameType(args[1], original)) return args[1];
        return nullptr;
      case OpId::Divide:
        if (!enabled("identity") || args.size() != 2) return nullptr;
        if (isConstantFilledWith(args[1], 1) && sameType(args[0], original)) return args[0];
        return nullptr;
      case OpId::Reshape: return enabled("reshape") ? simplifyReshape(call, original) : nullptr;
      case OpId::Transpose: return enabled("transpose") ? simplifyTranspose(call, original) : nullptr;
      case OpId::Cast:
        if (enabled("cast") && args.size() == 1 && sameType(args[0], original)) return args[0];
        return nullptr;
      case OpId::Negative:
        if (!enabled("double_negation") || args.size() != 1) return nullptr;
        if (const CallNode* inner = opCall(args[0], OpId::Negative); inner && inner->args.size() == 1 && sameType(inner->args[0], original))
          return inner->args[0];
        return nullptr;
      case OpId::Relu:
        if (!enabled("idempotent") || args.size() != 1) return nullptr;
        if (opCall(args[0], OpId::Relu) && sameType(args[0], original)) return args[0];
        return nullptr;
      default: return nullptr;
    }
  }

  Expr simplifyReshape(const CallNode& call, const Expr& original) {
    if (call.args.size() != 1) return nullptr;
    const Expr& input = call.args[0];
    if (sameType(input, original)) return input;
    const CallNode* inner = opCall(input, OpId::Reshape);
    if (!inner || inner->args.size() != 1) return nullptr;
    const Expr& source = inner->args[0];
    if (sameType(source, original)) return source;
    const TensorTypeNode* out = staticTensorType(original);
    const TensorTypeNode* src = staticTensorType(source);
    if (!out || !src || src->dtype != out->dtype) return nullptr;
    // The outer newshape is reusable when it only has sizes and -1 (whose value
    // depends on the element count alone); 0 and -2..-4 copy dimensions of the
    // input, which differ now, so those become the concrete output shape.
    AttrDict attrs = call.attrs;
    const AttrValue& newshape = attrOrDefault(*call.op(), call.attrs, "newshape");
    std::vector<int64_t> dims = newshape.asInts();
    bool reusable = std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d > 0 || d == -1; });
    if (!reusable) attrs.set("newshape", AttrValue::ints(out->shape));
    Expr result = makeOpCall(OpId::Reshape, {source}, attrs, call.span);
    result->checkedType = original->checkedType;
    return result;
  }

  Expr simplifyTranspose(const CallNode& call, const Expr& original) {
    if (call.args.size() != 1) return nullptr;
    const TensorTypeNode* out = staticTensorType(original);
    if (!out) return nullptr;
    std::optional<std::vector<int64_t>> outer = transposePermutation(call, out->shape.size());
    if (!outer) return nullptr;
    if (isIdentityPermutation(*outer) && sameType(call.args[0], original)) return call.args[0];
    const CallNode* inner = opCall(call.args[0], OpId::Transpose);
    if (!inner || inner->args.size() != 1) return nullptr;
    std::optional<std::vector<int64_t>> first = transposePermutation(*inner, out->shape.size());
    if (!first) return nullptr;
    // y = transpose(x, a1): y[i] = x[a1[i]]; z = transpose(y, a2): z[i] = x[a1[a2[i]]].
    std::vector<int64_t> composed(out->shape.size());
    for (size_t i = 0; i < composed.size(); ++i) composed[i] = (*first)[static_cast<size_t>((*outer)[i])];
    const Expr& source = inner->args[0];
    if (isIdentityPermutation(composed)) return sameType(source, original) ? source : nullptr;
    Expr result = makeOpCall(OpId::Transpose, {source}, {{"axes", AttrValue::ints(composed)}}, call.span);
    result->checkedType = original->checkedType;
    return result;
  }

  const std::set<std::string>& disabled_;
  PassContext* ctx_ = nullptr;  // remarks on: where they go
  const std::string* pass_ = nullptr;
  std::string function_;
};

/// What SimplifyExpr is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& simplifyExprDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = "SimplifyExpr";
    r.level = PassLevel::Function;
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.description =
        "Algebraic identities that keep the type: x*1, x+0, x-0, x/1, reshape of reshape, transpose of transpose, "
        "cast to the same dtype, double negation, relu of relu.";
    r.info.guarantees = "Every rewritten expression has exactly the type of the one it replaces.";
    std::string rules;
    for (const std::string& rule : simplifyExprRuleNames()) rules += (rules.empty() ? "" : ", ") + rule;
    r.options = {{"disabled_rules", Kind::Array, AttrValue::array({}), "rule families not to apply: " + rules}};
    r.create = [](const AttrDict& options) {
      SimplifyExprOptions o;
      o.disabledRules = optionStrings(options, "disabled_rules");
      return createSimplifyExprPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kSimplifyExprRegistrar(simplifyExprDeclaration);

class SimplifyExprPass final : public FunctionPass {
 public:
  explicit SimplifyExprPass(SimplifyExprOptions options) : disabled_(options.disabledRules.begin(), options.disabledRules.end()) {
    const std::vector<std::string>& known = simplifyExprRuleNames();
    for (const std::string& rule : disabled_) {
      if (std::find(known.begin(), known.end(), rule) == known.end()) {
        std::string list;
        for (const std::string& r : known) list += (list.empty() ? "" : ", ") + r;
        throwError({}, "SimplifyExpr has no rule '" + rule + "'; rules: " + list, "pipeline");
      }
    }
    if (!options.disabledRules.empty()) {
      std::vector<AttrValue> names;
      for (const std::string& r : options.disabledRules) names.push_back(AttrValue::string(r));
      options_.set("disabled_rules", AttrValue::array(std::move(names)));
    }
  }

  const PassInfo& info() const override { return simplifyExprDeclaration().info; }

  Function runOnFunction(const Function& fn, const std::string& name, const IRModule& mod, PassContext& ctx) const override {
    if (!fn->body->checkedType) {
      try {
        inferExprType(fn, &mod);
      } catch (const DiagnosticError& error) {
        Diagnostic d = error.diagnostics().front();
        d.severity = Severity::Warning;
        d.function = name;
        d.message = "SimplifyExpr left @" + name + " unchanged: it does not type-check: " + d.message;
        ctx.notifyDiagnostic(d);
        return fn;
      }
    }
    Simplifier simplifier(disabled_);
    if (ctx.remarksEnabled()) simplifier.explainInto(ctx, info().name, name);
    Expr result = simplifier.mutate(fn);
    if (result == fn) return fn;
    return std::static_pointer_cast<const FunctionNode>(result);
  }

 protected:
  IRModule finishModule(const IRModule& mod, PassContext& ctx) const override {
    std::vector<AttrValue> names;
    for (const std::string& r : disabled_) names.push_back(AttrValue::string(r));
    ctx.recordOption("disabled_rules", AttrValue::array(std::move(names)), info().name);
    return mod;
  }

 private:
  std::set<std::string> disabled_;
};

}  // namespace

PassPtr createSimplifyExprPass(const SimplifyExprOptions& options) { return std::make_shared<SimplifyExprPass>(options); }

}  // namespace passlab
