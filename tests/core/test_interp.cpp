// Interpreter tests: the graph evaluator (lets, closures, recursion, dataflow,
// sharing, long chains, located errors) and the elementwise kernels, with
// float16 results checked bit for bit against a double computation rounded once.
#include <catch2/catch.hpp>

#include <bit>
#include <limits>

#include "core/interp/interpreter.h"
#include "core/ir/module.h"
#include "tests/interp_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

Expr call(OpId op, std::vector<Expr> args, const AttrDict& attrs = {}) { return makeOpCall(op, std::move(args), attrs); }
Expr scalarConst(DataType d, double v) { return makeConstant(NDArray::scalar(d, v)); }
Type f32Type(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float32); }

/// Random halves over many binades, subnormals and large values included.
NDArray randomHalves(int64_t count, uint32_t seed, bool positive) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> exponent(-20, 12);
  std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
  NDArray out(DTypeCode::Float16, {count});
  for (int64_t i = 0; i < count; ++i) {
    double v = std::ldexp(mantissa(rng), exponent(rng));
    out.setFromDouble(i, positive ? std::fabs(v) + 0x1p-24 : v);
  }
  return out;
}

}  // namespace

// ---- Graph evaluator ----------------------------------------------------------------

TEST_CASE("Interp: let, tuple, tuple access and if", "[interp]") {
  Var x = makeVar("x", f32Type({3}));
  Var y = makeVar("y", f32Type({3}));
  Var t = makeVar("t");
  // let %t = (x + y, x * y); if (sum(t.0) < 10) { t.0 } else { t.1 }
  Expr sumFirst = call(OpId::Sum, {makeTupleGetItem(t, 0)});
  Expr body = makeLet(t, makeTuple({call(OpId::Add, {x, y}), call(OpId::Multiply, {x, y})}),
                      makeIf(call(OpId::Less, {sumFirst, scalarConst(DTypeCode::Float32, 10)}), makeTupleGetItem(t, 0),
                             makeTupleGetItem(t, 1)));
  IRModule mod = makeModule({{"main", makeFunction({x, y}, body)}});
  // 1+2+3 + 1+1+1 = 9 < 10: the sum branch.
  Value small = evaluate(mod, "main", {f32({3}, {1, 2, 3}), f32({3}, {1, 1, 1})});
  requireValues(small.tensor(), DTypeCode::Float32, {3}, {2, 3, 4});
  // 2+3+4 + 3 = 12 >= 10: the product branch.
  Value large = evaluate(mod, "main", {f32({3}, {2, 3, 4}), f32({3}, {1, 1, 1})});
  requireValues(large.tensor(), DTypeCode::Float32, {3}, {2, 3, 4});
  Value large2 = evaluate(mod, "main", {f32({3}, {2, 3, 4}), f32({3}, {2, 2, 2})});
  requireValues(large2.tensor(), DTypeCode::Float32, {3}, {4, 6, 8});
}

TEST_CASE("Interp: closures capture their environment", "[interp]") {
  Var x = makeVar("x", f32Type({}));
  Var y = makeVar("y", f32Type({}));
  Var f = makeVar("f");
  // fn (%x) { let %f = fn (%y) { %x * %y }; (%f(2), %f(5)) }
  Function inner = makeFunction({y}, call(OpId::Multiply, {x, y}));
  Expr body = makeLet(f, inner,
                      makeTuple({makeCall(f, {scalarConst(DTypeCode::Float32, 2)}), makeCall(f, {scalarConst(DTypeCode::Float32, 5)})}));
  IRModule mod = makeModule({{"main", makeFunction({x}, body)}});
  Value v = evaluate(mod, "main", {NDArray::scalar(DTypeCode::Float32, 3)});
  REQUIRE(v.isTuple());
  REQUIRE(v.fields().size() == 2);
  CHECK(v.fields()[0].tensor().getAsDouble(0) == 6);
  CHECK(v.fields()[1].tensor().getAsDouble(0) == 15);

  // A closure returned from the module outlives the evaluation and still runs.
  IRModule maker = makeModule({{"main", makeFunction({x}, inner)}});
  Value closure = evaluate(maker, "main", {NDArray::scalar(DTypeCode::Float32, 4)});
  REQUIRE(closure.isClosure());
  maker.reset();
  Var z = makeVar("z");
  Environment env{{z.get(), closure}};
  Value applied = evaluateExpr(makeCall(z, {scalarConst(DTypeCode::Float32, 2.5)}), env);
  CHECK(applied.tensor().getAsDouble(0) == 10);
}

