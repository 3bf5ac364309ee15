// FuseOps and DefuseOps: grouping rules, link_params and where it came from,
// max_depth, skips, golden IR, numeric equivalence.
#include <catch2/catch.hpp>

#include "core/analysis/structural_equal.h"
#include "passes/fuse_ops.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

// conv2d + bias_add + relu + residual add, then a reduction and a scale.
const char* kBlock = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 3, 3), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=2, kernel_size=[3, 3]);
  %1 = nn.bias_add(%0, const(Tensor[(2), float32], [0.5, -0.5]));
  %2 = nn.relu(%1);
  %3 = add(%2, %x);
  %4 = mean(%3, axis=[2, 3]);
  multiply(%4, 2f)
}
)";

const char* kBlockFused = R"(#[version = "0.0.5"]
#[phase = 0]
def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 3, 3), float32]) -> Tensor[(1, 2), float32] {
  %3 = fn (%p0: Tensor[(1, 2, 4, 4), float32], %p1: Tensor[(2, 2, 3, 3), float32], %p2: Tensor[(2), float32], Primitive=1) -> Tensor[(1, 2, 4, 4), float32] {
    %0 = nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1], channels=2, kernel_size=[3, 3]) /* ty=Tensor[(1, 2, 4, 4), float32] */;
    %1 = nn.bias_add(%0, %p2) /* ty=Tensor[(1, 2, 4, 4), float32] */;
    %2 = nn.relu(%1) /* ty=Tensor[(1, 2, 4, 4), float32] */;
    add(%2, %p0) /* ty=Tensor[(1, 2, 4, 4), float32] */
  } /* ty=fn (Tensor[(1, 2, 4, 4), float32], Tensor[(2, 2, 3, 3), float32], Tensor[(2), float32]) -> Tensor[(1, 2, 4, 4), float32] */;
  %4 = %3(%x, %w, const(Tensor[(2), float32], [0.5, -0.5])) /* ty=Tensor[(1, 2, 4, 4), float32] */;
  %5 = fn (%p0_1: Tensor[(1, 2, 4, 4), float32], Primitive=1) -> Tensor[(1, 2), float32] {
    mean(%p0_1, axis=[2, 3]) /* ty=Tensor[(1, 2), float32] */
  } /* ty=fn (Tensor[(1, 2, 4, 4), float32]) -> Tensor[(1, 2), float32] */;
  %6 = %5(%4) /* ty=Tensor[(1, 2), float32] */;
  %7 = fn (%p0_2: Tensor[(1, 2), float32], Primitive=1) -> Tensor[(1, 2), float32] {
    multiply(%p0_2, 2f /* ty=float32 */) /* ty=Tensor[(1, 2), float32] */
  } /* ty=fn (Tensor[(1, 2), float32]) -> Tensor[(1, 2), float32] */;
  %7(%6) /* ty=Tensor[(1, 2), float32] */
}
)";

/// True when some fused function body holds a constant of rank > 0.
bool fusedHoldsTensorConstant(const IRModule& mod) {
  bool found = false;
  for (const FunctionNode* f : fusedFunctions(mainOf(mod)))
    postOrderVisit(f->body, [&](const Expr& e) {
      if (const ConstantNode* c = as<ConstantNode>(e)) found = found || c->data.ndim() > 0;
    });
  return found;
}

const TraceEvent& only(const std::vector<const TraceEvent*>& events) {
  REQUIRE(events.size() == 1);
  return *events.front();
}

}  // namespace

TEST_CASE("FuseOps: conv2d, bias_add, relu and the residual add fuse into one Primitive function", "[passes][fuse-ops][golden]") {
  PipelineRun r;
  IRModule out = r.run("InferType,FuseOps", parse(kBlock));
  CHECK(printModule(out) == kBlockFused);
  std::vector<const FunctionNode*> fused = fusedFunctions(mainOf(out));
  REQUIRE(fused.size() == 3);
  // The reduction stays alone: it does not fuse into its consumer.
  CHECK(countCalls(fused[0]->body, OpId::Conv2D) == 1);
  CHECK(countCalls(fused[0]->body, OpId::Add) == 1);
}

