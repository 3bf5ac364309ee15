// Relax forms beyond the basic TVMScript set: R.call_tir_inplace (reader,
// printer, type rules, interpreter, and the passes that see it), and symbolic
// shapes in reshape targets, R.shape values, call_tir outputs and the VM
// lowering (CallTIRRewrite, StaticPlanBlockMemory, LowerAllocTensor), each run
// on the interpreter for more than one value of n.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/pass/registry.h"
#include "core/text/printer.h"
#include "core/ir/virtual_device.h"
#include "core/text/tvmscript.h"
#include "tests/interp_test_util.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/interpreter.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::readFile;
using passlab::testing::sourcePath;

namespace {

const char* kHeader = "# from tvm.script import ir as I\n# from tvm.script import tir as T\n# from tvm.script import relax as R\n\n";

/// A file of the source tree, by its path from the top.
std::string sourceFile(const std::string& rel) { return readFile(sourcePath(rel)); }

PrintOptions scriptOptions(TvmScriptSpelling spelling = TvmScriptSpelling::Release) {
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  o.spelling = spelling;
  return o;
}

/// The located error of loading `text` ("line:col: message"), or "".
std::string loadError(const std::string& text) {
  try {
    inferTypes(parseTvmScript(text, "t.py"));
    return "";
  } catch (const DiagnosticError& e) {
    const Diagnostic& d = e.diagnostics().front();
    return std::to_string(d.span.line) + ":" + std::to_string(d.span.column) + ": " + d.message;
  }
}

IRModule runPipeline(const IRModule& mod, const std::string& pipeline) {
  static PassRegistry registry = [] {
    PassRegistry r;
    registerBuiltinPasses(r);
    return r;
  }();
  PassPtr p = parsePipeline(pipeline, registry);
  PassContextPtr ctx = PassContext::create();
  return runPass(*p, inferTypes(mod), *ctx);
}

const char* kAddInto = R"(    @T.prim_func
    def add_into(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = A[i] + B[i]
)";

}  // namespace

TEST_CASE("Relax forms: call_tir_inplace runs on the interpreter and leaves the caller's values alone", "[relax][inplace][interp]") {
  IRModule mod = inferTypes(parseTvmScript(sourceFile("tests/tvmscript/call_tir_inplace.py"), "call_tir_inplace.py"));
  NDArray x = testing::randomArray(DTypeCode::Float32, {8}, 1), y = testing::randomArray(DTypeCode::Float32, {8}, 2);
  std::vector<double> x0 = testing::toDoubles(x), y0 = testing::toDoubles(y);
  // The pipelines that see it: as written, fused, and lowered to the VM forms.
  auto pipeline = GENERATE(Catch::Generators::as<std::string>{}, "", "CallTIRRewrite", "ToNonDataflow,RemovePurityChecking,CallTIRRewrite",
                           "ToNonDataflow,VMBuiltinLower");
  CAPTURE(pipeline);
  IRModule run = pipeline.empty() ? mod : runPipeline(mod, pipeline);
  Value out = evaluate(run, "main", {Value(x), Value(y)});
  REQUIRE(out.isTuple());
  std::vector<double> scaled = testing::toDoubles(out.fields()[0].tensor()), copied = testing::toDoubles(out.fields()[1].tensor());
  for (size_t i = 0; i < 8; ++i) {
    CHECK(copied[i] == Approx(x0[i] + y0[i]));
    CHECK(scaled[i] == Approx((x0[i] + y0[i]) * 2));
  }
  // As written the interpreter copies the argument written in place; after
  // CallTIRRewrite the PrimFunc writes it, and the entry's copy keeps the
  // caller's array intact.
  CHECK(testing::toDoubles(x) == x0);
}

TEST_CASE("Relax forms: call_tir_inplace through relax.default matches the interpreter and the host JIT", "[relax][inplace][e2e]") {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb{registry};
  CommandInterpreter repl{wb};
  REQUIRE(repl.runLine("load " + std::string(PASSLAB_SOURCE_DIR) + "/tests/tvmscript/call_tir_inplace.py").ok());
  REQUIRE(repl.runLine("set numeric-check on").ok());
  REQUIRE(repl.runLine("pipeline relax.default").ok());
  REQUIRE(repl.runLine("run").ok());
  CommandResult numeric = repl.runLine("numeric");
  REQUIRE(numeric.ok());
  CAPTURE(numeric.output());
  CHECK(numeric.output().find("LowerRuntimeBuiltin    max abs 0,") != std::string::npos);
  CommandResult build = repl.runLine("build --run");
  CAPTURE(build.output());
  CHECK(build.ok());
  CHECK(build.output().find("PASS") != std::string::npos);
}

