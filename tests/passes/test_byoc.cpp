// BYOC: the external codegen registry, AnnotateTarget, MergeCompilerRegions,
// PartitionGraph (shapes against expected text), Inline of partitions,
// OutlineCompilerFunctions (sharing), MarkCompilerFunctionsAsExtern (stubs)
// and passes scoped to one codegen's functions.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "core/analysis/type_infer.h"
#include "core/pass/scoped_pass.h"
#include "passes/byoc_util.h"
#include "passes/external_codegen.h"
#include "passes/opt_util.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

const char* kPartition = "InferType,AnnotateTarget,MergeCompilerRegions,PartitionGraph";

std::string readExpected(const std::string& name) {
  std::ifstream in(std::string(PASSLAB_SOURCE_DIR) + "/tests/byoc/" + name);
  REQUIRE(in);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

/// Calls to Compiler function literals (regions) in `fn`.
size_t countRegions(const Expr& fn) {
  size_t n = 0;
  postOrderVisit(fn, [&](const Expr& e) { n += byoc::regionCallee(e) != nullptr; });
  return n;
}

/// Globals whose name starts with the ccompiler partition prefix.
std::vector<std::string> partitions(const IRModule& mod) {
  std::vector<std::string> out;
  for (const auto& [name, fn] : mod->functions)
    if (name.rfind("tvmgen_default_ccompiler_main_", 0) == 0) out.push_back(name);
  return out;
}

std::map<std::string, std::string> skipsOf(const TraceEvent& e) {
  std::map<std::string, std::string> out;
  for (const FunctionSkip& s : e.skips) out[s.function] = s.reason;
  return out;
}

const char* kDiamond = R"(#[version = "0.0.5"]
def @main(%a: Tensor[(4, 4), float32]) -> Tensor[(4, 4), float32] {
  %0 = abs(%a);
  %1 = negative(%0);
  %2 = transpose(%0);
  add(%1, %2)
}
)";

}  // namespace

// ---- Registry -------------------------------------------------------------------

TEST_CASE("ExternalCodegen: ccompiler takes elementwise ops, unit-stride ungrouped conv2d and dense", "[byoc]") {
  const ExternalCodegen* cc = ExternalCodegenRegistry::global().find("ccompiler");
  REQUIRE(cc);
  Var x = makeVar("x", nullptr);
  Var w = makeVar("w", nullptr);
  auto [call, supported] = GENERATE_REF(table<Expr, bool>({
      {makeOpCall(OpId::Add, {x, w}), true},
      {makeOpCall(OpId::Relu, {x}), true},
      {makeOpCall(OpId::Dense, {x, w}), true},
      {makeOpCall(OpId::Conv2D, {x, w}), true},
      {makeOpCall(OpId::Conv2D, {x, w}, {{"groups", AttrValue::integer(4)}}), false},
      {makeOpCall(OpId::Conv2D, {x, w}, {{"strides", AttrValue::ints({2, 2})}}), false},
      {makeOpCall(OpId::Transpose, {x}), false},
      {makeOpCall(OpId::BiasAdd, {x, w}), false},
  }));
  CHECK(cc->supports(*as<CallNode>(call)) == supported);
  CHECK(cc->patterns.front().partitionedFromPattern() == "nn.conv2d_nn.bias_add_nn.relu_");
  CHECK(ExternalCodegenRegistry::global().find("nope") == nullptr);
  CHECK_THROWS_AS(ExternalCodegenRegistry::global().add(makeCCompilerCodegen()), std::invalid_argument);
}

TEST_CASE("AnnotateTarget: an unknown codegen is a pipeline error naming the registered ones", "[byoc]") {
  CHECK_THROWS_WITH(parsePipeline("AnnotateTarget{compilers=[tensorrt]}", builtinRegistry()),
                    Catch::Contains("unknown external codegen 'tensorrt'; registered: ccompiler"));
}

// ---- Annotate / merge / partition ---------------------------------------------------

