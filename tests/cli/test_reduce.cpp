// Reducer (core/workbench/reduce.h): the predicate language it shares with
// bisect, reductions of a planted failure and of the seed-000 leak, the
// reproducer it writes, interruption, and batch --reduce.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/synthetic_model.h"
#include "core/text/parser.h"
#include "core/workbench/reduce.h"
#include "core/workbench/reproducer.h"
#include "passes/registry.h"
#include "repl/batch.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::sharedBuiltinRegistry;

namespace {

const char* kLowering = "InferType,FuseOps,LambdaLifting,LegalizeOps";
const char* kSeedPipeline = "InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps";

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

BisectPredicate predicate(const std::string& text) { return parseBisectPredicate(words(text)); }

/// The planted-failure model, loaded, with the lowering pipeline.
void loadPlanted(Workbench& wb, size_t ops, size_t at) {
  wb.loadText(bench::syntheticModelTextWithFailure(ops, at), "planted.relay");
  wb.setPipeline(kLowering);
}

/// The seed-000 leak scenario at #0.
void loadLeak(Workbench& wb) {
  wb.load(std::string(PASSLAB_SOURCE_DIR) + "/examples/seed000/cnn_fp32.relay");
  wb.setPipeline(kSeedPipeline);
  wb.setTarget("hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b");
  wb.setModuleAttr("executor", "kind", AttrValue::string("graph"));
  wb.setModuleAttr("executor", "link-params", AttrValue::integer(1));
  wb.setConfig("relay.FoldConstant.inherit_executor_leak", AttrValue::boolean(true));
}

/// Replays a reducer's reproducer in a fresh workbench: does its predicate hold?
BisectProbe replay(const Reproducer& repro) {
  Workbench wb(sharedBuiltinRegistry());
  wb.loadReproducer(parseReproducer(formatReproducer(repro), "<repro>"));
  wb.run();
  return evaluatePredicateAtEnd(wb, predicate(repro.predicate));
}

}  // namespace

TEST_CASE("Predicate: each form parses and prints back to itself", "[reduce][predicate]") {
  auto [text, printed] = GENERATE(table<std::string, std::string>({
      {"numeric 0.001", "numeric 0.001 rel"},
      {"numeric > 1e-3 abs", "numeric 0.001 abs"},
      {"wellformed", "wellformed"},
      {"attr @f Extern", "attr @f Extern"},
      {"attr Compiler absent", "attr Compiler absent"},
      {"attr Compiler ccompiler @g", "attr @g Compiler ccompiler"},
      {"fails", "fails"},
      {"fails FuseOps", "fails FuseOps"},
      {"fails legalize.unsupported-op LegalizeOps", "fails LegalizeOps legalize.unsupported-op"},
      {"diag provenance.module-attr-leak", "diag provenance.module-attr-leak"},
  }));
  INFO(text);
  BisectPredicate p = predicate(text);
  CHECK(bisectPredicateText(p) == printed);
  CHECK(bisectPredicateText(predicate(printed)) == printed);
}

TEST_CASE("Predicate: bad forms name what was expected", "[reduce][predicate]") {
  auto [text, message] = GENERATE(table<std::string, std::string>({
      {"", "expected a predicate"},
      {"sometimes", "unknown predicate 'sometimes'"},
      {"numeric", "needs a threshold"},
      {"numeric -1", "non-negative"},
      {"numeric 1 sideways", "abs or rel"},
      {"attr", "needs an attribute key"},
      {"fails A B", "one pass and one rule"},
      {"wellformed now", "unexpected 'now'"},
  }));
  INFO(text);
  try {
    predicate(text);
    FAIL("no error");
  } catch (const WorkbenchError& e) {
    CHECK_THAT(e.what(), Catch::Contains(message));
  }
}

TEST_CASE("Bisect: fails and diag predicates find the pass that failed or reported", "[reduce][bisect]") {
  Workbench wb(sharedBuiltinRegistry());
  loadPlanted(wb, 120, 80);
  BisectResult found = wb.bisect(predicate("fails LegalizeOps"));
  REQUIRE(found.firstEvent > 0);
  CHECK(wb.event(found.firstEvent).pass == "LegalizeOps");
  bool explained = false;
  for (const BisectProbe& p : found.probes) explained = explained || (p.holds && p.detail.find("legalize.unsupported-op") != std::string::npos);
  CHECK(explained);
  BisectResult none = wb.bisect(predicate("fails FuseOps"));
  CHECK(none.firstEvent == -1);

  Workbench leak(sharedBuiltinRegistry());
  loadLeak(leak);
  BisectResult diag = leak.bisect(predicate("diag provenance.module-attr-leak"));
  REQUIRE(diag.firstEvent > 0);
  CHECK(leak.event(diag.firstEvent).pass == "FoldConstant");
}

