// Workbench checks: the numeric-check instrument and its breakpoint, bisect
// over the pipeline, and provenance conflicts from the FoldConstant teaching switch.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/workbench/workbench.h"
#include "passes/fold_constant.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

const char* kSeedModel = "examples/seed000/cnn_fp32.relay";
const char* kScenarioPipeline = "InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps";

std::shared_ptr<const PassRegistry> registryWithBreakingPass() {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  // A pass that breaks the module on purpose: it swaps @main's body for an ill-typed add.
  PassRegistration r;
  r.info.name = "TestBreakTypes";
  r.info.description = "test only";
  r.create = [](const AttrDict&) -> PassPtr {
    PassInfo info;
    info.name = "TestBreakTypes";
    return std::make_shared<ModulePass>(info, [](const IRModule& mod, PassContext&) {
      const FunctionNode* main = mod->lookupFunction("main");
      Expr bad = makeOpCall(OpId::Add, {main->params[0], makeConstant(NDArray(DTypeCode::Float32, {7}))});
      return withFunction(mod, "main", makeFunction(main->params, bad, nullptr, main->attrs));
    });
  };
  registry->add(std::move(r));
  return registry;
}

Workbench& scenario(Workbench& wb) {
  wb.load(std::string(PASSLAB_SOURCE_DIR) + "/" + kSeedModel);
  wb.setPipeline(kScenarioPipeline);
  return wb;
}

}  // namespace

TEST_CASE("Numeric check: every root-context event gets its error against #0", "[workbench][numeric]") {
  Workbench wb(std::make_shared<const PassRegistry>(builtinRegistry()));
  scenario(wb);
  wb.setNumericCheck(NumericCheckOptions{});
  wb.run();
  for (int id : wb.trace().topLevel()) {
    const TraceEvent& ev = wb.event(id);
    INFO("#" << id << " " << ev.pass);
    REQUIRE(ev.numeric);
    CHECK(ev.numeric->compared);
    if (ev.pass == "load" || ev.pass == "InferType") CHECK(ev.numeric->maxAbsError == 0);
    if (ev.pass == "ToMixedPrecision") CHECK(ev.numeric->maxRelError > 1e-5);
    CHECK(ev.numeric->maxRelError < 1e-2);
  }
  // Nested passes work on FoldConstant's evaluation module: nothing to compare with.
  for (const TraceEvent& ev : wb.trace().events())
    if (ev.contextDepth > 0) CHECK_FALSE(ev.numeric);
}

TEST_CASE("Numeric check: turning it on later checks the recorded events; seeds and input files", "[workbench][numeric]") {
  Workbench wb(std::make_shared<const PassRegistry>(builtinRegistry()));
  scenario(wb);
  wb.run();
  CHECK_FALSE(wb.event(3).numeric);
  wb.setNumericCheck(NumericCheckOptions{5, "", "main"});
  REQUIRE(wb.event(3).numeric);
  const double seed5 = wb.event(3).numeric->maxAbsError;
  CHECK(seed5 > 0);

  std::filesystem::path inputs = std::filesystem::temp_directory_path() / "passlab_numeric_inputs.txt";
  {
    std::ofstream out(inputs);
    out << "# all ones\n%data = ones(shape=[1, 3, 8, 8], dtype=\"float32\")\n";
  }
  wb.setNumericCheck(NumericCheckOptions{0, inputs.string(), "main"});
  REQUIRE(wb.event(3).numeric);
  CHECK(wb.event(3).numeric->maxAbsError != seed5);
  {
    std::ofstream out(inputs);
    out << "%nope = 1f\n";
  }
  CHECK_THROWS_AS(wb.setNumericCheck(NumericCheckOptions{0, inputs.string(), "main"}), DiagnosticError);
  wb.setNumericCheck(std::nullopt);
  CHECK_FALSE(wb.numericCheck());
  std::filesystem::remove(inputs);
}

TEST_CASE("Numeric check: a breakpoint stops at the first event above a threshold", "[workbench][numeric][breakpoints]") {
  Workbench wb(std::make_shared<const PassRegistry>(builtinRegistry()));
  scenario(wb);
  wb.setNumericCheck(NumericCheckOptions{});
  int bp = wb.addBreakpoint(BreakKind::Numeric, "1e-5 rel");
  CHECK(describeBreakpoint(wb.breakpoints().front()) == "numeric rel > 1e-5");
  MoveResult move = wb.run();
  CHECK(move.reason == StopReason::Breakpoint);
  CHECK(move.breakpoints == std::vector<int>{bp});
  CHECK(wb.event(wb.cursor()).pass == "ToMixedPrecision");
  CHECK_THROWS_AS(wb.addBreakpoint(BreakKind::Numeric, "lots"), WorkbenchError);
  CHECK_THROWS_AS(wb.addBreakpoint(BreakKind::Numeric, "0.1 0.2"), WorkbenchError);
}

