// The Relax forms of the VM lowering in TVMScript: the values R.shape([..]),
// R.prim_value(n), R.str(".."), R.dtype("..") and R.null_value(),
// R.call_packed, R.call_builtin_with_ctx, and TVM's
// R.builtin.alloc_tensor, R.memory.{alloc_storage, alloc_tensor, kill_storage,
// kill_tensor} and R.vm.{alloc_storage, alloc_tensor, kill_object}.
//
// TVM passes an op's sizes, dtypes, device indices and scopes as R.shape /
// R.dtype / R.prim_value / R.str arguments, positionally or by keyword, and
// its parser also takes plain Python values there (`0`, `"global"`,
// `dtype="float32"`). passlab keeps them as the op's attributes (op.cpp,
// TVM's parameter names), so every spelling reads to one node.
#include "core/ir/shape_attr.h"
#include "core/ir/type_attr.h"
#include "core/text/tvmscript_module.h"

namespace passlab::tvmscript {

namespace {

/// What one parameter of a VM op holds.
enum class ParamKind : uint8_t { Value, Shape, Dtype, Int, Str };

struct VmParam {
  std::string_view name;
  ParamKind kind;
  bool optional = false;
};

struct VmOpForm {
  std::string_view script;  // after `R.`
  OpId id;
  std::vector<VmParam> params;
};

const std::vector<VmOpForm>& vmForms() {
  using K = ParamKind;
  static const std::vector<VmOpForm> forms = {
      {"builtin.alloc_tensor", OpId::BuiltinAllocTensor,
       {{"shape", K::Shape}, {"dtype", K::Dtype}, {"runtime_device_index", K::Int}, {"storage_scope", K::Str, true}}},
      {"memory.alloc_storage", OpId::RelaxMemAllocStorage,
       {{"size", K::Shape}, {"virtual_device_index", K::Int}, {"storage_scope", K::Str}, {"dtype", K::Dtype}}},
      {"memory.alloc_tensor", OpId::RelaxMemAllocTensor,
       {{"storage", K::Value}, {"offset", K::Int}, {"shape", K::Shape}, {"dtype", K::Dtype}, {"runtime_device_ind", K::Int, true}}},
      {"memory.kill_storage", OpId::RelaxMemKillStorage, {{"storage", K::Value}}},
      {"memory.kill_tensor", OpId::RelaxMemKillTensor, {{"tensor", K::Value}}},
      {"vm.alloc_storage", OpId::RelaxVmAllocStorage,
       {{"size", K::Shape}, {"runtime_device_index", K::Int}, {"dtype", K::Dtype}, {"storage_scope", K::Str, true}}},
      {"vm.alloc_tensor", OpId::RelaxVmAllocTensor,
       {{"storage", K::Value}, {"offset", K::Int}, {"shape", K::Shape}, {"dtype", K::Dtype}, {"runtime_device_ind", K::Int, true}}},
      {"vm.kill_object", OpId::RelaxVmKillObject, {{"obj", K::Value}}},
  };
  return forms;
}

bool intList(const AttrValue& v) {
  if (v.kind() != AttrValue::Kind::Array) return false;
  for (const AttrValue& x : v.asArray())
    if (x.kind() != AttrValue::Kind::Int) return false;
  return true;
}

}  // namespace

Expr ModuleParser::parseRelaxVmCall(std::string_view name, const PyToken& at) {
  Span span = spanOf(at);
  auto build = [&](OpId id, std::vector<Expr> args, const AttrDict& attrs) -> Expr {
    try {
      return makeOpCall(id, std::move(args), attrs, span);
    } catch (const DiagnosticError& e) {
      failAt(span, e.diagnostics().front().message);
    }
  };
  if (name == "prim_value" && check(PyTok::Name) && shapeVars_.count(std::string(peek().text))) {
    // R.prim_value(n), R.prim_value(n * 2): TVM's PrimValue of a shape expression.
    noteSpelling(TvmScriptSpelling::Release, at);
    shape::Dim value = parseShapeDim();
    expect(PyTok::RParen, "')'");
    AttrDict attrs;
    attrs.set("value", shape::toAttr(value));
    return build(OpId::RelaxPrimValue, {}, attrs);
  }
  if (name == "shape" || name == "prim_value" || name == "null_value") {
    std::vector<ScriptArg> args = parseCallArgs();
    if (name == "null_value") {
      if (!args.empty()) fail(args[0].at, "R.null_value takes no arguments");
      return build(OpId::RelaxNullValue, {}, {});
    }
    if (args.size() != 1 || !args[0].keyword.empty() || !args[0].isLiteral)
      fail(at, "R." + std::string(name) + " takes one literal: " +
                   (name == "shape" ? "R.shape([2, 4])" : "R.prim_value(0)"));
    const AttrValue& v = args[0].literal;
    AttrDict attrs;
    if (name == "shape") {
      bool dims = v.kind() == AttrValue::Kind::Array;
      for (const AttrValue& d : dims ? v.asArray() : std::vector<AttrValue>{})
        dims = dims && (d.kind() == AttrValue::Kind::Int || d.kind() == AttrValue::Kind::String);
      if (!dims) fail(args[0].at, "R.shape takes a list of dimensions (integers, or shape variables such as n and n * 2)");
      attrs.set("values", v);
      return build(OpId::RelaxShapeExpr, {}, attrs);
    }
    if (v.kind() != AttrValue::Kind::Int) fail(args[0].at, "only integer R.prim_value is supported");
    noteSpelling(TvmScriptSpelling::Release, at);
    attrs.set("value", v);
    return build(OpId::RelaxPrimValue, {}, attrs);
  }
  if (name == "str" || name == "dtype") {
    // R.str("..") / R.dtype("float32") as values (VMShapeLower's check builtins take them).
    std::vector<ScriptArg> args = parseCallArgs();
    if (args.size() != 1 || !args[0].keyword.empty() || !args[0].isLiteral || args[0].literal.kind() != AttrValue::Kind::String)
      fail(at, "R." + std::string(name) + " takes one string: " + (name == "str" ? "R.str(\"\")" : "R.dtype(\"float32\")"));
    const std::string& text = args[0].literal.asString();
    if (name == "dtype" && !text.empty() && text != "void" && !DataType::parse(text))
      fail(args[0].at, "unknown dtype \"" + text + "\"");
    AttrDict attrs;
    attrs.set("value", args[0].literal);
    return build(name == "str" ? OpId::RelaxStrImm : OpId::RelaxDataTypeImm, {}, attrs);
  }
  // A literal argument of a packed call as the Relax value it stands for.
  auto literalValue = [&](const ScriptArg& a, const AttrValue& v, std::string_view form, std::string_view callee) -> Expr {
    AttrDict lit;
    if (intList(v) || (v.kind() == AttrValue::Kind::Array && shape::attrHasSymbolic(v))) {
      lit.set("values", v);
      return build(OpId::RelaxShapeExpr, {}, lit);
    }
    if (v.kind() == AttrValue::Kind::Int || (form == "prim_value" && v.kind() == AttrValue::Kind::String)) {
      lit.set("value", v);
      return build(OpId::RelaxPrimValue, {}, lit);
    }
    if (v.kind() == AttrValue::Kind::String) {
      lit.set("value", v);
      return build(form == "dtype" ? OpId::RelaxDataTypeImm : OpId::RelaxStrImm, {}, lit);
    }
    fail(a.at, "only shapes, integers, strings and dtypes are literal arguments of R." + std::string(callee));
  };
  // The result type of sinfo_args=/ty_args=: the legacy out_shape/out_dtype
  // for a static tensor and R.Tuple, nothing for R.Object, else out_type.
  auto resultType = [&](const ScriptArg& a, std::string_view callee, AttrDict& attrs, bool legacy) {
    noteSpelling(a.keyword == "ty_args" ? TvmScriptSpelling::Main : TvmScriptSpelling::Release, a.at);
    if (!a.isType) fail(a.at, "expected the result type as " + a.keyword + "=(R.Tensor(...),)");
    const auto* list = a.typeList ? as<TupleTypeNode>(a.type) : nullptr;
    if (list && list->fields.size() != 1) fail(a.at, a.keyword + " of R." + std::string(callee) + " lists exactly one type");
    Type out = list ? list->fields[0] : a.type;
    const auto* tup = as<TupleTypeNode>(out);
    const auto* tt = as<TensorTypeNode>(out);
    if (as<ObjectTypeNode>(out)) return;  // R.Object: the default result.
    if (legacy && tup && tup->fields.empty()) {
      attrs.set("out_shape", AttrValue::array({}));
      attrs.set("out_dtype", AttrValue::array({}));
    } else if (legacy && tt && !tt->hasDynamicDim()) {
      attrs.set("out_shape", AttrValue::ints(tt->shape));
      attrs.set("out_dtype", AttrValue::string(std::string(tt->dtype.name())));
    } else if (std::optional<AttrValue> enc = type_attr::encode(out)) {
      attrs.set("out_type", *enc);
    } else {
      fail(a.at, "the result type of R." + std::string(callee) + " cannot have symbolic dimensions");
    }
  };
  if (name == "call_builtin_with_ctx") {
    // R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=(T,))
    std::vector<ScriptArg> args = parseCallArgs();
    AttrDict attrs;
    std::vector<Expr> values;
    size_t positional = 0;
    for (const ScriptArg& a : args) {
      if (a.keyword == "sinfo_args" || a.keyword == "ty_args") {
        resultType(a, name, attrs, false);
        continue;
      }
      if (!a.keyword.empty()) fail(a.at, "unknown keyword '" + a.keyword + "' of R.call_builtin_with_ctx");
      if (positional == 0) {
        if (!a.isLiteral || a.literal.kind() != AttrValue::Kind::String)
          fail(a.at, "R.call_builtin_with_ctx names its builtin first: R.call_builtin_with_ctx(\"vm.builtin.alloc_shape_heap\", ...)");
        attrs.set("func_name", a.literal);
      } else if (positional == 1) {
        // The builtin's arguments: a tuple of Relax values, or a list of literals.
        if (a.isLiteral && a.literal.kind() == AttrValue::Kind::Array) {
          for (const AttrValue& item : a.literal.asArray()) values.push_back(literalValue(a, item, "", name));
        } else if (const auto* t = as<TupleNode>(a.value)) {
          values = t->fields;
        } else {
          fail(a.at, "the arguments of R.call_builtin_with_ctx are a tuple such as (R.prim_value(2),)");
        }
      } else {
        fail(a.at, "R.call_builtin_with_ctx takes the builtin's name and one tuple of arguments");
      }
      ++positional;
    }
    if (positional < 2) fail(at, "R.call_builtin_with_ctx needs the builtin's name and a tuple of arguments");
    return build(OpId::RelaxCallBuiltinWithCtx, std::move(values), attrs);
  }
  if (name == "call_packed") {
    // R.call_packed("f", x, R.shape([8]), sinfo_args=(T,)) (ty_args= on main)
    std::vector<ScriptArg> args = parseCallArgs();
    AttrDict attrs;
    std::vector<Expr> values;
    bool named = false;
    for (const ScriptArg& a : args) {
      if (a.keyword == "sinfo_args" || a.keyword == "ty_args") {
        resultType(a, name, attrs, true);
        continue;
      }
      if (!a.keyword.empty()) fail(a.at, "unknown keyword '" + a.keyword + "' of R.call_packed");
      if (!named) {
        if (!a.isLiteral || a.literal.kind() != AttrValue::Kind::String)
          fail(a.at, "R.call_packed names its function first: R.call_packed(\"vm.builtin.reshape\", ...)");
        attrs.set("func_name", a.literal);
        named = true;
        continue;
      }
      if (a.isType) fail(a.at, "a type is not an argument of R.call_packed");
      if (a.isLiteral) {
        values.push_back(literalValue(a, a.literal, a.literalForm, name));
        continue;
      }
      values.push_back(a.value);
    }
    if (!named) fail(at, "R.call_packed needs the name of the function to call");
    return build(OpId::RelaxCallPacked, std::move(values), attrs);
  }
  const VmOpForm* form = nullptr;
  for (const VmOpForm& f : vmForms())
    if (f.script == name) form = &f;
  if (!form) return nullptr;
  std::vector<ScriptArg> args = parseCallArgs();
  std::vector<const ScriptArg*> bound(form->params.size(), nullptr);
  size_t next = 0;
  for (const ScriptArg& a : args) {
    size_t index = form->params.size();
    if (a.keyword.empty()) {
      index = next++;
      if (index >= form->params.size()) fail(a.at, "too many arguments to R." + std::string(name));
    } else {
      for (size_t i = 0; i < form->params.size(); ++i)
        if (form->params[i].name == a.keyword) index = i;
      if (index == form->params.size()) fail(a.at, "unknown keyword '" + a.keyword + "' of R." + std::string(name));
    }
    if (bound[index]) fail(a.at, "'" + std::string(form->params[index].name) + "' given twice");
    bound[index] = &a;
  }
  std::vector<Expr> values;
  AttrDict attrs;
  for (size_t i = 0; i < form->params.size(); ++i) {
    const VmParam& p = form->params[i];
    const ScriptArg* a = bound[i];
    if (!a) {
      if (p.optional) continue;
      fail(at, "R." + std::string(name) + " needs its argument '" + std::string(p.name) + "'");
    }
    std::string what = "'" + std::string(p.name) + "' of R." + std::string(name);
    if (p.kind == ParamKind::Value) {
      if (!a->value) fail(a->at, what + " must be a Relax value");
      values.push_back(a->value);
      continue;
    }
    if (!a->isLiteral) fail(a->at, what + " must be a literal");
    const AttrValue& v = a->literal;
    switch (p.kind) {
      case ParamKind::Shape:
        if (!intList(v) && !(v.kind() == AttrValue::Kind::Array && shape::attrHasSymbolic(v)))
          fail(a->at, what + " must be a shape such as R.shape([2, 4]) or R.shape([n, 4])");
        break;
      case ParamKind::Int:
        if (v.kind() != AttrValue::Kind::Int) fail(a->at, what + " must be an integer");
        break;
      case ParamKind::Dtype:
        if (v.kind() != AttrValue::Kind::String || !DataType::parse(v.asString()))
          fail(a->at, what + " must be a dtype such as R.dtype(\"float32\")");
        break;
      case ParamKind::Str:
        if (v.kind() != AttrValue::Kind::String) fail(a->at, what + " must be a string");
        break;
      case ParamKind::Value: break;
    }
    attrs.set(std::string(p.name), v);
  }
  return build(form->id, std::move(values), attrs);
}

}  // namespace passlab::tvmscript
