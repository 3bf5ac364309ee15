// Structural equality and hashing modulo variable names: binding structure,
// free variables, attributes, constants, types, DAG sharing, PrimFuncs, modules.
#include <catch2/catch.hpp>

#include <functional>

#include "core/analysis/structural_equal.h"

using namespace passlab;

namespace {

Type f32(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float32); }

Expr add(Expr a, Expr b) { return makeOpCall(OpId::Add, {std::move(a), std::move(b)}); }
Expr relu(Expr a) { return makeOpCall(OpId::Relu, {std::move(a)}); }

/// Checks equality both ways and, when equal, equal hashes.
void checkEqual(const Expr& a, const Expr& b) {
  CHECK(structuralEqual(a, b));
  CHECK(structuralEqual(b, a));
  CHECK(structuralHash(a) == structuralHash(b));
}

void checkDifferent(const Expr& a, const Expr& b) {
  CHECK_FALSE(structuralEqual(a, b));
  CHECK_FALSE(structuralEqual(b, a));
}

/// fn (%x, %y) { relu(add(%x, %y)) } with fresh variables named as given.
Function addRelu(const std::string& nx, const std::string& ny) {
  Var x = makeVar(nx, f32({1, 8}));
  Var y = makeVar(ny, f32({1, 8}));
  return makeFunction({x, y}, relu(add(x, y)), f32({1, 8}), {{"Composite", AttrValue::string("add_relu")}});
}

NDArray filled(DataType d, std::vector<int64_t> shape, double start) {
  NDArray a(d, std::move(shape));
  for (int64_t i = 0; i < a.numElements(); ++i) a.setFromDouble(i, start + static_cast<double>(i));
  return a;
}

}  // namespace

TEST_CASE("Structural: functions equal modulo variable names and objects", "[structural]") {
  checkEqual(addRelu("x", "y"), addRelu("a", "b"));
  Function f = addRelu("x", "y");
  checkEqual(f, f);
}

TEST_CASE("Structural: binding positions matter", "[structural]") {
  Var x = makeVar("x", f32({2}));
  Var y = makeVar("y", f32({2}));
  Var p = makeVar("p", f32({2}));
  Var q = makeVar("q", f32({2}));
  checkDifferent(makeFunction({x, y}, x), makeFunction({p, q}, q));
  checkDifferent(makeFunction({x, y}, add(x, y)), makeFunction({p, q}, add(q, p)));
  // A parameter's annotation is part of the structure.
  Var z = makeVar("z", tensorType({2}, DTypeCode::Float16));
  checkDifferent(makeFunction({x}, x), makeFunction({z}, z));
  // So is the arity.
  checkDifferent(makeFunction({x}, x), makeFunction({p, q}, p));
}

TEST_CASE("Structural: let-bound variables map consistently", "[structural]") {
  auto build = [](bool sameTwice) {
    Var x = makeVar("x", f32({2}));
    Var a = makeVar("a");
    Var b = makeVar("b");
    return makeFunction({x}, makeLet(a, relu(x), makeLet(b, relu(x), add(a, sameTwice ? a : b))));
  };
  checkEqual(build(false), build(false));
  checkEqual(build(true), build(true));
  checkDifferent(build(false), build(true));
}

TEST_CASE("Structural: free variables must be the same node", "[structural]") {
  Var free = makeVar("w", f32({2}));
  Var other = makeVar("w", f32({2}));
  checkEqual(relu(free), relu(free));
  checkDifferent(relu(free), relu(other));
  // A free variable on one side cannot match a bound one on the other.
  Var x = makeVar("x", f32({2}));
  checkDifferent(makeFunction({x}, add(x, free)), makeFunction({free}, add(free, free)));
}

