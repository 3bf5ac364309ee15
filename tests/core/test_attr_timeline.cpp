// Attribute timeline: the functions × events table of attribute values over
// the seed-003 pipeline (partition, inline, outline, mark extern), key and
// function filters, and breakpoints on attribute changes.
#include <catch2/catch.hpp>

#include <memory>

#include "core/workbench/workbench.h"
#include "passes/registry.h"

using namespace passlab;

namespace {

const char* kSeed003 =
    "InferType,AnnotateTarget,MergeCompilerRegions,PartitionGraph,Inline,OutlineCompilerFunctions,"
    "MarkCompilerFunctionsAsExtern";
const std::string kPartition0 = "tvmgen_default_ccompiler_main_0";

std::unique_ptr<Workbench> seed003Bench() {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  auto wb = std::make_unique<Workbench>(registry);
  wb->load(std::string(PASSLAB_SOURCE_DIR) + "/examples/seed003/two_blocks.relay");
  wb->setPipeline(kSeed003);
  return wb;
}

const AttrTimeline::Row* rowOf(const AttrTimeline& t, const std::string& function, const std::string& key) {
  for (const AttrTimeline::Row& row : t.rows)
    if (row.function == function && row.key == key) return &row;
  return nullptr;
}

/// Pass names of the columns where `row` changed.
std::vector<std::string> changedAt(const Workbench& wb, const AttrTimeline& t, const AttrTimeline::Row& row) {
  std::vector<std::string> out;
  for (size_t c = 0; c < t.events.size(); ++c)
    if (row.cells[c].changed) out.push_back(wb.event(t.events[c]).pass);
  return out;
}

}  // namespace

TEST_CASE("AttrTimeline: a partition's attributes give way to Extern=1 over the seed-003 pipeline", "[attr-timeline]") {
  auto wb = seed003Bench();
  wb->run();
  AttrTimelineQuery query;
  query.function = "@" + kPartition0;
  AttrTimeline t = wb->attrTimeline(query);
  REQUIRE(t.events.size() == 8);  // load + 7 top-level passes

  auto [key, changes, last] = GENERATE(table<std::string, std::vector<std::string>, std::string>({
      {"Compiler", {"PartitionGraph", "Inline", "OutlineCompilerFunctions", "MarkCompilerFunctionsAsExtern"}, ""},
      {"Primitive", {"PartitionGraph", "Inline", "OutlineCompilerFunctions", "MarkCompilerFunctionsAsExtern"}, ""},
      {"Inline", {"PartitionGraph", "Inline", "OutlineCompilerFunctions", "MarkCompilerFunctionsAsExtern"}, ""},
      {"global_symbol", {"PartitionGraph", "Inline", "OutlineCompilerFunctions", "MarkCompilerFunctionsAsExtern"}, ""},
      {"Extern", {"MarkCompilerFunctionsAsExtern"}, "1"},
  }));
  INFO(key);
  const AttrTimeline::Row* row = rowOf(t, kPartition0, key);
  REQUIRE(row);
  CHECK(changedAt(*wb, t, *row) == changes);
  CHECK(row->cells.back().value == last);
  CHECK(row->cells.back().present == !last.empty());
  CHECK_FALSE(row->cells.front().changed);
}

TEST_CASE("AttrTimeline: the outlined duplicate disappears for good", "[attr-timeline]") {
  auto wb = seed003Bench();
  wb->run();
  AttrTimeline t = wb->attrTimeline();
  const AttrTimeline::Row* row = rowOf(t, "tvmgen_default_ccompiler_main_1", "global_symbol");
  REQUIRE(row);
  std::vector<bool> present;
  for (const AttrTimeline::Cell& cell : row->cells) present.push_back(cell.present);
  CHECK(present == std::vector<bool>{false, false, false, false, true, false, false, false});
  CHECK(row->cells[4].value == "\"tvmgen_default_ccompiler_main_1\"");
}

TEST_CASE("AttrTimeline: key lists, single keys and changed-only rows filter the table", "[attr-timeline]") {
  auto wb = seed003Bench();
  wb->run();
  AttrTimelineQuery both;
  both.keys = {"Compiler", "Extern"};
  AttrTimeline t = wb->attrTimeline(both);
  // Compiler on both partitions, Extern on the first only.
  CHECK(t.rows.size() == 3);
  for (const AttrTimeline::Row& row : t.rows) CHECK((row.key == "Compiler" || row.key == "Extern"));

  AttrTimelineQuery union_;
  union_.key = "phase";
  union_.keys = {"Extern"};
  CHECK(wb->attrTimeline(union_).rows.size() == 2);

  AttrTimelineQuery changedOnly;
  changedOnly.changedOnly = true;
  for (const AttrTimeline::Row& row : wb->attrTimeline(changedOnly).rows) CHECK(row.function != "<module>");

  AttrTimelineQuery nothing;
  nothing.keys = {"NoSuchAttribute"};
  CHECK(wb->attrTimeline(nothing).rows.empty());
}

TEST_CASE("AttrTimeline: attribute breakpoints stop where the key changes on any function", "[attr-timeline]") {
  auto [key, stops] = GENERATE(table<std::string, std::vector<std::string>>({
      {"Extern", {"MarkCompilerFunctionsAsExtern"}},
      {"Compiler", {"PartitionGraph", "Inline", "OutlineCompilerFunctions", "MarkCompilerFunctionsAsExtern"}},
      {"Composite", {}},
  }));
  INFO(key);
  auto wb = seed003Bench();
  int id = wb->addBreakpoint(BreakKind::Attr, key);
  std::vector<std::string> hits;
  // After a hit on the last pass, run() reports the end of the pipeline as an error.
  for (int guard = 0; guard < 10; ++guard) {
    MoveResult r;
    try {
      r = wb->run();
    } catch (const WorkbenchError&) {
      break;
    }
    if (r.reason != StopReason::Breakpoint) break;
    CHECK(r.breakpoints == std::vector<int>{id});
    hits.push_back(wb->event(wb->cursor()).pass);
  }
  CHECK(hits == stops);
}
