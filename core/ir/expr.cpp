#include "core/ir/expr.h"

#include <array>


namespace passlab {

const OpDef* CallNode::op() const {
  const OpNode* o = as<OpNode>(callee);
  return o ? o->def : nullptr;
}

Var makeVar(std::string name, Type annotation, bool isDataflow, Span span) {
  return std::make_shared<const VarNode>(std::move(name), std::move(annotation), isDataflow, std::move(span));
}

Var makeVarOnDevice(std::string name, Type annotation, AttrValue virtualDevice, Span span) {
  auto v = std::make_shared<VarNode>(std::move(name), std::move(annotation), false, std::move(span));
  v->virtualDevice = std::move(virtualDevice);
  return v;
}

Expr makeGlobalVar(std::string name, Span span) { return std::make_shared<const GlobalVarNode>(std::move(name), std::move(span)); }

Expr makeConstant(NDArray data, Span span) {
  auto c = std::make_shared<const ConstantNode>(std::move(data), std::move(span));
  // A constant's type never depends on context: set it now.
  c->checkedType = tensorType(c->data.shape(), c->data.dtype());
  return c;
}

Expr opExpr(OpId id) {
  // One shared node per op, built on first use.
  static const std::array<Expr, kNumOps> kOps = [] {
    std::array<Expr, kNumOps> ops;
    for (size_t i = 0; i < kNumOps; ++i) ops[i] = std::make_shared<const OpNode>(&opDef(static_cast<OpId>(i)));
    return ops;
  }();
  return kOps[static_cast<size_t>(id)];
}

Expr makeOpCall(OpId id, std::vector<Expr> args, const AttrDict& attrs, Span span) {
  const OpDef& def = opDef(id);
  AttrDict canonical;
  try {
    canonical = canonicalizeAttrs(def, attrs);
  } catch (const TypeRelationError& e) {
    throwError(span, e.what(), "attr");
  }
  return std::make_shared<const CallNode>(opExpr(id), std::move(args), std::move(canonical), std::move(span));
}

Expr makeCall(Expr callee, std::vector<Expr> args, AttrDict attrs, Span span) {
  return std::make_shared<const CallNode>(std::move(callee), std::move(args), std::move(attrs), std::move(span));
}

Expr makeTuple(std::vector<Expr> fields, Span span) { return std::make_shared<const TupleNode>(std::move(fields), std::move(span)); }

Expr makeTupleGetItem(Expr tuple, int index, Span span) {
  return std::make_shared<const TupleGetItemNode>(std::move(tuple), index, std::move(span));
}

Expr makeLet(Var var, Expr value, Expr body, Span span) {
  return std::make_shared<const LetNode>(std::move(var), std::move(value), std::move(body), std::move(span));
}

Expr makeIf(Expr cond, Expr thenBranch, Expr elseBranch, Span span) {
  return std::make_shared<const IfNode>(std::move(cond), std::move(thenBranch), std::move(elseBranch), std::move(span));
}

Function makeFunction(std::vector<Var> params, Expr body, Type retType, AttrDict attrs, Span span) {
  return std::make_shared<const FunctionNode>(std::move(params), std::move(body), std::move(retType), std::move(attrs), std::move(span));
}

Expr makeDataflow(std::vector<Binding> bindings, Expr body, Span span) {
  return std::make_shared<const DataflowNode>(std::move(bindings), std::move(body), std::move(span));
}

Function withAttrs(const FunctionNode& fn, AttrDict attrs) {
  auto out = makeFunction(fn.params, fn.body, fn.retType, std::move(attrs), fn.span);
  out->checkedType = fn.checkedType;
  return out;
}

}  // namespace passlab
