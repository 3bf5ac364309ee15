// TIR expressions in TVMScript: Python precedence (`or` < `and` < `not` <
// comparisons < `+ -` < `* / // %` < unary `-` < `**`), buffer loads,
// `T.<dtype>(...)` literals and casts, `T.Cast`, `T.Select`,
// `T.if_then_else`, `T.min`/`T.max`/`T.floordiv`/..., and the float-math
// intrinsics (`T.exp`, `T.sqrt`, ...) under their TIR call names.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>

#include "core/analysis/structural_equal.h"
#include "core/ir/float_math.h"
#include "core/text/tvmscript_tir_reader.h"

namespace passlab::tvmscript {

namespace T = passlab::tir;

const TirReader::Symbol* TirReader::lookup(std::string_view name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
    if (auto f = it->find(std::string(name)); f != it->end()) return &f->second;
  return nullptr;
}

void TirReader::define(const PyToken& at, const std::string& name, Symbol s) {
  if (scopes_.empty()) pushScope();
  for (const auto& scope : scopes_)
    if (scope.count(name)) p_.fail(at, "'" + name + "' is already defined in this function (TIR names are bound once)");
  scopes_.back()[name] = std::move(s);
}

std::optional<DataType> TirReader::scriptDType(std::string_view name) {
  if (name == "bool") return DataType(DTypeCode::Bool);
  auto d = DataType::parse(name);
  if (d && !d->isBool()) return d;
  return std::nullopt;
}

bool TirReader::checkT(std::string_view name, size_t k) const {
  return p_.peek(k).is(p_.tirAlias) && p_.check(PyTok::Dot, k + 1) && p_.peek(k + 2).is(name);
}

bool TirReader::acceptT() {
  if (!p_.peek().is(p_.tirAlias) || !p_.check(PyTok::Dot, 1)) return false;
  p_.take();
  p_.take();
  return true;
}

T::PrimExpr TirReader::convertTo(const T::PrimExpr& e, DataType d) {
  if (e->dtype == d) return e;
  if (const auto* i = T::as<T::IntImmNode>(e)) return d.isFloat() ? T::floatImm(d, static_cast<double>(i->value)) : T::intImm(d, i->value);
  if (const auto* f = T::as<T::FloatImmNode>(e); f && d.isFloat()) return T::floatImm(d, f->value);
  return T::cast(d, e);
}

namespace {
bool isLiteral(const T::PrimExpr& e) { return e->kind == T::PrimExprKind::IntImm || e->kind == T::PrimExprKind::FloatImm; }

/// Brings two operands to one dtype as TVM's operators do: a literal takes the
/// other side's dtype; otherwise int widens to the wider int, int to float.
void unify(T::PrimExpr& a, T::PrimExpr& b) {
  if (a->dtype == b->dtype) return;
  if (isLiteral(b) && !isLiteral(a)) return void(b = TirReader::convertTo(b, a->dtype));
  if (isLiteral(a) && !isLiteral(b)) return void(a = TirReader::convertTo(a, b->dtype));
  auto rank = [](DataType d) { return (d.isFloat() ? 1000 : 0) + d.bits(); };
  if (rank(a->dtype) < rank(b->dtype)) a = TirReader::convertTo(a, b->dtype);
  else b = TirReader::convertTo(b, a->dtype);
}

T::PrimExpr makeBinary(T::BinaryOp op, T::PrimExpr a, T::PrimExpr b) {
  unify(a, b);
  return T::binary(op, std::move(a), std::move(b));
}
}  // namespace

T::PrimExpr TirReader::expr() {
  ScriptParser::Depth depth(p_);
  return orExpr();
}

T::PrimExpr TirReader::orExpr() {
  T::PrimExpr e = andExpr();
  while (p_.acceptName("or")) e = makeBinary(T::BinaryOp::Or, e, andExpr());
  return e;
}

T::PrimExpr TirReader::andExpr() {
  T::PrimExpr e = notExpr();
  while (p_.acceptName("and")) e = makeBinary(T::BinaryOp::And, e, notExpr());
  return e;
}

T::PrimExpr TirReader::notExpr() {
  if (p_.acceptName("not")) {
    ScriptParser::Depth depth(p_);
    return T::logicalNot(notExpr());
  }
  return comparison();
}

T::PrimExpr TirReader::comparison() {
  T::PrimExpr e = arith();
  auto op = [&]() -> std::optional<T::BinaryOp> {
    switch (p_.peek().kind) {
      case PyTok::EqEq: return T::BinaryOp::EQ;
      case PyTok::NotEq: return T::BinaryOp::NE;
      case PyTok::Less: return T::BinaryOp::LT;
      case PyTok::LessEq: return T::BinaryOp::LE;
      case PyTok::Greater: return T::BinaryOp::GT;
      case PyTok::GreaterEq: return T::BinaryOp::GE;
      default: return std::nullopt;
    }
  };
  if (auto o = op()) {
    p_.take();
    e = makeBinary(*o, e, arith());
    if (op()) p_.fail(p_.peek(), "chained comparisons are not TIR; write (a < b) and (b < c)");
  }
  return e;
}

T::PrimExpr TirReader::arith() {
  T::PrimExpr e = term();
  while (p_.check(PyTok::Plus) || p_.check(PyTok::Minus)) {
    bool plus = p_.take().kind == PyTok::Plus;
    e = makeBinary(plus ? T::BinaryOp::Add : T::BinaryOp::Sub, e, term());
  }
  return e;
}

T::PrimExpr TirReader::term() {
  T::PrimExpr e = factor();
  while (true) {
    PyTok k = p_.peek().kind;
    if (k != PyTok::Star && k != PyTok::Slash && k != PyTok::SlashSlash && k != PyTok::Percent) return e;
    const PyToken& opTok = p_.take();
    T::PrimExpr rhs = factor();
    T::BinaryOp op = k == PyTok::Star ? T::BinaryOp::Mul : k == PyTok::SlashSlash ? T::BinaryOp::FloorDiv
                     : k == PyTok::Percent ? T::BinaryOp::FloorMod : T::BinaryOp::Div;
    if (op == T::BinaryOp::Div && !e->dtype.isFloat() && !rhs->dtype.isFloat())
      p_.fail(opTok, "'/' on integers is not TIR (TVM refuses it too); write // for floor division or T.truncdiv(a, b)");
    e = makeBinary(op, e, rhs);
  }
}

T::PrimExpr TirReader::factor() {
  if (p_.check(PyTok::Minus)) {
    ScriptParser::Depth depth(p_);
    p_.take();
    if (p_.check(PyTok::Int) || p_.check(PyTok::Float)) {
      const PyToken& t = p_.take();
      T::PrimExpr lit = literal(t, true);
      if (p_.check(PyTok::StarStar)) p_.fail(p_.peek(), "write (-x) ** y with parentheses");
      return lit;
    }
    T::PrimExpr x = factor();
    return makeBinary(T::BinaryOp::Sub, convertTo(T::intImm(DTypeCode::Int32, 0), x->dtype), x);
  }
  if (p_.check(PyTok::Plus)) {
    p_.take();
    return factor();
  }
  return power();
}

T::PrimExpr TirReader::power() {
  T::PrimExpr base = primary();
  if (!p_.accept(PyTok::StarStar)) return base;
  T::PrimExpr exp = factor();
  unify(base, exp);
  return T::call(base->dtype, "pow", {base, exp});
}

T::PrimExpr TirReader::literal(const PyToken& t, bool negative) {
  std::string digits;
  for (char c : t.text)
    if (c != '_') digits += c;
  if (t.kind == PyTok::Float) {
    double v = std::strtod(digits.c_str(), nullptr);
    return T::floatImm(DTypeCode::Float32, negative ? -v : v);
  }
  errno = 0;
  unsigned long long u = std::strtoull(digits.c_str(), nullptr, 0);
  if (errno == ERANGE || u > static_cast<unsigned long long>(std::numeric_limits<int64_t>::max()) + (negative ? 1ull : 0ull))
    p_.fail(t, "integer " + std::string(t.text) + " does not fit in int64");
  int64_t v = negative ? static_cast<int64_t>(0ull - u) : static_cast<int64_t>(u);
  bool fits32 = v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
  return T::intImm(fits32 ? DataType(DTypeCode::Int32) : DataType(DTypeCode::Int64), v);
}

std::vector<T::PrimExpr> TirReader::callArgs() {
  p_.expect(PyTok::LParen, "'(' to open the arguments");
  std::vector<T::PrimExpr> args;
  while (!p_.accept(PyTok::RParen)) {
    if (p_.check(PyTok::Name) && p_.check(PyTok::Equal, 1)) p_.fail(p_.peek(), "unexpected keyword argument " + ScriptParser::describe(p_.peek()));
    args.push_back(expr());
    if (!p_.accept(PyTok::Comma)) {
      p_.expect(PyTok::RParen, "',' or ')' in the arguments");
      break;
    }
  }
  return args;
}

std::vector<std::pair<T::PrimExpr, T::PrimExpr>> TirReader::subscript(bool regions) {
  p_.expect(PyTok::LBracket, "'['");
  std::vector<std::pair<T::PrimExpr, T::PrimExpr>> out;
  // `A[()]`: TVM's printer indexes a rank-0 buffer with the empty tuple.
  if (p_.check(PyTok::LParen) && p_.check(PyTok::RParen, 1) && p_.check(PyTok::RBracket, 2)) {
    p_.take();
    p_.take();
    p_.take();
    return out;
  }
  while (!p_.accept(PyTok::RBracket)) {
    T::PrimExpr mn = expr();
    T::PrimExpr extent;
    if (p_.check(PyTok::Colon)) {
      const PyToken& colon = p_.take();
      if (!regions) p_.fail(colon, "a slice reads a region; a buffer load takes one index per dimension");
      T::PrimExpr end = expr();
      unify(mn, end);
      extent = extentOf(mn, end);
    } else if (regions) {
      extent = T::intImm(mn->dtype.isBool() ? DataType(DTypeCode::Int32) : mn->dtype, 1);
    }
    out.emplace_back(std::move(mn), std::move(extent));
    if (!p_.accept(PyTok::Comma)) {
      p_.expect(PyTok::RBracket, "',' or ']' in the subscript");
      break;
    }
  }
  return out;
}

T::PrimExpr TirReader::extentOf(const T::PrimExpr& mn, const T::PrimExpr& end) {
  const auto* m = T::as<T::IntImmNode>(mn);
  const auto* e = T::as<T::IntImmNode>(end);
  const auto* sum = T::as<T::BinaryNode>(end);
  if (m && e) return T::intImm(mn->dtype, e->value - m->value);
  if (sum && sum->op == T::BinaryOp::Add && structuralEqual(sum->a, mn)) return sum->b;  // the printer writes min + extent
  return T::binary(T::BinaryOp::Sub, end, mn);
}

T::BufferRegion TirReader::region() {
  const PyToken& nameTok = p_.expectAnyName("a buffer region such as A[vi, 0:16]");
  const Symbol* s = lookup(nameTok.text);
  if (!s || !s->buffer) p_.fail(nameTok, "'" + std::string(nameTok.text) + "' is not a buffer");
  T::BufferRegion r{s->buffer, subscript(true)};
  if (r.ranges.size() != r.buffer->shape.size())
    p_.fail(nameTok, "region of '" + std::string(nameTok.text) + "' has " + std::to_string(r.ranges.size()) + " ranges for " +
                         std::to_string(r.buffer->shape.size()) + " dimensions");
  return r;
}

T::PrimExpr TirReader::primary() {
  const PyToken& t = p_.peek();
  switch (t.kind) {
    case PyTok::Int:
    case PyTok::Float: return literal(p_.take(), false);
    case PyTok::LParen: {
      p_.take();
      T::PrimExpr e = expr();
      if (p_.check(PyTok::Comma)) p_.fail(p_.peek(), "a tuple is not a TIR expression");
      p_.expect(PyTok::RParen, "')'");
      return e;
    }
    case PyTok::Name: break;
    default: p_.failExpected("an expression");
  }
  if (t.is("True") || t.is("False")) return T::intImm(DTypeCode::Bool, p_.take().is("True"));
  if (t.is(p_.tirAlias) && p_.check(PyTok::Dot, 1)) {
    const PyToken& at = p_.take();
    p_.take();
    std::string name(p_.expectAnyName("a name after '" + p_.tirAlias + ".'").text);
    while (p_.check(PyTok::Dot) && p_.check(PyTok::Name, 1)) {
      p_.take();
      name += "." + std::string(p_.take().text);
    }
    return tCall(at, name);
  }
  if ((t.is("cls") || t.is("Module")) && p_.check(PyTok::Dot, 1)) {
    p_.take();
    p_.take();
    std::string callee(p_.expectAnyName("a function name").text);
    return T::call(DTypeCode::Int32, callee, callArgs(), true);
  }
  const PyToken& nameTok = p_.take();
  const Symbol* s = lookup(nameTok.text);
  if (!s) p_.fail(nameTok, "undefined name '" + std::string(nameTok.text) + "'");
  if (s->buffer) {
    if (p_.check(PyTok::Dot) && p_.peek(1).is("data")) {
      p_.take();
      p_.take();
      if (!s->data) p_.fail(nameTok, "only a buffer parameter's data is passed in passlab's TIR");
      return s->data;
    }
    if (!p_.check(PyTok::LBracket)) p_.fail(nameTok, "buffer '" + std::string(nameTok.text) + "' must be indexed, as in " + std::string(nameTok.text) + "[i]");
    std::vector<T::PrimExpr> idx;
    for (auto& [i, unused] : subscript(false)) idx.push_back(i);
    if (idx.size() != s->buffer->shape.size() && idx.size() != 1)
      p_.fail(nameTok, "buffer '" + std::string(nameTok.text) + "' has " + std::to_string(s->buffer->shape.size()) + " dimensions but " +
                           std::to_string(idx.size()) + " indices were given");
    return T::load(s->buffer, std::move(idx));
  }
  if (s->letOnly) letVarUses_.emplace_back(s->var.get(), nameTok);
  return s->var;
}

T::PrimExpr TirReader::tCall(const PyToken& at, const std::string& name) {
  auto need = [&](const std::vector<T::PrimExpr>& args, size_t n) {
    if (args.size() != n) p_.fail(at, "T." + name + " takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s"));
  };
  if (auto d = scriptDType(name)) {
    // T.float32(1.0), T.int64(4), T.bool(True), T.float32("inf"); T.float32(x) casts.
    p_.expect(PyTok::LParen, "'(' after T." + name);
    if (p_.check(PyTok::RParen))
      p_.fail(at, "T." + name + "() declares a variable: passlab reads it only as a statement x = T." + name +
                      "() whose x a T.Let binds (its TIR has no symbolic variables; buffers have static shapes)");
    T::PrimExpr e;
    if (p_.check(PyTok::String)) {
      std::string s = decodePyString(p_.take().text);
      double v = s == "inf" ? HUGE_VAL : s == "-inf" ? -HUGE_VAL : s == "nan" ? std::numeric_limits<double>::quiet_NaN() : 0;
      if (v == 0 || !d->isFloat()) p_.fail(at, "T." + name + "(\"" + s + "\"): only \"inf\", \"-inf\" and \"nan\" are read");
      e = T::floatImm(*d, v);
    } else {
      e = convertTo(expr(), *d);
    }
    p_.expect(PyTok::RParen, "')'");
    return e;
  }
  if (name == "Cast" || name == "cast") {
    p_.expect(PyTok::LParen, "'('");
    DataType d;
    T::PrimExpr v;
    if (name == "Cast") {
      d = dtypeArg("a dtype such as \"float32\"");
      p_.expect(PyTok::Comma, "','");
      v = expr();
    } else {
      v = expr();
      p_.expect(PyTok::Comma, "','");
      d = dtypeArg("a dtype such as \"float32\"");
    }
    p_.expect(PyTok::RParen, "')'");
    return T::cast(d, v);
  }
  if (name == "call_intrin" || name == "call_pure_intrin") {
    p_.expect(PyTok::LParen, "'('");
    DataType d = dtypeArg("the result dtype");
    p_.expect(PyTok::Comma, "','");
    const PyToken& op = p_.expect(PyTok::String, "the intrinsic's name as a string");
    std::string callee = decodePyString(op.text);
    if (callee.rfind("tir.", 0) == 0) callee = callee.substr(4);
    std::vector<T::PrimExpr> args;
    while (p_.accept(PyTok::Comma)) {
      if (p_.check(PyTok::RParen)) break;
      args.push_back(expr());
    }
    p_.expect(PyTok::RParen, "')'");
    if (!floatMathFunction(callee) && callee != "pow" && callee != "if_then_else") p_.fail(op, "unknown intrinsic '" + callee + "'");
    return T::call(d, callee, std::move(args));
  }
  static const std::unordered_map<std::string, T::BinaryOp> binaries{
      {"max", T::BinaryOp::Max},      {"min", T::BinaryOp::Min},      {"floordiv", T::BinaryOp::FloorDiv}, {"floormod", T::BinaryOp::FloorMod},
      {"truncdiv", T::BinaryOp::Div}, {"truncmod", T::BinaryOp::Mod}, {"Div", T::BinaryOp::Div},           {"Mod", T::BinaryOp::Mod},
      {"FloorDiv", T::BinaryOp::FloorDiv}, {"FloorMod", T::BinaryOp::FloorMod}, {"Add", T::BinaryOp::Add}, {"Sub", T::BinaryOp::Sub},
      {"Mul", T::BinaryOp::Mul},      {"Max", T::BinaryOp::Max},      {"Min", T::BinaryOp::Min},           {"And", T::BinaryOp::And},
      {"Or", T::BinaryOp::Or},        {"EQ", T::BinaryOp::EQ},        {"NE", T::BinaryOp::NE},             {"LT", T::BinaryOp::LT},
      {"LE", T::BinaryOp::LE},        {"GT", T::BinaryOp::GT},        {"GE", T::BinaryOp::GE}};
  if (auto it = binaries.find(name); it != binaries.end()) {
    std::vector<T::PrimExpr> args = callArgs();
    need(args, 2);
    return makeBinary(it->second, args[0], args[1]);
  }
  if (name == "Select" || name == "if_then_else") {
    std::vector<T::PrimExpr> args = callArgs();
    need(args, 3);
    unify(args[1], args[2]);
    if (name == "Select") return T::select(args[0], args[1], args[2]);
    DataType d = args[1]->dtype;
    return T::call(d, "if_then_else", std::move(args));
  }
  if (name == "Not") {
    std::vector<T::PrimExpr> args = callArgs();
    need(args, 1);
    return T::logicalNot(args[0]);
  }
  if (name == "pow" || floatMathFunction(name)) {
    std::vector<T::PrimExpr> args = callArgs();
    need(args, name == "pow" ? 2 : 1);
    if (name == "pow") unify(args[0], args[1]);
    DataType d = args[0]->dtype;
    return T::call(d, name, std::move(args));
  }
  if (name == "let" || name == "Let") return letExpr(at, name);
  if (name == "call_extern" || name == "call_pure_extern" || name == "call_packed")
    p_.fail(at, "T." + name + ": passlab's TIR calls only its intrinsics and other PrimFuncs of the module");
  if (name == "Ramp" || name == "Broadcast" || name == "Shuffle") p_.fail(at, "T." + name + ": passlab's TIR is scalar (vector lanes come from T.vectorized loops)");
  p_.fail(at, "unknown TIR name T." + name + " in an expression" + scriptNameHint(name));
}

