// TVMScript's call forms that are not `R.op(args, attrs)` (see the header).
#include "core/text/tvmscript_print_calls.h"

#include "core/ir/call_tir.h"
#include "core/ir/lowering_ops.h"
#include "core/ir/shape_attr.h"
#include "core/ir/type_attr.h"
#include "core/text/printer_impl.h"
#include "core/text/tvmscript_print_literals.h"

namespace passlab::text::script_calls {

using script_literals::dimsLiteral;
using script_literals::quoted;
using script_literals::typeText;

namespace {

/// The output type of a call from its out_shape and out_dtype attributes:
/// one tensor, or (both lists) `open` T1, T2 `close`, each tensor as `tensor` writes it.
template <class TensorText>
std::string outputTypes(const AttrValue& shape, const AttrValue& dtype, const char* open, const char* close, const TensorText& tensor) {
  if (dtype.kind() != AttrValue::Kind::Array) return tensor(shape, dtype);
  std::string out = open;
  for (size_t i = 0; i < dtype.asArray().size() && i < shape.asArray().size(); ++i)
    out += (i ? ", " : "") + tensor(shape.asArray()[i], dtype.asArray()[i]);
  return out + close;
}

}  // namespace

/// Relax's VM-lowering ops as TVM prints them: every argument positional,
/// sizes as R.shape([..]), dtypes as R.dtype(".."), indices as
/// R.prim_value(n) (T.int64(n) on main), scopes as R.str("..").
std::string vmValueText(const CallNode& call, const std::vector<std::string>& args, bool mainSpelling, bool& usedTir) {
  const bool main = mainSpelling;
  auto typeOf = [main](const Type& t) { return typeText(t, false, main); };
  const OpDef& def = *call.op();
  auto attr = [&](std::string_view key) { return attrOrDefault(def, call.attrs, key); };
  auto shapeText = [&](std::string_view key) {
    std::string s = "R.shape(";
    dimsLiteral(s, attr(key));
    return s + ")";
  };
  auto dtypeText = [&](std::string_view key) { return "R.dtype(" + quoted(attr(key).asString()) + ")"; };
  auto primText = [&](int64_t v) {
    if (main) {
      usedTir = true;
      return "T.int64(" + std::to_string(v) + ")";
    }
    return "R.prim_value(" + std::to_string(v) + ")";
  };
  auto intText = [&](std::string_view key) { return primText(attr(key).asInt()); };
  auto strText = [&](std::string_view key) { return "R.str(" + quoted(attr(key).asString()) + ")"; };
  auto join = [](const std::string& head, const std::vector<std::string>& parts) {
    std::string s = head + "(";
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
    return s + ")";
  };
  std::string arg0 = args.empty() ? "" : args[0];
  switch (def.id) {
    case OpId::RelaxShapeExpr: return shapeText("values");
    case OpId::RelaxPrimValue:
      // A symbolic value prints as its expression (main's spelling is the bare expression).
      if (attr("value").kind() == AttrValue::Kind::String)
        return main ? attr("value").asString() : "R.prim_value(" + attr("value").asString() + ")";
      return primText(attr("value").asInt());
    case OpId::RelaxNullValue: return "R.null_value()";
    case OpId::RelaxStrImm: return strText("value");
    case OpId::RelaxDataTypeImm: return dtypeText("value");
    case OpId::RelaxCallBuiltinWithCtx: {
      std::string tuple = "(";
      for (size_t i = 0; i < args.size(); ++i) tuple += (i ? ", " : "") + args[i];
      std::vector<std::string> parts{quoted(attr("func_name").asString()), tuple + (args.size() == 1 ? ",)" : ")")};
      if (Type out = type_attr::decode(attr("out_type")))
        parts.push_back(std::string(main ? "ty_args=(" : "sinfo_args=(") + typeOf(out) + ",)");
      return join("R.call_builtin_with_ctx", parts);
    }
    case OpId::BuiltinAllocTensor:
      return join("R.builtin.alloc_tensor", {shapeText("shape"), dtypeText("dtype"), intText("runtime_device_index"), strText("storage_scope")});
    case OpId::RelaxMemAllocStorage:
      return join("R.memory.alloc_storage", {shapeText("size"), intText("virtual_device_index"), strText("storage_scope"), dtypeText("dtype")});
    case OpId::RelaxVmAllocStorage:
      return join("R.vm.alloc_storage", {shapeText("size"), intText("runtime_device_index"), dtypeText("dtype"), strText("storage_scope")});
    case OpId::RelaxMemAllocTensor:
    case OpId::RelaxVmAllocTensor:
      return join(def.id == OpId::RelaxMemAllocTensor ? "R.memory.alloc_tensor" : "R.vm.alloc_tensor",
                  {arg0, intText("offset"), shapeText("shape"), dtypeText("dtype"), intText("runtime_device_ind")});
    case OpId::RelaxMemKillStorage: return join("R.memory.kill_storage", {arg0});
    case OpId::RelaxMemKillTensor: return join("R.memory.kill_tensor", {arg0});
    case OpId::RelaxVmKillObject: return join("R.vm.kill_object", {arg0});
    case OpId::RelaxCallPacked: {
      std::vector<std::string> parts{quoted(attr("func_name").asString())};
      parts.insert(parts.end(), args.begin(), args.end());
      const AttrValue& shape = attr("out_shape");
      const AttrValue& dtype = attr("out_dtype");
      if (Type out = type_attr::decode(attr("out_type"))) {
        parts.push_back(std::string(main ? "ty_args=(" : "sinfo_args=(") + typeOf(out) + ",)");
      } else if (!dtype.isNone()) {
        std::string out;
        if (dtype.kind() == AttrValue::Kind::Array && dtype.asArray().empty()) {
          out = "R.Tuple";
        } else if (dtype.kind() == AttrValue::Kind::String) {
          std::vector<int64_t> dims;
          for (const AttrValue& x : shape.asArray()) dims.push_back(x.asInt());
          auto dt = DataType::parse(dtype.asString());
          out = typeOf(tensorType(dims, dt ? *dt : DataType(DTypeCode::Float32)));
        }
        parts.push_back(std::string(main ? "ty_args=(" : "sinfo_args=(") + out + ",)");
      }
      return join("R.call_packed", parts);
    }
    default: break;
  }
  return join("R." + std::string(def.name.substr(6)), args);
}

/// `R.call_pure_packed("f", x, sinfo_args=(T,))` (`ty_args=` in main's spelling).
std::string purePackedText(const CallNode& call, const std::vector<std::string>& args, bool mainSpelling) {
  const bool main = mainSpelling;
  auto typeOf = [main](const Type& t) { return typeText(t, false, main); };
  const auto* opn = as<OpNode>(call.callee);
  std::string s = "R.call_pure_packed(";
  for (size_t i = 0; i < args.size(); ++i) {
    const auto* g = i == 0 ? as<GlobalVarNode>(call.args[0]) : nullptr;
    s += (i ? ", " : "") + (g ? quoted(g->name) : args[i]);
  }
  const AttrValue& shape = attrOrDefault(*opn->def, call.attrs, "out_shape");
  const AttrValue& dtype = attrOrDefault(*opn->def, call.attrs, "out_dtype");
  auto tensor = [&typeOf](const AttrValue& sh, const AttrValue& d) {
    std::vector<int64_t> dims;
    for (const AttrValue& x : sh.asArray()) dims.push_back(x.asInt());
    auto dt = DataType::parse(d.asString());
    return typeOf(tensorType(dims, dt ? *dt : DataType(DTypeCode::Float32)));
  };
  std::string out = outputTypes(shape, dtype, "R.Tuple(", ")", tensor);
  const char* kw = main ? "ty_args=(" : "sinfo_args=(";
  return s + ", " + kw + out + ",))";
}

/// `R.call_tir(f, (args), out_sinfo=T)`, `R.call_tir_inplace(...)` and
/// `R.call_dps_packed("f", ...)` as TVM prints them.
std::string callTirText(const CallNode& call, const std::vector<std::string>& args, bool mainSpelling) {
  const bool main = mainSpelling;
  auto typeOf = [main](const Type& t) { return typeText(t, false, main); };
  const auto* opn = as<OpNode>(call.callee);
  OpId id = opn->def->id;
  bool inplace = isInplaceCallTir(call);
  std::string name = inplace ? "R.call_tir_inplace" : id == OpId::CallTir ? "R.call_tir" : "R.call_dps_packed";
  std::string fn = args.empty() ? "" : args[0];
  if (opn->def->id == OpId::CallDpsPacked)
    if (const auto* g = as<GlobalVarNode>(call.args[0])) fn = quoted(g->name);
  std::string tuple = args.size() > 1 ? args[1] : "()";
  const AttrValue& shape = attrOrDefault(*opn->def, call.attrs, "out_shape");
  const AttrValue& dtype = attrOrDefault(*opn->def, call.attrs, "out_dtype");
  auto tensor = [&typeOf](const AttrValue& s, const AttrValue& d) {
    auto dt = DataType::parse(d.asString());
    DataType dtype = dt ? *dt : DataType(DTypeCode::Float32);
    if (shape::attrHasSymbolic(s)) return typeOf(shape::tensorOfDims(shape::dimsOfAttr(s, {}), dtype));
    std::vector<int64_t> dims;
    for (const AttrValue& x : s.asArray()) dims.push_back(x.asInt());
    return typeOf(tensorType(dims, dtype));
  };
  std::string out = outputTypes(shape, dtype, "[", "]", tensor);
  const char* kw = main ? "out_ty=" : "out_sinfo=";
  // TVM's printer: the in-place indices after the output type, as a list.
  std::string indices;
  if (inplace) {
    std::vector<int64_t> idx = inplaceIndices(call);
    indices = ", inplace_indices=[";
    for (size_t i = 0; i < idx.size(); ++i) indices += (i ? ", " : "") + std::to_string(idx[i]);
    indices += "]";
  }
  // TVM (0.20 .. 0.25) prints tir_vars last, as a shape expression.
  if (const AttrValue* vars = call.attrs.find("tir_vars"); vars && vars->kind() == AttrValue::Kind::Array) {
    indices += ", tir_vars=R.shape(";
    dimsLiteral(indices, *vars);
    indices += ")";
  }
  return name + "(" + fn + ", " + tuple + ", " + kw + out + indices + ")";
}

}  // namespace passlab::text::script_calls
