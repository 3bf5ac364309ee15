// Type inference over modules built with the C++ constructors: every
// expression kind, located and collected errors, globals, recursion, and a
// 100k-op chain.
#include <catch2/catch.hpp>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"

using namespace passlab;
using Catch::Contains;

namespace {

Type f32(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float32); }
Type f16(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float16); }

/// A span on `line` of a fake file, so diagnostics can be located by line.
Span at(uint32_t line, uint32_t column = 1) {
  static auto file = std::make_shared<const SourceFile>("model.relay", std::string(40, '\n'));
  Span s;
  s.file = file;
  s.line = line;
  s.column = column;
  return s;
}

Expr add(Expr a, Expr b, Span s = {}) { return makeOpCall(OpId::Add, {std::move(a), std::move(b)}, {}, std::move(s)); }
Expr relu(Expr a, Span s = {}) { return makeOpCall(OpId::Relu, {std::move(a)}, {}, std::move(s)); }

IRModule single(Function main) { return makeModule({{"main", main}}); }

/// Collected diagnostics with a given rule.
std::vector<Diagnostic> withRule(const std::vector<Diagnostic>& ds, const std::string& rule) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : ds)
    if (d.rule == rule) out.push_back(d);
  return out;
}

}  // namespace

TEST_CASE("Types: a well-typed function gets every node typed", "[types]") {
  Var x = makeVar("x", f32({1, 3}));
  Var y = makeVar("y", f32({3}));
  Expr sum = add(x, y);
  Expr out = relu(sum);
  Function main = makeFunction({x, y}, out);
  IRModule mod = single(main);
  REQUIRE(inferTypes(mod) == mod);
  CHECK(typeToString(sum->checkedType) == "Tensor[(1, 3), float32]");
  CHECK(typeToString(out->checkedType) == "Tensor[(1, 3), float32]");
  CHECK(typeToString(main->checkedType) == "fn (Tensor[(1, 3), float32], Tensor[(3), float32]) -> Tensor[(1, 3), float32]");
  CHECK(checkTypes(mod).empty());
}

TEST_CASE("Types: add of incompatible shapes is located and names both shapes", "[types]") {
  Var x = makeVar("x", f32({2, 3}));
  Var y = makeVar("y", f32({4, 3}));
  Function main = makeFunction({x, y}, add(x, y, at(5, 9)));
  std::vector<Diagnostic> ds = checkTypes(single(main));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.shape-mismatch");
  CHECK(ds[0].function == "main");
  CHECK(ds[0].span.line == 5);
  CHECK(ds[0].span.column == 9);
  CHECK_THAT(ds[0].message, Contains("add") && Contains("(2, 3)") && Contains("(4, 3)"));
  CHECK_THAT(ds[0].render(), Contains("model.relay:5:9: error:"));
  REQUIRE_THROWS_AS(inferTypes(single(main)), DiagnosticError);
}

TEST_CASE("Types: all independent errors are collected, without cascades", "[types]") {
  // main: two independent errors; the relu of the failed add is not reported again.
  Var x = makeVar("x", f32({2, 3}));
  Var y = makeVar("y", f32({4, 3}));
  Var h = makeVar("h", f16({2, 3}));
  Expr bad1 = add(x, y, at(2));
  Expr bad2 = makeOpCall(OpId::Multiply, {x, h}, {}, at(3));
  Function main = makeFunction({x, y, h}, makeTuple({relu(bad1, at(4)), bad2}));
  // other: an error in a second function is found too.
  Var z = makeVar("z", f32({8}));
  Function other = makeFunction({z}, makeOpCall(OpId::Reshape, {z}, {{"newshape", AttrValue::ints({3, 3})}}, at(7)));
  std::vector<Diagnostic> ds = checkTypes(makeModule({{"main", main}, {"other", other}}));
  REQUIRE(ds.size() == 3);
  CHECK(withRule(ds, "type.shape-mismatch").size() == 2);
  REQUIRE(withRule(ds, "type.dtype-mismatch").size() == 1);
  CHECK(withRule(ds, "type.dtype-mismatch")[0].span.line == 3);
  int inOther = 0;
  for (const Diagnostic& d : ds) inOther += d.function == "other";
  CHECK(inOther == 1);
  try {
    inferTypes(makeModule({{"main", main}, {"other", other}}));
    FAIL("expected DiagnosticError");
  } catch (const DiagnosticError& e) {
    CHECK(e.diagnostics().size() == 3);
  }
}

