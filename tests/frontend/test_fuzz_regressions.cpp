// Inputs the libFuzzer targets (fuzz/build.sh) flagged, kept as regression
// tests: each must import or parse, or fail with located diagnostics; the
// sanitizer build (./dev test) also checks they stay free of undefined behaviour.
//   tests/data/fuzz/onnx/      fuzz/onnx_fuzzer findings (importOnnxBytes)
//   tests/data/fuzz/metadata/  fuzz/metadata_fuzzer findings (#[metadata] JSON)
#include <catch2/catch.hpp>

#include "core/frontend/onnx_importer.h"
#include "core/text/metadata.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"
#include "tests/text_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// `mod` printed as TVMScript; checks that the text reads back and prints the same.
std::string printedAndReadBack(const IRModule& mod) {
  PrintOptions options;
  options.syntax = TextSyntax::TVMScript;
  std::string once = printModule(mod, options);
  IRModule again = parseTvmScript(once, "printed.py");
  CHECK(printModule(again, options) == once);
  return once;
}

}  // namespace

TEST_CASE("Fuzz regressions: ONNX importer findings fail cleanly", "[fuzz][onnx]") {
  std::string name = GENERATE(from_range(corpusNames("data/fuzz/onnx", ".onnx")));
  INFO(name);
  std::string bytes = readFile(corpusDir("data/fuzz/onnx") / (name + ".onnx"));
  // reshape_shape_overflow: a Reshape whose shape multiplies past int64 (signed overflow, UBSan);
  // tile_huge_repeats: a Tile repeating 2^32 times (out of memory building the concatenation);
  // int8_cast_out_of_range: a constant value far outside int8 stored by a double-to-int cast (UBSan);
  // gather_float_indices_huge: a Gather whose indices are a float initializer holding 2e36, read as
  // an integer before the type check refused it (a double-to-int64 cast, UBSan).
  try {
    OnnxImport imported = importOnnxBytes(bytes, name + ".onnx");
    CHECK(imported.module);
  } catch (const DiagnosticError& e) {
    CHECK_FALSE(e.diagnostics().empty());
  }
}

TEST_CASE("Fuzz regressions: #[metadata] findings decode or fail cleanly", "[fuzz][metadata]") {
  std::string name = GENERATE(from_range(corpusNames("data/fuzz/metadata", ".json")));
  INFO(name);
  std::string json = readFile(corpusDir("data/fuzz/metadata") / (name + ".json"));
  // slow_under_load: reported as a 20 s timeout on a loaded machine; it takes well under a second.
  try {
    decodeTvmMetadata(json);
  } catch (const MetadataError&) {
  }
  std::string text = "def @main() {\n  meta[relay.Constant][0]\n}\n#[metadata]\n" + json;
  try {
    printModule(parseModule(text, "fuzz.relay"));
  } catch (const DiagnosticError& e) {
    for (const Diagnostic& d : e.diagnostics()) CHECK(d.rule != "internal");
  }
}

TEST_CASE("Fuzz regressions: a TVMScript module without functions prints as `pass` and reads back", "[fuzz][tvmscript]") {
  // fuzz/tvmscript_fuzzer: only I.module_attrs({"phase": 0}) in the class, which
  // printed as an empty class body that did not parse.
  const std::string text =
      "# from tvm.script import ir as I\n\n@I.ir_module\nclass Module:\n    I.module_attrs({\"phase\": 0})\n";
  IRModule mod = parseTvmScript(text, "empty.py");
  CHECK(mod->functions.empty());
  std::string once = printedAndReadBack(mod);
  CHECK(once.find("class Module:\n    pass\n") != std::string::npos);
}

