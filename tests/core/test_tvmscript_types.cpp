// The Relax types that know less than a shape and a dtype (TVM's void dtype
// and unknown rank), R.Shape types with symbolic values, tensor types on a
// virtual device, and dimensions written with a leading parenthesis: how they
// read, print, compare and pass type inference.
#include <catch2/catch.hpp>

#include <string>

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"

using namespace passlab;

namespace {

const char* kHead = "# from tvm.script import ir as I\n# from tvm.script import tir as T\n# from tvm.script import relax as R\n\n"
                    "@I.ir_module\nclass Module:\n    @R.function\n";

PrintOptions scriptOptions() {
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  return o;
}

/// The type of main's first parameter as written in `param`.
Type paramType(const std::string& param) {
  std::string text = std::string(kHead) + "    def main(x: " + param + ") -> R.Object:\n        return x\n";
  IRModule mod = parseTvmScript(text, "t.py");
  return mod->lookupFunction("main")->params[0]->annotation;
}

/// The located error of type-checking `body` in a function of (x: param), or "".
std::string inferError(const std::string& param, const std::string& body) {
  std::string text = std::string(kHead) + "    def main(x: " + param + ") -> R.Object:\n" + body;
  try {
    inferTypes(parseTvmScript(text, "t.py"));
    return "";
  } catch (const DiagnosticError& e) {
    return e.renderAll();
  }
}

}  // namespace

TEST_CASE("TVMScript types: unknown rank and dtype read as TVM's and print back in TVM's spelling", "[tvmscript][types]") {
  auto [written, printed, rankKnown, dtypeKnown] = GENERATE(table<std::string, std::string, bool, bool>({
      {"R.Tensor(ndim=2)", "R.Tensor(ndim=2)", true, false},
      {"R.Tensor(ndim=2, dtype=None)", "R.Tensor(ndim=2)", true, false},
      {"R.Tensor(dtype=\"float32\")", "R.Tensor(dtype=\"float32\")", false, true},
      {"R.Tensor", "R.Tensor", false, false},
      {"R.Tensor()", "R.Tensor", false, false},
      {"R.Tensor((2, 3))", "R.Tensor((2, 3))", true, false},
      {"R.Tensor((2, 3), dtype=\"void\")", "R.Tensor((2, 3))", true, false},
      {"R.Tensor(ndim=3, dtype=\"int8\")", "R.Tensor(dtype=\"int8\", ndim=3)", true, true},
  }));
  CAPTURE(written);
  Type t = paramType(written);
  const auto* tt = as<TensorTypeNode>(t);
  REQUIRE(tt);
  CHECK(tt->unknownRank == !rankKnown);
  CHECK(tt->unknownDtype == !dtypeKnown);
  CHECK(tt->hasDynamicDim() == (!rankKnown || written.find("ndim") != std::string::npos));
  CHECK(relaxTypeText(t) == printed);
  CHECK(typeEqual(t, paramType(printed)));
  // Unknown is not equal to known.
  CHECK_FALSE(typeEqual(t, tensorType({2, 3}, DTypeCode::Float32)));
}

TEST_CASE("TVMScript types: an unknown rank or dtype fits any in an annotation, and graph ops refuse it", "[tvmscript][types]") {
  // Binding a known tensor to a variable declared with less: TVM's base types.
  CHECK(inferError("R.Tensor((2, 3), dtype=\"float32\")", "        y: R.Tensor(ndim=2) = R.add(x, x)\n        return y\n") == "");
  CHECK(inferError("R.Tensor((2, 3), dtype=\"float32\")", "        y: R.Tensor = R.add(x, x)\n        return y\n") == "");
  CHECK(inferError("R.Tensor((2, 3), dtype=\"float32\")", "        y: R.Tensor(dtype=\"float32\") = R.add(x, x)\n        return y\n") == "");
  // A rank that disagrees is still an error.
  CHECK_THAT(inferError("R.Tensor((2, 3), dtype=\"float32\")", "        y: R.Tensor(ndim=3) = R.add(x, x)\n        return y\n"),
             Catch::Contains("declared"));
  // A graph op on a tensor of unknown rank: located, and says what to do.
  std::string err = inferError("R.Tensor(ndim=2)", "        y = R.add(x, x)\n        return y\n");
  CHECK_THAT(err, Catch::Contains("t.py:9:") && Catch::Contains("unknown dtype") && Catch::Contains("R.match_cast it first"));
  // match_cast is how one gets the shape back.
  CHECK(inferError("R.Tensor", "        y: R.Tensor((2, 3), dtype=\"float32\") = R.match_cast(x, R.Tensor((2, 3), dtype=\"float32\"))\n"
                               "        z = R.add(y, y)\n        return z\n") == "");
}

TEST_CASE("TVMScript types: R.Shape keeps symbolic values, vdevice stays in the type", "[tvmscript][types]") {
  Type s = paramType("R.Shape([\"n\", 4])");
  const auto* sh = as<ShapeTypeNode>(s);
  REQUIRE(sh);
  CHECK(sh->ndim == 2);
  REQUIRE(sh->symbolic.size() == 2);
  CHECK(sh->symbolic[0]);
  CHECK_FALSE(sh->symbolic[1]);
  CHECK(relaxTypeText(s) == "R.Shape([n, 4])");
  CHECK_FALSE(typeEqual(s, shapeTypeOfRank(2)));
  Type v = paramType("R.Tensor((2, 3), dtype=\"float32\", vdevice=\"llvm:1\")");
  REQUIRE(as<TensorTypeNode>(v));
  CHECK(as<TensorTypeNode>(v)->vdevice == "llvm:1");
  CHECK(relaxTypeText(v) == "R.Tensor((2, 3), dtype=\"float32\", vdevice=\"llvm:1\")");
  CHECK_FALSE(typeEqual(v, tensorType({2, 3}, DTypeCode::Float32)));
  try {
    paramType("R.Tensor((2, 3), dtype=\"float32\", vdevice=\"llvm\")");
    FAIL("a vdevice without an index was read");
  } catch (const DiagnosticError& e) {
    CHECK_THAT(e.renderAll(), Catch::Contains("t.py:8:") && Catch::Contains("\"kind:index\""));
  }
}

