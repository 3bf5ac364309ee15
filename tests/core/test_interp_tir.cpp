// Interpreter tests of the TIR evaluator: loops, loads/stores, lets, ifs,
// allocations, embedded float16 constants, intrinsics, calls between
// PrimFuncs, bounds checks, and graph-level call_tir / VM builtins.
#include <catch2/catch.hpp>

#include "core/ir/module.h"
#include "tests/interp_test_util.h"

using namespace passlab;
using namespace passlab::testing;
namespace T = passlab::tir;

namespace {

T::PrimExpr i32(int64_t v) { return T::intImm(DTypeCode::Int32, v); }

/// A buffer parameter whose data variable has the buffer's name.
T::Param bufferParam(const T::Buffer& b) { return {T::makeVar(b->name, DTypeCode::Int64), b}; }

/// for i in [0, n): body(i)
T::Stmt loop(const T::Var& i, int64_t n, T::Stmt body, T::ForKind kind = T::ForKind::Serial) {
  return T::forLoop(i, i32(0), i32(n), kind, std::move(body));
}

/// @vadd(A, B, C): C[i] = A[i] + B[i] over 4 float32 elements.
PrimFunc vaddPrimFunc() {
  auto A = T::makeBuffer("A", DTypeCode::Float32, {4});
  auto B = T::makeBuffer("B", DTypeCode::Float32, {4});
  auto C = T::makeBuffer("C", DTypeCode::Float32, {4});
  auto i = T::makeVar("i");
  auto body = loop(i, 4, T::store(C, {i}, T::binary(T::BinaryOp::Add, T::load(A, {i}), T::load(B, {i}))), T::ForKind::Vectorized);
  return makePrimFunc({bufferParam(A), bufferParam(B), bufferParam(C)}, body, {{"global_symbol", AttrValue::string("vadd")}});
}

}  // namespace

TEST_CASE("Interp: TIR loops, loads and stores", "[interp]") {
  IRModule mod = makeModule({{"vadd", vaddPrimFunc()}});
  NDArray a = f32({4}, {1, 2, 3, 4});
  NDArray b = f32({4}, {10, 20, 30, 40});
  NDArray c(DTypeCode::Float32, {4});
  std::vector<NDArray> args{a, b, c};
  evaluatePrimFunc(mod, "vadd", args);
  requireValues(c, DTypeCode::Float32, {4}, {11, 22, 33, 44});
  // Wrong element count is a located error, not a wild write.
  std::vector<NDArray> bad{a, b, NDArray(DTypeCode::Float32, {3})};
  CHECK_THROWS_AS(evaluatePrimFunc(mod, "vadd", bad), DiagnosticError);
}

TEST_CASE("Interp: call_tir runs a PrimFunc and agrees with the op", "[interp]") {
  Var x = makeVar("x", tensorType({4}, DTypeCode::Float32));
  Var y = makeVar("y", tensorType({4}, DTypeCode::Float32));
  Expr callTir = makeOpCall(OpId::CallTir, {makeGlobalVar("vadd"), makeTuple({x, y})},
                            {{"out_shape", ints({4})}, {"out_dtype", AttrValue::string("float32")}});
  IRModule mod = makeModule({{"vadd", vaddPrimFunc()}, {"main", makeFunction({x, y}, callTir)}});
  NDArray a = randomArray(DTypeCode::Float32, {4}, 40);
  NDArray b = randomArray(DTypeCode::Float32, {4}, 41);
  Value lowered = evaluate(mod, "main", {a, b});
  CHECK(lowered.tensor().bitwiseEqual(runOp(OpId::Add, {a, b})));
  // Inputs are read-only to the callee: a PrimFunc that writes its input fails.
  auto A = T::makeBuffer("A", DTypeCode::Float32, {4});
  auto C = T::makeBuffer("C", DTypeCode::Float32, {4});
  auto i = T::makeVar("i");
  PrimFunc clobber = makePrimFunc({bufferParam(A), bufferParam(C)}, loop(i, 4, T::store(A, {i}, T::floatImm(DTypeCode::Float32, 0))));
  Expr bad = makeOpCall(OpId::CallTir, {makeGlobalVar("clobber"), makeTuple({x})},
                        {{"out_shape", ints({4})}, {"out_dtype", AttrValue::string("float32")}});
  IRModule badMod = makeModule({{"clobber", clobber}, {"main", makeFunction({x}, bad)}});
  CHECK_THROWS_WITH(evaluate(badMod, "main", {a}), Catch::Contains("read-only"));
}

