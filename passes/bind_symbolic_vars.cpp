// BindSymbolicVars (see bind_symbolic_vars.h).
#include "passes/bind_symbolic_vars.h"

#include <cctype>
#include <set>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/ir/shape_attr.h"
#include "core/ir/shape_expr.h"
#include "core/ir/tir_functor.h"
#include "core/pass/registry.h"

namespace passlab {

namespace {

[[noreturn]] void optionError(const std::string& message) { throwError({}, "BindSymbolicVars: " + message, "pipeline"); }

std::string trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

/// The shape variables a function defines, by name (several when one name is
/// used by different variables).
std::map<std::string, std::vector<const tir::VarNode*>> definedVars(const Function& fn) {
  std::vector<tir::Var> vars;
  for (const Var& p : fn->params) shape::collectTypeVars(p->annotation ? p->annotation : p->checkedType, vars);
  postOrderVisit(fn->body, [&](const Expr& e) {
    if (const auto* v = as<VarNode>(e)) shape::collectTypeVars(v->annotation ? v->annotation : v->checkedType, vars);
  });
  std::map<std::string, std::vector<const tir::VarNode*>> out;
  for (const tir::Var& v : vars) out[v->name].push_back(v.get());
  return out;
}

/// Rewrites one function: every type and shape attribute with the bound
/// variables replaced by their values (and simplified).
class Binder final : public ExprMutator {
 public:
  explicit Binder(const std::map<std::string, int64_t>& values) : values_(values) {}

  shape::Dim bindDim(const shape::Dim& d) const {
    if (!d) return d;
    std::vector<tir::Var> vars;
    shape::collectVars(d, vars);
    std::vector<std::pair<const tir::VarNode*, tir::PrimExpr>> map;
    for (const tir::Var& v : vars)
      if (auto it = values_.find(v->name); it != values_.end()) map.emplace_back(v.get(), shape::constant(it->second));
    if (map.empty()) return d;
    return shape::simplify(tir::substitute(d, map));
  }

  Type bindType(const Type& t) const {
    if (!t) return t;
    if (const auto* tt = as<TensorTypeNode>(t)) {
      if (!tt->hasSymbolicDim()) return t;
      std::vector<int64_t> shape = tt->shape;
      std::vector<tir::PrimExpr> symbolic;
      bool changed = false;
      for (size_t i = 0; i < shape.size(); ++i) {
        tir::PrimExpr d = tt->symbolicDim(i);
        tir::PrimExpr b = bindDim(d);
        changed = changed || b != d;
        if (std::optional<int64_t> c = b ? shape::asConstant(b) : std::nullopt) {
          shape[i] = *c;
          symbolic.push_back(nullptr);
        } else {
          symbolic.push_back(b);
        }
      }
      if (!changed) return t;
      Type out = tensorType(std::move(shape), tt->dtype, std::move(symbolic));
      if (tt->unknownDtype) out = withUnknownDtype(out);
      if (!tt->vdevice.empty()) out = withVDevice(out, tt->vdevice);
      return out;
    }
    if (const auto* tup = as<TupleTypeNode>(t)) {
      std::vector<Type> fields;
      bool changed = false;
      for (const Type& f : tup->fields) {
        fields.push_back(bindType(f));
        changed = changed || fields.back() != f;
      }
      return changed ? tupleType(std::move(fields)) : t;
    }
    if (const auto* fn = as<FuncTypeNode>(t)) {
      std::vector<Type> params;
      bool changed = false;
      for (const Type& p : fn->params) {
        params.push_back(bindType(p));
        changed = changed || params.back() != p;
      }
      Type ret = bindType(fn->ret);
      return changed || ret != fn->ret ? funcType(std::move(params), ret) : t;
    }
    if (const auto* s = as<ShapeTypeNode>(t); s && !s->symbolic.empty() && s->values) {
      std::vector<int64_t> values = *s->values;
      std::vector<tir::PrimExpr> symbolic;
      for (size_t i = 0; i < values.size(); ++i) {
        tir::PrimExpr d = i < s->symbolic.size() ? s->symbolic[i] : nullptr;
        tir::PrimExpr b = bindDim(d);
        if (std::optional<int64_t> c = b ? shape::asConstant(b) : std::nullopt) {
          values[i] = *c;
          symbolic.push_back(nullptr);
        } else {
          symbolic.push_back(b);
        }
      }
      return shapeTypeSymbolic(std::move(values), std::move(symbolic));
    }
    if (const auto* p = as<PrimTypeNode>(t); p && p->symbolic) {
      tir::PrimExpr b = bindDim(p->symbolic);
      return b == p->symbolic ? t : primTypeOf(b);
    }
    return t;
  }

