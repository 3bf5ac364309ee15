#include "passes/opt_util.h"

#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"

namespace passlab::opt_util {

const CallNode* callTo(const Expr& e, OpId id) {
  const CallNode* c = as<CallNode>(e);
  return c && c->op() && c->op()->id == id ? c : nullptr;
}

Expr scalarConstant(DataType dtype, double value) { return makeConstant(NDArray::scalar(dtype, value)); }

const AttrValue& callAttr(const CallNode& call, std::string_view key) { return attrOrDefault(*call.op(), call.attrs, key); }

const TensorTypeNode* tensorTypeOf(const Expr& e) { return e ? as<TensorTypeNode>(e->checkedType) : nullptr; }

void ensureTyped(const Function& fn, const IRModule& mod) {
  if (fn->body && fn->body->checkedType) return;
  inferExprType(fn, &mod);
}

Expr expandBiasToMatchAxis(const Expr& bias, int64_t ndim, int64_t axis) {
  if (axis >= ndim - 1) return bias;
  return makeOpCall(OpId::ExpandDims, {bias}, {{"axis", AttrValue::integer(1)}, {"num_newaxis", AttrValue::integer(ndim - axis - 1)}});
}

std::optional<int64_t> normalizedAxis(int64_t axis, int64_t ndim) {
  if (axis < 0) axis += ndim;
  if (axis < 0 || axis >= ndim) return std::nullopt;
  return axis;
}

bool isPrimitive(const FunctionNode& fn) { return fn.attrs.getInt(fn_attr::kPrimitive, 0) != 0; }

std::unordered_map<const ExprNode*, int> useCounts(const Expr& root) {
  std::unordered_map<const ExprNode*, int> uses;
  std::vector<Expr> children;
  postOrderVisit(root, [&](const Expr& e) {
    children.clear();
    appendChildren(e, children);
    for (const Expr& c : children)
      if (c) ++uses[c.get()];
  });
  return uses;
}

std::optional<std::string> skipReasonOrPrimitive(const FunctionNode& fn) {
  if (std::optional<std::string> reason = defaultFunctionSkipReason(fn)) return reason;
  if (isPrimitive(fn)) return std::string(fn_attr::kPrimitive) + "=1: a fused group, already lowered to one kernel";
  return std::nullopt;
}

IRModule mapFunctions(const IRModule& mod, PassContext& ctx, const std::string& pass,
                      const std::function<Function(const Function&, const std::string&)>& transform,
                      const std::function<std::optional<std::string>(const FunctionNode&)>& skip) {
  std::vector<std::pair<std::string, Expr>> updates;
  for (const auto& [name, fn] : mod->functions) {
    const FunctionNode* node = as<FunctionNode>(fn);
    if (!node) continue;
    if (std::optional<std::string> reason = skip ? skip(*node) : std::nullopt) {
      ctx.notifySkip({pass, name, *reason});
      continue;
    }
    Function function = std::static_pointer_cast<const FunctionNode>(fn);
    Function result = transform(function, name);
    if (result != function) updates.emplace_back(name, std::move(result));
  }
  if (updates.empty()) return mod;
  std::map<std::string, Expr> functions = mod->functions;
  for (auto& [name, fn] : updates) functions[name] = std::move(fn);
  return makeModule(std::move(functions), mod->attrs);
}

}  // namespace passlab::opt_util