TEST_CASE("AnnotateTarget: every op ccompiler takes becomes a one-op region; the rest stays", "[byoc]") {
  PipelineRun r;
  IRModule mod = exampleModel("examples/seed001/cnn_nhwc.relay");
  IRModule out = r.run("InferType,AnnotateTarget", mod);
  // conv, bias_add (in the conv2d+bias_add+relu pattern), relu, relu, conv, relu; not the strided conv.
  CHECK(countRegions(mainOf(out)) == 6);
  const CallNode* strided = nullptr;
  postOrderVisit(mainOf(out), [&](const Expr& e) {
    const CallNode* c = opt_util::callTo(e, OpId::Conv2D);
    if (c && opt_util::callAttr(*c, "strides").asInts() == std::vector<int64_t>{2, 2}) strided = c;
  });
  REQUIRE(strided);
  CHECK(as<FunctionNode>(as<CallNode>(strided->args[0])->callee));  // fed by a region
  CHECK(compareModules(mod, out).maxAbsError == 0);
}

TEST_CASE("MergeCompilerRegions: merges single-use chains, keeps a producer with two users apart", "[byoc]") {
  PipelineRun r;
  IRModule mod = parse(kDiamond);
  IRModule annotated = r.run("InferType,AnnotateTarget", mod);
  CHECK(countRegions(mainOf(annotated)) == 3);  // abs, negative, add
  IRModule merged = r.run("InferType,AnnotateTarget,MergeCompilerRegions", mod);
  // abs feeds negative and transpose: merging it would need two outputs, so it stays; negative joins add.
  CHECK(countRegions(mainOf(merged)) == 2);
  NumericCheckResult check = compareModules(mod, merged);
  CHECK(check.compared);
  CHECK(check.maxAbsError == 0);
}

TEST_CASE("PartitionGraph: partitions print in TVM's shape", "[byoc]") {
  auto [model, expected] = GENERATE(table<std::string, std::string>({
      {"examples/seed001/cnn_nhwc.relay", "partition_cnn_nhwc.expected"},
      {"examples/seed003/two_blocks.relay", "partition_two_blocks.expected"},
  }));
  PipelineRun r;
  IRModule mod = exampleModel(model);
  IRModule out = r.run(kPartition, mod);
  INFO(model);
  CHECK(printModule(out) == readExpected(expected));
  CHECK(printModule(inferTypes(parse(printModule(out)))) == printModule(out));
  NumericCheckResult check = compareModules(mod, out);
  CHECK(check.compared);
  CHECK(check.maxAbsError == 0);
}

TEST_CASE("PartitionGraph: partition attributes and composite functions", "[byoc]") {
  PipelineRun r;
  IRModule out = r.run(kPartition, exampleModel("examples/seed001/cnn_nhwc.relay"));
  REQUIRE(partitions(out) == std::vector<std::string>{"tvmgen_default_ccompiler_main_0", "tvmgen_default_ccompiler_main_1"});
  const FunctionNode* p0 = out->lookupFunction("tvmgen_default_ccompiler_main_0");
  std::vector<std::string> keys;
  for (const auto& [key, value] : p0->attrs.entries()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"Compiler", "Primitive", "Inline", "global_symbol"});
  CHECK(p0->attrs.getString("global_symbol") == "tvmgen_default_ccompiler_main_0");
  CHECK(p0->params[0]->name == "ccompiler_0_i0");
  const FunctionNode* composite = as<FunctionNode>(as<CallNode>(p0->body)->callee);
  REQUIRE(composite);
  CHECK(composite->attrs.getString("Composite") == "ccompiler.conv2d_bias_relu");
  CHECK(composite->attrs.getString("PartitionedFromPattern") == "nn.conv2d_nn.bias_add_nn.relu_");
  CHECK(composite->params[0]->name == "FunctionVar_0_0");
  // The strided convolution stays in @main, between the two partitions.
  CHECK(countCalls(mainOf(out), OpId::Conv2D) == 1);
}

// ---- Inline / outline / extern ---------------------------------------------------------

