// Workbench: cursor model over nested events, time travel, breakpoints,
// failures, configuration changes, queries, exports, reproducers, cancellation.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/workbench/reproducer.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"

using namespace passlab;

namespace {

const std::string kExamples = std::string(PASSLAB_SOURCE_DIR) + "/examples/";

/// The workbench the "Interrupt" pass pokes, as Ctrl-C would while a pass runs.
Workbench* gInterruptTarget = nullptr;

PassRegistration modulePass(std::string name, ModulePass::Body body) {
  PassRegistration r;
  r.info.name = name;
  r.info.description = "test pass " + name;
  r.create = [name, body](const AttrDict& options) {
    PassInfo info;
    info.name = name;
    return std::make_shared<ModulePass>(info, body, options);
  };
  return r;
}

/// The builtin passes plus test-only ones that the production registry must not have:
///   Nest       runs InferType then SimplifyExpr in a child context (nested events)
///   Boom       fails when config test.workbench.boom is true (its default)
///   Reader     reads config test.workbench.level
///   Interrupt  asks the workbench to cancel while it runs
std::shared_ptr<PassRegistry> testRegistry() {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  std::weak_ptr<PassRegistry> weak = registry;
  registry->add(modulePass("Nest", [weak](const IRModule& mod, PassContext& ctx) {
    auto child = ctx.makeChild("Nest.inner");
    auto reg = weak.lock();
    IRModule m = runPass(*reg->create("InferType"), mod, *child);
    return runPass(*reg->create("SimplifyExpr"), m, *child);
  }));
  PassRegistration boom = modulePass("Boom", [](const IRModule& mod, PassContext& ctx) {
    if (ctx.config("test.workbench.boom", "Boom").asBool()) {
      Diagnostic d;
      d.message = "boom requested by test.workbench.boom";
      d.rule = "test.boom";
      throw DiagnosticError(d);
    }
    return mod;
  });
  boom.configKeys = {{"test.workbench.boom", AttrValue::Kind::Bool, AttrValue::boolean(true), "make Boom fail"}};
  registry->add(boom);
  PassRegistration reader = modulePass("Reader", [](const IRModule& mod, PassContext& ctx) {
    ctx.config("test.workbench.level", "Reader");
    return mod;
  });
  reader.configKeys = {{"test.workbench.level", AttrValue::Kind::Int, AttrValue::integer(7), "a level"}};
  registry->add(reader);
  registry->add(modulePass("Interrupt", [](const IRModule& mod, PassContext&) {
    if (gInterruptTarget) gInterruptTarget->requestCancel();
    return mod;
  }));
  return registry;
}

std::unique_ptr<Workbench> loadedBench(const std::string& pipeline, const std::string& file = "cnn_block.relay",
                                       LoadOptions options = {}) {
  auto wb = std::make_unique<Workbench>(testRegistry());
  wb->load(kExamples + file, options);
  if (!pipeline.empty()) wb->setPipeline(pipeline);
  return wb;
}

}  // namespace

TEST_CASE("step runs passes and back/forward travel through the recording without re-running", "[workbench]") {
  auto wb = loadedBench("InferType,SimplifyExpr,DeadCodeElimination,Inline");
  REQUIRE(wb->cursor() == 0);
  REQUIRE(wb->trace().events().size() == 1);

  MoveResult first = wb->step();
  CHECK(first.from == 0);
  CHECK(first.to == 1);
  CHECK(first.executed == std::vector<int>{1});
  CHECK(wb->event(1).pass == "InferType");

  MoveResult two = wb->step(2);
  CHECK(two.visited == std::vector<int>{2, 3});
  CHECK(wb->cursor() == 3);
  CHECK(wb->event(2).status == EventStatus::Changed);
  CHECK(wb->passesExecuted() == 3);

  // Back: nothing re-runs, the snapshots are the recorded ones.
  const IRModule afterSimplify = wb->event(2).after;
  MoveResult back = wb->back();
  CHECK(back.to == 2);
  CHECK(back.executed.empty());
  CHECK(wb->trace().events().size() == 4);
  CHECK(wb->moduleAt(2, Side::After) == afterSimplify);

  // Forward again replays event 3, then runs Inline (event 4).
  MoveResult replay = wb->step(2);
  CHECK(replay.visited == std::vector<int>{3, 4});
  CHECK(replay.executed == std::vector<int>{4});
  CHECK(wb->event(4).pass == "Inline");

  CHECK_THROWS_WITH(wb->step(), Catch::Contains("end of the pipeline"));
  CHECK(wb->cursor() == 4);
  wb->gotoEvent(0);
  CHECK_THROWS_WITH(wb->back(), Catch::Contains("already at the first event"));
  CHECK_THROWS_WITH(wb->gotoEvent(9), Catch::Contains("no event #9"));
}

