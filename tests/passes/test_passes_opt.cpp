// SimplifyInference, ToMixedPrecision, ConvertLayout and FoldScaleAxis, the
// registry entries of the optimization passes, and numeric equivalence of
// every optimization pass on the example models.
#include <catch2/catch.hpp>

#include "passes/fold_constant.h"
#include "passes/fuse_ops.h"
#include "passes/to_mixed_precision.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

const char* kConvBlock = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 6, 6), float32]) {
  %0 = nn.conv2d(%x, const(Tensor[(2, 3, 1, 1), float32], [0.5, -1, 0.25, 2, 0.125, -0.5]), channels=2, kernel_size=[1, 1]);
  %1 = nn.bias_add(%0, const(Tensor[(2), float32], [0.1, -0.2]));
  %2 = nn.batch_norm(%1, const(Tensor[(2), float32], [1.5, 0.5]), const(Tensor[(2), float32], [0.1, 0.2]),
                     const(Tensor[(2), float32], [0.3, -0.1]), const(Tensor[(2), float32], [2, 0.5]));
  %3 = %2.0;
  %4 = nn.relu(%3);
  %5 = nn.max_pool2d(%4, pool_size=[2, 2], strides=[2, 2]);
  %6 = add(%5, const(Tensor[(2, 1, 1), float32], [1, 2]));
  nn.softmax(%6, axis=1)
}
)";

bool hasDtype(const Expr& fn, DTypeCode code) {
  bool found = false;
  postOrderVisit(fn, [&](const Expr& e) {
    if (const TensorTypeNode* t = as<TensorTypeNode>(e->checkedType)) found = found || t->dtype == code;
  });
  return found;
}

const CallNode* firstCall(const Expr& fn, OpId id) {
  const CallNode* found = nullptr;
  postOrderVisit(fn, [&](const Expr& e) {
    const CallNode* c = as<CallNode>(e);
    if (!found && c && c->op() && c->op()->id == id) found = c;
  });
  return found;
}

}  // namespace

// ---- SimplifyInference ----------------------------------------------------------

TEST_CASE("SimplifyInference: batch_norm element 0 becomes multiply and add with expanded scale and shift",
          "[passes][simplify-inference]") {
  PipelineRun r;
  IRModule mod = parse(kConvBlock);
  IRModule out = r.run("InferType,SimplifyInference", mod);
  CHECK(countCalls(mainOf(out), OpId::BatchNorm) == 0);
  const CallNode* expand = firstCall(mainOf(out), OpId::ExpandDims);
  REQUIRE(expand);
  CHECK(typeToString(expand->checkedType) == "Tensor[(2, 1, 1), float32]");
  NumericCheckResult check = compareModules(mod, out);
  CHECK(check.compared);
  CHECK(check.maxRelError < 1e-6);
}

TEST_CASE("SimplifyInference: other batch_norm elements keep the call, as TVM leaves them", "[passes][simplify-inference]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 2, 2), float32], %g: Tensor[(2), float32]) {
  %0 = nn.batch_norm(%x, %g, %g, %g, %g, center=False);
  (%0.0, %0.1)
}
)");
  PipelineRun r;
  IRModule out = r.run("InferType,SimplifyInference", mod);
  CHECK(countCalls(mainOf(out), OpId::BatchNorm) == 1);
  // center=False: no shift from beta, only the mean's.
  CHECK(countCalls(mainOf(out), OpId::Negative) == 1);
  CHECK(compareModules(mod, out).maxRelError < 1e-6);
}

TEST_CASE("SimplifyInference: layer_norm becomes mean, variance and elementwise ops", "[passes][simplify-inference]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 3, 4), float32]) {
  nn.layer_norm(%x, const(Tensor[(4), float32], [1, 2, 0.5, 1]), const(Tensor[(4), float32], [0, 0.5, 1, -1]), epsilon=0.001f)
}
)");
  PipelineRun r;
  IRModule out = r.run("InferType,SimplifyInference", mod);
  CHECK(countCalls(mainOf(out), OpId::LayerNorm) == 0);
  CHECK(countCalls(mainOf(out), OpId::Mean) == 2);
  CHECK(compareModules(mod, out).maxRelError < 1e-5);
}