TEST_CASE("Relax forms: call_tir_inplace prints in TVM's form in both spellings", "[relax][inplace][tvmscript]") {
  auto [file, spelling] = GENERATE(table<std::string, TvmScriptSpelling>({
      {"tests/tvmscript/call_tir_inplace.py", TvmScriptSpelling::Release},
      {"tests/tvmscript/call_tir_inplace_main.py", TvmScriptSpelling::Main},
  }));
  CAPTURE(file);
  std::string text = sourceFile(file);
  TvmScriptSpelling found = TvmScriptSpelling::Release;
  IRModule mod = parseTvmScript(text, "m.py", nullptr, &found);
  CHECK(found == spelling);
  std::string printed = printModule(mod, scriptOptions(spelling));
  CHECK(printed == text);
  CHECK(printed.find(spelling == TvmScriptSpelling::Main ? "out_ty=" : "out_sinfo=") != std::string::npos);
  // The hand-written spellings (positional indices, a bare int) read to the same calls.
  IRModule hand = parseTvmScript(sourceFile("tests/tvmscript/handwritten_call_tir_inplace.py"), "h.py");
  std::string handPrinted = printModule(hand, scriptOptions());
  CHECK(handPrinted.find("R.call_tir_inplace(cls.add_into, (x, y), out_sinfo=R.Tensor((8,), dtype=\"float32\"), inplace_indices=[0])") !=
        std::string::npos);
}

TEST_CASE("Relax forms: call_tir_inplace's rules are located errors", "[relax][inplace][tvmscript]") {
  const std::string head = std::string(kHeader) + "@I.ir_module\nclass Module:\n" + kAddInto +
                           "\n    @R.function\n    def main(x: R.Tensor((8,), dtype=\"float32\"), y: R.Tensor((8,), dtype=\"float32\")):\n"
                           "        cls = Module\n";
  auto [call, error] = GENERATE(table<std::string, std::string>({
      {"R.call_tir_inplace(cls.add_into, (x, y), out_sinfo=R.Tensor((8,), dtype=\"float32\"))", "needs inplace_indices"},
      {"R.call_tir_inplace(cls.add_into, (x, y), inplace_indices=[2], out_sinfo=R.Tensor((8,), dtype=\"float32\"))",
       "in-place index 2 is not an argument"},
      {"R.call_tir_inplace(cls.add_into, (x, y), inplace_indices=[-1], out_sinfo=R.Tensor((8,), dtype=\"float32\"))",
       "at least one in-place index must not be -1"},
      {"R.call_tir_inplace(cls.add_into, (x, y), inplace_indices=[0], out_sinfo=R.Tensor((4,), dtype=\"float32\"))",
       "output 0 is Tensor[(4), float32] but argument 0"},
      {"R.call_tir_inplace(cls.add_into, (x, y), inplace_indices=[0, 1], out_sinfo=R.Tensor((8,), dtype=\"float32\"))",
       "inplace_indices lists 2 indices for 1 outputs"},
      {"R.call_tir_inplace(cls.add_into, (x, y), inplace_indices=\"0\", out_sinfo=R.Tensor((8,), dtype=\"float32\"))",
       "inplace_indices is an argument index or a list of them"},
  }));
  CAPTURE(call);
  std::string err = loadError(head + "        gv = " + call + "\n        return gv\n");
  CHECK(err.rfind("15:", 0) == 0);
  CHECK_THAT(err, Catch::Contains(error));
}

