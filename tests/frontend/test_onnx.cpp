// ONNX importer tests: printed IR of imported backend-test models, spans that
// name the ONNX node, input-shape binding and name sanitizing, float16,
// needs-constant bindings, unsupported ops and attributes, corrupt files, the
// text/ONNX dispatch of loadModelFile, and the conformance comparison.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <fstream>
#include <sstream>

#include "core/analysis/type_infer.h"
#include "core/frontend/load_model.h"
#include "core/frontend/onnx_importer.h"
#include "core/frontend/onnx_tensor.h"

#include <onnx/onnx_pb.h>
#include "core/interp/interpreter.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "core/ir/shape_expr.h"

using namespace passlab;

namespace {

const std::string kNodeTests = "/usr/share/libonnx-testdata/data/node/";
const std::string kFixtures = std::string(PASSLAB_SOURCE_DIR) + "/tests/data/onnx/";

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The message of the DiagnosticError `f` throws (fails the test if none).
template <class F>
Diagnostic diagnosticOf(F&& f) {
  try {
    f();
  } catch (const DiagnosticError& e) {
    return e.diagnostics().front();
  }
  FAIL("expected a DiagnosticError");
  return {};
}

/// parse(print(m)), with types inferred again, prints as print(m): the
/// imported IR is valid text and names survive the round trip.
void requireRoundTrip(const IRModule& mod) {
  std::string text = printModule(mod);
  REQUIRE(printModule(inferTypes(parseModule(text, "<roundtrip>"))) == text);
}

/// Runs @main of `mod` on `args` with the reference interpreter.
std::vector<NDArray> run(const IRModule& mod, const std::vector<NDArray>& args) {
  Value v = evaluate(mod, "main", std::vector<Value>(args.begin(), args.end()));
  if (v.isTensor()) return {v.tensor()};
  std::vector<NDArray> out;
  for (const Value& f : v.fields()) out.push_back(f.tensor());
  return out;
}

NDArray floats(std::vector<int64_t> shape, const std::vector<double>& values, DataType dtype = DTypeCode::Float32) {
  NDArray a(dtype, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) a.setFromDouble(static_cast<int64_t>(i), values[i]);
  return a;
}

const FunctionNode& mainOf(const IRModule& mod) {
  const FunctionNode* fn = mod->lookupFunction("main");
  REQUIRE(fn != nullptr);
  return *fn;
}

}  // namespace

TEST_CASE("ONNX: printed IR of node tests", "[onnx]") {
  SECTION("conv with strides and padding") {
    IRModule mod = importOnnx(kNodeTests + "test_conv_with_strides_padding/model.onnx");
    CHECK(printModule(mod) ==
          "#[version = \"0.0.5\"]\n"
          "#[phase = 0]\n"
          "def @main(%x: Tensor[(1, 1, 7, 5), float32], %W: Tensor[(1, 1, 3, 3), float32]) -> Tensor[(1, 1, 4, 3), float32] {\n"
          "  nn.conv2d(%x, %W, strides=[2, 2], padding=[1, 1, 1, 1], channels=1, kernel_size=[3, 3]) /* ty=Tensor[(1, 1, 4, 3), float32] */\n"
          "}\n");
    requireRoundTrip(mod);
  }
  SECTION("gemm with alpha, beta and transposed A") {
    IRModule mod = importOnnx(kNodeTests + "test_gemm_all_attributes/model.onnx");
    CHECK(printModule(mod) ==
          "#[version = \"0.0.5\"]\n"
          "#[phase = 0]\n"
          "def @main(%a: Tensor[(4, 3), float32], %b: Tensor[(5, 4), float32], %c: Tensor[(1, 5), float32]) -> Tensor[(3, 5), float32] {\n"
          "  %0 = transpose(%a, axes=[1, 0]) /* ty=Tensor[(3, 4), float32] */;\n"
          "  %1 = nn.dense(%0, %b, units=5) /* ty=Tensor[(3, 5), float32] */;\n"
          "  %2 = multiply(%1, 0.25f /* ty=float32 */) /* ty=Tensor[(3, 5), float32] */;\n"
          "  %3 = multiply(%c, 0.35f /* ty=float32 */) /* ty=Tensor[(1, 5), float32] */;\n"
          "  add(%2, %3) /* ty=Tensor[(3, 5), float32] */\n"
          "}\n");
    requireRoundTrip(mod);
  }
  SECTION("reshape whose shape input is bound to a constant") {
    OnnxImportOptions options;
    options.inputValues["shape"] = readOnnxTensorFile(kNodeTests + "test_reshape_negative_dim/test_data_set_0/input_1.pb").data;
    OnnxImport imported = importOnnxWithInfo(kNodeTests + "test_reshape_negative_dim/model.onnx", options);
    // The bound input is no parameter any more; -1 is resolved at import.
    CHECK(imported.info.paramNames == std::vector<std::string>{"data"});
    CHECK(printModule(imported.module) ==
          "#[version = \"0.0.5\"]\n"
          "#[phase = 0]\n"
          "def @main(%data: Tensor[(2, 3, 4), float32]) -> Tensor[(2, 6, 2), float32] {\n"
          "  reshape(%data, newshape=[2, 6, 2]) /* ty=Tensor[(2, 6, 2), float32] */\n"
          "}\n");
    requireRoundTrip(imported.module);
  }
}

