// The node matcher: exact edit counts per pass scenario (checked by hand on the
// small ones), moves across functions, aligned printing (renumbering is not a
// change; the aligned text re-parses to the after module), change summaries,
// the workbench queries and their errors, and properties on generated modules.
#include <catch2/catch.hpp>

#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <unordered_set>

#include "core/analysis/structural_equal.h"
#include "core/text/load_text.h"
#include "core/trace/change_summary.h"
#include "core/workbench/workbench.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// The edits of the (only) top-level event of pass `pass` in a run of `spec`.
struct Scenario {
  PipelineRun run;
  IRModule out;
  const TraceEvent* event = nullptr;
  std::shared_ptr<const ModuleEdits> edits;

  Scenario(const IRModule& mod, const std::string& spec, const std::string& pass, int occurrence = 0) {
    out = run.run(spec, mod);
    int seen = 0;
    for (const TraceEvent& e : run.trace->events())
      if (e.pass == pass && e.parent == -1 && seen++ == occurrence) event = &e;
    REQUIRE(event);
    edits = matchModules(event->before, event->after);
  }
};

std::string countsText(const EditCounts& c) {
  std::ostringstream s;
  s << "kept " << c.kept << " updated " << c.updated << " inserted " << c.inserted << " deleted " << c.deleted
    << " moved " << c.moved << " folded " << c.folded;
  return s.str();
}

EditCounts counts(uint32_t kept, uint32_t updated, uint32_t inserted, uint32_t deleted, uint32_t moved, uint32_t folded) {
  EditCounts c;
  c.kept = kept;
  c.updated = updated;
  c.inserted = inserted;
  c.deleted = deleted;
  c.moved = moved;
  c.folded = folded;
  return c;
}

/// Lines starting with '+' or '-' in a unified diff (headers excluded).
std::vector<std::string> changedLines(const std::string& diff) {
  std::vector<std::string> out;
  std::istringstream in(diff);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("+++", 0) == 0 || line.rfind("---", 0) == 0) continue;
    if (!line.empty() && (line[0] == '+' || line[0] == '-')) out.push_back(line);
  }
  return out;
}

const char* kFold = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 3), float32]) {
  %0 = add(const(Tensor[(3), float32], [1, 2, 3]), const(Tensor[(3), float32], [0.5, 0.5, 0.5]));
  %1 = multiply(%0, 2f);
  %2 = shape_of(%x);
  %3 = cast(%2, dtype="float32");
  %4 = strided_slice(%3, begin=[1], end=[2]);
  %5 = add(%x, %1);
  multiply(%5, %4)
}
)";

const char* kChain = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);
  %1 = add(%0, 1f);
  %2 = nn.relu(%1);
  %3 = nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2]);
  sigmoid(%3)
}
)";

}  // namespace

TEST_CASE("NodeMatch: identical modules have no edits and summarise as no change", "[node_match]") {
  IRModule m = parse(kChain);
  auto e = matchModules(m, m);
  CHECK(e->edits.empty());
  CHECK(e->ops == EditCounts{});
  CHECK(changeSummary(*e) == "no change");
  AlignedText t = printAligned(*e);
  CHECK(t.before == t.after);
  CHECK(t.before == printModule(m));
}

TEST_CASE("NodeMatch: FoldConstant folds 5 ops into 2 constants, 2 ops take them", "[node_match]") {
  // By hand: add, multiply fold into [3, 5, 7]; shape_of, cast, strided_slice into [3];
  // the add and multiply reading them are the only ops left, each with one new input.
  Scenario s(parse(kFold), "InferType,FoldConstant", "FoldConstant");
  const ModuleEdits& e = *s.edits;
  INFO(formatEditScript(e));
  CHECK(countsText(e.ops) == countsText(counts(0, 2, 0, 0, 0, 5)));
  CHECK(e.foldConstants == 2);
  CHECK(e.newConstantInputs == 2);
  CHECK(changeSummary(e).rfind("folded 5 ops into 2 constants; 2 ops take a new constant input", 0) == 0);
  // Both updates are rewired inputs only.
  for (const NodeEdit& n : e.edits)
    if (n.kind == EditKind::Updated && as<CallNode>(n.after)) CHECK(n.changes == kInputsRewired);
}

