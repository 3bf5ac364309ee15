// Edit and continue (Workbench::edit, core/workbench/workbench_branches.cpp): edits as
// events, the branch that keeps the recorded future, goto across branches,
// diffs of the same pass on two branches, the editor loop, and what the trace
// JSON and reproducers record.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/workbench/reproducer.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/interpreter.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::readFile;
using passlab::testing::sharedBuiltinRegistry;

namespace {

const std::string kSource = PASSLAB_SOURCE_DIR;
const char* kPipeline = "InferType,SimplifyExpr,Inline,DeadCodeElimination";

std::string data(const std::string& name) { return kSource + "/tests/data/edit/" + name; }

/// cnn_block with the pipeline run to the end.
void recorded(Workbench& wb) {
  wb.load(kSource + "/examples/cnn_block.relay");
  wb.setPipeline(kPipeline);
  wb.run();
}

int topLevelEventOf(const Workbench& wb, const std::string& pass) {
  for (int id : wb.trace().topLevel())
    if (wb.event(id).pass == pass) return id;
  return -1;
}

}  // namespace

TEST_CASE("Edit: at a recorded event the future stays on a branch and the pipeline continues from the edit", "[edit]") {
  Workbench wb(sharedBuiltinRegistry());
  recorded(wb);
  const int simplify = topLevelEventOf(wb, "SimplifyExpr");
  const size_t recordedEvents = wb.trace().events().size();
  wb.gotoEvent(simplify);
  int id = wb.edit(readFile(data("scale_by_3.relay")), "@scale", "scale_by_3.relay");

  CHECK(id == simplify + 1);  // shares every event up to the edit
  CHECK(wb.cursor() == id);
  CHECK(wb.event(id).pass == "edit");
  CHECK(wb.event(id).changedFunctions == std::vector<std::string>{"scale"});
  CHECK(wb.event(id).before == wb.event(simplify).after);
  CHECK(wb.activeBranch() == 1);
  std::vector<BranchInfo> branches = wb.branches();
  REQUIRE(branches.size() == 2);
  CHECK(branches[0].events == static_cast<int>(recordedEvents));  // nothing thrown away
  CHECK(branches[1].parent == 0);
  CHECK(branches[1].forkEvent == simplify);
  CHECK(branches[1].editEvent == id);
  CHECK(wb.passesExecuted() == 2);  // Inline is next

  wb.run();
  const int dce = topLevelEventOf(wb, "DeadCodeElimination");
  REQUIRE(dce > id);
  CHECK(wb.moduleText(dce, Side::After).find("3f") != std::string::npos);
  // The same pass on the other branch: only the constant differs.
  CHECK(wb.correspondingEvent(0, dce) == static_cast<int>(recordedEvents) - 1);
  CHECK(wb.correspondingEvent(0, 1) == 1);  // shared history
  std::string diff = wb.diffBranch(0, dce, "", false);
  CHECK((diff.find("-  multiply(%x, 2f)") != std::string::npos || diff.find("2f") != std::string::npos));
  CHECK(diff.find("3f") != std::string::npos);
  CHECK(wb.diffBranch(0, dce).find("3f") != std::string::npos);  // aligned by the node matcher

  // goto reaches any event of any branch; the branch's own cursor is kept.
  MoveResult moved = wb.gotoBranch(0, 2);
  CHECK(moved.to == 2);
  CHECK(wb.activeBranch() == 0);
  CHECK(wb.trace().events().size() == recordedEvents);
  CHECK(wb.moduleText(static_cast<int>(recordedEvents) - 1, Side::After).find("2f") != std::string::npos);
  wb.gotoBranch(1);
  CHECK(wb.cursor() == dce);
  CHECK_THROWS_WITH(wb.gotoBranch(7), Catch::Contains("no branch b7"));
  CHECK_THROWS_WITH(wb.gotoBranch(0, 999), Catch::Contains("no event #999 on branch b0"));
}

TEST_CASE("Edit: a parse or type error changes nothing and cites the edited file", "[edit]") {
  Workbench wb(sharedBuiltinRegistry());
  recorded(wb);
  wb.gotoEvent(2);
  const size_t events = wb.trace().events().size();
  try {
    wb.edit(readFile(data("scale_bad_parse.relay")), "scale", "bad.relay");
    FAIL("no error");
  } catch (const DiagnosticError& e) {
    CHECK_THAT(e.renderAll(), Catch::Contains("bad.relay:3:"));
  }
  try {
    wb.edit(readFile(data("scale_bad_type.relay")), "scale", "bad.relay");
    FAIL("no error");
  } catch (const DiagnosticError& e) {
    CHECK_THAT(e.renderAll(), Catch::Contains("bad.relay:3:"));
  }
  CHECK_THROWS_WITH(wb.edit(readFile(data("scale_by_3.relay")), "nosuch", "x.relay"), Catch::Contains("no function @nosuch"));
  CHECK_THROWS_WITH(wb.edit(readFile(data("scale_by_3.relay")), "main", "x.relay"), Catch::Contains("duplicate definition of global '@scale'"));
  CHECK_THROWS_WITH(wb.edit("def @other(%y: float32) { %y }\n", "main", "x.relay"), Catch::Contains("expected exactly one definition, of @main (found 1 function, none named @main)"));
  CHECK(wb.trace().events().size() == events);
  CHECK(wb.cursor() == 2);
  CHECK(wb.branches().size() == 1);
}

