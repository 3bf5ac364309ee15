// Type inference, well-formedness and structural equality on Relay text as TVM
// prints it (through the parser): inferred types per op, located errors with
// line and column, several errors in one file.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/text/parser.h"

using namespace passlab;
using Catch::Contains;

namespace {

/// The inferred return type of @main for a body over the given parameters.
std::string mainType(const std::string& params, const std::string& body) {
  IRModule mod = parseModule("#[version = \"0.0.5\"]\ndef @main(" + params + ") {\n" + body + "\n}\n", "case.relay");
  std::vector<Diagnostic> ds = checkTypes(mod);
  if (!ds.empty()) return "error: " + ds.front().message;
  return typeToString(as<FuncTypeNode>(mod->lookup("main")->checkedType)->ret);
}

}  // namespace

TEST_CASE("TextTypes: ops as TVM prints them infer TVM's types", "[types][text]") {
  using Row = std::tuple<std::string, std::string, std::string>;
  auto [params, body, expected] = GENERATE(table<std::string, std::string, std::string>({
      Row{"%x: Tensor[(1, 3, 224, 224), float32], %w: Tensor[(64, 3, 7, 7), float32]",
          "nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, 7])",
          "Tensor[(1, 64, 112, 112), float32]"},
      Row{"%x: Tensor[(1, 64, 112, 112), float32]", "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])",
          "Tensor[(1, 64, 56, 56), float32]"},
      Row{"%x: Tensor[(1, 512, 7, 7), float16]", "%0 = nn.global_avg_pool2d(%x);\n  reshape(%0, newshape=[0, -1])",
          "Tensor[(1, 512), float16]"},
      Row{"%x: Tensor[(1, 512), float32], %w: Tensor[(1000, 512), float32]", "nn.dense(%x, %w, units=1000)",
          "Tensor[(1, 1000), float32]"},
      Row{"%x: Tensor[(1, 16, 8, 8), float32], %g: Tensor[(16), float32]",
          "%0 = nn.batch_norm(%x, %g, %g, %g, %g, epsilon=0.001f);\n  %0.0", "Tensor[(1, 16, 8, 8), float32]"},
      Row{"%x: Tensor[(1, 4), float32]", "clip(%x, a_min=0f, a_max=6f)", "Tensor[(1, 4), float32]"},
      Row{"%x: Tensor[(2, 3), float32]", "cast(%x, dtype=\"float16\")", "Tensor[(2, 3), float16]"},
      Row{"%x: Tensor[(2, 3, 4), float32]", "mean(%x, axis=[1], keepdims=True)", "Tensor[(2, 1, 4), float32]"},
      Row{"%x: Tensor[(2, 6), float32]", "%0 = split(%x, indices_or_sections=3, axis=1);\n  %0.2", "Tensor[(2, 2), float32]"},
      Row{"%x: Tensor[(2, 3), float32], %y: Tensor[(2, 5), float32]", "concatenate((%x, %y), axis=1)", "Tensor[(2, 8), float32]"},
      Row{"%x: Tensor[(1, 3, 8, 8), float32]", "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\")",
          "Tensor[(1, 8, 8, 3), float32]"},
      Row{"%x: Tensor[(1, 3, 8, 8), float32]", "image.resize2d(%x, size=[16, 16], roi=[0f, 0f, 0f, 0f], method=\"nearest_neighbor\")",
          "Tensor[(1, 3, 16, 16), float32]"},
      Row{"%x: Tensor[(10, 4), float32], %i: Tensor[(3), int64]", "take(%x, %i, axis=0)", "Tensor[(3, 4), float32]"},
      Row{"%x: Tensor[(1, 3, 4, 4), float32]", "nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]])",
          "Tensor[(1, 3, 6, 6), float32]"},
      Row{"%x: Tensor[(4, 5), float32]", "strided_slice(%x, begin=[1, 0], end=[3, 5], strides=[1, 1])", "Tensor[(2, 5), float32]"},
      Row{"%x: Tensor[(2, 3), float32], %y: Tensor[(3), float32]", "less(%x, %y)", "Tensor[(2, 3), bool]"},
  }));
  CAPTURE(body);
  CHECK(mainType(params, body) == expected);
}

TEST_CASE("TextTypes: a shape mismatch is reported at its line and column", "[types][text]") {
  IRModule mod = parseModule(
      "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(4, 3), float32]) {\n"
      "  %0 = nn.relu(%x);\n"
      "  %1 = add(%0, %y);\n"
      "  %1\n"
      "}\n",
      "bad.relay");
  std::vector<Diagnostic> ds = checkTypes(mod);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].span.line == 3);
  CHECK(ds[0].span.column > 1);
  CHECK(ds[0].function == "main");
  CHECK_THAT(ds[0].render(), Contains("bad.relay:3:") && Contains("(2, 3)") && Contains("(4, 3)") && Contains("^"));
}

TEST_CASE("TextTypes: independent errors in several functions are all reported", "[types][text]") {
  IRModule mod = parseModule(
      "def @f(%a: Tensor[(8), float32]) {\n"
      "  reshape(%a, newshape=[3, 3])\n"
      "}\n"
      "def @main(%x: Tensor[(2, 2), float32], %h: Tensor[(2, 2), float16]) {\n"
      "  %0 = multiply(%x, %h);\n"
      "  %1 = nn.softmax(%x, axis=4);\n"
      "  (%0, %1)\n"
      "}\n",
      "multi.relay");
  std::vector<Diagnostic> ds = checkTypes(mod);
  REQUIRE(ds.size() == 3);
  std::vector<uint32_t> lines;
  for (const Diagnostic& d : ds) lines.push_back(d.span.line);
  std::sort(lines.begin(), lines.end());
  CHECK(lines == std::vector<uint32_t>{2, 5, 6});
}

TEST_CASE("TextTypes: BYOC-partitioned module with a Compiler function", "[types][text]") {
  IRModule mod = parseModule(
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(1, 8), float32]) -> Tensor[(1, 8), float32] {\n"
      "  %0 = @tvmgen_default_ccompiler_main_0(%x);\n"
      "  nn.relu(%0)\n"
      "}\n"
      "def @tvmgen_default_ccompiler_main_0(%a: Tensor[(1, 8), float32], Compiler=\"ccompiler\", Primitive=1, Inline=1, "
      "global_symbol=\"tvmgen_default_ccompiler_main_0\") -> Tensor[(1, 8), float32] {\n"
      "  add(%a, %a)\n"
      "}\n",
      "byoc.relay");
  REQUIRE(checkTypes(mod).empty());
  CHECK(checkWellFormed(mod).empty());
}

TEST_CASE("TextTypes: parsing the same text twice gives structurally equal modules", "[structural][text]") {
  std::string text =
      "def @main(%x: Tensor[(1, 4), float32]) {\n"
      "  let %f = fn (%p: Tensor[(1, 4), float32]) { nn.relu(%p) };\n"
      "  let %y = %f(%x);\n"
      "  (%y, %x)\n"
      "}\n";
  IRModule a = parseModule(text, "a.relay");
  IRModule b = parseModule(text, "b.relay");
  CHECK(structuralEqual(a, b));
  CHECK(structuralHash(a) == structuralHash(b));
  IRModule c = parseModule(
      "def @main(%x: Tensor[(1, 4), float32]) {\n"
      "  let %g = fn (%q: Tensor[(1, 4), float32]) { nn.relu(%q) };\n"
      "  let %z = %g(%x);\n"
      "  (%x, %z)\n"
      "}\n",
      "c.relay");
  CHECK_FALSE(structuralEqual(a, c));  // tuple fields swapped
}
