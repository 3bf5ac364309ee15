// GUI view models on the shipped examples: what rows, colours and markers each
// panel shows for a given trace. No ImGui, no display.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/pass/registry.h"
#include "core/text/parser.h"
#include "gui/model/app_options.h"
#include "gui/model/frame_damage.h"
#include "gui/model/gui_session.h"
#include "gui/model/script_runner.h"
#include "gui/model/syntax.h"
#include "passes/registry.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::sharedBuiltinRegistry;
using namespace passlab::gui;

namespace {

const std::string kExamples = std::string(PASSLAB_SOURCE_DIR) + "/examples/";

/// A fresh directory for session files, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("passlab-gui-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

/// Text of a side's line, for assertions.
std::string lineOf(const PrintedText& t, uint32_t line) { return std::string(t.index.line(line)); }

/// The first event of `pass` in the trace, or -1.
int eventOf(const Workbench& wb, const std::string& pass) {
  for (const TraceEvent& ev : wb.trace().events())
    if (ev.pass == pass) return ev.id;
  return -1;
}

}  // namespace

// ---- Text index and syntax ----------------------------------------------------------------

TEST_CASE("TextIndex splits lines as the diff counts them", "[gui][text]") {
  TextIndex t("ab\ncde\n\nf\n");
  REQUIRE(t.lineCount() == 4);
  CHECK(t.line(1) == "ab");
  CHECK(t.line(2) == "cde");
  CHECK(t.line(3) == "");
  CHECK(t.line(4) == "f");
  CHECK(t.line(0) == "");
  CHECK(t.line(5) == "");
  CHECK(t.maxLineLength() == 3);
  TextIndex noFinalNewline("x\nyz");
  REQUIRE(noFinalNewline.lineCount() == 2);
  CHECK(noFinalNewline.line(2) == "yz");
  CHECK(TextIndex("").lineCount() == 0);
}

TEST_CASE("Syntax highlighting colours every part of a Relay line", "[gui][syntax]") {
  std::string line =
      "def @f(%x: Tensor[(1, 3), float16], Compiler=\"ccompiler\", Extern=1) { %0 = nn.relu(%x, a=2.5f) /* ty=x */";
  std::vector<Token> tokens;
  tokenizeLine(line, tokens);
  // Runs are contiguous and cover the line.
  REQUIRE(!tokens.empty());
  CHECK(tokens.front().begin == 0);
  CHECK(tokens.back().end == line.size());
  for (size_t i = 1; i < tokens.size(); ++i) CHECK(tokens[i].begin == tokens[i - 1].end);
  auto roleAt = [&](std::string_view needle) {
    size_t pos = line.find(needle);
    REQUIRE(pos != std::string::npos);
    for (const Token& t : tokens)
      if (pos >= t.begin && pos < t.end) return t.role;
    return ColourRole::Count;
  };
  CHECK(roleAt("def") == ColourRole::Keyword);
  CHECK(roleAt("@f") == ColourRole::GlobalName);
  CHECK(roleAt("%x") == ColourRole::LocalName);
  CHECK(roleAt("Tensor") == ColourRole::TypeName);
  CHECK(roleAt("float16") == ColourRole::TypeName);
  CHECK(roleAt("Compiler") == ColourRole::WatchedAttr);
  CHECK(roleAt("Extern") == ColourRole::WatchedAttr);
  CHECK(roleAt("\"ccompiler\"") == ColourRole::String);
  CHECK(roleAt("nn.relu") == ColourRole::OpName);
  CHECK(roleAt("a=") == ColourRole::AttrKey);
  CHECK(roleAt("2.5f") == ColourRole::Number);
  CHECK(roleAt("/* ty") == ColourRole::Comment);
}

TEST_CASE("Watched attributes are found in any spelling", "[gui][syntax]") {
  CHECK(canonicalWatchedAttribute("link-params") == "link_params");
  CHECK(canonicalWatchedAttribute("link_params") == "link_params");
  CHECK(canonicalWatchedAttribute("Composite").empty());
  auto found = watchedAttributesIn("executor={\"kind\": \"graph\", \"link-params\": 1}, phase=1, Inline=1, Inline=1");
  std::vector<std::string> names(found.begin(), found.end());
  CHECK(names == std::vector<std::string>{"link_params", "phase", "Inline"});
  CHECK(watchedAttributesIn("%0 = add(%x, %y)").empty());
  // Module attributes are printed in `#[...]`; the key inside is still seen.
  CHECK(watchedAttributesIn("#[phase = 1]") == std::vector<std::string_view>{"phase"});
  std::vector<Token> tokens;
  tokenizeLine("#[phase = 1]", tokens);
  REQUIRE(tokens.size() >= 2);
  CHECK(tokens[0].role == ColourRole::Comment);
  CHECK(tokens[1].role == ColourRole::WatchedAttr);
}

TEST_CASE("Intraline change isolates the edited part", "[gui][diff]") {
  IntralineChange c = intralineChange("  %3 = add(%2, 0f);", "  %3 = add(%2, %b);");
  CHECK(c.oldBegin == 15);
  CHECK(c.oldEnd == 17);
  CHECK(c.newBegin == 15);
  CHECK(c.newEnd == 17);
  IntralineChange same = intralineChange("abc", "abc");
  CHECK(same.oldBegin == same.oldEnd);
}

// ---- IR diff --------------------------------------------------------------------------------

TEST_CASE("IR diff of SimplifyExpr on cnn_block is aligned and complete", "[gui][diff]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kExamples + "cnn_block.relay");
  wb.setPipeline("InferType,SimplifyExpr");
  wb.run();
  int simplify = eventOf(wb, "SimplifyExpr");
  REQUIRE(simplify > 0);
  REQUIRE(wb.event(simplify).status == EventStatus::Changed);
  PrintCache cache;
  IrDiffModel diff = IrDiffModel::build(wb.event(simplify).before, wb.event(simplify).after, cache);
  REQUIRE(diff.valid());
  CHECK_FALSE(diff.identical());
  CHECK(diff.removedCount() + diff.changedCount() > 0);
  // Every line of each side appears exactly once, in order; Same rows agree.
  uint32_t oldNext = 1, newNext = 1;
  for (const DiffRow& row : diff.rows()) {
    if (row.oldLine) CHECK(row.oldLine == oldNext++);
    if (row.newLine) CHECK(row.newLine == newNext++);
    switch (row.kind) {
      case RowKind::Same: CHECK(lineOf(diff.before(), row.oldLine) == lineOf(diff.after(), row.newLine)); break;
      case RowKind::Added: CHECK((row.oldLine == 0 && row.newLine != 0)); break;
      case RowKind::Removed: CHECK((row.newLine == 0 && row.oldLine != 0)); break;
      case RowKind::Changed: CHECK(lineOf(diff.before(), row.oldLine) != lineOf(diff.after(), row.newLine)); break;
      case RowKind::Moved: FAIL("a plain (unaligned) diff has no moved rows"); break;
    }
  }
  CHECK(oldNext - 1 == diff.before().index.lineCount());
  CHECK(newNext - 1 == diff.after().index.lineCount());
  // x*1 and x+0 are gone on the right.
  bool removedMultiplyByOne = false;
  for (const DiffRow& row : diff.rows())
    if (row.kind != RowKind::Same && lineOf(diff.before(), row.oldLine).find("multiply(%1, 1f") != std::string::npos)
      removedMultiplyByOne = true;
  CHECK(removedMultiplyByOne);
  // The printed modules were cached: building again prints nothing new.
  size_t misses = cache.misses();
  IrDiffModel::build(wb.event(simplify).before, wb.event(simplify).after, cache);
  CHECK(cache.misses() == misses);
}

