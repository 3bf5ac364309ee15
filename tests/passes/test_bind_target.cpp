// BindTarget and InlinePrivateFunctions (seed 004): the target attribute is the
// single source of truth; subroutines are inlined only for targets whose code
// generator cannot emit calls, and the trace shows why.
#include <catch2/catch.hpp>

#include "core/interp/interpreter.h"
#include "passes/bind_target.h"
#include "passes/inline_private_functions.h"
#include "passes/pass_util.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

const char* kHexagon = "hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b";

/// Collects the diagnostics reported to instruments.
struct DiagnosticRecorder final : PassInstrument {
  std::vector<Diagnostic> seen;
  std::string name() const override { return "diagnostics"; }
  void onDiagnostic(const Diagnostic& d, PassContext&) override { seen.push_back(d); }
};

/// Collects function skips.
struct SkipRecorder final : PassInstrument {
  std::vector<FunctionSkip> seen;
  std::string name() const override { return "skips"; }
  void onFunctionSkipped(const FunctionSkip& s) override { seen.push_back(s); }
};

std::string targetOf(const IRModule& mod, const std::string& name) {
  const AttrValue* t = functionAttrs(mod->lookup(name)).find("target");
  return t ? t->asString() : "";
}

/// Runs `spec` on `mod` under a fresh context with recorders installed.
struct Run {
  PassContextPtr ctx = PassContext::create();
  std::shared_ptr<DiagnosticRecorder> diags = std::make_shared<DiagnosticRecorder>();
  std::shared_ptr<SkipRecorder> skips = std::make_shared<SkipRecorder>();
  Run() {
    ctx->instruments().push_back(diags);
    ctx->instruments().push_back(skips);
  }
  IRModule run(const std::string& spec, const IRModule& mod) {
    PassPtr pipeline = parsePipeline(spec, builtinRegistry());
    IRModule out = mod;
    for (const PassPtr& pass : pipeline->subPasses()) out = runPass(*pass, out, *ctx);
    return out;
  }
};

/// Runs @host_main of the seed 004 module on fixed inputs; returns B.
NDArray runHostMain(const IRModule& mod) {
  NDArray a(DTypeCode::Float32, {4, 32}), w(DTypeCode::Float32, {4, 32}), b(DTypeCode::Float32, {4, 32});
  for (int64_t i = 0; i < a.numElements(); ++i) a.setFromDouble(i, static_cast<double>(i % 11) - 5.25);
  std::vector<NDArray> args{a, w, b};
  evaluatePrimFunc(mod, "host_main", args);
  return b;
}

size_t globalCallsIn(const IRModule& mod, const std::string& name) { return pass_util::referencedGlobals(mod->lookup(name)).size(); }

}  // namespace

TEST_CASE("BindTarget: fills missing targets and never overwrites one", "[passes][bind-target]") {
  IRModule mod = exampleModel("examples/seed004/multi_target.relay");
  Run r;
  IRModule out = r.run(std::string("BindTarget{target=\"") + kHexagon + "\"}", mod);
  CHECK(targetOf(out, "device_scale") == kHexagon);
  CHECK(targetOf(out, "scale_row") == kHexagon);
  // The host functions keep theirs, untouched (same node).
  CHECK(out->lookup("host_main") == mod->lookup("host_main"));
  CHECK(out->lookup("host_prepare") == mod->lookup("host_prepare"));
  // Each refusal is a warning naming the function and both targets.
  REQUIRE(r.diags->seen.size() == 2);
  for (const Diagnostic& d : r.diags->seen) {
    CHECK(d.rule == "bind-target.conflict");
    CHECK(d.severity == Severity::Warning);
    CHECK_THAT(d.message, Catch::Contains("keeps target=\"llvm\"") && Catch::Contains(kHexagon));
  }
  CHECK(r.diags->seen[0].function == "host_main");
  // Binding the same target again changes nothing: the module comes back as is.
  Run again;
  CHECK(again.run(std::string("BindTarget{target=\"") + kHexagon + "\"}", out) == out);
}

TEST_CASE("BindTarget: a target equal up to spacing and option order is no conflict", "[passes][bind-target]") {
  auto [a, b, same] = GENERATE(table<std::string, std::string, bool>({
      {"llvm", "llvm", true},
      {"llvm", " llvm ", true},
      {"hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b", "hexagon -mattr=+hvxv68,+hvx-length128b  -mcpu=hexagonv68", true},
      {"hexagon -mcpu=hexagonv68", "hexagon -mcpu=hexagonv66", false},
      {"llvm", "hexagon", false},
      {"llvm -link-params=1", "llvm", false},
  }));
  CHECK(sameTarget(a, b) == same);
}