TEST_CASE("Interp: recursive local functions call themselves through their let", "[interp]") {
  // let %f = fn (%n) { if (%n > 0) { %f(%n - 1) + %n } else { 0 } }; (%f(%k), %f)
  Var f = makeVar("f");
  Var n = makeVar("n", tensorType({}, DTypeCode::Int64));
  Var k = makeVar("k", tensorType({}, DTypeCode::Int64));
  Expr one = scalarConst(DTypeCode::Int64, 1);
  Expr step = call(OpId::Add, {makeCall(f, {call(OpId::Subtract, {n, one})}), n});
  Function body = makeFunction({n}, makeIf(call(OpId::Greater, {n, scalarConst(DTypeCode::Int64, 0)}), step, scalarConst(DTypeCode::Int64, 0)));
  IRModule mod = makeModule({{"main", makeFunction({k}, makeLet(f, body, makeTuple({makeCall(f, {k}), f})))}});
  Value v = evaluate(mod, "main", {NDArray::scalar(DTypeCode::Int64, 100)});
  CHECK(v.fields()[0].tensor().getAsInt(0) == 5050);
  // The returned closure still recurses after the evaluation that made it.
  Var g = makeVar("g");
  Value again = evaluateExpr(makeCall(g, {scalarConst(DTypeCode::Int64, 10)}), {{g.get(), v.fields()[1]}});
  CHECK(again.tensor().getAsInt(0) == 55);
}

TEST_CASE("Interp: recursive global calls run without C++ recursion", "[interp]") {
  // @count(%n) = if (%n > 0) { @count(%n - 1) + 1 } else { 0 }
  Var n = makeVar("n", tensorType({}, DTypeCode::Int64));
  Expr one = scalarConst(DTypeCode::Int64, 1);
  Expr recurse = call(OpId::Add, {makeCall(makeGlobalVar("count"), {call(OpId::Subtract, {n, one})}), one});
  Expr body = makeIf(call(OpId::Greater, {n, scalarConst(DTypeCode::Int64, 0)}), recurse, scalarConst(DTypeCode::Int64, 0));
  IRModule mod = makeModule({{"count", makeFunction({n}, body)}});
  Value v = evaluate(mod, "count", {NDArray::scalar(DTypeCode::Int64, 20000)});
  CHECK(v.tensor().getAsInt(0) == 20000);
}

TEST_CASE("Interp: a 100k-op chain evaluates iteratively", "[interp]") {
  Var x = makeVar("x", f32Type({2}));
  Expr one = makeConstant(f32({2}, {1, 0.5}));
  Expr e = x;
  for (int i = 0; i < 100000; ++i) e = call(OpId::Add, {e, one});
  IRModule mod = makeModule({{"main", makeFunction({x}, e)}});
  Value v = evaluate(mod, "main", {f32({2}, {0, 0})});
  requireValues(v.tensor(), DTypeCode::Float32, {2}, {100000, 50000});
  e = nullptr;  // the chain is released iteratively by the IR
}

TEST_CASE("Interp: shared nodes are evaluated once", "[interp]") {
  // x_{i+1} = x_i + x_i, 80 levels deep: a tree walk would do 2^80 additions.
  Var x = makeVar("x", f32Type({}));
  Expr e = x;
  for (int i = 0; i < 80; ++i) e = call(OpId::Add, {e, e});
  Value v = evaluateExpr(e, {{x.get(), NDArray::scalar(DTypeCode::Float32, 1)}});
  CHECK(v.tensor().getAsDouble(0) == std::ldexp(1.0, 80));
}