TEST_CASE("Interp: TIR float16 rounds after every operation; embedded float16 constants", "[interp]") {
  // out[i] = A[i] * K[i] + 1 in float16, K an allocate_const of float16.
  auto A = T::makeBuffer("A", DTypeCode::Float16, {3});
  auto K = T::makeBuffer("K", DTypeCode::Float16, {3});
  auto O = T::makeBuffer("O", DTypeCode::Float16, {3});
  NDArray k = makeArray(DTypeCode::Float16, {3}, {1.0009765625, 3.14159, -0.333});
  auto i = T::makeVar("i");
  auto product = T::binary(T::BinaryOp::Mul, T::load(A, {i}), T::load(K, {i}));
  auto body = T::allocateConst(K, k, loop(i, 3, T::store(O, {i}, T::binary(T::BinaryOp::Add, product, T::floatImm(DTypeCode::Float16, 1)))));
  IRModule mod = makeModule({{"f", makePrimFunc({bufferParam(A), bufferParam(O)}, body)}});
  NDArray a = makeArray(DTypeCode::Float16, {3}, {1.0009765625, 2.5, 7.75});
  NDArray o(DTypeCode::Float16, {3});
  std::vector<NDArray> args{a, o};
  evaluatePrimFunc(mod, "f", args);
  for (int64_t j = 0; j < 3; ++j) {
    double p = Half::toFloatBits(Half::fromDouble(a.getAsDouble(j) * k.getAsDouble(j)));
    CHECK(o.values<uint16_t>()[j] == Half::fromDouble(p + 1));
  }
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 rounds to 1 + 2^-9 before the + 1.
  CHECK(o.getAsDouble(0) == 2 + 0x1p-9);
}

TEST_CASE("Interp: TIR lets, ifs, selects, intrinsics, integer division and scratch buffers", "[interp]") {
  // for i in [0, 6): let v = i - 3; tmp[i] = floordiv(v, 2) * 10 + floormod(v, 2)
  //   if (v < 0) out[i] = sqrt(float(-v)) else out[i] = select(v == 1, exp(0), float(tmp[i]))
  auto out = T::makeBuffer("out", DTypeCode::Float32, {6});
  auto tmp = T::makeBuffer("tmp", DTypeCode::Int32, {6});
  auto i = T::makeVar("i");
  auto v = T::makeVar("v");
  auto fdiv = T::binary(T::BinaryOp::FloorDiv, v, i32(2));
  auto fmod = T::binary(T::BinaryOp::FloorMod, v, i32(2));
  auto tmpValue = T::binary(T::BinaryOp::Add, T::binary(T::BinaryOp::Mul, fdiv, i32(10)), fmod);
  auto negative = T::binary(T::BinaryOp::LT, v, i32(0));
  auto root = T::call(DTypeCode::Float32, "sqrt", {T::cast(DTypeCode::Float32, T::binary(T::BinaryOp::Sub, i32(0), v))});
  auto sel = T::select(T::binary(T::BinaryOp::EQ, v, i32(1)), T::call(DTypeCode::Float32, "exp", {T::floatImm(DTypeCode::Float32, 0)}),
                       T::cast(DTypeCode::Float32, T::load(tmp, {i})));
  auto body = T::seq({T::store(tmp, {i}, tmpValue), T::ifThenElse(negative, T::store(out, {i}, root), T::store(out, {i}, sel))});
  auto fn = makePrimFunc({bufferParam(out)}, T::allocate(tmp, loop(i, 6, T::letStmt(v, T::binary(T::BinaryOp::Sub, i, i32(3)), body))));
  IRModule mod = makeModule({{"f", fn}});
  NDArray o(DTypeCode::Float32, {6});
  std::vector<NDArray> args{o};
  evaluatePrimFunc(mod, "f", args);
  // v = -3 -2 -1 0 1 2: sqrt(3) sqrt(2) 1 | 0 -> tmp 0 | 1 -> exp(0) | 2 -> tmp 10
  requireValues(o, DTypeCode::Float32, {6}, {std::sqrt(3.0f), std::sqrt(2.0f), 1, 0, 1, 10}, 1e-7);

  SECTION("truncating integer division and modulo") {
    auto r = T::makeBuffer("r", DTypeCode::Int32, {4});
    auto seven = i32(-7);
    auto fn2 = makePrimFunc({bufferParam(r)},
                            T::seq({T::store(r, {i32(0)}, T::binary(T::BinaryOp::Div, seven, i32(2))),
                                    T::store(r, {i32(1)}, T::binary(T::BinaryOp::Mod, seven, i32(2))),
                                    T::store(r, {i32(2)}, T::binary(T::BinaryOp::FloorDiv, seven, i32(2))),
                                    T::store(r, {i32(3)}, T::binary(T::BinaryOp::FloorMod, seven, i32(2)))}));
    NDArray res(DTypeCode::Int32, {4});
    std::vector<NDArray> rargs{res};
    evaluatePrimFunc(makeModule({{"g", fn2}}), "g", rargs);
    requireValues(res, DTypeCode::Int32, {4}, {-3, -1, -4, 1});
  }
}