TEST_CASE("OutlineCompilerFunctions: inlined partitions come back; structurally equal ones share one global", "[byoc]") {
  PipelineRun r;
  IRModule mod = exampleModel("examples/seed003/two_blocks.relay");
  IRModule inlined = r.run(std::string(kPartition) + ",Inline", mod);
  CHECK(partitions(inlined).empty());
  CHECK(countRegions(mainOf(inlined)) == 2);
  IRModule out = r.run(std::string(kPartition) + ",Inline,OutlineCompilerFunctions", mod);
  REQUIRE(partitions(out) == std::vector<std::string>{"tvmgen_default_ccompiler_main_0"});
  size_t calls = 0;
  postOrderVisit(mainOf(out), [&](const Expr& e) {
    const CallNode* c = as<CallNode>(e);
    const GlobalVarNode* g = c ? as<GlobalVarNode>(c->callee) : nullptr;
    calls += g && g->name == "tvmgen_default_ccompiler_main_0";
  });
  CHECK(calls == 2);
  CHECK(countRegions(mainOf(out)) == 0);
  // Outlining keeps every attribute, Inline=1 included.
  CHECK(out->lookupFunction("tvmgen_default_ccompiler_main_0")->attrs.getInt("Inline") == 1);
  CHECK(compareModules(mod, out).maxAbsError == 0);

  SECTION("a filter on another codegen outlines nothing") {
    IRModule none = r.run(std::string(kPartition) + ",Inline,OutlineCompilerFunctions{compiler=dnnl}", mod);
    CHECK(partitions(none).empty());
    CHECK(countRegions(mainOf(none)) == 2);
  }
}

TEST_CASE("OutlineCompilerFunctions: different partitions get different globals", "[byoc]") {
  PipelineRun r;
  IRModule mod = exampleModel("examples/seed001/cnn_nhwc.relay");
  IRModule out = r.run(std::string(kPartition) + ",Inline,OutlineCompilerFunctions", mod);
  CHECK(partitions(out).size() == 2);
  CHECK(compareModules(mod, out).maxAbsError == 0);
}

TEST_CASE("MarkCompilerFunctionsAsExtern: stubs keep only Extern=1; other functions untouched", "[byoc]") {
  PipelineRun r;
  IRModule mod = exampleModel("examples/seed003/two_blocks.relay");
  IRModule outlined = r.run(std::string(kPartition) + ",Inline,OutlineCompilerFunctions", mod);
  IRModule out = r.run("MarkCompilerFunctionsAsExtern", outlined);
  const FunctionNode* stub = out->lookupFunction("tvmgen_default_ccompiler_main_0");
  REQUIRE(stub);
  CHECK(stub->attrs == AttrDict{{"Extern", AttrValue::integer(1)}});
  CHECK(stub->body == outlined->lookupFunction("tvmgen_default_ccompiler_main_0")->body);
  CHECK(stub->params == outlined->lookupFunction("tvmgen_default_ccompiler_main_0")->params);
  CHECK(out->lookup("main") == outlined->lookup("main"));
  CHECK(compareModules(mod, out).maxAbsError == 0);

  SECTION("function passes skip the stub as extern") {
    IRModule again = r.run("SimplifyExpr", out);
    CHECK(again->lookup("tvmgen_default_ccompiler_main_0") == out->lookup("tvmgen_default_ccompiler_main_0"));
    CHECK_THAT(skipsOf(*r.events("SimplifyExpr").at(0))["tvmgen_default_ccompiler_main_0"], Catch::StartsWith("Extern=1"));
  }
  SECTION("a filter on another codegen marks nothing") {
    CHECK(r.run("MarkCompilerFunctionsAsExtern{compiler=dnnl}", outlined) == outlined);
  }
}

// ---- Scoped passes ------------------------------------------------------------------------

TEST_CASE("Scoped passes: by default ConvertLayout skips ccompiler functions and says why", "[byoc][scoped]") {
  PipelineRun r;
  IRModule partitioned = r.run(kPartition, exampleModel("examples/seed001/cnn_nhwc.relay"));
  IRModule out = r.run("ConvertLayout{kernel_layout=OHWI}", partitioned);
  for (const std::string& p : partitions(partitioned)) CHECK(out->lookup(p) == partitioned->lookup(p));
  CHECK(out->lookup("main") != partitioned->lookup("main"));
  std::map<std::string, std::string> skips = skipsOf(*r.events("ConvertLayout").at(0));
  CHECK(skips.size() == 2);
  CHECK(skips["tvmgen_default_ccompiler_main_0"] == "Compiler=\"ccompiler\": external codegen function");
}

