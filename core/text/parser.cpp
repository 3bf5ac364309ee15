// Parser infrastructure (tokens, diagnostics, recovery, scopes), module-level
// items, types and attribute values. Relay expressions are in parser_relay.cpp,
// PrimFuncs in parser_tir.cpp.
#include "core/text/parser.h"
#include "core/text/load_text.h"
#include "core/text/tvmscript.h"

#include <algorithm>
#include <bit>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/text/literal.h"
#include "core/ir/virtual_device.h"
#include "core/text/parser_impl.h"

namespace passlab {
namespace text {

Parser::Parser(std::string text, std::string fileName)
    : file_(std::make_shared<const SourceFile>(std::move(fileName), std::move(text))), lexer_(file_->text) {
  scopeStarts_.push_back(0);
}

// ---- Tokens ----------------------------------------------------------------

void Parser::fillLookahead(size_t k) {
  while (lookaheadCount_ <= k) {
    Token t = lexer_.next();
    lookaheadError_[lookaheadCount_] = t.kind == Tok::Error ? lexer_.errorMessage() : std::string();
    lookahead_[lookaheadCount_++] = t;
  }
}

const Token& Parser::rawPeek() {
  fillLookahead(0);
  return lookahead_[0];
}

const Token& Parser::peek(size_t k) {
  fillLookahead(k);
  if (lookahead_[k].kind == Tok::Error) fail(lookahead_[k], lookaheadError_[k]);
  return lookahead_[k];
}

Token Parser::take() {
  peek();
  Token t = lookahead_[0];
  for (size_t i = 1; i < lookaheadCount_; ++i) {
    lookahead_[i - 1] = lookahead_[i];
    lookaheadError_[i - 1] = std::move(lookaheadError_[i]);
  }
  --lookaheadCount_;
  lastTaken_ = t;
  return t;
}

bool Parser::accept(Tok kind) {
  if (!check(kind)) return false;
  take();
  return true;
}

bool Parser::acceptWord(std::string_view word) {
  if (!checkWord(word)) return false;
  take();
  return true;
}

Token Parser::expect(Tok kind, std::string_view what) {
  if (!check(kind)) failExpected(what);
  return take();
}

Token Parser::expectWord(std::string_view word, std::string_view what) {
  if (!checkWord(word)) failExpected(what);
  return take();
}

// ---- Diagnostics -------------------------------------------------------------

Span Parser::spanOf(const Token& first, const Token& last) const {
  Span s;
  s.file = file_;
  s.line = first.line;
  s.column = first.column;
  // Inclusive, like TextRange: the column of the last character.
  s.endLine = last.line;
  s.endColumn = last.text.empty() ? last.column : last.endColumn() - 1;
  return s;
}

void Parser::report(const Span& where, std::string message, std::string rule) {
  if (diagnostics_.size() >= kMaxErrors) throw TooManyErrors{};
  Diagnostic d;
  d.span = where;
  d.message = std::move(message);
  d.rule = std::move(rule);
  diagnostics_.push_back(std::move(d));
}

void Parser::fail(const Token& at, std::string message) {
  report(spanAt(at), std::move(message));
  throw ParseAbort{};
}

void Parser::reportMissing(std::string message) {
  Span s = spanAt(lastTaken_);
  s.column = lastTaken_.endColumn();
  s.endColumn = s.column;
  report(s, std::move(message));
}

std::string Parser::describe(const Token& t) {
  switch (t.kind) {
    case Tok::End: return "end of input";
    case Tok::String: return "string " + std::string(t.text.substr(0, 40));
    case Tok::Error: return "invalid input";
    default: {
      std::string text(t.text.substr(0, 40));
      return "'" + text + (t.text.size() > 40 ? "...'" : "'");
    }
  }
}

void Parser::failExpected(std::string_view what) {
  const Token& t = peek();
  fail(t, "expected " + std::string(what) + ", got " + describe(t));
}

Parser::Depth::Depth(Parser& p) : parser(p) {
  if (++parser.depth_ > kMaxNestingDepth) {
    --parser.depth_;
    parser.fail(parser.rawPeek(), "nesting too deep (more than " + std::to_string(kMaxNestingDepth) + " levels)");
  }
}

// ---- Recovery ------------------------------------------------------------------

Parser::Stop Parser::skipStatement(const Token& start) {
  lexer_.resetTo(start);
  lookaheadCount_ = 0;
  int braces = 0;
  auto pushBack = [this](const Token& t) {
    lookahead_[0] = t;
    lookaheadError_[0] = t.kind == Tok::Error ? lexer_.errorMessage() : std::string();
    lookaheadCount_ = 1;
  };
  while (true) {
    Token t = lexer_.next();
    switch (t.kind) {
      case Tok::End: pushBack(t); return Stop::End;
      case Tok::LBrace: ++braces; break;
      case Tok::RBrace:
        if (braces == 0) {
          pushBack(t);
          return Stop::RBrace;
        }
        --braces;
        break;
      case Tok::Semi:
        if (braces == 0) {
          lastTaken_ = t;
          return Stop::Semi;
        }
        break;
      case Tok::Ident:
        if (isTopLevelKeyword(t)) {
          pushBack(t);
          return Stop::TopLevel;
        }
        break;
      default: break;
    }
  }
}

void Parser::skipToTopLevel(const Token& itemStart) {
  if (lookaheadCount_ > 0) lexer_.resetTo(lookahead_[0]);
  lookaheadCount_ = 0;
  while (true) {
    Token t = lexer_.next();
    bool boundary = t.kind == Tok::End || isTopLevelKeyword(t) || (t.kind == Tok::Hash && t.column == 1);
    if (boundary && (t.kind == Tok::End || t.offset != itemStart.offset)) {
      lookahead_[0] = t;
      lookaheadCount_ = 1;
      return;
    }
  }
}

// ---- Scopes ------------------------------------------------------------------

void Parser::pushScope() { scopeStarts_.push_back(symbols_.size()); }

int* Parser::numericSlot(std::string_view name, bool grow) {
  constexpr size_t kMaxNumeric = size_t(1) << 24;
  if (name.empty() || name.size() > 8 || (name[0] == '0' && name.size() > 1)) return nullptr;
  size_t n = 0;
  for (char c : name) {
    if (c < '0' || c > '9') return nullptr;
    n = n * 10 + static_cast<size_t>(c - '0');
  }
  if (n >= kMaxNumeric) return nullptr;
  if (n >= numericIndex_.size()) {
    if (!grow) return nullptr;
    numericIndex_.resize(std::max(n + 1, numericIndex_.size() * 2), -1);
  }
  return &numericIndex_[n];
}

int* Parser::indexSlot(std::string_view name, bool create) {
  if (int* slot = numericSlot(name, create)) return slot;
  if (create) return &symbolIndex_.try_emplace(name, -1).first->second;
  auto it = symbolIndex_.find(name);
  return it == symbolIndex_.end() ? nullptr : &it->second;
}

void Parser::popScope() {
  size_t start = scopeStarts_.back();
  scopeStarts_.pop_back();
  if (start == 0) {
    // Leaving the outermost scope: forget everything at once.
    symbols_.clear();
    symbolIndex_.clear();
    std::fill(numericIndex_.begin(), numericIndex_.end(), -1);
    return;
  }
  while (symbols_.size() > start) {
    const Symbol& s = symbols_.back();
    if (int* slot = numericSlot(s.name, false)) {
      *slot = s.shadowed;
    } else if (s.shadowed >= 0) {
      symbolIndex_[s.name] = s.shadowed;
    } else {
      symbolIndex_.erase(s.name);
    }
    symbols_.pop_back();
  }
}

Parser::Symbol* Parser::define(const Token& nameToken, std::string_view name) {
  int* slot = indexSlot(name, true);
  int previous = *slot;
  uint32_t scope = static_cast<uint32_t>(scopeStarts_.size());
  if (previous >= 0 && symbols_[previous].scope == scope) {
    report(spanAt(nameToken), "duplicate definition of '%" + std::string(name) + "' (first defined at line " +
                                  std::to_string(symbols_[previous].line) + ")");
    return nullptr;
  }
  Symbol s;
  s.name = name;
  s.line = nameToken.line;
  s.shadowed = previous;
  s.scope = scope;
  symbols_.push_back(std::move(s));
  *slot = static_cast<int>(symbols_.size() - 1);
  return &symbols_.back();
}

const Parser::Symbol* Parser::lookup(std::string_view name) {
  int* slot = indexSlot(name, false);
  return slot && *slot >= 0 ? &symbols_[*slot] : nullptr;
}

void Parser::poison(const Token& nameToken, std::string_view name) {
  const Symbol* existing = lookup(name);
  if (existing && existing->scope == scopeStarts_.size()) return;
  Symbol* s = define(nameToken, name);
  if (s) s->poisoned = true;
}

// ---- Module ------------------------------------------------------------------

/// True for a token that can only start an expression, never a top-level item:
/// such text is a printed expression (TVM's `print(expr)`), not a module.
static bool startsExpression(const Token& t) {
  switch (t.kind) {
    case Tok::Local:
    case Tok::Int:
    case Tok::Float:
    case Tok::Minus:
    case Tok::LParen:
    case Tok::LBrace: return true;
    case Tok::Ident:
      return t.is("free_var") || t.is("let") || t.is("fn") || t.is("if") || t.is("meta") || t.is("const") ||
             t.is("True") || t.is("False") || findOp(t.text) != nullptr;
    default: return false;
  }
}

IRModule Parser::parseModule(std::vector<Diagnostic>* notes) {
  std::vector<Diagnostic> localNotes;
  try {
    loadMetadataSection();
    while (true) {
      Token start = rawPeek();
      try {
        const Token& t = peek();
        if (t.kind == Tok::End) break;
        if (functionLines_.empty() && startsExpression(t)) {
          parseExpressionModule(&localNotes);
          break;
        }
        parseTopLevelItem();
      } catch (const ParseAbort&) {
        skipToTopLevel(start);
      }
    }
    for (const GlobalRef& ref : globalRefs_)
      if (!functions_.count(ref.name)) report(ref.span, "undefined global '@" + ref.name + "'");
    if (diagnostics_.empty()) resolveDeferredPlaceholders();
  } catch (const TooManyErrors&) {
    Diagnostic d;
    d.message = "too many errors; stopping";
    d.rule = "parse";
    diagnostics_.push_back(std::move(d));
  } catch (const std::exception& e) {
    // Never expected; reported as a diagnostic (rule "internal", which the
    // fuzzer treats as a bug) rather than escaping as some other exception.
    Diagnostic d;
    d.span = spanAt(lastTaken_);
    d.message = std::string("internal error while parsing: ") + e.what();
    d.rule = "internal";
    diagnostics_.push_back(std::move(d));
  }
  if (!diagnostics_.empty()) throw DiagnosticError(std::move(diagnostics_));
  if (notes) {
    notePlaceholders(*notes);
    for (Diagnostic& d : localNotes) notes->push_back(std::move(d));
  }
  if (!moduleAttrs_.contains(module_attr::kPhase)) moduleAttrs_.set(module_attr::kPhase, AttrValue::integer(0));
  completeVirtualDeviceTable(notes);
  return makeModule(std::move(functions_), std::move(moduleAttrs_));
}

Expr Parser::parseStandaloneExpr() {
  exprMode_ = true;
  Expr result;
  try {
    try {
      loadMetadataSection();
      while (check(Tok::Hash)) parseHeaderAttribute();
      Token start = rawPeek();  // a copy: the lookahead slot changes as parsing goes on
      result = parseBlockBody(Tok::End, start);
    } catch (const ParseAbort&) {
    }
  } catch (const TooManyErrors&) {
    Diagnostic d;
    d.message = "too many errors; stopping";
    d.rule = "parse";
    diagnostics_.push_back(std::move(d));
  } catch (const std::exception& e) {
    Diagnostic d;
    d.span = spanAt(lastTaken_);
    d.message = std::string("internal error while parsing: ") + e.what();
    d.rule = "internal";
    diagnostics_.push_back(std::move(d));
  }
  if (!diagnostics_.empty()) throw DiagnosticError(std::move(diagnostics_));
  if (!result) throwError(spanAt(lastTaken_), "expression could not be parsed", "parse");
  return result;
}

void Parser::parseTopLevelItem() {
  const Token& t = peek();
  if (t.kind == Tok::Hash) return parseHeaderAttribute();
  if (t.is("def")) return parseDef();
  if (t.is("primfn")) return parsePrimFunc();
  if (t.is("type") || t.is("extern"))
    fail(t, "not supported: '" + std::string(t.text) +
                "' definitions (Relay algebraic data types); passlab's IR has tensors, tuples and functions only");
  fail(t, "expected 'def', 'primfn' or '#[...]' at the top level, got " + describe(t));
}

void Parser::parseHeaderAttribute() {
  Token hash = take();
  expect(Tok::LBracket, "'[' after '#'");
  if (checkWord("metadata") && peek(1).kind == Tok::RBracket) {
    // loadMetadataSection cuts a well-formed section off before lexing: this one has no JSON object.
    report(spanAt(hash), "TVM's #[metadata] section must be followed by its JSON object ({\"root\": ..., \"nodes\": "
                         "[...], \"b64ndarrays\": [...]})", "parse.metadata");
    // The JSON that follows is not Relay text: stop reading the file here.
    lookaheadCount_ = 0;
    lexer_.skipToEnd();
    return;
  }
  Token keyToken = peek();
  std::string key = parseAttrKey();
  expect(Tok::Equal, "'=' in the header attribute");
  Token valueToken = peek();
  AttrValue value = parseAttrValue();
  expect(Tok::RBracket, "']' to close the header attribute");
  if (key == "version" && keyToken.kind == Tok::Ident) {
    if (value.kind() != AttrValue::Kind::String) fail(valueToken, "the version must be a string such as \"0.0.5\"");
    return;
  }
  if (key == module_attr::kPhase &&
      (value.kind() != AttrValue::Kind::Int || value.asInt() < 0 || value.asInt() > 3))
    fail(valueToken, "module attribute 'phase' must be an integer from 0 (ingestion) to 3 (build)");
  if (moduleAttrs_.contains(key)) {
    report(spanAt(keyToken), "module attribute '" + key + "' is given twice");
    return;
  }
  moduleAttrs_.set(std::move(key), std::move(value));
}

void Parser::addFunction(const Token& nameToken, Expr fn) {
  std::string name(nameToken.text.substr(1));
  auto it = functionLines_.find(name);
  if (it != functionLines_.end()) {
    report(spanAt(nameToken), "duplicate definition of global '@" + name + "' (first defined at line " +
                                  std::to_string(it->second) + ")");
    return;
  }
  functionLines_[name] = nameToken.line;
  if (fn) functions_[name] = std::move(fn);
}

void Parser::parseDef() {
  Token defToken = take();
  Token nameToken = expect(Tok::Global, "a global name such as @main after 'def'");
  if (check(Tok::LBracket))
    fail(peek(), "not supported: type parameters (def @f[A](...)); passlab's functions are monomorphic");
  expect(Tok::LParen, "'(' to open the parameter list");
  ScopeGuard guard(*this);
  pushScope();
  std::vector<Var> params;
  AttrDict attrs;
  bool ok = parseParamList(params, attrs);
  Type ret;
  if (accept(Tok::Arrow)) ret = parseType();
  Token open = expect(Tok::LBrace, "'{' to open the function body");
  Expr body = parseBlockBody(Tok::RBrace, open);
  if (!ok || !body) {
    addFunction(nameToken, nullptr);  // still claims the name, so duplicates are reported
    return;
  }
  addFunction(nameToken, makeFunction(std::move(params), std::move(body), std::move(ret), std::move(attrs), spanFrom(defToken)));
}

// ---- Types ---------------------------------------------------------------------

std::vector<int64_t> Parser::parseShape() {
  expect(Tok::LParen, "'(' to open the shape");
  std::vector<int64_t> shape;
  while (!accept(Tok::RParen)) {
    if (accept(Tok::Question)) {
      shape.push_back(kDynamicDim);
    } else {
      if (check(Tok::Minus)) fail(peek(), "a dimension must not be negative");
      Token t = expect(Tok::Int, "a dimension (integer or '?')");
      std::string_view digits, suffix;
      splitNumber(t.text, &digits, &suffix);
      std::optional<DataType> d;
      if (!dtypeFromSuffix(suffix, &d) || (d && !d->isInt())) fail(t, "bad suffix on dimension " + describe(t));
      int64_t v = 0;
      if (parseIntValue(digits, false, DTypeCode::Int64, &v) != LiteralStatus::Ok)
        fail(t, "dimension " + describe(t) + " is out of range");
      shape.push_back(v);
    }
    if (!accept(Tok::Comma)) {
      expect(Tok::RParen, "',' or ')' in the shape");
      break;
    }
  }
  return shape;
}

DataType Parser::parseDType() {
  const Token& t = peek();
  if (t.kind != Tok::Ident) failExpected("a data type such as float32");
  if (auto d = DataType::parse(t.text)) {
    take();
    return *d;
  }
  fail(t, "unknown data type '" + std::string(t.text) +
              "' (expected bool, int8, int16, int32, int64, uint8, float16, float32 or float64)");
}

Type Parser::parseType() {
  Depth depth(*this);
  const Token& t = peek();
  if (t.kind == Tok::Question) {
    take();
    return nullptr;
  }
  if (t.kind == Tok::LParen) {
    take();
    std::vector<Type> fields;
    bool sawComma = false;
    while (!accept(Tok::RParen)) {
      fields.push_back(parseType());
      if (!accept(Tok::Comma)) {
        expect(Tok::RParen, "',' or ')' in the tuple type");
        break;
      }
      sawComma = true;
    }
    if (fields.size() == 1 && !sawComma) return fields[0];  // (T) is just T
    return tupleType(std::move(fields));
  }
  if (t.is("Tensor")) {
    take();
    expect(Tok::LBracket, "'[' after Tensor");
    std::vector<int64_t> shape = parseShape();
    expect(Tok::Comma, "',' between the shape and the data type");
    DataType d = parseDType();
    expect(Tok::RBracket, "']' to close the tensor type");
    return tensorType(std::move(shape), d);
  }
  if (t.is("fn")) {
    take();
    expect(Tok::LParen, "'(' after fn");
    std::vector<Type> params;
    while (!accept(Tok::RParen)) {
      params.push_back(parseType());
      if (!accept(Tok::Comma)) {
        expect(Tok::RParen, "',' or ')' in the function type");
        break;
      }
    }
    expect(Tok::Arrow, "'->' in the function type");
    Type ret = parseType();
    return funcType(std::move(params), std::move(ret));
  }
  if (t.is("Storage")) {
    // TVM prints the storage type as a type call without arguments: `Storage[]`.
    take();
    if (accept(Tok::LBracket)) expect(Tok::RBracket, "']' after Storage[ (the storage type takes no arguments)");
    return storageType();
  }
  if (t.kind == Tok::Ident) {
    if (auto d = DataType::parse(t.text)) {
      take();
      return tensorType({}, *d);
    }
    // TVM's parser reads a bare `int`/`float` as the 32-bit type and `bool` as bool.
    if (t.is("int") || t.is("float")) {
      DTypeCode code = t.is("int") ? DTypeCode::Int32 : DTypeCode::Float32;
      take();
      return tensorType({}, code);
    }
    if (t.is("uint"))
      fail(t, "type 'uint' is TVM's shorthand for uint32, which passlab has no tensors of (it has uint8)");
    fail(t, "unknown type '" + std::string(t.text) + "' (expected Tensor[(...), dtype], a data type such as float32, "
                                                     "a tuple type or a fn type)");
  }
  failExpected("a type");
}

// ---- Attribute values ------------------------------------------------------------

bool Parser::specialFloat(std::string_view word, DataType* dtype, bool* isNaN) {
  std::string_view rest;
  if (word.substr(0, 3) == "nan") {
    *isNaN = true;
  } else if (word.substr(0, 3) == "inf") {
    *isNaN = false;
  } else {
    return false;
  }
  rest = word.substr(3);
  if (rest.empty()) {
    *dtype = DTypeCode::Float32;
    return true;
  }
  std::optional<DataType> d;
  if (!dtypeFromSuffix(rest, &d) || !d || !d->isFloat()) return false;
  *dtype = *d;
  return true;
}

std::string Parser::parseAttrKey() {
  const Token& t = peek();
  if (t.kind == Tok::Ident) return std::string(take().text);
  if (t.kind == Tok::String) return decodeString(take().text);
  failExpected("an attribute name");
}

AttrValue Parser::parseAttrNumber(bool negative, const Token& signToken) {
  Token t = take();
  std::string_view digits, suffix;
  splitNumber(t.text, &digits, &suffix);
  std::optional<DataType> d;
  if (!dtypeFromSuffix(suffix, &d)) fail(t, "unknown literal suffix '" + std::string(suffix) + "'");
  bool isFloat = t.kind == Tok::Float || (d && d->isFloat());
  if (isFloat) {
    uint64_t bits = 0;
    if (digits.size() > 1 && (digits[1] == 'x' || digits[1] == 'X')) fail(t, "hex literals cannot be floats");
    LiteralStatus s = parseFloatBits(digits, negative, DTypeCode::Float64, &bits);
    if (s != LiteralStatus::Ok) fail(signToken, "number " + describe(t) + " is out of range");
    return AttrValue::floating(std::bit_cast<double>(bits));
  }
  int64_t v = 0;
  if (parseIntValue(digits, negative, DTypeCode::Int64, &v) != LiteralStatus::Ok)
    fail(signToken, "integer " + describe(t) + " is out of range for int64");
  return AttrValue::integer(v);
}

AttrValue Parser::parseAttrValue() {
  Depth depth(*this);
  const Token& t = peek();
  switch (t.kind) {
    case Tok::String: return AttrValue::string(decodeString(take().text));
    case Tok::Int:
    case Tok::Float: return parseAttrNumber(false, t);
    case Tok::Minus: {
      Token sign = take();
      if (check(Tok::Int) || check(Tok::Float)) return parseAttrNumber(true, sign);
      DataType d;
      bool isNaN = false;
      if (check(Tok::Ident) && specialFloat(peek().text, &d, &isNaN) && !isNaN) {
        take();
        return AttrValue::floating(-std::numeric_limits<double>::infinity());
      }
      failExpected("a number after '-'");
    }
    case Tok::LBracket: {
      take();
      std::vector<AttrValue> items;
      while (!accept(Tok::RBracket)) {
        items.push_back(parseAttrValue());
        if (!accept(Tok::Comma)) {
          expect(Tok::RBracket, "',' or ']' in the list");
          break;
        }
      }
      return AttrValue::array(std::move(items));
    }
    case Tok::LBrace: {
      take();
      AttrDict dict;
      while (!accept(Tok::RBrace)) {
        Token keyToken = peek();
        std::string key = parseAttrKey();
        expect(Tok::Colon, "':' after the dictionary key");
        AttrValue v = parseAttrValue();
        if (dict.contains(key)) fail(keyToken, "key \"" + key + "\" is given twice");
        dict.set(std::move(key), std::move(v));
        if (!accept(Tok::Comma)) {
          expect(Tok::RBrace, "',' or '}' in the dictionary");
          break;
        }
      }
      return AttrValue::dict(std::move(dict));
    }
    case Tok::Ident: {
      if (t.is("True") || t.is("False")) return AttrValue::boolean(take().text == "True");
      if (t.is("None")) {
        take();
        return AttrValue::none();
      }
      if (t.is("meta") && peek(1).kind == Tok::LBracket) return parseMetaAttrValue();
      DataType d;
      bool isNaN = false;
      if (specialFloat(t.text, &d, &isNaN)) {
        take();
        return AttrValue::floating(isNaN ? std::numeric_limits<double>::quiet_NaN()
                                         : std::numeric_limits<double>::infinity());
      }
      break;
    }
    default: break;
  }
  failExpected("an attribute value (number, string, True/False, None, [list] or {dict})");
}

void Parser::completeVirtualDeviceTable(std::vector<Diagnostic>* notes) {
  if (metaVirtualDevices_ == 0) return;
  std::vector<VirtualDevice> table;
  if (const AttrValue* given = moduleAttrs_.find(kVirtualDevicesAttr)) {
    for (const AttrValue& entry : given->asArray()) table.push_back(VirtualDevice::fromAttr(entry));
  } else if (metadata_) {
    table = metadata_->virtualDevices;
  }
  size_t known = table.size();
  if (known >= static_cast<size_t>(metaVirtualDevices_)) {
    if (!moduleAttrs_.contains(kVirtualDevicesAttr)) moduleAttrs_ = withVirtualDeviceTable(makeModule({}, moduleAttrs_), table)->attrs;
    return;
  }
  // As with constants: a reference the text does not back is kept as a
  // placeholder (device unknown), so the module still loads and plans.
  table.resize(static_cast<size_t>(metaVirtualDevices_));
  moduleAttrs_ = withVirtualDeviceTable(makeModule({}, moduleAttrs_), table)->attrs;
  if (notes) {
    Diagnostic d;
    d.severity = Severity::Note;
    d.rule = "parse.meta";
    d.message = "meta[VirtualDevice][" + std::to_string(known) +
                (metaVirtualDevices_ - 1 > static_cast<int64_t>(known) ? ".." + std::to_string(metaVirtualDevices_ - 1) : "") +
                "] " + (metaVirtualDevices_ - static_cast<int64_t>(known) == 1 ? "is a placeholder" : "are placeholders") +
                ": the text gives no device for " + (metaVirtualDevices_ - static_cast<int64_t>(known) == 1 ? "it" : "them") +
                " (no #[metadata] VirtualDevice entry and no #[virtual_devices = ...] table)";
    notes->push_back(std::move(d));
  }
}

AttrValue Parser::parseMetaAttrValue() {
  MetaHead head = parseMetaHead();
  const Token& kind = head.kind;
  int64_t index = head.index;
  // Attributes refer to objects TVM does not print inline: virtual devices
  // (core/ir/virtual_device.h), and constants such as memory.alloc_tensor's
  // const_shape, kept as references.
  if (kind.text != "VirtualDevice" && kind.text != "relay.Constant")
    fail(kind, "not supported: meta[" + std::string(kind.text) +
                   "][...] as an attribute value; passlab reads meta[VirtualDevice][N] and meta[relay.Constant][N] there");
  if (kind.text == "VirtualDevice") metaVirtualDevices_ = std::max<int64_t>(metaVirtualDevices_, index + 1);
  return AttrValue::metaRef(std::string(kind.text), index);
}

const OpDef* Parser::findOpCached(std::string_view name) {
  auto it = opCache_.find(name);
  if (it != opCache_.end()) return it->second;
  const OpDef* op = findOp(name);
  opCache_.emplace(name, op);
  return op;
}

}  // namespace text

namespace {
/// TVMScript is recognised by its content, or by a `.py` file name (one rule: detectTextSyntax).
bool isTvmScriptInput(std::string_view text, std::string_view fileName) {
  return detectTextSyntax(text, fileName) == TextSyntax::TVMScript;
}
}  // namespace

IRModule parseModule(std::string text, std::string fileName) {
  if (isTvmScriptInput(text, fileName)) return parseTvmScript(std::move(text), std::move(fileName));
  text::Parser parser(std::move(text), std::move(fileName));
  return parser.parseModule();
}

IRModule parseModule(std::string text, std::string fileName, std::vector<Diagnostic>* notes) {
  return parseModule(std::move(text), std::move(fileName), notes, nullptr);
}

IRModule parseModule(std::string text, std::string fileName, std::vector<Diagnostic>* notes, TextOrigin* origin) {
  if (isTvmScriptInput(text, fileName)) {
    TvmScriptSpelling spelling = TvmScriptSpelling::Release;
    IRModule mod = parseTvmScript(std::move(text), std::move(fileName), notes, &spelling);
    if (origin) *origin = TextOrigin{TextSyntax::TVMScript, spelling};
    return mod;
  }
  text::Parser parser(std::move(text), std::move(fileName));
  IRModule mod = parser.parseModule(notes);
  if (origin) *origin = TextOrigin{};
  return mod;
}

IRModule parseModuleFile(const std::string& path, std::vector<Diagnostic>* notes, TextOrigin* origin) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Diagnostic d;
    d.message = "cannot read file '" + path + "'";
    d.rule = "io";
    throw DiagnosticError(std::move(d));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parseModule(buffer.str(), path, notes, origin);
}

Expr parseExpr(std::string text, std::string fileName) {
  text::Parser parser(std::move(text), std::move(fileName));
  return parser.parseStandaloneExpr();
}

}  // namespace passlab