TEST_CASE("FuseOps: link_params off turns constants into parameters", "[passes][fuse-ops][link-params]") {
  PipelineRun r;
  IRModule out = r.run("InferType,FuseOps", parse(kBlock));
  CHECK_FALSE(fusedHoldsTensorConstant(out));
  const TraceEvent& fuse = only(r.events("FuseOps"));
  CHECK(readsOf(fuse) == std::vector<std::string>{"relay.FuseOps.max_depth=256(default)", "relay.FuseOps.link_params=None(default)",
                                                   "executor.link-params=None(default)", "target.link-params=None(default)"});
}

TEST_CASE("FuseOps: link_params from the PassContext keeps constants inline", "[passes][fuse-ops][link-params]") {
  PipelineRun r;
  r.ctx->setConfig(kFuseOpsLinkParamsKey, AttrValue::boolean(true));
  IRModule out = r.run("InferType,FuseOps", parse(kBlock));
  CHECK(fusedHoldsTensorConstant(out));
  // The config decided: the executor and the target were not consulted.
  CHECK(readsOf(only(r.events("FuseOps"))) ==
        std::vector<std::string>{"relay.FuseOps.max_depth=256(default)", "relay.FuseOps.link_params=True(PassContext)"});
  // An explicit false beats an executor that says otherwise.
  PipelineRun off;
  off.ctx->setConfig(kFuseOpsLinkParamsKey, AttrValue::boolean(false));
  IRModule mod = parse(std::string(kBlock).insert(21, "#[executor = {\"kind\": \"graph\", \"link-params\": 1}]\n"));
  CHECK_FALSE(fusedHoldsTensorConstant(off.run("InferType,FuseOps", mod)));
}

TEST_CASE("FuseOps: link_params falls back to the executor attribute, then the target", "[passes][fuse-ops][link-params]") {
  SECTION("executor link-params=1") {
    PipelineRun r;
    IRModule mod = parse(std::string(kBlock).insert(21, "#[executor = {\"kind\": \"graph\", \"link-params\": 1}]\n"));
    CHECK(fusedHoldsTensorConstant(r.run("InferType,FuseOps", mod)));
    CHECK(readsOf(only(r.events("FuseOps"))) ==
          std::vector<std::string>{"relay.FuseOps.max_depth=256(default)", "relay.FuseOps.link_params=None(default)",
                                   "executor.link-params=1(module attribute)"});
  }
  SECTION("target -link-params=1") {
    PipelineRun r;
    r.ctx->target = "llvm -link-params=1";
    CHECK(fusedHoldsTensorConstant(r.run("InferType,FuseOps", parse(kBlock))));
    CHECK(readsOf(only(r.events("FuseOps"))).back() == "target.link-params=1(target)");
  }
}

TEST_CASE("FuseOps: relay.FuseOps.max_depth bounds every group", "[passes][fuse-ops]") {
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(8), float32]) {\n  %0 = nn.relu(%x);\n";
  for (int i = 1; i < 10; ++i) text += "  %" + std::to_string(i) + " = add(%" + std::to_string(i - 1) + ", 1f);\n";
  text += "  nn.relu(%9)\n}\n";
  PipelineRun unlimited;
  CHECK(fusedFunctions(mainOf(unlimited.run("InferType,FuseOps", parse(text)))).size() == 1);
  PipelineRun bounded;
  bounded.ctx->setConfig(kFuseOpsMaxDepthKey, AttrValue::integer(4));
  IRModule out = bounded.run("InferType,FuseOps", parse(text));
  std::vector<const FunctionNode*> fused = fusedFunctions(mainOf(out));
  CHECK(fused.size() > 2);
  size_t ops = 0;
  for (const FunctionNode* f : fused) {
    // Scalar constants fuse in as nodes too, so a group of 4 nodes holds at most 4 ops.
    size_t n = countOpCalls(f->body);
    CHECK(n <= 4);
    ops += n;
  }
  CHECK(ops == 11);
  CHECK(compareModules(parse(text), out).maxAbsError == 0);
}

