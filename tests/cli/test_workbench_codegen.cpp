// Workbench code generation: builds recorded as trace events after the
// cursor's event, stepping into their stages, and the pipeline bookkeeping and
// bisect that must not see them. A recording test backend drives the workbench
// logic; the last cases use the real LLVM backend the faces register.
#include <cstdio>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "core/workbench/remarks.h"
#include "core/interp/interpreter.h"
#include "core/trace/numeric_check.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/codegen_backend.h"
#include "repl/interpreter.h"

using namespace passlab;

namespace {

const std::string kExamples = std::string(PASSLAB_SOURCE_DIR) + "/examples/";
const char* kPipeline = "InferType,SimplifyInference,FoldConstant,FuseOps";

/// Compiles nothing: each stage lists the module's functions, so a test can
/// tell which module was built. Throws when `fail` is set.
class RecordingBackend : public CodegenBackend {
 public:
  int calls = 0;
  bool fail = false;
  CodegenOutcome build(const IRModule& mod, const CodegenRequest& request) override {
    ++calls;
    if (fail) throw std::runtime_error("no such target '" + request.target + "'");
    CodegenOutcome out;
    out.target = request.target;
    out.summary = "built " + std::to_string(mod->functions.size()) + " functions\n";
    for (const char* name : {"llvm", "asm"}) {
      CodegenStage stage;
      stage.name = name;
      std::string all;
      for (const auto& [fn, body] : mod->functions) all += fn + "\n";
      stage.artifacts.push_back({"", all});
      for (const auto& [fn, body] : mod->functions) stage.artifacts.push_back({fn, std::string(name) + " of " + fn});
      out.stages.push_back(std::move(stage));
    }
    return out;
  }
};

struct Fixture {
  std::shared_ptr<PassRegistry> registry = std::make_shared<PassRegistry>();
  std::unique_ptr<Workbench> wb;
  std::shared_ptr<RecordingBackend> backend = std::make_shared<RecordingBackend>();
  Fixture() {
    registerBuiltinPasses(*registry);
    wb = std::make_unique<Workbench>(registry);
    wb->load(kExamples + "cnn_block.relay");
    wb->setPipeline(kPipeline);
    wb->setCodegenBackend(backend);
  }
  int positionOf(int id) const {
    const auto& t = wb->timeline();
    return static_cast<int>(std::find(t.begin(), t.end(), id) - t.begin());
  }
};

/// cnn_block.relay run through the default build pipeline: PrimFuncs ready to build.
std::unique_ptr<Workbench> loweredCnnBlock() {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  auto wb = std::make_unique<Workbench>(registry);
  wb->load(kExamples + "cnn_block.relay");
  wb->setPipeline("InferType,SimplifyInference,FoldConstant,FuseOps,LambdaLifting,LegalizeOps");
  wb->run();
  return wb;
}

}  // namespace

TEST_CASE("Workbench codegen: a build is recorded after the cursor's event with one child per stage", "[workbench][codegen]") {
  Fixture f;
  f.wb->step(2);
  const int built = f.wb->cursor();
  const int id = f.wb->build({"host", "main"});
  CHECK(f.wb->cursor() == id);
  const TraceEvent& ev = f.wb->event(id);
  CHECK(f.wb->builds().isBuild(id));
  CHECK(ev.parent == -1);
  CHECK(ev.pass == "build");
  CHECK(f.wb->builds().builtFrom(id) == built);
  CHECK(ev.after == f.wb->event(built).after);
  REQUIRE(ev.children.size() == 2);
  CHECK(f.wb->event(ev.children[0]).pass == "llvm");
  CHECK(f.wb->event(ev.children[1]).pass == "asm");
  CHECK(f.wb->event(ev.children[0]).depth == 1);
  CHECK(f.wb->builds().stage(id, "asm") == ev.children[1]);
  CHECK(f.wb->builds().stage(id, "c") == -1);
  CHECK(f.wb->builds().buildOf(ev.children[1]) == id);
  CHECK(f.wb->builds().buildOf(built) == -1);
  CHECK(f.wb->builds().builtFrom(ev.children[0]) == built);
  // Stages then the build, right after the event it compiled (post-order, like nested passes).
  CHECK(f.positionOf(ev.children[0]) == f.positionOf(built) + 1);
  CHECK(f.positionOf(ev.children[1]) == f.positionOf(built) + 2);
  CHECK(f.positionOf(id) == f.positionOf(built) + 3);
  // The stage's artifacts are per function of the module that was built.
  const std::vector<CodegenArtifact>& llvm = f.wb->builds().artifacts(ev.children[0]);
  CHECK(llvm.size() == f.wb->event(built).after->functions.size() + 1);
  CHECK(llvm[1].text == "llvm of " + llvm[1].function);
  CHECK(f.wb->builds().artifacts(id).front().text.find("built ") == 0);
  // The pipeline did not move: builds take no pipeline slot.
  CHECK(f.wb->passesExecuted() == 2);
  CHECK(f.wb->eventOfPass(1) == built);
}

