// Moves shown as moves: the aligned diff pairs functions by name and marks the
// lines of ops a pass only moved (`<` / `>`), so a regrouping pass such as
// FuseOps reads as regrouping, not as hundreds of changed lines.
#include <catch2/catch.hpp>

#include <sstream>

#include "bench/synthetic_model.h"
#include "core/trace/moved_lines.h"
#include "core/trace/change_summary.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// The edits of the first top-level event of `pass` in a run of `spec`.
struct Event {
  PipelineRun run;
  const TraceEvent* event = nullptr;
  std::shared_ptr<const ModuleEdits> edits;

  Event(const IRModule& mod, const std::string& spec, const std::string& pass) {
    run.run(spec, mod);
    for (const TraceEvent& e : run.trace->events())
      if (!event && e.pass == pass && e.parent == -1) event = &e;
    REQUIRE(event);
    edits = matchModules(event->before, event->after);
  }
};

/// Lines of a unified diff starting with `mark` (file headers excluded).
size_t marked(const std::string& diff, char mark) {
  size_t n = 0;
  std::istringstream in(diff);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] == mark && line.rfind("+++", 0) != 0 && line.rfind("---", 0) != 0) ++n;
  return n;
}

const char* kChain = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);
  %1 = add(%0, 1f);
  %2 = nn.relu(%1);
  %3 = nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2]);
  sigmoid(%3)
}
)";

/// The function (by PrintedModule::functionLines) holding 1-based `line`.
std::string functionAt(const PrintedModule& p, uint32_t line) {
  std::string best;
  uint32_t start = 0;
  for (const auto& [name, first] : p.functionLines)
    if (first <= line && first >= start) best = name, start = first;
  return best;
}

}  // namespace

TEST_CASE("Moved lines: FuseOps' regrouping is all moves, none changed", "[moved_lines]") {
  Event fuse(parse(kChain), "InferType,FuseOps", "FuseOps");
  std::string diff = alignedDiff(*fuse.edits, "a", "b");
  INFO(diff);
  // Every op only moved into a Primitive function: its lines, the function
  // brackets and the calls are moves; nothing is a change.
  CHECK(marked(diff, '-') == 0);
  CHECK(marked(diff, '+') == 0);
  CHECK(marked(diff, '<') > 0);
  CHECK(marked(diff, '>') > 0);
  CHECK(diff.find(" lines moved (< from, > to), 0 changed (- +)") != std::string::npos);
  AlignedLines lines = alignedLines(*fuse.edits);
  DiffLineCounts c = countDiffLines(lines.lines);
  CHECK(c.changed() == 0);
  CHECK(c.moved() == marked(diff, '<') + marked(diff, '>'));
}

TEST_CASE("Moved lines: DefuseOps moving ops back out reads as moves too", "[moved_lines]") {
  Event defuse(parse(kChain), "InferType,FuseOps,DefuseOps", "DefuseOps");
  std::string diff = alignedDiff(*defuse.edits, "a", "b");
  INFO(diff);
  CHECK(marked(diff, '-') == 0);
  CHECK(marked(diff, '+') == 0);
  CHECK(marked(diff, '<') > 0);
}

TEST_CASE("Moved lines: a real rewrite stays a change", "[moved_lines]") {
  // FoldConstant deletes ops and updates their reader: nothing there is a move.
  Event fold(parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = add(1f, 2f);
  %1 = add(%x, %0);
  nn.relu(%1)
}
)"),
             "InferType,FoldConstant", "FoldConstant");
  std::string diff = alignedDiff(*fold.edits, "a", "b");
  INFO(diff);
  CHECK(marked(diff, '-') >= 2);
  CHECK(marked(diff, '+') >= 1);
  CHECK(marked(diff, '<') == 0);
  CHECK(marked(diff, '>') == 0);
  CHECK(diff.find("moved (<") == std::string::npos);
}

TEST_CASE("Moved lines: a plain diff renders < and > only for lines marked moved", "[moved_lines]") {
  std::vector<DiffLine> lines = diffLines("a\nb\nc\n", "a\nc\nb2\n");
  for (DiffLine& l : lines)
    if (l.text == "b") l.moved = true;
  std::string out = renderUnifiedDiff(lines, "x", "y");
  CHECK(out.find("\n<b\n") != std::string::npos);
  CHECK(out.find("\n+b2\n") != std::string::npos);
  CHECK(unifiedDiff("a\nb\n", "a\nc\n", "x", "y").find('<') == std::string::npos);
}

TEST_CASE("Moved lines: LegalizeOps pairs @main with @main, never with a new PrimFunc", "[moved_lines][aligned]") {
  // Before: the whole-module line diff paired `def @main(` with an added
  // `primfn @fused_multiply(` header once most lines differed.
  Event legalize(parse(bench::syntheticModelText(120)), "InferType,FuseOps,LambdaLifting,LegalizeOps", "LegalizeOps");
  AlignedPrinted printed = printAlignedWithRanges(*legalize.edits);
  std::vector<DiffLine> lines = diffAlignedPrints(*legalize.edits, printed.before, printed.after);
  size_t same = 0;
  for (const DiffLine& l : lines) {
    if (l.kind != DiffLine::Kind::Same) continue;
    ++same;
    INFO(l.text);
    CHECK(functionAt(printed.before, l.oldLine) == functionAt(printed.after, l.newLine));
  }
  CHECK(same > 0);
  // The header of @main is a line both sides keep.
  bool mainKept = false;
  for (const DiffLine& l : lines)
    if (l.kind == DiffLine::Kind::Same && l.text.rfind("def @main(", 0) == 0) mainKept = true;
  CHECK(mainKept);
}

TEST_CASE("Moved lines: changed-line share per regrouping pass on a generated 700-op model", "[moved_lines][scale]") {
  // Target (issue 30): FuseOps marks at most 5% of its diff's lines as changed.
  // PartitionGraph gives each lifted region the attributes of a global
  // (global_symbol, Primitive, ...): those headers are real changes, two lines
  // per new global, on top of the share.
  struct Row {
    const char* spec;
    const char* pass;
    double maxChangedShare;
    bool headersChange;
  };
  auto row = GENERATE(Row{"InferType,FuseOps", "FuseOps", 0.05, false},
                      Row{"InferType,FuseOps,LambdaLifting", "LambdaLifting", 0.05, false},
                      Row{"InferType,FuseOps,DefuseOps", "DefuseOps", 0.05, false},
                      Row{"InferType,AnnotateTarget{compilers=[ccompiler]},MergeCompilerRegions,PartitionGraph",
                          "PartitionGraph", 0.05, true});
  static const IRModule model = parse(bench::syntheticModelText(700));
  Event ev(model, row.spec, row.pass);
  AlignedLines lines = alignedLines(*ev.edits);
  DiffLineCounts c = countDiffLines(lines.lines);
  INFO(row.pass << ": " << c.moved() << " moved, " << c.changed() << " changed");
  REQUIRE(c.moved() + c.changed() > 0);
  CHECK(c.moved() > 100);
  double allowed = row.maxChangedShare * static_cast<double>(c.moved() + c.changed()) +
                   (row.headersChange ? 2.0 * ev.edits->globalsAdded : 0.0);
  INFO(ev.edits->globalsAdded << " globals added");
  CHECK(static_cast<double>(c.changed()) <= allowed);
}
