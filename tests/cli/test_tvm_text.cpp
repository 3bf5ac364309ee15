// Text as TVM prints it (docs/text-format.md, "What TVM prints"): the corpus
// tests/tvm/*.relay of modules and expressions in TVM's shapes, metadata
// references as placeholders or decoded from a #[metadata] section, printed
// expressions wrapped as @main, the refused Relay features, and the batch-mode
// behaviours that came with them (default checks, single-value array options,
// skipped-pass lines, FoldConstant's size limit).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>

#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "core/text/metadata.h"
#include "passes/fold_constant.h"
#include "passes/registry.h"
#include "repl/batch.h"
#include "repl/interpreter.h"
#include "tests/text_test_util.h"
#include "tests/test_util.h"

using namespace passlab;
using namespace passlab::testing;
namespace fs = std::filesystem;

namespace {

IRModule loadTvm(const std::string& name, std::vector<Diagnostic>* notes = nullptr) {
  return parseModuleFile((corpusDir("tvm") / (name + ".relay")).string(), notes);
}

/// Every constant of @main's body, by placeholder index (placeholders only).
std::map<int32_t, NDArray> placeholdersOf(const IRModule& mod) {
  std::map<int32_t, NDArray> out;
  for (const auto& [name, fn] : mod->functions)
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* c = as<ConstantNode>(e); c && c->data.isPlaceholder()) out[c->data.placeholderIndex()] = c->data;
    });
  return out;
}

std::vector<int64_t> shapeOf(const NDArray& a) { return a.shape(); }

std::string readAll(std::FILE* f) {
  std::rewind(f);
  std::string text;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  return text;
}

struct BatchRun {
  int status;
  std::string out, err;
};

BatchRun runBatchCaptured(const BatchOptions& o) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  int status = runBatch(o, *sharedBuiltinRegistry(), out, err);
  return {status, readAll(out), readAll(err)};
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "test-scratch" / ("tvm_text_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("TVM text: every corpus file loads, type-checks and prints back identically", "[tvm-text]") {
  std::string name = GENERATE(from_range(corpusNames("tvm", ".relay")));
  INFO(name);
  IRModule mod = inferTypes(loadTvm(name));
  for (bool typeComments : {true, false}) {
    PrintOptions options;
    options.typeComments = typeComments;
    std::string once = printModule(mod, options);
    IRModule again = inferTypes(parseModule(once, name + ".printed"));
    CHECK(printModule(again, options) == once);
  }
}

TEST_CASE("TVM text: the corpus covers the shapes TVM prints", "[tvm-text]") {
  CHECK(corpusNames("tvm", ".relay").size() >= 12);
}

TEST_CASE("TVM text: meta references with a type comment load as placeholders", "[tvm-text]") {
  std::vector<Diagnostic> notes;
  IRModule mod = inferTypes(loadTvm("resnet_stem_meta", &notes));
  std::map<int32_t, NDArray> p = placeholdersOf(mod);
  REQUIRE(p.size() == 7);
  CHECK(shapeOf(p[0]) == std::vector<int64_t>{16, 3, 3, 3});
  CHECK(shapeOf(p[1]) == std::vector<int64_t>{16});
  CHECK(summarizePlaceholders(mod).placeholders == 7);
  // The load warning: how many, and how to supply real data.
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].severity == Severity::Warning);
  CHECK(notes[0].rule == "load.placeholder");
  CHECK(notes[0].message.find("7 constants are placeholders") != std::string::npos);
  CHECK(notes[0].message.find("show_meta_data=True") != std::string::npos);
  CHECK(notes[0].span.line == 3);
  // Printed as they came in, plus a closing comment that marks them.
  std::string text = printModule(mod);
  CHECK(text.find("meta[relay.Constant][0] /* ty=Tensor[(16, 3, 3, 3), float32] */") != std::string::npos);
  CHECK(text.find("/* 7 placeholder constants: meta[relay.Constant][N] without a #[metadata] section") != std::string::npos);
  // Deterministic: the same reference gives the same bits on every load; variances stay positive.
  IRModule again = loadTvm("resnet_stem_meta");
  CHECK(placeholdersOf(again)[5].bitwiseEqual(p[5]));
  CHECK_FALSE(p[5].bitwiseEqual(NDArray::placeholder(DTypeCode::Float32, {16, 16, 3, 3}, 6)));
  for (int64_t i = 0; i < p[4].numElements(); ++i) CHECK(p[4].getAsDouble(i) >= 0.5);
}

