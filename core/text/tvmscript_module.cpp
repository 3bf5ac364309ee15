// The TVMScript module frame: imports, `@I.ir_module class Module:`, module
// attributes, decorators, global names; and the entry points of tvmscript.h.
#include "core/text/tvmscript_module.h"

#include "core/text/tvmscript_tir.h"

namespace passlab {

std::string_view textSyntaxName(TextSyntax s) { return s == TextSyntax::TVMScript ? "tvmscript" : "relay"; }

std::string constantReferenceText(TextSyntax syntax, int64_t n) {
  return syntax == TextSyntax::TVMScript ? "metadata[\"relax.expr.Constant\"][" + std::to_string(n) + "]"
                                         : "meta[relay.Constant][" + std::to_string(n) + "]";
}

std::optional<TextSyntax> textSyntaxFromName(std::string_view name) {
  if (name == "relay") return TextSyntax::Relay;
  if (name == "tvmscript" || name == "py") return TextSyntax::TVMScript;
  return std::nullopt;
}

bool looksLikeTvmScript(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.front() == '#') {
      std::string_view c = line.substr(1);
      while (!c.empty() && c.front() == ' ') c.remove_prefix(1);
      if (c.starts_with("from tvm.script import")) return true;
      if (line.starts_with("#[")) return false;  // Relay's #[version = ...] / #[metadata]
      continue;
    }
    return line.starts_with("from tvm.script import") || line.starts_with("import tvm") ||
           line.starts_with("@I.ir_module") || line.starts_with("@R.function") || line.starts_with("@T.prim_func") ||
           line.starts_with("@tvm.script.ir_module") || line.starts_with("metadata = tvm.ir.load_json(");
  }
  return false;
}

IRModule parseTvmScript(std::string text, std::string fileName, std::vector<Diagnostic>* notes,
                        TvmScriptSpelling* spelling) {
  tvmscript::ModuleParser parser(std::move(text), std::move(fileName));
  IRModule mod = parser.parseModule();
  if (notes) notes->insert(notes->end(), parser.notes().begin(), parser.notes().end());
  if (spelling) *spelling = parser.spelling();
  return mod;
}

}  // namespace passlab

