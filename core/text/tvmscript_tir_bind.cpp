// Asserts and let expressions in TVMScript TIR:
//   assert cond, "message"                          releases and main
//   assert cond, ("ValueError", ["part", ...])      main (an error kind and message parts)
//   with T.Assert(cond, "message"):                 releases (main: T.Assert(cond, [...], error_kind=...))
//   x = T.int32()                                   declares x for a T.Let
//   T.Let(body, where={x: value})                   TVM's printed let expression
//   T.let(x, value, body)                           the older spelling
// An assert guards the rest of its suite (or its `with` body); main's parts
// are joined into one message.
#include "core/ir/tir_functor.h"
#include "core/text/tvmscript_tir_reader.h"

namespace passlab::tvmscript {

namespace T = passlab::tir;

namespace {
/// Adjacent string literals, concatenated as Python does.
std::string strings(ScriptParser& p) {
  std::string out = decodePyString(p.expect(PyTok::String, "a string").text);
  while (p.check(PyTok::String)) out += decodePyString(p.take().text);
  return out;
}

/// `["part", ...]`: main's message parts, joined (TVM concatenates them when the assert fails).
std::string parts(ScriptParser& p) {
  p.expect(PyTok::LBracket, "'[' and the message parts");
  std::string out;
  while (!p.accept(PyTok::RBracket)) {
    out += strings(p);
    if (!p.accept(PyTok::Comma)) {
      p.expect(PyTok::RBracket, "',' or ']' after a message part");
      break;
    }
  }
  return out;
}
}  // namespace

T::PrimExpr TirReader::assertCondition() {
  const PyToken& at = p_.peek();
  T::PrimExpr cond = expr();
  if (!cond->dtype.isBool())
    p_.fail(at, "an assert's condition must be bool (a comparison), not " + std::string(cond->dtype.name()));
  return cond;
}

T::Stmt TirReader::assertStatement(bool* tookRest) {
  p_.take();  // assert
  T::PrimExpr cond = assertCondition();
  p_.expect(PyTok::Comma, "',' and the assert's message");
  std::string kind = T::kDefaultAssertKind, message;
  const PyToken& msgTok = p_.peek();
  if (p_.check(PyTok::String)) {
    message = strings(p_);
  } else if (p_.check(PyTok::LParen) && p_.check(PyTok::String, 1)) {
    p_.noteSpelling(TvmScriptSpelling::Main, msgTok);
    p_.take();
    kind = strings(p_);
    p_.expect(PyTok::Comma, "',' and the message parts [\"...\", ...]");
    message = parts(p_);
    p_.accept(PyTok::Comma);
    p_.expect(PyTok::RParen, "')' to close (kind, [parts])");
  } else {
    p_.fail(msgTok, "an assert's message must be a string, or main's (\"ValueError\", [\"part\", ...])");
  }
  p_.expectEndOfStatement();
  *tookRest = true;
  if (p_.accept(PyTok::Dedent)) return T::assertStmt(cond, kind, message, nullptr);  // guards nothing: the suite ends here
  pushScope();
  T::Stmt body = suite();
  popScope();
  return T::assertStmt(cond, kind, message, body);
}

T::Stmt TirReader::withAssert(const PyToken& at) {
  p_.expect(PyTok::LParen, "'(' after T.Assert");
  T::PrimExpr cond = assertCondition();
  p_.expect(PyTok::Comma, "',' and the assert's message");
  std::string kind = T::kDefaultAssertKind, message;
  if (p_.check(PyTok::LBracket)) {
    p_.noteSpelling(TvmScriptSpelling::Main, p_.peek());
    message = parts(p_);
  } else if (p_.check(PyTok::String)) {
    message = strings(p_);
  } else {
    p_.failExpected("the assert's message as a string");
  }
  if (p_.accept(PyTok::Comma) && !p_.check(PyTok::RParen)) {
    const PyToken& key = p_.expectName("error_kind", "error_kind=\"ValueError\" or ')'");
    p_.noteSpelling(TvmScriptSpelling::Main, key);
    p_.expect(PyTok::Equal, "'=' after error_kind");
    kind = strings(p_);
    p_.accept(PyTok::Comma);
  }
  p_.expect(PyTok::RParen, "')' to close T.Assert");
  p_.expectBlockStart("the assert's body");
  (void)at;
  bool top = atBlockTop_;
  atBlockTop_ = false;
  pushScope();
  T::Stmt body = suite();
  popScope();
  atBlockTop_ = top;
  return T::assertStmt(cond, kind, message, body);
}

void TirReader::declareLetVar(const PyToken& name) {
  acceptT();
  const PyToken& ty = p_.expectAnyName("a TIR type");
  std::optional<DataType> d = scriptDType(ty.text);
  if (!d) p_.fail(ty, "unknown type T." + std::string(ty.text));
  p_.expect(PyTok::LParen, "'('");
  p_.expect(PyTok::RParen, "')'");
  p_.expectEndOfStatement();
  Symbol s{T::makeVar(std::string(name.text), *d), nullptr, nullptr};
  s.letOnly = true;
  define(name, std::string(name.text), std::move(s));
}

T::PrimExpr TirReader::letExpr(const PyToken& at, const std::string& name) {
  ScriptParser::Depth depth(p_);
  p_.expect(PyTok::LParen, "'(' after T." + name);
  // The variable: a name declared `x = T.int32()` (TVM's printer declares it so).
  auto letVar = [&]() -> T::Var {
    const PyToken& v = p_.expectAnyName("the let's variable");
    const Symbol* s = lookup(v.text);
    if (!s || !s->letOnly)
      p_.fail(v, "'" + std::string(v.text) + "' must be declared for the let first, as in " + std::string(v.text) + " = T.int32()");
    return s->var;
  };
  T::Var var;
  T::PrimExpr value, body;
  size_t bodyFrom = 0, bodyTo = 0;
  if (name == "let") {
    var = letVar();
    p_.expect(PyTok::Comma, "',' and the let's value");
    value = expr();
    p_.expect(PyTok::Comma, "',' and the let's body");
    bodyFrom = letVarUses_.size();
    body = expr();
    bodyTo = letVarUses_.size();
    p_.accept(PyTok::Comma);
  } else {
    bodyFrom = letVarUses_.size();
    body = expr();
    bodyTo = letVarUses_.size();
    p_.expect(PyTok::Comma, "',' and where={x: value}");
    if (p_.checkName("where") && p_.check(PyTok::Equal, 1)) p_.take(), p_.take();
    p_.expect(PyTok::LBrace, "'{' to open the let's binding {x: value}");
    var = letVar();
    p_.expect(PyTok::Colon, "':' and the let's value");
    value = expr();
    if (p_.accept(PyTok::Comma) && !p_.check(PyTok::RBrace)) p_.fail(p_.peek(), "T.Let binds exactly one variable");
    p_.expect(PyTok::RBrace, "'}' (T.Let binds exactly one variable)");
    p_.accept(PyTok::Comma);
  }
  p_.expect(PyTok::RParen, "')' to close T." + name);
  (void)at;
  // The body's uses of the variable are bound now; the value's are not.
  std::vector<std::pair<const T::VarNode*, PyToken>> kept;
  for (size_t i = 0; i < letVarUses_.size(); ++i)
    if (i < bodyFrom || i >= bodyTo || letVarUses_[i].first != var.get()) kept.push_back(letVarUses_[i]);
  letVarUses_ = std::move(kept);
  // Each binding gets its own variable (a TIR variable is bound once).
  if (letBindings_[var.get()]++ > 0) {
    T::Var fresh = T::makeVar(var->name, var->dtype);
    body = T::substitute(body, {{var.get(), fresh}});
    var = fresh;
  }
  return T::let(var, convertTo(value, var->dtype), body);
}

void TirReader::checkLetVarUses() const {
  if (letVarUses_.empty()) return;
  const auto& [var, at] = letVarUses_.front();
  p_.fail(at, "'" + var->name + "' is declared with T." + std::string(var->dtype.name()) +
                  "() but used outside a T.Let that binds it (passlab's TIR has no symbolic variables)");
}

}  // namespace passlab::tvmscript