TEST_CASE("stepin, next, finish and back follow the completion order of nested events", "[workbench]") {
  auto wb = loadedBench("InferType,Nest,DeadCodeElimination");
  wb->step();  // #1 InferType
  // Nest is event #2; its nested InferType and SimplifyExpr are #3 and #4.
  MoveResult in = wb->stepIn();
  CHECK(in.executed == std::vector<int>{2});
  CHECK(in.to == 3);
  CHECK(wb->event(3).parent == 2);
  CHECK(wb->event(3).depth == 1);
  CHECK(wb->event(3).contextName == "Nest.inner");
  CHECK(wb->timeline() == std::vector<int>{0, 1, 3, 4, 2});

  CHECK(wb->next().to == 4);  // next sibling
  CHECK(wb->next().to == 2);  // after the last nested pass: the pass that ran them
  CHECK(wb->next().to == 5);  // top level again: DeadCodeElimination runs
  CHECK(wb->timeline() == std::vector<int>{0, 1, 3, 4, 2, 5});

  wb->gotoEvent(3);
  CHECK(wb->stepOut().to == 2);
  CHECK_THROWS_WITH(wb->stepOut(), Catch::Contains("top-level event"));

  wb->gotoEvent(4);
  CHECK(wb->back().to == 3);  // same depth
  CHECK(wb->back().to == 1);  // the previous event at depth <= 1 is the top-level InferType
  wb->gotoEvent(3);
  CHECK(wb->step().to == 2);  // step from inside a pass goes to the end of that pass
  wb->gotoEvent(1);
  MoveResult all = wb->stepIn(4);
  CHECK(all.visited == std::vector<int>{3, 4, 2, 5});
}

TEST_CASE("breakpoints stop moves on passes, function changes, attribute changes and diagnostics", "[workbench]") {
  auto wb = loadedBench("InferType,SimplifyExpr,DeadCodeElimination,Inline,InferType");
  int onDce = wb->addBreakpoint(BreakKind::Pass, "DeadCodeElimination");
  MoveResult hit = wb->run();
  CHECK(hit.reason == StopReason::Breakpoint);
  CHECK(hit.to == 3);
  CHECK(hit.breakpoints == std::vector<int>{onDce});

  int onInlineAttr = wb->addBreakpoint(BreakKind::Attr, "Inline");
  MoveResult attr = wb->run();
  CHECK(attr.reason == StopReason::Breakpoint);
  CHECK(attr.to == 4);  // Inline removed @scale and with it its Inline attribute
  CHECK(attr.breakpoints == std::vector<int>{onInlineAttr});

  MoveResult end = wb->run();
  CHECK(end.reason == StopReason::EndOfTrace);
  CHECK(end.to == 5);

  // Replaying recorded events stops at the same places.
  wb->gotoEvent(0);
  wb->removeBreakpoint(onDce);
  wb->removeBreakpoint(onInlineAttr);
  int onMain = wb->addBreakpoint(BreakKind::Function, "@main");
  MoveResult func = wb->run();
  CHECK(func.to == 2);  // SimplifyExpr is the first pass that rewrites @main
  CHECK(func.executed.empty());
  REQUIRE(wb->breakpoints().size() == 1);
  CHECK(wb->breakpoints()[0].hits == 1);
  CHECK(wb->enableBreakpoint(onMain, false));
  CHECK(wb->run().reason == StopReason::EndOfTrace);

  CHECK_THROWS_WITH(wb->addBreakpoint(BreakKind::Pass, "SimplifyExp"), Catch::Contains("SimplifyExpr"));
  CHECK_FALSE(wb->removeBreakpoint(99));
}