TEST_CASE("IR diff: FuseOps' regrouping is Moved rows, not changes", "[gui][diff][moves]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(std::string(PASSLAB_SOURCE_DIR) + "/examples/seed000/cnn_fp32.relay");
  wb.setPipeline("InferType,SimplifyInference,FuseOps");
  wb.run();
  int fuse = wb.eventOfPass(2);
  PrintCache cache;
  IrDiffModel aligned = IrDiffModel::buildAligned(wb.eventEdits(fuse), cache);
  IrDiffModel plain = IrDiffModel::build(wb.event(fuse).before, wb.event(fuse).after, cache);
  REQUIRE(aligned.aligned());
  CHECK(aligned.movedCount() > 0);
  CHECK(aligned.addedCount() + aligned.removedCount() + aligned.changedCount() == 0);
  CHECK(plain.movedCount() == 0);
  CHECK(plain.addedCount() + plain.removedCount() + plain.changedCount() > 0);
  // Moved rows have their own colour, not a change's.
  CHECK(rowBackground(RowKind::Moved, true) == ColourRole::DiffMovedBg);
  CHECK(rowBackground(RowKind::Moved, false) == ColourRole::DiffMovedBg);
  size_t movedRows = 0;
  for (const DiffRow& row : aligned.rows()) movedRows += row.kind == RowKind::Moved;
  CHECK(movedRows == aligned.movedCount());
}

TEST_CASE("IR diff aligned by the node matcher: renumbered lines are not coloured, moved code links", "[gui][diff]") {
  // FoldConstant on seed 000 renumbers every binding after the folded chains.
  Workbench wb(sharedBuiltinRegistry());
  wb.load(std::string(PASSLAB_SOURCE_DIR) + "/examples/seed000/cnn_fp32.relay");
  wb.setPipeline("InferType,SimplifyInference,ToMixedPrecision,FoldConstant");
  wb.run();
  const TraceEvent& fold = wb.event(4);
  REQUIRE(fold.pass == "FoldConstant");
  PrintCache cache;
  IrDiffModel plain = IrDiffModel::build(fold.before, fold.after, cache);
  IrDiffModel aligned = IrDiffModel::buildAligned(wb.eventEdits(4), cache);
  REQUIRE(aligned.aligned());
  size_t plainMarked = plain.addedCount() + plain.removedCount() + plain.changedCount();
  size_t alignedMarked = aligned.addedCount() + aligned.removedCount() + aligned.changedCount();
  CHECK(alignedMarked < plainMarked);
  // The relu after the first folded chain keeps its line.
  bool reluSame = false;
  for (const DiffRow& row : aligned.rows())
    if (row.kind == RowKind::Same && lineOf(aligned.after(), row.newLine).find("nn.relu(%15)") != std::string::npos)
      reluSame = true;
  CHECK(reluSame);
  // A kept node's line links to its counterpart's line.
  uint32_t line = 0;
  for (const DiffRow& row : aligned.rows())
    if (row.kind == RowKind::Same && lineOf(aligned.after(), row.newLine).find("nn.relu(%15)") != std::string::npos)
      line = row.newLine;
  REQUIRE(line > 0);
  CHECK(aligned.counterpartLine(Side::After, line) > 0);
  // The trace row says what the pass did.
  TraceModel trace = buildTraceModel(wb, {});
  bool found = false;
  for (const TraceRow& row : trace.rows)
    if (row.event == 4) {
      found = true;
      CHECK(row.summary == "folded 31 ops into 7 constants; 7 ops take a new constant input");
      CHECK(row.detail.find(row.summary) != std::string::npos);
    }
  CHECK(found);
}

TEST_CASE("IR diff colours: added, removed and changed rows have distinct backgrounds", "[gui][diff][colour]") {
  CHECK(rowBackground(RowKind::Same, true) == ColourRole::Count);
  CHECK(rowBackground(RowKind::Added, true) == ColourRole::DiffAddedBg);
  CHECK(rowBackground(RowKind::Added, false) == ColourRole::DiffFillerBg);
  CHECK(rowBackground(RowKind::Removed, false) == ColourRole::DiffRemovedBg);
  CHECK(rowBackground(RowKind::Removed, true) == ColourRole::DiffFillerBg);
  CHECK(rowBackground(RowKind::Changed, false) == ColourRole::DiffChangedBg);
  std::set<std::tuple<int, int, int>> colours;
  for (ColourRole r : {ColourRole::DiffAddedBg, ColourRole::DiffRemovedBg, ColourRole::DiffChangedBg,
                       ColourRole::DiffFillerBg, ColourRole::DiffIntraline}) {
    Rgba c = colourOf(r);
    CHECK(c.a == 255);  // opaque, so screenshots show the exact colour
    colours.insert({c.r, c.g, c.b});
  }
  CHECK(colours.size() == 5);
}

