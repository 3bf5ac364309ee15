// TIR asserts (AssertStmt) and let expressions (Let) end to end: the Relay
// dialect's `assert(cond, "message");` and `let(%x: int32 = v, body)`, both
// TVMScript spellings (tests/tvmscript/*assert_let*.py), the functor,
// structural equality and hashing, well-formedness, the interpreter, the host
// JIT and (slow) qemu-hexagon. A failing assert is an error naming its
// message on every engine, never a crash.
#include <catch2/catch.hpp>

#include "codegen/codegen.h"
#include "core/analysis/structural_equal.h"
#include "core/analysis/well_formed.h"
#include "core/interp/interpreter.h"
#include "core/ir/module.h"
#include "core/ir/tir_functor.h"
#include "core/text/tvmscript.h"
#include "tests/interp_test_util.h"
#include "tests/text_test_util.h"

using namespace passlab;
using namespace passlab::testing;
namespace T = passlab::tir;

namespace {

// Lets in an index, in a value and nested; asserts guarding a parallel loop,
// a PrimFunc call and the rest of a block, with and without an error kind.
const char* kRelayText = R"(#[version = "0.0.5"]
primfn @fill(%O: Buffer[(8), int32], %m: int32) {
  assert(%m < 8, "m is an index into O", kind="IndexError");
  %O[%m] = let(%t: int32 = %m * 3, %t + let(%u: int32 = %t, %u * %u));
}
primfn @k(%A: Buffer[(8, 4), float32], %B: Buffer[(8, 4), float32], %O: Buffer[(8), int32], %n: int32) {
  {
    assert(%n > 0, "n must be positive");
    for (%i, 0, 8, parallel) {
      for (%j, 0, 4) {
        %B[%i, %j] = %A[let(%r: int32 = floormod(%i + %n, 8), %r), %j] * float32(let(%x: int32 = %j + 1, %x * %x));
      }
    }
  }
  @fill(%O, %n);
  assert(%n <= 8, "n must be at most 8");
  %B[0, 0] = -1f;
}
)";

IRModule relayModule() { return parseModule(kRelayText, "assert.relay"); }

std::vector<NDArray> kArgs(int32_t n) {
  NDArray scalar(DTypeCode::Int32, {});
  scalar.setFromDouble(0, n);
  return {randomArray(DTypeCode::Float32, {8, 4}, 3), NDArray(DTypeCode::Float32, {8, 4}), NDArray(DTypeCode::Int32, {8}), scalar};
}

/// The message of the error `run` throws ("" when it does not throw).
template <class Run>
std::string errorOf(Run&& run) {
  try {
    run();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

PrintOptions scriptOptions(TvmScriptSpelling spelling) {
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  o.spelling = spelling;
  return o;
}

}  // namespace

TEST_CASE("TIR assert and let: the Relay dialect reads, prints and round trips them", "[tir][text]") {
  IRModule mod = relayModule();
  CHECK(checkWellFormed(mod).empty());
  std::string printed = printModule(mod);
  INFO(printed);
  CHECK(printed.find("assert(%m < 8, \"m is an index into O\", kind=\"IndexError\");") != std::string::npos);
  CHECK(printed.find("assert(%n > 0, \"n must be positive\");") != std::string::npos);
  CHECK(printed.find("let(%t: int32 = %m * 3, %t + let(%u: int32 = %t, %u * %u))") != std::string::npos);
  IRModule again = parseModule(printed, "again.relay");
  CHECK(structuralEqual(mod, again));
  CHECK(structuralHash(mod) == structuralHash(again));
  CHECK(printModule(again) == printed);
  // The assert guards what follows it in its block: the rest is its body.
  const auto* k = as<PrimFuncNode>(mod->lookup("k"));
  REQUIRE(k);
  const auto* seq = T::as<T::SeqNode>(k->body);
  REQUIRE(seq);
  REQUIRE(seq->stmts.size() == 3);
  const auto* first = T::as<T::AssertStmtNode>(T::as<T::SeqNode>(seq->stmts[0]) ? T::as<T::SeqNode>(seq->stmts[0])->stmts[0] : seq->stmts[0]);
  REQUIRE(first);
  CHECK(first->message == "n must be positive");
  CHECK(first->errorKind == "RuntimeError");
  CHECK(T::as<T::ForNode>(first->body));
  const auto* last = T::as<T::AssertStmtNode>(seq->stmts[2]);
  REQUIRE(last);
  CHECK(T::as<T::StoreNode>(last->body));
  // A different message, kind or bound value is a different function.
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"\"n must be positive\"", "\"n must be > 0\""}, {"kind=\"IndexError\"", "kind=\"ValueError\""}, {"%m * 3", "%m * 4"}}) {
    std::string changed = printed;
    changed.replace(changed.find(from), from.size(), to);
    CHECK_FALSE(structuralEqual(mod, parseModule(changed, "changed.relay")));
  }
}

