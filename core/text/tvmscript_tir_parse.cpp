// Reading one `@T.prim_func` of TVMScript: the signature (buffers, handles
// with T.match_buffer, scalars), T.func_attr, and the statements: loops
// (`T.grid`, `range`, `T.serial/parallel/vectorized/unroll`), stores, if/else,
// lets (`with T.LetStmt(v) as x:`, `x: T.int32 = v`, main's `x: T.let[T.int32] = v`),
// asserts and let expressions (tvmscript_tir_bind.cpp),
// buffer declarations (`T.decl_buffer`, `with T.allocate(...) as x:`,
// `T.allocate_const`) and blocks (`T.block`/`T.sblock`, `T.axis.*`, `T.where`,
// `T.reads`, `T.writes`, `T.block_attr`, `T.alloc_buffer`, `with T.init():`).
// A function whose top level declares `T.alloc_buffer` or holds blocks gets
// TVM's implicit root block. What passlab's TIR cannot hold is refused with a
// located error naming it (thread bindings, while loops, ...).
#include <cmath>
#include <limits>

#include "core/analysis/structural_equal.h"
#include "core/ir/module.h"
#include "core/ir/tir_block_access.h"
#include "core/ir/tir_lower_blocks.h"
#include "core/text/tvmscript_tir_reader.h"