TEST_CASE("Workbench codegen: the trace exports carry builds with their code", "[workbench][codegen]") {
  Fixture f;
  f.wb->step(2);
  const int built = f.wb->cursor();
  const int id = f.wb->build({"host", "main"});
  std::string json = f.wb->traceJson(false);
  // The build names the event it compiled; its stages carry their per-function code.
  CHECK_THAT(json, Catch::Contains("\"pass\":\"build\"") && Catch::Contains("\"builtFrom\":" + std::to_string(built)));
  const std::vector<CodegenArtifact>& llvm = f.wb->builds().artifacts(f.wb->event(id).children[0]);
  CHECK_THAT(json, Catch::Contains("{\"function\":\"" + llvm[1].function + "\",\"text\":\"llvm of " + llvm[1].function + "\"}"));
  // Only the build and its two stages are marked as code generation; passes are not.
  size_t marked = 0;
  for (size_t at = json.find("\"codegen\":true"); at != std::string::npos; at = json.find("\"codegen\":true", at + 1)) ++marked;
  CHECK(marked == 3);
  std::string chrome = f.wb->chromeTraceJson();
  // Chrome timing: the build is one span after the passes; its untimed stages are left out.
  CHECK_THAT(chrome, Catch::Contains("{\"name\":\"build\",\"cat\":\"codegen\""));
  CHECK_THAT(chrome, Catch::Contains("{\"name\":\"SimplifyInference\",\"cat\":\"pass\""));
  CHECK_THAT(chrome, !Catch::Contains("{\"name\":\"llvm\""));
  CHECK(f.wb->event(id).startMs >= f.wb->event(built).startMs + f.wb->event(built).wallMs);
}

TEST_CASE("Workbench codegen: stepping enters a build like a nested pipeline and back returns", "[workbench][codegen]") {
  Fixture f;
  f.wb->step(2);
  const int built = f.wb->cursor();
  const int id = f.wb->build({});
  const std::vector<int> stages = f.wb->event(id).children;
  CHECK(f.wb->back().to == built);
  // step treats the build like a top-level pass: it lands on it, not in it.
  CHECK(f.wb->step().to == id);
  f.wb->back();
  CHECK(f.wb->stepIn().to == stages[0]);
  CHECK(f.wb->stepIn().to == stages[1]);
  CHECK(f.wb->stepOut().to == id);
  // Past the build the pipeline goes on: the next pass runs and is its own event.
  MoveResult next = f.wb->step();
  REQUIRE(next.executed.size() == 1);
  const int third = next.to;
  CHECK(third > stages.back());
  CHECK(f.wb->eventOfPass(2) == third);
  CHECK(f.wb->event(third).pass == "FoldConstant");
  CHECK(f.positionOf(third) > f.positionOf(id));
  CHECK(f.wb->back().to == id);
  CHECK(f.wb->back().to == built);
  // gotoEvent reaches a stage; a build from there compiles the same module again.
  f.wb->gotoEvent(stages[1]);
  const int again = f.wb->build({});
  CHECK(f.wb->builds().builtFrom(again) == built);
  CHECK(f.wb->builds().current(f.wb->cursor()) == again);
  // Recorded after FoldConstant ran, it still sits right after what it compiled, before FoldConstant.
  CHECK(f.positionOf(again) == f.positionOf(id) + 3);
  CHECK(f.positionOf(again) < f.positionOf(third));
  f.wb->gotoEvent(third);
  CHECK(f.wb->builds().current(f.wb->cursor()) == again);  // the most recent build when the cursor is on a pass
  CHECK(f.wb->back().to == again);
  CHECK(f.wb->back().to == id);
}