TEST_CASE("TVMScript types: a list dimension may start with a parenthesis", "[tvmscript][types]") {
  std::string text = std::string(kHead) +
                     "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\")) -> R.Shape(ndim=3):\n        n = T.int64()\n"
                     "        s: R.Shape(ndim=3) = R.shape([(n + 1) * 2, (n - 1) // 2, (n)])\n        return s\n";
  IRModule mod = inferTypes(parseTvmScript(text, "p.py"));
  std::string printed = printModule(mod, scriptOptions());
  CHECK_THAT(printed, Catch::Contains("R.shape([(n + 1) * 2, (n - 1) // 2, n])"));
  CHECK(structuralEqual(mod, inferTypes(parseTvmScript(printed, "p2.py"))));
  // A parenthesis with a comma is still a tuple, which a dimension is not.
  CHECK_THROWS_AS(parseTvmScript(std::string(kHead) +
                                     "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\")) -> R.Shape(ndim=1):\n"
                                     "        n = T.int64()\n        s = R.shape([(n, 1)])\n        return s\n",
                                 "q.py"),
                  DiagnosticError);
}

TEST_CASE("TVMScript types: R.Prim(value=n) and R.prim_value(n) carry a symbolic value", "[tvmscript][types]") {
  Type p = paramType("R.Prim(value=\"n\")");
  const auto* pr = as<PrimTypeNode>(p);
  REQUIRE(pr);
  CHECK(pr->dtype == DataType(DTypeCode::Int64));
  CHECK_FALSE(pr->value);
  REQUIRE(pr->symbolic);
  CHECK(relaxTypeText(p) == "R.Prim(value=n)");
  // A constant written as a string is a constant; a symbolic value is not the bare dtype.
  CHECK(as<PrimTypeNode>(paramType("R.Prim(value=\"4\")"))->value == 4);
  CHECK_FALSE(typeEqual(p, primType(DTypeCode::Int64)));
  // The body's R.prim_value of an expression types as R.Prim(value=...), and the module prints back to itself.
  std::string text = std::string(kHead) +
                     "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\"), k: R.Prim(value=\"m\")) -> R.Prim(\"int64\"):\n"
                     "        n = T.int64()\n        m = T.int64()\n"
                     "        v: R.Prim(value=n * m + 1) = R.prim_value(n * m + 1)\n"
                     "        j: R.Prim(value=m) = R.match_cast(k, R.Prim(value=m))\n"
                     "        return v\n";
  IRModule mod = inferTypes(parseTvmScript(text, "p.py"));
  std::string printed = printModule(mod, scriptOptions());
  CAPTURE(printed);
  CHECK_THAT(printed, Catch::Contains("k: R.Prim(value=\"m\")") && Catch::Contains("R.prim_value(n * m + 1)") &&
                          Catch::Contains("v: R.Prim(value=n * m + 1)"));
  IRModule reread = inferTypes(parseTvmScript(printed, "p2.py"));
  CHECK(printModule(reread, scriptOptions()) == printed);
  CHECK(structuralEqual(mod, reread));
  // A name that is no shape variable is an error at its place.
  try {
    paramType("R.Prim(value=q)");
    FAIL("an undeclared shape variable was read");
  } catch (const DiagnosticError& e) {
    CHECK_THAT(e.renderAll(), Catch::Contains("t.py:8:") && Catch::Contains("unknown shape variable 'q'"));
  }
}

TEST_CASE("TVMScript: R.nn.group_norm reads, types and prints with TVM's attributes", "[tvmscript][types]") {
  std::string text = std::string(kHead) +
                     "    def main(x: R.Tensor((2, 6, 4), dtype=\"float32\"), g: R.Tensor((6,), dtype=\"float32\"), b: R.Tensor((6,), dtype=\"float32\")) -> R.Tensor((2, 6, 4), dtype=\"float32\"):\n"
                     "        gv: R.Tensor((2, 6, 4), dtype=\"float32\") = R.nn.group_norm(x, g, b, num_groups=3, channel_axis=1, axes=[2])\n"
                     "        return gv\n";
  IRModule mod = inferTypes(parseTvmScript(text, "g.py"));
  std::string printed = printModule(mod, scriptOptions());
  CHECK_THAT(printed, Catch::Contains("R.nn.group_norm(x, g, b, num_groups=3, channel_axis=1, axes=[2], epsilon=1.0000000000000001e-05, center=True, scale=True)"));
  CHECK(structuralEqual(mod, inferTypes(parseTvmScript(printed, "g2.py"))));
  // TVM's type rules: groups divide the channels, the channel axis is not normalized over.
  auto error = [&](const std::string& from, const std::string& to) {
    std::string bad = text;
    bad.replace(bad.find(from), from.size(), to);
    try {
      inferTypes(parseTvmScript(bad, "g.py"));
      return std::string();
    } catch (const DiagnosticError& e) {
      return e.renderAll();
    }
  };
  CHECK_THAT(error("num_groups=3", "num_groups=4"), Catch::Contains("divisible by 4"));
  CHECK_THAT(error("axes=[2]", "axes=[1, 2]"), Catch::Contains("channel_axis must not be in axes"));
  CHECK_THAT(error("g, b, num", "x, b, num"), Catch::Contains("gamma"));
}