  /// A shape attribute (a list of ints and dimension texts, or a list of such
  /// lists) with the bound variables replaced.
  AttrValue bindAttr(const AttrValue& v) const {
    if (v.kind() == AttrValue::Kind::Array) {
      std::vector<AttrValue> items;
      for (const AttrValue& item : v.asArray()) items.push_back(bindAttr(item));
      return AttrValue::array(std::move(items));
    }
    if (v.kind() != AttrValue::Kind::String) return v;
    std::map<std::string, tir::Var> made;
    shape::Dim d = shape::parse(v.asString(), [&made](const std::string& name) {
      auto [it, inserted] = made.try_emplace(name, nullptr);
      if (inserted) it->second = shape::makeShapeVar(name);
      return it->second;
    });
    if (!d) return v;
    return shape::toAttr(bindDim(d));
  }

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    const auto* v = as<VarNode>(e);
    if (!v) return std::nullopt;
    auto it = vars_.find(v);
    if (it != vars_.end()) return it->second;
    Type annotation = bindType(v->annotation);
    Expr out = e;
    // A variable whose inferred type mentions a bound variable is made anew
    // too, so type inference recomputes its type rather than keep the old one.
    if (annotation != v->annotation || bindType(v->checkedType) != v->checkedType)
      out = v->virtualDevice.isNone() ? makeVar(v->name, annotation, v->isDataflow, v->span)
                                      : makeVarOnDevice(v->name, annotation, v->virtualDevice, v->span);
    vars_.emplace(v, out);
    return out;
  }

  Expr rewrite(const Expr&, const Expr& rebuilt) override {
    if (const auto* call = as<CallNode>(rebuilt)) {
      AttrDict attrs = call->attrs;
      bool changed = false;
      for (const auto& [key, value] : call->attrs.entries()) {
        if (!shape::attrHasSymbolic(value)) continue;
        AttrValue bound = bindAttr(value);
        if (bound.toString() == value.toString()) continue;
        attrs.set(key, std::move(bound));
        changed = true;
      }
      return changed ? makeCall(call->callee, call->args, std::move(attrs), call->span) : rebuilt;
    }
    if (const auto* fn = as<FunctionNode>(rebuilt)) {
      Type ret = bindType(fn->retType);
      if (ret != fn->retType) return makeFunction(fn->params, fn->body, ret, fn->attrs, fn->span);
    }
    return rebuilt;
  }