TEST_CASE("Workbench codegen: a failed build records nothing and says why", "[workbench][codegen]") {
  Fixture f;
  f.wb->step();
  const size_t events = f.wb->trace().events().size();
  const int cursor = f.wb->cursor();
  f.backend->fail = true;
  CHECK_THROWS_WITH(f.wb->build({"cuda", "main"}), "build failed: no such target 'cuda'");
  CHECK(f.wb->trace().events().size() == events);
  CHECK(f.wb->cursor() == cursor);
  CHECK(f.wb->builds().current(f.wb->cursor()) == -1);
  f.wb->setCodegenBackend(nullptr);
  CHECK_THROWS_WITH(f.wb->build({}), Catch::Contains("no code generator"));
}

TEST_CASE("Workbench codegen: bisect and the attribute timeline leave builds out", "[workbench][codegen]") {
  BisectPredicate p;
  p.kind = BisectPredicate::Kind::Attr;
  p.attr = "Primitive";
  p.test = BisectPredicate::AttrTest::Present;
  // LambdaLifting makes the fused Primitive functions global.
  const char* pipeline = "InferType,SimplifyInference,FoldConstant,FuseOps,LambdaLifting";
  Fixture plain;
  plain.wb->setPipeline(pipeline);
  BisectResult expected = plain.wb->bisect(p);
  REQUIRE(expected.firstEvent > 0);
  REQUIRE(expected.lastGood > 0);

  Fixture f;
  f.wb->setPipeline(pipeline);
  f.wb->build({});  // at #0
  f.wb->step(3);
  f.wb->build({});  // in the middle of the pipeline
  f.wb->step(2);
  f.wb->build({});  // at the end
  BisectResult r = f.wb->bisect(p);
  CHECK(r.candidates == expected.candidates);
  CHECK(f.wb->event(r.firstEvent).pass == plain.wb->event(expected.firstEvent).pass);
  CHECK(f.wb->event(r.lastGood).pass == plain.wb->event(expected.lastGood).pass);
  CHECK(r.probes.size() == expected.probes.size());
  for (const BisectProbe& probe : r.probes) CHECK_FALSE(f.wb->builds().isCodegen(probe.event));
  for (int id : f.wb->attrTimeline({"", "", {}, true, false}).events) CHECK_FALSE(f.wb->builds().isCodegen(id));
  CHECK(f.wb->attrTimeline().events.size() == plain.wb->attrTimeline().events.size());
  // The numeric check measures passes; a build's module is its pass's, measured there.
  f.wb->setNumericCheck(NumericCheckOptions{});
  CHECK(f.wb->event(r.firstEvent).numeric.has_value());
  for (const TraceEvent& ev : f.wb->trace().events())
    if (f.wb->builds().isCodegen(ev.id)) CHECK_FALSE(ev.numeric.has_value());
}

TEST_CASE("Workbench codegen: a configuration change discards builds recorded after the kept event", "[workbench][codegen]") {
  Fixture f;
  f.wb->step(2);
  const int kept = f.wb->cursor();
  f.wb->build({});
  CHECK(f.wb->setOptLevel(3) == 3);  // the build and its two stages
  CHECK(f.wb->cursor() == kept);
  for (const TraceEvent& ev : f.wb->trace().events()) CHECK_FALSE(f.wb->builds().isCodegen(ev.id));
  CHECK(f.wb->step().executed.size() == 1);
}

TEST_CASE("Workbench codegen: an edit that forks a branch leaves the later builds on the old branch", "[workbench][codegen][edit]") {
  Fixture f;
  f.wb->step(2);
  const int build = f.wb->build({});
  const int stage = f.wb->event(build).children[0];
  // Back to the first pass and edit there: the recorded future, the build with it, stays on branch 0.
  f.wb->gotoEvent(f.wb->eventOfPass(0));
  f.wb->edit(f.wb->moduleText(f.wb->cursor(), Side::After), "", "edit.relay");
  REQUIRE(f.wb->activeBranch() == 1);
  CHECK(f.wb->builds().builds().empty());
  CHECK_FALSE(f.wb->builds().isCodegen(stage));
  CHECK(f.wb->builds().current(f.wb->cursor()) == -1);
  f.wb->gotoBranch(0);
  CHECK(f.wb->builds().isBuild(build));
  CHECK(f.wb->builds().buildOf(stage) == build);
  CHECK(f.wb->builds().stage(build, "asm") == f.wb->event(build).children[1]);
}

