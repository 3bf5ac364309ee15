// TIR blocks (TVMScript's `with T.block(...)`): lowering semantics on the
// interpreter and the host JIT, structural equality and hashing, the Relay-
// dialect text form and its print -> parse -> print fixpoint, and the
// analyses that walk TIR statements.
#include <catch2/catch.hpp>

#include "codegen/codegen.h"
#include "core/analysis/structural_equal.h"
#include "core/analysis/well_formed.h"
#include "core/ir/module.h"
#include "core/ir/tir_lower_blocks.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "tests/interp_test_util.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;
namespace T = passlab::tir;

namespace {

const char* kMatmulBlocks = R"(#[version = "0.0.5"]
#[phase = 0]
primfn @mm(%A: Buffer[(8, 6), float32], %B: Buffer[(6, 5), float32], %C: Buffer[(8, 5), float32]) {
  for (%i, 0, 8, serial) {
    for (%j, 0, 5, serial) {
      for (%k, 0, 6, serial) {
        block "C"(%vi = spatial(0, 8, %i), %vj = spatial(0, 5, %j), %vk = reduce(0, 6, %k)) reads(%A[%vi, %vk], %B[%vk, %vj]) writes(%C[%vi, %vj]) {
          init {
            %C[%vi, %vj] = 0.5f;
          }
          %C[%vi, %vj] = %C[%vi, %vj] + %A[%vi, %vk] * %B[%vk, %vj];
        }
      }
    }
  }
}
)";

const char* kMatmulLoops = R"(#[version = "0.0.5"]
#[phase = 0]
primfn @mm(%A: Buffer[(8, 6), float32], %B: Buffer[(6, 5), float32], %C: Buffer[(8, 5), float32]) {
  for (%i, 0, 8, serial) {
    for (%j, 0, 5, serial) {
      %C[%i, %j] = 0.5f;
      for (%k, 0, 6, serial) {
        %C[%i, %j] = %C[%i, %j] + %A[%i, %k] * %B[%k, %j];
      }
    }
  }
}
)";

// A root block with a scratch buffer, a reduction whose iteration variables
// are computed (not plain loop variables), and a predicate.
const char* kWindowSum = R"(#[version = "0.0.5"]
#[phase = 0]
primfn @window(%X: Buffer[(12), float32], %Y: Buffer[(10), float32]) {
  block "root"() alloc(%S: Buffer[(10), float32]) {
    for (%o, 0, 3, serial) {
      for (%in, 0, 4, serial) {
        for (%r, 0, 3, serial) {
          block "S"(%v = spatial(0, 10, %o * 4 + %in), %vr = reduce(0, 3, %r)) where(%o * 4 + %in < 10) reads(%X[%v + %vr]) writes(%S[%v]) {
            init {
              %S[%v] = 0f;
            }
            %S[%v] = %S[%v] + %X[%v + %vr];
          }
        }
      }
    }
    for (%i, 0, 10, serial) {
      block "Y"(%vi = spatial(0, 10, %i)) reads(%S[%vi]) writes(%Y[%vi]) {
        %Y[%vi] = %S[%vi] * 2f;
      }
    }
  }
}
)";

IRModule parse(const char* text) { return parseModule(text, "<test>"); }

std::vector<NDArray> runMatmul(const IRModule& mod) {
  std::vector<NDArray> args{randomArray(DTypeCode::Float32, {8, 6}, 7), randomArray(DTypeCode::Float32, {6, 5}, 8),
                            NDArray(DTypeCode::Float32, {8, 5})};
  evaluatePrimFunc(mod, "mm", args);
  return args;
}

}  // namespace

TEST_CASE("TIR blocks: a matmul with init equals the loop form on the interpreter", "[tir][blocks]") {
  IRModule blocks = parse(kMatmulBlocks), loops = parse(kMatmulLoops);
  CHECK(checkWellFormed(blocks).empty());
  std::vector<NDArray> a = runMatmul(blocks), b = runMatmul(loops);
  CHECK(a[2].bitwiseEqual(b[2]));
  // Lowering binds the remapped variables by substitution: no let remains,
  // and the init runs under `vk == 0`.
  IRModule loweredModule = T::lowerBlocks(blocks);
  const auto* fn = as<PrimFuncNode>(loweredModule->lookup("mm"));
  REQUIRE(fn);
  CHECK_FALSE(T::hasBlocks(fn->body));
  std::string lowered = printFunction(T::lowerBlocks(blocks), "mm");
  CHECK(lowered.find("let ") == std::string::npos);
  CHECK(lowered.find("if (%k == 0)") != std::string::npos);
}

