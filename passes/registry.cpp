#include "passes/registry.h"

#include <stdexcept>

#include "passes/dead_code.h"
#include "passes/eliminate_common_subexpr.h"
#include "passes/infer_type.h"
#include "passes/inline.h"
#include "passes/simplify_expr.h"

namespace passlab {

namespace {

using Kind = AttrValue::Kind;

/// The strings of an array option (empty when the option is absent).
std::vector<std::string> strings(const AttrValue* array) {
  std::vector<std::string> out;
  if (!array) return out;
  for (const AttrValue& v : array->asArray()) out.push_back(v.kind() == Kind::String ? v.asString() : v.toString());
  return out;
}

AttrValue stringArray(const std::vector<std::string>& items) {
  std::vector<AttrValue> out;
  for (const std::string& s : items) out.push_back(AttrValue::string(s));
  return AttrValue::array(std::move(out));
}

/// The table. Phases: 0 ingestion, 1 optimization, 2 lowering, 3 build.
const std::vector<PassRegistration>& builtinTable() {
  static const std::vector<PassRegistration> kTable = [] {
    std::vector<PassRegistration> table;

    {
      PassRegistration r;
      r.info.name = "InferType";
      r.info.optLevel = 0;
      r.info.description = "Infers the type of every expression of every graph-level function.";
      r.info.guarantees = "Every expression of every graph-level function has a checked type; the module object is returned as is.";
      r.create = [](const AttrDict&) { return createInferTypePass(); };
      table.push_back(std::move(r));
    }
    {
      DeadCodeEliminationOptions defaults;
      PassRegistration r;
      r.info.name = "DeadCodeElimination";
      r.info.optLevel = 1;
      r.info.acceptedPhases = {0, 1, 2};
      r.info.description = "Removes let and dataflow bindings whose variable is unused and whose value is pure.";
      r.info.guarantees =
          "No unused pure binding remains; functions with nothing to remove are unchanged (same pointer). "
          "With remove_unused_functions, every global is reachable from an entry function.";
      r.options = {
          {"remove_unused_functions", Kind::Bool, AttrValue::boolean(defaults.removeUnusedFunctions),
           "also remove global functions no entry function reaches"},
          {"entry_functions", Kind::Array, stringArray(defaults.entryFunctions), "roots kept by remove_unused_functions"},
      };
      r.create = [](const AttrDict& options) {
        DeadCodeEliminationOptions o;
        o.removeUnusedFunctions = options.getBool("remove_unused_functions");
        if (options.contains("entry_functions")) o.entryFunctions = strings(options.find("entry_functions"));
        return createDeadCodeEliminationPass(o);
      };
      table.push_back(std::move(r));
    }
    {
      PassRegistration r;
      r.info.name = "SimplifyExpr";
      r.info.optLevel = 0;
      r.info.required = {"InferType"};
      r.info.acceptedPhases = {0, 1};
      r.info.description =
          "Algebraic identities that keep the type: x*1, x+0, x-0, x/1, reshape of reshape, transpose of transpose, "
          "cast to the same dtype, double negation, relu of relu.";
      r.info.guarantees = "Every rewritten expression has exactly the type of the one it replaces.";
      std::string rules;
      for (const std::string& rule : simplifyExprRuleNames()) rules += (rules.empty() ? "" : ", ") + rule;
      r.options = {{"disabled_rules", Kind::Array, AttrValue::array({}), "rule families not to apply: " + rules}};
      r.create = [](const AttrDict& options) {
        SimplifyExprOptions o;
        o.disabledRules = strings(options.find("disabled_rules"));
        return createSimplifyExprPass(o);
      };
      table.push_back(std::move(r));
    }
    {
      PassRegistration r;
      r.info.name = "Inline";
      r.info.optLevel = 1;
      r.info.acceptedPhases = {0, 1};
      r.info.description = "Inlines calls to global functions marked Inline=1 and removes those left unused.";
      r.info.guarantees = "No call to a global function with a non-zero Inline attribute remains outside skipped functions.";
      r.create = [](const AttrDict&) { return createInlinePass(); };
      table.push_back(std::move(r));
    }
    {
      PassRegistration r;
      r.info.name = "EliminateCommonSubexpr";
      r.info.optLevel = 3;
      r.info.acceptedPhases = {0, 1};
      r.info.description = "Merges repeated pure op calls with equal attributes and identical arguments.";
      r.info.guarantees = "No two pure op calls in one scope have the same op, attributes and argument nodes; stateful ops are untouched.";
      r.options = {{"skip_ops", Kind::Array, AttrValue::array({}), "op names never merged (besides stateful ops)"}};
      r.create = [](const AttrDict& options) {
        EliminateCommonSubexprOptions o;
        o.skipOps = strings(options.find("skip_ops"));
        return createEliminateCommonSubexprPass(o);
      };
      table.push_back(std::move(r));
    }
    return table;
  }();
  return kTable;
}

}  // namespace

void registerBuiltinPasses(PassRegistry& registry) {
  for (const PassRegistration& r : builtinTable()) registry.add(r);
}

const PassInfo& builtinPassInfo(std::string_view name) {
  for (const PassRegistration& r : builtinTable())
    if (r.info.name == name) return r.info;
  throw std::out_of_range("no built-in pass named '" + std::string(name) + "'");
}

}  // namespace passlab
