// Relax functions in TVMScript: signatures, types and statements (bindings,
// dataflow blocks, if/else, nested functions, return).
#include <algorithm>

#include "core/text/tvmscript_module.h"

namespace passlab::tvmscript {

namespace {
/// One statement of a body, before the body is folded into Let/Dataflow nodes.
struct BodyItem {
  bool dataflow = false;
  Binding binding;
  std::vector<Binding> block;
  Span span;
};

Expr fold(const std::vector<BodyItem>& items, Expr result) {
  for (size_t i = items.size(); i-- > 0;) {
    const BodyItem& it = items[i];
    result = it.dataflow ? makeDataflow(it.block, result, it.span) : makeLet(it.binding.var, it.binding.value, result, it.span);
  }
  return result;
}
}  // namespace

Function ModuleParser::parseRelaxFunction(const PyToken& decorator, bool isPrivate, bool isPure, std::string* name) {
  Depth depth(*this);
  const PyToken& defTok = expectName("def", "'def'");
  const PyToken& nameTok = expectAnyName("the function's name");
  *name = std::string(nameTok.text);
  size_t scopeMark = scope_.size();
  std::set<std::string> aliases = moduleAliases_;
  // A nested function sees the shape variables of the one around it.
  std::map<std::string, tir::Var> outerShapeVars = shapeVars_;
  expect(PyTok::LParen, "'(' after the function name");
  std::vector<Var> params;
  while (!check(PyTok::RParen)) {
    const PyToken& p = expectAnyName("a parameter name");
    if (!check(PyTok::Colon)) fail(p, "parameter '" + std::string(p.text) + "' needs a type annotation such as R.Tensor((1, 8), dtype=\"float32\")");
    take();
    Type t = parseRelaxType();
    for (const Var& q : params)
      if (q->name == p.text) fail(p, "duplicate parameter '" + std::string(p.text) + "'");
    params.push_back(defineVar(p, std::string(p.text), t, false));
    if (!accept(PyTok::Comma)) break;
  }
  expect(PyTok::RParen, "')'");
  Type ret;
  if (accept(PyTok::Arrow)) {
    if (checkName("None")) {
      take();
      ret = unitType();
    } else {
      ret = parseRelaxType();
    }
  }
  expectBlockStart("the function body");
  // R.func_attr({...}) comes first.
  AttrDict attrs;
  while (accept(PyTok::Newline)) {
  }
  if (check(PyTok::String)) {  // docstring
    take();
    expectEndOfStatement();
  }
  // TVM prints the shape variables' declarations before R.func_attr.
  while (tryShapeVarDeclaration()) {
    while (accept(PyTok::Newline)) {
    }
  }
  if (checkDotted(relaxAlias + ".func_attr")) {
    takeDotted("");
    expect(PyTok::LParen, "'('");
    attrs = parseDictLiteral();
    expect(PyTok::RParen, "')'");
    expectEndOfStatement();
  }
  if (!isPrivate && !attrs.contains(fn_attr::kGlobalSymbol)) {
    AttrDict withSymbol;
    withSymbol.set(fn_attr::kGlobalSymbol, AttrValue::string(*name));
    for (const auto& [k, v] : attrs.entries()) withSymbol.set(k, v);
    attrs = std::move(withSymbol);
  }
  if (!isPure) attrs.set("is_pure", AttrValue::integer(0));
  Expr body = parseRelaxBody(true);
  if (!pendingMeta_.empty()) {
    const PendingMeta& p = pendingMeta_.begin()->second;
    failAt(p.span, "cannot tell the type of metadata[\"relax.expr.Constant\"][" + std::to_string(p.index) +
                       "] from its use; bind it first with its type: `c: R.Tensor((...), dtype=\"...\") = metadata[...]`");
  }
  scope_.resize(scopeMark);
  moduleAliases_ = aliases;
  shapeVars_ = std::move(outerShapeVars);
  (void)decorator;
  return makeFunction(std::move(params), std::move(body), std::move(ret), std::move(attrs), spanOf(defTok, nameTok));
}

Expr ModuleParser::parseRelaxBody(bool functionBody) {
  Depth depth(*this);
  std::vector<BodyItem> items;
  size_t scopeMark = scope_.size();
  Expr result;
  auto bindTo = [&](const PyToken& at, const std::string& name, Type ann, Expr value) {
    bool df = inDataflow_ && !dataflowOutputs_.count(name);
    Var v = defineVar(at, name, ann, df);
    Binding b{v, std::move(value)};
    return b;
  };
  std::vector<Binding>* dfBlock = nullptr;
  auto addBinding = [&](Binding b, const Span& span) {
    if (dfBlock) {
      dfBlock->push_back(std::move(b));
      return;
    }
    BodyItem it;
    it.binding = std::move(b);
    it.span = span;
    items.push_back(std::move(it));
  };
  while (true) {
    if (accept(PyTok::Newline)) continue;
    if (check(PyTok::Dedent) || check(PyTok::End)) {
      accept(PyTok::Dedent);
      break;
    }
    const PyToken& t = peek();
    if (t.is("return")) {
      if (!functionBody) fail(t, "'return' is only allowed at the end of a function body");
      take();
      result = parseRelaxExpr();
      expectEndOfStatement();
      while (accept(PyTok::Newline)) {
      }
      if (!check(PyTok::Dedent) && !check(PyTok::End)) fail(peek(), "statements after 'return' are not TVMScript");
      accept(PyTok::Dedent);
      break;
    }
    if (t.is("with")) {
      take();
      if (!checkDotted(relaxAlias + ".dataflow")) fail(peek(), "the only 'with' block in a Relax function is 'with " + relaxAlias + ".dataflow():'");
      if (inDataflow_) fail(t, "dataflow blocks do not nest");
      takeDotted("");
      expect(PyTok::LParen, "'('");
      expect(PyTok::RParen, "')'");
      expectBlockStart("the dataflow block");
      // Pre-scan for R.output(...) to know which names leave the block.
      dataflowOutputs_.clear();
      {
        size_t save = position();
        int level = 0;
        while (!check(PyTok::End) && level >= 0) {
          if (check(PyTok::Indent)) ++level;
          else if (check(PyTok::Dedent)) --level;
          else if (level == 0 && checkDotted(relaxAlias + ".output")) {
            takeDotted("");
            if (accept(PyTok::LParen))
              while (check(PyTok::Name)) {
                dataflowOutputs_.insert(std::string(take().text));
                if (!accept(PyTok::Comma)) break;
              }
            continue;
          }
          take();
        }
        rewind(save);
      }
      BodyItem block;
      block.dataflow = true;
      block.span = spanOf(t);
      dfBlock = &block.block;
      inDataflow_ = true;
      bool sawOutput = false;
      while (true) {
        if (accept(PyTok::Newline)) continue;
        if (accept(PyTok::Dedent) || check(PyTok::End)) break;
        if (checkDotted(relaxAlias + ".output")) {
          takeDotted("");
          expect(PyTok::LParen, "'('");
          while (check(PyTok::Name)) {
            const PyToken& n = take();
            const Expr* v = lookupLocal(n.text);
            if (!v) fail(n, "R.output names '" + std::string(n.text) + "', which the block does not bind");
            if (!accept(PyTok::Comma)) break;
          }
          expect(PyTok::RParen, "')'");
          expectEndOfStatement();
          sawOutput = true;
          continue;
        }
        if (sawOutput) fail(peek(), "R.output must be the last statement of a dataflow block");
        // A binding inside the block.
        const PyToken& n = expectAnyName("a binding in the dataflow block");
        Type ann;
        if (accept(PyTok::Colon)) ann = parseRelaxType();
        expect(PyTok::Equal, "'=' of a binding");
        expectedType_ = bindingType_ = ann;
        Expr value = parseRelaxExpr();
        expectEndOfStatement();
        ann = bindingAnnotation(n, ann, value);
        block.block.push_back(bindTo(n, std::string(n.text), ann, value));
      }
      inDataflow_ = false;
      dfBlock = nullptr;
      // Dataflow variables are not visible after the block.
      for (Scoped& s : scope_) {
        if (const VarNode* v = as<VarNode>(s.value); v && v->isDataflow) s.name = "\x01";
      }
      items.push_back(std::move(block));
      continue;
    }
    if (t.is("if")) {
      const PyToken& ifTok = take();
      Expr cond = parseRelaxExpr();
      // Each branch ends with a binding of the same name; that name is bound to the If.
      auto branch = [&](std::string* name, Type* ann, const PyToken** at) {
        expectBlockStart("the branch");
        size_t mark = scope_.size();
        std::vector<BodyItem> bitems;
        std::string last;
        Type lastAnn;
        Expr lastValue;
        const PyToken* lastTok = nullptr;
        while (true) {
          if (accept(PyTok::Newline)) continue;
          if (accept(PyTok::Dedent) || check(PyTok::End)) break;
          if (lastTok) {
            BodyItem it;
            it.binding = bindTo(*lastTok, last, lastAnn, lastValue);
            bitems.push_back(std::move(it));
          }
          const PyToken& n = expectAnyName("a binding in the branch");
          lastTok = &n;
          last = std::string(n.text);
          lastAnn = nullptr;
          if (accept(PyTok::Colon)) lastAnn = parseRelaxType();
          expect(PyTok::Equal, "'=' of a binding (each branch of a Relax if ends by binding the result)");
          expectedType_ = bindingType_ = lastAnn;
          lastValue = parseRelaxExpr();
          expectEndOfStatement();
        }
        if (!lastTok) fail(peek(), "an empty branch");
        scope_.resize(mark);
        *name = last;
        *ann = lastAnn;
        *at = lastTok;
        return fold(bitems, lastValue);
      };
      std::string thenName, elseName;
      Type thenAnn, elseAnn;
      const PyToken *thenAt = nullptr, *elseAt = nullptr;
      Expr thenE = branch(&thenName, &thenAnn, &thenAt);
      while (accept(PyTok::Newline)) {
      }
      if (!checkName("else")) fail(peek(), "a Relax 'if' needs an 'else' branch");
      take();
      Expr elseE = branch(&elseName, &elseAnn, &elseAt);
      if (thenName != elseName)
        fail(*elseAt, "both branches must end by binding the same name ('" + thenName + "' and '" + elseName + "')");
      Expr ifE = makeIf(cond, thenE, elseE, spanOf(ifTok));
      Binding b = bindTo(*thenAt, thenName, thenAnn ? thenAnn : elseAnn, ifE);
      addBinding(std::move(b), spanOf(ifTok));
      continue;
    }
    if (t.is("for") || t.is("while")) fail(t, "'" + std::string(t.text) + "' loops in a Relax function are not TVMScript passlab reads");
    if (t.is("import") || t.is("from")) fail(t, "imports inside a function are not TVMScript passlab reads");
    if (t.is("lambda")) fail(t, "lambdas are not TVMScript passlab reads");
    if (t.is("pass")) {
      take();
      expectEndOfStatement();
      continue;
    }
    if (check(PyTok::At)) {
      const PyToken& at = take();
      if (!checkDotted(relaxAlias + ".function")) fail(peek(), "only @" + relaxAlias + ".function defines a nested function");
      takeDotted("");
      bool pure = true, priv = false;
      if (accept(PyTok::LParen)) {
        while (check(PyTok::Name)) {
          const PyToken& k = take();
          expect(PyTok::Equal, "'='");
          bool v = expectAnyName("True or False").is("True");
          if (k.is("pure")) pure = v;
          else if (k.is("private")) priv = v;
          if (!accept(PyTok::Comma)) break;
        }
        expect(PyTok::RParen, "')'");
      }
      expect(PyTok::Newline, "the end of the decorator line");
      std::string fname;
      const PyToken& nameTok = peek(1);
      Function fn = parseRelaxFunction(at, /*isPrivate=*/true, pure, &fname);
      (void)priv;
      addBinding(bindTo(nameTok, fname, nullptr, fn), spanOf(at));
      continue;
    }
    if (t.kind != PyTok::Name) fail(t, "expected a statement, got " + describe(t));
    // `cls = Module`
    if (check(PyTok::Equal, 1) && peek(2).is(className_) && (check(PyTok::Newline, 3) || check(PyTok::End, 3))) {
      moduleAliases_.insert(std::string(take().text));
      take();
      take();
      expectEndOfStatement();
      continue;
    }
    if (tryShapeVarDeclaration()) continue;
    if (check(PyTok::Colon, 1) || check(PyTok::Equal, 1)) {
      const PyToken& n = take();
      Type ann;
      if (accept(PyTok::Colon)) ann = parseRelaxType();
      if (!check(PyTok::Equal)) {
        if (check(PyTok::Newline)) fail(n, "a declaration without a value is not TVMScript passlab reads");
        failExpected("'='");
      }
      take();
      expectedType_ = bindingType_ = ann;
      Expr value = parseRelaxExpr();
      expectEndOfStatement();
      ann = bindingAnnotation(n, ann, value);
      addBinding(bindTo(n, std::string(n.text), ann, value), spanOf(n));
      continue;
    }
    if (check(PyTok::AugAssign, 1) || check(PyTok::Walrus, 1))
      fail(peek(1), describe(peek(1)) + " is Python, not TVMScript passlab reads");
    if (check(PyTok::Comma, 1)) fail(t, "tuple unpacking is not TVMScript passlab reads (bind the tuple, then index it)");
    // An expression statement (R.print(...)): bound to `_`.
    Expr value = parseRelaxExpr();
    expectEndOfStatement();
    addBinding(bindTo(t, "_", nullptr, value), spanOf(t));
  }
  if (!result) {
    if (functionBody) fail(last(), "a Relax function must end with 'return'");
    result = makeTuple({});
  }
  scope_.resize(scopeMark);
  return fold(items, result);
}

Type ModuleParser::parseRelaxType() {
  Depth depth(*this);
  const PyToken& start = peek();
  if (!check(PyTok::Name) || !start.is(relaxAlias)) failExpected("a Relax type such as " + relaxAlias + ".Tensor((1, 8), dtype=\"float32\")");
  std::string name = takeDotted("a type");
  std::string_view kind = name.size() > relaxAlias.size() ? std::string_view(name).substr(relaxAlias.size() + 1) : "";
  if (kind == "Tensor") {
    std::vector<int64_t> shape;
    std::vector<shape::Dim> dims;
    bool haveShape = false;
    int64_t ndim = -1;
    std::optional<DataType> dtype;
    std::string vdevice;
    if (accept(PyTok::LParen)) {
      int positional = 0;
      while (!check(PyTok::RParen)) {
        std::string key;
        if (check(PyTok::Name) && check(PyTok::Equal, 1)) {
          key = std::string(take().text);
          take();
        } else {
          key = positional++ == 0 ? "shape" : "dtype";
        }
        if (key == "shape") {
          if (acceptName("None")) {
          } else {
            bool list = check(PyTok::LBracket);
            if (!list && !check(PyTok::LParen)) failExpected("a shape such as (1, 8)");
            take();
            haveShape = true;
            while (!check(list ? PyTok::RBracket : PyTok::RParen)) {
              const PyToken& d = peek();
              shape::Dim dim = parseShapeDim();
              std::optional<int64_t> c = shape::asConstant(dim);
              if (c && *c < 0) fail(d, "dimension " + std::to_string(*c) + " is negative");
              // A constant expression is a static extent; anything else stays as written.
              dims.push_back(c ? shape::constant(*c) : dim);
              shape.push_back(c ? *c : kDynamicDim);
              if (!accept(PyTok::Comma)) break;
            }
            take();
          }
        } else if (key == "dtype" && acceptName("None")) {
          // dtype=None: TVM's void dtype.
        } else if (key == "dtype") {
          const PyToken& d = expect(PyTok::String, "a dtype string such as \"float32\"");
          std::string s = decodePyString(d.text);
          if (s != "void") {
            dtype = DataType::parse(s);
            if (!dtype) fail(d, "unknown dtype \"" + s + "\"");
          }
        } else if (key == "ndim") {
          bool neg = accept(PyTok::Minus);
          const PyToken& d = expect(PyTok::Int, "an integer");
          ndim = intValue(d) * (neg ? -1 : 1);
          if (ndim > 64) fail(d, "ndim " + std::to_string(ndim) + " is too large");
        } else if (key == "vdevice") {
          // TVM's device of a value (after R.to_vdevice): "kind:index" into the vdevice list.
          const PyToken& v = expect(PyTok::String, "a device such as \"llvm:0\"");
          vdevice = decodePyString(v.text);
          if (vdevice.empty() || vdevice.find(':') == std::string::npos)
            fail(v, "a vdevice is written \"kind:index\", such as \"llvm:0\"");
        } else {
          fail(last(), "unknown keyword '" + key + "' of " + name);
        }
        if (!accept(PyTok::Comma)) break;
      }
      expect(PyTok::RParen, "')'");
    }
    // No shape: ndim= dims all unknown, or (no ndim either) TVM's unknown rank;
    // no dtype (or "void"): TVM's void dtype.
    Type t;
    if (!haveShape) {
      t = tensorTypeOf(dtype, ndim < 0 ? -1 : ndim);
    } else {
      if (ndim >= 0 && static_cast<size_t>(ndim) != shape.size())
        fail(start, "ndim=" + std::to_string(ndim) + " disagrees with the shape's " + std::to_string(shape.size()) + " dimensions");
      DataType d = dtype.value_or(DataType(DTypeCode::Float32));
      t = dims.empty() ? tensorType(std::move(shape), d) : tensorType(std::move(shape), d, std::move(dims));
      if (!dtype) t = withUnknownDtype(t);
    }
    return vdevice.empty() ? t : withVDevice(t, vdevice);
  }
  if (kind == "Tuple") {
    std::vector<Type> fields;
    if (accept(PyTok::LParen)) {
      while (!check(PyTok::RParen)) {
        fields.push_back(parseRelaxType());
        if (!accept(PyTok::Comma)) break;
      }
      expect(PyTok::RParen, "')'");
    }
    return tupleType(std::move(fields));
  }
  if (kind == "Callable") {
    expect(PyTok::LParen, "'('");
    expect(PyTok::LParen, "'(' of the parameter types");
    std::vector<Type> ps;
    while (!check(PyTok::RParen)) {
      ps.push_back(parseRelaxType());
      if (!accept(PyTok::Comma)) break;
    }
    expect(PyTok::RParen, "')'");
    expect(PyTok::Comma, "','");
    Type r = parseRelaxType();
    if (accept(PyTok::Comma)) expectAnyName("True or False");
    expect(PyTok::RParen, "')'");
    return funcType(std::move(ps), std::move(r));
  }
  if (kind == "Object" || kind == "Any") {
    noteSpelling(kind == "Any" ? TvmScriptSpelling::Main : TvmScriptSpelling::Release, start);
    if (accept(PyTok::LParen)) expect(PyTok::RParen, "')' (" + name + " takes no arguments)");
    return objectType();
  }
  if (kind == "Shape") {
    // R.Shape, R.Shape([2, 4]), R.Shape(ndim=2)
    if (!accept(PyTok::LParen)) return shapeTypeOfRank(-1);
    Type out = shapeTypeOfRank(-1);
    while (!check(PyTok::RParen)) {
      std::string key = "values";
      const PyToken& keyTok = peek();
      if (check(PyTok::Name) && check(PyTok::Equal, 1)) {
        key = std::string(take().text);
        take();
      }
      if (key == "ndim") {
        const PyToken& d = expect(PyTok::Int, "an integer");
        int64_t n = intValue(d);
        if (n > 64) fail(d, "ndim " + std::to_string(n) + " is too large");
        out = shapeTypeOfRank(n);
      } else if (key == "values") {
        bool list = check(PyTok::LBracket);
        if (!list && !check(PyTok::LParen)) failExpected("the shape's values such as [2, 4]");
        take();
        std::vector<int64_t> values;
        std::vector<shape::Dim> dims;
        while (!check(list ? PyTok::RBracket : PyTok::RParen)) {
          const PyToken& d = peek();
          shape::Dim dim = parseShapeDim();
          std::optional<int64_t> c = shape::asConstant(dim);
          if (c && *c < 0) fail(d, "shape value " + std::to_string(*c) + " is negative");
          values.push_back(c.value_or(kDynamicDim));
          dims.push_back(c ? nullptr : dim);
          if (!accept(PyTok::Comma)) break;
        }
        take();
        out = shapeTypeSymbolic(std::move(values), std::move(dims));
      } else {
        fail(keyTok, "unknown keyword '" + key + "' of " + name + " (R.Shape takes values or ndim=)");
      }
      if (!accept(PyTok::Comma)) break;
    }
    expect(PyTok::RParen, "')'");
    return out;
  }
  if (kind == "Prim") {
    // R.Prim("int64"), R.Prim(dtype="float32"), R.Prim(value=4)
    expect(PyTok::LParen, "'(' after R.Prim");
    std::optional<DataType> dtype;
    std::optional<int64_t> value;
    shape::Dim symbolic;
    while (!check(PyTok::RParen)) {
      std::string key = "dtype";
      if (check(PyTok::Name) && check(PyTok::Equal, 1)) {
        key = std::string(take().text);
        take();
      }
      if (key == "dtype") {
        const PyToken& d = expect(PyTok::String, "a dtype string such as \"int64\"");
        dtype = DataType::parse(decodePyString(d.text));
        if (!dtype) fail(d, "unknown dtype " + std::string(d.text));
      } else if (key == "value") {
        if (check(PyTok::String) || check(PyTok::Name)) {
          // R.Prim(value="n") in a signature (defines n), R.Prim(value=n * 2) in a body.
          const PyToken& v = peek();
          shape::Dim d = parseShapeDim();
          if (std::optional<int64_t> c = shape::asConstant(d)) value = *c;
          else symbolic = d;
          if (dtype && *dtype != DataType(DTypeCode::Int64)) fail(v, "a symbolic R.Prim value is an int64");
          dtype = DataType(DTypeCode::Int64);
        } else {
          bool neg = accept(PyTok::Minus);
          const PyToken& v = peek();
          if (!check(PyTok::Int)) fail(v, "R.Prim's value is an integer or a shape expression such as n or \"n\"");
          take();
          value = intValue(v) * (neg ? -1 : 1);
        }
        if (!dtype) dtype = DataType(DTypeCode::Int64);
      } else {
        fail(last(), "unknown keyword '" + key + "' of " + name);
      }
      if (!accept(PyTok::Comma)) break;
    }
    expect(PyTok::RParen, "')'");
    if (!dtype) fail(start, "R.Prim needs a dtype or a value");
    if (symbolic) return primTypeOf(symbolic);
    return primType(*dtype, value);
  }
  fail(start, "unknown Relax type '" + name + "' (Relax types are R.Tensor, R.Tuple, R.Callable, R.Shape, R.Prim, R.Object/R.Any)");
}

}  // namespace passlab::tvmscript