TEST_CASE("NodeMatch: renumbered nodes print under their before names", "[node_match][aligned]") {
  // Folding the first binding renumbers every later one: a plain diff marks them
  // all; the aligned diff only the folded binding and the add that reads the constant.
  IRModule m = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = add(1f, 2f);
  %1 = add(%x, %0);
  %2 = nn.relu(%1);
  %3 = sigmoid(%2);
  %4 = tanh(%3);
  negative(%4)
}
)");
  Scenario s(m, "InferType,FoldConstant", "FoldConstant");
  std::string plain = unifiedDiff(printModule(s.event->before), printModule(s.event->after), "a", "b");
  std::string aligned = alignedDiff(*s.edits, "a", "b");
  INFO(plain);
  INFO(aligned);
  CHECK(changedLines(plain).size() == 11);
  std::vector<std::string> lines = changedLines(aligned);
  CHECK(lines.size() == 3);
  for (const std::string& l : lines) {
    CHECK(l.find("relu") == std::string::npos);
    CHECK(l.find("sigmoid") == std::string::npos);
  }
  // The aligned text is still a valid module equal to the after snapshot.
  AlignedText t = printAligned(*s.edits);
  CHECK(printModule(parse(t.after)) == printModule(parse(printModule(s.event->after))));
  CHECK(structuralEqual(parse(t.after), parse(printModule(s.event->after))));
  // Ordinary printing stays canonical.
  CHECK(printModule(s.event->after).find("%0 = add(%x, 3f") != std::string::npos);
}

TEST_CASE("NodeMatch: FuseOps moves ops into Primitive functions, DefuseOps moves them back", "[node_match][moves]") {
  Scenario fuse(parse(kChain), "InferType,FuseOps,DefuseOps", "FuseOps");
  const ModuleEdits& e = *fuse.edits;
  INFO(formatEditScript(e));
  // conv2d+add+relu in one group, max_pool2d+sigmoid in another.
  CHECK(countsText(e.ops) == countsText(counts(0, 0, 0, 0, 5, 0)));
  CHECK(e.movedIntoOps == 5);
  CHECK(e.movedIntoFunctions == 2);
  CHECK(changeSummary(e) == "grouped 5 ops into 2 Primitive functions; 0 ops rewritten");
  for (const NodeEdit& n : e.edits)
    if (n.kind == EditKind::Moved && as<CallNode>(n.after) && as<CallNode>(n.after)->op()) CHECK(n.changes == 0);

  Scenario defuse(parse(kChain), "InferType,FuseOps,DefuseOps", "DefuseOps");
  const ModuleEdits& d = *defuse.edits;
  INFO(formatEditScript(d));
  CHECK(countsText(d.ops) == countsText(counts(0, 0, 0, 0, 5, 0)));
  CHECK(d.movedOutOfOps == 5);
  CHECK(changeSummary(d) == "moved 5 ops out of 2 functions");
}

TEST_CASE("NodeMatch: ToNonDataflow's rebound variables match, so a chain of one-input ops is kept", "[node_match][relax]") {
  // Each op reads only the previous binding's variable, which ToNonDataflow
  // replaces (a DataflowVar becomes a Var): nothing but the binding links the
  // two sides, and the chain is longer than the matcher's rounds.
  const char* chain = R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            lv = R.nn.relu(x)
            lv1 = R.sigmoid(lv)
            lv2 = R.tanh(lv1)
            lv3 = R.exp(lv2)
            lv4 = R.nn.relu(lv3)
            lv5 = R.negative(lv4)
            lv6 = R.sigmoid(lv5)
            gv = R.tanh(lv6)
            R.output(gv)
        return gv
)";
  Scenario s(loadModuleText(chain, "chain.py").module, "ToNonDataflow", "ToNonDataflow");
  const ModuleEdits& e = *s.edits;
  INFO(formatEditScript(e));
  CHECK(countsText(e.ops) == countsText(counts(8, 0, 0, 0, 0, 0)));
  CHECK(changeSummary(e) == "inserted 8 bindings; deleted 1 dataflow block");
}

