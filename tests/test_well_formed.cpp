// The well-formed checker: single definitions, scoping, globals, dataflow
// locality, type consistency, TIR scoping; every violation reported.
#include <catch2/catch.hpp>

#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"

using namespace passlab;
using Catch::Contains;

namespace {

Type f32(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float32); }

Span at(uint32_t line) {
  Span s;
  s.line = line;
  s.column = 1;
  return s;
}

Expr add(Expr a, Expr b, Span s = {}) { return makeOpCall(OpId::Add, {std::move(a), std::move(b)}, {}, std::move(s)); }
Expr relu(Expr a, Span s = {}) { return makeOpCall(OpId::Relu, {std::move(a)}, {}, std::move(s)); }

std::vector<Diagnostic> withRule(const std::vector<Diagnostic>& ds, const std::string& rule) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : ds)
    if (d.rule == rule) out.push_back(d);
  return out;
}

}  // namespace

TEST_CASE("WellFormed: a module with lets, closures, ifs and globals is clean", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Var c = makeVar("c", tensorType({}, DTypeCode::Bool));
  Var v = makeVar("v");
  Var p = makeVar("p", f32({4}));
  Var f = makeVar("f");
  Expr body = makeLet(v, relu(x),
                      makeLet(f, makeFunction({p}, add(p, v)),  // closure captures %v
                              makeIf(c, makeCall(f, {v}), makeCall(makeGlobalVar("helper"), {x}))));
  Var a = makeVar("a", f32({4}));
  IRModule mod = makeModule({{"main", makeFunction({x, c}, body)}, {"helper", makeFunction({a}, a)}});
  CHECK(checkWellFormed(mod).empty());
  REQUIRE(checkTypes(mod).empty());
  CHECK(checkWellFormed(mod).empty());  // typed nodes agree with annotations
}

TEST_CASE("WellFormed: a variable bound as parameter of two functions is a duplicate definition", "[wf]") {
  Var x = makeVar("x", f32({4}), false, at(3));
  IRModule mod = makeModule({{"f", makeFunction({x}, relu(x))}, {"g", makeFunction({x}, x)}});
  std::vector<Diagnostic> ds = checkWellFormed(mod);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.duplicate-def");
  CHECK(ds[0].function == "g");
  CHECK(ds[0].span.line == 3);
  CHECK_THAT(ds[0].message, Contains("%x"));
}

TEST_CASE("WellFormed: a variable let-bound twice is a duplicate definition", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Var v = makeVar("v");
  Function main = makeFunction({x}, makeLet(v, relu(x), makeLet(v, relu(v), v)));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", main}}));
  REQUIRE(withRule(ds, "wf.duplicate-def").size() == 1);
  // The same parameter twice in one list, too.
  Function twice = makeFunction({x, x}, x);
  CHECK(withRule(checkWellFormed(makeModule({{"main", twice}})), "wf.duplicate-def").size() == 1);
}

TEST_CASE("WellFormed: using an undefined variable is located at the use", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Var ghost = makeVar("ghost", f32({4}));
  Function main = makeFunction({x}, add(x, ghost, at(7)));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", main}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.undefined-var");
  CHECK(ds[0].function == "main");
  CHECK(ds[0].span.line == 7);
  CHECK_THAT(ds[0].message, Contains("%ghost") && Contains("never defined"));
}