TEST_CASE("Structural: ops, call attributes and callees are compared", "[structural]") {
  Var x = makeVar("x", f32({1, 4, 8, 8}));
  Var w = makeVar("w", f32({4, 4, 3, 3}));
  Expr conv1 = makeOpCall(OpId::Conv2D, {x, w}, {{"padding", AttrValue::ints({1, 1})}});
  Expr conv1b = makeOpCall(OpId::Conv2D, {x, w}, {{"padding", AttrValue::ints({1, 1})}, {"strides", AttrValue::ints({1, 1})}});
  Expr conv2 = makeOpCall(OpId::Conv2D, {x, w}, {{"padding", AttrValue::ints({0, 0})}});
  checkEqual(conv1, conv1b);  // canonical attributes: the default stride is dropped
  checkDifferent(conv1, conv2);
  checkDifferent(relu(x), makeOpCall(OpId::Sigmoid, {x}));
  checkDifferent(makeCall(makeGlobalVar("f"), {x}), makeCall(makeGlobalVar("g"), {x}));
  checkEqual(makeCall(makeGlobalVar("f"), {x}), makeCall(makeGlobalVar("f"), {x}));
}

TEST_CASE("Structural: constants compare bitwise, storage sharing irrelevant", "[structural]") {
  NDArray a = filled(DTypeCode::Float16, {2, 3}, 0.5);
  NDArray b = filled(DTypeCode::Float16, {2, 3}, 0.5);
  REQUIRE_FALSE(a.sharesStorageWith(b));
  checkEqual(makeConstant(a), makeConstant(b));
  checkEqual(makeConstant(a), makeConstant(a));
  checkDifferent(makeConstant(a), makeConstant(filled(DTypeCode::Float16, {2, 3}, 1.5)));
  checkDifferent(makeConstant(a), makeConstant(filled(DTypeCode::Float32, {2, 3}, 0.5)));
  checkDifferent(makeConstant(a), makeConstant(a.reshaped({3, 2})));
}

TEST_CASE("Structural: function attributes and return types are compared", "[structural]") {
  Function f = addRelu("x", "y");
  checkDifferent(f, withAttrs(*f, {{"Composite", AttrValue::string("other")}}));
  checkDifferent(f, withAttrs(*f, {}));
  checkEqual(f, withAttrs(*f, f->attrs));
  Var x = makeVar("x", f32({2}));
  checkDifferent(makeFunction({x}, x, f32({2})), makeFunction({x}, x, nullptr));
}

TEST_CASE("Structural: tuples, projections and ifs", "[structural]") {
  Var x = makeVar("x", f32({2}));
  Var c = makeVar("c", tensorType({}, DTypeCode::Bool));
  checkEqual(makeTupleGetItem(makeTuple({x, relu(x)}), 1), makeTupleGetItem(makeTuple({x, relu(x)}), 1));
  checkDifferent(makeTupleGetItem(makeTuple({x, relu(x)}), 1), makeTupleGetItem(makeTuple({x, relu(x)}), 0));
  checkDifferent(makeTuple({x}), makeTuple({x, x}));
  checkEqual(makeIf(c, x, relu(x)), makeIf(c, x, relu(x)));
  checkDifferent(makeIf(c, x, relu(x)), makeIf(c, relu(x), x));
}

TEST_CASE("Structural: DAG sharing equals its tree expansion, with equal hashes", "[structural]") {
  Var x = makeVar("x", f32({4}));
  Expr shared = relu(x);
  Expr dag = add(shared, shared);
  Expr tree = add(relu(x), relu(x));
  checkEqual(dag, tree);
  Var y = makeVar("y", f32({4}));
  checkEqual(makeFunction({x}, dag), makeFunction({y}, add(relu(y), relu(y))));
}

TEST_CASE("Structural: dataflow blocks", "[structural]") {
  auto build = [](bool dataflowLocal) {
    Var x = makeVar("x", f32({2}));
    Var lv = makeVar("lv", nullptr, dataflowLocal);
    Var gv = makeVar("gv");
    return makeFunction({x}, makeDataflow({{lv, relu(x)}, {gv, add(lv, x)}}, gv));
  };
  checkEqual(build(true), build(true));
  checkDifferent(build(true), build(false));
}

