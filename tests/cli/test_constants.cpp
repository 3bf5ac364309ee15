// Constants by reference: large constants print as meta[relay.Constant][N]
// (core/text/constant_refs.h), N stable for a session, files carry TVM's
// #[metadata] section and load back losslessly, `show const N` describes one.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "core/analysis/structural_equal.h"
#include "core/ir/functor.h"
#include "core/text/constant_refs.h"
#include "core/text/metadata.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/command.h"
#include "repl/interpreter.h"
#include "tests/text_test_util.h"
#include "tests/test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// `const(Tensor[(shape), float32], [...])` with values start, start+step, ...
std::string constText(const std::vector<int64_t>& shape, double start, double step) {
  int64_t n = 1;
  std::string dims;
  for (int64_t d : shape) {
    n *= d;
    dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  }
  std::string out = "const(Tensor[(" + dims + "), float32], [";
  for (int64_t i = 0; i < n; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", start + step * static_cast<double>(i));
    out += (i ? ", " : "") + std::string(buf);
  }
  return out + "])";
}

/// Two convolutions: the first weight is a plain constant (4x3x3x3, 108
/// elements), the second a constant times 2, which FoldConstant folds into a
/// new constant; a 4-element bias and a scalar stay inline.
std::string twoConvModule() {
  return "#[version = \"0.0.5\"]\n"
         "def @main(%x: Tensor[(1, 3, 8, 8), float32]) {\n"
         "  %0 = nn.conv2d(%x, " + constText({4, 3, 3, 3}, -0.5, 0.01) +
         ", padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);\n"
         "  %1 = add(%0, " + constText({4, 1, 1}, 0.25, 0.25) + ");\n"
         "  %2 = multiply(" + constText({4, 4, 3, 3}, 0.125, 0.0625) + ", 2f);\n"
         "  %3 = nn.conv2d(%1, %2, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);\n"
         "  multiply(%3, 0.5f)\n"
         "}\n";
}

std::vector<NDArray> constantsOf(const IRModule& mod) {
  std::vector<NDArray> out;
  for (const auto& [name, fn] : mod->functions)
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* c = as<ConstantNode>(e)) out.push_back(c->data);
    });
  return out;
}

/// True when `loaded` (parsed from a file) is `mod` as the inline text would
/// load it: printing adds the inferred types as annotations, so `mod` is
/// compared through an inline print.
bool loadsAs(const IRModule& loaded, const IRModule& mod) {
  PrintOptions inlined;
  inlined.constants = ConstantStyle::Inline;
  return structuralEqual(inferTypes(loaded), inferTypes(parseModule(printModule(mod, inlined), "inline.relay")));
}

