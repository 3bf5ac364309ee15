// Graph-level (Relay) blocks and expressions.
//
// A block is `statement* result`. `%N = e;` names an expression (graph form:
// later uses of %N share the node), `let %x = e;` and `dataflow { ... }` wrap
// the rest of the block as their body, `free_var %x: T;` declares a variable.
// Let chains are folded from the back after the block is read, so a chain of
// 100k lets needs no recursion.
#include <bit>
#include <limits>

#include "core/ir/virtual_device.h"
#include "core/text/literal.h"
#include "core/text/parser_impl.h"

namespace passlab::text {

/// A `let` or `dataflow` statement waiting for the rest of its block as body.
struct Parser::BlockHeader {
  bool isLet = true;
  Var var;
  Expr value;
  std::vector<Binding> bindings;
  bool failed = false;
  Span span;
};

static bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

Var Parser::makeVarAt(const Token& nameToken, Type annotation, bool isDataflow) {
  return makeVar(std::string(nameToken.text.substr(1)), std::move(annotation), isDataflow, spanAt(nameToken));
}

bool Parser::parseParamList(std::vector<Var>& params, AttrDict& attrs) {
  bool ok = true;
  while (!accept(Tok::RParen)) {
    if (check(Tok::Local)) {
      Token nameToken = take();
      // TVM writes a parameter's device between its name and its type:
      // `%x {virtual_device=meta[VirtualDevice][0]}: Tensor[...]`.
      AttrValue device;
      if (accept(Tok::LBrace)) {
        while (!accept(Tok::RBrace)) {
          Token keyToken = peek();
          std::string key = parseAttrKey();
          expect(Tok::Equal, "'=' after the parameter attribute name");
          AttrValue value = parseAttrValue();
          if (key != "virtual_device")
            fail(keyToken, "unknown parameter attribute '" + key + "' (a parameter takes only virtual_device=...)");
          if (!value.isNone() && !isVirtualDeviceRef(value))
            fail(keyToken, "virtual_device must be meta[VirtualDevice][N], got " + value.toString());
          device = std::move(value);
          if (!accept(Tok::Comma)) {
            expect(Tok::RBrace, "'}' to close the parameter attributes");
            break;
          }
        }
      }
      Type annotation;
      if (accept(Tok::Colon)) annotation = parseType();
      Var v = device.isNone() ? makeVarAt(nameToken, annotation, false)
                              : makeVarOnDevice(std::string(nameToken.text.substr(1)), annotation, std::move(device),
                                                spanAt(nameToken));
      if (Symbol* s = define(nameToken, nameToken.text.substr(1)))
        s->value = v;
      else
        ok = false;
      params.push_back(std::move(v));
    } else if ((check(Tok::Ident) || check(Tok::String)) && peek(1).kind == Tok::Equal) {
      Token keyToken = peek();
      std::string key = parseAttrKey();
      take();  // '='
      AttrValue value = parseAttrValue();
      if (attrs.contains(key)) {
        report(spanAt(keyToken), "attribute '" + key + "' is given twice");
        ok = false;
      }
      attrs.set(std::move(key), std::move(value));
    } else {
      failExpected("a parameter (%name: Type) or an attribute (Key=Value)");
    }
    if (!accept(Tok::Comma)) {
      expect(Tok::RParen, "',' or ')' in the parameter list");
      break;
    }
  }
  return ok;
}

Expr Parser::parseBlockBody(Tok closing, const Token& open) {
  Depth depth(*this);
  ScopeGuard guard(*this);
  pushScope();
  std::vector<BlockHeader> headers;
  Expr result;
  bool haveResult = false;
  bool failed = false;
  while (true) {
    Token start = rawPeek();
    if (start.kind == Tok::RBrace || start.kind == Tok::End) break;
    if (closing == Tok::RBrace && isTopLevelKeyword(start)) {
      report(spanAt(start), "expected '}' to close the block opened at line " + std::to_string(open.line) +
                                " before " + describe(start));
      throw ParseAbort{};
    }
    try {
      const Token& t = peek();
      if (haveResult)
        fail(t, "expected '}' after the block's result expression, got " + describe(t) +
                    " (is a ';' missing before it?)");
      if (t.is("let")) {
        parseLetHeader(headers);
      } else if (t.kind == Tok::Local && peek(1).kind == Tok::Equal) {
        parseGraphBinding();
      } else if (t.is("free_var")) {
        parseFreeVar();
      } else if (t.is("dataflow") && peek(1).kind == Tok::LBrace) {
        parseDataflowBlock(headers);
      } else {
        result = parseExpr();
        haveResult = true;
        if (!result) failed = true;
      }
    } catch (const ParseAbort&) {
      failed = true;
      haveResult = true;  // whatever the statement was, do not also complain about a missing result
      Stop stop = skipStatement(start);
      if (stop == Stop::Semi) {
        haveResult = false;
        continue;
      }
      if (stop == Stop::RBrace) break;
      throw;  // end of input or the next top-level item: this block cannot be closed
    }
  }
  const Token& end = rawPeek();
  if (closing == Tok::RBrace) {
    if (end.kind != Tok::RBrace) {
      fail(end, "expected '}' to close the block opened at line " + std::to_string(open.line) + ", got " +
                    describe(end));
    }
    take();
  } else if (end.kind == Tok::RBrace) {
    fail(end, "unmatched '}'");
  }
  if (!haveResult && !failed) {
    report(spanAt(end), "expected an expression: a block ends with its result (after the last ';')");
    failed = true;
  }
  if (failed) return nullptr;
  for (const BlockHeader& h : headers)
    if (h.failed) return nullptr;
  Expr body = std::move(result);
  for (auto it = headers.rbegin(); it != headers.rend(); ++it) {
    if (it->isLet)
      body = makeLet(it->var, it->value, std::move(body), it->span);
    else
      body = makeDataflow(it->bindings, std::move(body), it->span);
  }
  return body;
}

void Parser::parseLetHeader(std::vector<BlockHeader>& headers) {
  Token letToken = take();
  Token nameToken = expect(Tok::Local, "a variable name such as %x after 'let'");
  std::string_view name = nameToken.text.substr(1);
  Type annotation;
  if (accept(Tok::Colon)) annotation = parseType();
  expect(Tok::Equal, "'=' in the let binding");
  Var var = makeVarAt(nameToken, annotation, false);
  // A function bound by let may call itself (Relay's recursive closures).
  bool recursive = checkWord("fn");
  if (recursive) {
    if (Symbol* s = define(nameToken, name)) s->value = var;
  }
  Expr value;
  try {
    value = parseExpr();
  } catch (const ParseAbort&) {
    // The variable still exists for the rest of the block: uses of it are not errors.
    if (!recursive)
      if (Symbol* s = define(nameToken, name)) s->value = var;
    throw;
  }
  if (!recursive)
    if (Symbol* s = define(nameToken, name)) s->value = var;
  BlockHeader h;
  h.var = std::move(var);
  h.value = value;
  h.failed = !value;
  h.span = spanFrom(letToken);
  headers.push_back(std::move(h));
  if (!accept(Tok::Semi)) reportMissing("expected ';' after the let binding of '%" + std::string(name) + "'");
}

void Parser::parseGraphBinding() {
  Token nameToken = take();
  take();  // '='
  std::string_view name = nameToken.text.substr(1);
  Expr value;
  try {
    value = parseExpr();
  } catch (const ParseAbort&) {
    poison(nameToken, name);
    throw;
  }
  if (Symbol* s = define(nameToken, name)) {
    s->value = value;
    s->poisoned = !value;
  }
  if (!accept(Tok::Semi)) reportMissing("expected ';' after the binding of '%" + std::string(name) + "'");
}

void Parser::parseFreeVar() {
  take();
  Token nameToken = expect(Tok::Local, "a variable name after 'free_var'");
  Type annotation;
  if (accept(Tok::Colon)) annotation = parseType();
  if (Symbol* s = define(nameToken, nameToken.text.substr(1))) {
    s->value = makeVarAt(nameToken, annotation, false);
    s->freeVar = true;
  }
  if (!accept(Tok::Semi)) reportMissing("expected ';' after the free_var declaration");
}

void Parser::parseDataflowBlock(std::vector<BlockHeader>& headers) {
  Token dataflowToken = take();
  Token open = take();  // '{'
  BlockHeader h;
  h.isLet = false;
  // Names bound inside the block stay visible after it (outputs are used by the
  // body; the well-formed checker polices dataflow variables escaping).
  while (!check(Tok::RBrace)) {
    if (check(Tok::End))
      fail(peek(), "expected '}' to close the dataflow block opened at line " + std::to_string(open.line));
    bool output = acceptWord("output");
    Token nameToken = expect(Tok::Local, "a binding such as '%lv0 = ...;' or 'output %gv0 = ...;'");
    std::string_view name = nameToken.text.substr(1);
    if (allDigits(name)) {
      if (output) fail(nameToken, "an output binding needs a variable name, not a number");
      expect(Tok::Equal, "'=' in the binding");
      Expr value;
      try {
        value = parseExpr();
      } catch (const ParseAbort&) {
        poison(nameToken, name);
        throw;
      }
      if (Symbol* s = define(nameToken, name)) {
        s->value = value;
        s->poisoned = !value;
      }
    } else {
      Type annotation;
      if (accept(Tok::Colon)) annotation = parseType();
      if (!check(Tok::Equal))
        fail(peek(), "expected '=' in the dataflow binding, got " + describe(peek()) +
                         " (is the '}' closing the dataflow block opened at line " + std::to_string(open.line) +
                         " missing?)");
      take();
      Expr value = parseExpr();
      Var var = makeVarAt(nameToken, annotation, !output);
      if (Symbol* s = define(nameToken, name)) s->value = var;
      if (!value) h.failed = true;
      h.bindings.push_back({std::move(var), std::move(value)});
    }
    if (!accept(Tok::Semi)) reportMissing("expected ';' after the binding of '%" + std::string(name) + "'");
  }
  take();  // '}'
  h.span = spanFrom(dataflowToken);
  headers.push_back(std::move(h));
}

Expr Parser::parseExpr() {
  Depth depth(*this);
  Token start = peek();
  Expr e = parsePrimary();
  while (true) {
    if (check(Tok::Dot)) {
      take();
      Token index = expect(Tok::Int, "a tuple index after '.'");
      int64_t i = 0;
      if (parseIntValue(index.text, false, DTypeCode::Int32, &i) != LiteralStatus::Ok)
        fail(index, "bad tuple index " + describe(index));
      if (e) e = makeTupleGetItem(e, static_cast<int>(i), spanFrom(start));
    } else if (check(Tok::LParen)) {
      e = parseCallArgs(e, nullptr, start, !e);
    } else {
      return e;
    }
  }
}

Expr Parser::parsePrimary() {
  const Token& t = peek();
  switch (t.kind) {
    case Tok::Local: return parseLocalRef();
    case Tok::Global: {
      Token g = take();
      std::string name(g.text.substr(1));
      Span span = spanAt(g);
      if (!exprMode_) globalRefs_.push_back({name, span});
      return makeGlobalVar(std::move(name), std::move(span));
    }
    case Tok::Int:
    case Tok::Float:
    case Tok::Minus: return parseScalarLiteral();
    case Tok::LParen: return parseParenthesized();
    case Tok::LBrace: {
      Token open = take();
      return parseBlockBody(Tok::RBrace, open);
    }
    case Tok::Ident: {
      if (t.is("fn")) return parseFunctionLiteral();
      if (t.is("if")) return parseIf();
      if (t.is("meta")) return parseMetaReference();
      if (t.is("const") && peek(1).kind == Tok::LParen) return parseConstLiteral();
      if (t.is("True") || t.is("False")) return parseScalarLiteral();
      if (t.is("match") || t.is("ref") || t.is("ref_read") || t.is("ref_write"))
        fail(t, "not supported: '" + std::string(t.text) + "' (" +
                    (t.is("match") ? "pattern matching over Relay algebraic data types"
                                   : "Relay's mutable references") +
                    "); passlab's IR has tensors, tuples and functions only");
      if (t.is("let") || t.is("dataflow") || t.is("free_var"))
        fail(t, "'" + std::string(t.text) + "' starts a statement; to use it inside an expression wrap it in { ... }");
      DataType d;
      bool isNaN = false;
      if (specialFloat(t.text, &d, &isNaN)) return parseScalarLiteral();
      return parseOpReference();
    }
    default: break;
  }
  failExpected("an expression");
}

Expr Parser::parseLocalRef() {
  Token t = take();
  std::string_view name = t.text.substr(1);
  if (const Symbol* found = lookup(name)) {
    if (found->poisoned) return nullptr;
    if (found->value) {
      auto* s = const_cast<Symbol*>(found);
      if (s->freeVar && !s->used) {
        // Free variables become @main's parameters in order of first use.
        s->used = true;
        if (auto v = std::dynamic_pointer_cast<const VarNode>(s->value)) freeVarsInOrder_.push_back(v);
      }
      return s->value;
    }
  }
  // `%t.0.1` lexes as one name; when no variable has that name it is %t projected.
  for (size_t dot = name.rfind('.'); dot != std::string_view::npos && dot > 0; dot = name.rfind('.', dot - 1)) {
    std::string_view rest = name.substr(dot + 1);
    bool numeric = !rest.empty();
    for (char c : rest) numeric = numeric && ((c >= '0' && c <= '9') || c == '.');
    if (!numeric) break;
    const Symbol* s = lookup(name.substr(0, dot));
    if (!s) continue;
    if (s->poisoned || !s->value) return nullptr;
    Expr e = s->value;
    size_t at = dot + 1;
    while (at <= name.size()) {
      size_t end = name.find('.', at);
      if (end == std::string_view::npos) end = name.size();
      int64_t index = 0;
      if (end == at || parseIntValue(name.substr(at, end - at), false, DTypeCode::Int32, &index) != LiteralStatus::Ok)
        fail(t, "bad tuple index in " + describe(t));
      e = makeTupleGetItem(e, static_cast<int>(index), spanAt(t));
      at = end + 1;
    }
    return e;
  }
  if (exprMode_ && check(Tok::Colon)) {
    // `%x: T` at its first use declares a free variable (parseExpr only).
    take();
    Type annotation = parseType();
    Var v = makeVarAt(t, annotation, false);
    if (Symbol* s = define(t, name)) {
      s->value = v;
      s->freeVar = s->used = true;
      freeVarsInOrder_.push_back(v);
    }
    return v;
  }
  report(spanAt(t), "undefined variable '%" + std::string(name) + "'", "parse.undefined-var");
  return nullptr;
}

Expr Parser::parseFunctionLiteral() {
  Token fnToken = take();
  expect(Tok::LParen, "'(' after fn");
  ScopeGuard guard(*this);
  pushScope();
  std::vector<Var> params;
  AttrDict attrs;
  bool ok = parseParamList(params, attrs);
  Type ret;
  if (accept(Tok::Arrow)) ret = parseType();
  Token open = expect(Tok::LBrace, "'{' to open the function body");
  Expr body = parseBlockBody(Tok::RBrace, open);
  if (!ok || !body) return nullptr;
  return makeFunction(std::move(params), std::move(body), std::move(ret), std::move(attrs), spanFrom(fnToken));
}

Expr Parser::parseIf() {
  Token ifToken = take();
  expect(Tok::LParen, "'(' after if");
  Expr cond = parseExpr();
  expect(Tok::RParen, "')' after the condition");
  Token open = expect(Tok::LBrace, "'{' to open the then-branch");
  Expr thenBranch = parseBlockBody(Tok::RBrace, open);
  expectWord("else", "'else' (a Relay if always has an else-branch)");
  Token open2 = expect(Tok::LBrace, "'{' to open the else-branch");
  Expr elseBranch = parseBlockBody(Tok::RBrace, open2);
  if (!cond || !thenBranch || !elseBranch) return nullptr;
  return makeIf(std::move(cond), std::move(thenBranch), std::move(elseBranch), spanFrom(ifToken));
}

Expr Parser::parseParenthesized() {
  Token open = take();
  if (accept(Tok::RParen)) return makeTuple({}, spanFrom(open));
  Expr first = parseExpr();
  if (accept(Tok::RParen)) return first;  // grouping
  std::vector<Expr> fields{first};
  bool failed = !first;
  while (accept(Tok::Comma)) {
    if (check(Tok::RParen)) break;
    Expr f = parseExpr();
    if (!f) failed = true;
    fields.push_back(std::move(f));
  }
  expect(Tok::RParen, "',' or ')' in the tuple");
  if (failed) return nullptr;
  return makeTuple(std::move(fields), spanFrom(open));
}

Expr Parser::parseOpReference() {
  Token name = take();
  if (const OpDef* op = findOpCached(name.text)) {
    if (check(Tok::LParen)) return parseCallArgs(opExpr(op->id), op, name, false);
    return opExpr(op->id);
  }
  if (DataType::parse(name.text))
    fail(name, "expected an expression, got the data type " + describe(name));
  report(spanAt(name), "unknown operator '" + std::string(name.text) + "'", "parse.unknown-op");
  if (check(Tok::LParen)) parseCallArgs(nullptr, nullptr, name, true);
  return nullptr;
}

Expr Parser::parseCallArgs(Expr callee, const OpDef* op, const Token& start, bool calleeFailed) {
  take();  // '('
  std::vector<Expr> args;
  AttrDict attrs;
  std::vector<std::pair<std::string, Token>> attrTokens;
  bool failed = calleeFailed;
  while (!accept(Tok::RParen)) {
    if ((check(Tok::Ident) || check(Tok::String)) && peek(1).kind == Tok::Equal) {
      Token keyToken = peek();
      std::string key = parseAttrKey();
      take();  // '='
      AttrValue value = parseAttrValue();
      if (attrs.contains(key)) {
        report(spanAt(keyToken), "attribute '" + key + "' is given twice");
        failed = true;
      }
      attrTokens.emplace_back(key, keyToken);
      attrs.set(std::move(key), std::move(value));
    } else {
      if (!attrs.empty()) fail(peek(), "positional argument after the attributes (attributes come last)");
      Expr arg = parseExpr();
      if (!arg) failed = true;
      args.push_back(std::move(arg));
    }
    if (!accept(Tok::Comma)) {
      expect(Tok::RParen, "',' or ')' in the argument list");
      break;
    }
  }
  Span span = spanFrom(start);
  if (failed && !op) return nullptr;
  if (!op) return makeCall(std::move(callee), std::move(args), std::move(attrs), std::move(span));
  try {
    // With a poisoned argument the call cannot be built, but its attributes can still be checked.
    if (failed) {
      canonicalizeAttrs(*op, attrs);
      return nullptr;
    }
    return makeOpCall(op->id, std::move(args), attrs, span);
  } catch (const std::exception& e) {
    std::string message = e.what();
    if (auto* de = dynamic_cast<const DiagnosticError*>(&e); de && !de->diagnostics().empty())
      message = de->diagnostics().front().message;
    // Point at the attribute the message names, if it names one.
    Span where = span;
    for (const auto& [key, token] : attrTokens)
      if (message.find("'" + key + "'") != std::string::npos) {
        where = spanAt(token);
        break;
      }
    report(where, message, "parse.attr");
    return nullptr;
  }
}

static uint64_t infinityBits(DataType d, bool negative) {
  uint64_t bits = d.code == DTypeCode::Float16 ? 0x7c00u : d.code == DTypeCode::Float32 ? 0x7f800000u : 0x7ff0000000000000ull;
  if (negative) bits |= uint64_t(1) << (d.bits() - 1);
  return bits;
}

Expr Parser::parseScalarLiteral() {
  Token start = peek();
  bool negative = accept(Tok::Minus);
  Token t = take();
  DataType dtype = DTypeCode::Int32;
  uint64_t bits = 0;
  if (t.kind == Tok::Ident) {
    bool isNaN = false;
    if (!negative && (t.text == "True" || t.text == "False")) {
      dtype = DTypeCode::Bool;
      bits = t.text == "True";
    } else if (specialFloat(t.text, &dtype, &isNaN)) {
      bits = isNaN ? canonicalNaNBits(dtype) : infinityBits(dtype, false);
      if (negative) bits |= uint64_t(1) << (dtype.bits() - 1);
    } else {
      fail(t, "expected a number after '-', got " + describe(t));
    }
  } else if (t.kind == Tok::Int || t.kind == Tok::Float) {
    std::string_view digits, suffix;
    splitNumber(t.text, &digits, &suffix);
    std::optional<DataType> d;
    if (!dtypeFromSuffix(suffix, &d))
      fail(t, "unknown literal suffix '" + std::string(suffix) + "' (use f, f16, f64, i8, i16, i64 or u8)");
    dtype = d ? *d : t.kind == Tok::Float ? DataType(DTypeCode::Float32) : DataType(DTypeCode::Int32);
    bool hex = digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X');
    if (hex) fail(t, "hex literals are only allowed inside const data");
    LiteralStatus status;
    if (dtype.isFloat()) {
      status = parseFloatBits(digits, negative, dtype, &bits);
    } else {
      if (t.kind == Tok::Float) fail(t, "a fractional number cannot have the integer suffix '" + std::string(suffix) + "'");
      int64_t v = 0;
      status = parseIntValue(digits, negative, dtype, &v);
      // As in TVM, an unsuffixed integer too large for int32 is an int64.
      if (status == LiteralStatus::OutOfRange && suffix.empty() &&
          parseIntValue(digits, negative, DTypeCode::Int64, &v) == LiteralStatus::Ok) {
        dtype = DTypeCode::Int64;
        status = LiteralStatus::Ok;
      }
      bits = static_cast<uint64_t>(v);
    }
    if (status == LiteralStatus::OutOfRange) {
      report(spanFrom(start), "literal " + std::string(negative ? "-" : "") + std::string(t.text) +
                                  " is out of range for " + std::string(dtype.name()));
      return nullptr;
    }
    if (status != LiteralStatus::Ok) fail(t, "malformed number " + describe(t));
  } else {
    fail(t, "expected a number after '-', got " + describe(t));
  }
  NDArray a(dtype, {});
  storeElementBits(a, 0, bits);
  return makeConstant(std::move(a), spanFrom(start));
}

uint64_t Parser::parseConstElement(DataType dtype) {
  Token start = peek();
  bool negative = accept(Tok::Minus);
  Token t = take();
  std::string where = " in const data of " + std::string(dtype.name());
  if (t.kind == Tok::Ident) {
    bool isNaN = false;
    DataType named;
    if (dtype.isBool() && !negative && (t.text == "True" || t.text == "False")) return t.text == "True";
    if (dtype.isFloat() && specialFloat(t.text, &named, &isNaN) && (t.text.size() == 3 || named == dtype)) {
      uint64_t bits = isNaN ? canonicalNaNBits(dtype) : infinityBits(dtype, false);
      if (negative) bits |= uint64_t(1) << (dtype.bits() - 1);
      return bits;
    }
    fail(t, "unexpected " + describe(t) + where);
  }
  if (t.kind != Tok::Int && t.kind != Tok::Float) fail(t, "expected a value" + where + ", got " + describe(t));
  std::string_view digits, suffix;
  splitNumber(t.text, &digits, &suffix);
  if (!suffix.empty()) fail(t, "no suffix is allowed" + where + " (the type gives the dtype)");
  uint64_t bits = 0;
  LiteralStatus status;
  if (digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X')) {
    if (negative) fail(start, "a hex bit pattern cannot be negative");
    status = parseHexBits(digits, dtype, &bits);
  } else if (dtype.isFloat()) {
    status = parseFloatBits(digits, negative, dtype, &bits);
  } else {
    if (t.kind == Tok::Float) fail(t, "expected an integer" + where + ", got " + describe(t));
    int64_t v = 0;
    status = parseIntValue(digits, negative, dtype, &v);
    bits = static_cast<uint64_t>(v);
    if (dtype.bits() < 64) bits &= (uint64_t(1) << dtype.bits()) - 1;
  }
  if (status == LiteralStatus::OutOfRange) fail(start, "value " + describe(t) + " is out of range" + where);
  if (status != LiteralStatus::Ok) fail(t, "malformed number " + describe(t) + where);
  return bits;
}

NDArray Parser::parseConstData(DataType dtype, const std::vector<int64_t>& shape, const Token& typeToken) {
  // Count with an overflow guard before allocating anything.
  constexpr int64_t kMaxElements = int64_t(1) << 32;
  int64_t expected = 1;
  for (int64_t d : shape) {
    if (d < 0) fail(typeToken, "constant data needs a static shape (no '?')");
    if (d != 0 && expected > kMaxElements / d) fail(typeToken, "constant is too large");
    expected *= d;
  }
  Token open = expect(Tok::LBracket, "'[' to open the constant's values");
  std::vector<uint64_t> values;
  while (!accept(Tok::RBracket)) {
    values.push_back(parseConstElement(dtype));
    if (static_cast<int64_t>(values.size()) > expected)
      fail(open, "const data has more than the " + std::to_string(expected) + " values its type needs");
    if (!accept(Tok::Comma)) {
      expect(Tok::RBracket, "',' or ']' in the constant's values");
      break;
    }
  }
  if (static_cast<int64_t>(values.size()) != expected)
    fail(open, "const data has " + std::to_string(values.size()) + " value" + (values.size() == 1 ? "" : "s") +
                   " but its type needs " + std::to_string(expected));
  NDArray a(dtype, shape);
  for (size_t i = 0; i < values.size(); ++i) storeElementBits(a, static_cast<int64_t>(i), values[i]);
  return a;
}

Expr Parser::parseConstLiteral() {
  Token constToken = take();
  expect(Tok::LParen, "'(' after const");
  Token typeToken = peek();
  Type type = parseType();
  auto* tensor = as<TensorTypeNode>(type);
  if (!tensor) fail(typeToken, "const needs a tensor type such as Tensor[(2, 2), float32]");
  expect(Tok::Comma, "',' after the constant's type");
  NDArray data = parseConstData(tensor->dtype, tensor->shape, typeToken);
  expect(Tok::RParen, "')' to close const(...)");
  return makeConstant(std::move(data), spanFrom(constToken));
}

}  // namespace passlab::text