TEST_CASE("TIR assert and let: bad forms are located errors", "[tir][text]") {
  auto [body, expected] = GENERATE(table<std::string, std::string>({
      {"assert(%n, \"m\");", "must be bool"},
      {"assert(%n > 0, m);", "the assert's message as a string"},
      {"assert(%n > 0, \"m\", level=\"x\");", "kind="},
      {"%A[0] = let(%x: int32 = 1, %y);", "undefined variable '%y'"},
      {"%A[0] = let(%x: int32 = 1, %x) + %x;", "undefined variable '%x'"},
  }));
  std::string text = "#[version = \"0.0.5\"]\nprimfn @f(%A: Buffer[(4), int32], %n: int32) {\n  " + body + "\n  %A[1] = 0;\n}\n";
  INFO(text);
  std::string error = errorOf([&] { parseModule(text, "bad.relay"); });
  CHECK(error.find(expected) != std::string::npos);
  CHECK(error.find("bad.relay:3:") != std::string::npos);
}

TEST_CASE("TIR assert and let: the functor, substitution and well-formedness see them", "[tir]") {
  IRModule mod = relayModule();
  const auto* fill = as<PrimFuncNode>(mod->lookup("fill"));
  REQUIRE(fill);
  size_t asserts = 0, lets = 0;
  T::preOrderVisit(
      fill->body, [&](const T::Stmt& s) { return asserts += s->kind == T::StmtKind::Assert, true; },
      [&](const T::PrimExpr& e) { return lets += e->kind == T::PrimExprKind::Let, true; });
  CHECK(asserts == 1);
  CHECK(lets == 2);
  // Substituting the parameter reaches into the assert's condition and the lets' values.
  const T::Var& m = fill->params[1].var;
  T::Stmt swapped = T::substitute(fill->body, {{m.get(), T::intImm(DTypeCode::Int32, 5)}});
  CHECK(swapped != fill->body);
  bool mentionsM = false;
  T::preOrderVisit(
      swapped, [](const T::Stmt&) { return true; },
      [&](const T::PrimExpr& e) { return mentionsM = mentionsM || e.get() == m.get(), true; });
  CHECK_FALSE(mentionsM);
  // A non-bool condition and a let variable bound twice are reported.
  T::Var x = T::makeVar("x");
  T::PrimExpr twice = T::binary(T::BinaryOp::Add, T::let(x, T::intImm(DTypeCode::Int32, 1), x), T::let(x, T::intImm(DTypeCode::Int32, 2), x));
  auto O = T::makeBuffer("O", DTypeCode::Int32, {4});
  T::Stmt body = T::assertStmt(T::intImm(DTypeCode::Int32, 1), "RuntimeError", "int condition", T::store(O, {T::intImm(DTypeCode::Int32, 0)}, twice));
  IRModule bad = makeModule({{"bad", makePrimFunc({{T::makeVar("O", DTypeCode::Int64), O}}, body)}});
  std::string found;
  for (const Diagnostic& d : checkWellFormed(bad)) found += d.message + "\n";
  CHECK(found.find("int condition") != std::string::npos);
  CHECK(found.find("x is bound more than once") != std::string::npos);
}

