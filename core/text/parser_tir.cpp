// PrimFuncs: `primfn @name(%A: Buffer[(16), float32], %n: int32, Key=Value) { statements }`.
//
// Statements: for/if with braces, `assert(cond, "message");` (the rest of the
// block is what it guards), blocks (`block "name"(%v = spatial(0, 16, %i)) reads(...) { init { } ... }`), `%A[i] = v;`, `expr;` (Evaluate), bare `{ }`
// blocks, and the binding statements `let %x: int32 = v;`, `allocate %T: Buffer[...];`
// and `allocate_const %W: Buffer[...] = [values];`, each of which takes the rest
// of its block as body (folded from the back, so long chains need no recursion).
// Expressions use C precedence; min/max/floordiv/floormod/select are calls,
// casts are written dtype(x), intrinsics name(args) or name<dtype>(args),
// let expressions let(%x: int32 = value, body).
#include <algorithm>
#include <bit>
#include <limits>

#include "core/analysis/structural_equal.h"
#include "core/text/literal.h"
#include "core/text/parser_impl.h"
#include "core/text/syntax.h"

namespace passlab::text {

namespace {

/// A binding statement waiting for the rest of its block as body (an assert
/// binds nothing but guards what follows it the same way).
struct TirHeader {
  enum Kind : uint8_t { Let, Allocate, AllocateConst, Assert } kind = Let;
  tir::Var var;
  tir::PrimExpr value;
  tir::Buffer buffer;
  NDArray data;
  std::string errorKind, message;
};

tir::Stmt seqOf(std::vector<tir::Stmt> stmts) {
  if (stmts.size() == 1) return std::move(stmts[0]);
  return tir::seq(std::move(stmts));
}

std::optional<tir::BinaryOp> infixOp(Tok kind) {
  using tir::BinaryOp;
  switch (kind) {
    case Tok::Plus: return BinaryOp::Add;
    case Tok::Minus: return BinaryOp::Sub;
    case Tok::Star: return BinaryOp::Mul;
    case Tok::Slash: return BinaryOp::Div;
    case Tok::Percent: return BinaryOp::Mod;
    case Tok::EqEq: return BinaryOp::EQ;
    case Tok::NotEq: return BinaryOp::NE;
    case Tok::Less: return BinaryOp::LT;
    case Tok::LessEq: return BinaryOp::LE;
    case Tok::Greater: return BinaryOp::GT;
    case Tok::GreaterEq: return BinaryOp::GE;
    case Tok::AndAnd: return BinaryOp::And;
    case Tok::OrOr: return BinaryOp::Or;
    default: return std::nullopt;
  }
}

double floatFromBits(DataType d, uint64_t bits) {
  switch (d.code) {
    case DTypeCode::Float16: return Half::toFloatBits(static_cast<uint16_t>(bits));
    case DTypeCode::Float32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    default: return std::bit_cast<double>(bits);
  }
}

}  // namespace

void Parser::parsePrimFunc() {
  Token keyword = take();
  Token nameToken = expect(Tok::Global, "a global name such as @add_one after 'primfn'");
  expect(Tok::LParen, "'(' to open the parameter list");
  ScopeGuard guard(*this);
  pushScope();
  std::vector<tir::Param> params;
  AttrDict attrs;
  while (!accept(Tok::RParen)) {
    if (check(Tok::Local)) {
      parseTirParam(params);
    } else if ((check(Tok::Ident) || check(Tok::String)) && peek(1).kind == Tok::Equal) {
      Token keyToken = peek();
      std::string key = parseAttrKey();
      take();  // '='
      AttrValue value = parseAttrValue();
      if (attrs.contains(key)) fail(keyToken, "attribute '" + key + "' is given twice");
      attrs.set(std::move(key), std::move(value));
    } else {
      failExpected("a parameter (%A: Buffer[...] or %n: int32) or an attribute (key=value)");
    }
    if (!accept(Tok::Comma)) {
      expect(Tok::RParen, "',' or ')' in the parameter list");
      break;
    }
  }
  Token open = expect(Tok::LBrace, "'{' to open the body");
  tir::Stmt body = parseTirBlock(open);
  addFunction(nameToken, makePrimFunc(std::move(params), std::move(body), std::move(attrs), spanFrom(keyword)));
}

void Parser::parseTirParam(std::vector<tir::Param>& params) {
  Token nameToken = take();
  std::string name(nameToken.text.substr(1));
  expect(Tok::Colon, "':' and the parameter's type (Buffer[(...), dtype] or a data type)");
  tir::Param p;
  if (checkWord("Buffer")) {
    p.buffer = parseBufferType(name);
    p.var = tir::makeVar(name, p.buffer->dtype);
  } else {
    p.var = tir::makeVar(name, parseDType());
  }
  Symbol* s = define(nameToken, nameToken.text.substr(1));
  if (!s) throw ParseAbort{};
  s->tirVar = p.var;
  s->buffer = p.buffer;
  params.push_back(std::move(p));
}

tir::Buffer Parser::parseBufferType(std::string name) {
  Token keyword = expectWord("Buffer", "Buffer[(...), dtype]");
  expect(Tok::LBracket, "'[' after Buffer");
  std::vector<int64_t> shape = parseShape();
  for (int64_t d : shape)
    if (d == kDynamicDim) fail(keyword, "a buffer needs a static shape (no '?')");
  if (!limits::checkedElementCount(shape)) fail(keyword, limits::tooManyElementsMessage(shape));
  expect(Tok::Comma, "',' between the shape and the data type");
  DataType d = parseDType();
  expect(Tok::RBracket, "']' to close the buffer type");
  return tir::makeBuffer(std::move(name), d, std::move(shape));
}

tir::Stmt Parser::parseTirBlock(const Token& open) {
  Depth depth(*this);
  ScopeGuard guard(*this);
  pushScope();
  struct Entry {
    tir::Stmt stmt;
    int header = -1;
  };
  std::vector<Entry> entries;
  std::vector<TirHeader> headers;
  while (!check(Tok::RBrace)) {
    const Token& t = peek();
    if (t.kind == Tok::End)
      fail(t, "expected '}' to close the block opened at line " + std::to_string(open.line) + ", got end of input");
    if (t.is("assert") && peek(1).kind == Tok::LParen) {
      // assert(cond, "message"[, kind="ValueError"]);
      take();
      take();
      TirHeader h;
      h.kind = TirHeader::Assert;
      Token condToken = peek();
      h.value = parseTirExpr();
      if (!h.value->dtype.isBool()) fail(condToken, "an assert's condition must be bool (a comparison), not " + std::string(h.value->dtype.name()));
      expect(Tok::Comma, "',' and the assert's message");
      h.message = decodeString(expect(Tok::String, "the assert's message as a string").text);
      h.errorKind = tir::kDefaultAssertKind;
      if (accept(Tok::Comma)) {
        expectWord("kind", "kind=\"ValueError\" (the error kind) or ')'");
        expect(Tok::Equal, "'=' after kind");
        h.errorKind = decodeString(expect(Tok::String, "the error kind as a string").text);
      }
      expect(Tok::RParen, "')' to close the assert");
      expect(Tok::Semi, "';' after the assert statement");
      entries.push_back({nullptr, static_cast<int>(headers.size())});
      headers.push_back(std::move(h));
      continue;
    }
    if ((t.is("let") && peek(1).kind == Tok::Local) || t.is("allocate") || t.is("allocate_const")) {
      TirHeader h;
      Token keyword = take();
      Token nameToken = expect(Tok::Local, "a name such as %x");
      std::string name(nameToken.text.substr(1));
      if (keyword.text == "let") {
        h.kind = TirHeader::Let;
        std::optional<DataType> dtype;
        if (accept(Tok::Colon)) dtype = parseDType();
        expect(Tok::Equal, "'=' in the let statement");
        h.value = parseTirExpr();
        h.var = tir::makeVar(name, dtype ? *dtype : h.value->dtype);
      } else {
        expect(Tok::Colon, "':' and the buffer's type");
        h.buffer = parseBufferType(name);
        h.kind = keyword.text == "allocate" ? TirHeader::Allocate : TirHeader::AllocateConst;
        if (h.kind == TirHeader::AllocateConst) {
          expect(Tok::Equal, "'=' and the constant's values");
          if (checkWord("const") && peek(1).kind == Tok::LParen) {
            // Data whose shape differs from the buffer's: const(Tensor[...], [...]).
            take();
            take();
            Token typeToken = peek();
            auto* tensor = as<TensorTypeNode>(parseType());
            if (!tensor) fail(typeToken, "const needs a tensor type such as Tensor[(4), float16]");
            expect(Tok::Comma, "',' after the constant's type");
            h.data = parseConstData(tensor->dtype, tensor->shape, typeToken);
            expect(Tok::RParen, "')' to close const(...)");
          } else {
            h.data = parseConstData(h.buffer->dtype, h.buffer->shape, nameToken);
          }
        }
      }
      expect(Tok::Semi, "';' after the " + std::string(keyword.text) + " statement");
      Symbol* s = define(nameToken, nameToken.text.substr(1));
      if (!s) throw ParseAbort{};
      s->tirVar = h.var;
      s->buffer = h.buffer;
      entries.push_back({nullptr, static_cast<int>(headers.size())});
      headers.push_back(std::move(h));
      continue;
    }
    if (t.is("for")) {
      take();
      expect(Tok::LParen, "'(' after for");
      Token nameToken = expect(Tok::Local, "the loop variable such as %i");
      DataType dtype = DTypeCode::Int32;
      if (accept(Tok::Colon)) dtype = parseDType();
      expect(Tok::Comma, "',' after the loop variable");
      tir::PrimExpr min = parseTirExpr();
      expect(Tok::Comma, "',' after the loop start");
      tir::PrimExpr extent = parseTirExpr();
      tir::ForKind kind = tir::ForKind::Serial;
      if (accept(Tok::Comma)) {
        Token kindToken = expect(Tok::Ident, "a loop kind (serial, parallel, vectorized, unrolled)");
        auto k = forKindFromName(kindToken.text);
        if (!k) fail(kindToken, "unknown loop kind " + describe(kindToken) + " (serial, parallel, vectorized, unrolled)");
        kind = *k;
      }
      expect(Tok::RParen, "')' to close the loop header");
      Token bodyOpen = expect(Tok::LBrace, "'{' to open the loop body");
      ScopeGuard loopScope(*this);
      pushScope();
      tir::Var var = tir::makeVar(std::string(nameToken.text.substr(1)), dtype);
      if (Symbol* s = define(nameToken, nameToken.text.substr(1))) s->tirVar = var;
      tir::Stmt body = parseTirBlock(bodyOpen);
      entries.push_back({tir::forLoop(std::move(var), std::move(min), std::move(extent), kind, std::move(body))});
      continue;
    }
    if (t.is("if")) {
      take();
      expect(Tok::LParen, "'(' after if");
      tir::PrimExpr cond = parseTirExpr();
      expect(Tok::RParen, "')' after the condition");
      Token thenOpen = expect(Tok::LBrace, "'{' to open the then-branch");
      tir::Stmt thenCase = parseTirBlock(thenOpen);
      tir::Stmt elseCase;
      if (acceptWord("else")) {
        Token elseOpen = expect(Tok::LBrace, "'{' to open the else-branch");
        elseCase = parseTirBlock(elseOpen);
      }
      entries.push_back({tir::ifThenElse(std::move(cond), std::move(thenCase), std::move(elseCase))});
      continue;
    }
    if (t.is("block") && peek(1).kind == Tok::String) {
      entries.push_back({parseTirBlockStmt()});
      continue;
    }
    if (t.kind == Tok::LBrace) {
      Token inner = take();
      entries.push_back({parseTirBlock(inner)});
      continue;
    }
    Token start = t;
    tir::PrimExpr e = parseTirExpr();
    if (accept(Tok::Equal)) {
      auto* load = tir::as<tir::LoadNode>(e);
      if (!load) fail(start, "the left side of '=' must be a buffer element such as %A[%i]");
      tir::PrimExpr value = parseTirExpr();
      entries.push_back({tir::store(load->buffer, load->indices, std::move(value))});
    } else {
      entries.push_back({tir::evaluate(std::move(e))});
    }
    expect(Tok::Semi, "';' after the statement");
  }
  take();  // '}'
  // Fold from the back: each binding statement takes what follows it as body.
  std::vector<tir::Stmt> reversed;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (it->header < 0) {
      reversed.push_back(std::move(it->stmt));
      continue;
    }
    std::reverse(reversed.begin(), reversed.end());
    tir::Stmt body = seqOf(std::move(reversed));
    TirHeader& h = headers[it->header];
    tir::Stmt stmt;
    switch (h.kind) {
      case TirHeader::Let: stmt = tir::letStmt(h.var, h.value, std::move(body)); break;
      case TirHeader::Allocate: stmt = tir::allocate(h.buffer, std::move(body)); break;
      case TirHeader::AllocateConst: stmt = tir::allocateConst(h.buffer, h.data, std::move(body)); break;
      case TirHeader::Assert: stmt = tir::assertStmt(h.value, h.errorKind, h.message, std::move(body)); break;
    }
    reversed.clear();
    reversed.push_back(std::move(stmt));
  }
  std::reverse(reversed.begin(), reversed.end());
  return seqOf(std::move(reversed));
}