TEST_CASE("IR diff marks the lines where a watched attribute changed", "[gui][diff][attrs]") {
  const std::string before =
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(1, 4), float32]) -> Tensor[(1, 4), float32] {\n  @f(%x)\n}\n\n"
      "def @f(%y: Tensor[(1, 4), float32], Compiler=\"ccompiler\", global_symbol=\"f\") -> Tensor[(1, 4), float32] {\n"
      "  nn.relu(%y)\n}\n";
  std::string after = before;
  after.replace(after.find("\"ccompiler\""), 11, "\"dnnl\"");
  IRModule a = parseModule(before, "a.relay"), b = parseModule(after, "b.relay");
  PrintCache cache;
  IrDiffModel diff = IrDiffModel::build(a, b, cache);
  int markers = 0;
  for (const DiffRow& row : diff.rows()) {
    if (!row.attrMarker) continue;
    ++markers;
    CHECK(row.kind != RowKind::Same);
    CHECK(lineOf(diff.after(), row.newLine).find("Compiler=\"dnnl\"") != std::string::npos);
  }
  CHECK(markers == 1);
  REQUIRE(!diff.attrChanges().empty());
  const AttrChangeNote& note = diff.attrChanges().front();
  CHECK(note.watched == "Compiler");
  CHECK(note.change.function == "f");
  CHECK(note.change.oldValue == "\"ccompiler\"");
  CHECK(note.firstRow >= 0);
  // Filtering to @main hides the marker row; to @f keeps it.
  diff.setFunctionFilter("main");
  for (uint32_t v : std::vector<uint32_t>(diff.visibleRows())) CHECK_FALSE(diff.rows()[v].attrMarker);
  CHECK(diff.attrChanges().front().firstRow == -1);
  diff.setFunctionFilter("@f");
  bool visibleMarker = false;
  for (size_t v = 0; v < diff.visibleRows().size(); ++v) visibleMarker |= diff.visibleRow(v).attrMarker;
  CHECK(visibleMarker);
}

TEST_CASE("IR diff filter, search and navigation", "[gui][diff]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kExamples + "cnn_block.relay");
  PrintCache cache;
  IrDiffModel diff = IrDiffModel::build(wb.event(0).before, wb.event(0).after, cache);
  CHECK(diff.identical());
  CHECK(diff.addedCount() + diff.removedCount() + diff.changedCount() == 0);
  std::vector<std::string> names = diff.functionNames();
  CHECK(names == std::vector<std::string>{"ext_block", "main", "scale"});
  diff.setFunctionFilter("scale");
  LineRange scale = diff.after().functionRange("scale");
  REQUIRE(!scale.empty());
  CHECK(diff.visibleRows().size() == scale.last - scale.first + 1);
  CHECK(lineOf(diff.after(), diff.visibleRow(0).newLine).rfind("def @scale", 0) == 0);
  diff.setFunctionFilter("");
  auto hits = diff.findRows("NN.RELU", false);
  CHECK(hits.size() == 2);
  CHECK(diff.findRows("NN.RELU", true).empty());
  int row = diff.visibleRowOfLine(Side::After, scale.first);
  REQUIRE(row >= 0);
  CHECK(diff.visibleRow(static_cast<size_t>(row)).newLine == scale.first);
  CHECK(diff.nextChangedRow(0) == -1);  // nothing changed at the load event
}

// ---- Trace ------------------------------------------------------------------------------------

TEST_CASE("Trace rows: statuses, cursor, pending passes and the unchanged filter", "[gui][trace]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kExamples + "cnn_block.relay");
  wb.setPipeline("InferType,SimplifyExpr,DeadCodeElimination");
  TraceModel before = buildTraceModel(wb);
  REQUIRE(before.rows.size() == 4);  // load + 3 pending
  CHECK(before.rows[0].icon == EventIcon::Load);
  CHECK(before.rows[0].isCursor);
  for (size_t i = 1; i < 4; ++i) {
    CHECK(before.rows[i].icon == EventIcon::Pending);
    CHECK(before.rows[i].colour == ColourRole::EventPending);
    CHECK(before.rows[i].event == -1);
  }
  CHECK(before.position.find("before pass 1 of 3") != std::string::npos);

  wb.step();
  wb.step();
  TraceModel mid = buildTraceModel(wb);
  REQUIRE(mid.cursorRow >= 0);
  const TraceRow& cursor = mid.rows[static_cast<size_t>(mid.cursorRow)];
  CHECK(cursor.event == wb.cursor());
  CHECK(cursor.label == "SimplifyExpr");
  CHECK(cursor.icon == EventIcon::Changed);
  CHECK(cursor.colour == ColourRole::EventChanged);
  CHECK(cursor.detail.find("@main") != std::string::npos);
  // SimplifyExpr leaves the Compiler function alone and says so.
  CHECK(cursor.skippedFunctions >= 1);
  CHECK(cursor.tooltip.find("skipped @ext_block") != std::string::npos);
  CHECK(mid.position.find("pass 2 of 3") != std::string::npos);
  CHECK(mid.rows.back().icon == EventIcon::Pending);

  wb.run();
  TraceModel all = buildTraceModel(wb);
  TraceModel filtered = buildTraceModel(wb, TraceFilter{true, true});
  int unchanged = 0;
  for (const TraceRow& r : all.rows) unchanged += r.icon == EventIcon::Unchanged && !r.isCursor;
  CHECK(filtered.hiddenCount == unchanged);
  CHECK(filtered.rows.size() == all.rows.size() - static_cast<size_t>(unchanged));
  for (const TraceRow& r : all.rows) CHECK((r.timeFraction >= 0.f && r.timeFraction <= 1.f));

  // A pass breakpoint marks its rows.
  wb.addBreakpoint(BreakKind::Pass, "SimplifyExpr");
  TraceModel withBp = buildTraceModel(wb);
  for (const TraceRow& r : withBp.rows) CHECK(r.passBreakpoint == (r.label == "SimplifyExpr"));
}

// ---- Diagnostics --------------------------------------------------------------------------------

TEST_CASE("Diagnostics of a failed InferType point at the offending line", "[gui][diagnostics]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kExamples + "ill_typed.relay", LoadOptions{false});
  wb.setPipeline("InferType");
  MoveResult r = wb.step();
  REQUIRE(r.reason == StopReason::Failure);
  PrintCache cache;
  const TraceEvent& ev = wb.event(r.to);
  IrDiffModel diff = IrDiffModel::build(ev.before, ev.after, cache);
  std::vector<DiagnosticRow> rows = buildDiagnosticRows(wb, r.to, diff.before(), diff.after());
  REQUIRE(!rows.empty());
  const DiagnosticRow& row = rows.front();
  CHECK(row.severity == Severity::Error);
  CHECK(row.colour == ColourRole::SeverityError);
  CHECK(row.rule.rfind("type", 0) == 0);
  REQUIRE(row.target.has_value());
  CHECK(row.target->side == Side::Before);
  std::string text = lineOf(diff.before(), row.target->lines.first);
  CHECK(text.find("add(") != std::string::npos);
}