 private:
  const std::map<std::string, int64_t>& values_;
  std::unordered_map<const VarNode*, Expr> vars_;
};

/// What BindSymbolicVars is: its entry in the registry and in docs/passes.md.
const PassRegistration& bindSymbolicVarsDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = "BindSymbolicVars";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering};
    r.info.description =
        "Binds shape variables to integers, as TVM's relax.transform.BindSymbolicVars with a string-keyed binding map: "
        "`BindSymbolicVars{binding_map=\"n=3;m=4\"}` replaces n and m in the types, match_cast types and shape "
        "attributes (out_shape, newshape, tir_vars, ...) of the Relax functions that define them (or of func_name "
        "only), simplifying, so shapes with nothing symbolic left become static.";
    r.info.guarantees = "No bound variable is left in the functions it rewrote.";
    r.options = {
        {"binding_map", Kind::String, AttrValue::string(""), "name=value entries separated by ';' (integer values)"},
        {"func_name", Kind::String, AttrValue::string(""), "the one function to bind in (empty: every Relax function)"},
    };
    r.create = [](const AttrDict& options) {
      BindSymbolicVarsOptions o;
      o.funcName = options.getString("func_name", "");
      o.values = parseSymbolicBindings(options.getString("binding_map", ""));
      return createBindSymbolicVarsPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kBindSymbolicVarsRegistrar(bindSymbolicVarsDeclaration);

class BindSymbolicVarsPass final : public Pass {
 public:
  explicit BindSymbolicVarsPass(BindSymbolicVarsOptions o) : o_(std::move(o)) {
    std::string map;
    for (const auto& [name, value] : o_.values) map += (map.empty() ? "" : ";") + name + "=" + std::to_string(value);
    if (!map.empty()) options_.set("binding_map", AttrValue::string(map));
    if (!o_.funcName.empty()) options_.set("func_name", AttrValue::string(o_.funcName));
  }

  const PassInfo& info() const override { return bindSymbolicVarsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext&) const override {
    if (o_.values.empty()) return mod;
    if (!o_.funcName.empty() && !mod->functions.count(o_.funcName)) optionError("the module has no function '" + o_.funcName + "'");
    std::set<std::string> used;
    IRModule out = mod;
    for (const auto& [name, fn] : mod->functions) {
      if (!o_.funcName.empty() && name != o_.funcName) continue;
      const auto* f = as<FunctionNode>(fn);
      if (!f) continue;
      Function function = std::static_pointer_cast<const FunctionNode>(fn);
      std::map<std::string, std::vector<const tir::VarNode*>> defined = definedVars(function);
      std::map<std::string, int64_t> mine;
      for (const auto& [var, value] : o_.values) {
        auto it = defined.find(var);
        if (it == defined.end()) continue;
        if (it->second.size() > 1)
          throwError(f->span, "BindSymbolicVars: @" + name + " has " + std::to_string(it->second.size()) +
                                  " different shape variables named '" + var + "'", "pipeline");
        mine.emplace(var, value);
        used.insert(var);
      }
      if (mine.empty()) continue;
      Binder binder(mine);
      Expr bound = binder.mutate(fn);
      if (bound != fn) out = withFunction(out, name, bound);
    }
    for (const auto& [var, value] : o_.values)
      if (!used.count(var))
        optionError("no function " + (o_.funcName.empty() ? std::string() : "('" + o_.funcName + "') ") +
                    "defines a shape variable named '" + var + "'");
    return out == mod ? mod : inferTypes(out);
  }

 private:
  BindSymbolicVarsOptions o_;
};

}  // namespace

std::map<std::string, int64_t> parseSymbolicBindings(const std::string& text) {
  std::map<std::string, int64_t> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find_first_of(";,", at);
    if (end == std::string::npos) end = text.size();
    std::string entry = trimmed(std::string_view(text).substr(at, end - at));
    at = end + 1;
    if (entry.empty()) continue;
    size_t eq = entry.find('=');
    if (eq == std::string::npos) optionError("binding '" + entry + "' is not name=value");
    std::string name = trimmed(std::string_view(entry).substr(0, eq));
    std::string value = trimmed(std::string_view(entry).substr(eq + 1));
    if (name.empty()) optionError("binding '" + entry + "' has no variable name");
    int64_t v = 0;
    bool ok = !value.empty() && value.size() < 19;
    for (char c : value) ok = ok && std::isdigit(static_cast<unsigned char>(c));
    if (ok) v = std::stoll(value);
    if (!ok) optionError("the value of '" + name + "' must be a non-negative integer, got '" + value + "'");
    if (!out.emplace(name, v).second) optionError("'" + name + "' is bound twice");
  }
  return out;
}

PassPtr createBindSymbolicVarsPass(const BindSymbolicVarsOptions& options) {
  return std::make_shared<BindSymbolicVarsPass>(options);
}

}  // namespace passlab