TEST_CASE("BuildLog: builds, stages and truncation by event id", "[workbench][codegen]") {
  BuildLog log;
  log.addBuild(4, 2, "summary");
  log.addStage(4, 5, "llvm", {{"", "module"}, {"f", "code of f"}});
  log.addStage(4, 6, "asm", {{"", "asm"}});
  log.addBuild(9, 2, "again");
  CHECK(log.isBuild(4));
  CHECK_FALSE(log.isBuild(5));
  CHECK(log.isCodegen(5));
  CHECK_FALSE(log.isCodegen(2));
  CHECK(log.buildOf(6) == 4);
  CHECK(log.buildOf(2) == -1);
  CHECK(log.builtFrom(6) == 2);
  CHECK(log.builtFrom(3) == 3);  // a pass event is its own
  CHECK(log.stage(4, "asm") == 6);
  CHECK(log.stage(4, "c") == -1);
  CHECK(log.stage(2, "llvm") == -1);
  CHECK(log.buildsFrom(2) == std::vector<int>{4, 9});
  CHECK(log.current(5) == 4);
  CHECK(log.current(3) == 9);  // not in a build: the latest
  CHECK(log.artifacts(5).size() == 2);
  CHECK(log.artifacts(3).empty());
  log.truncate(6);
  CHECK(log.stage(4, "asm") == -1);
  CHECK(log.latest() == 4);
  CHECK(log.builds() == std::vector<int>{4});
}

TEST_CASE("LlvmCodegenBackend: every stage carries the module's code and one entry per function", "[workbench][codegen][llvm]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  Workbench& wb = *lowered;
  LlvmCodegenBackend& backend = ensureCodegenBackend(wb);
  CHECK(&ensureCodegenBackend(wb) == &backend);  // registered once
  const int id = wb.build({"host", "main"});
  REQUIRE(backend.lastArtifacts() != nullptr);
  const codegen::Artifacts& a = *backend.lastArtifacts();
  const std::string stage = GENERATE("llvm", "llvm-opt", "asm", "c");
  const int s = wb.builds().stage(id, stage);
  REQUIRE(s >= 0);
  const std::vector<CodegenArtifact>& artifacts = wb.builds().artifacts(s);
  REQUIRE(!artifacts.empty());
  CHECK(artifacts.front().function.empty());
  CHECK(!artifacts.front().text.empty());
  std::vector<std::string> functions;
  for (size_t i = 1; i < artifacts.size(); ++i) {
    functions.push_back(artifacts[i].function);
    // Each function's code is a piece of the module's.
    CHECK(artifacts.front().text.find(artifacts[i].text) != std::string::npos);
  }
  if (stage == "c") {
    CHECK(functions == std::vector<std::string>{"ext_block"});
  } else {
    CHECK(functions == a.functions);
    if (stage != "asm") CHECK(artifacts[1].text.rfind("define ", 0) == 0);
  }
}

TEST_CASE("LlvmCodegenBackend: a build with run records the comparison with the interpreter as its last stage", "[workbench][codegen][llvm]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  Workbench& wb = *lowered;
  ensureCodegenBackend(wb);
  CodegenRequest request;
  request.run = true;
  request.seed = 3;
  const int id = wb.build(request);
  const int run = wb.builds().stage(id, "run");
  REQUIRE(run == wb.event(id).children.back());
  const std::string& text = wb.builds().artifacts(run).front().text;
  CHECK(text.find("ran @main on the host (JIT) with inputs of seed 3") == 0);
  CHECK(text.find("PASS\n") != std::string::npos);
  // A missing entry is the stage's content, not a failed build.
  request.entry = "nope";
  const int bad = wb.build(request);
  const int badRun = wb.builds().stage(bad, "run");
  REQUIRE(badRun >= 0);
  CHECK(wb.builds().artifacts(badRun).front().text == "error: the module has no graph-level function @nope to run\n");
  CHECK(wb.builds().stage(bad, "llvm") >= 0);
}

