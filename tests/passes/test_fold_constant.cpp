// FoldConstant: what folds and what does not, the nested evaluation pipeline
// in a clean CPU context, the teaching switch and its provenance conflict,
// golden IR, and exact numerics.
#include <catch2/catch.hpp>

#include "passes/fold_constant.h"
#include "passes/fuse_ops.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

const TraceEvent& only(const std::vector<const TraceEvent*>& events) {
  REQUIRE(events.size() == 1);
  return *events.front();
}

const char* kSmall = R"(#[version = "0.0.5"]
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

const char* kSmallFolded = R"(#[version = "0.0.5"]
#[phase = 0]
def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] {
  %0 = add(%x, const(Tensor[(3), float32], [3, 5, 7])) /* ty=Tensor[(2, 3), float32] */;
  multiply(%0, const(Tensor[(1), float32], [3])) /* ty=Tensor[(2, 3), float32] */
}
)";

/// A module like the constant-shape plumbing of exported CNNs: `chains`
/// independent shape_of → cast → strided_slice → concatenate → reshape chains,
/// each feeding a run-time add.
std::string shapeChainModel(int chains) {
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 3, 4, 4), float32], %y: Tensor[(1, 4), float32]) {\n";
  std::string acc = "%y";
  for (int i = 0; i < chains; ++i) {
    std::string n = std::to_string(i);
    text += "  %s" + n + " = shape_of(%x);\n";
    text += "  %c" + n + " = cast(%s" + n + ", dtype=\"float32\");\n";
    text += "  %l" + n + " = strided_slice(%c" + n + ", begin=[1], end=[4]);\n";
    text += "  %k" + n + " = concatenate((%l" + n + ", const(Tensor[(1), float32], [" + std::to_string(i % 7) + "])));\n";
    text += "  %r" + n + " = reshape(%k" + n + ", newshape=[1, 4]);\n";
    text += "  %a" + n + " = add(" + acc + ", %r" + n + ");\n";
    acc = "%a" + n;
  }
  return text + "  " + acc + "\n}\n";
}

}  // namespace

TEST_CASE("FoldConstant: calls on constants and shape_of of static types fold", "[passes][fold-constant][golden]") {
  PipelineRun r;
  IRModule mod = parse(kSmall);
  IRModule out = r.run("InferType,FoldConstant", mod);
  CHECK(printModule(out) == kSmallFolded);
  CHECK(compareModules(mod, out).maxAbsError == 0);
}

TEST_CASE("FoldConstant: evaluation runs InferType and FuseOps in a clean CPU child context", "[passes][fold-constant][nested]") {
  // The root context and the module both say link_params; the evaluation must not see either.
  IRModule mod = parse(std::string(kSmall).insert(21, "#[executor = {\"kind\": \"graph\", \"link-params\": 1}]\n"));
  PipelineRun r;
  r.ctx->target = "hexagon -mcpu=hexagonv68";
  r.ctx->setConfig(kFuseOpsLinkParamsKey, AttrValue::boolean(true));
  r.run("InferType,FoldConstant", mod);
  const TraceEvent& fold = only(r.events("FoldConstant"));
  CHECK(readsOf(fold) == std::vector<std::string>{"relay.FoldConstant.inherit_executor_leak=False(default)",
                                                  "relay.FoldConstant.max_value_bytes=268435456(default)"});
  REQUIRE(fold.children.size() == 2);
  const TraceEvent& infer = r.trace->event(fold.children[0]);
  const TraceEvent& fuse = r.trace->event(fold.children[1]);
  CHECK(infer.pass == "InferType");
  CHECK(fuse.pass == "FuseOps");
  for (const TraceEvent* e : {&infer, &fuse}) {
    CHECK(e->contextName == kFoldConstantEvalContext);
    CHECK(e->contextDepth == 1);
    CHECK(e->contextTarget == "llvm");
    CHECK(e->contextConfig.empty());
  }
  CHECK(readsOf(fuse) == std::vector<std::string>{"relay.FuseOps.max_depth=256(default)", "relay.FuseOps.link_params=None(default)",
                                                   "executor.link-params=None(default)", "target.link-params=None(default)"});
  // The evaluation module holds the two maximal constant subexpressions and no executor.
  CHECK_FALSE(fuse.before->attrs.contains("executor"));
  CHECK(as<TupleNode>(as<FunctionNode>(fuse.before->lookup("main"))->body)->fields.size() == 2);
  CHECK(fuse.diagnostics.empty());
}