TEST_CASE("Types: op argument count errors", "[types]") {
  Var x = makeVar("x", f32({2}));
  Function main = makeFunction({x}, makeOpCall(OpId::Add, {x}, {}, at(3)));
  std::vector<Diagnostic> ds = checkTypes(single(main));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.arg-count");
  CHECK_THAT(ds[0].message, Contains("add expects 2 arguments, got 1"));
}

TEST_CASE("Types: let variables take the value's type or check their annotation", "[types]") {
  Var x = makeVar("x", f32({4}));
  Var v = makeVar("v");
  Var w = makeVar("w", f32({4}));
  Function main = makeFunction({x}, makeLet(v, relu(x), makeLet(w, add(v, v), w)));
  IRModule mod = single(main);
  REQUIRE(checkTypes(mod).empty());
  CHECK(typeToString(v->checkedType) == "Tensor[(4), float32]");

  Var bad = makeVar("bad", f16({4}));
  Function wrong = makeFunction({x}, makeLet(bad, relu(x, at(6)), bad));
  std::vector<Diagnostic> ds = checkTypes(single(wrong));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.mismatch");
  CHECK(ds[0].span.line == 6);
  CHECK_THAT(ds[0].message, Contains("%bad") && Contains("float16") && Contains("float32"));
}

TEST_CASE("Types: ill-typed nodes are never marked typed, so a second run reports the same errors", "[types]") {
  Var x = makeVar("x", f32({4}));
  Var h = makeVar("h", f16({4}));
  Var c = makeVar("c", f32({}));  // not bool
  // Each error sits below nodes that could otherwise be typed from annotations alone.
  Function letMismatch = makeFunction({x}, makeLet(h, relu(x, at(2)), relu(h)), f16({4}));
  Function badCond = makeFunction({c, x}, makeIf(c, x, x, at(3)), f32({4}));
  Var y = makeVar("y", f32({5}));
  Function badBody = makeFunction({x, y}, makeTuple({add(x, y, at(4))}), tupleType({f32({4})}));
  IRModule mod = makeModule({{"a", letMismatch}, {"b", badCond}, {"c", badBody}});
  std::vector<Diagnostic> first = checkTypes(mod);
  REQUIRE(first.size() == 3);
  CHECK(letMismatch->checkedType == nullptr);
  CHECK(badCond->checkedType == nullptr);
  CHECK(badBody->checkedType == nullptr);
  std::vector<Diagnostic> second = checkTypes(mod);
  REQUIRE(second.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(second[i].rule == first[i].rule);
    CHECK(second[i].span.line == first[i].span.line);
  }
}

TEST_CASE("Types: a chain of 100k lets is typed without recursion", "[types][scale]") {
  Var x = makeVar("x", f32({1, 8}));
  // Build let %v_i = add(%v_{i-1}, %x); ... innermost first, so the Let nesting is 100k deep.
  constexpr int kDepth = 100000;
  std::vector<Var> vars;
  vars.reserve(kDepth);
  Expr prev = x;
  std::vector<Expr> values;
  values.reserve(kDepth);
  for (int i = 0; i < kDepth; ++i) {
    vars.push_back(makeVar("v"));
    values.push_back(add(prev, x));
    prev = vars.back();
  }
  Expr body = prev;
  for (int i = kDepth; i-- > 0;) body = makeLet(vars[i], values[i], body);
  Function main = makeFunction({x}, body);
  REQUIRE(checkTypes(single(main)).empty());
  CHECK(typeToString(main->checkedType) == "fn (Tensor[(1, 8), float32]) -> Tensor[(1, 8), float32]");
  CHECK(typeToString(vars.back()->checkedType) == "Tensor[(1, 8), float32]");
  // Typed nodes are trusted: a second run keeps the very same type objects.
  Type before = values[kDepth / 2]->checkedType;
  REQUIRE(checkTypes(single(main)).empty());
  CHECK(values[kDepth / 2]->checkedType == before);
}

TEST_CASE("Types: a 100k-op dataflow-style call chain", "[types][scale]") {
  Var x = makeVar("x", f32({1, 16}));
  Expr e = x;
  for (int i = 0; i < 100000; ++i) e = i % 2 ? relu(e) : add(e, x);
  Function main = makeFunction({x}, e);
  REQUIRE(checkTypes(single(main)).empty());
  CHECK(typeToString(e->checkedType) == "Tensor[(1, 16), float32]");
}