TEST_CASE("a failing pass is an event; the pipeline halts; a config change retries it", "[workbench]") {
  auto wb = loadedBench("InferType,Boom,Inline");
  int onDiag = wb->addBreakpoint(BreakKind::Diagnostic, "test.boom");
  MoveResult run = wb->run();
  CHECK(run.to == 2);
  CHECK(run.breakpoints == std::vector<int>{onDiag});
  const TraceEvent& failed = wb->event(2);
  CHECK(failed.status == EventStatus::Failed);
  CHECK(failed.after == failed.before);
  REQUIRE_FALSE(failed.diagnostics.empty());
  CHECK(failed.diagnostics[0].rule == "test.boom");
  CHECK(wb->halted());
  CHECK(wb->lastFailure() == 2);
  CHECK_THROWS_WITH(wb->step(), Catch::Contains("stopped at the failure of Boom (#2)"));

  // Time travel still works around the failure.
  CHECK(wb->back().to == 1);
  CHECK(wb->step().to == 2);

  // Changing the configuration discards the failed event and the next step retries it.
  int discarded = wb->setConfig("test.workbench.boom", AttrValue::boolean(false));
  CHECK(discarded == 1);
  CHECK(wb->cursor() == 1);
  CHECK_FALSE(wb->halted());
  MoveResult retry = wb->run();
  CHECK(retry.reason == StopReason::EndOfTrace);
  CHECK(wb->event(2).pass == "Boom");
  CHECK(wb->event(2).status == EventStatus::Unchanged);
  CHECK(wb->event(3).pass == "Inline");
}

TEST_CASE("config provenance lists every read with value, source and context", "[workbench]") {
  auto wb = loadedBench("Reader,Reader");
  wb->step();
  wb->setConfigText("test.workbench.level", "3");
  wb->step();
  Provenance p = wb->provenance("test.workbench.level");
  CHECK(p.registered);
  CHECK(p.registeredDefault == "7");
  CHECK(p.explicitValue == "3");
  REQUIRE(p.entries.size() == 2);
  CHECK(p.entries[0].read.value == AttrValue::integer(7));
  CHECK(p.entries[0].read.source == ConfigSource::Default);
  CHECK(p.entries[1].read.value == AttrValue::integer(3));
  CHECK(p.entries[1].read.source == ConfigSource::PassContext);
  CHECK(p.entries[1].read.contextName == "root");
  // Substring matching when there is no exact key.
  CHECK(wb->provenance("workbench.LEVEL").entries.size() == 2);
  CHECK_THROWS(wb->setConfigText("test.workbench.level", "high"));
  CHECK_THROWS(wb->setConfigText("test.workbench.nope", "1"));
}

