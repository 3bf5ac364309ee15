// Phases (seed 002): the module's phase attribute, the passes that move it
// (LambdaLifting 0->1, LegalizeOps 1->2, VMBuiltinLower 2->3), the lowering
// passes between them, out-of-phase runs (an error in the trace, a refused
// step in the workbench unless forced), verify-each, and docs/passes.md.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/ir/functor.h"
#include "core/pass/instruments.h"
#include "core/text/printer.h"
#include "core/workbench/workbench.h"
#include "tests/opt_test_util.h"
#include "tests/test_util.h"

using namespace passlab;
using namespace passlab::testing;
using Catch::Contains;

namespace {

const char* kNested = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  let %f = fn (%y: Tensor[(4), float32]) -> Tensor[(4), float32] {
    add(%x, %y)
  };
  let %g = fn (%z: Tensor[(4), float32]) -> Tensor[(4), float32] {
    nn.relu(%z)
  };
  %0 = %f(%x);
  %g(%0)
}
)";

const char* kDataflow = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  dataflow {
    %lv0 = add(%x, %x);
    output %gv0 = nn.relu(%lv0);
  }
  %gv0
}
)";

/// A phase-2 module written by hand, as LegalizeOps would leave it.
const char* kLowered = R"(#[version = "0.0.5"]
#[phase = 2]
def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  let %y = call_tir(@double, (%x,), out_shape=[4], out_dtype="float32");
  call_tir(@double, (%y,), out_shape=[4], out_dtype="float32")
}

primfn @double(%A: Buffer[(4), float32], %B: Buffer[(4), float32], global_symbol="double") {
  for (%i, 0, 4) {
    %B[%i] = %A[%i] + %A[%i];
  }
}
)";

std::vector<std::string> rules(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds) out.push_back(d.rule);
  return out;
}

size_t countKind(const Expr& root, ExprKind kind) {
  size_t n = 0;
  postOrderVisit(root, [&](const Expr& e) { n += e->kind == kind; });
  return n;
}

size_t countOp(const Expr& root, OpId id) {
  size_t n = 0;
  postOrderVisit(root, [&](const Expr& e) {
    const auto* c = as<CallNode>(e);
    n += c && c->op() && c->op()->id == id;
  });
  return n;
}

}  // namespace

TEST_CASE("Phases: the parser sets phase 0 unless the text says otherwise", "[phases]") {
  IRModule parsed = parseModule(kNested, "nested.relay");
  CHECK(parsed->phase() == 0);
  REQUIRE(parsed->attrs.find("phase"));
  CHECK(parseModule(kLowered, "lowered.relay")->phase() == 2);
}

TEST_CASE("Phases: every registered pass declares its phases; only the three transitions move it", "[phases][registry]") {
  const PassRegistry& registry = builtinRegistry();
  for (const PassRegistration* r : registry.all()) {
    INFO(r->info.name);
    CHECK_FALSE(r->info.acceptedPhases.empty());
    for (Phase p : r->info.acceptedPhases) CHECK((phaseNumber(p) >= 0 && phaseNumber(p) <= 3));
    if (r->info.name == "LambdaLifting") {
      CHECK(r->info.acceptedPhases == std::vector<Phase>{Phase::Ingestion});
      CHECK(r->info.phaseAfter == Phase::Optimization);
    } else if (r->info.name == "LegalizeOps") {
      // A Relax module is legalized as written (TVM's Relax pipelines start with it).
      CHECK(r->info.acceptedPhases == std::vector<Phase>{Phase::Ingestion, Phase::Optimization});
      CHECK(r->info.phaseAfter == Phase::Lowering);
    } else if (r->info.name == "VMBuiltinLower" || r->info.name == "LowerRuntimeBuiltin") {
      // LowerRuntimeBuiltin is TVM's later name for the 2 -> 3 step, on TVM's Relax VM form.
      CHECK(r->info.acceptedPhases == std::vector<Phase>{Phase::Lowering});
      CHECK(r->info.phaseAfter == Phase::Build);
    } else {
      CHECK_FALSE(r->info.phaseAfter);
    }
  }
}