TEST_CASE("NodeMatch: a renamed global is one rename, not a removal and an addition", "[node_match]") {
  IRModule m = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  @f(%x)
}
def @f(%y: Tensor[(4), float32]) {
  nn.relu(%y)
}
)");
  std::map<std::string, Expr> fns = m->functions;
  fns["g"] = fns["f"];
  fns.erase("f");
  fns["main"] = makeFunction({as<FunctionNode>(m->lookup("main"))->params[0]},
                             makeCall(makeGlobalVar("g"), {as<FunctionNode>(m->lookup("main"))->params[0]}));
  IRModule after = makeModule(fns, m->attrs);
  auto e = matchModules(m, after);
  INFO(formatEditScript(*e));
  CHECK(e->globalsRenamed == 1);
  CHECK(e->globalsAdded == 0);
  CHECK(e->globalsRemoved == 0);
  const FunctionEdit* g = e->function("g");
  REQUIRE(g);
  CHECK(g->kind == FunctionEdit::Kind::Renamed);
  CHECK(g->beforeName == "f");
  // The call in @main now names @g: same call, callee renamed, so kept; so is @g's relu.
  CHECK(countsText(e->ops) == countsText(counts(1, 0, 0, 0, 0, 0)));
  CHECK(changeSummary(*e) == "renamed @f→@g");
}

TEST_CASE("NodeMatch: attribute updates say old→new", "[node_match]") {
  IRModule m = parse(kChain);
  auto* fn = as<FunctionNode>(m->lookup("main"));
  // Rebuild the max_pool2d with other strides.
  auto* sig = as<CallNode>(fn->body);
  auto* pool = as<CallNode>(sig->args[0]);
  AttrDict attrs = pool->attrs;
  attrs.set("strides", AttrValue::ints({1, 1}));
  Expr newPool = makeCall(pool->callee, pool->args, attrs);
  Expr body = makeCall(sig->callee, {newPool}, sig->attrs);
  IRModule after = withFunction(m, "main", makeFunction(fn->params, body, fn->retType, fn->attrs));
  auto e = matchModules(m, after);
  INFO(formatEditScript(*e));
  CHECK(countsText(e->ops) == countsText(counts(4, 1, 0, 0, 0, 0)));
  CHECK(changeSummary(*e) == "updated 1 nn.max_pool2d (strides [2, 2]→[1, 1])");
}

namespace {

/// A random graph of elementwise ops over two inputs: constant-only
/// subexpressions (to fold), duplicates (for CSE), x*1 and x+0 (to simplify),
/// every value used by the result.
std::string randomModule(uint32_t seed, int ops) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  const char* unary[] = {"nn.relu", "sigmoid", "tanh", "negative"};
  const char* binary[] = {"add", "multiply", "subtract", "maximum"};
  const char* consts[] = {"1f", "2f", "0f", "const(Tensor[(3), float32], [1, 2, 3])"};
  std::vector<std::string> values = {"%x", "%y"};
  std::vector<bool> used = {true, true};
  std::string body;
  int n = 0;
  auto operand = [&]() -> std::string {
    if (pick(5) == 0) return consts[pick(4)];
    int i = static_cast<int>(values.size()) - 1 - pick(std::min<int>(4, static_cast<int>(values.size())));
    used[static_cast<size_t>(i)] = true;
    return values[static_cast<size_t>(i)];
  };
  for (int i = 0; i < ops; ++i) {
    std::string expr;
    switch (pick(6)) {
      case 0: expr = std::string(unary[pick(4)]) + "(" + operand() + ")"; break;
      case 1: expr = std::string(binary[pick(4)]) + "(" + consts[pick(4)] + ", " + consts[pick(3)] + ")"; break;
      case 2: expr = pick(2) ? "multiply(" + operand() + ", 1f)" : "add(" + operand() + ", 0f)"; break;
      default: expr = std::string(binary[pick(4)]) + "(" + operand() + ", " + operand() + ")"; break;
    }
    std::string name = "%" + std::to_string(n++);
    body += "  " + name + " = " + expr + ";\n";
    values.push_back(name);
    used.push_back(false);
    if (pick(8) == 0) {  // an exact duplicate
      std::string dup = "%" + std::to_string(n++);
      body += "  " + dup + " = " + expr + ";\n";
      values.push_back(dup);
      used.push_back(false);
    }
  }
  // Sum every unused value so nothing is dead.
  std::string result = values.back();
  used.back() = true;
  for (size_t i = 0; i < values.size(); ++i)
    if (!used[i]) {
      std::string name = "%" + std::to_string(n++);
      body += "  " + name + " = add(" + result + ", " + values[i] + ");\n";
      result = name;
    }
  return "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 3), float32]) {\n" + body + "  " +
         result + "\n}\n";
}

