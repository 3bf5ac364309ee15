// Printer unit tests: graph form, scoping of bindings, naming, exact values,
// PrimFunc layout, ranges, determinism and round trips of IR built in code.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <random>

#include "core/analysis/structural_equal.h"
#include "core/ir/functor.h"
#include "tests/text_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

Type f32() { return tensorType({}, DTypeCode::Float32); }

/// A module as the parser would produce it (the parser always sets a phase).
IRModule moduleWith(std::map<std::string, Expr> functions) {
  return makeModule(std::move(functions), AttrDict{{"phase", AttrValue::integer(0)}});
}
IRModule moduleOf(Expr fn) { return moduleWith({{"main", std::move(fn)}}); }

PrintOptions plain() {
  PrintOptions o;
  o.typeComments = false;
  return o;
}

/// print -> parse -> print must reproduce the text; returns the reparsed module.
IRModule checkRoundTrip(const IRModule& mod, const PrintOptions& options = plain()) {
  std::string once = printModule(mod, options);
  IRModule reparsed;
  try {
    reparsed = parseModule(once, "printed.relay");
  } catch (const DiagnosticError& e) {
    FAIL_CHECK("printed text does not parse:\n" << e.renderAll() << "\n" << once);
    return nullptr;
  }
  CHECK(printModule(reparsed, options) == once);
  return reparsed;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("Printer: a shared node is bound once and referenced by number", "[printer]") {
  Var x = makeVar("x", f32());
  Expr e = makeOpCall(OpId::Exp, {x});
  Expr body = makeOpCall(OpId::Add, {e, e});
  std::string text = printModule(moduleOf(makeFunction({x}, body)), plain());
  CHECK(text ==
        "#[version = \"0.0.5\"]\n"
        "#[phase = 0]\n"
        "def @main(%x: float32) {\n"
        "  %0 = exp(%x);\n"
        "  add(%0, %0)\n"
        "}\n");
}

TEST_CASE("Printer: a node used by both branches of an if is bound before the if", "[printer]") {
  Var x = makeVar("x", f32());
  Var c = makeVar("c", tensorType({}, DTypeCode::Bool));
  Expr shared = makeOpCall(OpId::Exp, {x});
  Expr thenBranch = makeOpCall(OpId::Negative, {shared});
  Expr elseBranch = makeOpCall(OpId::Add, {shared, makeOpCall(OpId::Log, {x})});
  IRModule mod = moduleOf(makeFunction({c, x}, makeIf(c, thenBranch, elseBranch)));
  std::string text = printModule(mod, plain());
  CHECK(text ==
        "#[version = \"0.0.5\"]\n"
        "#[phase = 0]\n"
        "def @main(%c: bool, %x: float32) {\n"
        "  %0 = exp(%x);\n"
        "  if (%c) {\n"
        "    negative(%0)\n"
        "  } else {\n"
        "    %1 = log(%x);\n"
        "    add(%0, %1)\n"
        "  }\n"
        "}\n");
  IRModule reparsed = checkRoundTrip(mod);
  CHECK(structuralEqual(reparsed, mod));
}

TEST_CASE("Printer: nodes inside a function literal are numbered before it, as TVM does", "[printer]") {
  IRModule mod = parseModule(R"(def @main(%x: float32) {
  %0 = fn (%p0: float32, Primitive=1) {
    %1 = exp(%p0);
    negative(%1)
  };
  %0(%x)
})");
  std::string text = printModule(mod, plain());
  CHECK(contains(text, "  %1 = fn (%p0: float32, Primitive=1) {\n    %0 = exp(%p0);\n    negative(%0)\n  };\n  %1(%x)\n"));
}