TEST_CASE("Bisect: numeric, attribute and well-formedness predicates find the first pass", "[workbench][bisect]") {
  Workbench wb(registryWithBreakingPass());
  scenario(wb);
  SECTION("numeric error") {
    BisectPredicate p;
    p.threshold = 1e-5;
    BisectResult r = wb.bisect(p);
    CHECK(r.passesRun == 5);
    CHECK(r.candidates == 6);
    REQUIRE(r.firstEvent >= 0);
    CHECK(wb.event(r.firstEvent).pass == "ToMixedPrecision");
    CHECK(wb.event(r.lastGood).pass == "SimplifyInference");
    CHECK(wb.cursor() == r.firstEvent);
    CHECK(r.probes.size() <= 4);
    CHECK(describeBisectPredicate(p) == "numeric rel error > 1e-05");
  }
  SECTION("attribute conditions") {
    wb.load(std::string(PASSLAB_SOURCE_DIR) + "/examples/cnn_block.relay");
    wb.setPipeline("InferType,SimplifyExpr,Inline,DeadCodeElimination");
    BisectPredicate p;
    p.kind = BisectPredicate::Kind::Attr;
    p.attr = "Inline";
    p.test = BisectPredicate::AttrTest::Absent;
    BisectResult r = wb.bisect(p);
    REQUIRE(r.firstEvent >= 0);
    CHECK(wb.event(r.firstEvent).pass == "Inline");
    CHECK(describeBisectPredicate(p) == "attr Inline absent from every function");
    // Already true for the loaded module: reported as such.
    p.test = BisectPredicate::AttrTest::Equals;
    p.attr = "Compiler";
    p.value = "\"ccompiler\"";
    p.function = "ext_block";
    r = wb.bisect(p);
    CHECK(r.firstEvent == 0);
    CHECK(r.lastGood == -1);
    // Never true: no pass adds a Primitive global.
    p.test = BisectPredicate::AttrTest::Present;
    p.attr = "Primitive";
    p.function.clear();
    CHECK(wb.bisect(p).firstEvent == -1);
  }
  SECTION("well-formedness") {
    wb.setPipeline("InferType,SimplifyInference,TestBreakTypes,FoldConstant");
    BisectPredicate p;
    p.kind = BisectPredicate::Kind::WellFormed;
    BisectResult r = wb.bisect(p);
    REQUIRE(r.firstEvent >= 0);
    CHECK(wb.event(r.firstEvent).pass == "TestBreakTypes");
    CHECK_THAT(r.probes.back().detail + r.probes.front().detail, Catch::Contains("add"));
  }
}

TEST_CASE("Bisect: Ctrl-C stops it between passes and between probes, keeping what was recorded", "[workbench][bisect][interrupt]") {
  Workbench wb(registryWithBreakingPass());
  scenario(wb);
  BisectPredicate p;
  p.threshold = 1e-5;
  SECTION("while recording the pipeline") {
    // The interrupt arrives while the second pass runs (as the REPL's SIGINT handler calls requestCancel).
    int started = 0;
    wb.setProgressListener([&](const PassProgress& progress) {
      if (!progress.finished && ++started == 2) wb.requestCancel();
    });
    CHECK_THROWS_WITH(wb.bisect(p), Catch::Contains("bisect interrupted (Ctrl-C) while recording the pipeline after 2 passes"));
    wb.setProgressListener(nullptr);
    // The two passes that ran stay recorded, the cursor did not move, and the request was consumed.
    CHECK(wb.trace().topLevel().size() == 3);
    CHECK(wb.cursor() == 0);
    CHECK_FALSE(wb.cancelRequested());
    // The next bisect runs the rest and finds the pass.
    BisectResult r = wb.bisect(p);
    CHECK(r.passesRun == 3);
    REQUIRE(r.firstEvent >= 0);
    CHECK(wb.event(r.firstEvent).pass == "ToMixedPrecision");
  }
  SECTION("while probing") {
    // Each probe is announced on the progress listener; the interrupt comes during the second.
    std::vector<std::string> announced;
    wb.setProgressListener([&](const PassProgress& progress) {
      if (progress.pass.rfind("bisect probe", 0) != 0) return;
      announced.push_back(progress.pass);
      if (announced.size() == 2) wb.requestCancel();
    });
    CHECK_THROWS_WITH(wb.bisect(p), Catch::Contains("while probing after 5 passes and 1 probe"));
    wb.setProgressListener(nullptr);
    REQUIRE(announced.size() == 2);
    CHECK_THAT(announced[0], Catch::StartsWith("bisect probe of #") && Catch::EndsWith(" FuseOps"));  // the last pass first
    CHECK(wb.cursor() == 0);
    CHECK_FALSE(wb.cancelRequested());
    BisectResult r = wb.bisect(p);
    CHECK(r.passesRun == 0);
    REQUIRE(r.firstEvent >= 0);
    CHECK(wb.event(r.firstEvent).pass == "ToMixedPrecision");
  }
}