TEST_CASE("Phases: LambdaLifting lifts inner functions with their captures and enters phase 1", "[phases][lambda]") {
  PipelineRun run;
  IRModule out = run.run("LambdaLifting,InferType", parseModule(kNested, "nested.relay"));
  CHECK(out->phase() == 1);
  REQUIRE(out->lookupFunction("main_f"));
  REQUIRE(out->lookupFunction("main_g"));
  CHECK(out->lookupFunction("main_f")->params.size() == 2);  // the captured %x comes first
  CHECK(out->lookupFunction("main_g")->params.size() == 1);
  CHECK(countKind(out->lookupFunction("main")->body, ExprKind::Function) == 0);
  CHECK(printModule(out).find("@main_f(%x, %x)") != std::string::npos);
  CHECK(checkWellFormed(out).empty());
}

TEST_CASE("Phases: LambdaLifting keeps Compiler functions nested and names lifted globals uniquely", "[phases][lambda][byoc]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  %0 = fn (%a: Tensor[(4), float32], Compiler="ccompiler") -> Tensor[(4), float32] { nn.relu(%a) };
  %1 = fn (%b: Tensor[(4), float32]) -> Tensor[(4), float32] { negative(%b) };
  %2 = %0(%x);
  %1(%2)
}
def @main_lifted(%c: Tensor[(4), float32]) -> Tensor[(4), float32] {
  %c
}
)",
                             "byoc.relay");
  PipelineRun run;
  IRModule out = run.run("LambdaLifting", mod);
  REQUIRE(out->lookupFunction("main_lifted_1"));  // @main_lifted was taken
  CHECK(countKind(out->lookupFunction("main")->body, ExprKind::Function) == 1);  // the Compiler one
  CHECK(checkWellFormed(out).empty());
}

TEST_CASE("Phases: LambdaLifting rejects a capturing function used as a value, at its location", "[phases][lambda][errors]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  let %f = fn (%y: Tensor[(4), float32]) { add(%x, %y) };
  (%f, %x)
}
)",
                             "escape.relay");
  PipelineRun run;
  try {
    run.run("LambdaLifting", mod);
    FAIL("LambdaLifting accepted an escaping closure");
  } catch (const PassFailure& failure) {
    REQUIRE(failure.diagnostics().size() == 1);
    const Diagnostic& d = failure.diagnostics()[0];
    CHECK(d.rule == "lift.escaping-closure");
    CHECK(d.span.location() == "escape.relay:3:12");
    CHECK_THAT(d.message, Contains("%f") && Contains("captures %x"));
  }
}

TEST_CASE("Phases: ToNonDataflow turns dataflow blocks into let bindings", "[phases][dataflow]") {
  PipelineRun run;
  IRModule mod = parseModule(kDataflow, "df.relay");
  IRModule out = run.run("InferType,ToNonDataflow", mod);
  const FunctionNode* main = out->lookupFunction("main");
  CHECK(countKind(main->body, ExprKind::Dataflow) == 0);
  CHECK(countKind(main->body, ExprKind::Let) == 2);
  bool dataflowVar = false;
  postOrderVisit(main->body, [&](const Expr& e) { dataflowVar = dataflowVar || (as<VarNode>(e) && as<VarNode>(e)->isDataflow); });
  CHECK_FALSE(dataflowVar);
  CHECK(checkWellFormed(withModuleAttrs(out, {{"phase", AttrValue::integer(2)}})).size() == 2);  // only the two ops
  // Nothing to do: the same module object.
  CHECK(run.run("ToNonDataflow", out) == out);
}

TEST_CASE("Phases: RemovePurityChecking marks functions and unwraps the pure wrappers", "[phases][purity]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
#[phase = 2]
def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  let %y = call_pure_packed(@ext, %x, out_shape=[4], out_dtype="float32");
  %y
}
def @log(%x: Tensor[(4), float32], is_pure=0) -> Tensor[(4), float32] {
  %x
}
def @ext(%a: Tensor[(4), float32], Extern=1) -> Tensor[(4), float32] {
  %a
}
)",
                             "purity.relay");
  PipelineRun run;
  IRModule out = run.run("RemovePurityChecking", mod);
  CHECK(out->lookupFunction("main")->attrs.getInt(fn_attr::kForcePure, 0) == 1);
  CHECK_FALSE(out->lookupFunction("log")->attrs.contains(fn_attr::kForcePure));
  CHECK(out->lookup("ext") == mod->lookup("ext"));  // extern: skipped, and the skip is recorded
  REQUIRE(run.trace->events().size() >= 2);
  CHECK(countOp(out->lookupFunction("main")->body, OpId::CallPurePacked) == 0);
  CHECK(printModule(out).find("let %y = @ext(%x);") != std::string::npos);
  std::vector<std::string> phase3 = rules(checkWellFormed(withModuleAttrs(out, {{"phase", AttrValue::integer(3)}})));
  CHECK(std::count(phase3.begin(), phase3.end(), "wf.purity-unmarked") == 0);
  CHECK(std::count(phase3.begin(), phase3.end(), "wf.purity-wrapper") == 0);
}