TEST_CASE("Edit: at a failed pass the pass runs again on the edited module", "[edit]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kSource + "/examples/ill_typed.relay", LoadOptions{false});
  wb.setPipeline("DeadCodeElimination,InferType,SimplifyExpr");
  wb.run();
  const int failed = wb.lastFailure();
  REQUIRE(failed > 0);
  REQUIRE(wb.cursor() == failed);
  int id = wb.edit(readFile(data("ill_typed_fixed.relay")), "", "fixed.relay");
  CHECK(wb.event(id).before == wb.event(failed).before);
  CHECK(wb.activeBranch() == 1);  // the failure stays on b0
  MoveResult r = wb.run();
  CHECK(r.reason == StopReason::EndOfTrace);
  CHECK(wb.lastFailure() == -1);
  CHECK(wb.passesExecuted() == 3);
  // The reproducer of the b0 failure still works; the edit is recorded in the trace JSON.
  std::string json = wb.traceJson();
  CHECK_THAT(json, Catch::Contains("\"edits\": [") && Catch::Contains("\"source\": \"fixed.relay\"") &&
                       Catch::Contains("\"branches\": [{\"id\": 0"));
  wb.gotoBranch(0);
  CHECK(wb.lastFailure() == failed);
  CHECK(wb.reproducer(failed).edits.empty());
}

TEST_CASE("Edit: at the frontier no branch is forked; a later failure's reproducer lists the edit", "[edit]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kSource + "/examples/ill_typed.relay", LoadOptions{false});
  wb.setPipeline("DeadCodeElimination,InferType");
  wb.step();  // DeadCodeElimination, the last event recorded
  std::string broken = readFile(kSource + "/examples/ill_typed.relay");
  // A valid edit (the module is well typed after it), then a config change keeps it.
  int id = wb.edit(readFile(data("ill_typed_fixed.relay")), "", "fixed.relay");
  CHECK(wb.branches().size() == 1);
  CHECK(wb.setOptLevel(3) == 0);
  CHECK(wb.cursor() == id);
  CHECK(wb.passesExecuted() == 1);
  wb.run();
  CHECK(wb.lastFailure() == -1);
  CHECK(wb.editRecords().size() == 1);
  CHECK(wb.editRecords().front().moduleText.find("Tensor[(1, 4, 8, 8), float32]") != std::string::npos);

  Reproducer r;
  r.moduleText = "#[version = \"0.0.5\"]\ndef @main(%x: float32) { %x }\n";
  r.pipeline = "InferType";
  r.edits = {"#2 @main after #1 from fix.relay"};
  Reproducer back = parseReproducer(formatReproducer(r), "r.relay");
  CHECK(back.edits == r.edits);
}

TEST_CASE("Edit: the REPL runs $EDITOR on the text and reports the edit", "[edit][repl]") {
  Workbench wb(sharedBuiltinRegistry());
  CommandInterpreter interpreter(wb);
  REQUIRE(interpreter.runLine("load " + kSource + "/examples/cnn_block.relay").ok());
  REQUIRE(interpreter.runLine(std::string("pipeline ") + kPipeline).ok());
  REQUIRE(interpreter.runLine("run").ok());
  REQUIRE(interpreter.runLine("goto 2").ok());
  ::setenv("VISUAL", "sed -i 's/multiply(%x, 2f/multiply(%x, 5f/'", 1);
  CommandResult r = interpreter.runLine("edit @scale");
  INFO(r.output() << r.error());
  CHECK(r.ok());
  CHECK_THAT(r.output(), Catch::Contains("edit #3 after #2 SimplifyExpr: @scale changed") && Catch::Contains("now on branch b1"));
  CHECK(wb.moduleText(wb.cursor(), Side::After, "scale").find("5f") != std::string::npos);
  // An editor that leaves the text alone: nothing happens.
  ::setenv("VISUAL", "true", 1);
  CommandResult same = interpreter.runLine("edit @scale");
  CHECK(same.ok());
  CHECK_THAT(same.output(), Catch::Contains("no change"));
  // An editor that breaks it: an error, nothing changed, the text kept.
  ::setenv("VISUAL", "sed -i 's/multiply(/multiply(((/'", 1);
  const size_t events = wb.trace().events().size();
  CommandResult bad = interpreter.runLine("edit @scale");
  CHECK_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Contains("nothing changed, the edited text is kept in"));
  CHECK(wb.trace().events().size() == events);
  ::unsetenv("VISUAL");
  ::unsetenv("EDITOR");
  CHECK_THAT(interpreter.runLine("edit").error(), Catch::Contains("edit --from FILE"));
  CHECK_THAT(interpreter.runLine("branches").output(), Catch::Contains("* b1  edit @scale after #2 SimplifyExpr (forked from b0 at #2)"));
}