TEST_CASE("Function skips are diagnostics rows placed at the function", "[gui][diagnostics]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kExamples + "cnn_block.relay");
  wb.setPipeline("InferType,SimplifyExpr");
  wb.run();
  int simplify = eventOf(wb, "SimplifyExpr");
  PrintCache cache;
  IrDiffModel diff = IrDiffModel::build(wb.event(simplify).before, wb.event(simplify).after, cache);
  std::vector<DiagnosticRow> rows = buildDiagnosticRows(wb, simplify, diff.before(), diff.after());
  auto skip = std::find_if(rows.begin(), rows.end(), [](const DiagnosticRow& r) { return r.kind == DiagnosticRow::Kind::Skip; });
  REQUIRE(skip != rows.end());
  CHECK(skip->function == "ext_block");
  CHECK(skip->message.find("Compiler") != std::string::npos);
  CHECK(skip->colour == ColourRole::EventSkipped);
  REQUIRE(skip->target.has_value());
  CHECK(lineOf(diff.before(), skip->target->lines.first).rfind("def @ext_block", 0) == 0);
}

// ---- Config provenance ---------------------------------------------------------------------------

TEST_CASE("Config rows flag a setting read with different values", "[gui][config]") {
  // A pass that reads link_params twice, as seed 000's nested FuseOps does: from the
  // PassContext (default 0) and from the module's executor (1).
  ConfigRegistry::global().add(ConfigKeyInfo{"relay.test_gui.link_params", AttrValue::Kind::Bool, AttrValue::boolean(false),
                                             "test key"});
  auto registry = std::make_shared<PassRegistry>();
  PassRegistration reg;
  reg.info.name = "ReadsLinkParams";
  reg.create = [](const AttrDict&) -> PassPtr {
    PassInfo info;
    info.name = "ReadsLinkParams";
    return std::make_shared<ModulePass>(info, [](const IRModule& mod, PassContext& ctx) {
      ctx.config("relay.test_gui.link_params", "ReadsLinkParams");
      ctx.moduleAttr(mod, "executor", "link-params", "ReadsLinkParams");
      return mod;
    });
  };
  registry->add(std::move(reg));
  Workbench wb(registry);
  wb.loadText(
      "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1), float32]) -> Tensor[(1), float32] {\n  %x\n}\n", "t.relay");
  wb.setModuleAttr("executor", "link-params", AttrValue::integer(1));
  wb.setPipeline("ReadsLinkParams");
  wb.step();
  ConfigModel model = buildConfigModel(wb, wb.cursor());
  REQUIRE(model.rows.size() == 2);
  CHECK(model.rows[0].source == "default");
  CHECK(model.rows[1].source == "module attribute");
  CHECK(model.rows[0].setting == "link_params");
  CHECK(model.rows[1].setting == "link_params");
  CHECK(model.rows[0].conflict);
  CHECK(model.rows[1].conflict);
  REQUIRE(model.conflicts.size() == 1);
  CHECK(model.conflicts[0].summary.find("False") != std::string::npos);
  CHECK(model.conflicts[0].summary.find("module attribute") != std::string::npos);
  // Setting the context key to the module's value resolves the conflict (True and 1 agree).
  wb.setConfig("relay.test_gui.link_params", AttrValue::boolean(true));
  wb.restart();
  wb.step();
  ConfigModel agreed = buildConfigModel(wb, wb.cursor());
  REQUIRE(agreed.rows.size() == 2);
  CHECK_FALSE(agreed.rows[0].conflict);
  CHECK(agreed.conflicts.empty());
  CHECK(agreed.settings.find("relay.test_gui.link_params=True") != std::string::npos);
  CHECK(settingOf("executor.link-params") == "link_params");
}

// ---- Attribute timeline -------------------------------------------------------------------------

TEST_CASE("Attribute timeline marks the cell where Inline's function disappears", "[gui][attrs]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kExamples + "cnn_block.relay");
  wb.setPipeline("InferType,Inline");
  wb.run();
  AttrTimelineModel model = buildAttrTimelineModel(wb, AttrTimelineOptions{});
  REQUIRE(!model.columns.empty());
  auto row = std::find_if(model.rows.begin(), model.rows.end(),
                          [](const AttrRow& r) { return r.function == "scale" && r.key == "Inline"; });
  REQUIRE(row != model.rows.end());
  CHECK(row->watched);
  CHECK(row->cells.front().present);
  CHECK(row->cells.front().value == "1");
  CHECK(row->cells.back().changed);
  CHECK_FALSE(row->cells.back().present);
  CHECK(row->cells.back().background == ColourRole::CellChangedBg);
  // Watched rows come first.
  bool seenUnwatched = false;
  for (const AttrRow& r : model.rows) {
    if (!r.watched) seenUnwatched = true;
    if (seenUnwatched) CHECK_FALSE(r.watched);
  }
  CHECK(model.cursorColumn == static_cast<int>(model.columns.size()) - 1);
}

// ---- Numerics and codegen empty states ------------------------------------------------------

TEST_CASE("Numerics: plot data and the first offending event", "[gui][numerics]") {
  NumericsModel m = numericsFromSeries({0, 3, 5, 8}, {0.f, 1e-5f, 0.5f, std::nanf("")}, 1e-3f);
  CHECK(m.available);
  CHECK(m.firstOffending == 2);
  CHECK(m.maxError == Approx(0.5f));
  NumericsModel nan = numericsFromSeries({1}, {std::nanf("")}, 1.f);
  CHECK(nan.firstOffending == 0);
  CHECK_THROWS(numericsFromSeries({1, 2}, {0.f}, 1.f));
  Workbench wb(sharedBuiltinRegistry());
  NumericsModel empty = buildNumericsModel(wb);
  CHECK_FALSE(empty.available);
  CHECK(!empty.emptyMessage.empty());
}

TEST_CASE("Codegen panel lists PrimFuncs or says there are none", "[gui][codegen]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kExamples + "cnn_block.relay");
  CodegenModel m = buildCodegenModel(wb, 0);
  CHECK(m.primFuncs.empty());
  CHECK(m.emptyMessage.find("no PrimFuncs") != std::string::npos);
  CHECK(m.buildEvent == -1);
}

namespace {

/// Two stages whose code names the stage and the function, and a summary.
class TwoStageBackend : public CodegenBackend {
 public:
  CodegenOutcome build(const IRModule& mod, const CodegenRequest&) override {
    CodegenOutcome out{"hexagon -mcpu=hexagonv68", "summary\n", {}};
    for (const char* stage : {"llvm", "asm"}) {
      CodegenStage s{stage, {{"", std::string(stage) + " module"}}};
      for (const auto& [name, fn] : mod->functions)
        if (std::string(stage) == "llvm" || name == "main") s.artifacts.push_back({name, std::string(stage) + " " + name});
      out.stages.push_back(std::move(s));
    }
    return out;
  }
};

}  // namespace