TEST_CASE("TIR assert and let: the interpreter and the host JIT agree, and a failing assert names its message", "[tir][interp][codegen]") {
  IRModule mod = relayModule();
  std::vector<NDArray> interp = kArgs(3);
  evaluatePrimFunc(mod, "k", interp);
  // The reference, computed here: B = A[(i + n) % 8, j] * (j + 1)^2 except B[0, 0]; O[n] = 3n + 9n^2.
  std::vector<double> a = toDoubles(interp[0]), b = toDoubles(interp[1]), o = toDoubles(interp[2]);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      if (i || j) CHECK(b[i * 4 + j] == Approx(a[((i + 3) % 8) * 4 + j] * (j + 1) * (j + 1)));
  CHECK(b[0] == -1);
  CHECK(o[3] == 9 + 81);
  auto host = codegen::HostModule::compile(mod);
  std::vector<NDArray> jit = kArgs(3);
  host->callPrimFunc("k", jit);
  CHECK(jit[1].bitwiseEqual(interp[1]));
  CHECK(jit[2].bitwiseEqual(interp[2]));
  // Failing asserts: in the kernel, before a parallel loop, and in a called PrimFunc (with its kind).
  for (auto [n, message] : std::vector<std::pair<int32_t, std::string>>{{0, "@k: assert failed: RuntimeError: n must be positive"},
                                                                        {9, "@fill: assert failed: IndexError: m is an index into O"}}) {
    INFO("n = " << n);
    std::vector<NDArray> args = kArgs(n);
    CHECK(errorOf([&] { evaluatePrimFunc(mod, "k", args); }).find(message) != std::string::npos);
    args = kArgs(n);
    CHECK(errorOf([&] { host->callPrimFunc("k", args); }) == message);
  }
  // The failure is reported once, and the next call runs normally.
  std::vector<NDArray> after = kArgs(3);
  host->callPrimFunc("k", after);
  CHECK(after[1].bitwiseEqual(interp[1]));
  // The LLVM IR calls the runtime's report and returns.
  codegen::Artifacts art = codegen::build(mod, codegen::Target::host());
  CHECK(art.llvmIR.find("call void @passlab_assert_fail(") != std::string::npos);
}