TEST_CASE("Interp: PrimFuncs call each other with buffers", "[interp]") {
  // @scale(X, Y, s): Y[i] = X[i] * s ; @outer(A, B): @scale(A, tmp, 2); @scale(tmp, B, 3)
  auto X = T::makeBuffer("X", DTypeCode::Float32, {4});
  auto Y = T::makeBuffer("Y", DTypeCode::Float32, {4});
  auto s = T::makeVar("s", DTypeCode::Float32);
  auto i = T::makeVar("i");
  auto scale = makePrimFunc({bufferParam(X), bufferParam(Y), {s, nullptr}},
                            loop(i, 4, T::store(Y, {i}, T::binary(T::BinaryOp::Mul, T::load(X, {i}), s))));
  auto A = T::makeBuffer("A", DTypeCode::Float32, {4});
  auto B = T::makeBuffer("B", DTypeCode::Float32, {4});
  auto tmp = T::makeBuffer("tmp", DTypeCode::Float32, {4});
  T::Param pa = bufferParam(A), pb = bufferParam(B);
  auto tmpVar = T::makeVar("tmp", DTypeCode::Int64);
  auto two = T::floatImm(DTypeCode::Float32, 2), three = T::floatImm(DTypeCode::Float32, 3);
  auto body = T::allocate(tmp, T::seq({T::evaluate(T::call(DTypeCode::Int32, "scale", {pa.var, tmpVar, two}, true)),
                                       T::evaluate(T::call(DTypeCode::Int32, "scale", {tmpVar, pb.var, three}, true))}));
  IRModule mod = makeModule({{"scale", scale}, {"outer", makePrimFunc({pa, pb}, body)}});
  NDArray a = f32({4}, {1, 2, 3, 4});
  NDArray b(DTypeCode::Float32, {4});
  std::vector<NDArray> args{a, b};
  evaluatePrimFunc(mod, "outer", args);
  requireValues(b, DTypeCode::Float32, {4}, {6, 12, 18, 24});
}

TEST_CASE("Interp: TIR accesses are bounds-checked", "[interp]") {
  auto A = T::makeBuffer("A", DTypeCode::Float32, {2, 3});
  auto i = T::makeVar("i");
  auto fn = makePrimFunc({bufferParam(A)}, loop(i, 4, T::store(A, {i32(1), i}, T::floatImm(DTypeCode::Float32, 1))));
  NDArray a(DTypeCode::Float32, {2, 3});
  std::vector<NDArray> args{a};
  CHECK_THROWS_WITH(evaluatePrimFunc(makeModule({{"f", fn}}), "f", args), Catch::Contains("out of bounds"));
  auto div = makePrimFunc({bufferParam(A)}, T::store(A, {i32(0), i32(0)}, T::cast(DTypeCode::Float32, T::binary(T::BinaryOp::Div, i32(1), i32(0)))));
  CHECK_THROWS_WITH(evaluatePrimFunc(makeModule({{"f", div}}), "f", args), Catch::Contains("division by zero"));
}