TEST_CASE("Printer: a 100k-op chain prints and reparses without deep recursion", "[printer]") {
  constexpr int kOps = 100000;
  Var x = makeVar("x", tensorType({1, 8}, DTypeCode::Float32));
  Expr e = x;
  for (int i = 0; i < kOps; ++i) e = i % 2 ? makeOpCall(OpId::Relu, {e}) : makeOpCall(OpId::Add, {e, x});
  IRModule mod = moduleOf(makeFunction({x}, e));
  std::string text = printModule(mod, plain());
  CHECK(contains(text, "  %99998 = add(%99997, %x);\n  nn.relu(%99998)\n}\n"));
  IRModule reparsed = parseModule(text, "chain.relay");
  CHECK(countOpCalls(reparsed->lookupFunction("main")->body) == kOps);
  CHECK(printModule(reparsed, plain()) == text);
  PrintedModule ranged = printModuleWithRanges(mod, plain());
  CHECK(ranged.text == text);
  REQUIRE(ranged.nodes.range(e.get()));
  CHECK(ranged.nodes.range(e.get())->line == kOps + 3);  // after the two header lines and the def line
}

TEST_CASE("Printer: variables are renamed only to stay unique and readable", "[printer]") {
  Var a = makeVar("x", f32());
  Var b = makeVar("x", f32());
  Var c = makeVar("x_1", f32());
  Var d = makeVar("1", f32());
  Var e = makeVar("has space", f32());
  Var t = makeVar("t", tupleType({f32()}));
  Var tDot = makeVar("t.0", f32());
  Expr body = makeTuple({a, b, c, d, e, makeTupleGetItem(t, 0), tDot});
  IRModule mod = moduleOf(makeFunction({a, b, c, d, e, t, tDot}, body));
  std::string text = printModule(mod, plain());
  CHECK(contains(text, "def @main(%x: float32, %x_1: float32, %x_1_1: float32, %v1: float32, %has_space: float32, "
                       "%t: (float32,), %t.0_1: float32) {"));
  IRModule reparsed = checkRoundTrip(mod);
  CHECK(structuralEqual(reparsed, mod));
}

TEST_CASE("Printer: output is deterministic", "[printer]") {
  auto build = [] {
    Var x = makeVar("x", f32());
    Expr s = makeOpCall(OpId::Exp, {x});
    return makeModule({{"main", makeFunction({x}, makeTuple({s, makeOpCall(OpId::Log, {s})}))},
                       {"aux", makeFunction({x}, makeOpCall(OpId::Negative, {x}))}},
                      AttrDict{{"target", AttrValue::string("llvm")}, {"phase", AttrValue::integer(1)}});
  };
  IRModule m1 = build(), m2 = build();
  CHECK(printModule(m1) == printModule(m1));
  CHECK(printModule(m1) == printModule(m2));
  // Functions in name order, module attributes in their order.
  std::string text = printModule(m1, plain());
  CHECK(text.find("def @aux") < text.find("def @main"));
  CHECK(text.rfind("#[target = \"llvm\"]\n#[phase = 1]\n", 100) != std::string::npos);
}

TEST_CASE("Printer: options control type comments and the version header", "[printer]") {
  IRModule mod = inferTypes(parseModule("def @main(%x: Tensor[(2), float32]) { negative(%x) }"));
  CHECK(contains(printModule(mod), "negative(%x) /* ty=Tensor[(2), float32] */"));
  CHECK(contains(printModule(mod), "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {"));
  PrintOptions o = plain();
  o.versionHeader = false;
  std::string text = printModule(mod, o);
  CHECK(text.rfind("#[phase = 0]\ndef @main(%x: Tensor[(2), float32]) {", 0) == 0);
  CHECK_FALSE(contains(text, "/* ty="));
}

TEST_CASE("Printer: op attributes print in schema order, defaults omitted", "[printer]") {
  Var x = makeVar("x", tensorType({1, 3, 8, 8}, DTypeCode::Float32));
  Var w = makeVar("w", tensorType({4, 3, 3, 3}, DTypeCode::Float32));
  AttrDict attrs{{"kernel_size", AttrValue::ints({3, 3})}, {"data_layout", AttrValue::string("NCHW")},
                 {"groups", AttrValue::integer(1)}, {"padding", AttrValue::ints({1, 1, 1, 1})},
                 {"channels", AttrValue::integer(4)}};
  IRModule mod = moduleOf(makeFunction({x, w}, makeOpCall(OpId::Conv2D, {x, w}, attrs)));
  CHECK(contains(printModule(mod, plain()), "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3])"));
  AttrDict bn{{"epsilon", AttrValue::floating(1e-3)}};
  Var v = makeVar("v", tensorType({4}, DTypeCode::Float32));
  Expr call = makeOpCall(OpId::BatchNorm, {x, v, v, v, v}, bn);
  CHECK(contains(printModule(moduleOf(makeFunction({x, v}, call)), plain()), "epsilon=0.001f)"));
}