TEST_CASE("Scoped passes: compiler=ccompiler converts only the offloaded convolutions", "[byoc][scoped]") {
  PipelineRun r;
  IRModule mod = exampleModel("examples/seed001/cnn_nhwc.relay");
  IRModule partitioned = r.run(kPartition, mod);
  IRModule out = r.run("ConvertLayout{compiler=ccompiler,kernel_layout=OHWI},FoldConstant{compiler=ccompiler}", partitioned);
  CHECK(out->lookup("main") == partitioned->lookup("main"));
  for (const std::string& p : partitions(out)) {
    const FunctionNode* fn = out->lookupFunction(p);
    INFO(p);
    CHECK(fn->attrs == partitioned->lookupFunction(p)->attrs);  // Compiler and Primitive restored, order kept
    CHECK(countCalls(out->lookup(p), OpId::LayoutTransform) == 0);  // folded into the constants
    postOrderVisit(out->lookup(p), [&](const Expr& e) {
      if (const CallNode* c = opt_util::callTo(e, OpId::Conv2D)) {
        CHECK(opt_util::callAttr(*c, "kernel_layout").asString() == "OHWI");
        CHECK(typeToString(c->args[1]->checkedType) == "Tensor[(4, 1, 1, 4), float32]");
      }
    });
  }
  CHECK(skipsOf(*r.events("ConvertLayout").at(0))["main"] ==
        "not a Compiler=\"ccompiler\" function: the pass is scoped to compiler=ccompiler");
  CHECK(r.events("ConvertLayout").at(0)->options == "compiler=ccompiler,kernel_layout=OHWI");
  NumericCheckResult check = compareModules(mod, out);
  CHECK(check.compared);
  CHECK(check.maxAbsError < 1e-5);
}

TEST_CASE("Scoped passes: the compiler option round-trips and works for every function-level pass", "[byoc][scoped]") {
  std::string pass = GENERATE(Catch::Generators::as<std::string>{}, "SimplifyExpr", "DeadCodeElimination", "EliminateCommonSubexpr",
                              "SimplifyInference", "FoldConstant", "FuseOps", "DefuseOps", "ToMixedPrecision",
                              "ConvertLayout", "FoldScaleAxis");
  PassPtr p = parsePipeline(pass + "{compiler=ccompiler}", builtinRegistry());
  CHECK(pipelineText(*p) == pass + "{compiler=ccompiler}");
  // Scoped to a codegen no function uses, nothing changes and @main is recorded as skipped.
  PipelineRun r;
  IRModule mod = exampleModel("examples/seed001/cnn_nhwc.relay");
  IRModule typed = r.run("InferType", mod);
  CHECK(r.run(pass + "{compiler=dnnl}", typed) == typed);
  CHECK_THAT(skipsOf(*r.events(pass).at(0))["main"], Catch::Contains("scoped to compiler=dnnl"));
}

TEST_CASE("Scoped passes: functions a scoped pass drops from its view stay in the module", "[byoc][scoped]") {
  PipelineRun r;
  IRModule partitioned = r.run(kPartition, exampleModel("examples/seed001/cnn_nhwc.relay"));
  // In the view nothing calls the partitions, so this pass would remove them all.
  IRModule out = r.run("DeadCodeElimination{compiler=ccompiler,remove_unused_functions=true}", partitioned);
  CHECK(partitions(out) == partitions(partitioned));
  CHECK(out->lookup("main") == partitioned->lookup("main"));
}

TEST_CASE("Scoped passes: a pass without the option rejects it", "[byoc][scoped]") {
  CHECK_THROWS_WITH(parsePipeline("InferType{compiler=ccompiler}", builtinRegistry()), Catch::Contains("has no option 'compiler'"));
}