TEST_CASE("TVM text: a #[metadata] section gives the constants their real values", "[tvm-text]") {
  std::vector<Diagnostic> notes;
  IRModule mod = inferTypes(loadTvm("metadata_section", &notes));
  CHECK(notes.empty());
  std::vector<NDArray> constants;
  postOrderVisit(mod->lookup("main"), [&](const Expr& e) {
    if (const auto* c = as<ConstantNode>(e)) constants.push_back(c->data);
  });
  REQUIRE(constants.size() == 3);
  auto values = [](const NDArray& a) {
    std::vector<double> v;
    for (int64_t i = 0; i < a.numElements(); ++i) v.push_back(a.getAsDouble(i));
    return v;
  };
  CHECK_FALSE(constants[0].fromPlaceholder());
  CHECK(constants[0].dtype() == DataType(DTypeCode::Float32));
  CHECK(values(constants[0]) == std::vector<double>{0.5, -1, 2, 0.25, 3, -4});
  CHECK(constants[1].dtype() == DataType(DTypeCode::Float16));
  CHECK(values(constants[1]) == std::vector<double>{1, 0.5, -2});
  CHECK(constants[2].dtype() == DataType(DTypeCode::Int64));
  CHECK(values(constants[2]) == std::vector<double>{-42, 7});
  // Decoded constants are ordinary constants: they print inline.
  CHECK(printModule(mod).find("const(Tensor[(2, 3), float32], [0.5, -1, 2, 0.25, 3, -4])") != std::string::npos);
}

TEST_CASE("TVM text: malformed #[metadata] sections are located errors", "[tvm-text]") {
  auto [json, message] = GENERATE(table<std::string, std::string>({
      {"{\"root\": 1, \"nodes\": []}", "root 1 is out of range"},
      {"{\"root\": 1, \"nodes\": [{}, {\"type_key\": \"Array\"}]}", "expected a Map"},
      {"{\"root\": 1, \"nodes\": [{}, {\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], \"data\": [2]}, "
       "{\"type_key\": \"Array\", \"data\": [3]}, {\"type_key\": \"relay.Constant\", \"attrs\": {\"data\": \"0\"}}], "
       "\"b64ndarrays\": [\"AAAA\"]}",
       "metadata constant 0: NDArray data is truncated"},
      {"{\"root\": 1, \"nodes\": [", "unexpected end of input"},
  }));
  std::string text = "def @main() {\n  meta[relay.Constant][0]\n}\n#[metadata]\n" + json + "\n";
  std::string error = firstError(text, "m.relay");
  INFO(error);
  CHECK((error.rfind("m.relay:5:", 0) == 0 || error.rfind("m.relay:6:1:", 0) == 0));
  CHECK(error.find(message) != std::string::npos);
}

TEST_CASE("TVM text: the NDArray decoder reads TVM's serialisation", "[tvm-text]") {
  // base64 of NDArray::Save for float32[2, 3] = 1..6, as TVM writes it.
  NDArray a = decodeTvmNDArray(decodeBase64(
      "P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAIgAQACAAAAAAAAAAMAAAAAAAAAGAAAAAAAAAAAAIA/AAAAQAAAQEAAAIBAAACgQAAAwEA="));
  REQUIRE(a.shape() == std::vector<int64_t>{2, 3});
  CHECK(a.getAsDouble(5) == 6.0);
  CHECK_THROWS_AS(decodeBase64("ab$c"), MetadataError);
  CHECK_THROWS_AS(decodeTvmNDArray(std::string(10, '\0')), MetadataError);
}