TEST_CASE("Relax forms: a symbolic reshape target runs for two values of n", "[relax][symbolic][interp]") {
  std::string text = std::string(kHeader) + R"(@R.function
def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n * 8",), dtype="float32"):
    n = T.int64()
    lv: R.Tensor((n * 8,), dtype="float32") = R.reshape(x, R.shape([n * 8]))
    gv: R.Tensor((n * 8,), dtype="float32") = R.add(lv, lv)
    return gv
)";
  IRModule mod = inferTypes(parseTvmScript(text, "t.py"));
  for (int64_t n : {2, 5}) {
    CAPTURE(n);
    NDArray x = testing::randomArray(DTypeCode::Float32, {n, 8}, 7 + static_cast<uint32_t>(n));
    Value out = evaluate(mod, "main", {Value(x)});
    REQUIRE(out.isTensor());
    CHECK(out.tensor().shape() == std::vector<int64_t>{n * 8});
    std::vector<double> xs = testing::toDoubles(x), got = testing::toDoubles(out.tensor());
    for (size_t i = 0; i < xs.size(); ++i) CHECK(got[i] == Approx(xs[i] * 2));
  }
}

TEST_CASE("Relax forms: symbolic call_tir outputs and R.shape values read, print and run through the VM lowering",
          "[relax][symbolic][interp]") {
  std::string text = sourceFile("tests/tvmscript/symbolic_shape_values.py");
  IRModule mod = inferTypes(parseTvmScript(text, "symbolic_shape_values.py"));
  CHECK(printModule(mod, scriptOptions()) == text);
  auto pipeline = GENERATE(Catch::Generators::as<std::string>{}, "",
                           "ToNonDataflow,RemovePurityChecking,CallTIRRewrite,StaticPlanBlockMemory,LowerAllocTensor");
  CAPTURE(pipeline);
  IRModule run = pipeline.empty() ? mod : runPipeline(mod, pipeline);
  // The PrimFunc's buffers are static (4, 8): n = 4 runs, n = 5 is refused by it.
  NDArray x = testing::randomArray(DTypeCode::Float32, {4, 8}, 3);
  Value out = evaluate(run, "main", {Value(x)});
  REQUIRE(out.isTensor());
  CHECK(out.tensor().shape() == std::vector<int64_t>{32});
  std::vector<double> xs = testing::toDoubles(x), got = testing::toDoubles(out.tensor());
  for (size_t i = 0; i < xs.size(); ++i) CHECK(got[i] == Approx(xs[i] * 4));
  CHECK_THROWS_AS(evaluate(run, "main", {Value(testing::randomArray(DTypeCode::Float32, {5, 8}, 4))}), DiagnosticError);
}

TEST_CASE("Relax forms: symbolic allocations take TVM's sizes through the VM lowering", "[relax][symbolic]") {
  IRModule mod = parseTvmScript(sourceFile("tests/tvmscript/symbolic_shape_values.py"), "s.py");
  std::string planned = printModule(runPipeline(mod, "ToNonDataflow,RemovePurityChecking,CallTIRRewrite,StaticPlanBlockMemory"), scriptOptions());
  CAPTURE(planned);
  // lv's allocation is planned (static dims fold into the constant, as TVM's
  // token size); lv1 is returned (through the reshape) and is not.
  CHECK(planned.find("R.memory.alloc_storage(R.shape([32 * n]), R.prim_value(0), R.str(\"global\"), R.dtype(\"float32\"))") !=
        std::string::npos);
  std::string lowered = printModule(runPipeline(mod, "ToNonDataflow,RemovePurityChecking,CallTIRRewrite,LowerAllocTensor"), scriptOptions());
  CAPTURE(lowered);
  CHECK(lowered.find("R.memory.alloc_storage(R.shape([4 * n * 8]), R.prim_value(0), R.str(\"global\"), R.dtype(\"uint8\"))") !=
        std::string::npos);
}