TEST_CASE("Structural: hash is consistent across a table of equal pairs", "[structural]") {
  using Builder = std::function<Expr()>;
  auto makers = GENERATE(values<std::pair<std::string, Builder>>({
      {"closure", [] {
         Var p = makeVar("p", f32({3}));
         Var f = makeVar("f");
         Var x = makeVar("x", f32({3}));
         return Expr(makeFunction({x}, makeLet(f, makeFunction({p}, relu(p)), makeCall(f, {x}))));
       }},
      {"nested tuple", [] {
         Var x = makeVar("x", f32({3}));
         return Expr(makeFunction({x}, makeTuple({makeTuple({x}), makeTupleGetItem(makeTuple({x, x}), 0)})));
       }},
      {"constant", [] { return makeConstant(filled(DTypeCode::Int8, {4}, -2)); }},
      {"op with attrs", [] {
         Var x = makeVar("x", f32({2, 6}));
         return Expr(makeFunction({x}, makeOpCall(OpId::Split, {x}, {{"indices_or_sections", AttrValue::integer(3)}, {"axis", AttrValue::integer(1)}})));
       }},
  }));
  CAPTURE(makers.first);
  checkEqual(makers.second(), makers.second());
}

TEST_CASE("Structural: hashing and equality of 200k-deep chains do not recurse", "[structural][scale]") {
  auto chain = [] {
    Var x = makeVar("x", f32({8}));
    Expr e = x;
    for (int i = 0; i < 200000; ++i) e = i % 3 ? relu(e) : add(e, x);
    return Expr(makeFunction({x}, e));
  };
  Expr a = chain(), b = chain();
  CHECK(structuralEqual(a, b));
  CHECK(structuralHash(a) == structuralHash(b));
}

TEST_CASE("Structural: hashes tell common differences apart", "[structural]") {
  Var x = makeVar("x", f32({2}));
  Var y = makeVar("y", f32({2}));
  // Not required for correctness, but dedupe relies on hashes spreading.
  CHECK(structuralHash(makeFunction({x}, relu(x))) != structuralHash(makeFunction({y}, makeOpCall(OpId::Sigmoid, {y}))));
  CHECK(structuralHash(makeConstant(filled(DTypeCode::Float32, {2}, 0))) != structuralHash(makeConstant(filled(DTypeCode::Float32, {2}, 1))));
}

// ---- PrimFuncs --------------------------------------------------------------------

namespace {

/// B[i] = A[i] * c, over a loop of the given kind, optionally with an embedded constant.
PrimFunc scale(tir::ForKind kind, double factor, bool embedConstant = false) {
  using namespace tir;
  Buffer a = makeBuffer("A", DTypeCode::Float16, {16});
  Buffer b = makeBuffer("B", DTypeCode::Float16, {16});
  tir::Var i = tir::makeVar("i");
  Stmt body = forLoop(i, intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 16), kind,
                      store(b, {i}, binary(BinaryOp::Mul, load(a, {i}), floatImm(DTypeCode::Float16, factor))));
  if (embedConstant) {
    Buffer k = makeBuffer("K", DTypeCode::Float16, {2});
    body = allocateConst(k, filled(DTypeCode::Float16, {2}, factor), body);
  }
  return makePrimFunc({{tir::makeVar("A_data"), a}, {tir::makeVar("B_data"), b}}, body,
                      {{"target", AttrValue::string("llvm")}});
}

}  // namespace

TEST_CASE("Structural: PrimFuncs compare modulo variable and buffer names", "[structural][tir]") {
  checkEqual(scale(tir::ForKind::Serial, 0.5), scale(tir::ForKind::Serial, 0.5));
  checkEqual(scale(tir::ForKind::Serial, 0.5, true), scale(tir::ForKind::Serial, 0.5, true));
  checkDifferent(scale(tir::ForKind::Serial, 0.5), scale(tir::ForKind::Vectorized, 0.5));
  checkDifferent(scale(tir::ForKind::Serial, 0.5), scale(tir::ForKind::Serial, 0.25));
  checkDifferent(scale(tir::ForKind::Serial, 0.5, true), scale(tir::ForKind::Serial, 0.5, false));
  PrimFunc p = scale(tir::ForKind::Serial, 0.5);
  checkDifferent(p, makePrimFunc(p->params, p->body, {{"target", AttrValue::string("hexagon")}}));
}