TEST_CASE("Types: calls to globals check argument types and counts", "[types][globals]") {
  Var a = makeVar("a", f32({2, 2}));
  Function helper = makeFunction({a}, relu(a), f32({2, 2}));
  Var x = makeVar("x", f32({2, 2}));
  Var h = makeVar("h", f16({2, 2}));
  Expr good = makeCall(makeGlobalVar("helper"), {x}, {}, at(2));
  Expr badType = makeCall(makeGlobalVar("helper"), {h}, {}, at(3));
  Expr badCount = makeCall(makeGlobalVar("helper"), {x, x}, {}, at(4));
  Function main = makeFunction({x, h}, makeTuple({good, badType, badCount}));
  std::vector<Diagnostic> ds = checkTypes(makeModule({{"helper", helper}, {"main", main}}));
  REQUIRE(ds.size() == 2);
  CHECK(typeToString(good->checkedType) == "Tensor[(2, 2), float32]");
  REQUIRE(withRule(ds, "type.mismatch").size() == 1);
  CHECK_THAT(withRule(ds, "type.mismatch")[0].message, Contains("argument 0") && Contains("@helper") && Contains("float16"));
  REQUIRE(withRule(ds, "type.arg-count").size() == 1);
  CHECK(withRule(ds, "type.arg-count")[0].span.line == 4);
}

TEST_CASE("Types: a callee without declared return type is inferred on demand", "[types][globals]") {
  // "main" sorts before "zeta": zeta must be inferred while main is being typed.
  Var a = makeVar("a", f32({3}));
  Function zeta = makeFunction({a}, makeTuple({a, relu(a)}));
  Var x = makeVar("x", f32({3}));
  Expr call = makeCall(makeGlobalVar("zeta"), {x});
  Function main = makeFunction({x}, makeTupleGetItem(call, 1));
  REQUIRE(checkTypes(makeModule({{"main", main}, {"zeta", zeta}})).empty());
  CHECK(typeToString(main->checkedType) == "fn (Tensor[(3), float32]) -> Tensor[(3), float32]");
  CHECK(zeta->checkedType != nullptr);
}

TEST_CASE("Types: recursion needs a declared return type", "[types][globals]") {
  Var n = makeVar("n", f32({}));
  Var c = makeVar("c", tensorType({}, DTypeCode::Bool));
  Expr recurse = makeCall(makeGlobalVar("loop"), {n, c});
  Function declared = makeFunction({n, c}, makeIf(c, n, recurse), f32({}));
  CHECK(checkTypes(makeModule({{"loop", declared}})).empty());

  Var n2 = makeVar("n", f32({}));
  Var c2 = makeVar("c", tensorType({}, DTypeCode::Bool));
  Function undeclared = makeFunction({n2, c2}, makeIf(c2, n2, makeCall(makeGlobalVar("loop", at(9)), {n2, c2})));
  std::vector<Diagnostic> ds = checkTypes(makeModule({{"loop", undeclared}}));
  REQUIRE(withRule(ds, "type.recursive").size() == 1);
  CHECK(withRule(ds, "type.recursive")[0].span.line == 9);
}

TEST_CASE("Types: undefined globals and uncallable callees", "[types][globals]") {
  Var x = makeVar("x", f32({3}));
  Function main = makeFunction({x}, makeCall(makeGlobalVar("missing", at(4)), {x}));
  std::vector<Diagnostic> ds = checkTypes(single(main));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.undefined-global");
  CHECK_THAT(ds[0].message, Contains("@missing"));

  Function callTensor = makeFunction({x}, makeCall(x, {x}, {}, at(5)));
  ds = checkTypes(single(callTensor));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.not-callable");
}

TEST_CASE("Types: tuples and tuple projections", "[types]") {
  Var x = makeVar("x", f32({2}));
  Var i = makeVar("i", tensorType({3}, DTypeCode::Int32));
  Expr t = makeTuple({x, i});
  Expr first = makeTupleGetItem(t, 1);
  Function ok = makeFunction({x, i}, first);
  REQUIRE(checkTypes(single(ok)).empty());
  CHECK(typeToString(t->checkedType) == "(Tensor[(2), float32], Tensor[(3), int32])");
  CHECK(typeToString(first->checkedType) == "Tensor[(3), int32]");

  Function outOfRange = makeFunction({x, i}, makeTupleGetItem(makeTuple({x, i}), 2, at(8)));
  std::vector<Diagnostic> ds = checkTypes(single(outOfRange));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.tuple-index");
  CHECK(ds[0].span.line == 8);
  Function notTuple = makeFunction({x, i}, makeTupleGetItem(x, 0, at(9)));
  ds = checkTypes(single(notTuple));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.not-tuple");
}