namespace passlab::tvmscript {

IRModule ModuleParser::parseModule() {
  // The header comments say which modules are imported and under which spelling.
  for (const PyComment& c : comments()) {
    std::string_view t = c.text;
    if (!t.starts_with("from tvm.script import")) continue;
    if (t.find("tirx as") != std::string_view::npos) {
      PyToken at;
      at.line = c.line;
      at.column = c.column;
      at.endLine = c.line;
      at.endColumn = c.column;
      at.text = "tirx";
      noteSpelling(TvmScriptSpelling::Main, at);
    }
  }
  scanGlobals();
  bool sawItem = false;
  while (!check(PyTok::End)) {
    if (accept(PyTok::Newline)) continue;
    if (checkName("from") || checkName("import")) {
      parseImport();
      continue;
    }
    if (check(PyTok::At)) {
      if (checkDotted(irAlias + ".ir_module") || peek(1).is(irAlias) || peek(1).is("tvm")) {
        // `@I.ir_module`, `@I.ir_module(...)`, `@tvm.script.ir_module`
        parseModuleClass();
      } else {
        parseDecoratedFunction();
      }
      sawItem = true;
      continue;
    }
    const PyToken& t = peek();
    if (t.is("metadata") && check(PyTok::Equal, 1)) {
      parseMetadataStatement();
      continue;
    }
    if (t.is("def")) fail(t, "a function needs a decorator (@R.function or @T.prim_func) to be TVMScript");
    if (t.is("class")) fail(t, "a class needs the @I.ir_module decorator to be a TVMScript module");
    if (t.is("for") || t.is("while")) fail(t, "'" + std::string(t.text) + "' at module level is not TVMScript passlab reads");
    if (t.is("lambda")) fail(t, "lambdas are not TVMScript passlab reads");
    fail(t, "expected a TVMScript module (@I.ir_module class Module:) or a decorated function, got " + describe(t) +
                "; this Python is not TVMScript passlab reads");
  }
  if (!sawItem) fail(peek(), "no @I.ir_module, @R.function or @T.prim_func in the text");
  AttrDict attrs = moduleAttrs_;
  if (!attrs.contains(module_attr::kPhase)) attrs.set(module_attr::kPhase, AttrValue::integer(0));
  if (!vdevices_.empty()) attrs = withVirtualDeviceTable(makeModule({}, attrs), vdevices_)->attrs;
  return makeModule(std::move(functions_), std::move(attrs));
}

void ModuleParser::parseImport() {
  const PyToken& start = take();
  if (start.is("import")) {
    std::string mod = takeDotted("a module name");
    if (mod != "tvm" && !std::string_view(mod).starts_with("tvm.")) fail(start, "'import " + mod + "' is not TVMScript passlab reads (only tvm.script imports are)");
    if (acceptName("as")) expectAnyName("a name after 'as'");
    expectEndOfStatement();
    return;
  }
  std::string mod = takeDotted("a module name");
  if (mod != "tvm.script" && mod != "tvm") fail(start, "'from " + mod + " import' is not TVMScript passlab reads (only 'from tvm.script import ...' is)");
  expectName("import", "'import'");
  bool paren = accept(PyTok::LParen);
  while (true) {
    const PyToken& what = expectAnyName("a module name after 'import'");
    std::string alias(what.text);
    if (acceptName("as")) alias = std::string(expectAnyName("a name after 'as'").text);
    if (what.is("ir")) irAlias = alias;
    else if (what.is("relax")) relaxAlias = alias;
    else if (what.is("tir") || what.is("tirx")) {
      tirAlias = alias;
      if (what.is("tirx")) noteSpelling(TvmScriptSpelling::Main, what);
    } else if (!what.is("script")) {
      fail(what, "'" + std::string(what.text) + "' is not a tvm.script module passlab reads (ir, relax, tir, tirx)");
    }
    if (!accept(PyTok::Comma)) break;
  }
  if (paren) expect(PyTok::RParen, "')'");
  expectEndOfStatement();
}

namespace {
/// Reads `(key=value, ...)` of a decorator into flags; unknown keys are errors.
struct DecoratorFlags {
  bool isPrivate = false, pure = true, sTir = false;
};
}  // namespace

void ModuleParser::parseDecoratedFunction() {
  const PyToken& at = expect(PyTok::At, "'@'");
  const PyToken& head = peek();
  std::string deco = takeDotted("a decorator name");
  bool relax = deco == relaxAlias + ".function";
  bool tir = deco == tirAlias + ".prim_func";
  if (!relax && !tir) {
    if (deco == relaxAlias + ".macro" || deco == tirAlias + ".macro")
      fail(head, "'@" + deco + "' (macros that generate code) is not TVMScript passlab reads");
    fail(head, "unknown decorator '@" + deco + "': TVMScript functions are @" + relaxAlias + ".function and @" +
                   tirAlias + ".prim_func");
  }
  DecoratorFlags flags;
  if (accept(PyTok::LParen)) {
    while (!check(PyTok::RParen)) {
      const PyToken& key = expectAnyName("a decorator keyword");
      expect(PyTok::Equal, "'='");
      const PyToken& value = expectAnyName("True or False");
      if (!value.is("True") && !value.is("False")) fail(value, "expected True or False");
      bool v = value.is("True");
      if (key.is("private")) flags.isPrivate = v;
      else if (key.is("pure") && relax) flags.pure = v;
      else if (key.is("s_tir") && tir) {
        flags.sTir = v;
        noteSpelling(TvmScriptSpelling::Main, key);
      } else if (key.is("check_well_formed")) {
      } else fail(key, "unknown keyword '" + std::string(key.text) + "' of @" + deco);
      if (!accept(PyTok::Comma)) break;
    }
    expect(PyTok::RParen, "')'");
  }
  expect(PyTok::Newline, "the end of the decorator line");
  if (!checkName("def")) failExpected("'def' after the decorator");
  const PyToken& defTok = peek();
  std::string name;
  Expr fn;
  if (relax) {
    fn = parseRelaxFunction(at, flags.isPrivate, flags.pure, &name);
  } else {
    PrimFuncDecorator d;
    d.isPrivate = flags.isPrivate;
    d.sTir = flags.sTir;
    d.at = at;
    PrimFunc pf = parseScriptPrimFunc(*this, d, &name);
    if (!flags.isPrivate && !pf->attrs.contains(fn_attr::kGlobalSymbol)) {
      AttrDict attrs = pf->attrs;
      attrs.set(fn_attr::kGlobalSymbol, AttrValue::string(name));
      pf = std::make_shared<const PrimFuncNode>(pf->params, pf->body, std::move(attrs), pf->span);
    }
    fn = pf;
  }
  addFunction(defTok, name, fn);
}

void ModuleParser::addFunction(const PyToken& at, const std::string& name, Expr fn) {
  if (functions_.count(name)) fail(at, "function '" + name + "' is defined twice");
  functions_[name] = std::move(fn);
  functionLines_[name] = at.line;
}

void ModuleParser::parseModuleClass() {
  Depth depth(*this);
  expect(PyTok::At, "'@'");
  const PyToken& head = peek();
  std::string deco = takeDotted("a decorator name");
  if (deco != irAlias + ".ir_module" && deco != "tvm.script.ir_module")
    fail(head, "unknown decorator '@" + deco + "' (a TVMScript module is @" + irAlias + ".ir_module)");
  if (accept(PyTok::LParen)) {
    while (!check(PyTok::RParen)) {
      const PyToken& key = expectAnyName("a decorator keyword");
      expect(PyTok::Equal, "'='");
      const PyToken& value = expectAnyName("True or False");
      if (!key.is("s_tir") && !key.is("check_well_formed")) fail(key, "unknown keyword '" + std::string(key.text) + "' of @" + deco);
      if (key.is("s_tir")) noteSpelling(TvmScriptSpelling::Main, key);
      (void)value;
      if (!accept(PyTok::Comma)) break;
    }
    expect(PyTok::RParen, "')'");
  }
  expect(PyTok::Newline, "the end of the decorator line");
  expectName("class", "'class' after @" + deco);
  className_ = std::string(expectAnyName("the module's class name").text);
  if (accept(PyTok::LParen)) expect(PyTok::RParen, "')' (a module class has no base classes)");
  expectBlockStart("the module's functions");
  while (!accept(PyTok::Dedent)) {
    if (check(PyTok::End)) break;
    if (accept(PyTok::Newline)) continue;
    if (check(PyTok::At)) {
      parseDecoratedFunction();
      continue;
    }
    parseClassStatement();
  }
}

void ModuleParser::parseClassStatement() {
  const PyToken& t = peek();
  if (check(PyTok::String)) {  // a docstring
    take();
    expectEndOfStatement();
    return;
  }
  if (t.is("pass")) {  // the body of a module without functions, as TVM prints it
    take();
    expectEndOfStatement();
    return;
  }
  if (checkDotted(irAlias + ".module_attrs")) {
    takeDotted("");
    expect(PyTok::LParen, "'('");
    AttrDict attrs = parseDictLiteral();
    expect(PyTok::RParen, "')'");
    expectEndOfStatement();
    for (const auto& [k, v] : attrs.entries()) moduleAttrs_.set(k, v);
    return;
  }
  if (checkDotted(irAlias + ".module_global_infos")) {
    parseGlobalInfos();
    return;
  }
  if (t.is("def")) fail(t, "a function in the module needs a decorator (@R.function or @T.prim_func)");
  fail(t, "expected a decorated function in the module class, got " + describe(t) + "; this is not TVMScript passlab reads");
}

void ModuleParser::scanGlobals() {
  // `def NAME` right after a decorator line at module or class level.
  size_t save = position();
  int level = 0;
  bool afterDecorator = false;
  while (!check(PyTok::End)) {
    const PyToken& t = take();
    if (t.kind == PyTok::Indent) ++level;
    else if (t.kind == PyTok::Dedent) --level;
    else if (t.kind == PyTok::At && level <= 1) afterDecorator = true;
    else if (t.is("def") && afterDecorator && level <= 1 && check(PyTok::Name)) {
      globalNames_.insert(std::string(peek().text));
      afterDecorator = false;
    } else if (t.is("class")) {
      afterDecorator = false;
      if (check(PyTok::Name)) className_ = std::string(peek().text);
    }
  }
  rewind(save);
}

Expr ModuleParser::tryGlobalReference() {
  const PyToken& t = peek();
  if (t.kind != PyTok::Name) return nullptr;
  bool viaModule = (moduleAliases_.count(std::string(t.text)) || t.text == className_) && check(PyTok::Dot, 1) &&
                   check(PyTok::Name, 2);
  if (viaModule) {  // `cls.f`, or `Module.f` as written by hand without `cls = Module`
    take();
    take();
    const PyToken& name = take();
    if (!globalNames_.count(std::string(name.text)))
      fail(name, "'" + std::string(name.text) + "' is not a function of module " + className_);
    return makeGlobalVar(std::string(name.text), spanOf(t, name));
  }
  if (globalNames_.count(std::string(t.text)) && !lookupLocal(t.text)) {
    take();
    return makeGlobalVar(std::string(t.text), spanOf(t));
  }
  return nullptr;
}

const Expr* ModuleParser::lookupLocal(std::string_view name) const {
  for (size_t i = scope_.size(); i-- > 0;)
    if (scope_[i].name == name) return &scope_[i].value;
  return nullptr;
}

Var ModuleParser::defineVar(const PyToken& at, const std::string& name, Type annotation, bool isDataflow) {
  Var v = makeVar(name, std::move(annotation), isDataflow, spanOf(at));
  scope_.push_back({name, v});
  return v;
}

}  // namespace passlab::tvmscript