// ---- ToMixedPrecision -------------------------------------------------------------

TEST_CASE("ToMixedPrecision: conv2d computes in float16 and constants become real float16 data", "[passes][mixed-precision]") {
  PipelineRun r;
  IRModule mod = parse(kConvBlock);
  IRModule out = r.run("InferType,ToMixedPrecision", mod);
  const CallNode* conv = firstCall(mainOf(out), OpId::Conv2D);
  REQUIRE(conv);
  CHECK(typeToString(conv->checkedType) == "Tensor[(1, 2, 6, 6), float16]");
  CHECK(conv->attrs.getString("out_dtype") == "float16");
  const ConstantNode* weight = as<ConstantNode>(conv->args[1]);
  REQUIRE(weight);
  CHECK(weight->data.dtype() == DTypeCode::Float16);
  CHECK(weight->data.getAsDouble(4) == 0.125);
  // The input is cast once; parameters keep their types.
  CHECK(typeToString(as<FunctionNode>(mainOf(out))->params[0]->annotation) == "Tensor[(1, 3, 6, 6), float32]");
  CHECK(countCalls(mainOf(out), OpId::Cast) >= 1);
  // batch_norm follows (its statistics are constants), softmax is never float16.
  const CallNode* bn = firstCall(mainOf(out), OpId::BatchNorm);
  REQUIRE(bn);
  CHECK(as<ConstantNode>(bn->args[1])->data.dtype() == DTypeCode::Float16);
  const CallNode* softmax = firstCall(mainOf(out), OpId::Softmax);
  REQUIRE(softmax);
  CHECK(typeToString(softmax->checkedType) == "Tensor[(1, 2, 3, 3), float32]");
  NumericCheckResult check = compareModules(mod, out);
  CHECK(check.compared);
  CHECK(check.maxRelError < 1e-2);
  CHECK(check.maxAbsError > 0);
}

TEST_CASE("ToMixedPrecision: accumulation dtype and keep_orig_output_dtype come from the config", "[passes][mixed-precision]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4), float32]) {
  %0 = nn.dense(%x, const(Tensor[(2, 4), float32], [1, 2, 3, 4, 5, 6, 7, 8]), units=2);
  nn.relu(%0)
}
)");
  SECTION("defaults: float16 accumulation and a float16 result") {
    PipelineRun r;
    IRModule out = r.run("InferType,ToMixedPrecision", mod);
    CHECK(typeToString(as<FunctionNode>(mainOf(out))->body->checkedType) == "Tensor[(1, 2), float16]");
    CHECK(firstCall(mainOf(out), OpId::Dense)->attrs.getString("out_dtype") == "float16");
    const TraceEvent& e = *r.events("ToMixedPrecision").front();
    CHECK(readsOf(e) == std::vector<std::string>{"relay.ToMixedPrecision.keep_orig_output_dtype=False(default)",
                                                 "relay.ToMixedPrecision.accumulation_dtype=\"float16\"(default)"});
  }
  SECTION("float32 accumulation casts the result; keep_orig_output_dtype casts the output back") {
    PipelineRun r;
    r.ctx->setConfig(kAccumulationDtypeKey, AttrValue::string("float32"));
    r.ctx->setConfig(kKeepOrigOutputDtypeKey, AttrValue::boolean(true));
    IRModule out = r.run("InferType,ToMixedPrecision", mod);
    const CallNode* dense = firstCall(mainOf(out), OpId::Dense);
    CHECK(dense->attrs.getString("out_dtype") == "float32");
    CHECK(typeToString(dense->checkedType) == "Tensor[(1, 2), float32]");
    CHECK(hasDtype(mainOf(out), DTypeCode::Float16));
    CHECK(typeToString(as<FunctionNode>(mainOf(out))->body->checkedType) == "Tensor[(1, 2), float32]");
    CHECK(compareModules(mod, out).maxRelError < 1e-3);
  }
  SECTION("an unknown accumulation dtype fails the pass") {
    PipelineRun r;
    r.ctx->setConfig(kAccumulationDtypeKey, AttrValue::string("int8"));
    CHECK_THROWS_AS(r.run("InferType,ToMixedPrecision", mod), PassFailure);
  }
}