namespace passlab::tvmscript {

namespace T = passlab::tir;

namespace {
T::Stmt seqOf(std::vector<T::Stmt> stmts) {
  if (stmts.size() == 1) return std::move(stmts[0]);
  return T::seq(std::move(stmts));
}

/// Names passlab does not read, with why (and the other version's hint where there is one).
const char* refusal(std::string_view name) {
  if (name == "thread_binding") return "GPU thread bindings are not part of passlab's TIR (its targets are CPUs and Hexagon)";
  if (name == "attr" || name == "launch_thread" || name == "env_thread") return "attribute statements are not part of passlab's TIR";
  if (name == "While") return "passlab's TIR has no while loop";
  if (name == "match_buffer") return "T.match_buffer binds a function parameter: write it at the top of the function";
  return nullptr;
}
}  // namespace

PrimFunc TirReader::function(const PrimFuncDecorator& decorator, std::string* name) {
  const PyToken& def = p_.expectName("def", "'def' after the decorator");
  const PyToken& nameTok = p_.expectAnyName("the function's name");
  *name = std::string(nameTok.text);
  pushScope();
  p_.expect(PyTok::LParen, "'(' to open the parameters");
  while (!p_.accept(PyTok::RParen)) {
    const PyToken& pn = p_.expectAnyName("a parameter name");
    std::string pname(pn.text);
    p_.expect(PyTok::Colon, "':' and the parameter's type (T.Buffer(...), T.handle or T.int32)");
    if (!acceptT()) p_.failExpected("a TIR type such as T.Buffer((16,), \"float32\")");
    const PyToken& ty = p_.expectAnyName("a TIR type");
    T::Param param;
    if (ty.is("Buffer")) {
      p_.expect(PyTok::LParen, "'(' after T.Buffer");
      std::vector<int64_t> shape = shapeArg();
      DataType d = DTypeCode::Float32;
      if (p_.accept(PyTok::Comma) && !p_.check(PyTok::RParen)) {
        if (p_.checkName("dtype") && p_.check(PyTok::Equal, 1)) {
          p_.take();
          p_.take();
        }
        d = dtypeArg("the buffer's dtype");
        p_.accept(PyTok::Comma);
      }
      p_.expect(PyTok::RParen, "')' (passlab's buffers take a shape and a dtype only)");
      param.buffer = T::makeBuffer(pname, d, std::move(shape));
      param.var = T::makeVar(pname, d);
      define(pn, pname, {nullptr, param.buffer, param.var});
    } else if (ty.is("handle")) {
      if (p_.accept(PyTok::LParen)) p_.fail(p_.last(), "typed handles (T.handle(\"float32\")) are pointers, which passlab's TIR does not pass");
      handleParams_[pname] = params_.size();
      param.var = T::makeVar(pname, DTypeCode::Int64);
    } else if (auto d = scriptDType(ty.text)) {
      param.var = T::makeVar(pname, *d);
      define(pn, pname, {param.var, nullptr, nullptr});
    } else {
      p_.fail(ty, "unknown parameter type T." + std::string(ty.text));
    }
    params_.push_back(std::move(param));
    if (!p_.accept(PyTok::Comma)) {
      p_.expect(PyTok::RParen, "',' or ')' after a parameter");
      break;
    }
  }
  if (p_.accept(PyTok::Arrow)) {
    if (!p_.acceptName("None")) p_.fail(p_.peek(), "a PrimFunc returns nothing in passlab (-> None)");
  }
  p_.expectBlockStart("the function's body");
  atFunctionTop_ = true;
  T::Stmt body = suite();
  checkLetVarUses();
  for (const auto& [hname, index] : handleParams_)
    if (!params_[index].buffer) p_.fail(def, "parameter '" + hname + "' is a T.handle without a T.match_buffer");
  // TVM's ScriptComplete: a root block when the top level allocates or holds blocks.
  const auto* top = T::as<T::BlockNode>(body);
  if (!rootAllocs_.empty() || (top && !top->iterVars.empty()) || (!top && T::hasBlocks(body)))
    body = T::block("root", {}, nullptr, {}, {}, std::move(rootAllocs_), nullptr, body);
  if (decorator.sTir) attrs_.set(kSTirAttr, AttrValue::boolean(true));
  return makePrimFunc(std::move(params_), std::move(body), std::move(attrs_), p_.spanOf(def, nameTok));
}

T::Stmt TirReader::suite() {
  ScriptParser::Depth depth(p_);
  std::vector<T::Stmt> stmts;
  while (!p_.accept(PyTok::Dedent)) {
    if (p_.check(PyTok::End)) p_.failExpected("the end of the indented block");
    bool tookRest = false;
    if (T::Stmt s = statement(&tookRest)) stmts.push_back(std::move(s));
    if (tookRest) break;  // the statement read the rest of the suite as its body (Dedent included)
  }
  if (stmts.empty()) {
    if (block_ && atBlockTop_) return nullptr;  // a block whose statements were all declarations
    return T::evaluate(T::intImm(DTypeCode::Int32, 0));
  }
  return seqOf(std::move(stmts));
}

AttrValue TirReader::attrValue(const std::string& key) {
  const PyToken& t = p_.peek();
  if (t.kind == PyTok::String) return AttrValue::string(decodePyString(p_.take().text));
  if (t.is("True") || t.is("False")) return AttrValue::boolean(p_.take().is("True"));
  if (t.is("None")) return p_.take(), AttrValue::none();
  if (t.kind == PyTok::LBracket) {
    p_.take();
    std::vector<AttrValue> items;
    while (!p_.accept(PyTok::RBracket)) {
      items.push_back(attrValue(""));
      if (!p_.accept(PyTok::Comma)) {
        p_.expect(PyTok::RBracket, "',' or ']'");
        break;
      }
    }
    return AttrValue::array(std::move(items));
  }
  if (t.kind == PyTok::LBrace) return AttrValue::dict(attrDict());
  if (checkT("target")) {
    // T.target("llvm") or T.target({"kind": "llvm", "mcpu": ...}): passlab keeps the target string.
    acceptT();
    p_.take();
    p_.expect(PyTok::LParen, "'(' after T.target");
    std::string target;
    if (p_.check(PyTok::String)) {
      target = decodePyString(p_.take().text);
    } else {
      AttrDict config = attrDict();
      target = config.getString("kind", "");
      if (target.empty()) p_.fail(t, "T.target({...}) needs a \"kind\"");
      std::string mcpu = config.getString("mcpu", "");
      if (!mcpu.empty()) target += " -mcpu=" + mcpu;
    }
    p_.expect(PyTok::RParen, "')'");
    return AttrValue::string(target);
  }
  T::PrimExpr e = expr();
  if (const auto* i = T::as<T::IntImmNode>(e)) return e->dtype.isBool() ? AttrValue::boolean(i->value != 0) : AttrValue::integer(i->value);
  if (const auto* f = T::as<T::FloatImmNode>(e)) return AttrValue::floating(f->value);
  p_.fail(t, "attribute '" + key + "' must be a literal, string, list or dict");
}

AttrDict TirReader::attrDict() {
  p_.expect(PyTok::LBrace, "'{' to open a dict");
  AttrDict out;
  while (!p_.accept(PyTok::RBrace)) {
    const PyToken& k = p_.expect(PyTok::String, "a string key");
    std::string key = decodePyString(k.text);
    p_.expect(PyTok::Colon, "':' after the key");
    AttrValue v = attrValue(key);
    if (out.contains(key)) p_.fail(k, "key '" + key + "' is given twice");
    out.set(std::move(key), std::move(v));
    if (!p_.accept(PyTok::Comma)) {
      p_.expect(PyTok::RBrace, "',' or '}'");
      break;
    }
  }
  return out;
}

T::Stmt TirReader::statement(bool* tookRest) {
  const PyToken& t = p_.peek();
  if (t.is("for")) return forStatement();
  if (t.is("with")) return withStatement(tookRest);
  if (t.is("if")) return ifStatement();
  if (t.is("pass")) {
    p_.take();
    p_.expectEndOfStatement();
    return nullptr;
  }
  if (t.is("assert")) return assertStatement(tookRest);
  if (t.is("return")) p_.fail(t, "return: a PrimFunc writes its results into buffers");
  if (t.is("while")) p_.fail(t, "while: passlab's TIR has no while loop");
  if (t.is("def") || t.is("class") || t.is("import") || t.is("from") || t.is("lambda") || t.is("break") || t.is("continue"))
    p_.fail(t, "'" + std::string(t.text) + "' is Python, not TVMScript TIR");
  if (t.is(p_.tirAlias) && p_.check(PyTok::Dot, 1) && p_.check(PyTok::Name, 2)) {
    const PyToken& name = p_.peek(2);
    std::string n(name.text);
    bool inBlock = block_ && atBlockTop_;
    if (n == "func_attr") {
      if (!atFunctionTop_) p_.fail(name, "T.func_attr belongs at the top of the function");
      p_.take(), p_.take(), p_.take();
      p_.expect(PyTok::LParen, "'('");
      AttrDict d = attrDict();
      p_.expect(PyTok::RParen, "')'");
      p_.expectEndOfStatement();
      for (const auto& [k, v] : d.entries()) attrs_.set(k, v);
      return nullptr;
    }
    if (n == "reads" || n == "writes" || n == "where" || n == "block_attr" || n == "sblock_attr") {
      if (!inBlock) p_.fail(name, "T." + n + " belongs directly inside a block");
      p_.take(), p_.take(), p_.take();
      if (n == "sblock_attr") p_.noteSpelling(TvmScriptSpelling::Main, name);
      if (n == "block_attr") p_.noteSpelling(TvmScriptSpelling::Release, name);
      p_.expect(PyTok::LParen, "'('");
      if (n == "where") {
        block_->predicate = expr();
      } else if (n == "block_attr" || n == "sblock_attr") {
        AttrDict d = attrDict();
        for (const auto& [k, v] : d.entries()) block_->annotations.set(k, v);
      } else {
        auto& regions = n == "reads" ? block_->reads : block_->writes;
        (n == "reads" ? block_->haveReads : block_->haveWrites) = true;
        bool list = p_.accept(PyTok::LBracket);  // the older T.reads([A[i], B[i]]) form
        PyTok close = list ? PyTok::RBracket : PyTok::RParen;
        while (!p_.check(close)) {
          regions.push_back(region());
          if (!p_.accept(PyTok::Comma)) break;
        }
        if (list) p_.expect(PyTok::RBracket, "',' or ']' after a region");
      }
      p_.expect(PyTok::RParen, "')'");
      p_.expectEndOfStatement();
      return nullptr;
    }
    if (n == "evaluate") {
      p_.take(), p_.take(), p_.take();
      p_.expect(PyTok::LParen, "'('");
      T::PrimExpr e = expr();
      p_.expect(PyTok::RParen, "')'");
      p_.expectEndOfStatement();
      return T::evaluate(e);
    }
    if (const char* why = refusal(n)) p_.fail(name, "T." + n + ": " + why);
  }
  if (t.kind == PyTok::Name && (p_.check(PyTok::Equal, 1) || p_.check(PyTok::Colon, 1) || p_.check(PyTok::Comma, 1) ||
                                p_.check(PyTok::LBracket, 1)))
    return assignment(tookRest);
  const PyToken& start = p_.peek();
  T::PrimExpr e = expr();
  if (p_.check(PyTok::AugAssign)) p_.fail(p_.peek(), "augmented assignment is not TVMScript; write C[i] = C[i] + x");
  if (e->kind != T::PrimExprKind::Call) p_.fail(start, "an expression statement must be a call (or T.evaluate(...))");
  p_.expectEndOfStatement();
  return T::evaluate(e);
}

T::Stmt TirReader::forStatement() {
  p_.take();  // for
  std::vector<const PyToken*> names;
  do names.push_back(&p_.expectAnyName("a loop variable"));
  while (p_.accept(PyTok::Comma));
  p_.expectName("in", "'in' after the loop variables");
  std::vector<std::pair<T::PrimExpr, T::PrimExpr>> ranges;
  T::ForKind kind = T::ForKind::Serial;
  const PyToken& iterTok = p_.peek();
  std::string iter;
  if (acceptT()) iter = p_.expectAnyName("T.grid, T.serial, T.parallel, T.vectorized or T.unroll").text;
  else if (p_.acceptName("range")) iter = "range";
  else p_.failExpected("range(...) or T.grid(...)");
  if (iter == "thread_binding") p_.fail(iterTok, std::string("T.thread_binding: ") + refusal("thread_binding"));
  std::vector<T::PrimExpr> args = callArgs();
  if (iter == "grid") {
    if (args.size() != names.size()) p_.fail(iterTok, "T.grid has " + std::to_string(args.size()) + " extents for " + std::to_string(names.size()) + " variables");
    for (T::PrimExpr& e : args) ranges.emplace_back(TirReader::convertTo(T::intImm(DTypeCode::Int32, 0), e->dtype), e);
  } else {
    static const std::unordered_map<std::string, T::ForKind> kinds{{"range", T::ForKind::Serial}, {"serial", T::ForKind::Serial},
                                                                   {"parallel", T::ForKind::Parallel}, {"vectorized", T::ForKind::Vectorized},
                                                                   {"unroll", T::ForKind::Unrolled}};
    auto k = kinds.find(iter);
    if (k == kinds.end()) p_.fail(iterTok, "unknown loop T." + iter + " (range, T.grid, T.serial, T.parallel, T.vectorized, T.unroll)");
    kind = k->second;
    if (names.size() != 1) p_.fail(iterTok, iter + " gives one loop variable; use T.grid for several");
    if (args.empty() || args.size() > 2) p_.fail(iterTok, iter + " takes (extent) or (start, stop)");
    if (args.size() == 1) {
      ranges.emplace_back(TirReader::convertTo(T::intImm(DTypeCode::Int32, 0), args[0]->dtype), args[0]);
    } else {
      T::PrimExpr mn = args[0], end = args[1];
      if (mn->dtype != end->dtype) {
        if (T::as<T::IntImmNode>(mn)) mn = convertTo(mn, end->dtype);
        else end = convertTo(end, mn->dtype);
      }
      ranges.emplace_back(mn, extentOf(mn, end));
    }
  }
  p_.expectBlockStart("the loop's body");
  pushScope();
  std::vector<T::Var> vars;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!ranges[i].second->dtype.isInt() || !ranges[i].first->dtype.isInt()) p_.fail(iterTok, "a loop's range must be integers");
    vars.push_back(T::makeVar(std::string(names[i]->text), ranges[i].second->dtype));
    define(*names[i], std::string(names[i]->text), {vars.back(), nullptr, nullptr});
    loops_[vars.back().get()] = ranges[i];
  }
  bool top = atBlockTop_, fnTop = atFunctionTop_;
  atBlockTop_ = atFunctionTop_ = false;
  T::Stmt body = suite();
  atBlockTop_ = top, atFunctionTop_ = fnTop;
  popScope();
  for (size_t i = vars.size(); i-- > 0;) body = T::forLoop(vars[i], ranges[i].first, ranges[i].second, kind, body);
  return body;
}