TEST_CASE("Provenance: the teaching switch makes the nested FuseOps read link-params from the module, and the workbench flags it",
          "[workbench][provenance]") {
  Workbench wb(std::make_shared<const PassRegistry>(builtinRegistry()));
  scenario(wb);
  wb.setTarget("hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b");
  wb.setModuleAttr("executor", "link-params", AttrValue::integer(1));
  wb.run();
  CHECK(wb.provenanceConflicts().empty());
  CHECK(wb.provenance("link_params").conflicts.empty());

  wb.gotoEvent(3);
  wb.setConfig(kFoldConstantLeakKey, AttrValue::boolean(true));
  int bp = wb.addBreakpoint(BreakKind::Diagnostic, kProvenanceLeakRule);
  MoveResult move = wb.run();
  REQUIRE(move.reason == StopReason::Breakpoint);
  CHECK(move.breakpoints == std::vector<int>{bp});
  const TraceEvent& fuse = wb.event(wb.cursor());
  CHECK(fuse.pass == "FuseOps");
  CHECK(fuse.contextName == kFoldConstantEvalContext);

  std::vector<ProvenanceConflict> conflicts = wb.provenanceConflicts();
  REQUIRE(conflicts.size() == 1);
  CHECK(conflicts[0].event == wb.cursor());
  CHECK(conflicts[0].key == "executor.link-params");
  CHECK(conflicts[0].contextTarget == "llvm");
  CHECK(wb.provenanceConflicts(wb.cursor()).size() == 1);
  Provenance why = wb.provenance("relay.FuseOps.link_params");
  CHECK(why.conflicts.size() == 1);
  CHECK(wb.provenance("max_depth").conflicts.empty());
}

TEST_CASE("Numeric check: turning it on re-checks every recorded event on the progress listener; Ctrl-C stops between events", "[workbench][numeric][interrupt]") {
  Workbench wb(std::make_shared<const PassRegistry>(builtinRegistry()));
  scenario(wb);
  wb.run();  // recorded without the check
  std::vector<int> events{0};
  for (int id : wb.trace().topLevel())
    if (id > 0 && wb.event(id).status != EventStatus::Skipped) events.push_back(id);
  REQUIRE(events.size() >= 4);
  // The interrupt arrives as the third event is announced (as the REPL's SIGINT handler calls requestCancel).
  std::vector<PassProgress> announced;
  wb.setProgressListener([&](const PassProgress& progress) {
    announced.push_back(progress);
    if (announced.size() == 3) wb.requestCancel();
  });
  CHECK_THROWS_WITH(wb.setNumericCheck(NumericCheckOptions{}),
                    Catch::Contains("numeric check interrupted (Ctrl-C) at #" + std::to_string(events[2]) + " ") &&
                        Catch::Contains("2 of " + std::to_string(events.size()) + " recorded events checked"));
  REQUIRE(announced.size() == 3);
  CHECK(announced[0].pass == "numeric check of #0 load");
  CHECK(announced[2].index == 2);
  CHECK(announced[2].total == events.size());
  // The check is on, the request was consumed, the two events checked keep their results and the rest have none.
  CHECK(wb.numericCheck().has_value());
  CHECK_FALSE(wb.cancelRequested());
  CHECK(wb.event(events[0]).numeric.has_value());
  CHECK(wb.event(events[1]).numeric.has_value());
  for (size_t i = 2; i < events.size(); ++i) CHECK_FALSE(wb.event(events[i]).numeric.has_value());
  // Turned on again, it checks them all; a new pass is checked as it runs.
  announced.clear();
  wb.setProgressListener([&](const PassProgress& progress) { announced.push_back(progress); });
  wb.setNumericCheck(NumericCheckOptions{});
  CHECK(announced.size() == events.size());
  for (int id : events) {
    INFO("#" << id << " " << wb.event(id).pass);
    REQUIRE(wb.event(id).numeric.has_value());
    CHECK(wb.event(id).numeric->compared);
  }
}