TEST_CASE("TIR assert and let: TVMScript in both spellings", "[tir][tvmscript]") {
  auto [file, function, spelling] = GENERATE(table<std::string, std::string, TvmScriptSpelling>({
      {"tir_assert_let", "clamp_rows", TvmScriptSpelling::Release},
      {"tir_assert_let_main", "checked_scale", TvmScriptSpelling::Main},
      {"handwritten_tir_assert_let", "guarded", TvmScriptSpelling::Release},
  }));
  INFO(file);
  std::string text = readFile(corpusDir("tvmscript") / (file + ".py"));
  TvmScriptSpelling read = TvmScriptSpelling::Release;
  IRModule mod = parseTvmScript(text, file + ".py", nullptr, &read);
  CHECK(read == spelling);
  CHECK(checkWellFormed(mod).empty());
  std::string printed = printModule(mod, scriptOptions(spelling));
  if (file.rfind("handwritten", 0) != 0) CHECK(printed == text);
  // Each spelling, and the Relay dialect, round trips the other's module.
  for (TvmScriptSpelling s : {TvmScriptSpelling::Release, TvmScriptSpelling::Main}) {
    std::string out = printModule(mod, scriptOptions(s));
    INFO(out);
    IRModule again = parseTvmScript(out, "again.py");
    bool kindsKept = s == TvmScriptSpelling::Main || spelling == TvmScriptSpelling::Release;  // releases have no error kind
    if (kindsKept) CHECK(structuralEqual(mod, again));
    CHECK(printModule(again, scriptOptions(s)) == out);
  }
  CHECK(structuralEqual(mod, parseModule(printModule(mod), "relay.txt")));
  // It runs: the interpreter and the JIT agree; a failing assert names its message on both.
  const auto* fn = as<PrimFuncNode>(mod->lookup(function));
  REQUIRE(fn);
  auto argsFor = [&](int32_t n) {
    std::vector<NDArray> args;
    for (size_t i = 0; i < fn->params.size(); ++i) {
      const T::Param& p = fn->params[i];
      if (p.buffer) {
        args.push_back(randomArray(p.buffer->dtype, p.buffer->shape, static_cast<uint32_t>(i + 1), -4, 4));
      } else {
        NDArray s(p.var->dtype, {});
        s.setFromDouble(0, n);
        args.push_back(s);
      }
    }
    return args;
  };
  std::vector<NDArray> interp = argsFor(3), jit = argsFor(3);
  evaluatePrimFunc(mod, function, interp);
  auto host = codegen::HostModule::compile(mod);
  host->callPrimFunc(function, jit);
  for (size_t i = 0; i < interp.size(); ++i) CHECK(interp[i].bitwiseEqual(jit[i]));
  std::vector<NDArray> failing = argsFor(function == "guarded" ? -1 : 0);
  std::string interpError = errorOf([&] { evaluatePrimFunc(mod, function, failing); });
  std::string jitError = errorOf([&] { host->callPrimFunc(function, failing); });
  CHECK(jitError.find("assert failed: ") != std::string::npos);
  CHECK(interpError.find(jitError) != std::string::npos);
}

TEST_CASE("TIR assert and let: TVMScript refuses what it cannot bind, located", "[tir][tvmscript]") {
  auto [body, expected] = GENERATE(table<std::string, std::string>({
      {"    assert A[0], \"m\"\n", "must be bool"},
      {"    assert A[0] > 0, 42\n", "message must be a string"},
      {"    A[0] = T.Let(x, where={x: 1})\n", "undefined name 'x'"},
      {"    x = T.int32()\n    A[0] = x + 1\n", "used outside a T.Let that binds it"},
      {"    x = T.int32()\n    A[0] = T.Let(x, where={x: x})\n", "used outside a T.Let that binds it"},
      {"    x = T.int32()\n    y = T.int32()\n    A[0] = T.Let(x, where={x: 1, y: 2})\n", "exactly one variable"},
      {"    A[0] = T.Let(1, where={A: 1})\n", "must be declared for the let first"},
      {"    with T.Assert(A[0] > 0, \"m\", level=1):\n        A[0] = 1\n", "error_kind"},
      {"    x = T.int64()\n    for i in range(x):\n        A[i] = 0\n", "used outside a T.Let"},
  }));
  std::string text = "from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((4,), \"int32\")):\n" + body;
  INFO(text);
  std::string error = errorOf([&] { parseTvmScript(text, "t.py"); });
  CHECK(error.find(expected) != std::string::npos);
  CHECK(error.find("t.py:") != std::string::npos);
}

TEST_CASE("TIR assert and let: qemu-hexagon runs them and reports a failing assert", "[tir][codegen][hexagon][slow]") {
  IRModule mod = relayModule();
  std::vector<NDArray> interp = kArgs(5);
  evaluatePrimFunc(mod, "k", interp);
  std::vector<NDArray> outs = codegen::runPrimFuncHexagon(mod, "k", kArgs(5), codegen::makeTempDir("assert-let"));
  REQUIRE(outs.size() == 4);
  CHECK(outs[1].bitwiseEqual(interp[1]));
  CHECK(outs[2].bitwiseEqual(interp[2]));
  std::string error = errorOf([&] { codegen::runPrimFuncHexagon(mod, "k", kArgs(0), codegen::makeTempDir("assert-let-fail")); });
  CHECK(error == "@k: assert failed: RuntimeError: n must be positive");
}