std::vector<tir::BufferRegion> Parser::parseTirRegions(const char* clause) {
  expect(Tok::LParen, "'(' after " + std::string(clause));
  std::vector<tir::BufferRegion> out;
  while (!accept(Tok::RParen)) {
    Token nameToken = expect(Tok::Local, "a buffer region such as %A[%i, 0:16]");
    const Symbol* s = lookup(nameToken.text.substr(1));
    if (!s || !s->buffer) fail(nameToken, "undefined buffer " + describe(nameToken));
    tir::BufferRegion region{s->buffer, {}};
    expect(Tok::LBracket, "'[' after the buffer of a region");
    while (!accept(Tok::RBracket)) {
      tir::PrimExpr mn = parseTirExpr();
      tir::PrimExpr extent = tir::intImm(mn->dtype.isBool() ? DataType(DTypeCode::Int32) : mn->dtype, 1);
      if (accept(Tok::Colon)) {
        Token endToken = peek();
        tir::PrimExpr end = parseTirExpr();
        // end is min + extent: the printer folds literals and writes `min + extent` otherwise.
        const auto* m = tir::as<tir::IntImmNode>(mn);
        const auto* e = tir::as<tir::IntImmNode>(end);
        const auto* sum = tir::as<tir::BinaryNode>(end);
        if (m && e) extent = tir::intImm(mn->dtype, e->value - m->value);
        else if (sum && sum->op == tir::BinaryOp::Add && structuralEqual(sum->a, mn)) extent = sum->b;
        else extent = tir::binary(tir::BinaryOp::Sub, end, mn);
      }
      region.ranges.emplace_back(std::move(mn), std::move(extent));
      if (!accept(Tok::Comma)) {
        expect(Tok::RBracket, "',' or ']' in the region");
        break;
      }
    }
    if (region.ranges.size() != region.buffer->shape.size())
      fail(nameToken, "region of " + describe(nameToken) + " has " + std::to_string(region.ranges.size()) + " ranges for " +
                          std::to_string(region.buffer->shape.size()) + " dimensions");
    out.push_back(std::move(region));
    if (!accept(Tok::Comma)) {
      expect(Tok::RParen, "',' or ')' after a region");
      break;
    }
  }
  return out;
}