std::string TirReader::scriptNameHint(std::string_view name) {
  // Names of one TVM version that the other spells differently, then a near miss of a known name.
  static const std::vector<std::pair<std::string_view, std::string_view>> versions{
      {"sblock_alloc", "T.sblock_alloc_buffer (main) or T.alloc_buffer (releases)"},
      {"block_alloc_buffer", "T.sblock_alloc_buffer (main) or T.alloc_buffer (releases)"},
      {"tirx", "the TIR module is imported as T from tvm.script.tir (releases) or tvm.script.tirx (main)"}};
  for (const auto& [n, hint] : versions)
    if (name == n) return std::string("; did you mean ") + std::string(hint) + "?";
  static const std::vector<std::string_view> known{
      "block", "sblock", "init", "axis", "reads", "writes", "where", "block_attr", "sblock_attr", "alloc_buffer", "sblock_alloc_buffer",
      "decl_buffer", "allocate", "allocate_const", "match_buffer", "func_attr", "grid", "serial", "parallel", "vectorized", "unroll",
      "evaluate", "LetStmt", "Let", "let", "Assert", "Cast", "Select", "if_then_else", "max", "min", "floordiv", "floormod", "truncdiv", "truncmod", "exp",
      "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "fabs", "round", "floor", "ceil", "trunc", "pow", "float32",
      "float16", "float64", "int32", "int64", "int8", "int16", "uint8", "bool", "target", "Buffer", "handle"};
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t diag = row[0];
      row[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diag = up;
      }
    }
    return row[b.size()];
  };
  std::string_view best;
  size_t bestDistance = 3;
  for (std::string_view k : known) {
    size_t d = distance(name, k);
    if (d > 0 && d < bestDistance) best = k, bestDistance = d;
  }
  return best.empty() ? "" : "; did you mean T." + std::string(best) + "?";
}