TEST_CASE("Printer: function attributes keep their insertion order", "[printer]") {
  Var x = makeVar("x", f32());
  AttrDict attrs;
  attrs.set("Inline", AttrValue::integer(1));
  attrs.set("Compiler", AttrValue::string("cutlass"));
  attrs.set("global_symbol", AttrValue::string("tvmgen_default_cutlass_main_0"));
  attrs.set("Primitive", AttrValue::integer(1));
  attrs.set("odd-key", AttrValue::boolean(true));
  IRModule mod = moduleOf(makeFunction({x}, x, nullptr, attrs));
  CHECK(contains(printModule(mod, plain()),
                 "def @main(%x: float32, Inline=1, Compiler=\"cutlass\", global_symbol=\"tvmgen_default_cutlass_main_0\", "
                 "Primitive=1, \"odd-key\"=True) {"));
  checkRoundTrip(mod);
}

TEST_CASE("Printer: constants round-trip bit-exactly for every dtype", "[printer]") {
  std::mt19937_64 rng(99);
  // Both ways a file carries data: the literal text (inline) and TVM's
  // #[metadata] section (by reference); both must give the bits back.
  auto roundTripAs = [](const NDArray& data, ConstantStyle style) {
    Var x = makeVar("x", f32());
    IRModule mod = moduleOf(makeFunction({x}, makeTuple({makeConstant(data), x})));
    PrintOptions options = plain();
    options.constants = style;
    options.metadataSection = true;
    IRModule back = parseModule(printModule(mod, options), "c.relay");
    auto* tuple = as<TupleNode>(back->lookupFunction("main")->body);
    REQUIRE(tuple);
    auto* c = as<ConstantNode>(tuple->fields[0]);
    REQUIRE(c);
    return c->data;
  };
  auto roundTrip = [&](const NDArray& data) {
    NDArray byReference = roundTripAs(data, ConstantStyle::Ref);
    CHECK(byReference.bitwiseEqual(data));
    return roundTripAs(data, ConstantStyle::Inline);
  };
  SECTION("every float16 bit pattern") {
    NDArray a(DTypeCode::Float16, {65536});
    for (int i = 0; i < 65536; ++i) a.mutableValues<uint16_t>()[i] = static_cast<uint16_t>(i);
    CHECK(roundTrip(a).bitwiseEqual(a));
  }
  SECTION("float32, float64 and integer patterns, NaN payloads included") {
    for (DTypeCode code : {DTypeCode::Float32, DTypeCode::Float64, DTypeCode::Int8, DTypeCode::Int16, DTypeCode::Int32,
                           DTypeCode::Int64, DTypeCode::UInt8}) {
      CAPTURE(DataType(code).name());
      NDArray a(code, {4000});
      uint8_t* p = a.mutableData();
      for (size_t i = 0; i < a.byteSize(); ++i) p[i] = static_cast<uint8_t>(rng());
      CHECK(roundTrip(a).bitwiseEqual(a));
    }
    NDArray specials(DTypeCode::Float32, {6});
    uint32_t bits[] = {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x80000000u, 0x00000001u};
    std::memcpy(specials.mutableData(), bits, sizeof bits);
    CHECK(roundTrip(specials).bitwiseEqual(specials));
  }
  SECTION("bool and scalars") {
    NDArray b(DTypeCode::Bool, {3});
    b.mutableValues<uint8_t>()[0] = 1;
    CHECK(roundTrip(b).bitwiseEqual(b));
    for (DTypeCode code : {DTypeCode::Float16, DTypeCode::Float32, DTypeCode::Float64, DTypeCode::Int8, DTypeCode::Bool}) {
      NDArray s(code, {});
      uint64_t v = rng();
      std::memcpy(s.mutableData(), &v, s.byteSize());
      if (code == DTypeCode::Bool) s.mutableValues<uint8_t>()[0] = 1;
      CHECK(roundTrip(s).bitwiseEqual(s));
    }
  }
}