/// Number of op calls in the graph-level functions of `mod` that are not the same pointer in `other`.
size_t opsOfChangedFunctions(const IRModule& mod, const IRModule& other) {
  size_t n = 0;
  for (const auto& [name, fn] : mod->functions) {
    if (other->lookup(name) == fn || fn->kind == ExprKind::PrimFunc) continue;
    std::unordered_set<const ExprNode*> seen;
    postOrderVisit(fn, [&](const Expr& e) {
      if (auto* c = as<CallNode>(e); c && c->op() && seen.insert(e.get()).second) ++n;
    });
  }
  return n;
}

/// Whether every input of `e` (transitively) is kept.
bool coneKept(const ModuleEdits& m, const ExprNode* e) {
  std::vector<const ExprNode*> work{e};
  std::unordered_set<const ExprNode*> seen;
  while (!work.empty()) {
    const ExprNode* x = work.back();
    work.pop_back();
    if (!seen.insert(x).second) continue;
    const NodeEdit* r = m.findAfter(x);
    if (r && r->kind != EditKind::Kept) return false;
    if (auto* c = as<CallNode>(x))
      for (const Expr& a : c->args) work.push_back(a.get());
  }
  return true;
}

}  // namespace

TEST_CASE("NodeMatch: properties on generated modules", "[node_match][property]") {
  const char* pipelines[] = {"InferType,FoldConstant",         "InferType,SimplifyExpr",
                             "InferType,EliminateCommonSubexpr", "InferType,FuseOps",
                             "InferType,FuseOps,DefuseOps",     "InferType,SimplifyExpr,EliminateCommonSubexpr,FoldConstant,FuseOps"};
  uint32_t seed = GENERATE(range(1u, 25u));
  std::string spec = pipelines[seed % 6];
  std::string text = randomModule(seed, 10 + static_cast<int>(seed % 5) * 15);
  INFO("seed " << seed << " pipeline " << spec << "\n" << text);
  PipelineRun run;
  run.run(spec, parse(text));
  for (const TraceEvent& ev : run.trace->events()) {
    if (ev.parent != -1 || ev.id == 0 || ev.status != EventStatus::Changed) continue;
    INFO("event #" << ev.id << " " << ev.pass);
    auto e = matchModules(ev.before, ev.after);
    // Every op of a changed function is accounted for exactly once on each side.
    CHECK(e->ops.kept + e->ops.updated + e->ops.moved + e->ops.inserted == opsOfChangedFunctions(ev.after, ev.before));
    CHECK(e->ops.kept + e->ops.updated + e->ops.moved + e->ops.deleted + e->ops.folded ==
          opsOfChangedFunctions(ev.before, ev.after));
    for (const NodeEdit& n : e->edits) {
      if (n.kind != EditKind::Kept && n.kind != EditKind::Updated && n.kind != EditKind::Moved) continue;
      REQUIRE(n.before);
      REQUIRE(n.after);
      CHECK(n.before->kind == n.after->kind);
      if (auto* c = as<CallNode>(n.after)) CHECK(c->op() == as<CallNode>(n.before)->op());
      CHECK(e->beforeOf(n.after) == n.before);
      CHECK(e->afterOf(n.before) == n.after);
      // A kept node whose whole input cone is kept is the same computation.
      if (n.kind == EditKind::Kept && as<CallNode>(n.after) && coneKept(*e, n.after))
        CHECK(structuralEqual(Expr(std::shared_ptr<const ExprNode>(), n.after), Expr(std::shared_ptr<const ExprNode>(), n.before)));
    }
    // The aligned after-text parses to a module structurally equal to after.
    // (Compared through the canonical printout: a parsed module has explicit return
    // types where the pass left them to inference.)
    AlignedText t = printAligned(*e);
    IRModule reparsed = parse(t.after);
    CHECK(printModule(reparsed) == printModule(parse(printModule(ev.after))));
    CHECK(structuralEqual(reparsed, parse(printModule(ev.after))));
    CHECK(changeSummary(*e) != "no change");
  }
}