TEST_CASE("LlvmCodegenBackend: a build with profile records each kernel's time as a profile stage", "[workbench][codegen][llvm][profile]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  Workbench& wb = *lowered;
  LlvmCodegenBackend& backend = ensureCodegenBackend(wb);
  CodegenRequest request;
  request.profile = true;
  request.repeat = 3;
  const IRModule built = wb.moduleAt(wb.cursor(), Side::After);
  const int id = wb.build(request);
  const int profile = wb.builds().stage(id, "profile");
  REQUIRE(profile >= 0);
  const std::vector<CodegenArtifact>& artifacts = wb.builds().artifacts(profile);
  REQUIRE(artifacts.size() >= 2);
  const std::string& table = artifacts.front().text;
  CHECK(table.find("profiled @main on the host (JIT), inputs of seed 0\n") == 0);
  CHECK(table.find("latency over 3 runs after a warm-up: median ") != std::string::npos);
  CHECK(table.find("do NOT match") == std::string::npos);
  // One line per function the entry calls, each parsed back with its calls;
  // the convolutions count their FLOPs.
  const codegen::Artifacts& a = *backend.lastArtifacts();
  std::set<std::string> called(a.entryCalls.begin(), a.entryCalls.end());
  CHECK(artifacts.size() == called.size() + 1);
  bool convRate = false;
  for (size_t i = 1; i < artifacts.size(); ++i) {
    INFO(artifacts[i].function << ": " << artifacts[i].text);
    CHECK(called.count(artifacts[i].function) == 1);
    KernelProfile k;
    REQUIRE(parseKernelLine(artifacts[i].text, k));
    CHECK(k.calls == static_cast<int>(std::count(a.entryCalls.begin(), a.entryCalls.end(), artifacts[i].function)));
    CHECK(k.msPerRun >= 0);
    // The output column is the shape of a PrimFunc's last parameter (none for the ccompiler function).
    std::string shape;
    if (const auto* fn = as<PrimFuncNode>(built->lookup(artifacts[i].function)))
      for (int64_t d : fn->params.back().buffer->shape) shape += (shape.empty() ? "" : "x") + std::to_string(d);
    CHECK(k.output == shape);
    if (artifacts[i].function.find("conv2d") != std::string::npos) convRate = convRate || artifacts[i].text.find("GFLOP/s") != std::string::npos;
    // Each kernel names the schedule LegalizeOps chose, and its remark is found by the kernel's name.
    if (as<PrimFuncNode>(built->lookup(artifacts[i].function))) {
      CHECK_FALSE(k.schedule.empty());
      if (artifacts[i].function.find("conv2d") != std::string::npos) CHECK(k.schedule.rfind("conv-", 0) == 0);
      RemarkQuery query;
      query.pass = "LegalizeOps";
      query.function = artifacts[i].function;
      std::vector<RemarkHit> hits = findRemarks(wb, query);
      REQUIRE_FALSE(hits.empty());
      CHECK(hits.front().remark->kernel == artifacts[i].function);
      CHECK(hits.front().remark->message.rfind("@" + artifacts[i].function + ": ", 0) == 0);
    }
  }
  CHECK(convRate);
  CHECK(table.find("  schedule: what LegalizeOps chose for the kernel's main loop nest") != std::string::npos);
}

TEST_CASE("LlvmCodegenBackend: profiling is host-only and says why", "[workbench][codegen][llvm][profile]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  Workbench& wb = *lowered;
  ensureCodegenBackend(wb);
  CodegenRequest request;
  request.target = "hexagon";
  request.profile = true;
  const size_t events = wb.trace().events().size();
  CHECK_THROWS_WITH(wb.build(request), Catch::Contains("host-only") && Catch::Contains("not Hexagon hardware times"));
  CHECK(wb.trace().events().size() == events);
}