TEST_CASE("Printer: floats are written as the shortest text that reads back", "[printer]") {
  Expr e = parseExpr("(0.1f, 1e-05f, 0.1f16, 65504f16, 100f64, -0f, const(float32, [0x7fc00001]))");
  CHECK(printExpr(e, plain()) == "(0.1f, 1e-05f, 0.1f16, 65500f16, 100f64, -0f, const(float32, [0x7fc00001]))\n");
}

TEST_CASE("Printer: a let used as an operand prints as a block expression", "[printer]") {
  Var x = makeVar("x", f32());
  Var y = makeVar("y", f32());
  Expr let = makeLet(y, makeOpCall(OpId::Exp, {x}), makeOpCall(OpId::Negative, {y}));
  IRModule mod = moduleOf(makeFunction({x}, makeOpCall(OpId::Add, {let, let})));
  std::string text = printModule(mod, plain());
  CHECK(text ==
        "#[version = \"0.0.5\"]\n"
        "#[phase = 0]\n"
        "def @main(%x: float32) {\n"
        "  %0 = {\n"
        "    let %y: float32 = exp(%x);\n"
        "    negative(%y)\n"
        "  };\n"
        "  add(%0, %0)\n"
        "}\n");
  CHECK(structuralEqual(checkRoundTrip(mod), mod));
}

TEST_CASE("Printer: dataflow blocks hold only what depends on them", "[printer]") {
  Var x = makeVar("x", f32());
  Expr outside = makeOpCall(OpId::Exp, {x});
  Var lv = makeVar("lv0", nullptr, true);
  Var gv = makeVar("gv0", nullptr, false);
  Expr body = makeDataflow({{lv, makeOpCall(OpId::Add, {outside, outside})}, {gv, makeOpCall(OpId::Negative, {lv})}}, gv);
  IRModule mod = moduleOf(makeFunction({x}, body));
  CHECK(printModule(mod, plain()) ==
        "#[version = \"0.0.5\"]\n"
        "#[phase = 0]\n"
        "def @main(%x: float32) {\n"
        "  %0 = exp(%x);\n"
        "  dataflow {\n"
        "    %lv0 = add(%0, %0);\n"
        "    output %gv0 = negative(%lv0);\n"
        "  }\n"
        "  %gv0\n"
        "}\n");
  CHECK(structuralEqual(checkRoundTrip(mod), mod));
}

TEST_CASE("Printer: PrimFunc statement sequences print unambiguously", "[printer]") {
  using namespace tir;
  Buffer a = makeBuffer("A", DTypeCode::Float32, {4});
  tir::Var av = tir::makeVar("A", DTypeCode::Float32);
  tir::Var i = tir::makeVar("i");
  tir::Var k = tir::makeVar("k");
  auto put = [&](double v) { return store(a, {intImm(DTypeCode::Int32, 0)}, floatImm(DTypeCode::Float32, v)); };
  Stmt letNotLast = letStmt(k, intImm(DTypeCode::Int32, 2), put(1));
  Stmt nested = seq({seq({put(2), put(3)}), letNotLast, put(4), seq({}), allocate(makeBuffer("T", DTypeCode::Int8, {2}), seq({}))});
  Stmt body = forLoop(i, intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 4), ForKind::Unrolled, nested);
  PrimFunc fn = makePrimFunc({{av, a}}, body, AttrDict{{"target", AttrValue::string("llvm")}});
  IRModule mod = moduleWith({{"f", fn}});
  std::string text = printModule(mod, plain());
  CHECK(contains(text,
                 "primfn @f(%A: Buffer[(4), float32], target=\"llvm\") {\n"
                 "  for (%i, 0, 4, unrolled) {\n"
                 "    {\n      %A[0] = 2f;\n      %A[0] = 3f;\n    }\n"
                 "    {\n      let %k: int32 = 2;\n      %A[0] = 1f;\n    }\n"
                 "    %A[0] = 4f;\n"
                 "    {\n    }\n"
                 "    allocate %T: Buffer[(2), int8];\n"
                 "  }\n}\n"));
  CHECK(structuralEqual(checkRoundTrip(mod), mod));
}