TEST_CASE("Codegen panel shows the selected build's code per stage and function", "[gui][codegen]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kExamples + "cnn_block.relay");
  wb.setPipeline("InferType,SimplifyInference");
  wb.setCodegenBackend(std::make_shared<TwoStageBackend>());
  wb.step();
  const int from = wb.cursor();
  const int build = wb.build({});
  CHECK(buildCodegenModel(wb, 0).buildEvent == -1);  // nothing built from #0
  const int stageEvent = wb.event(build).children[1];
  // The build's own event, one of its stages and the event it compiled all show it.
  const int selected = GENERATE_COPY(from, build, stageEvent);
  CodegenModel m = buildCodegenModel(wb, selected);
  REQUIRE(m.buildEvent == build);
  CHECK(m.builtFrom == from);
  CHECK(m.target == "hexagon -mcpu=hexagonv68");
  CHECK(m.summary == "summary\n");
  CHECK(m.stages == std::vector<std::string>{"llvm", "asm"});
  CHECK(m.stageEvents == wb.event(build).children);
  CHECK(m.selectedStage == (selected == stageEvent ? 1 : 0));
  CHECK(m.moduleText == std::vector<std::string>{"llvm module", "asm module"});
  REQUIRE(m.functions.size() == wb.event(from).after->functions.size());
  for (const CodegenFunctionCode& f : m.functions) {
    REQUIRE(f.text.size() == 2);
    CHECK(f.text[0] == "llvm " + f.function);
    CHECK(f.text[1] == (f.function == "main" ? "asm main" : ""));  // a stage without code for it
  }
  // The trace tree keeps builds even when unchanged passes are hidden.
  TraceFilter hide;
  hide.hideUnchanged = true;
  TraceModel tree = buildTraceModel(wb, hide);
  auto row = std::find_if(tree.rows.begin(), tree.rows.end(), [&](const TraceRow& r) { return r.event == build; });
  REQUIRE(row != tree.rows.end());
  CHECK(row->detail == "code from #" + std::to_string(from));
  CHECK(std::count_if(tree.rows.begin(), tree.rows.end(), [&](const TraceRow& r) { return r.event == stageEvent; }) == 1);
}

// ---- Session persistence --------------------------------------------------------------------------

TEST_CASE("Session JSON round-trips and rejects broken files", "[gui][session]") {
  SavedSession s;
  s.modelPath = "/tmp/a \"quoted\" model.relay";
  s.pipeline = "InferType,FuseOps{max_depth=4}";
  s.breakpoints = {{BreakKind::Pass, "FuseOps", true}, {BreakKind::Attr, "Compiler", false}, {BreakKind::Diagnostic, "", true},
                   {BreakKind::Numeric, "rel 0.01", true}};
  auto back = sessionFromJson(sessionToJson(s));
  REQUIRE(back.has_value());
  CHECK(*back == s);
  std::string error;
  CHECK_FALSE(sessionFromJson("{\"model\": \"x\", ", &error));
  CHECK(!error.empty());
  CHECK_FALSE(sessionFromJson("{\"breakpoints\": [{\"kind\": \"nope\", \"pattern\": \"x\"}]}", &error));
  CHECK(error.find("nope") != std::string::npos);
}

TEST_CASE("The store writes atomically and only on change; restore rebuilds the workbench", "[gui][session]") {
  TempDir dir;
  SessionStore store(dir.path / "sub" / "session.json");
  CHECK_FALSE(store.load().has_value());
  SavedSession s{kExamples + "cnn_block.relay", "InferType,SimplifyExpr", {{BreakKind::Pass, "SimplifyExpr", true}}};
  REQUIRE(store.save(s));
  CHECK(store.save(s));
  CHECK(store.writes() == 1);
  auto loaded = store.load();
  REQUIRE(loaded.has_value());
  CHECK(*loaded == s);
  for (const auto& entry : std::filesystem::directory_iterator(dir.path / "sub"))
    CHECK(entry.path().filename() == "session.json");  // no temporary left behind

  Workbench wb(sharedBuiltinRegistry());
  std::vector<std::string> messages = restoreSession(wb, *loaded);
  CHECK(messages.empty());
  CHECK(wb.loaded());
  CHECK(wb.pipelineSpec() == "InferType,SimplifyExpr");
  REQUIRE(wb.breakpoints().size() == 1);
  CHECK(captureSession(wb) == s);

  // A model that moved away: the rest is still restored, and the loss is reported.
  Workbench wb2(sharedBuiltinRegistry());
  SavedSession moved = s;
  moved.modelPath = (dir.path / "gone.relay").string();
  messages = restoreSession(wb2, moved);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].find("gone.relay") != std::string::npos);
  CHECK(wb2.pipelineSpec() == "InferType,SimplifyExpr");
  CHECK(wb2.breakpoints().size() == 1);
}

// ---- Session, console and scripts -------------------------------------------------------------------

TEST_CASE("GuiSession: moves, selection, persistence on change", "[gui][session]") {
  TempDir dir;
  GuiSession s(SessionStore(dir.path / "session.json"));
  s.enablePersistence();
  REQUIRE(s.openModel(kExamples + "cnn_block.relay"));
  REQUIRE(s.applyPipeline("InferType,SimplifyExpr"));
  int writes = s.store()->writes();
  CHECK(writes >= 1);
  s.perform(Action::StepOver);
  s.perform(Action::StepOver);
  CHECK(s.view().selectedEvent == s.workbench().cursor());
  CHECK(s.workbench().event(s.view().selectedEvent).pass == "SimplifyExpr");
  CHECK_FALSE(s.irDiff().identical());
  CHECK(s.store()->writes() == writes);  // moving the cursor changes nothing persistent
  s.perform(Action::Back);
  CHECK(s.workbench().event(s.view().selectedEvent).pass == "InferType");
  s.perform(Action::Back);
  s.perform(Action::Back);  // already at #0: refused, reported, nothing breaks
  CHECK(s.statusIsError());
  CHECK(s.status().find("first event") != std::string::npos);
  REQUIRE(s.addBreakpoint(BreakKind::Pass, "SimplifyExpr"));
  CHECK(s.store()->writes() == writes + 1);
  s.perform(Action::Run);
  CHECK(s.workbench().event(s.workbench().cursor()).pass == "SimplifyExpr");
  CHECK(s.status().find("breakpoint") != std::string::npos);
  CHECK_FALSE(s.applyPipeline("InferType,NoSuchPass"));
  CHECK(s.statusIsError());
  auto saved = s.store()->load();
  REQUIRE(saved.has_value());
  CHECK(saved->pipeline == "InferType,SimplifyExpr");
  CHECK(saved->breakpoints.size() == 1);
}