TEST_CASE("REPL: run --repeat times the entry, --profile lists kernels, profile --compare matches two builds", "[workbench][codegen][llvm][profile][repl]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  CommandInterpreter interpreter{*lowered};
  CommandResult timed = interpreter.runLine("run --host --repeat 2");
  INFO(timed.output() << timed.error());
  REQUIRE(timed.ok());
  CHECK(timed.output().find("PASS\nlatency over 2 runs after a warm-up: median ") != std::string::npos);
  CHECK(timed.output().find("kernel") == std::string::npos);
  CommandResult profiled = interpreter.runLine("run --host --repeat 2 --profile");
  REQUIRE(profiled.ok());
  CHECK(profiled.output().find("(instrumented: a timestamp around each call)") != std::string::npos);
  CHECK(profiled.output().find("ms per run") != std::string::npos);
  CHECK(profiled.output().find("total in kernels") != std::string::npos);
  // The instrumented build changes only the entry: every kernel's object is reused.
  size_t at = profiled.output().find("JIT compile: ");
  REQUIRE(at != std::string::npos);
  double ms = 0;
  int reused = 0, units = 0;
  REQUIRE(std::sscanf(profiled.output().c_str() + at, "JIT compile: %lf ms, %d of %d code units reused", &ms, &reused, &units) == 3);
  CHECK(units > 2);
  CHECK(reused >= units - 1);
  CHECK(interpreter.runLine("run --hexagon --profile").error().find("host-only") != std::string::npos);

  CommandResult none = interpreter.runLine("profile");
  CHECK(none.error() == "error: nothing built yet; run `build --profile` first\n");
  CommandResult first = interpreter.runLine("build --profile --repeat 2");
  REQUIRE(first.ok());
  CHECK(first.output().find(" profile\n") != std::string::npos);  // the stage is listed
  const int a = lowered->builds().current(lowered->cursor());
  CommandResult plain = interpreter.runLine("build");
  REQUIRE(plain.ok());
  const int b = lowered->builds().current(lowered->cursor());
  CHECK(interpreter.runLine("profile #" + std::to_string(b)).error() ==
        "error: build #" + std::to_string(b) + " has no profile (build --profile records one)\n");
  REQUIRE(interpreter.runLine("build --profile --repeat 2").ok());
  const int c = lowered->builds().current(lowered->cursor());
  CommandResult shown = interpreter.runLine("profile #" + std::to_string(a));
  CHECK(shown.output().find("profiled @main on the host") == 0);
  CommandResult compared = interpreter.runLine("profile --compare #" + std::to_string(a) + " #" + std::to_string(c));
  INFO(compared.output() << compared.error());
  REQUIRE(compared.ok());
  CHECK(compared.output().find("kernels of build #" + std::to_string(a) + " against build #" + std::to_string(c)) == 0);
  CHECK(compared.output().find("@fused_nn_conv2d") != std::string::npos);
  CHECK(compared.output().find("total in kernels") != std::string::npos);
  CHECK(interpreter.runLine("profile --compare #0 #" + std::to_string(c)).error() == "error: #0 is not a build\n");
}

namespace {

/// Output 0's max |error| between `entry` of two modules interpreted on the inputs of `seed`, relative to the largest |a|.
double relativeDifference(const IRModule& a, const IRModule& b, const std::string& entry, uint32_t seed) {
  std::vector<NDArray> inputs = randomInputs(*a->lookupFunction(entry), seed);
  std::vector<Value> args(inputs.begin(), inputs.end());
  NDArray x = evaluate(a, entry, args).tensor(), y = evaluate(b, entry, args).tensor();
  double scale = 1, err = 0;
  for (int64_t i = 0; i < x.numElements(); ++i) {
    scale = std::max(scale, std::fabs(x.getAsDouble(i)));
    err = std::max(err, std::fabs(x.getAsDouble(i) - y.getAsDouble(i)));
  }
  return err / scale;
}

/// The id of the last top-level event that ran pass `pass` (-1: none).
int lastEventOf(const Workbench& wb, const std::string& pass) {
  int found = -1;
  for (int id : wb.timeline())
    if (wb.event(id).pass == pass && wb.event(id).parent < 0) found = id;
  return found;
}

}  // namespace