TEST_CASE("Relax forms: match_cast binds what a later reshape target uses; bad symbolic targets are located errors", "[relax][symbolic][interp]") {
  std::string text = std::string(kHeader) + R"(@R.function
def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n * 8",), dtype="float32"):
    n = T.int64()
    m = T.int64()
    y: R.Tensor((m, 8), dtype="float32") = R.match_cast(x, R.Tensor((m, 8), dtype="float32"))
    z: R.Tensor((m * 8,), dtype="float32") = R.reshape(y, R.shape([m * 8]))
    return z
)";
  IRModule mod = inferTypes(parseTvmScript(text, "t.py"));
  // m is bound by the cast, so the reshape runs.
  Value out = evaluate(mod, "main", {Value(testing::randomArray(DTypeCode::Float32, {3, 8}, 1))});
  CHECK(out.tensor().shape() == std::vector<int64_t>{24});
  // TVM's symbolic targets take dimensions only.
  CHECK_THAT(loadError(std::string(kHeader) +
                       "@R.function\ndef main(x: R.Tensor((\"n\", 8), dtype=\"float32\")):\n    n = T.int64()\n"
                       "    z = R.reshape(x, R.shape([n, -1]))\n    return z\n"),
             Catch::Contains("a symbolic target takes dimensions only"));
  // Static parts that cannot match are found.
  CHECK_THAT(loadError(std::string(kHeader) +
                       "@R.function\ndef main(x: R.Tensor((4, 8), dtype=\"float32\")):\n    n = T.int64()\n"
                       "    z = R.reshape(x, R.shape([n * 0 + 3, 8]))\n    return z\n"),
             Catch::Contains("cannot reshape"));
}

TEST_CASE("Relax forms: virtual devices map onto the module's table and print in TVM's form", "[relax][vdevice][tvmscript]") {
  IRModule mod = inferTypes(parseTvmScript(sourceFile("tests/tvmscript/handwritten_vdevice.py"), "v.py"));
  std::vector<VirtualDevice> table = virtualDeviceTable(mod);
  REQUIRE(table.size() == 3);
  CHECK(table[0].target == "llvm -mtriple=x86_64-pc-linux-gnu");
  CHECK(table[0].deviceType == device_type::kCPU);
  CHECK(table[1].target == "hexagon -mcpu=hexagonv68");
  CHECK(table[1].deviceType == device_type::kHexagon);
  CHECK(table[2].target.empty());  // the hint's device
  CHECK(table[2].deviceType == device_type::kCPU);
  std::string printed = printModule(mod, scriptOptions());
  CAPTURE(printed);
  CHECK(printed.find("    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm -mtriple=x86_64-pc-linux-gnu\", 0, \"global\"), "
                     "I.vdevice(\"hexagon -mcpu=hexagonv68\", 0, \"global\")]})\n") != std::string::npos);
  CHECK(printed.find("R.hint_on_device(x, R.device(device_type=1, index=0), \"global\")") != std::string::npos);
  CHECK(printed.find("R.to_vdevice(lv, dst_vdevice=\"hexagon:0:global\")") != std::string::npos);
  CHECK(printed.find("virtual_devices") == std::string::npos);
  IRModule again = parseTvmScript(printed, "again.py");
  CHECK(structuralEqual(mod, again));
  // The devices are a plan: the interpreter's values are the same.
  NDArray x = testing::randomArray(DTypeCode::Float32, {2, 3}, 5);
  std::vector<double> got = testing::toDoubles(evaluate(mod, "main", {Value(x)}).tensor()), xs = testing::toDoubles(x);
  for (size_t i = 0; i < xs.size(); ++i) CHECK(got[i] == Approx(2 * xs[i]));
}

TEST_CASE("Relax forms: a device TVMScript does not list is a located error", "[relax][vdevice][tvmscript]") {
  std::string text = std::string(kHeader) + R"(@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global")]})

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")):
        y = R.to_vdevice(x, dst_vdevice="llvm:1")
        return y
)";
  CHECK_THAT(loadError(text), Catch::StartsWith("11:29: no virtual device \"llvm:1\": I.module_global_infos lists 1 of kind llvm"));
  // Found by fuzz/tvmscript_fuzzer: a hint to device type 0 made a placeholder
  // device, whose module then printed in a form that did not load back.
  std::string hint = std::string(kHeader) + R"(@R.function
def main(x: R.Tensor((2, 3), dtype="float32")):
    y = R.hint_on_device(x, R.device(device_type=0, index=0), "global")
    return y
)";
  CHECK_THAT(loadError(hint), Catch::StartsWith("7:29: R.device's device_type must be a DLPack device type"));
  std::string scope = std::string(kHeader) + R"(@R.function
def main(x: R.Tensor((2, 3), dtype="float32")):
    y = R.hint_on_device(x, R.device(1, 0), "")
    return y
)";
  IRModule mod = parseTvmScript(scope, "s.py");
  std::string printed = printModule(mod, scriptOptions());
  CHECK(printed.find("R.hint_on_device(x, R.device(device_type=1, index=0), \"\")") != std::string::npos);
  CHECK(structuralEqual(parseTvmScript(printed, "again.py"), mod));
}