TEST_CASE("Console: REPL commands, gui commands, history and completion", "[gui][console]") {
  GuiSession s;
  CommandResult r = s.runCommand("load " + kExamples + "cnn_block.relay");
  REQUIRE(r.ok());
  r = s.runCommand("pipeline InferType,SimplifyExpr");
  REQUIRE(r.ok());
  r = s.runCommand("step 2");
  REQUIRE(r.ok());
  CHECK(s.view().selectedEvent == s.workbench().cursor());
  CHECK(s.workbench().event(s.view().selectedEvent).pass == "SimplifyExpr");
  r = s.runCommand("gui filter @scale");
  REQUIRE(r.ok());
  CHECK(s.view().functionFilter == "scale");
  r = s.runCommand("gui filter @nope");
  CHECK_FALSE(r.ok());
  r = s.runCommand("gui panel config");
  REQUIRE(r.ok());
  CHECK(s.view().focusTab == PanelId::Config);
  r = s.runCommand("gui search relu");
  REQUIRE(r.ok());
  r = s.runCommand("nosuchcommand");
  CHECK_FALSE(r.ok());
  CHECK(s.statusIsError());
  // Output reached the scrollback, errors marked as such.
  bool sawError = false, sawEcho = false;
  for (const ConsoleLine& line : s.console().lines()) {
    sawError |= line.kind == ConsoleLine::Kind::Error && line.text.find("nosuchcommand") != std::string::npos;
    sawEcho |= line.kind == ConsoleLine::Kind::Echo && line.text == "(passlab) step 2";
  }
  CHECK(sawError);
  CHECK(sawEcho);
  // History.
  ConsoleModel& c = s.console();
  CHECK(c.historyPrevious("draft") == "nosuchcommand");
  CHECK(c.historyPrevious("") == "gui search relu");
  CHECK(c.historyNext() == "nosuchcommand");
  CHECK(c.historyNext() == "draft");
  // Completion: REPL commands, the gui command and its arguments.
  CompletionEdit e = c.complete("pipel", 5);
  CHECK(e.line == "pipeline ");
  e = c.complete("gu", 2);
  CHECK(e.line == "gui ");
  e = c.complete("gui pa", 6);
  CHECK(e.line == "gui panel ");
  e = c.complete("gui panel co", 12);
  CHECK(e.line == "gui panel co");
  CHECK(e.candidates == std::vector<std::string>{"codegen", "config", "console"});
  e = c.complete("break pass SimplifyE", 20);
  CHECK(e.line == "break pass SimplifyExpr ");
}

TEST_CASE("Scripts run a line per tick, wait, and stop at the first error", "[gui][script]") {
  GuiSession s;
  ScriptRunner ok("# comment\nload " + kExamples + "cnn_block.relay\n\npipeline InferType\ngui wait 2\nstep\n", "ok.plc");
  int ticks = 0;
  while (ok.tick(s)) ++ticks;
  CHECK(ok.finished());
  CHECK_FALSE(ok.failed());
  CHECK(ok.linesRun() == 4);
  CHECK(ticks == 3 + 2);  // three lines before the last, and two frames of waiting
  CHECK(s.workbench().cursor() == 1);

  ScriptRunner bad("load " + kExamples + "cnn_block.relay\nstep 1 2 3\nstep\n", "bad.plc");
  bad.runAll(s);
  CHECK(bad.failed());
  CHECK(bad.linesRun() == 2);
  CHECK(bad.message().rfind("bad.plc:2: ", 0) == 0);
}

TEST_CASE("Command line options", "[gui][options]") {
  std::string error;
  auto o = parseAppOptions({"m.relay", "--pass-pipeline=InferType", "--script", "s.plc", "--screenshot=o.png",
                            "--frames", "5", "--size", "800x600"},
                           &error);
  REQUIRE(o.has_value());
  CHECK(o->modelPath == "m.relay");
  CHECK(o->session.hasPipeline);
  CHECK(o->session.pipeline == "InferType");
  CHECK(o->scriptPath == "s.plc");
  CHECK(o->screenshotPath == "o.png");
  CHECK(o->frames == 5);
  CHECK(o->width == 800);
  CHECK(o->height == 600);
  CHECK_FALSE(parseAppOptions({"--size", "10x10"}, &error));
  CHECK(error.find("--size") != std::string::npos);
  CHECK_FALSE(parseAppOptions({"--frames"}, &error));
  CHECK_FALSE(parseAppOptions({"a.relay", "b.relay"}, &error));
  CHECK_FALSE(parseAppOptions({"--bogus"}, &error));
  CHECK(error.find("--bogus") != std::string::npos);
}

TEST_CASE("Command line options: the load flags passlab takes", "[gui][options]") {
  std::string error;
  auto o = parseAppOptions({"m.onnx", "--input-shape", "x=1,3,96,96", "--input-shape=y=2", "--no-check"}, &error);
  REQUIRE(o.has_value());
  CHECK(o->session.inputShapes == std::vector<std::string>{"x=1,3,96,96", "y=2"});
  CHECK_FALSE(o->session.typeCheck);
  CHECK_FALSE(parseAppOptions({"m.onnx", "--input-shape"}, &error));
  CHECK(error.find("--input-shape") != std::string::npos);
  // The bindings reach the ONNX importer; a bad one is a message, not a crash.
  Workbench wb(sharedBuiltinRegistry());
  SavedSession s;
  s.modelPath = "/nonexistent/m.onnx";
  std::vector<std::string> messages = restoreSession(wb, s, true, {"x=1,banana"});
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].rfind("could not restore the model", 0) == 0);
  CHECK_FALSE(wb.loaded());
}