T::Stmt TirReader::ifStatement() {
  p_.take();
  T::PrimExpr cond = expr();
  p_.expectBlockStart("the if's body");
  bool top = atBlockTop_, fnTop = atFunctionTop_;
  atBlockTop_ = atFunctionTop_ = false;
  pushScope();
  T::Stmt thenCase = suite();
  popScope();
  T::Stmt elseCase;
  if (p_.checkName("elif")) {
    elseCase = ifStatement();
  } else if (p_.acceptName("else")) {
    p_.expectBlockStart("the else's body");
    pushScope();
    elseCase = suite();
    popScope();
  }
  atBlockTop_ = top, atFunctionTop_ = fnTop;
  return T::ifThenElse(cond, thenCase, elseCase);
}

namespace {
/// A buffer declaration's arguments: `(shape[, dtype][, dtype=..., scope=...])`.
struct BufferDecl {
  std::vector<int64_t> shape;
  DataType dtype = DTypeCode::Float32;
};
}  // namespace

static BufferDecl bufferDeclArgs(TirReader& r, ScriptParser& p, const std::string& what) {
  BufferDecl d;
  p.expect(PyTok::LParen, "'(' after " + what);
  d.shape = r.shapeArg();
  while (p.accept(PyTok::Comma)) {
    if (p.check(PyTok::RParen)) break;
    if (p.check(PyTok::Name) && p.check(PyTok::Equal, 1)) {
      const PyToken& key = p.take();
      p.take();
      if (key.is("dtype")) {
        d.dtype = r.dtypeArg("a dtype");
      } else if (key.is("scope")) {
        const PyToken& s = p.expect(PyTok::String, "a storage scope string");
        std::string scope = decodePyString(s.text);
        if (scope != "global" && scope != "local") p.fail(s, "storage scope \"" + scope + "\": passlab's TIR has one memory (global)");
      } else if (key.is("align") || key.is("offset_factor")) {
        r.expr();  // layout hints without meaning for passlab's dense buffers
      } else {
        p.fail(key, what + "(" + std::string(key.text) + "=...): passlab's buffers are dense, with a static shape and a dtype only");
      }
    } else {
      d.dtype = r.dtypeArg("the buffer's dtype");
    }
  }
  p.expect(PyTok::RParen, "')' to close " + what);
  return d;
}