TEST_CASE("ToMixedPrecision: constant expressions get a cast that FoldConstant folds into float16 constants",
          "[passes][mixed-precision][fold-constant]") {
  PipelineRun r;
  IRModule mod = r.run("InferType,SimplifyInference", exampleModel("examples/seed000/cnn_fp32.relay"));
  IRModule mixed = r.run("ToMixedPrecision", mod);
  size_t casts = countCalls(mainOf(mixed), OpId::Cast);
  IRModule folded = r.run("FoldConstant", mixed);
  CHECK(countCalls(mainOf(folded), OpId::Cast) < casts);
  CHECK(countCalls(mainOf(folded), OpId::Sqrt) == 0);
  CHECK(compareModules(mixed, folded).maxAbsError == 0);
  CHECK(compareModules(mod, folded).maxRelError < 1e-2);
}

// ---- ConvertLayout --------------------------------------------------------------

TEST_CASE("ConvertLayout: NHWC/HWIO convolutions with the layout flowing through bias, batch_norm, relu and pooling",
          "[passes][convert-layout]") {
  PipelineRun r;
  IRModule mod = parse(kConvBlock);
  IRModule out = r.run("InferType,ConvertLayout{data_layout=NHWC,kernel_layout=HWIO}", mod);
  const CallNode* conv = firstCall(mainOf(out), OpId::Conv2D);
  REQUIRE(conv);
  CHECK(conv->attrs.getString("data_layout") == "NHWC");
  CHECK(conv->attrs.getString("kernel_layout") == "HWIO");
  CHECK(firstCall(mainOf(out), OpId::BiasAdd)->attrs.getInt("axis") == 3);
  CHECK(firstCall(mainOf(out), OpId::BatchNorm)->attrs.getInt("axis") == 3);
  CHECK(firstCall(mainOf(out), OpId::MaxPool2D)->attrs.getString("layout") == "NHWC");
  // Data in, kernel, the (2, 1, 1) constant of the add (CHW -> HWC) and the way back before softmax.
  CHECK(countCalls(mainOf(out), OpId::LayoutTransform) == 4);
  CHECK(typeToString(as<FunctionNode>(mainOf(out))->body->checkedType) == "Tensor[(1, 2, 3, 3), float32]");
  CHECK(compareModules(mod, out).maxRelError < 1e-6);
  CHECK(readsOf(*r.events("ConvertLayout").front()) ==
        std::vector<std::string>{"data_layout=\"NHWC\"(pass option)", "kernel_layout=\"HWIO\"(pass option)"});
}

TEST_CASE("ConvertLayout: constant kernels are transformed by layout_transform that FoldConstant folds", "[passes][convert-layout]") {
  PipelineRun r;
  IRModule mod = parse(kConvBlock);
  IRModule out = r.run("InferType,ConvertLayout{data_layout=NHWC,kernel_layout=OHWI},FoldConstant", mod);
  const CallNode* conv = firstCall(mainOf(out), OpId::Conv2D);
  REQUIRE(conv);
  const ConstantNode* kernel = as<ConstantNode>(conv->args[1]);
  REQUIRE(kernel);
  CHECK(kernel->data.shape() == std::vector<int64_t>{2, 1, 1, 3});
  CHECK(countCalls(mainOf(out), OpId::LayoutTransform) == 2);  // only the run-time data in and out
  CHECK(compareModules(mod, out).maxRelError < 1e-6);
}

