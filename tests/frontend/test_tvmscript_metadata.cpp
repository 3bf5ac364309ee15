// TVMScript's metadata statement (TVM's show_meta=True): a written .py keeps
// the weights, in tvm-ffi's JSON graph format; the screen keeps references;
// a malformed or legacy block is a located error.
#include <catch2/catch.hpp>

#include <cstring>

#include "core/analysis/structural_equal.h"
#include "core/frontend/onnx_importer.h"
#include "core/ir/functor.h"
#include "core/text/metadata_graph.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::sourcePath;

namespace {

PrintOptions fileOptions() {
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  o.metadataSection = true;
  return o;
}

PrintOptions screenOptions() {
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  return o;
}

/// The tensor constants of every graph-level function, in visiting order.
std::vector<NDArray> constantsOf(const IRModule& mod) {
  std::vector<NDArray> out;
  for (const auto& [name, fn] : mod->functions) {
    if (!as<FunctionNode>(fn)) continue;
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* c = as<ConstantNode>(e); c && c->data.ndim() > 0) out.push_back(c->data);
    });
  }
  return out;
}

bool bitIdentical(const NDArray& a, const NDArray& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && a.byteSize() == b.byteSize() &&
         !a.isPlaceholder() && !b.isPlaceholder() && std::memcmp(a.rawData(), b.rawData(), a.byteSize()) == 0;
}

std::string loadError(const std::string& text) {
  try {
    parseTvmScript(text, "m.py");
    return "";
  } catch (const DiagnosticError& e) {
    return e.diagnostics().front().span.location() + ": " + e.diagnostics().front().message;
  }
}

const char* kModule = R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        w: R.Tensor((4, 4), dtype="float32") = metadata["relax.expr.Constant"][0]
        b: R.Tensor((4,), dtype="int8") = metadata["relax.expr.Constant"][1]
        with R.dataflow():
            lv: R.Tensor((1, 4), dtype="float32") = R.matmul(x, w, out_dtype="void")
            lv1: R.Tensor((4,), dtype="float32") = R.astype(b, dtype="float32")
            gv: R.Tensor((1, 4), dtype="float32") = R.add(lv, lv1)
            R.output(gv)
        return gv
)";

/// kModule with its two constants given real data.
std::string moduleWithData() {
  NDArray w(DataType(DTypeCode::Float32), {4, 4});
  auto* wd = reinterpret_cast<float*>(w.mutableData());
  for (int i = 0; i < 16; ++i) wd[i] = 0.1f * static_cast<float>(i) - 0.75f;
  wd[3] = -0.0f;
  NDArray b(DataType(DTypeCode::Int8), {4});
  auto* bd = reinterpret_cast<int8_t*>(b.mutableData());
  bd[0] = -128;
  bd[1] = 0;
  bd[2] = 7;
  bd[3] = 127;
  return scriptMetadataStatement({w, b}) + kModule;
}

}  // namespace

TEST_CASE("TVMScript metadata: the statement is tvm-ffi's JSON graph", "[tvmscript][metadata]") {
  NDArray w = NDArray::scalar(DataType(DTypeCode::Float32), 1.5).reshaped({1});
  std::string json = encodeScriptMetadata({w});
  // The fields and node types of ffi::ToJSONGraph (indent 2).
  CHECK(json.rfind("{\n  \"root_index\": ", 0) == 0);
  CHECK(json.find("\n  \"nodes\": [\n    {\n      \"type\": \"ffi.String\",\n      \"data\": \"relax.expr.Constant\"\n    },\n"
                  "    {\n      \"type\": \"None\"\n    },") != std::string::npos);
  CHECK(json.find("\"type\": \"relax.expr.Constant\"") != std::string::npos);
  CHECK(json.find("\"type\": \"relax.TensorType\"") != std::string::npos);
  CHECK(json.find("\"type\": \"ffi.Tensor\"") != std::string::npos);
  CHECK(json.find("\"dtype\": \"float32\"") != std::string::npos);
  CHECK(json.find("\"metadata\": {\n    \"tvm_version\": \"0.26.0\"\n  }\n}") != std::string::npos);
  ScriptMetadata back = decodeScriptMetadata(json);
  REQUIRE(back.constants.size() == 1);
  CHECK(bitIdentical(back.constants[0], w));
  // The Python statement escapes quotes and keeps newlines (StrEscape(json, false, false)).
  std::string stmt = scriptMetadataStatement({w});
  CHECK(stmt.rfind("metadata = tvm.ir.load_json(\"\"\"{\n  \\\"root_index\\\": ", 0) == 0);
  CHECK(stmt.substr(stmt.size() - 5) == "\"\"\")\n");
}