T::Stmt TirReader::withStatement(bool* tookRest) {
  p_.take();  // with
  const PyToken& at = p_.peek();
  if (!acceptT()) p_.failExpected("T.block(...), T.init(), T.LetStmt(...), T.allocate(...) or T.decl_buffer(...) after 'with'");
  const PyToken& nameTok = p_.expectAnyName("a TIR scope");
  std::string n(nameTok.text);
  if (n == "block" || n == "sblock") {
    p_.noteSpelling(n == "sblock" ? TvmScriptSpelling::Main : TvmScriptSpelling::Release, nameTok);
    return blockStatement(at, n == "sblock");
  }
  if (n == "Assert") return withAssert(nameTok);
  if (n == "init") {
    if (!block_ || !atBlockTop_) p_.fail(nameTok, "T.init() belongs directly inside a block");
    if (block_->init) p_.fail(nameTok, "the block already has an init");
    p_.expect(PyTok::LParen, "'('");
    p_.expect(PyTok::RParen, "')'");
    p_.expectBlockStart("the init's statements");
    BlockState* saved = block_;
    atBlockTop_ = false;
    pushScope();
    T::Stmt init = suite();
    popScope();
    atBlockTop_ = true;
    saved->init = init;
    return nullptr;
  }
  if (n == "LetStmt") {
    p_.noteSpelling(TvmScriptSpelling::Release, nameTok);
    p_.expect(PyTok::LParen, "'('");
    T::PrimExpr value = expr();
    std::optional<DataType> dtype;
    if (p_.accept(PyTok::Comma) && !p_.check(PyTok::RParen)) {
      if (p_.checkName("type_annotation") && p_.check(PyTok::Equal, 1)) p_.take(), p_.take();
      dtype = dtypeArg("the variable's type");
    }
    p_.expect(PyTok::RParen, "')'");
    p_.expectName("as", "'as' and the variable's name");
    const PyToken& v = p_.expectAnyName("the variable's name");
    p_.expectBlockStart("the let's body");
    T::Var var = T::makeVar(std::string(v.text), dtype ? *dtype : value->dtype);
    pushScope();
    define(v, std::string(v.text), {var, nullptr, nullptr});
    bool top = atBlockTop_;
    atBlockTop_ = false;
    T::Stmt body = suite();
    atBlockTop_ = top;
    popScope();
    return T::letStmt(var, convertTo(value, var->dtype), body);
  }
  if (n == "allocate" || n == "decl_buffer") {
    BufferDecl d;
    if (n == "allocate") {
      p_.expect(PyTok::LParen, "'('");
      d.shape = shapeArg();
      p_.expect(PyTok::Comma, "',' and the dtype");
      d.dtype = dtypeArg("the dtype");
      if (p_.accept(PyTok::Comma) && p_.check(PyTok::String)) {
        std::string scope = decodePyString(p_.take().text);
        if (scope != "global" && scope != "local") p_.fail(p_.last(), "storage scope \"" + scope + "\": passlab's TIR has one memory (global)");
      }
      p_.accept(PyTok::Comma);
      p_.expect(PyTok::RParen, "')' (passlab reads T.allocate(extents, dtype, scope))");
    } else {
      d = bufferDeclArgs(*this, p_, "T.decl_buffer");
    }
    p_.expectName("as", "'as' and the buffer's name");
    const PyToken& v = p_.expectAnyName("the buffer's name");
    p_.expectBlockStart("the allocation's body");
    T::Buffer b = T::makeBuffer(std::string(v.text), d.dtype, d.shape);
    pushScope();
    define(v, std::string(v.text), {nullptr, b, nullptr});
    bool top = atBlockTop_;
    atBlockTop_ = false;
    T::Stmt body = suite();
    atBlockTop_ = top;
    popScope();
    return T::allocate(b, body);
  }
  (void)tookRest;
  if (const char* why = refusal(n)) p_.fail(nameTok, "T." + n + ": " + why);
  p_.fail(nameTok, "unknown scope 'with T." + n + "' (T.block, T.sblock, T.init, T.LetStmt, T.allocate, T.decl_buffer)" + scriptNameHint(n));
}