TEST_CASE("WellFormed: a let variable used outside its scope", "[wf]") {
  Var c = makeVar("c", tensorType({}, DTypeCode::Bool));
  Var x = makeVar("x", f32({4}));
  Var v = makeVar("v");
  // %v is bound in the then-branch only, then used in the else-branch and after.
  Expr ifExpr = makeIf(c, makeLet(v, relu(x), v), relu(v, at(4)));
  Function main = makeFunction({c, x}, makeTuple({ifExpr, relu(v, at(5))}));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", main}}));
  REQUIRE(ds.size() == 2);
  for (const Diagnostic& d : ds) {
    CHECK(d.rule == "wf.undefined-var");
    CHECK_THAT(d.message, Contains("outside the scope"));
  }
  // A use before the definition is outside the scope too.
  Var w = makeVar("w");
  Function early = makeFunction({x}, makeLet(w, relu(w, at(2)), w));
  ds = checkWellFormed(makeModule({{"main", early}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].span.line == 2);
}

TEST_CASE("WellFormed: a let-bound function may call itself", "[wf]") {
  Var f = makeVar("f");
  Var n = makeVar("n", f32({}));
  Function rec = makeFunction({n}, makeCall(f, {n}));
  Var x = makeVar("x", f32({}));
  CHECK(checkWellFormed(makeModule({{"main", makeFunction({x}, makeLet(f, rec, makeCall(f, {x})))}})).empty());
}

TEST_CASE("WellFormed: referenced globals must exist", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Function main = makeFunction({x}, makeCall(makeGlobalVar("nowhere", at(6)), {x}));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", main}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.undefined-global");
  CHECK(ds[0].span.line == 6);
  CHECK_THAT(ds[0].message, Contains("@nowhere"));
}

TEST_CASE("WellFormed: dataflow variables stay inside their block", "[wf][dataflow]") {
  Var x = makeVar("x", f32({4}));
  Var lv = makeVar("lv", nullptr, true);
  Var gv = makeVar("gv");
  // Correct: the output %gv is used after the block.
  Function ok = makeFunction({x}, makeDataflow({{lv, relu(x)}, {gv, relu(lv)}}, gv));
  CHECK(checkWellFormed(makeModule({{"main", ok}})).empty());

  Var lv2 = makeVar("lv", nullptr, true);
  Var gv2 = makeVar("gv");
  Function escape = makeFunction({x}, makeDataflow({{lv2, relu(x)}, {gv2, relu(lv2)}}, add(gv2, lv2, at(9))));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", escape}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.dataflow-var-escape");
  CHECK(ds[0].span.line == 9);

  Var lv3 = makeVar("lv", nullptr, true);
  Function outside = makeFunction({x}, makeLet(lv3, relu(x), lv3));
  ds = checkWellFormed(makeModule({{"main", outside}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.dataflow-var-outside");
}

TEST_CASE("WellFormed: inferred types must agree with annotations", "[wf][types]") {
  Var x = makeVar("x", f32({4}));
  Var h = makeVar("h", tensorType({4}, DTypeCode::Float16));
  Function main = makeFunction({x}, makeLet(h, relu(x, at(3)), x), f32({4}));
  IRModule mod = makeModule({{"main", main}});
  CHECK(checkWellFormed(mod).empty());  // nothing typed yet: nothing to compare
  CHECK(!checkTypes(mod).empty());      // type inference reports it...
  std::vector<Diagnostic> ds = checkWellFormed(mod);
  REQUIRE(ds.size() == 1);               // ...and afterwards so does the checker
  CHECK(ds[0].rule == "wf.type-mismatch");
  CHECK(ds[0].span.line == 3);
  CHECK_THAT(ds[0].message, Contains("float16") && Contains("float32"));
}

TEST_CASE("WellFormed: every violation in every function is reported", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Var ghost = makeVar("ghost", f32({4}));
  Function f = makeFunction({x}, makeTuple({relu(ghost, at(1)), makeCall(makeGlobalVar("missing"), {x}, {}, at(2))}));
  Function g = makeFunction({x}, relu(ghost, at(3)));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"f", f}, {"g", g}}));
  CHECK(withRule(ds, "wf.undefined-var").size() == 2);
  CHECK(withRule(ds, "wf.undefined-global").size() == 1);
  CHECK(withRule(ds, "wf.duplicate-def").size() == 1);  // %x is a parameter of both
  int inG = 0;
  for (const Diagnostic& d : ds) inG += d.function == "g";
  CHECK(inG == 2);
}