TEST_CASE("Command line options: the rest of passlab's shared options, from its own table", "[gui][options]") {
  std::string error;
  auto o = parseAppOptions({"m.relay", "--pass-pipeline", "InferType,FuseOps", "--opt-level=3", "--target", "llvm -mcpu=skylake",
                            "--config=relay.FuseOps.max_depth=2", "--disabled-pass=FoldConstant,SimplifyExpr",
                            "--required-pass=FuseOps", "--syntax=tvmscript", "--print-constants", "inline"},
                           &error);
  REQUIRE(o.has_value());
  const SessionOptions& so = o->session;
  CHECK(so.pipeline == "InferType,FuseOps");
  CHECK(so.optLevel == 3);
  CHECK(so.hasTarget);
  CHECK(so.target == "llvm -mcpu=skylake");
  CHECK(so.config == std::vector<std::pair<std::string, std::string>>{{"relay.FuseOps.max_depth", "2"}});
  CHECK(so.disabledPasses == std::vector<std::string>{"FoldConstant", "SimplifyExpr"});
  CHECK(so.requiredPasses == std::vector<std::string>{"FuseOps"});
  CHECK(so.syntax == std::optional<TextSyntax>(TextSyntax::TVMScript));
  CHECK(so.constants == ConstantStyle::Inline);
  // The same arguments mean the same to passlab: one table.
  SessionOptions cli;
  std::vector<std::string> args = {"--opt-level=3", "--syntax", "tvmscript", "--bogus"};
  size_t i = 0;
  CHECK(parseSessionOption(args, i, cli, &error) == OptionParse::Taken);
  i = 1;
  CHECK(parseSessionOption(args, i, cli, &error) == OptionParse::Taken);
  CHECK(i == 2);  // the value was the next argument
  i = 3;
  CHECK(parseSessionOption(args, i, cli, &error) == OptionParse::NotMine);
  CHECK(cli.optLevel == 3);
  CHECK(cli.syntax == std::optional<TextSyntax>(TextSyntax::TVMScript));
  // Bad values are named.
  for (const auto& [bad, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--opt-level=high"}, "--opt-level needs a number"},
           {{"--config=nokey"}, "--config needs KEY=VALUE"},
           {{"--syntax=c"}, "--syntax takes tvmscript or relay"},
           {{"--print-constants=some"}, "--print-constants takes inline or ref"},
           {{"--target"}, "--target needs TEXT"},
       }) {
    CHECK_FALSE(parseAppOptions(bad, &error));
    CHECK(error.find(says) != std::string::npos);
  }
  CHECK(appUsage().find("--disabled-pass=A,B") != std::string::npos);
  // Applied to a session: the run settings and the pipeline; a bad target is a message, nothing changes.
  Workbench wb(sharedBuiltinRegistry());
  wb.load(kExamples + "cnn_block.relay");
  applyRunOptions(wb, so);
  CHECK(wb.runSettings().optLevel == 3);
  CHECK(wb.runSettings().disabledPasses.count("FoldConstant") == 1);
  CHECK(wb.pipelineSpec() == "InferType,FuseOps");
  GuiSession s;
  s.workbench().load(kExamples + "cnn_block.relay");
  SessionOptions badTarget;
  badTarget.target = "nonsense-target", badTarget.hasTarget = true;
  s.applyRunSettings(badTarget);
  CHECK(s.workbench().runSettings().target.empty());
  bool logged = false;
  for (const ConsoleLine& line : s.console().lines()) logged |= line.kind == ConsoleLine::Kind::Error && line.text.find("nonsense") != std::string::npos;
  CHECK(logged);
}

// ---- Print syntax -----------------------------------------------------------------------

TEST_CASE("A Python comment in TVMScript is a comment, `#[...]` in Relay text is not", "[gui][syntax]") {
  std::vector<Token> tokens;
  std::string comment = "# from tvm.script import relax as R";
  tokenizeLine(comment, tokens);
  REQUIRE(tokens.size() == 1);
  CHECK(tokens[0].role == ColourRole::Comment);
  CHECK(tokens[0].end == comment.size());
  std::string attrs = "#[phase = 1]";
  tokenizeLine(attrs, tokens);
  CHECK(std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.role == ColourRole::WatchedAttr; }));
  std::string decl = "    with R.dataflow():";
  tokenizeLine(decl, tokens);
  CHECK(std::any_of(tokens.begin(), tokens.end(), [&](const Token& t) {
    return decl.substr(t.begin, t.end - t.begin) == "with" && t.role == ColourRole::Keyword;
  }));
}

TEST_CASE("TVMScript's floor division is not a comment; a `//` line is", "[gui][syntax]") {
  std::vector<Token> tokens;
  std::string store = "                T_out[ax0 // 4, ax0 % 4] = T.max(p0[ax0 // 4, ax0 % 4], T.float32(0.0))";
  tokenizeLine(store, tokens);
  CHECK(std::none_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.role == ColourRole::Comment; }));
  std::string comment = "  // a comment line";
  tokenizeLine(comment, tokens);
  REQUIRE_FALSE(tokens.empty());
  CHECK(tokens.back().role == ColourRole::Comment);
  CHECK(tokens.back().end == comment.size());
}

TEST_CASE("The IR panes follow the workbench's print syntax, from the toggle or the console", "[gui][syntax-setting]") {
  GuiSession session;
  REQUIRE(session.openModel(kExamples + "cnn_block.relay"));
  CHECK(session.status().find("(Relay text)") != std::string::npos);
  REQUIRE(session.applyPipeline("InferType,SimplifyExpr"));
  session.perform(Action::Run);
  const std::string relayText = session.irDiff().after().index.text();
  session.setPrintSyntax(TextSyntax::TVMScript);
  CHECK(session.workbench().printSyntax() == TextSyntax::TVMScript);
  CHECK(session.status() == "IR prints as TVMScript");
  // The console's `set syntax` is the same setting.
  REQUIRE(session.runCommand("set syntax relay").ok());
  CHECK(session.workbench().printSyntax() == TextSyntax::Relay);
  CHECK(session.irDiff().after().index.text() == relayText);
}

TEST_CASE("The IR panes print TVMScript when the toggle says so", "[gui][syntax-setting][tvmscript]") {
  GuiSession session;
  REQUIRE(session.openModel(kExamples + "cnn_block.relay"));
  REQUIRE(session.applyPipeline("InferType,SimplifyExpr"));
  session.perform(Action::Run);
  session.setPrintSyntax(TextSyntax::TVMScript);
  const IrDiffModel& diff = session.irDiff();
  CHECK(diff.aligned());
  CHECK(diff.before().index.text().find("@R.function") != std::string::npos);
  CHECK(diff.after().index.text().find("@R.function") != std::string::npos);
  CHECK(diff.after().index.text().find("%0") == std::string::npos);
}