TEST_CASE("ONNX: imported models compute the expected outputs", "[onnx]") {
  for (const char* name : {"test_split_equal_parts_1d", "test_softmax_axis_1", "test_maxpool_2d_same_upper", "test_matmul_4d",
                           "test_resize_downsample_scales_linear", "test_sin", "test_acosh", "test_reduce_prod_do_not_keepdims_random",
                           "test_argmax_keepdims_random_select_last_index", "test_argmin_no_keepdims_example", "test_mod_mixed_sign_int32",
                           "test_mod_mixed_sign_float32"}) {
    INFO(name);
    std::string dir = kNodeTests + name;
    OnnxImportOptions options;
    std::map<std::string, NDArray> inputs;
    OnnxModelSummary summary = summarizeOnnxModel(dir + "/model.onnx");
    for (size_t i = 0; i < summary.runtimeInputs.size(); ++i)
      inputs[summary.runtimeInputs[i]] = readOnnxTensorFile(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb").data;
    // Resize's scales decide the output shape: bind them, as the runner does.
    if (inputs.count("scales")) options.inputValues["scales"] = inputs["scales"];
    OnnxImport imported = importOnnxWithInfo(dir + "/model.onnx", options);
    std::vector<NDArray> args;
    for (const std::string& p : imported.info.paramNames) args.push_back(inputs.at(p));
    std::vector<NDArray> outputs = run(imported.module, args);
    REQUIRE(outputs.size() == imported.info.outputNames.size());
    for (size_t k = 0; k < outputs.size(); ++k) {
      NDArray expected = readOnnxTensorFile(dir + "/test_data_set_0/output_" + std::to_string(k) + ".pb").data;
      REQUIRE(outputs[k].shape() == expected.shape());
      for (int64_t i = 0; i < expected.numElements(); ++i)
        REQUIRE(outputs[k].getAsDouble(i) == Approx(expected.getAsDouble(i)).epsilon(1e-4).margin(1e-6));
    }
  }
}

TEST_CASE("ONNX: Upsample repeats pixels (asymmetric, floor)", "[onnx]") {
  IRModule mod = importOnnx(kFixtures + "upsample_nearest.onnx");
  CHECK_THAT(printModule(mod), Catch::Contains("image.resize2d(%x, size=[4, 6], method=\"nearest_neighbor\""));
  std::vector<NDArray> out = run(mod, {floats({1, 1, 2, 2}, {1, 2, 3, 4})});
  REQUIRE(out[0].shape() == std::vector<int64_t>{1, 1, 4, 6});
  std::vector<double> expected = {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4};
  for (int64_t i = 0; i < 24; ++i) CHECK(out[0].getAsDouble(i) == expected[i]);
}

TEST_CASE("ONNX: every expression remembers its ONNX node", "[onnx]") {
  std::string path = kNodeTests + "test_gemm_all_attributes/model.onnx";
  IRModule mod = importOnnx(path);
  const FunctionNode& fn = mainOf(mod);
  // The body and all four expressions Gemm became point at the Gemm node's
  // line of the model listing, in a source named after the file.
  const auto* add = as<CallNode>(fn.body);
  REQUIRE(add != nullptr);
  for (const Expr& e : {fn.body, add->args[0], add->args[1], as<CallNode>(add->args[0])->args[0]}) {
    REQUIRE(e->span.known());
    CHECK(e->span.file->name == path);
    CHECK(std::string(e->span.file->lineText(e->span.line)).rfind("node 0 Gemm: (a, b, c) -> (y)", 0) == 0);
  }
  // Parameters point at their graph-input lines.
  CHECK(std::string(fn.params[0]->span.file->lineText(fn.params[0]->span.line)) == "input a: float32[4, 3]");
}

TEST_CASE("ONNX: input-shape binding and name sanitizing", "[onnx]") {
  std::string path = kFixtures + "dynamic_relu.onnx";
  SECTION("a named dimension imports as a shape variable") {
    IRModule mod = importOnnx(path);
    const auto* t = as<TensorTypeNode>(mod->lookupFunction("main")->params[0]->annotation);
    REQUIRE(t);
    REQUIRE(t->hasSymbolicDim());
    CHECK(shape::toScript(t->symbolicDim(0)) == "N");
  }
  SECTION("an unnamed unknown dimension needs a binding") {
    Diagnostic d = diagnosticOf([&] { importOnnx(kFixtures + "unknown_dim_relu.onnx"); });
    CHECK(d.rule == "onnx.dynamic-shape");
    CHECK_THAT(d.message, Catch::Contains("'x'") && Catch::Contains("--input-shape x="));
    CHECK(d.span.known());
  }
  SECTION("bound, the model imports with the bound shape and sanitized names") {
    OnnxImportOptions options;
    options.inputShapes.insert(parseInputShapeBinding("input.1=2,3"));
    OnnxImport imported = importOnnxWithInfo(path, options);
    CHECK(printModule(imported.module) ==
          "#[version = \"0.0.5\"]\n"
          "#[phase = 0]\n"
          "def @main(%input_1: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] {\n"
          "  nn.relu(%input_1) /* ty=Tensor[(2, 3), float32] */\n"
          "}\n");
    CHECK(imported.info.paramNames == std::vector<std::string>{"input.1"});
    CHECK(imported.info.outputNames == std::vector<std::string>{"0"});
    requireRoundTrip(imported.module);
    std::vector<NDArray> out = run(imported.module, {floats({2, 3}, {-1, 2, -3, 4, 0, -0.5})});
    std::vector<double> expected = {0, 2, 0, 4, 0, 0};
    for (int64_t i = 0; i < 6; ++i) CHECK(out[0].getAsDouble(i) == expected[i]);
  }
  SECTION("a binding must agree with the declared static dimensions and rank") {
    OnnxImportOptions options;
    options.inputShapes["input.1"] = {2, 4};
    CHECK(diagnosticOf([&] { importOnnx(path, options); }).rule == "onnx.input-shape");
    options.inputShapes["input.1"] = {2, 3, 1};
    CHECK_THAT(diagnosticOf([&] { importOnnx(path, options); }).message, Catch::Contains("rank 3"));
  }
  SECTION("binding syntax") {
    CHECK(parseInputShapeBinding("data=1,3,48,192") == std::make_pair(std::string("data"), std::vector<int64_t>{1, 3, 48, 192}));
    CHECK(parseInputShapeBinding("a=b=7") == std::make_pair(std::string("a=b"), std::vector<int64_t>{7}));
    CHECK(parseInputShapeBinding("scalar=").second.empty());
    for (const char* bad : {"x", "=1,2", "x=1,,2", "x=1,", "x=a", "x=-1"})
      CHECK(diagnosticOf([&] { parseInputShapeBinding(bad); }).rule == "onnx.input-shape");
  }
  SECTION("sanitized spellings") {
    CHECK(sanitizeOnnxName("input.1") == "input_1");
    CHECK(sanitizeOnnxName("0") == "v0");
    CHECK(sanitizeOnnxName("") == "v");
    CHECK(sanitizeOnnxName("x:0/y") == "x_0_y");
    CHECK(sanitizeOnnxName("Already_fine9") == "Already_fine9");
  }
}

TEST_CASE("ONNX: float16 models import as float16", "[onnx]") {
  IRModule mod = importOnnx(kFixtures + "float16_add.onnx");
  const FunctionNode& fn = mainOf(mod);
  CHECK(typeToString(fn.params[0]->annotation) == "Tensor[(3), float16]");
  const auto* add = as<CallNode>(fn.body);
  REQUIRE(add != nullptr);
  const auto* bias = as<ConstantNode>(add->args[1]);
  REQUIRE(bias != nullptr);
  CHECK(bias->data.dtype() == DataType(DTypeCode::Float16));
  CHECK(bias->data.values<uint16_t>()[2] == 0xb800);  // -0.5, bit for bit
  CHECK(typeToString(fn.body->checkedType) == "Tensor[(3), float16]");
  std::vector<NDArray> out = run(mod, {floats({3}, {1, -3, 0.25}, DTypeCode::Float16)});
  REQUIRE(out[0].dtype() == DataType(DTypeCode::Float16));
  CHECK(out[0].getAsDouble(0) == 2.0);
  CHECK(out[0].getAsDouble(1) == -1.0);
  CHECK(out[0].getAsDouble(2) == -0.25);
  requireRoundTrip(mod);
}

TEST_CASE("ONNX: shape-deciding graph inputs must be bound", "[onnx]") {
  std::string path = kNodeTests + "test_reshape_negative_dim/model.onnx";
  try {
    importOnnx(path);
    FAIL("expected OnnxNeedsConstantError");
  } catch (const OnnxNeedsConstantError& e) {
    CHECK(e.inputs() == std::vector<std::string>{"shape"});
    CHECK(e.diagnostics().front().rule == "onnx.needs-constant");
    CHECK_THAT(e.diagnostics().front().message, Catch::Contains("Reshape node #0 (opset") && Catch::Contains("'shape'"));
  }
}

TEST_CASE("ONNX: unsupported ops and attributes are errors naming op, node and opset", "[onnx]") {
  SECTION("unknown op") {
    std::string path = kFixtures + "unsupported_op.onnx";
    Diagnostic d = diagnosticOf([&] { importOnnx(path); });
    CHECK(d.rule == "onnx.unsupported-op");
    CHECK(d.message == "unsupported ONNX op 'FrobnicateNd' in node 'frob_1' (opset 13)");
    // The span points at the node's line of the listing, named after the file.
    CHECK(d.span.file->name == path);
    CHECK(std::string(d.span.file->lineText(d.span.line)) == "node 1 FrobnicateNd \"frob_1\": (h) -> (y)");
    CHECK_THAT(d.render(), Catch::StartsWith(path + ":"));
  }
  SECTION("unknown attribute") {
    Diagnostic d = diagnosticOf([&] { importOnnx(kFixtures + "unsupported_attr.onnx"); });
    CHECK(d.rule == "onnx.unsupported-attribute");
    CHECK(d.message == "LeakyRelu node 'lrelu' (opset 11): unsupported attribute 'gamma'");
  }
  SECTION("an op of the table with an unsupported form") {
    Diagnostic d = diagnosticOf([] { importOnnx("/usr/share/libonnx-testdata/data/pytorch-converted/test_Conv3d/model.onnx"); });
    CHECK(d.rule == "onnx.unsupported-attribute");
    CHECK_THAT(d.message, Catch::StartsWith("Conv node #0 (opset 6): unsupported 3-d Conv"));
  }
  SECTION("an op outside the table") {
    Diagnostic d = diagnosticOf([] { importOnnx(kNodeTests + "test_cumsum_1d/model.onnx"); });
    CHECK(d.message == "unsupported ONNX op 'CumSum' in node #0 (opset 14)");
  }
}

/// A model whose graph holds an If whose then-branch holds an If ... `levels`
/// deep, serialized: each level is three nested messages (graph, node, attribute).
std::string nestedIfModel(int levels) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  onnx::GraphProto* g = model.mutable_graph();
  for (int i = 0; i < levels; ++i) {
    g->set_name("g" + std::to_string(i));
    g->add_output()->set_name("y");
    onnx::NodeProto* n = g->add_node();
    n->set_op_type("If");
    n->add_input("c");
    n->add_output("y");
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name("then_branch");
    a->set_type(onnx::AttributeProto::GRAPH);
    g = a->mutable_g();
  }
  g->add_output()->set_name("y");
  return model.SerializeAsString();
}