TEST_CASE("WellFormed: a 200k-deep let chain is checked iteratively", "[wf][scale]") {
  Var x = makeVar("x", f32({2}));
  constexpr int kDepth = 200000;
  std::vector<Var> vars;
  std::vector<Expr> values;
  Expr prev = x;
  for (int i = 0; i < kDepth; ++i) {
    vars.push_back(makeVar("v"));
    values.push_back(relu(prev));
    prev = vars.back();
  }
  Expr body = prev;
  for (int i = kDepth; i-- > 0;) body = makeLet(vars[i], values[i], body);
  CHECK(checkWellFormed(makeModule({{"main", makeFunction({x}, body)}})).empty());
}

// ---- TIR -----------------------------------------------------------------------------

TEST_CASE("WellFormed: PrimFunc variables and buffers must be defined", "[wf][tir]") {
  using namespace tir;
  Buffer a = makeBuffer("A", DTypeCode::Float32, {4});
  Buffer b = makeBuffer("B", DTypeCode::Float32, {4});
  Buffer stray = makeBuffer("S", DTypeCode::Float32, {4});
  tir::Var i = tir::makeVar("i");
  tir::Var j = tir::makeVar("j");
  auto loop = [&](tir::Var v, Stmt body) {
    return forLoop(std::move(v), intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 4), ForKind::Serial, std::move(body));
  };
  std::vector<tir::Param> params = {{tir::makeVar("a"), a}, {tir::makeVar("b"), b}};
  PrimFunc ok = makePrimFunc(params, loop(i, store(b, {i}, load(a, {i}))));
  CHECK(checkWellFormed(makeModule({{"copy", ok}})).empty());

  PrimFunc bad = makePrimFunc(params, seq({loop(i, store(b, {j}, load(stray, {i}))),
                                           loop(i, evaluate(call(DTypeCode::Int32, "absent", {}, /*isGlobal=*/true)))}));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"copy", bad}}));
  CHECK(withRule(ds, "wf.undefined-var").size() == 1);      // j
  CHECK(withRule(ds, "wf.undefined-buffer").size() == 1);   // S
  CHECK(withRule(ds, "wf.duplicate-def").size() == 1);      // i bound by two loops
  CHECK(withRule(ds, "wf.undefined-global").size() == 1);   // @absent
  for (const Diagnostic& d : ds) CHECK(d.function == "copy");
}

TEST_CASE("WellFormed: allocated and constant buffers are in scope only in their body", "[wf][tir]") {
  using namespace tir;
  Buffer out = makeBuffer("O", DTypeCode::Float16, {2});
  Buffer k = makeBuffer("K", DTypeCode::Float16, {2});
  tir::Var i = tir::makeVar("i");
  NDArray data(DTypeCode::Float16, {2});
  Stmt use = forLoop(i, intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 2), ForKind::Serial, store(out, {i}, load(k, {i})));
  PrimFunc ok = makePrimFunc({{tir::makeVar("o"), out}}, allocateConst(k, data, use));
  CHECK(checkWellFormed(makeModule({{"f", ok}})).empty());
  tir::Var i2 = tir::makeVar("i");
  Stmt after = forLoop(i2, intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 2), ForKind::Serial, store(out, {i2}, load(k, {i2})));
  PrimFunc bad = makePrimFunc({{tir::makeVar("o"), out}}, seq({allocateConst(k, data, evaluate(intImm(DTypeCode::Int32, 0))), after}));
  CHECK(withRule(checkWellFormed(makeModule({{"f", bad}})), "wf.undefined-buffer").size() == 1);
  // Constant data must match its buffer.
  PrimFunc mismatched = makePrimFunc({{tir::makeVar("o"), out}}, allocateConst(k, NDArray(DTypeCode::Float32, {2}), use));
  CHECK(withRule(checkWellFormed(makeModule({{"f", mismatched}})), "wf.type-mismatch").size() == 1);
}