TEST_CASE("TVMScript metadata: a hand-written module keeps its constants bit for bit", "[tvmscript][metadata]") {
  std::string text = moduleWithData();
  IRModule mod = parseTvmScript(text, "m.py");
  std::vector<NDArray> before = constantsOf(mod);
  REQUIRE(before.size() == 2);
  CHECK(!before[0].isPlaceholder());
  // Written as a file: the statement and the same module, byte for byte.
  std::string written = printModule(mod, fileOptions());
  CHECK(written == text);
  IRModule again = parseTvmScript(written, "again.py");
  CHECK(structuralEqual(mod, again));
  std::vector<NDArray> after = constantsOf(again);
  REQUIRE(after.size() == 2);
  for (size_t i = 0; i < 2; ++i) CHECK(bitIdentical(before[i], after[i]));
  // On screen: references and TVM's comment, no data.
  std::string screen = printModule(mod, screenOptions());
  CHECK(screen.find("load_json") == std::string::npos);
  CHECK(screen.find("# Metadata omitted.") != std::string::npos);
  CHECK(screen.find("metadata[\"relax.expr.Constant\"][1]") != std::string::npos);
}

TEST_CASE("TVMScript metadata: an ONNX model's weights survive load -> write .py -> load", "[tvmscript][metadata]") {
  IRModule mod = importOnnx(sourcePath("tests/data/onnx/mobilenetv3_small.onnx").string());
  std::vector<NDArray> before = constantsOf(mod);
  REQUIRE(before.size() > 10);
  std::string written = printModule(mod, fileOptions());
  CHECK(written.rfind("metadata = tvm.ir.load_json(\"\"\"", 0) == 0);
  CHECK(written.find("# Metadata omitted.") == std::string::npos);
  IRModule again = parseTvmScript(written, "model.py");
  std::vector<NDArray> after = constantsOf(again);
  REQUIRE(after.size() == before.size());
  size_t identical = 0;
  for (size_t i = 0; i < before.size(); ++i) identical += bitIdentical(before[i], after[i]);
  CHECK(identical == before.size());
  // Written again: a fixpoint.
  CHECK(printModule(again, fileOptions()) == written);
}

TEST_CASE("TVMScript metadata: placeholders stay placeholders (None entries)", "[tvmscript][metadata]") {
  IRModule mod = parseTvmScript(kModule, "m.py");  // no statement: placeholders
  // Nothing has data: no statement, and TVM's comment says so.
  std::string written = printModule(mod, fileOptions());
  CHECK(written.find("load_json") == std::string::npos);
  CHECK(written.find("# Metadata omitted.") != std::string::npos);
  IRModule again = parseTvmScript(written, "again.py");
  std::vector<NDArray> after = constantsOf(again);
  REQUIRE(after.size() == 2);
  CHECK(after[0].isPlaceholder());
  CHECK(structuralEqual(mod, again));
}

TEST_CASE("TVMScript metadata: malformed and legacy blocks are located errors", "[tvmscript][metadata]") {
  std::string good = moduleWithData();
  // Legacy save_json (what the Relay #[metadata] section holds).
  std::string legacy = "metadata = tvm.ir.load_json(\"\"\"{\n  \\\"root\\\": 1,\n  \\\"nodes\\\": [],\n  \\\"attrs\\\": {}\n}\"\"\")\n";
  CHECK(loadError(legacy + kModule).rfind("m.py:1:32: metadata JSON graph: this is TVM's legacy JSON format", 0) == 0);
  // A node index out of range, on line 3 of the string.
  std::string bad = good;
  size_t at = bad.find("\\\"root_index\\\": ");
  REQUIRE(at != std::string::npos);
  size_t digits = at + std::strlen("\\\"root_index\\\": ");
  bad.replace(digits, bad.find(',', digits) - digits, "999");
  CHECK(loadError(bad) == "m.py:2:19: metadata JSON graph: root_index 999 is out of range (22 nodes)");
  // Truncated JSON.
  CHECK(loadError("metadata = tvm.ir.load_json(\"\"\"{\n  \\\"nodes\\\": [\"\"\")\n" + std::string(kModule))
            .rfind("m.py:2:15: metadata JSON: unexpected end of input", 0) == 0);
  // Corrupt tensor bytes.
  std::string corrupt = good;
  size_t tensor = corrupt.find("\\\"type\\\": \\\"ffi.Tensor\\\",\n      \\\"data\\\": \\\"");
  REQUIRE(tensor != std::string::npos);
  corrupt.replace(corrupt.find("data\\\": \\\"", tensor) + 10, 4, "AAAA");
  CHECK(loadError(corrupt).find("metadata constant 0: ") != std::string::npos);
  // A reference beyond the table, and one whose annotation disagrees with the data.
  std::string beyond = good;
  beyond.replace(beyond.find("[\"relax.expr.Constant\"][1]"), 26, "[\"relax.expr.Constant\"][2]");
  CHECK(loadError(beyond).find(": metadata[\"relax.expr.Constant\"][2] is not in the metadata statement (it holds 2 "
                               "constants)") != std::string::npos);
  std::string typed = good;
  typed.replace(typed.find("b: R.Tensor((4,), dtype=\"int8\")"), 31, "b: R.Tensor((4,), dtype=\"int16\")");
  CHECK(loadError(typed).find("holds a R.Tensor((4,), dtype=\"int8\") but is annotated") != std::string::npos);
  // A second statement, and something that is not load_json.
  CHECK(loadError(scriptMetadataStatement({}) + good).find("a second metadata statement") != std::string::npos);
  CHECK(loadError("metadata = tvm.ir.save_json(\"x\")\n") ==
        "m.py:1:12: expected tvm.ir.load_json(\"\"\"...\"\"\") (TVM's show_meta=True), got 'tvm'");
}