TEST_CASE("TVM text: meta references without a comment take the type their use determines", "[tvm-text]") {
  std::vector<Diagnostic> notes;
  IRModule mod = inferTypes(loadTvm("meta_inferred", &notes));
  std::map<int32_t, NDArray> p = placeholdersOf(mod);
  REQUIRE(p.size() == 8);
  CHECK(shapeOf(p[0]) == std::vector<int64_t>{8, 3, 3, 3});  // conv2d weight: channels, in, kernel_size
  CHECK(shapeOf(p[1]) == std::vector<int64_t>{8});           // bias_add: the channel axis
  CHECK(shapeOf(p[2]) == std::vector<int64_t>{4, 8, 1, 1});  // needs the first conv's output type
  CHECK(shapeOf(p[6]) == std::vector<int64_t>{4});           // batch_norm moving variance
  CHECK(shapeOf(p[7]) == std::vector<int64_t>{10, 32});      // dense weight: units, in
  // Printed with the type it got, so the printed text no longer needs inference.
  CHECK(printModule(mod).find("meta[relay.Constant][7] /* ty=Tensor[(10, 32), float32] */") != std::string::npos);
}

TEST_CASE("TVM text: a meta reference whose type nothing determines is a located error", "[tvm-text]") {
  std::string text = "def @main(%x: Tensor[(4), float32]) {\n  add(%x, meta[relay.Constant][0])\n}\n";
  std::string error = firstError(text, "m.relay");
  CHECK(error ==
        "m.relay:2:11: error: cannot tell the type of meta[relay.Constant][0]: no /* ty=... */ comment follows it, the "
        "text has no #[metadata] section, and its use does not determine it; write it as meta[relay.Constant][0] /* "
        "ty=Tensor[(...), dtype] */");
}

TEST_CASE("TVM text: a printed expression loads as @main over its free variables", "[tvm-text]") {
  std::vector<Diagnostic> notes;
  IRModule mod = inferTypes(loadTvm("expr_free_var", &notes));
  const FunctionNode* main = mod->lookupFunction("main");
  REQUIRE(main);
  REQUIRE(main->params.size() == 2);
  CHECK(main->params[0]->name == "x");
  CHECK(main->params[1]->name == "bias");
  REQUIRE(notes.size() == 2);
  CHECK(notes[1].rule == "load.expression");
  CHECK(notes[1].message.find("@main takes its free variables as parameters (%x, %bias)") != std::string::npos);

  IRModule lets = inferTypes(loadTvm("expr_let_chain"));
  REQUIRE(lets->lookupFunction("main")->params.size() == 1);

  // A function literal is @main itself, attributes and all (IRModule.from_expr).
  IRModule fn = inferTypes(loadTvm("expr_function"));
  const FunctionNode* f = fn->lookupFunction("main");
  REQUIRE(f);
  CHECK(f->params.size() == 1);
  CHECK(f->attrs.contains("Primitive"));

  // Free variables are ordered by first use, not by declaration.
  IRModule swapped = parseModule("free_var %b: float32;\nfree_var %a: float32;\nadd(%a, %b)", "e.relay");
  CHECK(swapped->lookupFunction("main")->params[0]->name == "a");
}

TEST_CASE("TVM text: literals, tuples and untyped parameters as TVM writes them", "[tvm-text]") {
  auto scalar = [](const std::string& text) {
    Expr e = parseExpr(text);
    const auto* c = as<ConstantNode>(e);
    REQUIRE(c);
    return c->data;
  };
  CHECK(scalar("-42i64").dtype() == DataType(DTypeCode::Int64));
  CHECK(scalar("-42i64").getAsInt(0) == -42);
  CHECK(scalar("-42i").dtype() == DataType(DTypeCode::Int32));
  CHECK(scalar("3f16").dtype() == DataType(DTypeCode::Float16));
  CHECK(scalar("65504f16").getAsDouble(0) == 65504.0);
  CHECK(scalar("2147483648").dtype() == DataType(DTypeCode::Int64));
  CHECK(scalar("1e-05f").dtype() == DataType(DTypeCode::Float32));
  CHECK(as<ConstantNode>(parseExpr("/* a /* nested */ comment */ 1f")));

  IRModule mod = inferTypes(loadTvm("literals_tuples"));
  std::string text = printModule(mod);
  // The fn literal's parameters took the types of the call's arguments.
  CHECK(text.find("fn (%p0: Tensor[(2, 2), float16], %p1: float16)") != std::string::npos);
  CHECK(text.find("(%x,)") != std::string::npos);
}

