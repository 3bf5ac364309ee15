// call_tir's tir_vars= (TVM 0.20 .. 0.25): read and printed in both
// spellings, type-checked against the PrimFunc's scalar parameters, run by
// the interpreter, and lowered by CallTIRRewrite when the values are known.
#include <catch2/catch.hpp>

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/interp/interpreter.h"
#include "core/pass/pass.h"
#include "core/pass/registry.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"
#include "tests/interp_test_util.h"
#include "tests/test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

IRModule loadCorpus() {
  return parseTvmScript(readFile(sourcePath("tests/tvmscript/handwritten_call_tir_vars.py")), "vars.py");
}

std::string loadError(const std::string& text) {
  try {
    inferTypes(parseTvmScript(text, "t.py"));
    return "";
  } catch (const DiagnosticError& e) {
    return e.diagnostics().front().span.location() + ": " + e.diagnostics().front().message;
  }
}

IRModule runNamed(const std::string& pass, const IRModule& mod) {
  PassContextPtr ctx = PassContext::create();
  return runPass(*parsePipeline(pass, builtinRegistry()), mod, *ctx);
}

}  // namespace

TEST_CASE("tir_vars: printed back in both spellings", "[tvmscript][tir_vars]") {
  IRModule mod = loadCorpus();
  for (TvmScriptSpelling spelling : {TvmScriptSpelling::Release, TvmScriptSpelling::Main}) {
    PrintOptions o;
    o.syntax = TextSyntax::TVMScript;
    o.spelling = spelling;
    std::string text = printModule(mod, o);
    CAPTURE(text);
    CHECK(text.find(", tir_vars=R.shape([n]))") != std::string::npos);
    CHECK(text.find(spelling == TvmScriptSpelling::Main ? "out_ty=" : "out_sinfo=") != std::string::npos);
    IRModule again = parseTvmScript(text, "again.py");
    CHECK(structuralEqual(mod, again));
    CHECK(printModule(again, o) == text);
  }
}

TEST_CASE("tir_vars: the interpreter passes them to the PrimFunc, for any n", "[interp][tir_vars]") {
  IRModule mod = inferTypes(loadCorpus());
  NDArray x = f32({4}, {0.5, -1, 2, 0});
  for (int64_t n : {3, 5}) {
    std::vector<double> y(static_cast<size_t>(n), 0.0), want;
    for (double v : toDoubles(x)) want.push_back(v + static_cast<double>(n));
    Value out = evaluate(mod, "main", {x, f32({n}, y)});
    REQUIRE(out.isTensor());
    CHECK(toDoubles(out.tensor()) == want);
  }
}

TEST_CASE("tir_vars: checked against the PrimFunc's parameters", "[tvmscript][tir_vars]") {
  std::string text = readFile(sourcePath("tests/tvmscript/handwritten_call_tir_vars.py"));
  // One value too many.
  std::string two = text;
  two.replace(two.find("tir_vars=R.shape([n])"), 21, "tir_vars=R.shape([n, 2])");
  CHECK(loadError(two).find("callee takes 3 parameters but the call passes 1 inputs and 1 outputs and 2 tir_vars") !=
        std::string::npos);
  // A float scalar parameter.
  std::string flt = text;
  flt.replace(flt.find("m: T.int64"), 10, "m: T.float32");
  CHECK(loadError(flt).find("tir_vars value 0 goes to a parameter of type") != std::string::npos);
  // Not a shape.
  std::string bad = text;
  bad.replace(bad.find("tir_vars=R.shape([n])"), 21, "tir_vars=\"n\"");
  CHECK(loadError(bad) == "t.py:18:85: tir_vars takes the symbolic values to pass, as R.shape([n]) or [n]");
}

TEST_CASE("tir_vars: CallTIRRewrite passes known values and refuses symbolic ones", "[passes][tir_vars]") {
  std::string text = readFile(sourcePath("tests/tvmscript/handwritten_call_tir_vars.py"));
  // Symbolic n: TVM emits call_tir_dyn, which passlab lacks.
  IRModule symbolic = inferTypes(parseTvmScript(text, "t.py"));
  CHECK_THROWS_WITH(runNamed("CallTIRRewrite", symbolic), Catch::Contains("tir_vars value \"n\" is symbolic"));
  // Static: the value follows the output, and the lowered module computes the same.
  std::string fixed = text;
  fixed.replace(fixed.find("y: R.Tensor((\"n\",)"), 18, "y: R.Tensor((4,)");
  fixed.replace(fixed.find("tir_vars=R.shape([n])"), 21, "tir_vars=R.shape([4])");
  fixed.replace(fixed.find("        n = T.int64()\n"), 22, "");
  IRModule mod = inferTypes(parseTvmScript(fixed, "t.py"));
  IRModule lowered = runNamed("CallTIRRewrite", mod);
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  std::string printed = printModule(lowered, o);
  CAPTURE(printed);
  CHECK(printed.find("cls.shift(x, alloc, R.const(4, \"int64\"))") != std::string::npos);
  NDArray x = f32({4}, {1, 2, 3, 4}), y = f32({4}, {0, 0, 0, 0});
  CHECK(toDoubles(evaluate(lowered, "main", {x, y}).tensor()) == std::vector<double>{5, 6, 7, 8});
  CHECK(toDoubles(evaluate(mod, "main", {x, y}).tensor()) == std::vector<double>{5, 6, 7, 8});
}

TEST_CASE("tir_vars: bound by BindSymbolicVars, CallTIRRewrite lowers them", "[passes][tir_vars][symbolic]") {
  IRModule mod = inferTypes(loadCorpus());
  IRModule bound = runNamed("BindSymbolicVars{binding_map=\"n=3\"}", mod);
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  std::string text = printModule(bound, o);
  CAPTURE(text);
  CHECK(text.find("y: R.Tensor((3,), dtype=\"float32\")") != std::string::npos);
  CHECK(text.find("tir_vars=R.shape([3])") != std::string::npos);
  IRModule lowered = runNamed("CallTIRRewrite", bound);
  NDArray x = f32({4}, {1, 2, 3, 4}), y = f32({3}, {0, 0, 0});
  CHECK(toDoubles(evaluate(lowered, "main", {x, y}).tensor()) == std::vector<double>{4, 5, 6, 7});
}

TEST_CASE("BindSymbolicVars: TVM's errors, by name", "[passes][symbolic]") {
  IRModule mod = inferTypes(loadCorpus());
  CHECK_THROWS_WITH(runNamed("BindSymbolicVars{binding_map=\"k=3\"}", mod),
                    Catch::Contains("no function defines a shape variable named 'k'"));
  CHECK_THROWS_WITH(runNamed("BindSymbolicVars{binding_map=\"n=3\",func_name=\"other\"}", mod),
                    Catch::Contains("the module has no function 'other'"));
  CHECK_THROWS_WITH(runNamed("BindSymbolicVars{binding_map=\"n=3;n=4\"}", mod), Catch::Contains("'n' is bound twice"));
  CHECK_THROWS_WITH(runNamed("BindSymbolicVars{binding_map=\"n\"}", mod), Catch::Contains("binding 'n' is not name=value"));
  // An empty map leaves the module as it is.
  CHECK(runNamed("BindSymbolicVars", mod) == mod);
}