TEST_CASE("Types: batch_norm's tuple result is projected", "[types]") {
  Var x = makeVar("x", f32({1, 4, 2, 2}));
  Var g = makeVar("g", f32({4}));
  Expr bn = makeOpCall(OpId::BatchNorm, {x, g, g, g, g});
  Function main = makeFunction({x, g}, makeTupleGetItem(bn, 0));
  REQUIRE(checkTypes(single(main)).empty());
  CHECK(typeToString(main->checkedType) == "fn (Tensor[(1, 4, 2, 2), float32], Tensor[(4), float32]) -> Tensor[(1, 4, 2, 2), float32]");
}

TEST_CASE("Types: if needs a bool scalar condition and equal branches", "[types]") {
  Var c = makeVar("c", tensorType({}, DTypeCode::Bool));
  Var x = makeVar("x", f32({2}));
  Function ok = makeFunction({c, x}, makeIf(c, relu(x), x));
  REQUIRE(checkTypes(single(ok)).empty());

  Var notBool = makeVar("n", f32({}));
  Function badCond = makeFunction({notBool, x}, makeIf(notBool, x, x, at(3)));
  std::vector<Diagnostic> ds = checkTypes(single(badCond));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.if-cond");

  Var y = makeVar("y", f32({3}));
  Function badBranches = makeFunction({c, x, y}, makeIf(c, x, y, at(4)));
  ds = checkTypes(single(badBranches));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.mismatch");
  CHECK_THAT(ds[0].message, Contains("(2)") && Contains("(3)"));
}

TEST_CASE("Types: declared return type must match the body", "[types]") {
  Var x = makeVar("x", f32({2}));
  Function f = makeFunction({x}, x, f16({2}), {}, at(1));
  std::vector<Diagnostic> ds = checkTypes(single(f));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.ret-mismatch");
  CHECK(ds[0].span.line == 1);
  // A dynamic dimension in the declaration accepts a static one.
  Var y = makeVar("y", f32({2}));
  CHECK(checkTypes(single(makeFunction({y}, y, f32({-1})))).empty());
}

TEST_CASE("Types: parameters need annotations", "[types]") {
  Var x = makeVar("x");
  std::vector<Diagnostic> ds = checkTypes(single(makeFunction({x}, relu(x))));
  REQUIRE(!ds.empty());
  CHECK(ds[0].rule == "type.missing-annotation");
}

TEST_CASE("Types: closures bound by let and called", "[types]") {
  Var p = makeVar("p", f32({5}));
  Function closure = makeFunction({p}, relu(p));
  Var f = makeVar("f");
  Var x = makeVar("x", f32({5}));
  Expr call = makeCall(f, {x});
  Function main = makeFunction({x}, makeLet(f, closure, call));
  REQUIRE(checkTypes(single(main)).empty());
  CHECK(typeToString(f->checkedType) == "fn (Tensor[(5), float32]) -> Tensor[(5), float32]");
  CHECK(typeToString(call->checkedType) == "Tensor[(5), float32]");
}

TEST_CASE("Types: dataflow blocks", "[types]") {
  Var x = makeVar("x", f32({2, 2}));
  Var lv = makeVar("lv", nullptr, /*isDataflow=*/true);
  Var gv = makeVar("gv", f32({2, 2}));
  Expr df = makeDataflow({{lv, relu(x)}, {gv, add(lv, x)}}, gv);
  Function main = makeFunction({x}, df);
  REQUIRE(checkTypes(single(main)).empty());
  CHECK(typeToString(lv->checkedType) == "Tensor[(2, 2), float32]");
  CHECK(typeToString(df->checkedType) == "Tensor[(2, 2), float32]");

  Var lv2 = makeVar("lv", nullptr, true);
  Var gv2 = makeVar("gv", f16({2, 2}));
  Function bad = makeFunction({x}, makeDataflow({{lv2, relu(x)}, {gv2, add(lv2, x, at(6))}}, gv2));
  std::vector<Diagnostic> ds = checkTypes(single(bad));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "type.mismatch");
  CHECK(ds[0].span.line == 6);
}