TEST_CASE("Fuzz regressions: a shape variable only a value mentions is declared when printed", "[fuzz][tvmscript]") {
  // fuzz/tvmscript_fuzzer: `n = T.int64()` declared in the body and used only
  // inside R.shape([...]) and R.prim_value(...), which no binding type
  // mentions before type inference: the printer dropped the declaration, and
  // its output failed with "expected a literal value, got 'n'".
  const std::string text = R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("j", 4), dtype="float32")) -> R.Tensor(("j", 4), dtype="float32"):
        j = T.int64()
        n = T.int64()
        m = T.int64()
        s = R.shape([(n + 1) * 2, 4])
        p = R.prim_value(m * 2)
        return x
)";
  IRModule mod = parseTvmScript(text, "value_vars.py");
  std::string once = printedAndReadBack(mod);
  CHECK(once.find("        n = T.int64()\n") != std::string::npos);
  CHECK(once.find("        m = T.int64()\n") != std::string::npos);
}

TEST_CASE("Fuzz regressions: a call_tir with no arguments prints `()` and reads it back", "[fuzz][tvmscript]") {
  // fuzz/tvmscript_fuzzer: R.call_tir_inplace(f, inplace_indices=[0], out_sinfo=...)
  // without arguments printed as `R.call_tir_inplace(f, (), ...)`, and `()`
  // was refused with "expected the arguments as a tuple (x, y)".
  auto text = GENERATE(std::string("R.call_tir(cls.fill, (), out_sinfo=R.Tensor((4,), dtype=\"float32\"))"),
                       std::string("R.call_tir(cls.fill, out_sinfo=R.Tensor((4,), dtype=\"float32\"))"),
                       std::string("R.call_dps_packed(\"fill\", (), out_sinfo=R.Tensor((4,), dtype=\"float32\"))"));
  const std::string module = R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def fill(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.float32(1.0)

    @R.function
    def main() -> R.Tensor((4,), dtype="float32"):
        cls = Module
        y = )" + text + R"(
        return y
)";
  INFO(module);
  IRModule mod = parseTvmScript(module, "no_args.py");
  std::string once = printedAndReadBack(mod);
  CHECK(once.find(", (), out_sinfo=") != std::string::npos);
}

TEST_CASE("Fuzz regressions: a float attribute that overflows prints as float(\"inf\") and reads back", "[fuzz][tvmscript]") {
  // fuzz/tvmscript_fuzzer: epsilon=1e405 read as infinity and printed as
  // `epsilon=inf`, an undefined name when read back.
  auto epsilon = GENERATE(std::string("1e405"), std::string("-1e405"), std::string("float(\"nan\")"));
  const std::string text = R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 8), dtype="float32"), g: R.Tensor((8,), dtype="float32"), b: R.Tensor((8,), dtype="float32")) -> R.Tensor((2, 8), dtype="float32"):
        gv = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=)" + epsilon + R"()
        return gv
)";
  INFO(text);
  IRModule mod = parseTvmScript(text, "inf.py");
  std::string once = printedAndReadBack(mod);
  CHECK(once.find("epsilon=float(\"") != std::string::npos);
}

TEST_CASE("Fuzz regressions: a float block-iterator domain is a located error", "[fuzz][tvmscript]") {
  // fuzz/tvmscript_fuzzer: `T.axis.spatial(1., ...)` was accepted, and its
  // domain printed as (min, min + extent) grew on every print -> parse.
  const std::string text =
      "# from tvm.script import tir as T\n\n"
      "@T.prim_func\n"
      "def f(A: T.Buffer((4,), \"float32\")):\n"
      "    for i in range(4):\n"
      "        with T.block(\"b\"):\n"
      "            vi = T.axis.spatial(4., i)\n"
      "            A[vi] = T.float32(0.0)\n";
  try {
    parseTvmScript(text, "float_domain.py");
    FAIL("a float domain parsed");
  } catch (const DiagnosticError& e) {
    CHECK(e.renderAll().find("float_domain.py:7:33: error: T.axis.spatial: a block iterator's domain must be an integer") !=
          std::string::npos);
  }
}