TEST_CASE("TVM text: Relay features passlab lacks are refused with located messages", "[tvm-text]") {
  auto [text, expected] = GENERATE(table<std::string, std::string>({
      {"def @main(%x: float32) {\n  %0 = ref(%x);\n  ref_read(%0)\n}\n",
       "r.relay:2:8: error: not supported: 'ref' (Relay's mutable references)"},
      {"def @f(%x: float32) {\n  match (%x) {\n    _ => 0,\n  }\n}\n",
       "r.relay:2:3: error: not supported: 'match' (pattern matching over Relay algebraic data types)"},
      {"type List[A] {\n  Cons(A, List[A]),\n  Nil,\n}\n", "r.relay:1:1: error: not supported: 'type' definitions"},
      {"extern type T[A]\n", "r.relay:1:1: error: not supported: 'extern' definitions"},
      {"def @id[A](%x: A) -> A {\n  %x\n}\n", "r.relay:1:8: error: not supported: type parameters"},
      {"def @main(%x: float32) {\n  nn.conv2d(%x, %x, meta[relay.attrs.Conv2DAttrs][0])\n}\n",
       "r.relay:2:21: error: not supported: meta[relay.attrs.Conv2DAttrs][0]"},
      {"def @main(%x: float32) {\n  add(%x, meta[relay.Constant][0] /* ty=Tensor[(?, 3), float32] */)\n}\n",
       "r.relay:2:11: error: meta[relay.Constant][0]: a placeholder needs a static shape"},
      {"def @main(%x) {\n  nn.relu(%x)\n}\n", "r.relay:1:11: error: parameter %x needs a type annotation"},
  }));
  std::string error = firstError(text, "r.relay");
  INFO(error);
  CHECK(error.rfind(expected, 0) == 0);
}

TEST_CASE("TVM text: placeholder data runs through FoldConstant and a host build, labelled", "[tvm-text][codegen]") {
  fs::path dir = scratch("fold");
  writeFile(dir / "m.relay",
            "#[version = \"0.0.5\"]\n"
            "def @main(%x: Tensor[(1, 4), float32]) -> Tensor[(1, 4), float32] {\n"
            "  %0 = multiply(meta[relay.Constant][0] /* ty=Tensor[(4), float32] */, 2f);\n"
            "  %1 = add(%x, %0);\n"
            "  nn.relu(%1)\n"
            "}\n");
  Workbench wb(sharedBuiltinRegistry());
  CommandInterpreter repl(wb);
  auto run = [&](const std::string& line) {
    CommandResult r = repl.runLine(line);
    std::string text;
    for (const CommandResult::Chunk& c : r.chunks) text += c.text;
    INFO(line << "\n" << text);
    REQUIRE(r.ok());
    return text;
  };
  std::string loaded = run("load \"" + (dir / "m.relay").string() + "\"");
  CHECK(loaded.find("warning: 1 constant is a placeholder (meta[relay.Constant][0])") != std::string::npos);
  run("set numeric-check on seed 0");
  run("pipeline InferType,FoldConstant,FuseOps,LambdaLifting,LegalizeOps");
  run("run");
  // FoldConstant folded multiply(placeholder, 2): its result is derived from made-up data.
  CHECK(run("info 2 --no-time").find("placeholder constants: 0 (meta[relay.Constant][N] without a #[metadata] section: "
                                     "made-up data), 1 more computed from them") != std::string::npos);
  CHECK(run("numeric").find("computed from placeholder constants (made-up data)") != std::string::npos);
  std::string host = run("run --host --seed 0");
  CHECK(host.find("(computed from placeholder constants") != std::string::npos);
  CHECK(host.find("PASS") != std::string::npos);
}