TEST_CASE("Phases: VMBuiltinLower lowers call_tir to VM builtins in A-normal form and enters phase 3", "[phases][vm]") {
  PipelineRun run;
  IRModule out = run.run("RemovePurityChecking,VMBuiltinLower,InferType", parseModule(kLowered, "lowered.relay"));
  CHECK(out->phase() == 3);
  const FunctionNode* main = out->lookupFunction("main");
  CHECK(countOp(main->body, OpId::CallTir) == 0);
  CHECK(countOp(main->body, OpId::VmAllocStorage) == 2);
  CHECK(countOp(main->body, OpId::VmAllocTensor) == 2);
  CHECK(countOp(main->body, OpId::VmCallTir) == 2);
  std::string text = printModule(out);
  CHECK(text.find("vm.builtin.alloc_storage(size=16)") != std::string::npos);
  CHECK(text.find("vm.builtin.alloc_tensor(%storage, shape=[4], dtype=\"float32\")") != std::string::npos);
  CHECK(text.find("vm.builtin.call_tir(@double, ") != std::string::npos);
  CHECK(checkWellFormed(out).empty());
  CHECK(checkTypes(out).empty());
}

TEST_CASE("Phases: VMBuiltinLower reports an output without a static shape at the call", "[phases][vm][errors]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
#[phase = 2]
def @main(%x: Tensor[(4), float32]) {
  call_tir(@double, (%x,), out_shape=[-1], out_dtype="float32")
}
primfn @double(%A: Buffer[(4), float32], %B: Buffer[(4), float32]) {
  for (%i, 0, 4) {
    %B[%i] = %A[%i];
  }
}
)",
                             "dynamic.relay");
  PipelineRun run;
  REQUIRE_THROWS_AS(run.run("VMBuiltinLower", mod), PassFailure);
  try {
    run.run("VMBuiltinLower", mod);
  } catch (const PassFailure& failure) {
    CHECK(failure.diagnostics()[0].rule == "lower.dynamic-shape");
    CHECK(failure.diagnostics()[0].span.location() == "dynamic.relay:4:3");
  }
}

TEST_CASE("Phases: a module walks through all four phases and stays well formed", "[phases][pipeline]") {
  PipelineRun run;
  auto verify = std::make_shared<VerifyInstrument>(true, true);
  IRModule mod = parseModule(kDataflow, "df.relay");
  run.trace = std::make_shared<Trace>(mod);
  run.ctx->instruments() = {std::make_shared<TraceInstrument>(run.trace), verify};
  std::vector<int64_t> phases;
  IRModule current = mod;
  for (const char* pass : {"LambdaLifting", "InferType", "ToNonDataflow", "LegalizeOps", "RemovePurityChecking",
                                  "VMBuiltinLower", "InferType"}) {
    current = runPass(*builtinRegistry().create(pass), current, *run.ctx);
    phases.push_back(current->phase());
  }
  CHECK(phases == std::vector<int64_t>{1, 1, 1, 2, 2, 3, 3});
  CHECK(verify->violations() == 0);
  CHECK(countOp(current->lookupFunction("main")->body, OpId::VmCallTir) == 2);
}

TEST_CASE("Phases: an out-of-phase pass is an error in the trace, and runs", "[phases][pass]") {
  PipelineRun run;
  IRModule out = run.run("VMBuiltinLower", parseModule(kNested, "nested.relay"));
  std::vector<const TraceEvent*> events = run.events("VMBuiltinLower");
  REQUIRE(events.size() == 1);
  REQUIRE(events[0]->diagnostics.size() == 1);
  const Diagnostic& d = events[0]->diagnostics[0];
  CHECK(d.rule == "phase.out-of-phase");
  CHECK(d.severity == Severity::Error);
  CHECK(d.message == "pass 'VMBuiltinLower' accepts phase 2 but the module is in phase 0");
  CHECK(out->phase() == 3);
}

