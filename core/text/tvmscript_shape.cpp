// Symbolic dimensions in TVMScript: `n = T.int64()` declarations, and shape
// expressions in types (`(n, 4)`, `(n * 2,)`, and the string form TVM prints
// in signatures, `("n", "w - kw + 1")`).
#include <functional>

#include "core/text/tvmscript_module.h"

namespace passlab::tvmscript {

namespace {

/// Recursive descent over `p`'s tokens: + - at the bottom, * // % above, unary
/// minus, then ints, names, parentheses and T.min/T.max.
class DimReader {
 public:
  DimReader(ScriptParser& p, const std::string& tirAlias, const std::function<shape::Dim(const PyToken&)>& name)
      : p_(p), tirAlias_(tirAlias), name_(name) {}

  shape::Dim sum() {
    ScriptParser::Depth depth(p_);
    shape::Dim a = product();
    while (p_.check(PyTok::Plus) || p_.check(PyTok::Minus)) {
      tir::BinaryOp op = p_.take().kind == PyTok::Plus ? tir::BinaryOp::Add : tir::BinaryOp::Sub;
      a = tir::binary(op, a, product());
    }
    return a;
  }

 private:
  shape::Dim product() {
    shape::Dim a = unary();
    while (p_.check(PyTok::Star) || p_.check(PyTok::SlashSlash) || p_.check(PyTok::Percent)) {
      PyTok k = p_.take().kind;
      tir::BinaryOp op = k == PyTok::Star ? tir::BinaryOp::Mul : k == PyTok::SlashSlash ? tir::BinaryOp::FloorDiv : tir::BinaryOp::FloorMod;
      a = tir::binary(op, a, unary());
    }
    if (p_.check(PyTok::Slash)) p_.fail(p_.peek(), "'/' is true division; a dimension divides with '//'");
    return a;
  }

  shape::Dim unary() {
    ScriptParser::Depth depth(p_);
    if (p_.accept(PyTok::Minus)) {
      shape::Dim a = unary();
      if (const auto* i = tir::as<tir::IntImmNode>(a)) return shape::constant(-i->value);
      return tir::binary(tir::BinaryOp::Mul, a, shape::constant(-1));
    }
    const PyToken& t = p_.peek();
    if (p_.accept(PyTok::Int)) return shape::constant(p_.intValue(t));
    if (p_.accept(PyTok::LParen)) {
      shape::Dim a = sum();
      p_.expect(PyTok::RParen, "')'");
      return a;
    }
    if (p_.checkDotted(tirAlias_ + ".max") || p_.checkDotted(tirAlias_ + ".min")) {
      std::string f = p_.takeDotted("");
      p_.expect(PyTok::LParen, "'('");
      shape::Dim a = sum();
      p_.expect(PyTok::Comma, "','");
      shape::Dim b = sum();
      p_.expect(PyTok::RParen, "')'");
      return tir::binary(f.ends_with("max") ? tir::BinaryOp::Max : tir::BinaryOp::Min, a, b);
    }
    if (p_.checkDotted(tirAlias_ + ".int64")) {  // T.int64(4)
      p_.takeDotted("");
      p_.expect(PyTok::LParen, "'('");
      shape::Dim a = sum();
      p_.expect(PyTok::RParen, "')'");
      return a;
    }
    if (t.kind == PyTok::Name && !p_.check(PyTok::Dot, 1) && !p_.check(PyTok::LParen, 1)) return name_(p_.take());
    p_.failExpected("a dimension (an integer, a shape variable such as n, or an expression of them)");
  }

  ScriptParser& p_;
  const std::string& tirAlias_;
  const std::function<shape::Dim(const PyToken&)>& name_;
};

}  // namespace

shape::Dim ModuleParser::parseShapeDim() {
  const PyToken& t = peek();
  if (t.kind == PyTok::String) {
    take();
    // TVM prints a dimension that mentions a variable of the signature as a
    // string; the string defines the variables it names.
    std::string src = decodePyString(t.text);
    std::string where = describe(t);
    try {
      ScriptParser sub(src, file()->name);
      std::function<shape::Dim(const PyToken&)> name = [&](const PyToken& n) -> shape::Dim {
        return shapeVar(t, std::string(n.text), /*define=*/true);
      };
      DimReader reader(sub, tirAlias, name);
      while (sub.accept(PyTok::Newline)) {
      }
      shape::Dim d = reader.sum();
      while (sub.accept(PyTok::Newline)) {
      }
      if (!sub.check(PyTok::End)) sub.failExpected("the end of the dimension");
      return d;
    } catch (const DiagnosticError& e) {
      fail(t, "cannot read the dimension " + where + ": " + e.diagnostics().front().message);
    }
  }
  std::function<shape::Dim(const PyToken&)> name = [&](const PyToken& n) -> shape::Dim {
    return shapeVar(n, std::string(n.text), /*define=*/false);
  };
  DimReader reader(*this, tirAlias, name);
  return reader.sum();
}

shape::Dim ModuleParser::shapeVar(const PyToken& at, const std::string& name, bool define) {
  auto it = shapeVars_.find(name);
  if (it != shapeVars_.end()) return it->second;
  if (lookupLocal(name)) fail(at, "'" + name + "' is a Relax value, not a shape variable (declare one with " + name + " = " + tirAlias + ".int64())");
  if (!define)
    fail(at, "unknown shape variable '" + name + "' (declare it with " + name + " = " + tirAlias + ".int64() first, or write the dimension as the string \"" + name + "\")");
  tir::Var v = shape::makeShapeVar(name);
  shapeVars_.emplace(name, v);
  return v;
}

Type ModuleParser::bindingAnnotation(const PyToken& at, const Type& ann, const Expr& value) {
  const auto* call = as<CallNode>(value);
  const auto* op = call ? as<OpNode>(call->callee) : nullptr;
  if (!op || op->def->id != OpId::MatchCast) return ann;
  if (ann && !typeEqual(ann, matchCastType_))
    fail(at, "the annotation of '" + std::string(at.text) + "' differs from the type R.match_cast casts to");
  return matchCastType_;
}

bool ModuleParser::tryShapeVarDeclaration() {
  // NAME = T.int64() / T.int32(), with empty parentheses: a declaration, not a binding.
  if (!check(PyTok::Name) || !check(PyTok::Equal, 1)) return false;
  size_t save = position();
  const PyToken& n = take();
  take();
  bool decl = (checkDotted(tirAlias + ".int64") || checkDotted(tirAlias + ".int32"));
  if (decl) {
    std::string f = takeDotted("");
    decl = accept(PyTok::LParen) && accept(PyTok::RParen);
    if (decl && f.ends_with("int32"))
      note(spanOf(n), "shape variable '" + std::string(n.text) + "' is declared int32; passlab's shape variables are int64");
  }
  if (!decl) {
    rewind(save);
    return false;
  }
  expectEndOfStatement();
  if (lookupLocal(n.text)) fail(n, "'" + std::string(n.text) + "' is already a Relax value in this function");
  shapeVar(n, std::string(n.text), /*define=*/true);
  return true;
}

}  // namespace passlab::tvmscript