TEST_CASE("ConvertLayout: NHWC back to NCHW, options validated, nothing to do keeps identity", "[passes][convert-layout]") {
  PipelineRun r;
  IRModule nhwc = r.run("InferType,ConvertLayout", parse(kConvBlock));
  IRModule back = r.run("ConvertLayout{data_layout=NCHW}", nhwc);
  const CallNode* conv = firstCall(mainOf(back), OpId::Conv2D);
  CHECK(attrOrDefault(*conv->op(), conv->attrs, "data_layout").asString() == "NCHW");
  CHECK(attrOrDefault(*conv->op(), conv->attrs, "kernel_layout").asString() == "OIHW");
  CHECK(compareModules(parse(kConvBlock), back).maxRelError < 1e-6);
  CHECK(r.run("ConvertLayout{data_layout=NCHW}", back) == back);
  CHECK_THROWS_AS(parsePipeline("ConvertLayout{data_layout=NCWH}", builtinRegistry()), DiagnosticError);
  CHECK_THROWS_AS(parsePipeline("ConvertLayout{kernel_layout=IOHW}", builtinRegistry()), DiagnosticError);
}

// ---- FoldScaleAxis ----------------------------------------------------------------

TEST_CASE("FoldScaleAxis: a per-channel scale after conv2d (through bias_add) folds into the weights", "[passes][fold-scale-axis]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(3, 2, 3, 3), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=3, kernel_size=[3, 3]);
  %1 = nn.bias_add(%0, const(Tensor[(3), float32], [1, 2, 3]));
  multiply(%1, const(Tensor[(3, 1, 1), float32], [0.5, 2, -1]))
}
)");
  PipelineRun r;
  IRModule out = r.run("InferType,FoldScaleAxis", mod);
  const FunctionNode& fn = *as<FunctionNode>(mainOf(out));
  const CallNode* bias = as<CallNode>(fn.body);
  REQUIRE(bias);
  CHECK(bias->op()->id == OpId::BiasAdd);
  const CallNode* conv = as<CallNode>(bias->args[0]);
  REQUIRE(conv);
  const CallNode* scaledWeight = as<CallNode>(conv->args[1]);
  REQUIRE(scaledWeight);
  CHECK(scaledWeight->op()->id == OpId::Multiply);
  CHECK(as<ConstantNode>(scaledWeight->args[1])->data.shape() == std::vector<int64_t>{3, 1, 1, 1});
  CHECK(compareModules(mod, out).maxRelError < 1e-6);
}

TEST_CASE("FoldScaleAxis: dense output scales, input scales before conv2d and through a relu", "[passes][fold-scale-axis]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 1, 1), float32], %d: Tensor[(3, 32), float32]) {
  %0 = multiply(%x, const(Tensor[(2, 1, 1), float32], [2, 0.5]));
  %1 = nn.relu(%0);
  %2 = nn.conv2d(%1, %w, channels=2, kernel_size=[1, 1]);
  %3 = reshape(%2, newshape=[1, 32]);
  %4 = nn.dense(%3, %d, units=3);
  multiply(%4, const(Tensor[(3), float32], [1, -2, 3]))
}
)");
  PipelineRun r;
  IRModule out = r.run("InferType,FoldScaleAxis", mod);
  // Both multiplies of activations are gone; the conv and dense weights carry the scales instead.
  CHECK(countCalls(mainOf(out), OpId::Multiply) == 2);
  CHECK(as<CallNode>(as<FunctionNode>(mainOf(out))->body)->op()->id == OpId::Dense);
  CHECK(compareModules(mod, out).maxRelError < 1e-6);
}

