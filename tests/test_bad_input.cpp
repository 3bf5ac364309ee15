// Bad-input corpus: every tests/bad/NAME.relay must fail (parse or type
// inference) with exactly the located message in tests/bad/NAME.expected, and
// no input whatsoever may crash, abort, overflow the stack or throw anything
// but a DiagnosticError. Large and deeply nested inputs are generated here.
#include <catch2/catch.hpp>

#include <random>
#include <sys/wait.h>

#include "text_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// Parses `text`; any outcome but success or a DiagnosticError fails the test.
/// Returns the diagnostics (empty on success).
std::vector<Diagnostic> parseOutcome(const std::string& text, const std::string& name = "input.relay") {
  try {
    IRModule mod = parseModule(text, name);
    inferTypes(mod);
    return {};
  } catch (const DiagnosticError& e) {
    return e.diagnostics();
  }
}

/// Every diagnostic must be located inside the file (or be the "too many errors" note).
void checkLocated(const std::vector<Diagnostic>& diags, const std::string& text) {
  uint32_t lines = 1 + static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n'));
  for (const Diagnostic& d : diags) {
    if (d.message == "too many errors; stopping") continue;
    CAPTURE(d.render());
    CHECK(d.span.known());
    CHECK(d.span.line <= lines);
  }
}

}  // namespace

TEST_CASE("Bad input: the corpus holds at least 40 malformed files", "[bad-input]") {
  CHECK(corpusNames("bad", ".relay").size() >= 40);
}

TEST_CASE("Bad input: each corpus file fails with its expected located message", "[bad-input]") {
  std::string name = GENERATE(from_range(corpusNames("bad", ".relay")));
  CAPTURE(name);
  std::string actual = firstError(readFile(corpusDir("bad") / (name + ".relay")), name + ".relay");
  auto expectedPath = corpusDir("bad") / (name + ".expected");
  if (updatingGoldens()) writeFile(expectedPath, actual + "\n");
  REQUIRE(std::filesystem::exists(expectedPath));
  CHECK(actual == firstLine(readFile(expectedPath)));
}

TEST_CASE("Bad input: independent errors in one file are all reported", "[bad-input]") {
  std::vector<Diagnostic> diags = parseOutcome(readFile(corpusDir("bad") / "multiple_errors.relay"), "multiple_errors.relay");
  REQUIRE(diags.size() == 3);
  CHECK(diags[0].span.line == 3);
  CHECK(diags[0].message == "undefined variable '%undefined'");
  CHECK(diags[1].span.line == 4);
  CHECK(diags[1].message.find("'bogus'") != std::string::npos);
  CHECK(diags[2].span.line == 9);
  CHECK(diags[2].message == "unknown operator 'mystery.op'");
}

TEST_CASE("Bad input: a broken binding does not cascade into its users", "[bad-input]") {
  std::string text =
      "def @main(%x: float32) {\n"
      "  %0 = nosuch.op(%x);\n"
      "  %1 = add(%0, %0);\n"
      "  %2 = multiply(%1, %0);\n"
      "  %2\n"
      "}\n";
  std::vector<Diagnostic> diags = parseOutcome(text);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "unknown operator 'nosuch.op'");
}

TEST_CASE("Bad input: errors are capped so garbage cannot flood the output", "[bad-input]") {
  std::string text = "def @main(%x: float32) {\n";
  for (int i = 0; i < 200; ++i) text += "  %" + std::to_string(i) + " = add(%x, %undefined" + std::to_string(i) + ");\n";
  text += "  %x\n}\n";
  std::vector<Diagnostic> diags = parseOutcome(text);
  REQUIRE(diags.size() == 21);
  CHECK(diags.back().message == "too many errors; stopping");
}