TEST_CASE("Interp: VM builtins allocate and call PrimFuncs in destination-passing style", "[interp]") {
  // Phase-3 form: storage = alloc_storage(16); out = alloc_tensor(storage, ...);
  // vm.builtin.call_tir(@vadd, (x, y, out)); out
  Var x = makeVar("x", tensorType({4}, DTypeCode::Float32));
  Var y = makeVar("y", tensorType({4}, DTypeCode::Float32));
  Var storage = makeVar("storage"), out = makeVar("out"), unit = makeVar("unit");
  Expr alloc = makeOpCall(OpId::VmAllocStorage, {}, {{"size", AttrValue::integer(16)}});
  Expr tensor = makeOpCall(OpId::VmAllocTensor, {storage}, {{"shape", ints({4})}, {"dtype", AttrValue::string("float32")}});
  Expr run = makeOpCall(OpId::VmCallTir, {makeGlobalVar("vadd"), makeTuple({x, y, out})});
  Expr body = makeLet(storage, alloc, makeLet(out, tensor, makeLet(unit, run, out)));
  IRModule mod = makeModule({{"vadd", vaddPrimFunc()}, {"main", makeFunction({x, y}, body)}});
  Value v = evaluate(mod, "main", {f32({4}, {1, 2, 3, 4}), f32({4}, {4, 3, 2, 1})});
  requireValues(v.tensor(), DTypeCode::Float32, {4}, {5, 5, 5, 5});
  // A tensor that does not fit its storage is an error.
  Expr tooBig = makeOpCall(OpId::VmAllocTensor, {makeConstant(NDArray(DTypeCode::UInt8, {8}))},
                           {{"shape", ints({4})}, {"dtype", AttrValue::string("float32")}});
  CHECK_THROWS_AS(evaluateExpr(tooBig), DiagnosticError);
}

TEST_CASE("Interp: call_tir with several outputs returns a tuple", "[interp]") {
  // @minmax(A, B, lo, hi): lo = min(A, B), hi = max(A, B)
  auto A = T::makeBuffer("A", DTypeCode::Int32, {3});
  auto B = T::makeBuffer("B", DTypeCode::Int32, {3});
  auto lo = T::makeBuffer("lo", DTypeCode::Int32, {3});
  auto hi = T::makeBuffer("hi", DTypeCode::Int32, {3});
  auto i = T::makeVar("i");
  auto body = loop(i, 3, T::seq({T::store(lo, {i}, T::binary(T::BinaryOp::Min, T::load(A, {i}), T::load(B, {i}))),
                                T::store(hi, {i}, T::binary(T::BinaryOp::Max, T::load(A, {i}), T::load(B, {i})))}),
                   T::ForKind::Parallel);
  PrimFunc minmax = makePrimFunc({bufferParam(A), bufferParam(B), bufferParam(lo), bufferParam(hi)}, body);
  Expr call = makeOpCall(OpId::CallTir,
                         {makeGlobalVar("minmax"), makeTuple({makeConstant(makeArray(DTypeCode::Int32, {3}, {1, 5, -2})),
                                                              makeConstant(makeArray(DTypeCode::Int32, {3}, {3, 4, -7}))})},
                         {{"out_shape", AttrValue::array({ints({3}), ints({3})})},
                          {"out_dtype", AttrValue::array({AttrValue::string("int32"), AttrValue::string("int32")})}});
  IRModule mod = makeModule({{"minmax", minmax}});
  Value v = evaluateExpr(call, {}, mod);
  REQUIRE(v.fields().size() == 2);
  requireValues(v.fields()[0].tensor(), DTypeCode::Int32, {3}, {1, 4, -7});
  requireValues(v.fields()[1].tensor(), DTypeCode::Int32, {3}, {3, 5, -2});
}

TEST_CASE("Interp: call_dps_packed runs a PrimFunc or an external function with a body", "[interp]") {
  Var x = makeVar("x", tensorType({4}, DTypeCode::Float32));
  Var a = makeVar("a", tensorType({4}, DTypeCode::Float32));
  Function external = makeFunction({a}, makeOpCall(OpId::Relu, {a}), nullptr, {{"Compiler", AttrValue::string("ccompiler")}});
  AttrDict out{{"out_shape", ints({4})}, {"out_dtype", AttrValue::string("float32")}};
  Expr viaExternal = makeOpCall(OpId::CallDpsPacked, {makeGlobalVar("ext"), makeTuple({x})}, out);
  Expr viaPrim = makeOpCall(OpId::CallDpsPacked, {makeGlobalVar("vadd"), makeTuple({x, x})}, out);
  IRModule mod = makeModule({{"ext", external}, {"vadd", vaddPrimFunc()}, {"main", makeFunction({x}, makeTuple({viaExternal, viaPrim}))}});
  Value v = evaluate(mod, "main", {f32({4}, {-1, 2, -3, 4})});
  requireValues(v.fields()[0].tensor(), DTypeCode::Float32, {4}, {0, 2, 0, 4});
  requireValues(v.fields()[1].tensor(), DTypeCode::Float32, {4}, {-2, 4, -6, 8});
}