TEST_CASE("TIR blocks: predicate, computed bindings and a scratch buffer", "[tir][blocks]") {
  IRModule mod = parse(kWindowSum);
  CHECK(checkWellFormed(mod).empty());
  NDArray x = randomArray(DTypeCode::Float32, {12}, 3);
  std::vector<NDArray> args{x, NDArray(DTypeCode::Float32, {10})};
  evaluatePrimFunc(mod, "window", args);
  std::vector<double> xs = toDoubles(x), ys = toDoubles(args[1]);
  for (int i = 0; i < 10; ++i) {
    float s = 0;
    for (int r = 0; r < 3; ++r) s = static_cast<float>(s + static_cast<float>(xs[i + r]));
    CHECK(ys[i] == static_cast<float>(s * 2.0f));
  }
  // A computed binding becomes a let; the predicate an if around it.
  std::string lowered = printFunction(T::lowerBlocks(mod), "window");
  CHECK(lowered.find("let %v: int32 = %o * 4 + %in;") != std::string::npos);
  CHECK(lowered.find("if (%o * 4 + %in < 10)") != std::string::npos);
  CHECK(lowered.find("allocate %S: Buffer[(10), float32];") != std::string::npos);
}

TEST_CASE("TIR blocks: lowering shares what has no blocks", "[tir][blocks]") {
  IRModule loops = parse(kMatmulLoops);
  CHECK(T::lowerBlocks(loops) == loops);
  IRModule both = withFunction(parse(kMatmulBlocks), "loops", loops->lookup("mm"));
  IRModule lowered = T::lowerBlocks(both);
  CHECK(lowered != both);
  CHECK(lowered->lookup("loops") == both->lookup("loops"));
}

TEST_CASE("TIR blocks: the host JIT runs block-form PrimFuncs", "[tir][blocks][codegen]") {
  IRModule blocks = parse(kMatmulBlocks);
  std::vector<NDArray> expected = runMatmul(parse(kMatmulLoops));
  auto host = codegen::HostModule::compile(blocks);
  std::vector<NDArray> args{randomArray(DTypeCode::Float32, {8, 6}, 7), randomArray(DTypeCode::Float32, {6, 5}, 8),
                            NDArray(DTypeCode::Float32, {8, 5})};
  host->callPrimFunc("mm", args);
  CHECK(maxAbsDiff(args[2], expected[2]) < 1e-5);

  IRModule window = parse(kWindowSum);
  NDArray x = randomArray(DTypeCode::Float32, {12}, 3);
  std::vector<NDArray> interp{x, NDArray(DTypeCode::Float32, {10})}, jit{x, NDArray(DTypeCode::Float32, {10})};
  evaluatePrimFunc(window, "window", interp);
  codegen::HostModule::compile(window)->callPrimFunc("window", jit);
  CHECK(maxAbsDiff(interp[1], jit[1]) < 1e-5);
}

TEST_CASE("TIR blocks: print -> parse -> print is a fixpoint and structurally equal", "[tir][blocks][printer]") {
  std::string text = GENERATE(std::string(kMatmulBlocks), std::string(kWindowSum));
  IRModule mod = parse(text.c_str());
  std::string printed = printModule(mod);
  CHECK(printed == text);
  IRModule again = parse(printed.c_str());
  CHECK(structuralEqual(mod, again));
  CHECK(structuralHash(mod) == structuralHash(again));
  CHECK(printModule(again) == printed);
}

TEST_CASE("TIR blocks: regions, annotations and int64 variables round trip", "[tir][blocks][printer]") {
  const char* text = R"(#[version = "0.0.5"]
#[phase = 0]
primfn @f(%A: Buffer[(4, 16), float32], %B: Buffer[(4), float32], %n: int32) {
  for (%i: int64, 0i64, 4i64, serial) {
    block "B"(%vi: int64 = spatial(0i64, 4i64, %i)) reads(%A[%vi, 0:16], %A[%vi, %n:%n + 4]) writes(%B[%vi]) attrs("meta_schedule.unroll"=16, note="x") {
      %B[%vi] = %A[%vi, 0] + %A[%vi, 15];
    }
  }
}
)";
  IRModule mod = parse(text);
  std::string printed = printModule(mod);
  CHECK(printed == text);
  const auto* fn = as<PrimFuncNode>(mod->lookup("f"));
  const auto* loop = T::as<T::ForNode>(fn->body);
  REQUIRE(loop);
  const auto* block = T::as<T::BlockNode>(loop->body);
  REQUIRE(block);
  REQUIRE(block->reads.size() == 2);
  // `%n:%n + 4` is min %n, extent 4 (the parser undoes the printed sum).
  const auto* extent = T::as<T::IntImmNode>(block->reads[1].ranges[1].second);
  REQUIRE(extent);
  CHECK(extent->value == 4);
  CHECK(block->annotations.getInt("meta_schedule.unroll", 0) == 16);
}