TEST_CASE("REPL: run --host compares with the graph-level interpreter before lowering; it agrees with the TIR reference", "[workbench][codegen][llvm][run]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  Workbench& wb = *lowered;
  const int lifted = lastEventOf(wb, "LambdaLifting");
  REQUIRE(lifted >= 0);
  // LegalizeOps lowered @main; LambdaLifting's module is the last whose @main reaches no PrimFunc.
  CHECK(wb.graphReferenceEvent(wb.cursor(), "main") == lifted);
  CHECK(wb.graphReferenceEvent(lifted, "main") == lifted);
  CHECK(relativeDifference(wb.moduleAt(lifted, Side::After), wb.moduleAt(wb.cursor(), Side::After), "main", 4) <= 1e-4);

  CommandInterpreter interpreter{wb};
  CommandResult fast = interpreter.runLine("run --host --seed 4");
  INFO(fast.output() << fast.error());
  REQUIRE(fast.ok());
  CHECK(fast.output().find("; compared with the graph-level interpreter on #" + std::to_string(lifted) +
                           " LambdaLifting (the last graph-level snapshot before lowering):\n") != std::string::npos);
  CHECK(fast.output().find("PASS\n") != std::string::npos);
  // The same reference and inputs again: its outputs come from the cache.
  CommandResult again = interpreter.runLine("run --host --seed 4");
  REQUIRE(again.ok());
  CHECK(again.output().find(":\n  (the reference's outputs are cached from an earlier run of the same module and seed)\n") != std::string::npos);
  CommandResult otherSeed = interpreter.runLine("run --host --seed 5");
  REQUIRE(otherSeed.ok());
  CHECK(otherSeed.output().find("cached") == std::string::npos);

  CommandResult tir = interpreter.runLine("run --host --tir-reference --seed 4");
  INFO(tir.output() << tir.error());
  REQUIRE(tir.ok());
  CHECK(tir.output().find("; compared with the TIR interpreter on the same module (--tir-reference):\n") != std::string::npos);
  CHECK(tir.output().find("PASS\n") != std::string::npos);
}

TEST_CASE("REPL: a module loaded already lowered is run against the TIR interpreter, and the output says so", "[workbench][codegen][llvm][run]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb(registry);
  wb.loadModule(lowered->moduleAt(lowered->cursor(), Side::After), "lowered");
  CHECK(wb.graphReferenceEvent(wb.cursor(), "main") == -1);
  CommandInterpreter interpreter{wb};
  CommandResult r = interpreter.runLine("run --host");
  INFO(r.output() << r.error());
  REQUIRE(r.ok());
  CHECK(r.output().find("; compared with the TIR interpreter on the same module (no graph-level @main in the trace before it, "
                        "e.g. the module was loaded already lowered):\n") != std::string::npos);
  CHECK(r.output().find("PASS\n") != std::string::npos);
}

TEST_CASE("REPL: an edited kernel is caught by the graph-level reference (the TIR reference runs the same wrong code)", "[workbench][codegen][llvm][run]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  Workbench& wb = *lowered;
  // The kernel of @scale (x * 2): edited to multiply by 3.
  std::string kernel, text;
  for (const std::string& name : wb.functionNames(wb.cursor())) {
    if (name.rfind("fused_multiply", 0) != 0) continue;
    std::string t = wb.moduleText(wb.cursor(), Side::After, name);
    if (t.find("* 2f;") != std::string::npos) {
      kernel = name;
      text = t;
    }
  }
  INFO(wb.moduleText(wb.cursor(), Side::After));
  REQUIRE(!kernel.empty());
  text.replace(text.find("* 2f;"), 5, "* 3f;");
  wb.edit(text, kernel, "edit.relay");
  CommandInterpreter interpreter{wb};
  CommandResult fast = interpreter.runLine("run --host");
  INFO(fast.output() << fast.error());
  CHECK(fast.status == CommandStatus::Error);
  CHECK(fast.output().find("compared with the graph-level interpreter on #") != std::string::npos);
  CHECK(fast.output().find("MISMATCH") != std::string::npos);
  CHECK(fast.output().find("FAIL\n") != std::string::npos);
  CommandResult tir = interpreter.runLine("run --host --tir-reference");
  CHECK(tir.output().find("PASS\n") != std::string::npos);
}

