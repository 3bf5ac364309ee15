// Run-time checks of values against the types a function's parameters or an
// R.match_cast declare, and the symbolic shapes they bind (see runtime_checks.h).
#include "core/interp/runtime_checks.h"

#include "core/ir/shape_attr.h"

namespace passlab::interp_checks {

namespace {

[[noreturn]] void runtimeError(const Span& span, const std::string& message, const char* rule) {
  throwError(span, message, rule);
}

/// A tensor's dtype and rank against a type's (TVM's void dtype and unknown
/// rank take any).
bool fitsRankAndDtype(const TensorTypeNode& t, const NDArray& a) {
  return (t.unknownDtype || a.dtype() == t.dtype) && (t.unknownRank || a.ndim() == t.shape.size());
}

/// A symbolic R.Prim(value=n) or R.Shape([n, 4]) against its run-time value
/// (a rank-0 or 1-d int64 tensor): binds a bare variable on first sight,
/// checks what it can evaluate. Empty when it fits, else why not.
std::string bindScalars(const Type& declared, const Value& v, shape::Env& env) {
  std::vector<shape::Dim> dims;
  if (const auto* pr = as<PrimTypeNode>(declared); pr && pr->symbolic) dims = {pr->symbolic};
  const auto* sh = as<ShapeTypeNode>(declared);
  if (sh && sh->values && !sh->symbolic.empty())
    for (size_t i = 0; i < sh->values->size(); ++i)
      dims.push_back(i < sh->symbolic.size() && sh->symbolic[i] ? sh->symbolic[i] : shape::constant((*sh->values)[i]));
  if (dims.empty()) return "";
  if (!v.isTensor() || v.tensor().numElements() != static_cast<int64_t>(dims.size()) || (sh && v.tensor().ndim() != 1))
    return "expects " + std::to_string(dims.size()) + " value(s), got " + v.describe();
  for (size_t i = 0; i < dims.size(); ++i) {
    const auto* var = tir::as<tir::VarNode>(dims[i]);
    if (var && !env.count(var)) env[var] = v.tensor().getAsInt(static_cast<int64_t>(i));
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    std::optional<int64_t> want = shape::evaluate(dims[i], env);
    int64_t got = v.tensor().getAsInt(static_cast<int64_t>(i));
    if (want && *want != got)
      return "value " + std::to_string(i) + " is " + shape::toScript(dims[i]) + " = " + std::to_string(*want) + ", but " +
             std::to_string(got) + " was passed";
  }
  return "";
}

/// The attributes whose values are shapes (and may hold symbolic dims).
bool isShapeAttrKey(std::string_view key) {
  return key == "out_shape" || key == "newshape" || key == "shape" || key == "values" || key == "size" || key == "tir_vars";
}

}  // namespace

void checkArgument(const Type& declared, const Value& v, const VarNode& param, const Span& span, shape::Env& env) {
  if (std::string why = bindScalars(declared, v, env); !why.empty())
    runtimeError(span, "argument %" + param.name + ": " + why, "interp.type-mismatch");
  const auto* tt = as<TensorTypeNode>(declared);
  if (!tt) return;
  bool ok = v.isTensor() && fitsRankAndDtype(*tt, v.tensor());
  for (size_t i = 0; ok && !tt->unknownRank && i < tt->shape.size(); ++i)
    ok = tt->shape[i] == kDynamicDim || tt->shape[i] == v.tensor().shape()[i];
  if (!ok)
    runtimeError(span, "argument %" + param.name + " expects " + typeToString(declared) + ", got " + v.describe(),
                 "interp.type-mismatch");
  if (!tt->hasSymbolicDim()) return;
  const auto& got = v.tensor().shape();
  std::string why = shape::bindShape(*tt, std::vector<int64_t>(got.begin(), got.end()), env);
  if (!why.empty()) runtimeError(span, "argument %" + param.name + ": " + why, "interp.type-mismatch");
}

/// The attributes of an op call with every symbolic dimension of a shape
/// attribute (out_shape, newshape, shape, values, call_tir's tir_vars) evaluated under `names`.
AttrDict concreteShapes(const AttrDict& attrs, const shape::NameEnv& names, const Span& span) {
  AttrDict out = attrs;
  for (const auto& [key, value] : attrs.entries()) {
    if (!isShapeAttrKey(key)) continue;
    if (!shape::attrHasSymbolic(value)) continue;
    std::optional<AttrValue> v = shape::evaluateAttr(value, names);
    if (!v) runtimeError(span, key + " " + value.toString() + " mentions a shape variable this call has not bound", "interp.type-mismatch");
    out.set(key, std::move(*v));
  }
  return out;
}

bool hasSymbolicShapeAttr(const AttrDict& attrs) {
  for (const auto& [key, value] : attrs.entries())
    if (isShapeAttrKey(key) && shape::attrHasSymbolic(value)) return true;
  return false;
}

namespace {

/// "m, 4": the dims of a cast's target as TVMScript writes them.
std::string castDims(const TensorTypeNode& t) {
  std::string s;
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + shape::toScript(shape::dimOf(t, i));
  return s;
}

}  // namespace

/// A shape value's elements as a tuple of int64 prim values: how
/// vm.builtin.match_shape tells a shape (here a 1-d int64 tensor) from a
/// tensor of rank 1.
Value shapeElementsTuple(const NDArray& shape) {
  std::vector<Value> fields;
  for (int64_t i = 0; i < shape.numElements(); ++i)
    fields.emplace_back(NDArray::scalar(DTypeCode::Int64, static_cast<double>(shape.getAsInt(i))));
  return Value::tuple(std::move(fields));
}

/// R.match_cast at run time: the value must have the rank, dtype and static
/// extents of the binding's type, and its symbolic extents must agree among
/// themselves (`(n, n)`); variables are bound afresh for each cast.
void checkMatchCast(const VarNode& var, const Expr& value, const Value& v, shape::NameEnv& names) {
  const auto* call = as<CallNode>(value);
  const auto* op = call ? as<OpNode>(call->callee) : nullptr;
  if (!op || op->def->id != OpId::MatchCast) return;
  const auto* tt = as<TensorTypeNode>(var.annotation);
  if (!tt) {
    // R.match_cast(s, R.Shape([m])), R.match_cast(p, R.Prim(value=m)): bind or check m.
    shape::Env env;
    std::vector<tir::Var> vars;
    shape::collectTypeVars(var.annotation, vars);
    for (const tir::Var& known : vars)
      if (auto it = names.find(known->name); it != names.end()) env[known.get()] = it->second;
    if (std::string why = bindScalars(var.annotation, v, env); !why.empty())
      runtimeError(value->span, "R.match_cast of %" + var.name + " failed: " + why, "interp.type-mismatch");
    shape::addNames(env, names);
    return;
  }
  bool ok = v.isTensor() && fitsRankAndDtype(*tt, v.tensor());
  std::string why;
  shape::Env env;
  if (ok && !tt->unknownRank) {
    const auto& got = v.tensor().shape();
    why = shape::bindShape(*tt, std::vector<int64_t>(got.begin(), got.end()), env);
  }
  if (ok && why.empty()) shape::addNames(env, names);
  if (!ok || !why.empty())
    runtimeError(value->span, "R.match_cast of %" + var.name + " to (" + castDims(*tt) + ") failed: got " + v.describe() +
                                  (why.empty() ? "" : " (" + why + ")"),
                 "interp.type-mismatch");
}

}  // namespace passlab::interp_checks
