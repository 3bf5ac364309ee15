// Relax expressions in TVMScript: variables, globals, op calls (through the
// spelling table of tvmscript_ops.h), call_tir, constants, tuples, indexing,
// and the attribute literals of calls.
#include <climits>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/ir/shape_attr.h"
#include "core/text/tvmscript_module.h"
#include "core/text/tvmscript_ops.h"

namespace passlab::tvmscript {

bool ModuleParser::startsLiteral() const {
  const PyToken& t = peek();
  switch (t.kind) {
    case PyTok::Int:
    case PyTok::Float:
    case PyTok::String:
    case PyTok::Minus:
    case PyTok::LBracket:
    case PyTok::LBrace: return true;
    case PyTok::LParen: {
      // A tuple of literals (1, 2) is a literal; (x, y) is a Relax tuple.
      const PyToken& n = peek(1);
      return n.kind == PyTok::Int || n.kind == PyTok::Float || n.kind == PyTok::Minus || n.kind == PyTok::String ||
             (n.kind == PyTok::RParen) || n.is("True") || n.is("False") || n.is("None");
    }
    case PyTok::Name:
      if (t.is("True") || t.is("False") || t.is("None")) return true;
      if (t.is("float") && check(PyTok::LParen, 1)) return true;
      if (t.is(relaxAlias) && check(PyTok::Dot, 1))
        return peek(2).is("shape") || peek(2).is("prim_value") || peek(2).is("str") || peek(2).is("dtype") || peek(2).is("device");
      if (t.is(tirAlias) && check(PyTok::Dot, 1)) return true;
      return false;
    default: return false;
  }
}

bool ModuleParser::parenthesizedDim() const {
  // `(n + 1) * 2` or `(n + 1)` in a list of dims: a parenthesis without a
  // comma at its own depth (a tuple has one) over shape variables.
  if (shapeVars_.empty()) return false;
  int depth = 0;
  bool sawShapeVar = false;
  for (size_t k = 0;; ++k) {
    const PyToken& t = peek(k);
    switch (t.kind) {
      case PyTok::LParen: ++depth; break;
      case PyTok::RParen:
        // In Python a parenthesis without a comma is never a tuple.
        if (--depth == 0) return sawShapeVar;
        break;
      case PyTok::Comma:
        if (depth == 1) return false;
        break;
      case PyTok::Name:
        if (shapeVars_.count(std::string(t.text))) sawShapeVar = true;
        break;
      case PyTok::Int:
      case PyTok::Plus:
      case PyTok::Minus:
      case PyTok::Star:
      case PyTok::SlashSlash:
      case PyTok::Percent:
      case PyTok::Dot: break;
      default: return false;
    }
    if (k > 256) return false;
  }
}

AttrValue ModuleParser::parseLiteral() {
  Depth depth(*this);
  const PyToken& t = peek();
  if (accept(PyTok::Minus)) {
    const PyToken& n = peek();
    if (accept(PyTok::Int)) return AttrValue::integer(-intValue(n));
    if (accept(PyTok::Float)) return AttrValue::floating(-floatValue(n));
    failExpected("a number after '-'");
  }
  if (t.kind == PyTok::Int && (check(PyTok::Star, 1) || check(PyTok::Plus, 1) || check(PyTok::SlashSlash, 1) ||
                               check(PyTok::Percent, 1) || (check(PyTok::Minus, 1) && !check(PyTok::Comma, 2)))) {
    // A dimension that starts with a constant (TVM prints sizes as
    // R.shape([4 * (m * n)])): its value, or its text when symbolic.
    return shape::toAttr(parseShapeDim());
  }
  if (t.kind == PyTok::LParen && parenthesizedDim()) return shape::toAttr(parseShapeDim());
  if (accept(PyTok::Int)) return AttrValue::integer(intValue(t));
  if (accept(PyTok::Float)) return AttrValue::floating(floatValue(t));
  if (accept(PyTok::String)) return AttrValue::string(decodePyString(t.text));
  if (t.is("float") && check(PyTok::LParen, 1) && check(PyTok::String, 2)) {
    // float("nan"), float("inf"), float("-inf"): how Python spells the special values.
    take();
    take();
    const PyToken& v = take();
    expect(PyTok::RParen, "')'");
    std::string s = decodePyString(v.text);
    if (s == "nan") return AttrValue::floating(std::numeric_limits<double>::quiet_NaN());
    if (s == "inf") return AttrValue::floating(std::numeric_limits<double>::infinity());
    if (s == "-inf") return AttrValue::floating(-std::numeric_limits<double>::infinity());
    fail(v, "float(" + std::string(v.text) + ") is not a number passlab reads");
  }
  if (acceptName("True")) return AttrValue::boolean(true);
  if (acceptName("False")) return AttrValue::boolean(false);
  if (acceptName("None")) return AttrValue::none();
  if (check(PyTok::LBracket) || check(PyTok::LParen)) {
    PyTok close = check(PyTok::LBracket) ? PyTok::RBracket : PyTok::RParen;
    take();
    std::vector<AttrValue> items;
    while (!check(close)) {
      items.push_back(parseLiteral());
      if (!accept(PyTok::Comma)) break;
    }
    expect(close, close == PyTok::RBracket ? "']'" : "')'");
    return AttrValue::array(std::move(items));
  }
  if (accept(PyTok::LBrace)) {
    rewind(position() - 1);
    return AttrValue::dict(parseDictLiteral());
  }
  if (t.is(relaxAlias) && check(PyTok::Dot, 1) && peek(2).is("device")) {
    // R.device(device_type=1, index=0) (TVM's printed form) or R.device(1, 0):
    // the device of R.hint_on_device, as a dictionary.
    takeDotted("");
    expect(PyTok::LParen, "'('");
    AttrDict dev;
    int positional = 0;
    while (!check(PyTok::RParen)) {
      std::string key;
      if (check(PyTok::Name) && check(PyTok::Equal, 1)) {
        key = std::string(take().text);
        take();
      } else {
        key = positional++ == 0 ? "device_type" : "index";
      }
      const PyToken& v = expect(PyTok::Int, "an integer");
      if (key != "device_type" && key != "index") fail(v, "R.device takes device_type and index");
      dev.set(key, AttrValue::integer(intValue(v)));
      if (!accept(PyTok::Comma)) break;
    }
    expect(PyTok::RParen, "')'");
    return AttrValue::dict(std::move(dev));
  }
  if (t.is(relaxAlias) && check(PyTok::Dot, 1)) {
    std::string name = takeDotted("");
    expect(PyTok::LParen, "'('");
    AttrValue v;
    if (name == relaxAlias + ".prim_value" || name == relaxAlias + ".shape" || name == relaxAlias + ".str" ||
        name == relaxAlias + ".dtype") {
      if (name == relaxAlias + ".prim_value") noteSpelling(TvmScriptSpelling::Release, t);
      v = parseLiteral();
    } else {
      fail(t, "'" + name + "' is not a literal");
    }
    expect(PyTok::RParen, "')'");
    return v;
  }
  if (t.is(tirAlias) && check(PyTok::Dot, 1)) {
    std::string name = takeDotted("");
    expect(PyTok::LParen, "'('");
    AttrValue v = parseLiteral();
    expect(PyTok::RParen, "')'");
    std::string_view ty = name.size() > tirAlias.size() ? std::string_view(name).substr(tirAlias.size() + 1) : "";
    if (ty.starts_with("float") && v.kind() == AttrValue::Kind::Int) v = AttrValue::floating(static_cast<double>(v.asInt()));
    if (ty.empty() || !DataType::parse(ty)) fail(t, "'" + name + "' is not a typed constant");
    return v;
  }
  // A symbolic dimension in a list (R.shape([n, 8]), a reshape target): its
  // text, which the op's relation reads back (shape::dimsOfAttr).
  if (t.kind == PyTok::Name && shapeVars_.count(std::string(t.text)))
    return shape::toAttr(parseShapeDim());
  failExpected("a literal value");
}

AttrDict ModuleParser::parseDictLiteral() {
  Depth depth(*this);
  expect(PyTok::LBrace, "'{'");
  AttrDict out;
  while (!check(PyTok::RBrace)) {
    const PyToken& k = expect(PyTok::String, "a string key");
    expect(PyTok::Colon, "':'");
    AttrValue v = parseLiteral();
    out.set(decodePyString(k.text), std::move(v));
    if (!accept(PyTok::Comma)) break;
  }
  expect(PyTok::RBrace, "'}'");
  return out;
}

ScriptArg ModuleParser::parseOneArg() {
  // The binding's annotation types the binding, not its call's operands.
  struct Clear {
    Type& slot;
    Type saved;
    ~Clear() { slot = saved; }
  } clear{expectedType_, expectedType_};
  expectedType_ = nullptr;
  ScriptArg a;
  a.at = peek();
  if (check(PyTok::Name) && check(PyTok::Equal, 1)) {
    a.keyword = std::string(take().text);
    take();
  }
  if (check(PyTok::Name) && peek().is(relaxAlias) && check(PyTok::Dot, 1) &&
      (peek(2).is("Tensor") || peek(2).is("Tuple") || peek(2).is("Object") || peek(2).is("Any") ||
       peek(2).is("Shape") || peek(2).is("Prim") || peek(2).is("Callable"))) {
    a.isType = true;
    a.type = parseRelaxType();
    return a;
  }
  if ((a.keyword == "sinfo_args" || a.keyword == "ty_args") && (check(PyTok::LParen) || check(PyTok::LBracket)) &&
      peek(1).is(relaxAlias) && check(PyTok::Dot, 2)) {
    // The type arguments of a packed call: a tuple of types, `(R.Tensor(...),)`
    // as TVM prints it, or a list as tests write it.
    PyTok close = take().kind == PyTok::LParen ? PyTok::RParen : PyTok::RBracket;
    std::vector<Type> types;
    while (!check(close)) {
      types.push_back(parseRelaxType());
      if (!accept(PyTok::Comma)) break;
    }
    expect(close, close == PyTok::RParen ? "')'" : "']'");
    a.isType = true;
    a.typeList = true;
    a.type = tupleType(std::move(types));
    return a;
  }
  if (check(PyTok::LBracket) && peek(1).is(relaxAlias) && check(PyTok::Dot, 2) && peek(3).is("Tensor")) {
    // A list of output types.
    take();
    std::vector<Type> types;
    while (!check(PyTok::RBracket)) {
      types.push_back(parseRelaxType());
      if (!accept(PyTok::Comma)) break;
    }
    expect(PyTok::RBracket, "']'");
    a.isType = true;
    a.type = tupleType(std::move(types));
    return a;
  }
  if (startsLiteral()) {
    a.isLiteral = true;
    if (peek().is(relaxAlias) && check(PyTok::Dot, 1)) a.literalForm = std::string(peek(2).text);
    a.literal = parseLiteral();
    return a;
  }
  a.value = parseRelaxExpr();
  return a;
}

std::vector<ScriptArg> ModuleParser::parseCallArgs() {
  std::vector<ScriptArg> args;
  while (!check(PyTok::RParen)) {
    args.push_back(parseOneArg());
    if (!accept(PyTok::Comma)) break;
  }
  expect(PyTok::RParen, "')'");
  return args;
}

Expr ModuleParser::parseRelaxExpr() {
  Depth depth(*this);
  Expr e = parseRelaxPrimary();
  while (true) {
    if (check(PyTok::LBracket)) {
      const PyToken& open = take();
      const PyToken& i = expect(PyTok::Int, "a tuple index");
      expect(PyTok::RBracket, "']'");
      int64_t index = intValue(i);
      if (index > INT32_MAX) fail(i, "tuple index out of range");
      e = makeTupleGetItem(e, static_cast<int>(index), spanOf(open));
      continue;
    }
    if (check(PyTok::LParen)) {
      const PyToken& open = take();
      std::vector<ScriptArg> args = parseCallArgs();
      std::vector<Expr> values;
      for (const ScriptArg& a : args) {
        if (!a.value || !a.keyword.empty()) fail(a.at, "a call of a function takes Relax values as positional arguments");
        values.push_back(a.value);
      }
      e = makeCall(e, std::move(values), {}, spanOf(open));
      continue;
    }
    break;
  }
  switch (peek().kind) {
    case PyTok::Plus:
    case PyTok::Minus:
    case PyTok::Star:
    case PyTok::Slash:
    case PyTok::StarStar:
    case PyTok::SlashSlash:
    case PyTok::Less:
    case PyTok::Greater:
    case PyTok::EqEq:
      fail(peek(), "operator " + describe(peek()) + " between Relax values is not supported; write the op (R.add, R.multiply, ...)");
    default: break;
  }
  return e;
}

Expr ModuleParser::parseRelaxPrimary() {
  Depth depth(*this);
  const PyToken& t = peek();
  if (check(PyTok::LParen)) {
    take();
    Type saved = expectedType_;
    expectedType_ = nullptr;
    std::vector<Expr> fields;
    bool comma = false;
    while (!check(PyTok::RParen)) {
      fields.push_back(parseRelaxExpr());
      if (!accept(PyTok::Comma)) break;
      comma = true;
    }
    expect(PyTok::RParen, "')'");
    expectedType_ = saved;
    if (fields.size() == 1 && !comma) return fields[0];
    return makeTuple(std::move(fields), spanOf(t));
  }
  if (t.kind != PyTok::Name) {
    if (t.kind == PyTok::Int || t.kind == PyTok::Float)
      fail(t, "a bare number is not a Relax value; write R.const(" + std::string(t.text) + ", \"float32\")");
    failExpected("a Relax expression");
  }
  if (t.is("lambda")) fail(t, "lambdas are not TVMScript passlab reads");
  if (t.is("metadata") && check(PyTok::LBracket, 1)) {
    take();
    take();
    const PyToken& kind = expect(PyTok::String, "\"relax.expr.Constant\"");
    if (decodePyString(kind.text) != "relax.expr.Constant") fail(kind, "only metadata[\"relax.expr.Constant\"] references are read");
    expect(PyTok::RBracket, "']'");
    expect(PyTok::LBracket, "'['");
    const PyToken& idx = expect(PyTok::Int, "a constant index");
    expect(PyTok::RBracket, "']'");
    int64_t index = intValue(idx);
    if (index < 0 || index > INT32_MAX) fail(idx, "constant index out of range");
    // With a metadata statement (TVM's show_meta=True) the reference is its data.
    if (NDArray data = metadataConstant(idx, index, expectedType_); data.defined())
      return makeConstant(std::move(data), spanOf(t, last()));
    const auto* tt = as<TensorTypeNode>(expectedType_);
    if (!tt || tt->hasDynamicDim()) {
      // An operand: the op it is passed to tells its type (resolvePendingMeta).
      Var standIn = makeVar("metadata", nullptr, false, spanOf(t, last()));
      pendingMeta_[standIn.get()] = PendingMeta{index, spanOf(t, last())};
      return standIn;
    }
    // Placeholder data is made up in memory: bound its size as the Relay reader does.
    double bytes = std::max(1, tt->dtype.bytes());
    for (int64_t d : tt->shape) bytes *= static_cast<double>(d);
    if (bytes > double(size_t(1) << 30)) fail(t, "a metadata constant of more than 1 GiB cannot be made a placeholder");
    if (!metaNoted_) {
      note(spanOf(t), "metadata constants load as placeholders (deterministic made-up data of the annotated type)",
           "placeholder");
      metaNoted_ = true;
    }
    return makeConstant(NDArray::placeholder(tt->dtype, tt->shape, static_cast<int32_t>(index)), spanOf(t, last()));
  }
  if (Expr g = tryGlobalReference()) return g;
  if (t.is(relaxAlias) || t.is("relax")) {
    std::string name = takeDotted("");
    if (!check(PyTok::LParen)) fail(t, "'" + name + "' is not a Relax value (expected a call)");
    return parseRelaxCall(name, t);
  }
  if (const Expr* v = lookupLocal(t.text)) {
    take();
    return *v;
  }
  if (t.is(className_) || moduleAliases_.count(std::string(t.text))) fail(t, "expected Module.function");
  if (t.is("cls")) fail(t, "'cls' is not defined: add `cls = " + className_ + "` at the start of the function");
  fail(t, "undefined name '" + std::string(t.text) + "'");
}

}  // namespace passlab::tvmscript