DataType TirReader::dtypeArg(std::string_view what) {
  if (p_.check(PyTok::String)) {
    const PyToken& t = p_.take();
    std::string s = decodePyString(t.text);
    auto d = scriptDType(s);
    if (!d) p_.fail(t, "unknown data type \"" + s + "\"");
    return *d;
  }
  if (checkT("", 0) || (p_.peek().is(p_.tirAlias) && p_.check(PyTok::Dot, 1))) {
    acceptT();
    const PyToken& t = p_.expectAnyName(what);
    auto d = scriptDType(t.text);
    if (!d) p_.fail(t, "unknown data type T." + std::string(t.text));
    return *d;
  }
  p_.failExpected(what);
}

std::vector<int64_t> TirReader::shapeArg() {
  auto dim = [&]() {
    T::PrimExpr e = expr();
    const auto* i = T::as<T::IntImmNode>(e);
    if (!i || i->value < 0) p_.fail(p_.last(), "passlab's buffers have static shapes: a dimension must be a non-negative integer");
    return i->value;
  };
  std::vector<int64_t> shape;
  PyTok close;
  if (p_.accept(PyTok::LParen)) close = PyTok::RParen;
  else if (p_.accept(PyTok::LBracket)) close = PyTok::RBracket;
  else return {dim()};
  while (!p_.accept(close)) {
    shape.push_back(dim());
    if (!p_.accept(PyTok::Comma)) {
      p_.expect(close, "',' or the end of the shape");
      break;
    }
  }
  return shape;
}

}  // namespace passlab::tvmscript