TEST_CASE("attribute timeline marks changed cells", "[workbench]") {
  auto wb = loadedBench("InferType,Inline");
  wb->run();
  AttrTimeline all = wb->attrTimeline();
  CHECK(all.events == std::vector<int>{0, 1, 2});
  const AttrTimeline::Row* inlineRow = nullptr;
  for (const auto& row : all.rows)
    if (row.function == "scale" && row.key == "Inline") inlineRow = &row;
  REQUIRE(inlineRow);
  REQUIRE(inlineRow->cells.size() == 3);
  CHECK(inlineRow->cells[0].value == "1");
  std::vector<bool> present, changedCells;
  for (const AttrTimeline::Cell& cell : inlineRow->cells) {
    present.push_back(cell.present);
    changedCells.push_back(cell.changed);
  }
  CHECK(present == std::vector<bool>{true, true, false});
  CHECK(changedCells == std::vector<bool>{false, false, true});

  AttrTimelineQuery onlyChanged;
  onlyChanged.changedOnly = true;
  AttrTimeline changed = wb->attrTimeline(onlyChanged);
  REQUIRE(changed.rows.size() == 1);
  CHECK(changed.rows[0].key == "Inline");

  AttrTimelineQuery ext;
  ext.function = "@ext_block";
  ext.key = "Compiler";
  AttrTimeline compiler = wb->attrTimeline(ext);
  REQUIRE(compiler.rows.size() == 1);
  std::vector<std::string> values;
  for (const AttrTimeline::Cell& cell : compiler.rows[0].cells) values.emplace_back(cell.value);
  CHECK(values == std::vector<std::string>{"\"ccompiler\"", "\"ccompiler\"", "\"ccompiler\""});
  // A copy of the table outlives the original: the rows' texts are shared with it.
  AttrTimeline copy;
  {
    AttrTimeline original = wb->attrTimeline(ext);
    copy = original;
  }
  REQUIRE(copy.rows.size() == 1);
  CHECK(copy.rows[0].function == "ext_block");
  CHECK(copy.rows[0].cells[2].value == "\"ccompiler\"");
}

TEST_CASE("IR text and diffs at any event, whole or one function", "[workbench]") {
  auto wb = loadedBench("InferType,SimplifyExpr");
  wb->run();
  std::string before = wb->moduleText(2, Side::Before, "@main");
  std::string after = wb->moduleText(2, Side::After, "main");
  CHECK(before.find("multiply(%1, 1f") != std::string::npos);
  CHECK(after.find("multiply(%1, 1f") == std::string::npos);
  CHECK(wb->moduleText(2, Side::After) == wb->moduleText(2, Side::After));  // cached, same text
  std::string diff = wb->diff(2, Side::Before, 2, Side::After, "@main");
  CHECK(diff.find("--- #2 SimplifyExpr (before) @main") != std::string::npos);
  CHECK(diff.find("\n-  %2 = multiply(%1, 1f") != std::string::npos);
  // The external function is skipped, so its diff is empty.
  CHECK(wb->diff(2, Side::Before, 2, Side::After, "ext_block").empty());
  // The module after #1 is the module before #2: same hunks, different labels.
  auto hunks = [](const std::string& d) { return d.substr(d.find("@@")); };
  CHECK(hunks(wb->diff(1, Side::After, 2, Side::After)) == hunks(wb->diff(2, Side::Before, 2, Side::After)));
  CHECK_THROWS_WITH(wb->moduleText(2, Side::After, "nope"), Catch::Contains("no function @nope"));
  CHECK(wb->functionNames(2) == std::vector<std::string>{"ext_block", "main", "scale"});
}

TEST_CASE("exports: trace JSON with cursor and timeline, Chrome trace events", "[workbench]") {
  auto wb = loadedBench("InferType,Nest");
  wb->run();
  wb->gotoEvent(3);
  std::string json = wb->traceJson(true);
  CHECK(json.find("\"format\": \"passlab-workbench-trace\"") != std::string::npos);
  CHECK(json.find("\"cursor\": 3") != std::string::npos);
  CHECK(json.find("\"timeline\": [0, 1, 3, 4, 2]") != std::string::npos);
  CHECK(json.find("\"ir_after\"") != std::string::npos);
  CHECK(json.find("Nest.inner") != std::string::npos);
  std::string chrome = wb->chromeTraceJson();
  CHECK(chrome.find("traceEvents") != std::string::npos);
  CHECK(chrome.find("\"Nest\"") != std::string::npos);
}