TEST_CASE("TIR blocks: structural equality compares every field", "[tir][blocks][structural]") {
  IRModule base = parse(kMatmulBlocks);
  auto variant = [&](const std::string& from, const std::string& to) {
    std::string t = kMatmulBlocks;
    size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    t.replace(at, from.size(), to);
    return parse(t.c_str());
  };
  // Renaming variables keeps equality; iteration variables pair by position.
  std::string renamed = kMatmulBlocks;
  for (size_t at; (at = renamed.find("%vk")) != std::string::npos;) renamed.replace(at, 3, "%rk");
  CHECK(structuralEqual(base, parse(renamed.c_str())));
  CHECK(structuralHash(base) == structuralHash(parse(renamed.c_str())));
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"block \"C\"", "block \"D\""},
           {"%vk = reduce(0, 6, %k)", "%vk = spatial(0, 6, %k)"},
           {"%vj = spatial(0, 5, %j)", "%vj = spatial(0, 5, %i)"},
           {"reads(%A[%vi, %vk], %B[%vk, %vj])", "reads(%A[%vi, %vk])"},
           {"writes(%C[%vi, %vj])", "writes(%C[%vi, 0:5])"},
           {"0.5f;", "0.25f;"},
           {") {\n          init", ") attrs(x=1) {\n          init"},
           {"reads(", "where(%i < 7) reads("}}) {
    INFO(from << " -> " << to);
    IRModule v = variant(from, to);
    CHECK_FALSE(structuralEqual(base, v));
    CHECK_FALSE(structuralEqual(v, base));
  }
  CHECK(structuralEqual(base, parse(kMatmulBlocks)));
  CHECK(structuralHash(base) == structuralHash(parse(kMatmulBlocks)));
}

TEST_CASE("TIR blocks: bad block text gets located errors", "[tir][blocks][parser]") {
  auto bad = GENERATE(std::make_pair("block \"b\"(%v = along(0, 4, %i)) {", "expected spatial or reduce"),
                      std::make_pair("block \"b\"(%v = spatial(0, 4)) {", "spatial takes 3 arguments"),
                      std::make_pair("block \"b\"(%v = spatial(0, 4, %i)) reads(%A[%v, 0]) {", "has 2 ranges for 1 dimensions"),
                      std::make_pair("block \"b\"(%v = spatial(0, 4, %i)) reads(%Q[%v]) {", "undefined buffer"),
                      std::make_pair("block \"b\"(%v = spatial(0, 4, %i)) alloc(%T: Buffer[(4), float32]) reads(%A[%v]) {", "expected '{'"));
  std::string text = std::string("primfn @f(%A: Buffer[(4), float32]) {\n  for (%i, 0, 4, serial) {\n    ") + bad.first +
                     "\n      %A[%v] = 1f;\n    }\n  }\n}\n";
  try {
    parseModule(text, "bad.txt");
    FAIL("parsed");
  } catch (const DiagnosticError& e) {
    std::string what = e.what();
    INFO(what);
    CHECK(what.find(bad.second) != std::string::npos);
    CHECK(what.find("bad.txt:3:") != std::string::npos);
  }
}

TEST_CASE("TIR blocks: InlinePrivateFunctions copies a callee's blocks with fresh variables and scratch", "[tir][blocks][passes]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
#[phase = 0]
primfn @k(%A: Buffer[(4), float32], target="hexagon", global_symbol="k") {
  @sub(%A);
  @sub(%A);
}
primfn @sub(%X: Buffer[(4), float32], target="hexagon") {
  for (%i, 0, 4, serial) {
    block "s"(%v = spatial(0, 4, %i)) reads(%X[%v]) writes(%X[%v]) alloc(%T: Buffer[(1), float32]) {
      %T[0] = %X[%v] * 2f;
      %X[%v] = %T[0] + 1f;
    }
  }
}
)");
  PipelineRun r;
  IRModule out = r.run("InlinePrivateFunctions", mod);
  REQUIRE_FALSE(out->lookup("sub"));
  const auto* k = as<PrimFuncNode>(out->lookup("k"));
  REQUIRE(k);
  CHECK(T::hasBlocks(k->body));
  CHECK(checkWellFormed(out).empty());  // two copies, each with its own variables and buffers
  auto run = [](const IRModule& m) {
    std::vector<NDArray> args{f32({4}, {1, 2, 3, 4})};
    evaluatePrimFunc(m, "k", args);
    return args[0];
  };
  CHECK(run(out).bitwiseEqual(run(mod)));
  requireValues(run(out), DTypeCode::Float32, {4}, {7, 11, 15, 19});
}