TEST_CASE("Bad input: 10,000 levels of nesting are refused with a located error", "[bad-input]") {
  constexpr int kLevels = 10000;
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    out.reserve(s.size() * n);
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  struct Case {
    const char* what;
    std::string text;
  };
  std::vector<Case> cases = {
      {"parentheses", "def @main(%x: float32) {\n  " + repeat("(", kLevels) + "%x" + repeat(")", kLevels) + "\n}\n"},
      {"calls", "def @main(%x: float32) {\n  " + repeat("negative(", kLevels) + "%x" + repeat(")", kLevels) + "\n}\n"},
      {"closures", "def @main(%x: float32) {\n  " + repeat("fn () { ", kLevels) + "%x" + repeat(" }", kLevels) + "\n}\n"},
      {"blocks", "def @main(%x: float32) {\n  " + repeat("{ ", kLevels) + "%x" + repeat(" }", kLevels) + "\n}\n"},
      {"ifs", "def @main(%c: bool) {\n  " + repeat("if (%c) { ", kLevels) + "%c" + repeat(" } else { %c }", kLevels) + "\n}\n"},
      {"tuple types", "def @main(%x: " + repeat("(", kLevels) + "float32" + repeat(",)", kLevels) + ") {\n  %x\n}\n"},
      {"function types", "def @main(%x: " + repeat("fn () -> ", kLevels) + "float32) {\n  %x\n}\n"},
      {"attribute lists", "def @main(%x: float32, a=" + repeat("[", kLevels) + repeat("]", kLevels) + ") {\n  %x\n}\n"},
      {"attribute dicts", "#[a = " + repeat("{\"k\": ", kLevels) + "1" + repeat("}", kLevels) + "]\n"},
      {"TIR parentheses", "primfn @f(%A: Buffer[(1), int32]) {\n  %A[0] = " + repeat("(", kLevels) + "1" + repeat(")", kLevels) + ";\n}\n"},
      {"TIR negations", "primfn @f(%A: Buffer[(1), bool]) {\n  %A[0] = " + repeat("!", kLevels) + "True;\n}\n"},
      {"TIR loops", "primfn @f(%A: Buffer[(1), int32]) {\n" + repeat("for (%i, 0, 1) { ", kLevels) + repeat("}", kLevels) + "\n}\n"},
      {"TIR blocks", "primfn @f(%A: Buffer[(1), int32]) {\n" + repeat("{ ", kLevels) + repeat("}", kLevels) + "\n}\n"},
      {"TIR calls", "primfn @f(%A: Buffer[(1), float32]) {\n  %A[0] = " + repeat("exp(", kLevels) + "1f" + repeat(")", kLevels) + ";\n}\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    std::vector<Diagnostic> diags = parseOutcome(c.text);
    REQUIRE(!diags.empty());
    CHECK(diags[0].message == "nesting too deep (more than 512 levels)");
    checkLocated(diags, c.text);
  }
}

TEST_CASE("Bad input: nesting within the limit still parses", "[bad-input]") {
  std::string text = "def @main(%x: float32) {\n  ";
  for (int i = 0; i < 100; ++i) text += "negative(";
  text += "%x";
  for (int i = 0; i < 100; ++i) text += ")";
  text += "\n}\n";
  CHECK(parseOutcome(text).empty());
}

TEST_CASE("Bad input: a 50 MB file gives a located error", "[bad-input]") {
  // One constant of ~10 million values, one value short of its type.
  constexpr int64_t kValues = 10'000'000;
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(" + std::to_string(kValues) +
                     "), float32]) {\n  add(%x, const(Tensor[(" + std::to_string(kValues) + "), float32], [";
  text.reserve(52'000'000);
  for (int64_t i = 0; i + 1 < kValues; ++i) text += i % 2 ? "0.5, " : "-1.25, ";
  text += "])\n}\n";
  REQUIRE(text.size() > 50'000'000);
  std::vector<Diagnostic> diags = parseOutcome(text, "big.relay");
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "const data has 9999999 values but its type needs 10000000");
  CHECK(diags[0].span.line == 3);
  CHECK(diags[0].span.column == 46);  // the "[" opening the values
}

TEST_CASE("Bad input: every truncation of every golden program fails cleanly or parses", "[bad-input]") {
  for (const std::string& name : corpusNames("golden", ".relay")) {
    std::string text = readFile(corpusDir("golden") / (name + ".relay"));
    for (size_t cut = 0; cut < text.size(); cut += 5) {
      CAPTURE(name, cut);
      std::string prefix = text.substr(0, cut);
      std::vector<Diagnostic> diags = parseOutcome(prefix);
      checkLocated(diags, prefix);
    }
  }
}

TEST_CASE("Bad input: random mutations never crash, and whatever parses round-trips", "[bad-input]") {
  std::vector<std::string> corpus;
  for (const std::string& name : corpusNames("golden", ".relay")) corpus.push_back(readFile(corpusDir("golden") / (name + ".relay")));
  static const char* kSnippets[] = {"(", ")", "{", "}", "[", "]", ",", ";", "%0", "%x", "@main", "fn", "let", "if",
                                    "else", "\"", "/*", "*/", "-", "1e999f", "0x", "nan", "meta", "const(", "#[", "=",
                                    ".0", "Tensor[", "?", "dataflow", "output", "for", "allocate_const", "\x01", "\xff"};
  std::mt19937 rng(12345);
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string text = corpus[rng() % corpus.size()];
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text.erase(at, 1 + rng() % 8); break;
        case 1: text.insert(at, kSnippets[rng() % std::size(kSnippets)]); break;
        default: text[at] = static_cast<char>(rng() % 256); break;
      }
    }
    CAPTURE(iteration, text);
    std::vector<Diagnostic> diags;
    IRModule mod;
    try {
      mod = parseModule(text, "mutant.relay");
    } catch (const DiagnosticError& e) {
      diags = e.diagnostics();
    }
    checkLocated(diags, text);
    if (!mod) continue;
    PrintOptions plain;
    plain.typeComments = false;
    plain.metadataSection = true;  // as a file: large constants' data in the #[metadata] section
    std::string once = printModule(mod, plain);
    CHECK(printModule(parseModule(once, "printed.relay"), plain) == once);
  }
}

TEST_CASE("Bad input: an unreadable file is an error naming it", "[bad-input]") {
  try {
    parseModuleFile("/nonexistent/model.relay");
    FAIL("expected an error");
  } catch (const DiagnosticError& e) {
    CHECK(e.diagnostics()[0].message == "cannot read file '/nonexistent/model.relay'");
  }
}

TEST_CASE("Bad input: the passlab binary exits 1 and prints the located error", "[bad-input]") {
  const std::string binary = std::string(PASSLAB_BINARY_DIR) + "/passlab";
  REQUIRE(std::filesystem::exists(binary));
  std::string name = GENERATE(Catch::Generators::as<std::string>{}, "undefined_var", "unknown_op", "shape_mismatch", "binary_garbage",
                              "deep_nesting", "truncated_def", "unterminated_string");
  CAPTURE(name);
  auto input = corpusDir("bad") / (name + ".relay");
  auto errPath = std::filesystem::temp_directory_path() / ("passlab_bad_" + name + ".err");
  std::string command = "'" + binary + "' '" + input.string() + "' -o - > /dev/null 2> '" + errPath.string() + "'";
  int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  // The binary names the file by its path; the message after the path is the expected one.
  std::string err = firstLine(readFile(errPath));
  std::string expected = firstLine(readFile(corpusDir("bad") / (name + ".expected")));
  std::string expectedTail = expected.substr(name.size() + 6);  // drop "NAME.relay"
  CHECK(err == input.string() + expectedTail);
  std::filesystem::remove(errPath);
}
