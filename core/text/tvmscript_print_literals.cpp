// The literals of TVMScript as TVM's printer writes them: Python strings,
// floats (attribute %.17g and repr forms), attribute values and Relax types.
// Split from tvmscript_print.cpp, which arranges them into a module.
#include "core/text/tvmscript_print_literals.h"

#include <cmath>

#include <charconv>
#include <cstdio>

#include "core/ir/shape_expr.h"
#include "core/ir/type.h"

namespace passlab::text::script_literals {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// A float as TVM prints attribute floats (%.17g, always with a '.' or exponent).
std::string attrFloat(double v) {
  // %g writes "inf" and "nan", which Python reads as undefined names.
  if (!std::isfinite(v)) return std::isnan(v) ? "float(\"nan\")" : v > 0 ? "float(\"inf\")" : "float(\"-inf\")";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

/// A float as Python's repr writes it (the shortest text that reads back).
std::string reprFloat(double v) {
  char buf[40];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s == "inf") return "float(\"inf\")";
  if (s == "-inf") return "float(\"-inf\")";
  if (s == "nan" || s == "-nan") return "float(\"nan\")";
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

void literal(std::string& out, const AttrValue& v) {
  switch (v.kind()) {
    case AttrValue::Kind::None: out += "None"; break;
    case AttrValue::Kind::Bool: out += v.asBool() ? "True" : "False"; break;
    case AttrValue::Kind::Int: out += std::to_string(v.asInt()); break;
    case AttrValue::Kind::Float: out += attrFloat(v.asFloat()); break;
    case AttrValue::Kind::String: out += quoted(v.asString()); break;
    case AttrValue::Kind::Array: {
      out += '[';
      bool first = true;
      for (const AttrValue& item : v.asArray()) {
        if (!first) out += ", ";
        first = false;
        literal(out, item);
      }
      out += ']';
      break;
    }
    case AttrValue::Kind::Dict: {
      out += '{';
      bool first = true;
      for (const auto& [k, item] : v.asDict().entries()) {
        if (!first) out += ", ";
        first = false;
        out += quoted(k) + ": ";
        literal(out, item);
      }
      out += '}';
      break;
    }
    case AttrValue::Kind::MetaRef: out += quoted(v.toString()); break;
  }
}

/// A list of dims as R.shape writes it: ints, and symbolic dims (held as
/// their text, shape::toAttr) unquoted: `[n, 8]`.
void dimsLiteral(std::string& out, const AttrValue& v) {
  if (v.kind() != AttrValue::Kind::Array) return literal(out, v);
  out += '[';
  for (size_t i = 0; i < v.asArray().size(); ++i) {
    const AttrValue& item = v.asArray()[i];
    if (i) out += ", ";
    if (item.kind() == AttrValue::Kind::String) out += item.asString();
    else literal(out, item);
  }
  out += ']';
}

/// A Relax type as TVM prints it. In a function's signature (`signature`),
/// a dimension that mentions a shape variable prints as a string (`"n"`,
/// `"n * 2"`), as TVM's printer does for the variables a signature defines.
std::string typeText(const Type& t, bool signature, bool mainSpelling) {
  if (const auto* tt = as<TensorTypeNode>(t)) {
    // TVM's printer: the shape when known, dtype= unless void, ndim= when
    // only the rank is known, vdevice= when placed; bare R.Tensor for nothing.
    std::vector<std::string> parts;
    bool unknown = tt->unknownRank;  // a `?`: TVM has no per-dimension unknown, only ndim=
    for (size_t i = 0; i < tt->shape.size(); ++i) unknown = unknown || (tt->shape[i] == kDynamicDim && !tt->symbolicDim(i));
    if (!unknown) {
      std::string s = "(";
      for (size_t i = 0; i < tt->shape.size(); ++i) {
        tir::PrimExpr d = tt->symbolicDim(i);
        std::string dim = d ? shape::toScript(d) : std::to_string(tt->shape[i]);
        s += (i ? ", " : "") + (d && signature ? quoted(dim) : dim);
      }
      if (tt->shape.size() == 1) s += ',';
      parts.push_back(s + ")");
    }
    if (!tt->unknownDtype) parts.push_back("dtype=" + quoted(std::string(tt->dtype.name())));
    if (unknown && !tt->unknownRank) parts.push_back("ndim=" + std::to_string(tt->shape.size()));
    if (!tt->vdevice.empty()) parts.push_back("vdevice=" + quoted(tt->vdevice));
    if (parts.empty()) return "R.Tensor";
    std::string s = "R.Tensor(";
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
    return s + ")";
  }
  if (const auto* tup = as<TupleTypeNode>(t)) {
    if (tup->fields.empty()) return "R.Tuple";
    std::string s = "R.Tuple(";
    for (size_t i = 0; i < tup->fields.size(); ++i) s += (i ? ", " : "") + typeText(tup->fields[i], signature, mainSpelling);
    return s + ")";
  }
  if (const auto* f = as<FuncTypeNode>(t)) {
    std::string s = "R.Callable((";
    for (size_t i = 0; i < f->params.size(); ++i) s += (i ? ", " : "") + typeText(f->params[i], signature, mainSpelling);
    if (f->params.size() == 1) s += ',';
    return s + "), " + typeText(f->ret, signature, mainSpelling) + ", True)";
  }
  if (as<ObjectTypeNode>(t) || as<StorageTypeNode>(t)) return mainSpelling ? "R.Any" : "R.Object";
  if (const auto* sh = as<ShapeTypeNode>(t)) {
    if (sh->values) {
      std::string s = "R.Shape([";
      for (size_t i = 0; i < sh->values->size(); ++i) {
        tir::PrimExpr d = i < sh->symbolic.size() ? sh->symbolic[i] : nullptr;
        std::string v = d ? shape::toScript(d) : std::to_string((*sh->values)[i]);
        s += (i ? ", " : "") + (d && signature ? quoted(v) : v);
      }
      return s + "])";
    }
    return sh->ndim < 0 ? "R.Shape" : "R.Shape(ndim=" + std::to_string(sh->ndim) + ")";
  }
  if (const auto* pr = as<PrimTypeNode>(t)) {
    if (pr->value && pr->dtype == DataType(DTypeCode::Int64)) return "R.Prim(value=" + std::to_string(*pr->value) + ")";
    // As R.Shape's values: a string in the signature, where it defines its variables.
    if (pr->symbolic) {
      std::string v = shape::toScript(pr->symbolic);
      return "R.Prim(value=" + (signature ? quoted(v) : v) + ")";
    }
    return "R.Prim(" + quoted(std::string(pr->dtype.name())) + ")";
  }
  return "";
}

}  // namespace passlab::text::script_literals