TEST_CASE("ONNX: subgraphs nested past the nesting limit are a clear error", "[onnx][limits]") {
  // protobuf's default limit (100 messages) would call a 40-level model corrupt;
  // passlab's limit is its parsers' 512, and deeper says so.
  Diagnostic shallow = diagnosticOf([] { importOnnxBytes(nestedIfModel(40), "if40.onnx"); });
  CHECK_THAT(shallow.message, Catch::Contains("unsupported ONNX op 'If'"));
  Diagnostic deep = diagnosticOf([] { importOnnxBytes(nestedIfModel(300), "if300.onnx"); });
  CHECK(deep.rule == "onnx.parse");
  CHECK_THAT(deep.message, Catch::Contains("deeper than 512 levels, passlab's nesting limit"));
  Diagnostic deeper = diagnosticOf([] { importOnnxBytes(nestedIfModel(1000), "if1000.onnx"); });
  CHECK_THAT(deeper.message, Catch::Contains("more than 2048 levels deep"));
}

TEST_CASE("ONNX: corrupt, truncated and foreign files are clear errors", "[onnx]") {
  std::string model = readBytes(kNodeTests + "test_conv_with_strides_padding/model.onnx");
  SECTION("truncated at every length") {
    // Each prefix either imports (a prefix can end on a field boundary) or is
    // a DiagnosticError; never a crash or another exception.
    size_t errors = 0;
    for (size_t n = 0; n < model.size(); ++n) {
      try {
        importOnnxBytes(std::string_view(model).substr(0, n), "cut.onnx");
      } catch (const DiagnosticError& e) {
        CHECK_THAT(e.diagnostics().front().message, Catch::Contains("cut.onnx"));
        ++errors;
      }
    }
    CHECK(errors > model.size() / 2);
    Diagnostic d = diagnosticOf([&] { importOnnxBytes(std::string_view(model).substr(0, model.size() / 2), "half.onnx"); });
    CHECK(d.rule == "onnx.parse");
    CHECK_THAT(d.message, Catch::Contains("corrupt or truncated"));
  }
  SECTION("garbage") {
    for (std::string bytes : {std::string("this is not an ONNX model\n"), std::string(""), std::string(64, '\xff'),
                              std::string("\x08\x07\x12\x00")}) {
      Diagnostic d = diagnosticOf([&] { importOnnxBytes(bytes, "garbage.onnx"); });
      CHECK(d.rule == "onnx.parse");
      CHECK_THAT(d.message, Catch::StartsWith("garbage.onnx: "));
    }
  }
  SECTION("an opset newer than the importer knows") {
    Diagnostic d = diagnosticOf([] { importOnnx(kFixtures + "opset18.onnx"); });
    CHECK(d.rule == "onnx.unsupported-opset");
    CHECK_THAT(d.message, Catch::Contains("opset 18") && Catch::Contains("1 to 17"));
  }
  SECTION("a file that does not exist") {
    Diagnostic d = diagnosticOf([] { importOnnx("/nonexistent/model.onnx"); });
    CHECK(d.message == "/nonexistent/model.onnx: cannot open file (No such file or directory)");
  }
  SECTION("a directory") {
    Diagnostic d = diagnosticOf([] { importOnnx(std::string(PASSLAB_BINARY_DIR)); });
    CHECK(d.message == std::string(PASSLAB_BINARY_DIR) + ": cannot open file (it is a directory)");
  }
  SECTION("corrupt test data") {
    std::string path = std::string(PASSLAB_BINARY_DIR) + "/test_onnx_corrupt.pb";
    std::ofstream(path, std::ios::binary) << std::string(40, '\x7f');
    CHECK(diagnosticOf([&] { readOnnxTensorFile(path); }).rule == "onnx.tensor-file");
    std::remove(path.c_str());
  }
}

TEST_CASE("ONNX: loadModelFile dispatches on the extension", "[onnx]") {
  CHECK(isOnnxPath("a/b/model.onnx"));
  CHECK(isOnnxPath("MODEL.ONNX"));
  CHECK_FALSE(isOnnxPath("model.relay"));
  CHECK_FALSE(isOnnxPath("onnx"));
  IRModule fromOnnx = loadModelFile(kNodeTests + "test_conv_with_strides_padding/model.onnx");
  REQUIRE(fromOnnx->lookupFunction("main") != nullptr);
  // Text goes to the parser: the printed ONNX import loads back as text.
  std::string path = std::string(PASSLAB_BINARY_DIR) + "/test_onnx_roundtrip.relay";
  std::ofstream(path) << printModule(fromOnnx);
  IRModule fromText = loadModelFile(path);
  CHECK(printModule(inferTypes(fromText)) == printModule(fromOnnx));
  std::remove(path.c_str());
  // Options reach the importer.
  LoadModelOptions options;
  options.onnx.inputShapes["input.1"] = {1, 3};
  CHECK(loadModelFile(kFixtures + "dynamic_relu.onnx", options)->lookupFunction("main")->params[0]->name == "input_1");
}