tir::Stmt Parser::parseTirBlockStmt() {
  Depth depth(*this);
  take();  // block
  std::string name = decodeString(take().text);
  expect(Tok::LParen, "'(' to open the block's iteration variables");
  // Bindings and domains are read in the enclosing scope; the variables are
  // defined for the rest of the block.
  std::vector<tir::BlockIterVar> ivs;
  std::vector<Token> ivTokens;
  while (!accept(Tok::RParen)) {
    Token nameToken = expect(Tok::Local, "an iteration variable such as %vi");
    DataType dtype = DTypeCode::Int32;
    if (accept(Tok::Colon)) dtype = parseDType();
    expect(Tok::Equal, "'=' and spatial(min, extent, binding) or reduce(...)");
    Token kindToken = expect(Tok::Ident, "spatial or reduce");
    if (kindToken.text != "spatial" && kindToken.text != "reduce")
      fail(kindToken, "expected spatial or reduce, got " + describe(kindToken));
    std::vector<tir::PrimExpr> args = parseTirArgs();
    if (args.size() != 3) fail(kindToken, std::string(kindToken.text) + " takes 3 arguments (min, extent, binding)");
    ivs.push_back({tir::makeVar(std::string(nameToken.text.substr(1)), dtype), args[0], args[1],
                   kindToken.text == "reduce" ? tir::IterKind::Reduce : tir::IterKind::Spatial, args[2]});
    ivTokens.push_back(nameToken);
    if (!accept(Tok::Comma)) {
      expect(Tok::RParen, "',' or ')' after an iteration variable");
      break;
    }
  }
  ScopeGuard guard(*this);
  pushScope();
  for (size_t i = 0; i < ivs.size(); ++i) {
    Symbol* s = define(ivTokens[i], ivTokens[i].text.substr(1));
    if (!s) throw ParseAbort{};
    s->tirVar = ivs[i].var;
  }
  tir::PrimExpr predicate;
  std::vector<tir::BufferRegion> reads, writes;
  std::vector<tir::Buffer> alloc;
  AttrDict annotations;
  if (acceptWord("where")) {
    expect(Tok::LParen, "'(' after where");
    predicate = parseTirExpr();
    expect(Tok::RParen, "')' after the predicate");
  }
  if (acceptWord("reads")) reads = parseTirRegions("reads");
  if (acceptWord("writes")) writes = parseTirRegions("writes");
  if (acceptWord("alloc")) {
    expect(Tok::LParen, "'(' after alloc");
    while (!accept(Tok::RParen)) {
      Token nameToken = expect(Tok::Local, "a scratch buffer such as %T");
      expect(Tok::Colon, "':' and the buffer's type");
      tir::Buffer b = parseBufferType(std::string(nameToken.text.substr(1)));
      Symbol* s = define(nameToken, nameToken.text.substr(1));
      if (!s) throw ParseAbort{};
      s->buffer = b;
      alloc.push_back(std::move(b));
      if (!accept(Tok::Comma)) {
        expect(Tok::RParen, "',' or ')' after a scratch buffer");
        break;
      }
    }
  }
  if (acceptWord("attrs")) {
    expect(Tok::LParen, "'(' after attrs");
    while (!accept(Tok::RParen)) {
      Token keyToken = peek();
      std::string key = parseAttrKey();
      expect(Tok::Equal, "'=' after the annotation's key");
      AttrValue value = parseAttrValue();
      if (annotations.contains(key)) fail(keyToken, "annotation '" + key + "' is given twice");
      annotations.set(std::move(key), std::move(value));
      if (!accept(Tok::Comma)) {
        expect(Tok::RParen, "',' or ')' after an annotation");
        break;
      }
    }
  }
  Token open = expect(Tok::LBrace, "'{' to open the block's body (or where/reads/writes/alloc/attrs in that order)");
  tir::Stmt init;
  if (checkWord("init") && peek(1).kind == Tok::LBrace) {
    take();
    Token initOpen = take();
    init = parseTirBlock(initOpen);
  }
  tir::Stmt body = parseTirBlock(open);
  return tir::block(std::move(name), std::move(ivs), std::move(predicate), std::move(reads), std::move(writes), std::move(alloc),
                    std::move(init), std::move(body), std::move(annotations));
}