TEST_CASE("a reproducer replays the same failure, from a file and from a directory", "[workbench]") {
  LoadOptions unchecked;
  unchecked.typeCheck = false;
  auto wb = loadedBench("DeadCodeElimination,InferType", "ill_typed.relay", unchecked);
  wb->setOptLevel(3);
  MoveResult run = wb->run();
  REQUIRE(run.reason == StopReason::Failure);
  REQUIRE(wb->event(run.to).pass == "InferType");
  CHECK_THROWS_WITH(wb->reproducer(1), Catch::Contains("did not fail"));
  Reproducer repro = wb->reproducer(run.to);
  CHECK(repro.pipeline == "InferType");
  CHECK(repro.settings.optLevel == 3);
  CHECK_FALSE(repro.typeCheck);
  CHECK(repro.failureRule == "type.shape-mismatch");

  Reproducer parsed = parseReproducer(formatReproducer(repro), "repro.relay");
  CHECK(parsed.pipeline == repro.pipeline);
  CHECK(parsed.failureRule == repro.failureRule);
  CHECK(parsed.failureMessage == repro.failureMessage);
  CHECK(parsed.settings == repro.settings);

  namespace fs = std::filesystem;
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "test_workbench_repro";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const std::string& target : {(dir / "one.relay").string(), (dir / "as_dir").string() + "/"}) {
    writeReproducer(target, repro);
    Workbench replay(testRegistry());
    replay.loadReproducer(readReproducer(target));
    CHECK(replay.context().optLevel == 3);
    MoveResult again = replay.run();
    REQUIRE(again.reason == StopReason::Failure);
    CHECK(sameFailure(repro, replay.event(again.to)));
  }
  CHECK_THROWS_WITH(parseReproducer("def @main() { 0 }", "x.relay"), Catch::Contains("not a passlab reproducer"));
}

TEST_CASE("a cancel request stops a run between passes and keeps the trace", "[workbench]") {
  auto wb = loadedBench("InferType,Interrupt,SimplifyExpr,Inline");
  gInterruptTarget = wb.get();
  MoveResult stopped = wb->run();
  gInterruptTarget = nullptr;
  CHECK(stopped.reason == StopReason::Interrupted);
  CHECK(stopped.to == 2);
  CHECK(wb->trace().events().size() == 3);
  MoveResult rest = wb->run();  // a new move starts with the flag cleared
  CHECK(rest.reason == StopReason::EndOfTrace);
  CHECK(rest.visited == std::vector<int>{3, 4});
}

TEST_CASE("load errors, pipeline changes and module attribute settings", "[workbench]") {
  auto wb = loadedBench("InferType,SimplifyExpr");
  wb->run();
  // A bad file leaves the session as it was.
  CHECK_THROWS(wb->load(kExamples + "ill_typed.relay"));
  CHECK(wb->trace().events().size() == 3);
  CHECK_THROWS(wb->setPipeline("InferType,Bogus"));
  CHECK(wb->pipelineSpec() == "InferType,SimplifyExpr");
  // A new pipeline restarts at the loaded module.
  wb->setPipeline("Inline");
  CHECK(wb->cursor() == 0);
  CHECK(wb->trace().events().size() == 1);
  // A module attribute change is a new input: the trace restarts too.
  wb->step();
  wb->setModuleAttr("executor", "link-params", AttrValue::integer(1));
  CHECK(wb->trace().events().size() == 1);
  const AttrValue* executor = wb->event(0).after->attrs.find("executor");
  REQUIRE(executor);
  CHECK(executor->asDict().getInt("link-params") == 1);
  CHECK_THROWS_WITH(wb->setOptLevel(9), Catch::Contains("opt_level"));

  Workbench empty(testRegistry());
  CHECK_THROWS_WITH(empty.step(), Catch::Contains("no module loaded"));
}

TEST_CASE("progress is reported before and after each pass a move runs, not for replays", "[workbench]") {
  auto wb = loadedBench("InferType,SimplifyExpr");
  std::vector<std::string> seen;
  wb->setProgressListener([&](const PassProgress& p) {
    seen.push_back(std::to_string(p.index + 1) + "/" + std::to_string(p.total) + (p.finished ? " done " : " start ") + p.pass +
                   (p.finished ? " #" + std::to_string(p.event) : ""));
  });
  wb->run();
  CHECK(seen == std::vector<std::string>{"1/2 start InferType", "1/2 done InferType #1", "2/2 start SimplifyExpr",
                                         "2/2 done SimplifyExpr #2"});
  wb->gotoEvent(0);
  seen.clear();
  wb->run();  // replay only
  CHECK(seen.empty());
}