TEST_CASE("Interp: dataflow blocks bind in order", "[interp]") {
  Var x = makeVar("x", f32Type({2}));
  Var lv0 = makeVar("lv0", nullptr, true);
  Var lv1 = makeVar("lv1", nullptr, true);
  Var gv = makeVar("gv");
  Expr block = makeDataflow({{lv0, call(OpId::Exp, {x})}, {lv1, call(OpId::Add, {lv0, lv0})}, {gv, call(OpId::Log, {lv1})}}, gv);
  IRModule mod = makeModule({{"main", makeFunction({x}, block)}});
  Value v = evaluate(mod, "main", {f32({2}, {0, 1})});
  requireValues(v.tensor(), DTypeCode::Float32, {2}, {std::log(2.0), 1 + std::log(2.0)}, 1e-6);
}

TEST_CASE("Interp: runtime errors are located diagnostics", "[interp]") {
  auto file = std::make_shared<SourceFile>("model.relay", "def @main(%a, %b) {\n  add(%a, %b)\n}\n");
  Span span{file, 2, 3, 2, 14};
  Var a = makeVar("a");
  Var b = makeVar("b");
  Expr bad = makeOpCall(OpId::Add, {a, b}, {}, span);
  IRModule mod = makeModule({{"main", makeFunction({a, b}, bad)}});
  try {
    evaluate(mod, "main", {f32({2}, {1, 2}), f32({3}, {1, 2, 3})});
    FAIL("expected a DiagnosticError");
  } catch (const DiagnosticError& e) {
    const Diagnostic& d = e.diagnostics().at(0);
    CHECK(d.span.line == 2);
    CHECK(d.span.column == 3);
    CHECK(d.rule == "interp.runtime");
    CHECK_THAT(d.message, Catch::Contains("add") && Catch::Contains("(2)") && Catch::Contains("(3)"));
  }

  SECTION("arguments are checked against declared types") {
    Var p = makeVar("p", f32Type({2, 2}));
    IRModule typed = makeModule({{"main", makeFunction({p}, p)}});
    CHECK_THROWS_AS(evaluate(typed, "main", {f32({4}, {1, 2, 3, 4})}), DiagnosticError);
    CHECK_THROWS_AS(evaluate(typed, "main", {}), DiagnosticError);
  }
  SECTION("a missing function is an error") { CHECK_THROWS_AS(evaluate(mod, "nope", {}), DiagnosticError); }
}

// ---- Elementwise kernels ----------------------------------------------------------------

namespace {

struct BinaryCase {
  OpId op;
  std::vector<int64_t> shapeA, shapeB;
  std::vector<double> a, b;
  std::vector<int64_t> outShape;
  std::vector<double> expected;
  DataType outType = DTypeCode::Float32;
};

}  // namespace

TEST_CASE("Interp: binary elementwise ops with broadcasting", "[interp]") {
  double nan = std::numeric_limits<double>::quiet_NaN();
  auto c = GENERATE_COPY(values<BinaryCase>({
      {OpId::Add, {3}, {3}, {1, 2, 3}, {10, 20, 30}, {3}, {11, 22, 33}},
      {OpId::Add, {2, 1}, {3}, {1, 2}, {10, 20, 30}, {2, 3}, {11, 21, 31, 12, 22, 32}},
      {OpId::Subtract, {2, 2}, {}, {5, 6, 7, 8}, {1}, {2, 2}, {4, 5, 6, 7}},
      {OpId::Multiply, {1, 3}, {2, 1}, {1, 2, 3}, {2, 3}, {2, 3}, {2, 4, 6, 3, 6, 9}},
      {OpId::Divide, {4}, {4}, {1, -1, 0, 3}, {4, 4, 0, -0.5}, {4}, {0.25, -0.25, nan, -6}},
      {OpId::Power, {3}, {1}, {2, 3, 4}, {2}, {3}, {4, 9, 16}},
      {OpId::Maximum, {3}, {3}, {1, 5, nan}, {2, 4, 0}, {3}, {2, 5, nan}},
      {OpId::Minimum, {3}, {3}, {1, 5, 0}, {2, 4, nan}, {3}, {1, 4, nan}},
      {OpId::Equal, {3}, {3}, {1, 2, 3}, {1, 0, 3}, {3}, {1, 0, 1}, DTypeCode::Bool},
      {OpId::Less, {2, 2}, {2}, {1, 2, 3, 4}, {2, 3}, {2, 2}, {1, 1, 0, 0}, DTypeCode::Bool},
      {OpId::Greater, {3}, {}, {1, 2, 3}, {2}, {3}, {0, 0, 1}, DTypeCode::Bool},
  }));
  INFO(opDef(c.op).name);
  NDArray out = runOp(c.op, {f32(c.shapeA, c.a), f32(c.shapeB, c.b)});
  requireValues(out, c.outType, c.outShape, c.expected);
}

