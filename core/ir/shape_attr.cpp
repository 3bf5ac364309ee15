// Symbolic dimensions inside op attributes (see shape_attr.h): the text form
// an out_shape, a reshape target or an R.shape value keeps, read back into
// PrimExprs by the type relations and evaluated by the interpreter.
#include "core/ir/shape_attr.h"

#include <cctype>
#include <cstdint>

namespace passlab::shape {

namespace {

/// Recursive descent over dimension text: + - at the bottom, * // % above,
/// unary minus, then ints, names, parentheses and X.max / X.min / X.int64.
class TextReader {
 public:
  TextReader(std::string_view s, const std::function<tir::Var(const std::string&)>& lookup) : s_(s), lookup_(lookup) {}

  Dim read() {
    Dim d = sum();
    skip();
    return ok_ && pos_ == s_.size() ? d : nullptr;
  }

 private:
  void skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool accept(std::string_view tok) {
    skip();
    if (s_.substr(pos_, tok.size()) != tok) return false;
    pos_ += tok.size();
    return true;
  }
  Dim fail() {
    ok_ = false;
    return constant(0);
  }

  Dim sum() {
    if (++depth_ > 64) return fail();
    Dim a = product();
    while (ok_) {
      if (accept("+")) a = tir::binary(tir::BinaryOp::Add, a, product());
      else if (accept("-")) a = tir::binary(tir::BinaryOp::Sub, a, product());
      else break;
    }
    --depth_;
    return a;
  }

  Dim product() {
    Dim a = unary();
    while (ok_) {
      if (accept("//")) a = tir::binary(tir::BinaryOp::FloorDiv, a, unary());
      else if (accept("*")) a = tir::binary(tir::BinaryOp::Mul, a, unary());
      else if (accept("%")) a = tir::binary(tir::BinaryOp::FloorMod, a, unary());
      else break;
    }
    return a;
  }

  Dim unary() {
    if (++depth_ > 64) return fail();
    Dim out;
    if (accept("-")) {
      Dim a = unary();
      const auto* i = tir::as<tir::IntImmNode>(a);
      out = i ? constant(-i->value) : tir::binary(tir::BinaryOp::Mul, a, constant(-1));
    } else if (accept("(")) {
      out = sum();
      if (!accept(")")) out = fail();
    } else {
      out = atom();
    }
    --depth_;
    return out;
  }

  Dim atom() {
    skip();
    size_t start = pos_;
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        if (v > (INT64_MAX - 9) / 10) return fail();
        v = v * 10 + (s_[pos_++] - '0');
      }
      return constant(v);
    }
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' || s_[pos_] == '.')) ++pos_;
    std::string name(s_.substr(start, pos_ - start));
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return fail();
    size_t dot = name.rfind('.');
    if (dot == std::string::npos) return lookup_(name);
    std::string f = name.substr(dot + 1);
    if (!accept("(")) return fail();
    Dim a = sum();
    if (f == "int64") return accept(")") ? a : fail();
    if ((f != "max" && f != "min") || !accept(",")) return fail();
    Dim b = sum();
    if (!accept(")")) return fail();
    return tir::binary(f == "max" ? tir::BinaryOp::Max : tir::BinaryOp::Min, a, b);
  }

  std::string_view s_;
  const std::function<tir::Var(const std::string&)>& lookup_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool ok_ = true;
};

}  // namespace

AttrValue toAttr(const Dim& d) {
  if (std::optional<int64_t> c = asConstant(d)) return AttrValue::integer(*c);
  if (!d) return AttrValue::integer(kDynamicDim);
  return AttrValue::string(toScript(d));
}

AttrValue toAttrList(const std::vector<Dim>& dims) {
  std::vector<AttrValue> items;
  for (const Dim& d : dims) items.push_back(toAttr(d));
  return AttrValue::array(std::move(items));
}

Dim parse(std::string_view text, const std::function<tir::Var(const std::string&)>& lookup) {
  TextReader r(text, lookup);
  return r.read();
}

std::vector<Dim> dimsOfAttr(const AttrValue& list, const std::vector<tir::Var>& scope) {
  std::map<std::string, tir::Var> made;
  std::function<tir::Var(const std::string&)> lookup = [&](const std::string& name) -> tir::Var {
    for (const tir::Var& v : scope)
      if (v->name == name) return v;
    auto it = made.find(name);
    if (it == made.end()) it = made.emplace(name, makeShapeVar(name)).first;
    return it->second;
  };
  std::vector<Dim> dims;
  for (const AttrValue& item : list.asArray()) {
    if (item.kind() == AttrValue::Kind::Int) dims.push_back(item.asInt() == kDynamicDim ? nullptr : constant(item.asInt()));
    else if (item.kind() == AttrValue::Kind::String) dims.push_back(parse(item.asString(), lookup));
    else dims.push_back(nullptr);
  }
  return dims;
}

bool attrHasSymbolic(const AttrValue& list) {
  if (list.kind() == AttrValue::Kind::String) return true;
  if (list.kind() != AttrValue::Kind::Array) return false;
  for (const AttrValue& item : list.asArray())
    if (attrHasSymbolic(item)) return true;
  return false;
}

std::optional<AttrValue> evaluateAttr(const AttrValue& list, const NameEnv& env) {
  if (list.kind() == AttrValue::Kind::String) {
    bool bound = true;
    std::map<std::string, tir::Var> vars;
    Env values;
    std::function<tir::Var(const std::string&)> lookup = [&](const std::string& name) -> tir::Var {
      auto it = vars.find(name);
      if (it != vars.end()) return it->second;
      tir::Var v = makeShapeVar(name);
      vars.emplace(name, v);
      auto e = env.find(name);
      if (e == env.end()) bound = false;
      else values[v.get()] = e->second;
      return v;
    };
    Dim d = parse(list.asString(), lookup);
    std::optional<int64_t> v = d && bound ? evaluate(d, values) : std::nullopt;
    if (!v) return std::nullopt;
    return AttrValue::integer(*v);
  }
  if (list.kind() != AttrValue::Kind::Array) return list;
  std::vector<AttrValue> items;
  for (const AttrValue& item : list.asArray()) {
    std::optional<AttrValue> v = evaluateAttr(item, env);
    if (!v) return std::nullopt;
    items.push_back(std::move(*v));
  }
  return AttrValue::array(std::move(items));
}

void addNames(const Env& env, NameEnv& names) {
  for (const auto& [var, value] : env) names[var->name] = value;
}

}  // namespace passlab::shape