TEST_CASE("FuseOps: opaque ops stay alone, elementwise producers fuse into a reduction", "[passes][fuse-ops]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 3, 3), float32], %g: Tensor[(2), float32], %m: Tensor[(2), float32]) {
  %0 = nn.batch_norm(%x, %g, %g, %m, %g);
  %1 = %0.0;
  %2 = exp(%1);
  %3 = sum(%2, axis=[1]);
  %4 = shape_of(%3);
  (%3, %4)
}
)");
  PipelineRun r;
  IRModule out = r.run("InferType,FuseOps", mod);
  std::vector<const FunctionNode*> fused = fusedFunctions(mainOf(out));
  REQUIRE(fused.size() == 3);
  size_t alone = 0, reduction = 0;
  for (const FunctionNode* f : fused) {
    size_t n = countOpCalls(f->body);
    if (countCalls(f->body, OpId::BatchNorm) || countCalls(f->body, OpId::ShapeOf)) alone += n == 1;
    if (countCalls(f->body, OpId::Sum)) reduction += countCalls(f->body, OpId::Exp) == 1 && n == 2;
  }
  CHECK(alone == 2);
  CHECK(reduction == 1);
  CHECK(compareModules(mod, out).maxAbsError == 0);
}

TEST_CASE("FuseOps: fuse_opt_level=0 wraps every op alone", "[passes][fuse-ops]") {
  PipelineRun r;
  IRModule out = r.run("InferType,FuseOps{fuse_opt_level=0}", parse(kBlock));
  std::vector<const FunctionNode*> fused = fusedFunctions(mainOf(out));
  CHECK(fused.size() == 6);
  for (const FunctionNode* f : fused) CHECK(countOpCalls(f->body) == 1);
  CHECK(readsOf(only(r.events("FuseOps"))).front() == "fuse_opt_level=0(pass option)");
}

TEST_CASE("FuseOps: external-codegen and Primitive functions are skipped with a reason", "[passes][fuse-ops]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @ext(%x: Tensor[(4), float32], Compiler="ccompiler") {
  nn.relu(%x)
}
def @kernel(%x: Tensor[(4), float32], Primitive=1) {
  nn.relu(%x)
}
def @main(%x: Tensor[(4), float32]) {
  %0 = @ext(%x);
  nn.relu(%0)
}
)");
  PipelineRun r;
  IRModule out = r.run("InferType,FuseOps", mod);
  CHECK(out->lookup("ext") == mod->lookup("ext"));
  CHECK(out->lookup("kernel") == mod->lookup("kernel"));
  const TraceEvent& fuse = only(r.events("FuseOps"));
  REQUIRE(fuse.skips.size() == 2);
  CHECK(fuse.skips[0].function == "ext");
  CHECK_THAT(fuse.skips[0].reason, Catch::Contains("Compiler"));
  CHECK(fuse.skips[1].function == "kernel");
  CHECK_THAT(fuse.skips[1].reason, Catch::Contains("Primitive=1"));
  // The call to @ext is opaque: only the relu after it is wrapped.
  CHECK(fusedFunctions(mainOf(out)).size() == 1);
}

TEST_CASE("FuseOps: a function without op calls keeps its identity", "[passes][fuse-ops]") {
  IRModule mod = parse("#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(4), float32]) {\n  (%x, %x)\n}\n");
  PipelineRun r;
  CHECK(r.run("InferType,FuseOps", mod) == mod);
}

TEST_CASE("DefuseOps: FuseOps then DefuseOps gives back the unfused function", "[passes][fuse-ops][defuse-ops]") {
  for (bool linkParams : {false, true}) {
    PipelineRun r;
    r.ctx->setConfig(kFuseOpsLinkParamsKey, AttrValue::boolean(linkParams));
    IRModule mod = r.run("InferType", exampleModel("examples/seed000/cnn_fp32.relay"));
    IRModule fused = r.run("FuseOps", mod);
    IRModule defused = r.run("DefuseOps", fused);
    CHECK(fusedFunctions(mainOf(defused)).empty());
    CHECK(structuralEqual(mainOf(defused), mainOf(mod)));
    // Nothing left to defuse: the module comes back as it is.
    CHECK(r.run("DefuseOps", defused) == defused);
  }
}

TEST_CASE("FuseOps: the fused example models compute exactly what they computed before", "[passes][fuse-ops][numeric]") {
  for (const char* path : {"examples/seed000/cnn_fp32.relay", "examples/cnn_block.relay"}) {
    INFO(path);
    PipelineRun r;
    IRModule mod = r.run("InferType", exampleModel(path));
    IRModule out = r.run("FuseOps", mod);
    CHECK_FALSE(fusedFunctions(mainOf(out)).empty());
    NumericCheckResult check = compareModules(mod, out);
    CHECK(check.compared);
    CHECK(check.maxAbsError == 0);
  }
}