TEST_CASE("runAndCompare: a cancel while the reference runs compares nothing and caches nothing", "[workbench][codegen][llvm][run]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  const IRModule mod = lowered->moduleAt(lowered->cursor(), Side::After);
  ReferenceCache cache;
  RunReference reference;
  reference.cache = &cache;
  reference.cancelled = [] { return true; };  // as if Ctrl-C came while the interpreter ran
  RunReport stopped = runAndCompare(mod, "main", false, 0, nullptr, nullptr, &reference);
  CHECK(stopped.error == "interrupted (Ctrl-C) while computing the reference; nothing was compared");
  CHECK(!stopped.ok);
  CHECK(cache.find(mod, "main", 0, true) == nullptr);
  reference.cancelled = [] { return false; };
  RunReport ran = runAndCompare(mod, "main", false, 0, nullptr, nullptr, &reference);
  INFO(ran.error);
  CHECK(ran.ok);
  CHECK(cache.find(mod, "main", 0, true) != nullptr);
}

TEST_CASE("LlvmCodegenBackend: build names each function it starts on; a cancel from the progress listener stops it and records nothing",
          "[workbench][codegen][llvm][interrupt]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  Workbench& wb = *lowered;
  LlvmCodegenBackend& backend = ensureCodegenBackend(wb);
  std::vector<codegen::BuildProgress> seen;
  std::string stopAt;
  backend.hooks.progress = [&](const codegen::BuildProgress& p) {
    seen.push_back(p);
    if (p.stage == stopAt) wb.requestCancel();  // as the REPL's SIGINT handler does
  };
  backend.hooks.cancelled = [&wb] { return wb.cancelRequested(); };
  const int cursor = wb.cursor();
  const size_t events = wb.trace().events().size();
  stopAt = GENERATE(std::string("emitting LLVM IR for"), std::string("optimizing"), std::string("generating assembly for"));
  INFO("stopped while " << stopAt);
  CHECK_THROWS_WITH(wb.build({"host", "main"}), Catch::StartsWith("build interrupted (Ctrl-C): cancelled while " + stopAt + " @") &&
                                                    Catch::EndsWith("; nothing was recorded"));
  CHECK(wb.trace().events().size() == events);
  CHECK(wb.cursor() == cursor);
  REQUIRE(!seen.empty());
  CHECK(seen.back().stage == stopAt);
  CHECK(seen.back().done == 1);
  // Without a cancel, every stage goes over every function, named as the module names them.
  wb.clearCancel();
  seen.clear();
  stopAt.clear();
  const int id = wb.build({"host", "main"});
  CHECK(wb.cursor() == id);
  const codegen::Artifacts& a = *backend.lastArtifacts();
  std::map<std::string, codegen::BuildProgress> last;
  for (const codegen::BuildProgress& p : seen) {
    CHECK(p.done >= 1);
    CHECK(p.done <= p.total);
    last[p.stage] = p;
  }
  REQUIRE(last.count("emitting LLVM IR for"));
  CHECK(last["emitting LLVM IR for"].total == static_cast<int>(a.functions.size() - a.sharedKernels.size()));
  CHECK(last["emitting LLVM IR for"].done == last["emitting LLVM IR for"].total);
  CHECK(std::find(a.functions.begin(), a.functions.end(), last["emitting LLVM IR for"].function) != a.functions.end());
  REQUIRE(last.count("optimizing"));
  CHECK(last["optimizing"].done == last["optimizing"].total);
  REQUIRE(last.count("generating assembly for"));
  CHECK(last["generating assembly for"].done == last["generating assembly for"].total);
  backend.hooks = {};
}

TEST_CASE("HostModule::compile: a cancel while the units compile throws BuildCancelled naming where", "[workbench][codegen][llvm][interrupt]") {
  std::unique_ptr<Workbench> lowered = loweredCnnBlock();
  const IRModule mod = lowered->moduleAt(lowered->cursor(), Side::After);
  codegen::BuildOptions options;
  options.keepText = false;
  options.emitAssembly = false;
  options.reuseCompiledKernels = false;
  bool stop = false;
  std::vector<std::string> stages;
  options.progress = [&](const codegen::BuildProgress& p) {
    stages.push_back(p.stage);
    if (p.stage == "compiling") stop = true;
  };
  options.cancelled = [&stop] { return stop; };
  CHECK_THROWS_AS(codegen::HostModule::compile(mod, options), codegen::BuildCancelled);
  stop = false;
  stages.clear();
  CHECK_THROWS_WITH(codegen::HostModule::compile(mod, options), Catch::StartsWith("cancelled while compiling @"));
  REQUIRE(!stages.empty());
  CHECK(stages.front() == "emitting LLVM IR for");
  CHECK(stages.back() == "compiling");
}