TEST_CASE("FoldScaleAxis: a negative scale does not cross a relu, a shared conv is not rewritten", "[passes][fold-scale-axis]") {
  IRModule mod = parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 1, 1), float32]) {
  %0 = multiply(%x, const(Tensor[(2, 1, 1), float32], [-2, 0.5]));
  %1 = nn.relu(%0);
  %2 = nn.conv2d(%1, %w, channels=2, kernel_size=[1, 1]);
  %3 = multiply(%2, const(Tensor[(2, 1, 1), float32], [3, 4]));
  (%2, %3)
}
)");
  PipelineRun r;
  CHECK(r.run("InferType,FoldScaleAxis", mod) == mod);
}

// ---- Registry and equivalence -------------------------------------------------------

TEST_CASE("Optimization passes: registered with TVM's opt levels, options and typed config keys", "[passes][registry]") {
  struct Expected {
    const char* name;
    int optLevel;
  };
  for (Expected e : {Expected{"SimplifyInference", 0}, Expected{"FoldConstant", 2}, Expected{"FuseOps", 0}, Expected{"DefuseOps", 0},
                     Expected{"ToMixedPrecision", 0}, Expected{"ConvertLayout", 3}, Expected{"FoldScaleAxis", 3}}) {
    INFO(e.name);
    const PassRegistration* r = builtinRegistry().find(e.name);
    REQUIRE(r);
    CHECK(r->info.optLevel == e.optLevel);
    CHECK_FALSE(r->info.description.empty());
    CHECK_FALSE(r->info.guarantees.empty());
    CHECK(builtinRegistry().create(e.name)->info().name == e.name);
  }
  struct Key {
    const char* key;
    AttrValue::Kind kind;
    AttrValue value;
  };
  for (const Key& k : {Key{kFuseOpsMaxDepthKey, AttrValue::Kind::Int, AttrValue::integer(256)},
                       Key{kFuseOpsLinkParamsKey, AttrValue::Kind::Bool, AttrValue::boolean(false)},
                       Key{kFoldConstantLeakKey, AttrValue::Kind::Bool, AttrValue::boolean(false)},
                       Key{kKeepOrigOutputDtypeKey, AttrValue::Kind::Bool, AttrValue::boolean(false)},
                       Key{kAccumulationDtypeKey, AttrValue::Kind::String, AttrValue::string("float16")}}) {
    const ConfigKeyInfo* info = ConfigRegistry::global().find(k.key);
    REQUIRE(info);
    CHECK(info->kind == k.kind);
    CHECK(info->defaultValue == k.value);
    CHECK_FALSE(info->description.empty());
  }
  CHECK(pipelineText(*parsePipeline("FuseOps{fuse_opt_level=-1},ConvertLayout{data_layout=NHWC},ToMixedPrecision", builtinRegistry())) ==
        "FuseOps,ConvertLayout,ToMixedPrecision");
  CHECK(pipelineText(*parsePipeline("FuseOps{fuse_opt_level=1},ConvertLayout{kernel_layout=OHWI}", builtinRegistry())) ==
        "FuseOps{fuse_opt_level=1},ConvertLayout{kernel_layout=OHWI}");
}

TEST_CASE("Optimization passes: every pass keeps the example models' numbers", "[passes][numeric]") {
  struct Case {
    const char* pipeline;
    double tolerance;
  };
  for (const char* path : {"examples/seed000/cnn_fp32.relay", "examples/cnn_block.relay"}) {
    for (Case c : {Case{"SimplifyInference", 1e-6}, Case{"FoldConstant", 0}, Case{"FuseOps", 0}, Case{"FuseOps,DefuseOps", 0},
                   Case{"ConvertLayout", 1e-6}, Case{"SimplifyInference,FoldConstant,FoldScaleAxis,FoldConstant", 1e-5},
                   Case{"ToMixedPrecision", 2e-2}, Case{"SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps", 2e-2}}) {
      INFO(path << ": " << c.pipeline);
      PipelineRun r;
      IRModule mod = r.run("InferType", exampleModel(path));
      IRModule out = r.run(c.pipeline, mod);
      NumericCheckResult check = compareModules(mod, out, 7);
      CHECK(check.compared);
      CHECK(check.maxRelError <= c.tolerance);
    }
  }
}