TEST_CASE("Printer: TIR expressions get only the parentheses they need", "[printer]") {
  using namespace tir;
  tir::Var x = tir::makeVar("x");
  auto c = [](int64_t v) { return intImm(DTypeCode::Int32, v); };
  PrimExpr e1 = binary(BinaryOp::Mul, binary(BinaryOp::Add, x, c(1)), binary(BinaryOp::Sub, x, binary(BinaryOp::Sub, c(2), c(-3))));
  PrimExpr e2 = binary(BinaryOp::Or, binary(BinaryOp::And, binary(BinaryOp::LT, x, c(1)), logicalNot(binary(BinaryOp::EQ, x, c(2)))),
                       binary(BinaryOp::GE, binary(BinaryOp::FloorMod, x, c(3)), c(0)));
  Buffer out = makeBuffer("O", DTypeCode::Int32, {2});
  Buffer flags = makeBuffer("F", DTypeCode::Bool, {1});
  Stmt body = seq({store(out, {c(0)}, e1), store(flags, {c(0)}, e2), store(out, {c(1)}, call(DTypeCode::Float32, "exp", {cast(DTypeCode::Float16, x)}))});
  PrimFunc fn = makePrimFunc({{x, nullptr}, {tir::makeVar("O"), out}, {tir::makeVar("F"), flags}}, body);
  std::string text = printModule(moduleWith({{"g", fn}}), plain());
  CHECK(contains(text, "  %O[0] = (%x + 1) * (%x - (2 - -3));\n"));
  CHECK(contains(text, "  %F[0] = %x < 1 && !(%x == 2) || floormod(%x, 3) >= 0;\n"));
  CHECK(contains(text, "  %O[1] = exp<float32>(float16(%x));\n"));
  checkRoundTrip(moduleWith({{"g", fn}}));
}

TEST_CASE("Printer: ranges map nodes and functions to their text", "[printer]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
def @aux(%y: float32) {
  negative(%y)
}

def @main(%x: float32) {
  %0 = exp(%x);
  %1 = add(%0, %0);
  log(%1)
})");
  PrintedModule printed = printModuleWithRanges(mod, plain());
  const FunctionNode* main = mod->lookupFunction("main");
  CHECK(printed.functionLines.at("main") == 7);
  CHECK(printed.functionLines.at("aux") == 3);
  auto* log = as<CallNode>(main->body);
  auto* add = as<CallNode>(log->args[0]);
  std::vector<std::string> lines;
  std::istringstream in(printed.text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(printed.nodes.range(add));
  const TextRange& r = *printed.nodes.range(add);
  CHECK(r.line == 9);
  CHECK(lines[r.line - 1].substr(r.column - 1, r.endColumn - r.column + 1) == "%1 = add(%0, %0);");
  REQUIRE(printed.nodes.range(main));
  const TextRange& fr = *printed.nodes.range(main);
  CHECK(fr.line == 7);
  CHECK(fr.endLine == 11);
  REQUIRE(printed.nodes.range(main->params[0].get()));
  const TextRange& pr = *printed.nodes.range(main->params[0].get());
  CHECK(lines[pr.line - 1].substr(pr.column - 1, 2) == "%x");
}

TEST_CASE("Printer: printExpr declares free variables and printFunction prints one function", "[printer]") {
  Var x = makeVar("x", tensorType({2}, DTypeCode::Float32));
  Expr e = makeOpCall(OpId::Negative, {makeOpCall(OpId::Exp, {x})});
  CHECK(printExpr(e, plain()) == "free_var %x: Tensor[(2), float32];\n%0 = exp(%x);\nnegative(%0)\n");
  CHECK(printExpr(parseExpr(printExpr(e, plain())), plain()) == printExpr(e, plain()));
  IRModule mod = moduleWith({{"f", makeFunction({x}, e)}, {"g", makeFunction({x}, x)}});
  CHECK(printFunction(mod, "g", plain()) == "def @g(%x: Tensor[(2), float32]) {\n  %x\n}\n");
  CHECK(printFunction(mod, "missing").empty());
}