TEST_CASE("Reduce: a planted LegalizeOps failure deep in a large model shrinks to at most 5 ops", "[reduce]") {
  Workbench wb(sharedBuiltinRegistry());
  loadPlanted(wb, 400, 300);
  wb.run();
  REQUIRE(wb.lastFailure() >= 0);
  const int cursor = wb.cursor();
  const size_t events = wb.trace().events().size();
  int reports = 0;
  ReduceResult r = reduceAtCursor(wb, predicate("fails"), {}, [&](const ReduceProgress&) { ++reports; });
  // The user's session is untouched.
  CHECK(wb.cursor() == cursor);
  CHECK(wb.trace().events().size() == events);

  CHECK(r.opsBefore >= 400);
  CHECK(r.opsAfter <= 5);
  CHECK(r.opsAfter >= 1);
  CHECK(r.predicate.rule == "legalize.unsupported-op");  // pinned to the original failure
  CHECK(r.text.find("nn.layer_norm") != std::string::npos);
  CHECK_FALSE(r.interrupted);
  CHECK(reports > 0);
  CHECK(r.runs < 400);  // delta debugging, not one run per op
  // The reduced text parses and type-checks on its own, and its reproducer re-fails the same way.
  CHECK(countModuleOps(parseModule(r.text, "reduced")) == r.opsAfter);
  CHECK(r.reproducer.pipeline == "LegalizeOps");  // reduced at the failure: only the failing pass reruns
  BisectProbe again = replay(r.reproducer);
  CHECK(again.holds);
  CHECK(again.detail.find("LegalizeOps") != std::string::npos);
}

TEST_CASE("Reduce: from #0 the whole pipeline reruns on every candidate", "[reduce]") {
  Workbench wb(sharedBuiltinRegistry());
  loadPlanted(wb, 60, 30);
  ReduceResult r = reduceAtCursor(wb, predicate("fails LegalizeOps"));
  CHECK(r.reproducer.pipeline == kLowering);
  CHECK(r.opsAfter <= 5);
  CHECK(replay(r.reproducer).holds);
}

TEST_CASE("Reduce: the seed-000 leak shrinks to a module that still triggers provenance.module-attr-leak", "[reduce]") {
  Workbench wb(sharedBuiltinRegistry());
  loadLeak(wb);
  ReduceResult r = reduceAtCursor(wb, predicate("diag provenance.module-attr-leak"));
  CHECK(r.opsAfter < r.opsBefore);
  CHECK(r.opsAfter >= 1);
  // The leak needs the executor attribute: the reducer could not drop it.
  CHECK(r.text.find("executor") != std::string::npos);
  CHECK(r.reproducer.settings.config.size() == 1);
  CHECK(replay(r.reproducer).holds);
  // Without the teaching switch the reduced module is clean: the leak is the switch's, not the module's.
  Reproducer clean = r.reproducer;
  clean.settings.config.clear();
  CHECK_FALSE(replay(clean).holds);
}

TEST_CASE("Reduce: a predicate that does not hold is refused with the reason", "[reduce]") {
  Workbench wb(sharedBuiltinRegistry());
  loadPlanted(wb, 30, 10);
  CHECK_THROWS_WITH(reduceAtCursor(wb, predicate("fails FuseOps")), Catch::Contains("does not hold") && Catch::Contains("no pass failed"));
  CHECK_THROWS_WITH(reduceAtCursor(wb, predicate("fails NoSuchPass")), Catch::Contains("unknown pass 'NoSuchPass'"));
  wb.setPipeline("InferType,FuseOps");
  wb.run();
  CHECK_THROWS_WITH(reduceAtCursor(wb, predicate("wellformed")), Catch::Contains("no pipeline pass is left after #2"));
}

TEST_CASE("Reduce: a cancel request stops it with the best module so far", "[reduce]") {
  Workbench wb(sharedBuiltinRegistry());
  loadPlanted(wb, 200, 150);
  ReduceJob job = reduceJobAt(wb);
  int polls = 0;
  ReduceResult r = reduceModule(sharedBuiltinRegistry(), job, predicate("fails LegalizeOps"), {}, nullptr, [&] { return ++polls > 12; });
  CHECK(r.interrupted);
  CHECK(r.stopReason == "interrupted");
  CHECK(r.opsAfter <= r.opsBefore);
  CHECK(replay(r.reproducer).holds);  // what it kept still fails

  ReduceOptions limited;
  limited.maxRuns = 3;
  ReduceResult bounded = reduceModule(sharedBuiltinRegistry(), job, predicate("fails LegalizeOps"), limited);
  CHECK(bounded.runs == 3);
  CHECK(bounded.stopReason == "run limit reached");
}