T::Stmt TirReader::blockStatement(const PyToken& at, bool /*main*/) {
  p_.expect(PyTok::LParen, "'(' and the block's name");
  std::string name = decodePyString(p_.expect(PyTok::String, "the block's name as a string").text);
  if (p_.accept(PyTok::Comma) && p_.check(PyTok::Name))
    p_.fail(p_.peek(), "T.block(" + std::string(p_.peek().text) + "=...): passlab reads blocks with their realization only");
  p_.expect(PyTok::RParen, "')'");
  p_.expectBlockStart("the block's statements");
  BlockState st;
  BlockState* saved = block_;
  bool top = atBlockTop_, fnTop = atFunctionTop_;
  block_ = &st;
  atBlockTop_ = true;
  atFunctionTop_ = false;
  pushScope();
  T::Stmt body = suite();
  popScope();
  block_ = saved;
  atBlockTop_ = top, atFunctionTop_ = fnTop;
  if (!body) body = T::evaluate(T::intImm(DTypeCode::Int32, 0));
  (void)at;
  // Regions left out are found from the statements, as TVM's parser does.
  // TVM leaves an explicit root block (function level, no variables) as written.
  bool explicitRoot = fnTop && st.iterVars.empty();
  if (!explicitRoot && (!st.haveReads || !st.haveWrites)) {
    auto [reads, writes] = T::detectBlockAccess(st.init, body, st.allocs);
    if (!st.haveReads) st.reads = std::move(reads);
    if (!st.haveWrites) st.writes = std::move(writes);
  }
  return T::block(std::move(name), std::move(st.iterVars), std::move(st.predicate), std::move(st.reads), std::move(st.writes),
                  std::move(st.allocs), std::move(st.init), std::move(body), std::move(st.annotations));
}