/// Line by line, so a mismatch names its line.
void checkLines(const std::string& actual, const std::string& expected) {
  std::istringstream a(actual), e(expected);
  std::string la, le;
  while (std::getline(e, le)) {
    REQUIRE(std::getline(a, la));
    CHECK(la == le);
  }
  CHECK_FALSE(std::getline(a, la));
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("Constants: above 16 elements a constant prints as a typed reference, smaller ones and scalars inline",
          "[constants]") {
  IRModule mod = inferTypes(parseModule(twoConvModule(), "two_conv.relay"));
  std::string text = printModule(mod);
  checkLines(text,
        "#[version = \"0.0.5\"]\n"
        "#[phase = 0]\n"
        "def @main(%x: Tensor[(1, 3, 8, 8), float32]) -> Tensor[(1, 4, 8, 8), float32] {\n"
        "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(4, 3, 3, 3), float32] */, padding=[1, 1, 1, 1], "
        "channels=4, kernel_size=[3, 3]) /* ty=Tensor[(1, 4, 8, 8), float32] */;\n"
        "  %1 = add(%0, const(Tensor[(4, 1, 1), float32], [0.25, 0.5, 0.75, 1])) /* ty=Tensor[(1, 4, 8, 8), float32] */;\n"
        "  %2 = multiply(meta[relay.Constant][1] /* ty=Tensor[(4, 4, 3, 3), float32] */, 2f /* ty=float32 */) /* "
        "ty=Tensor[(4, 4, 3, 3), float32] */;\n"
        "  %3 = nn.conv2d(%1, %2, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]) /* ty=Tensor[(1, 4, 8, 8), float32] */;\n"
        "  multiply(%3, 0.5f /* ty=float32 */) /* ty=Tensor[(1, 4, 8, 8), float32] */\n"
        "}\n");
  // The threshold: 16 elements inline, 17 by reference; a placeholder is never renumbered.
  CHECK_FALSE(printsAsReference(NDArray(DTypeCode::Float32, {16}), ConstantStyle::Ref));
  CHECK(printsAsReference(NDArray(DTypeCode::Float32, {17}), ConstantStyle::Ref));
  CHECK_FALSE(printsAsReference(NDArray(DTypeCode::Float32, {17}), ConstantStyle::Inline));
  CHECK_FALSE(printsAsReference(NDArray::placeholder(DTypeCode::Float32, {64}, 3), ConstantStyle::Ref));
  // Inline style: today's full text.
  PrintOptions inlined;
  inlined.constants = ConstantStyle::Inline;
  std::string full = printModule(mod, inlined);
  CHECK(full.find("meta[") == std::string::npos);
  CHECK(full.find("const(Tensor[(4, 3, 3, 3), float32], [-0.5, -0.49") != std::string::npos);
}

TEST_CASE("Constants: a numbering gives the same array (shared or equal) the same number", "[constants]") {
  ConstantNumbering numbering;
  NDArray a(DTypeCode::Float32, {4, 8});
  for (int64_t i = 0; i < 32; ++i) a.setFromDouble(i, static_cast<double>(i));
  NDArray b(DTypeCode::Float32, {4, 8});  // all zeros: different content
  NDArray equal(DTypeCode::Float32, {4, 8});
  for (int64_t i = 0; i < 32; ++i) equal.setFromDouble(i, static_cast<double>(i));
  numbering.reserve(1);  // a placeholder's number stays free
  CHECK(numbering.numberOf(a) == 0);
  CHECK(numbering.numberOf(b) == 2);
  CHECK(numbering.numberOf(equal) == 0);
  CHECK(numbering.numberOf(a.reshaped({32})) == 3);  // same bytes, another shape: another constant
  CHECK(numbering.find(a) == 0);
  CHECK(numbering.constant(2).bitwiseEqual(b));
  CHECK_FALSE(numbering.constant(1).defined());
  CHECK(numbering.size() == 3);
}

TEST_CASE("Constants: a #[metadata] section round-trips every dtype bit for bit", "[constants]") {
  DTypeCode code = GENERATE(DTypeCode::Float32, DTypeCode::Float16, DTypeCode::Float64, DTypeCode::Int8, DTypeCode::Int16,
                            DTypeCode::Int32, DTypeCode::Int64, DTypeCode::UInt8, DTypeCode::Bool);
  NDArray a(code, {3, 7});
  for (int64_t i = 0; i < a.numElements(); ++i) a.setFromDouble(i, code == DTypeCode::Bool ? i % 2 : (i % 11) - 4.5);
  NDArray scalar = NDArray::scalar(DataType(code), 1);
  TvmMetadata decoded = decodeTvmMetadata(encodeTvmMetadata({a, scalar}));
  REQUIRE(decoded.constants.size() == 2);
  CHECK(decoded.constants[0].bitwiseEqual(a));
  CHECK(decoded.constants[1].bitwiseEqual(scalar));
  CHECK(decodeBase64(encodeBase64("passlab")) == "passlab");
  CHECK(encodeBase64("ab") == "YWI=");
}

TEST_CASE("Constants: a file with a #[metadata] section loads back losslessly and prints identically", "[constants]") {
  IRModule mod = inferTypes(parseModule(twoConvModule(), "two_conv.relay"));
  PrintOptions file;
  file.metadataSection = true;
  std::string text = printModule(mod, file);
  CHECK(count(text, "#[metadata]") == 1);
  CHECK(text.find("meta[relay.Constant][1] /* ty=Tensor[(4, 4, 3, 3), float32] */") != std::string::npos);
  std::vector<Diagnostic> notes;
  IRModule back = inferTypes(parseModule(text, "round_trip.relay", &notes));
  CHECK(notes.empty());  // real data, no placeholders
  CHECK(loadsAs(back, mod));
  std::vector<NDArray> before = constantsOf(mod), after = constantsOf(back);
  REQUIRE(before.size() == after.size());
  for (size_t i = 0; i < before.size(); ++i) {
    CHECK(before[i].bitwiseEqual(after[i]));
    CHECK_FALSE(after[i].fromPlaceholder());
  }
  CHECK(printModule(back, file) == text);
  // Small modules need no section.
  IRModule small = parseModule("def @main(%x: Tensor[(4), float32]) {\n  add(%x, const(Tensor[(4), float32], [1, 2, 3, 4]))\n}\n", "small");
  CHECK(printModule(small, file).find("#[metadata]") == std::string::npos);
}

TEST_CASE("Constants: a module holding placeholders writes its real constants inline", "[constants]") {
  // A placeholder has no data to put in a section: the file keeps it as a
  // reference without one, so the real constant must be written inline.
  std::string text = "def @main(%x: Tensor[(1, 32), float32]) {\n"
                     "  %0 = add(%x, meta[relay.Constant][0] /* ty=Tensor[(1, 32), float32] */);\n"
                     "  add(%0, " + constText({1, 32}, 0, 1) + ")\n}\n";
  IRModule mod = inferTypes(parseModule(text, "placeholders.relay"));
  PrintOptions file;
  file.metadataSection = true;
  std::string out = printModule(mod, file);
  CHECK(out.find("\n#[metadata]\n") == std::string::npos);
  CHECK(out.find("meta[relay.Constant][0] /* ty=Tensor[(1, 32), float32] */") != std::string::npos);
  CHECK(out.find("const(Tensor[(1, 32), float32], [0, 1,") != std::string::npos);
  // On screen the real constant is a reference too, numbered around the placeholder's 0.
  std::string shown = printModule(mod);
  CHECK(shown.find("meta[relay.Constant][1] /* ty=Tensor[(1, 32), float32] */") != std::string::npos);
  // `show const 0` (and the GUI's hover) describes the placeholder on screen, saying its data is made up.
  Workbench wb(sharedBuiltinRegistry());
  wb.loadText(text, "placeholders.relay");
  NDArray placeholder = wb.numberedConstant(0);
  CHECK(placeholder.isPlaceholder());
  CHECK(describeConstant(placeholder).find("a placeholder") != std::string::npos);
  CHECK(wb.numberedConstant(1).getAsDouble(31) == 31);
  CHECK_THROWS_WITH(wb.numberedConstant(5), Catch::Contains("no constant meta[relay.Constant][5]"));
}

TEST_CASE("Constants: numbers are stable across the events of a session, and a folded constant gets a new one",
          "[constants]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.loadText(twoConvModule(), "two_conv.relay");
  wb.setPipeline("FoldConstant,FuseOps");
  wb.run();
  const std::string loaded = wb.moduleText(0, Side::After);
  const std::string folded = wb.moduleText(1, Side::After);
  const std::string fused = wb.moduleText(4, Side::After);  // #2, #3: FoldConstant's nested passes
  // The first weight is 0 everywhere, also inside the fused function; the
  // folded weight (2 x the second) is a new constant, 2.
  CHECK(loaded.find("nn.conv2d(%x, meta[relay.Constant][0]") != std::string::npos);
  CHECK(loaded.find("multiply(meta[relay.Constant][1]") != std::string::npos);
  CHECK(folded.find("nn.conv2d(%x, meta[relay.Constant][0]") != std::string::npos);
  CHECK(folded.find("meta[relay.Constant][1]") == std::string::npos);
  CHECK(folded.find("meta[relay.Constant][2] /* ty=Tensor[(4, 4, 3, 3), float32] */") != std::string::npos);
  CHECK(count(fused, "meta[relay.Constant][0]") == 1);
  CHECK(count(fused, "meta[relay.Constant][2]") == 1);
  // Printing an earlier event again (after later ones numbered more) gives the same text.
  CHECK(wb.moduleText(1, Side::After) == folded);
  CHECK(wb.numberedConstant(2).getAsDouble(0) == 0.25);
  CHECK_THROWS_WITH(wb.numberedConstant(9), Catch::Contains("no constant meta[relay.Constant][9]"));
  // The diff of FoldConstant names the new constant; the unchanged weight is no change.
  std::string diff = wb.alignedDiff(1, Side::Before, 1, Side::After);
  CHECK(diff.find("+") != std::string::npos);
  CHECK(diff.find("meta[relay.Constant][2]") != std::string::npos);
  CHECK(diff.substr(diff.rfind('\n', diff.size() - 2) + 1) == "meta[relay.Constant][2] is new, folded: 4x4x3x3 float32\n");
  for (size_t at = diff.find("meta[relay.Constant][0]"); at != std::string::npos; at = diff.find("meta[relay.Constant][0]", at + 1)) {
    size_t lineStart = diff.rfind('\n', at) + 1;
    CHECK(diff[lineStart] == ' ');  // only ever a context line
  }
  // A file of the module carries the data; it loads back equal.
  std::string file = wb.moduleFileText(4, Side::After);
  CHECK(file.find("#[metadata]") != std::string::npos);
  CHECK(loadsAs(parseModule(file, "fused.relay"), wb.moduleAt(4, Side::After)));
  // A new load numbers its constants afresh.
  wb.loadText(twoConvModule(), "again.relay");
  CHECK(wb.moduleText(0, Side::After) == loaded);
}

TEST_CASE("Constants: an edit of text with references keeps the constants' real data", "[constants]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.loadText(twoConvModule(), "two_conv.relay");
  std::string text = wb.moduleText(0, Side::After);
  REQUIRE(text.find("meta[relay.Constant][0]") != std::string::npos);
  const size_t at = text.find("multiply(%3, 0.5f");
  REQUIRE(at != std::string::npos);
  text.replace(at, 17, "multiply(%3, 0.25f");
  int id = wb.edit(text, "", "edited.relay");
  std::vector<NDArray> before = constantsOf(wb.moduleAt(0, Side::After)), after = constantsOf(wb.moduleAt(id, Side::After));
  REQUIRE(after.size() == before.size());
  for (const NDArray& a : after) CHECK_FALSE(a.fromPlaceholder());
  CHECK(wb.moduleText(id, Side::After).find("meta[relay.Constant][0]") != std::string::npos);
}

TEST_CASE("Constants: REPL show const, set print-constants and the settings list", "[constants]") {
  Workbench wb(sharedBuiltinRegistry());
  CommandInterpreter repl(wb);
  wb.loadText(twoConvModule(), "two_conv.relay");
  // The loaded module's constants are numbered at load, in print order.
  CHECK(repl.runLine("show const 2").error() ==
        "error: no constant meta[relay.Constant][2] has been printed (2 numbered so far; numbers are given as constants "
        "print)\n");
  CommandResult shown = repl.runLine("show const 0");
  REQUIRE(shown.ok());
  CHECK(shown.output() ==
        "meta[relay.Constant][0]: Tensor[(4, 3, 3, 3), float32], 108 elements (432 bytes)\n"
        "  values: [-0.5, -0.49, -0.48, -0.47, -0.46, -0.45, -0.44, -0.43, ...]  (first 8 of 108; --all for "
        "every element)\n"
        "  min -0.5, max 0.57, mean 0.035\n");
  std::string all = repl.runLine("show const 0 --all").output();
  CHECK(all.find("0.57]\n") != std::string::npos);
  const std::string values = all.substr(all.find("values: "), all.find("]\n") - all.find("values: "));
  CHECK(count(values, ", ") == 107);
  CHECK(repl.runLine("show const x").error().find("expected a constant number N") != std::string::npos);
  CHECK(repl.runLine("set").output().find("print-constants: ref\n") != std::string::npos);
  CHECK(repl.runLine("set print-constants inline").output() == "print-constants = inline\n");
  CHECK(repl.runLine("show").output().find("meta[") == std::string::npos);
  CHECK(repl.runLine("set print-constants big").error().find("inline or ref") != std::string::npos);
  REQUIRE(repl.runLine("set print-constants ref").ok());
  CHECK(repl.runLine("show").output().find("meta[relay.Constant][0]") != std::string::npos);
  // In TVMScript the reference is named as the TVMScript printer writes it.
  REQUIRE(repl.runLine("set syntax tvmscript").ok());
  CHECK(repl.runLine("show").output().find("metadata[\"relax.expr.Constant\"][0]") != std::string::npos);
  CHECK(repl.runLine("show const 0").output().rfind("metadata[\"relax.expr.Constant\"][0]: Tensor[(4, 3, 3, 3), float32]", 0) == 0);
  CHECK(repl.runLine("show const 7").error().rfind("error: no constant metadata[\"relax.expr.Constant\"][7] has been printed", 0) == 0);
}

TEST_CASE("Constants: save module writes a #[metadata] section that loads back", "[constants]") {
  Workbench wb(sharedBuiltinRegistry());
  CommandInterpreter repl(wb);
  wb.loadText(twoConvModule(), "two_conv.relay");
  const std::filesystem::path path = std::filesystem::path(PASSLAB_BINARY_DIR) / "constants_saved.relay";
  REQUIRE(repl.runLine("save module " + path.string()).ok());
  std::string text = readFile(path);
  CHECK(text.find("#[metadata]") != std::string::npos);
  Workbench other(sharedBuiltinRegistry());
  other.load(path.string());
  CHECK(other.loadNotes().empty());
  CHECK(loadsAs(other.moduleAt(0, Side::After), wb.moduleAt(0, Side::After)));
}

TEST_CASE("Constants: TVMScript prints the session's numbers, so metadata[...][N] is `show const N`", "[constants][tvmscript]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.loadText(twoConvModule(), "two_conv.relay");
  wb.setPipeline("FoldConstant");
  wb.run();
  wb.setPrintSyntax(TextSyntax::TVMScript);
  const std::string loaded = wb.moduleText(0, Side::After);
  const std::string folded = wb.moduleText(1, Side::After);
  // The weights keep the numbers the load gave them (0 and 1, as Relay text
  // prints them). TVMScript spells no tensor inline, so the 4-element bias is
  // a reference too: it takes the next number, 2, and the folded weight 3.
  CHECK(loaded.find("metadata[\"relax.expr.Constant\"][0]") != std::string::npos);
  CHECK(loaded.find("metadata[\"relax.expr.Constant\"][1]") != std::string::npos);
  CHECK(loaded.find("metadata[\"relax.expr.Constant\"][2]") != std::string::npos);
  CHECK(folded.find("metadata[\"relax.expr.Constant\"][3]") != std::string::npos);
  CHECK(folded.find("metadata[\"relax.expr.Constant\"][1]") == std::string::npos);
  CHECK(wb.moduleText(1, Side::After) == folded);
  CHECK(wb.numberedConstant(2).numElements() == 4);
  CHECK(wb.numberedConstant(3).getAsDouble(0) == 0.25);
  // The diff names the new constant as TVMScript spells it.
  std::string diff = wb.alignedDiff(1, Side::Before, 1, Side::After);
  CHECK(diff.find("metadata[\"relax.expr.Constant\"][3] is new, folded: 4x4x3x3 float32\n") != std::string::npos);
  // A TVMScript file has no metadata section (the TVMScript printer writes none).
  CHECK(wb.moduleFileText(1, Side::After).find("#[metadata]") == std::string::npos);
}