TEST_CASE("GuiSession: a long command's status lines reach the progress model; Cancel stops a build and the session goes on", "[gui][progress]") {
  GuiSession s;
  REQUIRE(s.openModel(kExamples + "cnn_block.relay"));
  REQUIRE(s.applyPipeline("relay.default"));
  s.runCommand("run", false);
  const int cursor = s.workbench().cursor();
  const size_t events = s.workbench().trace().events().size();
  // Cancel is pressed when the build reports its first function (as the bar's button does mid-build).
  std::vector<ProgressSnapshot> seen;
  auto forward = s.interpreter().statusLine;
  REQUIRE(forward);
  s.interpreter().statusLine = [&](const StatusUpdate& update) {
    forward(update);
    seen.push_back(s.progress().snapshot());
    if (seen.size() == 1) s.cancelLongCommand();
  };
  CommandResult stopped = s.runCommand("build", false);
  CHECK_FALSE(stopped.ok());
  CHECK_THAT(stopped.error(), Catch::StartsWith("error: build interrupted (Ctrl-C): cancelled while emitting LLVM IR for @"));
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].busy);
  CHECK(seen[0].command == "build");
  CHECK_THAT(seen[0].text, Catch::StartsWith("build: emitting LLVM IR for @"));
  CHECK(seen[0].done == 1);
  CHECK(seen[0].total > 1);
  CHECK_FALSE(s.progress().snapshot().busy);
  CHECK(s.workbench().cursor() == cursor);
  CHECK(s.workbench().trace().events().size() == events);
  CHECK_FALSE(s.workbench().cancelRequested());
  // The next build runs to the end, its progress climbing to the total.
  seen.clear();
  s.interpreter().statusLine = [&](const StatusUpdate& update) {
    forward(update);
    seen.push_back(s.progress().snapshot());
  };
  CommandResult built = s.runCommand("build", false);
  INFO(built.error());
  CHECK(built.ok());
  REQUIRE(!seen.empty());
  CHECK(seen.back().done == seen.back().total);
  CHECK(s.workbench().trace().events().size() > events);
}

TEST_CASE("ProgressModel: a screenshot request waits for a running command's first status line", "[gui][progress]") {
  ProgressModel p;
  p.requestScreenshot("shot.png");
  CHECK(p.takeScreenshotRequest().empty());  // nothing running
  p.begin("build");
  CHECK(p.takeScreenshotRequest().empty());  // no status line yet
  p.update("build: optimizing @f (1 of 4)", 1, 4);
  ProgressSnapshot snap = p.snapshot();
  CHECK(snap.busy);
  CHECK(snap.done == 1);
  CHECK(snap.total == 4);
  CHECK(p.takeScreenshotRequest() == "shot.png");
  CHECK(p.takeScreenshotRequest().empty());  // taken once
  p.markCancelling();
  CHECK(p.snapshot().cancelling);
  p.end();
  CHECK_FALSE(p.snapshot().busy);
}

TEST_CASE("FrameDamage: only the triangles that changed between frames are redrawn", "[gui][damage]") {
  const PixelRect window{0, 0, 1600, 1000};
  // A window's command: a toolbar triangle, the status text, a canvas; and a second list.
  auto frame = [](uint64_t status, PixelRect statusRect, uint64_t canvasHead, size_t extra) {
    std::vector<DrawItem> items;
    DrawItem main{"passlab", 1, {10, status, 30}, {{0, 0, 100, 20}, statusRect, {0, 900, 50, 1000}}};
    items.push_back(main);
    DrawItem canvas{"passlab/##content", canvasHead, {7}, {{800, 400, 1600, 900}}};
    items.push_back(canvas);
    for (size_t i = 0; i < extra; ++i) items.push_back(DrawItem{"passlab/##content", 9, {9}, {{0, 500, 10, 510}}});
    return items;
  };
  FrameDamage damage;
  // The first frame, and any after invalidate() or a new window size, is drawn whole.
  REQUIRE(damage.update(frame(5, {1400, 980, 1500, 1000}, 1, 0), window) == std::vector<PixelRect>{window});
  // The same frame again: nothing to draw.
  CHECK(damage.update(frame(5, {1400, 980, 1500, 1000}, 1, 0), window).empty());
  // New status text (between an unchanged head and tail): its old and new pixels only.
  CHECK(damage.update(frame(6, {1380, 980, 1500, 1000}, 1, 0), window) == std::vector<PixelRect>{{1380, 980, 1500, 1000}});
  // The canvas's clip or texture changed: all of the canvas command.
  CHECK(damage.update(frame(6, {1380, 980, 1500, 1000}, 2, 0), window) == std::vector<PixelRect>{{800, 400, 1600, 900}});
  // A list gaining a command is redrawn whole; overlapping rectangles merge.
  std::vector<PixelRect> grew = damage.update(frame(6, {1380, 980, 1500, 1000}, 2, 1), window);
  CHECK(grew == std::vector<PixelRect>{{800, 400, 1600, 900}, {0, 500, 10, 510}});
  // A list that went away: its old pixels.
  std::vector<DrawItem> onlyMain = frame(6, {1380, 980, 1500, 1000}, 2, 0);
  onlyMain.pop_back();
  CHECK(damage.update(onlyMain, window) == std::vector<PixelRect>{{800, 400, 1600, 900}, {0, 500, 10, 510}});
  // Lists reordered (a window brought to the front): everything.
  std::vector<DrawItem> swapped = frame(6, {1380, 980, 1500, 1000}, 2, 0);
  CHECK(damage.update(swapped, window).size() == 1);
  std::swap(swapped[0], swapped[1]);
  CHECK(damage.update(swapped, window) == std::vector<PixelRect>{window});
  damage.invalidate();
  CHECK(damage.update(swapped, window) == std::vector<PixelRect>{window});
  CHECK(damage.update(swapped, PixelRect{0, 0, 1200, 800}) == std::vector<PixelRect>{PixelRect{0, 0, 1200, 800}});
}

TEST_CASE("FrameDamage: many changed rectangles merge into a few, least added area first", "[gui][damage]") {
  const PixelRect window{0, 0, 1000, 1000};
  auto frame = [](uint64_t salt) {
    std::vector<DrawItem> items;
    // Five separate lists far apart; two of them close together.
    const PixelRect at[] = {{0, 0, 10, 10}, {12, 0, 22, 10}, {500, 500, 510, 510}, {900, 0, 910, 10}, {0, 900, 10, 910}};
    for (int i = 0; i < 5; ++i) items.push_back(DrawItem{"w" + std::to_string(i), 1, {salt}, {at[i]}});
    return items;
  };
  FrameDamage damage;
  damage.update(frame(1), window);
  std::vector<PixelRect> rects = damage.update(frame(2), window);
  REQUIRE(rects.size() == FrameDamage::kMaxRects);
  // Every changed pixel is covered, the rectangles are disjoint, and the
  // merges add little: the two neighbours go together first, then the top row.
  long long total = 0;
  for (const PixelRect& r : rects) total += r.area();
  for (size_t i = 0; i < rects.size(); ++i)
    for (size_t j = i + 1; j < rects.size(); ++j) CHECK(intersect(rects[i], rects[j]).empty());
  for (const DrawItem& item : frame(2))
    CHECK(std::any_of(rects.begin(), rects.end(), [&](const PixelRect& r) { return intersect(r, item.rects[0]) == item.rects[0]; }));
  CHECK(std::find(rects.begin(), rects.end(), PixelRect{0, 0, 910, 10}) != rects.end());
  CHECK(total == 9100 + 100 + 100);
}