TEST_CASE("Batch: the provenance check runs as in the REPL (seed 000 leak)", "[tvm-text][batch]") {
  fs::path dir = scratch("leak");
  std::string model = readFile(fs::path(PASSLAB_SOURCE_DIR) / "examples/seed000/cnn_fp32.relay");
  model.insert(model.find('\n') + 1, "#[executor = {\"kind\": \"graph\", \"link-params\": 1}]\n");
  writeFile(dir / "cnn.relay", model);
  BatchOptions o;
  o.input = (dir / "cnn.relay").string();
  o.pipeline = "InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps";
  o.hasPipeline = true;
  o.config = {{kFoldConstantLeakKey, "true"}};
  o.traceJson = (dir / "trace.json").string();
  o.output = (dir / "out.relay").string();
  BatchRun r = runBatchCaptured(o);
  CHECK(r.status == 0);
  CHECK(r.err.find("link-params") != std::string::npos);
  CHECK(r.err.find("warning:") != std::string::npos);
  CHECK(readFile(dir / "trace.json").find("provenance.module-attr-leak") != std::string::npos);

  // Without the teaching switch there is nothing to report.
  o.config.clear();
  BatchRun clean = runBatchCaptured(o);
  CHECK(clean.status == 0);
  CHECK(readFile(dir / "trace.json").find("provenance.module-attr-leak") == std::string::npos);
}

TEST_CASE("Batch: an array option accepts a single value", "[tvm-text][batch]") {
  PassPtr one = parsePipeline("AnnotateTarget{compilers=\"ccompiler\"}", *sharedBuiltinRegistry());
  PassPtr list = parsePipeline("AnnotateTarget{compilers=[\"ccompiler\"]}", *sharedBuiltinRegistry());
  CHECK(pipelineText(*one) == pipelineText(*list));
  PassPtr bare = parsePipeline("AnnotateTarget{compilers=ccompiler}", *sharedBuiltinRegistry());
  CHECK(pipelineText(*bare) == pipelineText(*list));
}

TEST_CASE("Batch: --print-after-all and --print-changed say why a pass was skipped", "[tvm-text][batch]") {
  for (bool changed : {false, true}) {
    BatchOptions o;
    o.input = std::string(PASSLAB_SOURCE_DIR) + "/examples/cnn_block.relay";
    o.pipeline = "InferType,EliminateCommonSubexpr";
    o.hasPipeline = true;
    o.optLevel = 2;
    (changed ? o.printChanged : o.printAfterAll) = true;
    o.output = (scratch("skip") / "out.relay").string();
    BatchRun r = runBatchCaptured(o);
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.err.find("// -----// IR Dump EliminateCommonSubexpr skipped: opt_level 3 > context opt_level 2 //----- //") !=
          std::string::npos);
  }
}

TEST_CASE("Batch: load notes reach stderr", "[tvm-text][batch]") {
  BatchOptions o;
  o.input = (corpusDir("tvm") / "expr_free_var.relay").string();
  o.output = (scratch("notes") / "out.relay").string();
  BatchRun r = runBatchCaptured(o);
  CHECK(r.status == 0);
  CHECK(r.err.find("warning: 1 constant is a placeholder") != std::string::npos);
  CHECK(r.err.find("note: the text is an expression (no 'def')") != std::string::npos);
}

TEST_CASE("FoldConstant: an enormous result stays unfolded with a diagnostic", "[tvm-text][fold-constant]") {
  // The sum of 2^40 ones: 4 TiB of intermediate value if it were computed.
  IRModule mod = inferTypes(parseModule(
      "def @main(%x: Tensor[(1), float32]) {\n"
      "  %0 = full(1f, shape=[1048576, 1048576], dtype=\"float32\");\n"
      "  %1 = sum(%0);\n"
      "  add(%x, %1)\n"
      "}\n",
      "big.relay"));
  auto ctx = PassContext::create("root");
  std::vector<Diagnostic> seen;
  struct Collect : PassInstrument {
    std::vector<Diagnostic>* out;
    std::string name() const override { return "collect"; }
    void onDiagnostic(const Diagnostic& d, PassContext&) override { out->push_back(d); }
  };
  auto collect = std::make_shared<Collect>();
  collect->out = &seen;
  ctx->instruments().push_back(collect);
  IRModule folded = runPass(*sharedBuiltinRegistry()->create("FoldConstant", {}), mod, *ctx);
  CHECK(printModule(folded) == printModule(mod));
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].rule == "fold-constant.too-large");
  CHECK(seen[0].message.find("relay.FoldConstant.max_value_bytes = 268435456") != std::string::npos);
  // The limit is a recorded config read.
  bool recorded = false;
  for (const ConfigRead& r : ctx->reads()) recorded = recorded || r.key == kFoldConstantMaxBytesKey;
  CHECK(recorded);
}