TEST_CASE("Interp: unary elementwise ops", "[interp]") {
  struct UnaryCase {
    OpId op;
    std::vector<double> in, expected;
    AttrDict attrs;
  };
  auto c = GENERATE_COPY(values<UnaryCase>({
      {OpId::Negative, {1, -2, 0}, {-1, 2, -0.0}, {}},
      {OpId::Abs, {-1.5, 2, -0.0}, {1.5, 2, 0}, {}},
      {OpId::Exp, {0, 1, -1}, {1, std::exp(1.0), std::exp(-1.0)}, {}},
      {OpId::Log, {1, std::exp(2.0), 0.5}, {0, 2, std::log(0.5)}, {}},
      {OpId::Sqrt, {4, 2, 0}, {2, std::sqrt(2.0), 0}, {}},
      {OpId::Rsqrt, {4, 0.25, 1}, {0.5, 2, 1}, {}},
      {OpId::Tanh, {0, 1, -20}, {0, std::tanh(1.0), -1}, {}},
      {OpId::Sigmoid, {0, 2, -2}, {0.5, 1 / (1 + std::exp(-2.0)), 1 / (1 + std::exp(2.0))}, {}},
      {OpId::Erf, {0, 1, -0.5}, {0, std::erf(1.0), std::erf(-0.5)}, {}},
      {OpId::Sin, {0, 1, -0.5}, {0, std::sin(1.0), std::sin(-0.5)}, {}},
      {OpId::Cos, {0, 1, -0.5}, {1, std::cos(1.0), std::cos(-0.5)}, {}},
      {OpId::Tan, {0, 1, -0.5}, {0, std::tan(1.0), std::tan(-0.5)}, {}},
      {OpId::Asin, {0, 1, -0.5}, {0, M_PI / 2, -M_PI / 6}, {}},
      {OpId::Acos, {1, -1, 0.5}, {0, M_PI, M_PI / 3}, {}},
      {OpId::Atan, {0, 1, -1e30}, {0, M_PI / 4, -M_PI / 2}, {}},
      {OpId::Sinh, {0, 1, -0.5}, {0, std::sinh(1.0), std::sinh(-0.5)}, {}},
      {OpId::Cosh, {0, 1, -0.5}, {1, std::cosh(1.0), std::cosh(-0.5)}, {}},
      {OpId::Asinh, {0, 1, -0.5}, {0, std::asinh(1.0), std::asinh(-0.5)}, {}},
      {OpId::Acosh, {1, 2, 10}, {0, std::acosh(2.0), std::acosh(10.0)}, {}},
      {OpId::Atanh, {0, 0.5, -0.5}, {0, std::atanh(0.5), std::atanh(-0.5)}, {}},
      {OpId::Round, {0.5, 1.5, 2.5, -2.5, 2.6}, {0, 2, 2, -2, 3}, {}},  // ties to even, like TVM/NumPy
      {OpId::Floor, {1.7, -1.2, 3}, {1, -2, 3}, {}},
      {OpId::Ceil, {1.2, -1.7, 3}, {2, -1, 3}, {}},
      {OpId::Relu, {-1, 0, 2.5}, {0, 0, 2.5}, {}},
      {OpId::LeakyRelu, {-2, 3}, {-0.2, 3}, {{"alpha", AttrValue::floating(0.1)}}},
      {OpId::LeakyRelu, {-4, 1}, {-1, 1}, {}},  // default alpha 0.25
      {OpId::Clip, {-3, 0.5, 9}, {-1, 0.5, 2}, {{"a_min", AttrValue::floating(-1)}, {"a_max", AttrValue::floating(2)}}},
  }));
  INFO(opDef(c.op).name);
  int64_t n = static_cast<int64_t>(c.in.size());
  NDArray out = runOp(c.op, {f32({n}, c.in)}, c.attrs);
  std::vector<double> expected;
  for (double e : c.expected) expected.push_back(static_cast<float>(e));
  requireValues(out, DTypeCode::Float32, {n}, expected, 1e-7);
}