TEST_CASE("BindTarget: takes the context's target when given none, and fails without any", "[passes][bind-target]") {
  IRModule mod = parse("#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(2), float32]) {\n  add(%x, %x)\n}\n");
  Run r;
  r.ctx->target = "llvm";
  PipelineRun traced;
  traced.ctx->target = "llvm";
  IRModule out = traced.run("BindTarget", mod);
  CHECK(targetOf(out, "main") == "llvm");
  CHECK(readsOf(*traced.events("BindTarget").at(0)) == std::vector<std::string>{"target.kind=\"llvm\"(target)"});
  Run none;
  CHECK_THROWS_WITH(none.run("BindTarget", mod), Catch::Contains("no target to bind"));
  Run bad;
  CHECK_THROWS_AS(bad.run("BindTarget{target=\"-mcpu=x\"}", mod), DiagnosticError);
}

TEST_CASE("BindTarget: external functions are skipped with the reason", "[passes][bind-target]") {
  IRModule mod = exampleModel("examples/cnn_block.relay");
  Run r;
  IRModule out = r.run("BindTarget{target=llvm}", mod);
  CHECK(targetOf(out, "main") == "llvm");
  CHECK(targetOf(out, "ext_block").empty());
  REQUIRE(r.skips->seen.size() == 1);
  CHECK(r.skips->seen[0].function == "ext_block");
  CHECK_THAT(r.skips->seen[0].reason, Catch::Contains("Compiler"));
}

TEST_CASE("InlinePrivateFunctions: inlines device subroutines for the target that cannot emit calls", "[passes][inline-private]") {
  IRModule mod = exampleModel("examples/seed004/multi_target.relay");
  PipelineRun r;
  IRModule bound = r.run(std::string("BindTarget{target=\"") + kHexagon + "\"}", mod);
  IRModule out = r.run("InlinePrivateFunctions", bound);
  // The Hexagon kernel no longer calls anything; its subroutine is gone.
  CHECK(globalCallsIn(out, "device_scale") == 0);
  CHECK_FALSE(out->lookup("scale_row"));
  // The host keeps its calls: llvm emits them (the host helper and the kernel launch).
  CHECK(out->lookup("host_main") == bound->lookup("host_main"));
  CHECK(out->lookup("host_prepare"));
  // Same numbers, bit for bit.
  CHECK(runHostMain(out).bitwiseEqual(runHostMain(mod)));
  // The capability is a recorded config read, and the skipped caller says why.
  const TraceEvent& e = *r.events("InlinePrivateFunctions").at(0);
  CHECK(readsOf(e) == std::vector<std::string>{std::string(kTargetsWithoutCallsKey) + "=[\"hexagon\"](default)"});
  bool hostSkip = false;
  for (const FunctionSkip& s : e.skips) hostSkip = hostSkip || (s.function == "host_main" && s.reason == "target llvm emits calls");
  CHECK(hostSkip);
  CHECK(printModule(parseModule(printModule(out))) == printModule(out));
}

TEST_CASE("InlinePrivateFunctions: the capability comes from the config; an empty list inlines nothing", "[passes][inline-private]") {
  IRModule mod = exampleModel("examples/seed004/multi_target.relay");
  Run r;
  r.ctx->setConfig(kTargetsWithoutCallsKey, AttrValue::array({}));
  IRModule bound = r.run(std::string("BindTarget{target=\"") + kHexagon + "\"}", mod);
  CHECK(r.run("InlinePrivateFunctions", bound) == bound);
  // And listing llvm inlines the host helper into the host too.
  Run host;
  host.ctx->setConfig(kTargetsWithoutCallsKey, AttrValue::array({AttrValue::string("llvm"), AttrValue::string("hexagon")}));
  IRModule all = host.run(std::string("BindTarget{target=\"") + kHexagon + "\"},InlinePrivateFunctions", mod);
  CHECK_FALSE(all->lookup("host_prepare"));
  // The host still launches the public kernel; calling a public function is reported, not inlined.
  CHECK(globalCallsIn(all, "host_main") == 1);
  bool warned = false;
  for (const Diagnostic& d : host.diags->seen) warned = warned || d.rule == "inline-private.cannot-inline";
  CHECK(warned);
  CHECK(runHostMain(all).bitwiseEqual(runHostMain(mod)));
}

TEST_CASE("InlinePrivateFunctions: recursion fails the pass with a diagnostic", "[passes][inline-private]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
primfn @f(%A: Buffer[(2), float32], target="hexagon") {
  @g(%A);
}

primfn @g(%A: Buffer[(2), float32], target="hexagon") {
  @g(%A);
}
)");
  Run r;
  CHECK_THROWS_WITH(r.run("InlinePrivateFunctions", mod), Catch::Contains("recursion"));
}