namespace {

/// Builds random well-scoped graphs with sharing, lets, ifs, closures, tuples
/// and dataflow blocks, to check print -> parse -> print on shapes no one wrote by hand.
class RandomGraph {
 public:
  explicit RandomGraph(uint32_t seed) : rng_(seed) {}

  IRModule module() {
    std::vector<Expr> pool;
    std::vector<Var> params;
    for (int i = 0; i < 3; ++i) {
      params.push_back(makeVar(name(), f32()));
      pool.push_back(params.back());
    }
    cond_ = makeVar("c", tensorType({}, DTypeCode::Bool));
    params.push_back(cond_);
    return moduleOf(makeFunction(params, gen(5, pool)));
  }

 private:
  std::string name() {
    static const char* kNames[] = {"a", "b", "x", "x_1", "t", "t.0", "1", "lv", "p0"};
    return kNames[rng_() % std::size(kNames)];
  }
  Expr pick(const std::vector<Expr>& pool) { return pool[rng_() % pool.size()]; }

  Expr gen(int depth, std::vector<Expr>& pool) {
    Expr e;
    int choice = depth <= 0 ? 0 : static_cast<int>(rng_() % 9);
    switch (choice) {
      case 0: return pick(pool);
      case 1: e = makeOpCall(OpId::Add, {gen(depth - 1, pool), gen(depth - 1, pool)}); break;
      case 2: e = makeOpCall(OpId::Negative, {gen(depth - 1, pool)}); break;
      case 3: {
        Expr t = makeTuple({gen(depth - 1, pool), gen(depth - 1, pool)});
        e = makeTupleGetItem(t, static_cast<int>(rng_() % 2));
        break;
      }
      case 4: {
        Var v = makeVar(name(), rng_() % 2 ? f32() : nullptr);
        Expr value = gen(depth - 1, pool);
        std::vector<Expr> inner = pool;
        inner.push_back(v);
        e = makeLet(v, value, gen(depth - 1, inner));
        break;
      }
      case 5: {
        std::vector<Expr> thenPool = pool, elsePool = pool;
        e = makeIf(cond_, gen(depth - 1, thenPool), gen(depth - 1, elsePool));
        break;
      }
      case 6: {
        Var p = makeVar(name(), f32());
        std::vector<Expr> inner = pool;
        inner.push_back(p);
        AttrDict attrs;
        if (rng_() % 2) attrs.set("Primitive", AttrValue::integer(1));
        Function fn = makeFunction({p}, gen(depth - 1, inner), nullptr, attrs);
        e = makeCall(fn, {gen(depth - 1, pool)});
        break;
      }
      case 7: {
        std::vector<Expr> inner = pool;
        Var lv = makeVar(name(), nullptr, true);
        Expr v0 = gen(depth - 1, inner);
        inner.push_back(lv);
        Var gv = makeVar(name(), nullptr, false);
        Expr v1 = makeOpCall(OpId::Exp, {gen(depth - 1, inner)});
        std::vector<Expr> after = pool;
        after.push_back(gv);
        e = makeDataflow({{lv, v0}, {gv, v1}}, gen(depth - 1, after));
        break;
      }
      default: e = makeOpCall(OpId::Multiply, {pick(pool), gen(depth - 1, pool)}); break;
    }
    if (rng_() % 3 == 0) pool.push_back(e);  // later uses share it
    return e;
  }

  std::mt19937 rng_;
  Var cond_;
};

}  // namespace

TEST_CASE("Printer: random graphs survive print -> parse -> print", "[printer]") {
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    IRModule mod = RandomGraph(seed).module();
    IRModule reparsed = checkRoundTrip(mod);
    if (reparsed) CHECK(structuralEqual(reparsed, mod));
  }
}