tir::PrimExpr Parser::parseTirExpr(int minPrecedence) {
  Depth depth(*this);
  tir::PrimExpr lhs = parseTirUnary();
  while (true) {
    std::optional<tir::BinaryOp> op = infixOp(peek().kind);
    if (!op) return lhs;
    int precedence = tirPrecedence(*op);
    if (precedence < minPrecedence) return lhs;
    take();
    tir::PrimExpr rhs = parseTirExpr(precedence + 1);
    lhs = tir::binary(*op, std::move(lhs), std::move(rhs));
  }
}

tir::PrimExpr Parser::parseTirUnary() {
  if (check(Tok::Bang)) {
    Depth depth(*this);
    take();
    return tir::logicalNot(parseTirUnary());
  }
  if (check(Tok::Minus)) {
    Token sign = take();
    DataType d;
    bool isNaN = false;
    if (check(Tok::Int) || check(Tok::Float) || (check(Tok::Ident) && specialFloat(peek().text, &d, &isNaN)))
      return parseTirLiteral(true, sign);
    fail(sign, "unary '-' is only allowed before a number (write 0 - x)");
  }
  return parseTirPrimary();
}

tir::PrimExpr Parser::parseTirLiteral(bool negative, const Token& signToken) {
  Token t = take();
  if (t.kind == Tok::Ident) {
    DataType d;
    bool isNaN = false;
    if (!specialFloat(t.text, &d, &isNaN)) fail(t, "expected a number, got " + describe(t));
    double v = isNaN ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    return tir::floatImm(d, negative ? -v : v);
  }
  std::string_view digits, suffix;
  splitNumber(t.text, &digits, &suffix);
  std::optional<DataType> d;
  if (!dtypeFromSuffix(suffix, &d))
    fail(t, "unknown literal suffix '" + std::string(suffix) + "' (use f, f16, f64, i8, i16, i64 or u8)");
  DataType dtype = d ? *d : t.kind == Tok::Float ? DataType(DTypeCode::Float32) : DataType(DTypeCode::Int32);
  if (digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X')) fail(t, "hex literals are only allowed in const data");
  if (dtype.isFloat()) {
    uint64_t bits = 0;
    if (parseFloatBits(digits, negative, dtype, &bits) != LiteralStatus::Ok)
      fail(signToken, "literal " + describe(t) + " is out of range for " + std::string(dtype.name()));
    return tir::floatImm(dtype, floatFromBits(dtype, bits));
  }
  if (t.kind == Tok::Float) fail(t, "a fractional number cannot have an integer suffix");
  int64_t v = 0;
  if (parseIntValue(digits, negative, dtype, &v) != LiteralStatus::Ok)
    fail(signToken, "literal " + describe(t) + " is out of range for " + std::string(dtype.name()));
  return tir::intImm(dtype, v);
}

std::vector<tir::PrimExpr> Parser::parseTirArgs() {
  expect(Tok::LParen, "'(' to open the arguments");
  std::vector<tir::PrimExpr> args;
  while (!accept(Tok::RParen)) {
    args.push_back(parseTirExpr());
    if (!accept(Tok::Comma)) {
      expect(Tok::RParen, "',' or ')' in the arguments");
      break;
    }
  }
  return args;
}

std::vector<tir::PrimExpr> Parser::parseTirIndices(const tir::Buffer& buffer, const Token& at) {
  take();  // '['
  std::vector<tir::PrimExpr> indices;
  while (!accept(Tok::RBracket)) {
    indices.push_back(parseTirExpr());
    if (!accept(Tok::Comma)) {
      expect(Tok::RBracket, "',' or ']' in the indices");
      break;
    }
  }
  // One index into a multi-dimensional buffer addresses its flattened storage
  // (as the TIR interpreter and the code generator read it).
  if (indices.size() != buffer->shape.size() && indices.size() != 1)
    fail(at, "buffer '%" + buffer->name + "' has " + std::to_string(buffer->shape.size()) + " dimension" +
                 (buffer->shape.size() == 1 ? "" : "s") + " but " + std::to_string(indices.size()) + " index" +
                 (indices.size() == 1 ? " was" : "es were") + " given");
  return indices;
}

DataType Parser::parseOptionalCallType(DataType fallback) {
  if (!check(Tok::Less)) return fallback;
  take();
  DataType d = parseDType();
  expect(Tok::Greater, "'>' after the result type");
  return d;
}

tir::PrimExpr Parser::parseTirPrimary() {
  const Token& t = peek();
  switch (t.kind) {
    case Tok::Int:
    case Tok::Float: return parseTirLiteral(false, t);
    case Tok::LParen: {
      take();
      tir::PrimExpr e = parseTirExpr();
      expect(Tok::RParen, "')'");
      return e;
    }
    case Tok::Local: {
      Token nameToken = take();
      const Symbol* s = lookup(nameToken.text.substr(1));
      if (!s || (!s->tirVar && !s->buffer)) fail(nameToken, "undefined variable " + describe(nameToken));
      if (s->buffer && check(Tok::LBracket)) {
        tir::Buffer buffer = s->buffer;
        std::vector<tir::PrimExpr> indices = parseTirIndices(buffer, nameToken);
        return tir::load(std::move(buffer), std::move(indices));
      }
      if (!s->tirVar) fail(nameToken, "buffer " + describe(nameToken) + " must be indexed, as in %T[0]");
      return s->tirVar;
    }
    case Tok::Global: {
      Token nameToken = take();
      std::string name(nameToken.text.substr(1));
      globalRefs_.push_back({name, spanAt(nameToken)});
      DataType d = parseOptionalCallType(DTypeCode::Int32);
      std::vector<tir::PrimExpr> args = parseTirArgs();
      return tir::call(d, std::move(name), std::move(args), true);
    }
    case Tok::Ident: {
      Token name = take();
      if (name.text == "True" || name.text == "False") return tir::intImm(DTypeCode::Bool, name.text == "True");
      DataType special;
      bool isNaN = false;
      if (specialFloat(name.text, &special, &isNaN)) {
        return tir::floatImm(special, isNaN ? std::numeric_limits<double>::quiet_NaN()
                                            : std::numeric_limits<double>::infinity());
      }
      if (name.text == "let" && check(Tok::LParen)) {
        // let(%x: int32 = value, body): %x is bound in body only.
        Depth depth(*this);
        take();
        Token varToken = expect(Tok::Local, "the let's variable such as %x");
        std::optional<DataType> dtype;
        if (accept(Tok::Colon)) dtype = parseDType();
        expect(Tok::Equal, "'=' and the let's value");
        tir::PrimExpr value = parseTirExpr();
        expect(Tok::Comma, "',' and the let's body");
        ScopeGuard guard(*this);
        pushScope();
        tir::Var var = tir::makeVar(std::string(varToken.text.substr(1)), dtype ? *dtype : value->dtype);
        Symbol* s = define(varToken, varToken.text.substr(1));
        if (!s) throw ParseAbort{};
        s->tirVar = var;
        tir::PrimExpr body = parseTirExpr();
        expect(Tok::RParen, "')' to close the let");
        return tir::let(std::move(var), std::move(value), std::move(body));
      }
      if (name.text == "select") {
        std::vector<tir::PrimExpr> args = parseTirArgs();
        if (args.size() != 3) fail(name, "select takes 3 arguments (condition, true value, false value)");
        return tir::select(args[0], args[1], args[2]);
      }
      if (auto op = tirCallFormOp(name.text)) {
        std::vector<tir::PrimExpr> args = parseTirArgs();
        if (args.size() != 2) fail(name, std::string(name.text) + " takes 2 arguments");
        return tir::binary(*op, args[0], args[1]);
      }
      if (auto d = DataType::parse(name.text)) {
        std::vector<tir::PrimExpr> args = parseTirArgs();
        if (args.size() != 1) fail(name, "a cast to " + std::string(name.text) + " takes 1 argument");
        return tir::cast(*d, args[0]);
      }
      if (check(Tok::LParen) || check(Tok::Less)) {
        std::optional<DataType> annotated;
        if (check(Tok::Less)) annotated = parseOptionalCallType(DTypeCode::Int32);
        std::vector<tir::PrimExpr> args = parseTirArgs();
        DataType d = annotated ? *annotated : args.empty() ? DataType(DTypeCode::Int32) : args[0]->dtype;
        return tir::call(d, std::string(name.text), std::move(args), false);
      }
      fail(name, "unexpected " + describe(name) + " in an expression");
    }
    default: break;
  }
  failExpected("an expression");
}

}  // namespace passlab::text