TEST_CASE("Phases: the workbench refuses an out-of-phase step unless forced", "[phases][workbench]") {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb(registry);
  wb.loadText(kNested, "nested.relay");
  wb.setPipeline("InferType,VMBuiltinLower,LambdaLifting");
  MoveResult first = wb.step(2);
  CHECK(first.to == 1);
  CHECK(first.executed.size() == 1);
  CHECK(first.refusal == "refused: pass 'VMBuiltinLower' accepts phase 2 but the module is in phase 0; `step --force` runs it anyway");
  REQUIRE(first.notes.size() == 1);
  CHECK(wb.passesExecuted() == 1);
  CHECK(wb.nextPassRefusal().has_value());
  // run stops in front of it too, without moving.
  MoveResult again = wb.run();
  CHECK(again.to == 1);
  CHECK(again.executed.empty());
  CHECK_FALSE(again.refusal.empty());
  MoveResult forced = wb.forceStep();
  REQUIRE(forced.executed.size() == 1);
  const TraceEvent& ev = wb.event(forced.executed[0]);
  CHECK(ev.pass == "VMBuiltinLower");
  REQUIRE_FALSE(ev.diagnostics.empty());
  CHECK(ev.diagnostics[0].rule == "phase.out-of-phase");
  // Forcing lasted one move: LambdaLifting now finds phase 3 and is refused.
  MoveResult next = wb.step();
  CHECK_THAT(next.refusal, Contains("'LambdaLifting' accepts phase 0 but the module is in phase 3"));
}

TEST_CASE("Phases: verify-each turns violations into event diagnostics a breakpoint stops on", "[phases][workbench][verify]") {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb(registry);
  // Phase 1 with an inner function: ill-formed from the start.
  std::string text = kNested;
  text.insert(text.find('\n') + 1, "#[phase = 1]\n");
  wb.loadText(text, "inner.relay");
  wb.setPipeline("InferType,SimplifyExpr");
  CHECK(wb.verifyEach() == false);
  CHECK(rules(wb.wellFormed(0)) == std::vector<std::string>{"wf.inner-function", "wf.inner-function"});
  CHECK(wb.wellFormed(0)[0].span.location() == "inner.relay:4:12");
  wb.setVerifyEach(true);
  int bp = wb.addBreakpoint(BreakKind::Diagnostic, "wf.inner-function");
  MoveResult stop = wb.run();
  CHECK(stop.reason == StopReason::Breakpoint);
  CHECK(stop.breakpoints == std::vector<int>{bp});
  const TraceEvent& ev = wb.event(stop.to);
  CHECK(ev.pass == "InferType");
  REQUIRE(ev.diagnostics.size() == 2);
  CHECK(ev.diagnostics[0].rule == "wf.inner-function");
  CHECK_THAT(ev.diagnostics[0].message, Contains("verify before InferType"));
  CHECK(ev.diagnostics[0].function == "main");
}

TEST_CASE("Phases: docs/passes.md is generated from the registry and up to date", "[phases][docs]") {
  std::string generated = passesMarkdown(builtinRegistry());
  for (const PassRegistration* r : builtinRegistry().all()) {
    INFO(r->info.name);
    CHECK(generated.find("\n## " + r->info.name + "\n") != std::string::npos);
    CHECK(generated.find(r->info.description) != std::string::npos);
  }
  CHECK_THAT(generated, Contains("- **Accepted phases:** 2 (lowering)\n- **Phase after:** 3 (build)"));
  INFO("regenerate with: passlab --help-passes-markdown > docs/passes.md");
  CHECK(readFile(std::string(PASSLAB_SOURCE_DIR) + "/docs/passes.md") == generated);
}

TEST_CASE("Phases: LambdaLifting lifts a recursive closure; its recursive calls pass the captures", "[phases][lambda]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32], %n: int32) -> Tensor[(4), float32] {
  let %loop: fn (int32, Tensor[(4), float32]) -> Tensor[(4), float32] = fn (%i: int32, %acc: Tensor[(4), float32]) -> Tensor[(4), float32] {
    if (less(%i, %n)) {
      %loop(add(%i, 1), add(%acc, %x))
    } else {
      %acc
    }
  };
  %loop(0, %x)
}
)",
                             "loop.relay");
  PipelineRun run;
  IRModule out = run.run("LambdaLifting,InferType", mod);
  const FunctionNode* loop = out->lookupFunction("main_loop");
  REQUIRE(loop);
  REQUIRE(loop->params.size() == 4);
  CHECK(loop->params[0]->name == "n");  // captures in order of first use, then the own parameters
  CHECK(loop->params[1]->name == "x");
  std::string text = printModule(out);
  CHECK(text.find("@main_loop(%n, %x, 0 /* ty=int32 */, %x)") != std::string::npos);
  CHECK(text.find("@main_loop(%n, %x, %1, %2)") != std::string::npos);
  CHECK(checkWellFormed(out).empty());
}