TEST_CASE("Relax forms: a tir_var_upper_bound that is not a positive integer is refused", "[relax][symbolic]") {
  std::string text = std::string(kHeader) + R"(@R.function
def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
    n = T.int64()
    R.func_attr({"tir_var_upper_bound": {"n": 0}, "relax.force_pure": True})
    y: R.Tensor((n, 8), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
    return y
)";
  IRModule mod = parseTvmScript(text, "t.py");
  CHECK_THROWS_WITH(runPipeline(mod, "StaticPlanBlockMemory"), Catch::Contains("the tir_var_upper_bound of n must be a positive integer, got 0"));
}

TEST_CASE("Relax forms: a tir_var_lower_bound that is not an integer or exceeds the upper bound is refused", "[relax][symbolic]") {
  auto withBounds = [](const std::string& attrs) {
    return std::string(kHeader) + R"(@R.function
def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
    n = T.int64()
    R.func_attr({)" + attrs + R"(, "relax.force_pure": True})
    y: R.Tensor((n, 8), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
    return y
)";
  };
  IRModule list = parseTvmScript(withBounds(R"("tir_var_lower_bound": {"n": [4]})"), "t.py");
  CHECK_THROWS_WITH(runPipeline(list, "StaticPlanBlockMemory"), Catch::Contains("the tir_var_lower_bound of n must be an integer, got [4]"));
  IRModule crossed = parseTvmScript(withBounds(R"("tir_var_upper_bound": {"n": 4}, "tir_var_lower_bound": {"n": 6})"), "t.py");
  CHECK_THROWS_WITH(runPipeline(crossed, "StaticPlanBlockMemory"),
                    Catch::Contains("the tir_var_lower_bound of n (6) exceeds its tir_var_upper_bound (4)"));
  // A lower bound alone leaves the allocation symbolic: nothing to refuse.
  IRModule alone = parseTvmScript(withBounds(R"("tir_var_lower_bound": {"n": 2})"), "t.py");
  CHECK_NOTHROW(runPipeline(alone, "StaticPlanBlockMemory"));
}

TEST_CASE("Relax forms: ToMixedPrecision fp16_input_names casts a float16 parameter back for a no-policy op and refuses misuse",
          "[relax][amp]") {
  const std::string pipeline = "ToMixedPrecision{fp16_input_names=[w]}";
  std::string never = std::string(kHeader) + R"(@R.function
def main(w: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
    with R.dataflow():
        gv: R.Tensor((4, 8), dtype="float32") = R.nn.softmax(w, axis=-1)
        R.output(gv)
    return gv
)";
  IRModule out = runPipeline(parseTvmScript(never, "n.py"), pipeline);
  std::string printed = printModule(out, scriptOptions());
  CHECK(printed.find("w: R.Tensor((4, 8), dtype=\"float16\")") != std::string::npos);
  CHECK(printed.find("R.astype(w, dtype=\"float32\")") != std::string::npos);  // softmax sees its original dtype

  std::string integer = std::string(kHeader) + R"(@R.function
def main(w: R.Tensor((4, 8), dtype="int32")) -> R.Tensor((4, 8), dtype="int32"):
    with R.dataflow():
        gv: R.Tensor((4, 8), dtype="int32") = R.add(w, w)
        R.output(gv)
    return gv
)";
  CHECK_THROWS_WITH(runPipeline(parseTvmScript(integer, "i.py"), pipeline),
                    Catch::Contains("fp16_input_names names w, which is not a float16/float32 tensor"));

  std::string outside = std::string(kHeader) + R"(@R.function
def main(w: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
    with R.dataflow():
        gv: R.Tensor((4, 8), dtype="float32") = R.nn.relu(w)
        R.output(gv)
    y: R.Tensor((4, 8), dtype="float32") = R.add(gv, w)
    return y
)";
  CHECK_THROWS_WITH(runPipeline(parseTvmScript(outside, "o.py"), pipeline),
                    Catch::Contains("fp16_input_names parameter w is used outside a dataflow block"));
}