namespace {

/// Bound-node lines ("%N = ...") of an aligned diff whose node was kept: must be none.
std::vector<std::string> keptLinesInDiff(const ModuleEdits& m, const AlignedText& t) {
  // Names restart in every function: a name may stand for several nodes.
  std::unordered_multimap<std::string, const void*> beforeByName, afterByName;
  t.beforeNames.forEachName([&](const void* node, std::string_view name) { beforeByName.emplace(std::string(name), node); });
  t.afterNames.forEachName([&](const void* node, std::string_view name) { afterByName.emplace(std::string(name), node); });
  std::vector<std::string> out;
  std::vector<std::string> lines = changedLines(unifiedDiffIgnoringIndent(t.before, t.after, "a", "b"));
  // A line removed and added unchanged is the line diff moving it past others, not an edit.
  std::multiset<std::string> removed, added;
  auto strip = [](const std::string& l) { return l.substr(1 + l.substr(1).find_first_not_of(' ')); };
  for (const std::string& l : lines) (l[0] == '+' ? added : removed).insert(strip(l));
  for (const std::string& line : lines) {
    if ((line[0] == '+' ? removed : added).count(strip(line))) continue;
    if (line.find("let ") != std::string::npos) continue;  // the line of the let's value
    size_t pct = line.find('%'), eq = line.find(" = ");
    if (pct == std::string::npos || eq == std::string::npos || pct > eq) continue;
    std::string name = line.substr(pct + 1, eq - pct - 1);
    if (name.find(' ') != std::string::npos || name.find(':') != std::string::npos) continue;
    bool after = line[0] == '+';
    auto& table = after ? afterByName : beforeByName;
    auto [from, to] = table.equal_range(name);
    if (from == to) continue;
    bool allKept = true;
    for (auto it = from; it != to; ++it) {
      auto* node = static_cast<const ExprNode*>(it->second);
      // `%v = value` of a dataflow block: the line is the value's.
      if (node->kind == ExprKind::Var) allKept = false;
      const NodeEdit* r = after ? m.findAfter(node) : m.findBefore(node);
      if (r && r->kind != EditKind::Kept) allKept = false;
      // Kept inside a function that moved to another global (lifted, inlined): a move of the
      // whole block, which a line diff can only show as removed here and added there.
      if (r && r->beforeFunction != r->afterFunction) allKept = false;
    }
    if (allKept) out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("NodeMatch: exact edit counts per pass scenario", "[node_match][scenarios]") {
  struct Row {
    const char* model;
    const char* spec;
    const char* pass;
    EditCounts ops;
    const char* summary;
    size_t alignedLines;
  };
  const char* kCnn = "examples/cnn_block.relay";
  const char* kFp32 = "examples/seed000/cnn_fp32.relay";
  const char* kTwo = "examples/seed003/two_blocks.relay";
  const char* kPartition = "InferType,AnnotateTarget{compilers=[ccompiler]},MergeCompilerRegions,PartitionGraph";
  const char* kOutline =
      "InferType,AnnotateTarget{compilers=[ccompiler]},MergeCompilerRegions,PartitionGraph,Inline,OutlineCompilerFunctions";
  auto row = GENERATE_COPY(values<Row>({
      // By hand: x*1, x+0 and the reshape pair go; batch_norm and sigmoid read what they fed on.
      {kCnn, "InferType,SimplifyExpr", "SimplifyExpr", counts(5, 2, 0, 4, 0, 0),
       "deleted 4 ops (2 reshape, 1 add, 1 multiply); updated 1 nn.batch_norm (inputs rewired), 1 sigmoid (inputs rewired)", 0},
      // By hand: the second relu(%5) goes, the add reads the first.
      {kCnn, "InferType,SimplifyExpr,EliminateCommonSubexpr", "EliminateCommonSubexpr", counts(5, 1, 0, 1, 0, 0),
       "deleted 1 nn.relu; updated 1 add (inputs rewired)", 0},
      {kCnn, "InferType,FuseOps", "FuseOps", counts(0, 0, 0, 0, 12, 0),
       "grouped 12 ops into 6 Primitive functions; 0 ops rewritten", 0},
      {kCnn, "InferType,FuseOps,DefuseOps", "DefuseOps", counts(0, 0, 0, 0, 12, 0), "moved 12 ops out of 6 functions", 0},
      {kFp32, "InferType,SimplifyInference,ToMixedPrecision,FoldConstant", "FoldConstant", counts(11, 7, 0, 0, 0, 31),
       "folded 31 ops into 7 constants; 7 ops take a new constant input", 0},
      {kFp32, "InferType,ConvertLayout{data_layout=NHWC,kernel_layout=OHWI}", "ConvertLayout", counts(11, 8, 4, 0, 0, 0),
       "inserted 4 layout_transform; updated 2 nn.batch_norm (axis ∅→3), 2 nn.bias_add (axis ∅→3), 2 nn.conv2d "
       "(data_layout ∅→NHWC, kernel_layout ∅→OHWI; inputs rewired) and 2 more of 2 other ops",
       0},
      {kTwo, kPartition, "PartitionGraph", counts(6, 0, 0, 0, 0, 0), "lifted 2 functions to globals", 0},
      {kTwo, kOutline, "Inline", counts(6, 0, 0, 0, 0, 0),
       "inlined @tvmgen_default_ccompiler_main_0 and @tvmgen_default_ccompiler_main_1", 0},
      // The second block is structurally equal to the first: it now calls the first's global.
      {kTwo, kOutline, "OutlineCompilerFunctions", counts(4, 0, 0, 2, 0, 0),
       "lifted 1 function to globals; deleted 2 ops (1 add, 1 multiply)", 0},
      {"examples/seed002/model.relay", "InferType,LambdaLifting", "LambdaLifting", counts(3, 0, 0, 0, 0, 0),
       "lifted 1 function to globals; module attributes phase 0→1", 0},
      {"examples/seed002/model.relay", "InferType,LambdaLifting,LegalizeOps", "LegalizeOps", counts(0, 0, 3, 3, 0, 0),
       "inserted 3 call_tir; deleted 3 ops (1 multiply, 1 nn.dense, 1 nn.relu); added @multiply, @nn_dense and "
       "@nn_relu; module attributes phase 1→2",
       0},
  }));
  INFO(row.model << " " << row.spec << " [" << row.pass << "]");
  Scenario s(exampleModel(row.model), row.spec, row.pass);
  INFO(formatEditScript(*s.edits));
  CHECK(countsText(s.edits->ops) == countsText(row.ops));
  CHECK(changeSummary(*s.edits) == row.summary);
  // No line of an untouched node in the aligned diff, and it re-parses.
  AlignedText t = printAligned(*s.edits);
  std::vector<std::string> keptLines = keptLinesInDiff(*s.edits, t);
  std::string joined;
  for (const std::string& l : keptLines) joined += l + "\n";
  INFO("lines of kept nodes:\n" << joined);
  CHECK(keptLines.empty());
  // Re-parsed, with the constants' data in the text (a reference without a section would load as a placeholder).
  PrintOptions inlined;
  inlined.constants = ConstantStyle::Inline;
  CHECK(structuralEqual(parse(printAligned(*s.edits, "", inlined).after), parse(printModule(s.event->after, inlined))));
  (void)row.alignedLines;
}

namespace {

std::unique_ptr<Workbench> bench(const std::string& file, const std::string& pipeline, bool typeCheck = true) {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  auto wb = std::make_unique<Workbench>(registry);
  LoadOptions options;
  options.typeCheck = typeCheck;
  wb->load(std::string(PASSLAB_SOURCE_DIR) + "/examples/" + file, options);
  wb->setPipeline(pipeline);
  return wb;
}

}  // namespace

TEST_CASE("Workbench: change summaries and matchings are per event, cached, and errors are clear",
          "[node_match][workbench]") {
  auto wb = bench("cnn_block.relay", "InferType,SimplifyExpr,FuseOps");
  wb->run();
  CHECK(wb->changeSummary(2) ==
        "deleted 4 ops (2 reshape, 1 add, 1 multiply); updated 1 nn.batch_norm (inputs rewired), 1 sigmoid (inputs rewired)");
  CHECK(wb->changeSummary(3).rfind("grouped 8 ops into", 0) == 0);
  // The same matching object while it is cached.
  CHECK(wb->eventEdits(3) == wb->eventEdits(3));
  // Aligned diff of FuseOps: no binding line of an op that only moved.
  // Aligned diff of FuseOps: fewer lines marked than the plain one (ops that only
  // moved keep their names; those reading a new parameter still show).
  std::string aligned = wb->alignedDiff(3, Side::Before, 3, Side::After);
  std::string plain = wb->diff(3, Side::Before, 3, Side::After);
  CHECK(changedLines(aligned).size() < changedLines(plain).size());
  CHECK_FALSE(wb->editScript(3, Side::Before, 3, Side::After).empty());
  CHECK_THROWS_WITH(wb->alignedDiff(9, Side::Before, 9, Side::After), Catch::Contains("no event #9"));
  CHECK_THROWS_WITH(wb->editScript(2, Side::Before, 2, Side::After, false, "@nosuch"),
                    Catch::Contains("no function @nosuch"));
  // Two events: the module after #1 against the module after #3.
  CHECK_FALSE(wb->alignedDiff(1, Side::After, 3, Side::After, "@main").empty());

  auto failing = bench("ill_typed.relay", "DeadCodeElimination,InferType", false);
  failing->run();
  int failed = failing->lastFailure();
  REQUIRE(failed > 0);
  CHECK(failing->changeSummary(failed) == "failed");
  CHECK_THROWS_WITH(failing->alignedDiff(failed, Side::Before, failed, Side::After), Catch::Contains("failed"));
  CHECK_THROWS_WITH(failing->eventEdits(failed), Catch::Contains("failed"));
}

TEST_CASE("NodeMatch: the node index table grows, reserves and remaps without losing an entry", "[node_match][index]") {
  // Distinct fake addresses, 16 bytes apart as heap nodes are: only their values are hashed.
  std::vector<ExprNode*> keys;
  for (uintptr_t i = 1; i <= 5000; ++i) keys.push_back(reinterpret_cast<ExprNode*>(i * 16));
  NodeIdMap grown, reserved;
  reserved.reserve(keys.size());
  for (uint32_t i = 0; i < keys.size(); ++i) {
    CHECK(grown.insert(keys[i], i));
    CHECK(reserved.insert(keys[i], i));
  }
  // A second insert of a present key keeps the first value.
  CHECK_FALSE(grown.insert(keys[7], 99));
  CHECK(grown.get(keys[7]) == 7);
  CHECK(grown.get(nullptr) == NodeIdMap::kAbsent);
  CHECK(grown.get(reinterpret_cast<ExprNode*>(uintptr_t{16 * 6000})) == NodeIdMap::kAbsent);
  CHECK(grown.size() == keys.size());
  CHECK(reserved.size() == keys.size());
  // Remapping ids to records: even ids get a record, odd ones none (they read as absent).
  std::vector<uint32_t> to(keys.size());
  for (uint32_t i = 0; i < to.size(); ++i) to[i] = i % 2 ? NodeIdMap::kAbsent : i / 2;
  grown.remap(to);
  bool allRight = true;
  for (uint32_t i = 0; i < keys.size(); ++i) {
    allRight = allRight && reserved.get(keys[i]) == i;
    allRight = allRight && grown.get(keys[i]) == (i % 2 ? NodeIdMap::kAbsent : i / 2);
    allRight = allRight && grown.has(keys[i]) == (i % 2 == 0);
  }
  CHECK(allRight);
}

TEST_CASE("NodeMatch: records are found from both sides after FuseOps on a generated model", "[node_match][index]") {
  // The side indexes become ModuleEdits' lookup tables: every record must be
  // found from its after node and from its before node, and GlobalVars not at all.
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 16), float32]) {\n  %0 = nn.relu(%x);\n";
  for (int i = 1; i < 600; ++i)
    text += "  %" + std::to_string(i) + " = " + (i % 2 ? "sigmoid" : "tanh") + "(%" + std::to_string(i - 1) + ");\n";
  text += "  %599\n}\n";
  IRModule mod = parseModule(text, "chain.relay");
  Scenario s(mod, "InferType,FuseOps", "FuseOps");
  const ModuleEdits& m = *s.edits;
  REQUIRE(m.edits.size() > 600);
  bool allFound = true;
  for (const NodeEdit& e : m.edits) {
    if (e.after && e.kind != EditKind::Folded) allFound = allFound && m.findAfter(e.after) == &e;
    if (e.before) allFound = allFound && m.findBefore(e.before) == &e;
  }
  CHECK(allFound);
  CHECK(m.ops.moved == 600);
}