TEST_CASE("Interp: float16 binary ops are correctly rounded", "[interp]") {
  // Each kernel result must equal the exact double result rounded once.
  const int64_t count = 4096;
  NDArray a = randomHalves(count, 1, false);
  NDArray b = randomHalves(count, 2, false);
  NDArray pos = randomHalves(count, 3, true);
  auto bits = [](const NDArray& t, int64_t i) { return t.values<uint16_t>()[i]; };
  auto half = [](double v) { return Half::fromDouble(v); };

  using Fn2 = double (*)(double, double);
  struct Binary {
    OpId op;
    Fn2 f;
  };
  auto bin = GENERATE(values<Binary>({
      {OpId::Add, [](double x, double y) { return x + y; }},
      {OpId::Subtract, [](double x, double y) { return x - y; }},
      {OpId::Multiply, [](double x, double y) { return x * y; }},
      {OpId::Divide, [](double x, double y) { return x / y; }},
      {OpId::Maximum, [](double x, double y) { return std::max(x, y); }},
      {OpId::Power, [](double x, double y) { return std::pow(std::fabs(x), y); }},
  }));
  INFO(opDef(bin.op).name);
  NDArray lhs = bin.op == OpId::Power ? pos : a;
  NDArray rhs = bin.op == OpId::Power ? randomArray(DTypeCode::Float16, {count}, 7, -3, 3) : b;
  NDArray out = runOp(bin.op, {lhs, rhs});
  REQUIRE(out.dtype() == DataType(DTypeCode::Float16));
  int64_t mismatches = 0;
  for (int64_t i = 0; i < count; ++i) {
    double x = lhs.getAsDouble(i), y = rhs.getAsDouble(i);
    uint16_t expected = half(bin.f(x, y));
    if (bits(out, i) != expected) {
      ++mismatches;
      UNSCOPED_INFO("x=" << x << " y=" << y << " got " << bits(out, i) << " want " << expected);
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("Interp: float16 unary ops are correctly rounded", "[interp]") {
  NDArray a = randomHalves(4096, 11, false);
  NDArray pos = randomHalves(4096, 12, true);
  auto bits = [](const NDArray& t, int64_t i) { return t.values<uint16_t>()[i]; };
  const int64_t count = a.numElements();
  using Fn1 = double (*)(double);
  struct Unary {
    OpId op;
    Fn1 f;
    bool positiveOnly;
  };
  auto un = GENERATE(values<Unary>({
      {OpId::Sqrt, [](double x) { return std::sqrt(x); }, true},
      {OpId::Rsqrt, [](double x) { return 1 / std::sqrt(x); }, true},
      {OpId::Log, [](double x) { return std::log(x); }, true},
      {OpId::Exp, [](double x) { return std::exp(x); }, false},
      {OpId::Tanh, [](double x) { return std::tanh(x); }, false},
      {OpId::Sigmoid, [](double x) { return 1 / (1 + std::exp(-x)); }, false},
      {OpId::Erf, [](double x) { return std::erf(x); }, false},
      {OpId::Sin, [](double x) { return std::sin(x); }, false},
      {OpId::Atan, [](double x) { return std::atan(x); }, false},
      {OpId::Sinh, [](double x) { return std::sinh(x); }, false},
      {OpId::Cosh, [](double x) { return std::cosh(x); }, false},
      {OpId::Negative, [](double x) { return -x; }, false},
      {OpId::Floor, [](double x) { return std::floor(x); }, false},
  }));
  INFO(opDef(un.op).name);
  NDArray in = un.positiveOnly ? pos : a;
  NDArray uout = runOp(un.op, {in});
  int64_t umismatches = 0;
  for (int64_t i = 0; i < count; ++i)
    if (bits(uout, i) != Half::fromDouble(un.f(in.getAsDouble(i)))) ++umismatches;
  CHECK(umismatches == 0);
}

TEST_CASE("Interp: float16 rounds ties to even and overflows to infinity", "[interp]") {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even gives 1.
  NDArray one = makeArray(DTypeCode::Float16, {2}, {1, 1 + 0x1p-10});
  NDArray tiny = makeArray(DTypeCode::Float16, {2}, {0x1p-11, 0x1p-11});
  NDArray sum = runOp(OpId::Add, {one, tiny});
  CHECK(sum.getAsDouble(0) == 1.0);
  CHECK(sum.getAsDouble(1) == 1 + 0x1p-9);  // 1.5 ulps from an odd mantissa: up to the even one
  NDArray big = makeArray(DTypeCode::Float16, {1}, {60000});
  CHECK(std::isinf(runOp(OpId::Add, {big, big}).getAsDouble(0)));
  // A subnormal product is rounded, not flushed.
  NDArray sub = makeArray(DTypeCode::Float16, {1}, {0x1p-12});
  CHECK(runOp(OpId::Multiply, {sub, sub}).getAsDouble(0) == 0x1p-24);
}

TEST_CASE("Interp: integer arithmetic wraps and truncates", "[interp]") {
  NDArray big = makeArray(DTypeCode::Int32, {2}, {2147483647, -2147483647 - 1.0});
  NDArray one = makeArray(DTypeCode::Int32, {2}, {1, 1});
  requireValues(runOp(OpId::Add, {big, one}), DTypeCode::Int32, {2}, {-2147483648.0, -2147483647});
  NDArray a = makeArray(DTypeCode::Int32, {4}, {7, -7, 7, -7});
  NDArray b = makeArray(DTypeCode::Int32, {4}, {2, 2, -2, -2});
  requireValues(runOp(OpId::Divide, {a, b}), DTypeCode::Int32, {4}, {3, -3, -3, 3});
  NDArray i8 = makeArray(DTypeCode::Int8, {2}, {100, -128});
  requireValues(runOp(OpId::Multiply, {i8, makeArray(DTypeCode::Int8, {2}, {2, -1})}), DTypeCode::Int8, {2}, {-56, -128});
  requireValues(runOp(OpId::Power, {makeArray(DTypeCode::Int64, {3}, {3, 2, -1}), makeArray(DTypeCode::Int64, {3}, {4, -1, 3})}),
                DTypeCode::Int64, {3}, {81, 0, -1});
  CHECK_THROWS_AS(runOp(OpId::Divide, {a, makeArray(DTypeCode::Int32, {4}, {1, 0, 1, 1})}), DiagnosticError);
  requireValues(runOp(OpId::Abs, {makeArray(DTypeCode::UInt8, {2}, {3, 250})}), DTypeCode::UInt8, {2}, {3, 250});
}

TEST_CASE("Interp: mod takes the dividend's sign, floor_mod the divisor's", "[interp]") {
  NDArray a = makeArray(DTypeCode::Int32, {5}, {7, -7, 7, -7, 6});
  NDArray b = makeArray(DTypeCode::Int32, {5}, {3, 3, -3, -3, -1});
  requireValues(runOp(OpId::Mod, {a, b}), DTypeCode::Int32, {5}, {1, -1, 1, -1, 0});
  requireValues(runOp(OpId::FloorMod, {a, b}), DTypeCode::Int32, {5}, {1, 2, -2, -1, 0});
  CHECK_THROWS_AS(runOp(OpId::FloorMod, {a, makeArray(DTypeCode::Int32, {1}, {0})}), DiagnosticError);
  NDArray x = makeArray(DTypeCode::Float32, {4}, {5.5, -5.5, 5.5, -0.0});
  NDArray y = makeArray(DTypeCode::Float32, {4}, {2, 2, -2, 3});
  requireValues(runOp(OpId::Mod, {x, y}), DTypeCode::Float32, {4}, {1.5, -1.5, 1.5, -0.0});
  requireValues(runOp(OpId::FloorMod, {x, y}), DTypeCode::Float32, {4}, {1.5, 0.5, -0.5, 0});
}

TEST_CASE("Interp: cast between every pair of dtypes", "[interp]") {
  const std::vector<DTypeCode> all = {DTypeCode::Bool,  DTypeCode::Int8,    DTypeCode::Int16,   DTypeCode::Int32, DTypeCode::Int64,
                                      DTypeCode::UInt8, DTypeCode::Float16, DTypeCode::Float32, DTypeCode::Float64};
  auto from = GENERATE_COPY(from_range(all));
  auto to = GENERATE_COPY(from_range(all));
  // Values every dtype holds exactly.
  NDArray src = makeArray(from, {3}, {0, 1, DataType(from).isBool() ? 1.0 : 5.0});
  NDArray out = runOp(OpId::Cast, {src}, {{"dtype", AttrValue::string(std::string(DataType(to).name()))}});
  REQUIRE(out.dtype() == DataType(to));
  for (int64_t i = 0; i < 3; ++i) {
    double v = src.getAsDouble(i);
    CHECK(out.getAsDouble(i) == (DataType(to).isBool() ? (v != 0) : v));
  }
}

TEST_CASE("Interp: casts round, truncate and saturate", "[interp]") {
  double nan = std::numeric_limits<double>::quiet_NaN();
  NDArray f = makeArray(DTypeCode::Float32, {6}, {2.7, -2.7, 1e10, -1e10, nan, 300});
  auto cast = [&](DTypeCode to) { return runOp(OpId::Cast, {f}, {{"dtype", AttrValue::string(std::string(DataType(to).name()))}}); };
  requireValues(cast(DTypeCode::Int32), DTypeCode::Int32, {6}, {2, -2, 2147483647, -2147483648.0, 0, 300});
  requireValues(cast(DTypeCode::Int8), DTypeCode::Int8, {6}, {2, -2, 127, -128, 0, 127});
  requireValues(cast(DTypeCode::UInt8), DTypeCode::UInt8, {6}, {2, 0, 255, 0, 0, 255});
  requireValues(cast(DTypeCode::Bool), DTypeCode::Bool, {6}, {1, 1, 1, 1, 1, 1});
  // float32 -> float16: one rounding to nearest even; 2049 is halfway between 2048 and 2050.
  NDArray g = makeArray(DTypeCode::Float32, {3}, {2049, 2051, 1e6});
  NDArray h = runOp(OpId::Cast, {g}, {{"dtype", AttrValue::string("float16")}});
  CHECK(h.getAsDouble(0) == 2048);
  CHECK(h.getAsDouble(1) == 2052);
  CHECK(std::isinf(h.getAsDouble(2)));
}

TEST_CASE("Interp: where selects with three-way broadcasting", "[interp]") {
  NDArray cond = makeArray(DTypeCode::Bool, {2, 1}, {1, 0});
  NDArray out = runOp(OpId::Where, {cond, f32({3}, {1, 2, 3}), f32({}, {-1})});
  requireValues(out, DTypeCode::Float32, {2, 3}, {1, 2, 3, -1, -1, -1});
}

TEST_CASE("Interp: every dtype runs through add, maximum and negative", "[interp]") {
  auto dtype = GENERATE(DTypeCode::Int8, DTypeCode::Int16, DTypeCode::Int32, DTypeCode::Int64, DTypeCode::UInt8,
                        DTypeCode::Float16, DTypeCode::Float32, DTypeCode::Float64);
  NDArray a = makeArray(dtype, {3}, {1, 2, 3});
  NDArray b = makeArray(dtype, {3}, {4, 1, 3});
  requireValues(runOp(OpId::Add, {a, b}), dtype, {3}, {5, 3, 6});
  requireValues(runOp(OpId::Maximum, {a, b}), dtype, {3}, {4, 2, 3});
  if (dtype != DTypeCode::UInt8) requireValues(runOp(OpId::Negative, {a}), dtype, {3}, {-1, -2, -3});
  requireValues(runOp(OpId::Equal, {a, b}), DTypeCode::Bool, {3}, {0, 0, 1});
}