TEST_CASE("Types: call_tir to a PrimFunc global", "[types][globals]") {
  using namespace tir;
  Buffer a = makeBuffer("A", DTypeCode::Float32, {4});
  Buffer b = makeBuffer("B", DTypeCode::Float32, {4});
  tir::Var i = tir::makeVar("i");
  PrimFunc prim = makePrimFunc({{tir::makeVar("A_data"), a}, {tir::makeVar("B_data"), b}},
                               forLoop(i, intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 4), ForKind::Serial,
                                       store(b, {i}, load(a, {i}))));
  passlab::Var x = passlab::makeVar("x", f32({4}));
  AttrDict out{{"out_shape", AttrValue::ints({4})}, {"out_dtype", AttrValue::string("float32")}};
  Expr call = makeOpCall(OpId::CallTir, {makeGlobalVar("copy"), makeTuple({x})}, out);
  Function main = makeFunction({x}, call);
  REQUIRE(checkTypes(makeModule({{"copy", prim}, {"main", main}})).empty());
  CHECK(typeToString(call->checkedType) == "Tensor[(4), float32]");

  Expr wrongShape = makeOpCall(OpId::CallTir, {makeGlobalVar("copy"), makeTuple({x})},
                               {{"out_shape", AttrValue::ints({5})}, {"out_dtype", AttrValue::string("float32")}}, at(3));
  std::vector<Diagnostic> ds = checkTypes(makeModule({{"copy", prim}, {"main", makeFunction({x}, wrongShape)}}));
  REQUIRE(ds.size() == 1);
  CHECK_THAT(ds[0].message, Contains("call_tir") && Contains("output 0"));
}

TEST_CASE("Types: a changed callee signature with a stale cached call is reported", "[types][globals]") {
  Var a = makeVar("a", f32({2}));
  Function helper = makeFunction({a}, relu(a));
  Var x = makeVar("x", f32({2}));
  Expr call = makeCall(makeGlobalVar("helper"), {x});
  Function main = makeFunction({x}, makeTuple({call}));
  REQUIRE(checkTypes(makeModule({{"helper", helper}, {"main", main}})).empty());
  // A "pass" replaces helper with one returning a tuple but keeps main's cached nodes.
  Var a2 = makeVar("a", f32({2}));
  Function helper2 = makeFunction({a2}, makeTuple({a2}));
  Function main2 = makeFunction({x}, call);
  std::vector<Diagnostic> ds = checkTypes(makeModule({{"helper", helper2}, {"main", main2}}));
  REQUIRE(withRule(ds, "type.stale").size() == 1);
}

TEST_CASE("Types: inferExprType types a standalone expression", "[types]") {
  Var x = makeVar("x", f32({1, 3, 8, 8}));
  Var w = makeVar("w", f32({4, 3, 3, 3}));
  Expr conv = makeOpCall(OpId::Conv2D, {x, w}, {{"padding", AttrValue::ints({1, 1})}});
  CHECK(typeToString(inferExprType(conv)) == "Tensor[(1, 4, 8, 8), float32]");
  Var y = makeVar("y", f32({2}));
  REQUIRE_THROWS_WITH(inferExprType(add(x, y, at(2))), Contains("add"));
  // Globals resolve in the module given.
  Var a = makeVar("a", f32({2}));
  IRModule mod = makeModule({{"g", makeFunction({a}, a)}});
  CHECK(typeToString(inferExprType(makeCall(makeGlobalVar("g"), {y}), &mod)) == "Tensor[(2), float32]");
  REQUIRE_THROWS_AS(inferExprType(makeCall(makeGlobalVar("g"), {y})), DiagnosticError);
}

TEST_CASE("Types: constants and shared subexpressions", "[types]") {
  NDArray data(DTypeCode::Float16, {2, 2});
  Expr c = makeConstant(data);
  Var x = makeVar("x", f16({2, 2}));
  Expr shared = add(x, c);
  Function main = makeFunction({x}, makeTuple({shared, shared, makeOpCall(OpId::Multiply, {shared, shared})}));
  REQUIRE(checkTypes(single(main)).empty());
  CHECK(typeToString(main->checkedType) ==
        "fn (Tensor[(2, 2), float16]) -> (Tensor[(2, 2), float16], Tensor[(2, 2), float16], Tensor[(2, 2), float16])");
}