T::Stmt TirReader::assignment(bool* tookRest) {
  const PyToken& first = p_.peek();
  // Stores: A[i, j] = value.
  if (p_.check(PyTok::LBracket, 1)) {
    const Symbol* s = lookup(first.text);
    if (!s || !s->buffer) p_.fail(first, "'" + std::string(first.text) + "' is not a buffer");
    p_.take();
    std::vector<T::PrimExpr> idx;
    for (auto& [i, unused] : subscript(false)) idx.push_back(i);
    if (idx.size() != s->buffer->shape.size() && idx.size() != 1)
      p_.fail(first, "buffer '" + std::string(first.text) + "' has " + std::to_string(s->buffer->shape.size()) + " dimensions but " +
                         std::to_string(idx.size()) + " indices were given");
    if (p_.check(PyTok::AugAssign)) p_.fail(p_.peek(), "augmented assignment is not TVMScript; write C[i] = C[i] + x");
    p_.expect(PyTok::Equal, "'=' after the buffer element");
    T::PrimExpr v = convertTo(expr(), s->buffer->dtype);
    p_.expectEndOfStatement();
    return T::store(s->buffer, std::move(idx), std::move(v));
  }
  std::vector<const PyToken*> targets{&p_.take()};
  while (p_.accept(PyTok::Comma)) targets.push_back(&p_.expectAnyName("a name"));
  // Annotated lets: x: T.int32 = v (releases) and x: T.let[T.int32] = v (main).
  std::optional<DataType> annotated;
  if (p_.accept(PyTok::Colon)) {
    if (targets.size() != 1) p_.fail(first, "annotate one name at a time");
    if (!acceptT()) p_.failExpected("a TIR type such as T.int32");
    const PyToken& ty = p_.expectAnyName("a TIR type");
    if (ty.is("let")) {
      p_.noteSpelling(TvmScriptSpelling::Main, ty);
      p_.expect(PyTok::LBracket, "'[' after T.let");
      annotated = dtypeArg("the let's type");
      p_.expect(PyTok::RBracket, "']'");
    } else {
      annotated = scriptDType(ty.text);
      if (!annotated) p_.fail(ty, "unknown type T." + std::string(ty.text) + " (passlab reads scalar lets such as x: T.int32 = 1)");
    }
  }
  p_.expect(PyTok::Equal, "'='");
  const PyToken& rhs = p_.peek();
  auto restAsBody = [&](const PyToken& nameTok, Symbol sym) {
    p_.expectEndOfStatement();
    pushScope();
    define(nameTok, std::string(nameTok.text), std::move(sym));
    *tookRest = true;
    T::Stmt body = suite();
    popScope();
    return body ? body : T::evaluate(T::intImm(DTypeCode::Int32, 0));
  };
  if (!annotated && rhs.is(p_.tirAlias) && p_.check(PyTok::Dot, 1)) {
    std::string n(p_.peek(2).text);
    if (scriptDType(n) && p_.check(PyTok::LParen, 3) && p_.check(PyTok::RParen, 4)) {
      if (targets.size() != 1) p_.fail(first, "declare one variable at a time, as in x = T.int32()");
      declareLetVar(*targets[0]);
      return nullptr;
    }
    if (n == "axis") {
      if (!block_ || !atBlockTop_) p_.fail(rhs, "T.axis.* declares a block's variables: it belongs directly inside a block");
      p_.take(), p_.take(), p_.take();
      p_.expect(PyTok::Dot, "'.' after T.axis");
      const PyToken& kindTok = p_.expectAnyName("spatial, reduce or remap");
      std::string kind(kindTok.text);
      std::vector<T::BlockIterVar> ivs;
      if (kind == "remap") {
        p_.expect(PyTok::LParen, "'('");
        const PyToken& kinds = p_.expect(PyTok::String, "the kinds as a string such as \"SSR\"");
        std::string ks = decodePyString(kinds.text);
        p_.expect(PyTok::Comma, "',' and the list of loop variables");
        p_.expect(PyTok::LBracket, "'[' to open the loop variables");
        while (!p_.accept(PyTok::RBracket)) {
          const PyToken& lv = p_.peek();
          T::PrimExpr b = expr();
          const auto* v = T::as<T::VarNode>(b);
          auto loop = v ? loops_.find(v) : loops_.end();
          if (loop == loops_.end()) p_.fail(lv, "T.axis.remap binds loop variables: this is not one of an enclosing loop");
          ivs.push_back({nullptr, loop->second.first, loop->second.second, T::IterKind::Spatial, b});
          if (!p_.accept(PyTok::Comma)) {
            p_.expect(PyTok::RBracket, "',' or ']'");
            break;
          }
        }
        p_.expect(PyTok::RParen, "')'");
        if (ks.size() != ivs.size() || ks.size() != targets.size())
          p_.fail(kinds, "T.axis.remap(\"" + ks + "\", ...) must give one kind per variable (" + std::to_string(targets.size()) + " names, " +
                             std::to_string(ivs.size()) + " loop variables)");
        for (size_t i = 0; i < ks.size(); ++i) {
          if (ks[i] != 'S' && ks[i] != 'R') p_.fail(kinds, std::string("kind '") + ks[i] + "': passlab reads spatial (S) and reduce (R) axes");
          ivs[i].iterKind = ks[i] == 'R' ? T::IterKind::Reduce : T::IterKind::Spatial;
        }
      } else {
        static const std::unordered_map<std::string, T::IterKind> kinds{
            {"spatial", T::IterKind::Spatial}, {"S", T::IterKind::Spatial}, {"reduce", T::IterKind::Reduce}, {"R", T::IterKind::Reduce}};
        auto k = kinds.find(kind);
        if (k == kinds.end()) p_.fail(kindTok, "T.axis." + kind + ": passlab reads spatial and reduce axes (and remap)");
        if (targets.size() != 1) p_.fail(first, "T.axis." + kind + " declares one variable");
        p_.expect(PyTok::LParen, "'('");
        T::PrimExpr mn, extent;
        const PyToken& domainTok = p_.peek();
        size_t mark = p_.position();
        bool tuple = false;
        if (p_.accept(PyTok::LParen)) {
          mn = expr();
          if (p_.accept(PyTok::Comma)) {
            T::PrimExpr end = expr();
            p_.expect(PyTok::RParen, "')' to close the domain");
            if (mn->dtype != end->dtype) mn = convertTo(mn, end->dtype);
            extent = extentOf(mn, end);
            tuple = true;
          } else {
            p_.rewind(mark);
          }
        }
        if (!tuple) {
          extent = expr();
          mn = convertTo(T::intImm(DTypeCode::Int32, 0), extent->dtype);
        }
        // A float domain would not print back: (min, min + extent) does not simplify (fuzz finding).
        if (!extent->dtype.isInt() || !mn->dtype.isInt())
          p_.fail(domainTok, "T.axis." + kind + ": a block iterator's domain must be an integer expression");
        p_.expect(PyTok::Comma, "',' and the binding");
        T::PrimExpr binding = convertTo(expr(), extent->dtype);
        p_.accept(PyTok::Comma);
        p_.expect(PyTok::RParen, "')'");
        ivs.push_back({nullptr, mn, extent, k->second, binding});
      }
      p_.expectEndOfStatement();
      for (size_t i = 0; i < ivs.size(); ++i) {
        ivs[i].var = T::makeVar(std::string(targets[i]->text), ivs[i].binding->dtype);
        define(*targets[i], std::string(targets[i]->text), {ivs[i].var, nullptr, nullptr});
        block_->iterVars.push_back(std::move(ivs[i]));
      }
      return nullptr;
    }
    if (targets.size() != 1) p_.fail(first, "only T.axis.remap assigns several names");
    const PyToken& nameTok = *targets[0];
    std::string name(nameTok.text);
    if (n == "match_buffer") {
      if (!atFunctionTop_) p_.fail(p_.peek(2), "T.match_buffer belongs at the top of the function");
      p_.take(), p_.take(), p_.take();
      p_.expect(PyTok::LParen, "'('");
      const PyToken& h = p_.expectAnyName("the T.handle parameter");
      auto it = handleParams_.find(std::string(h.text));
      if (it == handleParams_.end()) p_.fail(h, "'" + std::string(h.text) + "' is not a T.handle parameter");
      if (params_[it->second].buffer) p_.fail(h, "'" + std::string(h.text) + "' is already matched");
      p_.expect(PyTok::Comma, "',' and the shape");
      BufferDecl d;
      d.shape = shapeArg();
      while (p_.accept(PyTok::Comma)) {
        if (p_.check(PyTok::RParen)) break;
        if (p_.checkName("dtype") && p_.check(PyTok::Equal, 1)) p_.take(), p_.take();
        else if (p_.check(PyTok::Name) && p_.check(PyTok::Equal, 1))
          p_.fail(p_.peek(), "T.match_buffer(" + std::string(p_.peek().text) + "=...): passlab's buffers are dense, with a static shape and a dtype only");
        d.dtype = dtypeArg("the buffer's dtype");
      }
      p_.expect(PyTok::RParen, "')'");
      p_.expectEndOfStatement();
      T::Param& param = params_[it->second];
      param.buffer = T::makeBuffer(name, d.dtype, d.shape);
      param.var = T::makeVar(name, d.dtype);
      define(nameTok, name, {nullptr, param.buffer, param.var});
      return nullptr;
    }
    if (n == "alloc_buffer" || n == "sblock_alloc_buffer" || n == "decl_buffer") {
      const PyToken& fnTok = p_.peek(2);
      if (n == "sblock_alloc_buffer") p_.noteSpelling(TvmScriptSpelling::Main, fnTok);
      p_.take(), p_.take(), p_.take();
      BufferDecl d = bufferDeclArgs(*this, p_, "T." + n);
      T::Buffer b = T::makeBuffer(name, d.dtype, d.shape);
      if (n != "decl_buffer" && ((block_ && atBlockTop_) || atFunctionTop_)) {
        p_.expectEndOfStatement();
        define(nameTok, name, {nullptr, b, nullptr});
        (atFunctionTop_ ? rootAllocs_ : block_->allocs).push_back(b);
        return nullptr;
      }
      return T::allocate(b, restAsBody(nameTok, {nullptr, b, nullptr}));
    }
    if (n == "allocate_const") {
      p_.take(), p_.take(), p_.take();
      p_.expect(PyTok::LParen, "'('");
      p_.expect(PyTok::LBracket, "'[' and the constant's values");
      std::vector<double> values;
      while (!p_.accept(PyTok::RBracket)) {
        if (p_.check(PyTok::String)) {
          // Non-finite values, written as TVM's printer writes them.
          const PyToken& v = p_.take();
          std::string word = decodePyString(v.text);
          if (word == "inf") values.push_back(HUGE_VAL);
          else if (word == "-inf") values.push_back(-HUGE_VAL);
          else if (word == "nan") values.push_back(std::numeric_limits<double>::quiet_NaN());
          else p_.fail(v, "expected a number, \"inf\", \"-inf\" or \"nan\"");
        } else {
          bool neg = p_.accept(PyTok::Minus);
          if (!p_.check(PyTok::Int) && !p_.check(PyTok::Float)) p_.failExpected("a number");
          T::PrimExpr lit = literal(p_.take(), neg);
          values.push_back(lit->kind == T::PrimExprKind::IntImm ? static_cast<double>(T::as<T::IntImmNode>(lit)->value)
                                                                 : T::as<T::FloatImmNode>(lit)->value);
        }
        if (!p_.accept(PyTok::Comma)) {
          p_.expect(PyTok::RBracket, "',' or ']'");
          break;
        }
      }
      p_.expect(PyTok::Comma, "',' and the dtype");
      DataType dt = dtypeArg("the dtype");
      p_.expect(PyTok::Comma, "',' and the extents");
      std::vector<int64_t> shape = shapeArg();
      p_.accept(PyTok::Comma);
      p_.expect(PyTok::RParen, "')'");
      int64_t n2 = 1;
      for (int64_t s : shape) n2 *= s;
      if (n2 != static_cast<int64_t>(values.size()))
        p_.fail(rhs, "T.allocate_const has " + std::to_string(values.size()) + " values for " + std::to_string(n2) + " elements");
      NDArray data(dt, shape);
      for (size_t i = 0; i < values.size(); ++i) data.setFromDouble(static_cast<int64_t>(i), values[i]);
      T::Buffer b = T::makeBuffer(name, dt, shape);
      return T::allocateConst(b, data, restAsBody(nameTok, {nullptr, b, nullptr}));
    }
    if (const char* why = refusal(n)) p_.fail(p_.peek(2), "T." + n + ": " + why);
  }
  if (targets.size() != 1) p_.fail(first, "only T.axis.remap assigns several names");
  // A let: the rest of the suite is its body.
  T::PrimExpr value = expr();
  T::Var var = T::makeVar(std::string(first.text), annotated ? *annotated : value->dtype);
  return T::letStmt(var, convertTo(value, var->dtype), restAsBody(first, {var, nullptr, nullptr}));
}

PrimFunc parseScriptPrimFunc(ScriptParser& p, const PrimFuncDecorator& decorator, std::string* name) {
  return TirReader(p).function(decorator, name);
}

}  // namespace passlab::tvmscript