TEST_CASE("Phases: VMBuiltinLower flattens nested calls, several outputs and packed calls", "[phases][vm]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
#[phase = 2]
def @main(%x: Tensor[(4), float32]) -> (Tensor[(4), float32], Tensor[(2), int32]) {
  %0 = call_tir(@double, (call_tir(@double, (%x,), out_shape=[4], out_dtype="float32"),), out_shape=[4], out_dtype="float32");
  %1 = call_tir(@two, (%0,), out_shape=[[4], [2]], out_dtype=["float32", "int32"]);
  %2 = call_dps_packed(@ext, (%1.0,), out_shape=[4], out_dtype="float32");
  (%2, %1.1)
}
def @ext(%a: Tensor[(4), float32], %b: Tensor[(4), float32], Extern=1) -> () {
  ()
}
primfn @double(%A: Buffer[(4), float32], %B: Buffer[(4), float32], global_symbol="double") {
  for (%i, 0, 4) {
    %B[%i] = %A[%i] + %A[%i];
  }
}
primfn @two(%A: Buffer[(4), float32], %B: Buffer[(4), float32], %C: Buffer[(2), int32], global_symbol="two") {
  for (%i, 0, 4) {
    %B[%i] = %A[%i];
  }
}
)",
                             "nested.relay");
  PipelineRun run;
  IRModule out = run.run("InferType,RemovePurityChecking,VMBuiltinLower,InferType", mod);
  const FunctionNode* main = out->lookupFunction("main");
  CHECK(countOp(main->body, OpId::VmCallTir) == 3);
  CHECK(countOp(main->body, OpId::VmAllocTensor) == 5);  // 1 + 1 + 2 outputs, and the packed call's
  CHECK(countOp(main->body, OpId::CallDpsPacked) == 0);
  std::string text = printModule(out);
  CHECK(text.find("vm.builtin.alloc_storage(size=8)") != std::string::npos);  // 2 x int32
  CHECK(text.find("@ext(%t, %alloc_4)") != std::string::npos);                 // inputs, then the output
  CHECK(checkWellFormed(out).empty());
  CHECK(checkTypes(out).empty());
  CHECK(out->lookup("ext") == mod->lookup("ext"));
}

TEST_CASE("Phases: RemovePurityChecking unwraps invoke_pure_closure, projecting a tuple variable", "[phases][purity]") {
  const char* text = R"(#[version = "0.0.5"]
#[phase = 2]
def @main(%c: fn (Tensor[(4), float32]) -> Tensor[(4), float32], %x: Tensor[(4), float32], %t: (Tensor[(4), float32],)) -> Tensor[(4), float32] {
  let %a = invoke_pure_closure(%c, (%x,), out_shape=[4], out_dtype="float32");
  invoke_pure_closure(%c, %t, out_shape=[4], out_dtype="float32")
}
)";
  PipelineRun run;
  IRModule out = run.run("InferType,RemovePurityChecking,InferType", parseModule(text, "closure.relay"));
  CHECK(countOp(out->lookupFunction("main")->body, OpId::InvokePureClosure) == 0);
  std::string printed = printModule(out);
  CHECK(printed.find("let %a = %c(%x)") != std::string::npos);
  CHECK(printed.find("%0 = %t.0") != std::string::npos);
  CHECK(printed.find("%c(%0)") != std::string::npos);
  // Without types the arity of %t is unknown: a located error, not a guess.
  PipelineRun untyped;
  try {
    untyped.run("RemovePurityChecking", parseModule(text, "closure.relay"));
    FAIL("an unknown closure arity was accepted");
  } catch (const PassFailure& failure) {
    CHECK(failure.diagnostics()[0].rule == "purity.unknown-arity");
    CHECK(failure.diagnostics()[0].span.location() == "closure.relay:5:3");
  }
}