TEST_CASE("Structural: PrimFunc buffers must be used in the same positions", "[structural][tir]") {
  using namespace tir;
  auto copy = [](bool reversed) {
    Buffer a = makeBuffer("A", DTypeCode::Float32, {4});
    Buffer b = makeBuffer("B", DTypeCode::Float32, {4});
    tir::Var i = tir::makeVar("i");
    Buffer src = reversed ? b : a, dst = reversed ? a : b;
    return makePrimFunc({{tir::makeVar("a"), a}, {tir::makeVar("b"), b}},
                        forLoop(i, intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 4), ForKind::Serial,
                                store(dst, {i}, load(src, {i}))));
  };
  checkEqual(copy(false), copy(false));
  checkDifferent(copy(false), copy(true));
}

// ---- Modules -------------------------------------------------------------------------

TEST_CASE("Structural: modules compare names, functions and attributes", "[structural]") {
  auto module = [](const std::string& fnName, int64_t phase) {
    return makeModule({{fnName, addRelu("x", "y")}, {"scale", scale(tir::ForKind::Serial, 2)}},
                      {{"phase", AttrValue::integer(phase)}});
  };
  CHECK(structuralEqual(module("main", 0), module("main", 0)));
  CHECK(structuralHash(module("main", 0)) == structuralHash(module("main", 0)));
  CHECK_FALSE(structuralEqual(module("main", 0), module("main", 1)));
  CHECK_FALSE(structuralEqual(module("main", 0), module("other", 0)));
  IRModule m = module("main", 0);
  CHECK_FALSE(structuralEqual(m, withoutFunction(m, "scale")));
}

TEST_CASE("Structural: outlined functions can be deduplicated by hash and equality", "[structural]") {
  std::vector<Function> outlined = {addRelu("a", "b"), addRelu("c", "d"), addRelu("e", "f")};
  Var x = makeVar("x", f32({1, 8}));
  outlined.push_back(makeFunction({x}, relu(x), f32({1, 8}), {{"Composite", AttrValue::string("relu")}}));
  std::vector<Function> unique;
  for (const Function& f : outlined) {
    bool found = false;
    for (const Function& u : unique)
      found = found || (structuralHash(u) == structuralHash(f) && structuralEqual(u, f));
    if (!found) unique.push_back(f);
  }
  CHECK(unique.size() == 2);
}

TEST_CASE("Structural: TIR expressions compare by structure, free variables by identity", "[structural][tir]") {
  using namespace tir;
  tir::Var i = tir::makeVar("i", DTypeCode::Int64), j = tir::makeVar("i", DTypeCode::Int64);
  auto index = [](const tir::Var& v, int64_t w) {
    return binary(BinaryOp::Add, binary(BinaryOp::Mul, v, intImm(DTypeCode::Int64, w)), intImm(DTypeCode::Int64, 3));
  };
  CHECK(structuralEqual(index(i, 14), index(i, 14)));  // two trees, one structure
  CHECK_FALSE(structuralEqual(index(i, 14), index(i, 15)));
  CHECK_FALSE(structuralEqual(index(i, 14), index(j, 14)));  // same name, another variable
  CHECK_FALSE(structuralEqual(index(i, 14), cast(DTypeCode::Int32, index(i, 14))));
  CHECK(structuralEqual(call(DTypeCode::Float32, "exp", {floatImm(DTypeCode::Float32, 0.5)}),
                        call(DTypeCode::Float32, "exp", {floatImm(DTypeCode::Float32, 0.5)})));
}