TEST_CASE("FoldConstant: the teaching switch leaks the executor into the nested FuseOps, and it is flagged",
          "[passes][fold-constant][provenance]") {
  IRModule mod = parse(std::string(kSmall).insert(21, "#[executor = {\"kind\": \"graph\", \"link-params\": 1}]\n"));
  PipelineRun r;
  r.ctx->setConfig(kFoldConstantLeakKey, AttrValue::boolean(true));
  IRModule out = r.run("InferType,FoldConstant", mod);
  CHECK(printModule(out).find("const(Tensor[(3), float32], [3, 5, 7])") != std::string::npos);
  const TraceEvent& fuse = *r.events("FuseOps").front();
  CHECK(fuse.contextName == kFoldConstantEvalContext);
  CHECK(readsOf(fuse).back() == "executor.link-params=1(module attribute)");
  REQUIRE(fuse.diagnostics.size() == 1);
  CHECK(fuse.diagnostics[0].rule == kProvenanceLeakRule);
  CHECK(fuse.diagnostics[0].severity == Severity::Warning);
  std::vector<ProvenanceConflict> conflicts =
      findProvenanceConflicts(fuse.configReads, {fuse.contextName, fuse.contextDepth, fuse.contextTarget, fuse.contextConfig});
  REQUIRE(conflicts.size() == 1);
  CHECK(conflicts[0].key == "executor.link-params");
  CHECK(conflicts[0].value.asInt() == 1);
  CHECK_FALSE(conflicts[0].contextValue.asBool());
  CHECK_THAT(conflicts[0].message, Catch::Contains("target \"llvm\" has no -link-params"));
  // In the nested FuseOps the leak keeps constants inline in the fused kernels.
  bool inlineConstant = false;
  for (const FunctionNode* f : fusedFunctions(mainOf(fuse.after)))
    postOrderVisit(f->body, [&](const Expr& e) { inlineConstant = inlineConstant || (as<ConstantNode>(e) && as<ConstantNode>(e)->data.ndim() > 0); });
  CHECK(inlineConstant);
  // A root-context read of the same attribute is not a conflict: there it describes the build.
  CHECK(findProvenanceConflicts(fuse.configReads, {"root", 0, "llvm", {}}).empty());
}

TEST_CASE("FoldConstant: constant lets, tuple projections and constant ifs fold", "[passes][fold-constant]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(3), float32]) {
  let %c = add(const(Tensor[(3), float32], [1, 2, 3]), 1f);
  let %unused = multiply(%c, 2f);
  let %flag = greater(2f, 1f);
  %0 = (%x, %c);
  %1 = if (%flag) {
    %0.1
  } else {
    %x
  };
  add(%1, %0.0)
}
)");
  PipelineRun r;
  IRModule out = r.run("InferType,FoldConstant", mod);
  std::string text = printModule(out);
  INFO(text);
  CHECK(text.find("let ") == std::string::npos);
  CHECK(text.find("if (") == std::string::npos);
  CHECK(text.find("add(const(Tensor[(3), float32], [2, 3, 4]), %x)") != std::string::npos);
  CHECK(compareModules(mod, out).maxAbsError == 0);
}

TEST_CASE("FoldConstant: zero-argument calls, stateful ops and Primitive functions are left alone", "[passes][fold-constant]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %0 = zeros(shape=[2], dtype="float32");
  %1 = fn (%p: Tensor[(2), float32], Primitive=1) {
    add(%p, add(1f, 1f))
  };
  %2 = %1(%x);
  add(%2, %0)
}
)");
  PipelineRun r;
  IRModule out = r.run("InferType,FoldConstant", mod);
  CHECK(out == mod);
  CHECK(only(r.events("FoldConstant")).children.empty());
}

TEST_CASE("FoldConstant: a function with nothing to fold keeps its identity and runs no nested pipeline", "[passes][fold-constant]") {
  PipelineRun r;
  IRModule mod = r.run("InferType", exampleModel("examples/cnn_block.relay"));
  CHECK(r.run("FoldConstant", mod) == mod);
  CHECK(only(r.events("FoldConstant")).children.empty());
}

TEST_CASE("FoldConstant: 300 exported-CNN shape chains fold with one nested evaluation", "[passes][fold-constant]") {
  IRModule mod = parse(shapeChainModel(300));
  PipelineRun r;
  IRModule out = r.run("InferType,FoldConstant", mod);
  for (OpId op : {OpId::ShapeOf, OpId::Cast, OpId::StridedSlice, OpId::Concatenate, OpId::Reshape}) CHECK(countCalls(mainOf(out), op) == 0);
  CHECK(countCalls(mainOf(out), OpId::Add) == 300);
  CHECK(r.events("FuseOps").size() == 1);
  CHECK(compareModules(mod, out).maxAbsError == 0);
}

TEST_CASE("FoldConstant: the seed-000 model folds its batch_norm statistics and head constants exactly",
          "[passes][fold-constant][numeric]") {
  PipelineRun r;
  IRModule mod = r.run("InferType,SimplifyInference", exampleModel("examples/seed000/cnn_fp32.relay"));
  IRModule out = r.run("FoldConstant", mod);
  for (OpId op : {OpId::Sqrt, OpId::Rsqrt, OpId::ShapeOf, OpId::Transpose, OpId::ExpandDims, OpId::Negative})
    CHECK(countCalls(mainOf(out), op) == 0);
  NumericCheckResult check = compareModules(mod, out);
  CHECK(check.compared);
  CHECK(check.maxAbsError == 0);
}