TEST_CASE("Reduce: reductions can be chosen; attributes and constants shrink where types allow", "[reduce]") {
  // An attribute predicate: keep @f's Extern while the rest goes.
  const char* text = R"(#[version = "0.0.5"]
def @f(%x: Tensor[(4, 4), float32], Extern=1, Inline=1) -> Tensor[(4, 4), float32] {
  %0 = add(%x, meta[relay.Constant][0]);
  nn.relu(%0)
}
def @main(%a: Tensor[(4, 4), float32]) -> Tensor[(4, 4), float32] {
  %1 = multiply(%a, %a);
  %2 = @f(%1);
  nn.softmax(%2, axis=1)
}
)";
  // Constants inline (the printer's form), so the module stays self-contained.
  std::string module = text;
  module.replace(module.find("meta[relay.Constant][0]"), 23, "ones(shape=[4, 4], dtype=\"float32\")");
  Workbench wb(sharedBuiltinRegistry());
  REQUIRE_NOTHROW(wb.loadText(module, "attrs.relay"));
  wb.setPipeline("InferType");
  ReduceResult r = reduceAtCursor(wb, predicate("attr @f Extern"));
  CHECK(r.text.find("Extern=1") != std::string::npos);
  CHECK(r.text.find("Inline") == std::string::npos);
  CHECK(r.opsAfter < r.opsBefore);

  ReduceOptions only;
  only.reductions = {"attrs"};
  ReduceResult attrsOnly = reduceAtCursor(wb, predicate("attr @f Extern"), only);
  CHECK(attrsOnly.opsAfter == attrsOnly.opsBefore);
  CHECK(attrsOnly.text.find("Inline") == std::string::npos);
  only.reductions = {"nonsense"};
  CHECK_THROWS_WITH(reduceAtCursor(wb, predicate("attr @f Extern"), only), Catch::Contains("unknown reduction"));
}

TEST_CASE("Reproducer: the predicate line round-trips and is validated", "[reduce][reproducer]") {
  Reproducer r;
  r.moduleText = "#[version = \"0.0.5\"]\ndef @main(%x: float32) { %x }\n";
  r.pipeline = "InferType";
  r.predicate = "diag provenance.module-attr-leak";
  std::string text = formatReproducer(r);
  CHECK(text.find("// predicate: diag provenance.module-attr-leak\n") != std::string::npos);
  CHECK(text.find("// failed:") == std::string::npos);
  Reproducer back = parseReproducer(text, "r.relay");
  CHECK(back.predicate == r.predicate);
  std::string bad = text;
  bad.replace(bad.find("diag provenance"), 4, "dig ");
  CHECK_THROWS_WITH(parseReproducer(bad, "r.relay"), Catch::Contains("r.relay:2") && Catch::Contains("unknown predicate"));
}

TEST_CASE("Batch: --reduce writes the reduced module and a reproducer", "[reduce][batch]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "passlab_test_reduce_batch";
  fs::create_directories(dir);
  {
    std::ofstream model(dir / "planted.relay");
    model << bench::syntheticModelTextWithFailure(80, 50);
  }
  BatchOptions o;
  o.input = (dir / "planted.relay").string();
  o.output = (dir / "reduced.relay").string();
  o.pipeline = kLowering;
  o.hasPipeline = true;
  o.reduce = "fails LegalizeOps";
  o.reduceRepro = (dir / "repro.relay").string();
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  CHECK(runBatchReduce(o, sharedBuiltinRegistry(), out, err) == 0);
  std::rewind(err);
  char buf[4096] = {};
  size_t n = std::fread(buf, 1, sizeof buf - 1, err);
  std::string errText(buf, n);
  CHECK_THAT(errText, Catch::Contains("passlab: reduced ") && Catch::Contains("still holds"));
  IRModule reduced = parseModuleFile(o.output);
  CHECK(countModuleOps(reduced) <= 5);
  Reproducer repro = readReproducer(o.reduceRepro);
  CHECK(repro.predicate == "fails LegalizeOps legalize.unsupported-op");
  CHECK(replay(repro).holds);

  o.reduce = "fails FuseOps";
  CHECK(runBatchReduce(o, sharedBuiltinRegistry(), out, err) == 1);
  o.reduce = "fails";
  o.hasPipeline = false;
  CHECK(runBatchReduce(o, sharedBuiltinRegistry(), out, err) == 1);
  std::fclose(out);
  std::fclose(err);
  fs::remove_all(dir);
}

TEST_CASE("Reduce: a numeric predicate keeps the op whose float16 error exceeds the bound", "[reduce][numeric]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(std::string(PASSLAB_SOURCE_DIR) + "/examples/seed000/cnn_fp32.relay");
  wb.setPipeline("InferType,SimplifyInference,ToMixedPrecision");
  CHECK_THROWS_WITH(reduceAtCursor(wb, predicate("numeric > 1e-2")), Catch::Contains("does not hold") && Catch::Contains("max rel error"));
  ReduceResult r = reduceAtCursor(wb, predicate("numeric > 1e-4"));
  CHECK(r.opsBefore > 10);
  CHECK(r.opsAfter <= 2);
  CHECK(r.detail.find("max rel error") != std::string::npos);
  CHECK(replay(r.reproducer).holds);
}
