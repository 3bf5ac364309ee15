// Bad-input corpus: every tests/bad/NAME.relay must fail (parse or type
// inference) with exactly the located message in tests/bad/NAME.expected, and
// no input whatsoever may crash, abort, overflow the stack or throw anything
// but a DiagnosticError. Large and deeply nested inputs are generated here.
#include <catch2/catch.hpp>

#include <random>
#include <sys/wait.h>

#include "core/interp/interp_limits.h"
#include "core/interp/interpreter.h"
#include "core/ir/file_io.h"
#include "core/ir/limits.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/interpreter.h"
#include "tests/text_test_util.h"
#include "tests/test_util.h"

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

// ---- Resource limits and input validation (issue 31's hostile inputs) ---------

namespace {

/// The first diagnostic of `f()`, which must throw a DiagnosticError.
template <class F>
Diagnostic firstDiagnostic(F&& f) {
  try {
    f();
  } catch (const DiagnosticError& e) {
    REQUIRE(!e.diagnostics().empty());
    return e.diagnostics().front();
  }
  FAIL("expected a DiagnosticError");
  return {};
}

/// A REPL session with a small module loaded.
struct Session {
  Workbench workbench{sharedBuiltinRegistry()};
  CommandInterpreter interpreter{workbench};
  Session() {
    workbench.loadModule(parseModule("def @main(%x: Tensor[(2, 3), float32]) {\n  nn.relu(%x)\n}\n", "small.relay"), "small.relay");
  }
};

std::string repeat(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

/// Restores the interpreter settings a test changes.
struct InterpSettingsGuard {
  int64_t saved = interp::maxBytes();
  ~InterpSettingsGuard() {
    interp::setMaxBytes(saved);
    interp::clearInterrupt();
  }
};

}  // namespace

TEST_CASE("Bad input: pipeline specs nested 20,000 deep are a located error naming the limit", "[bad-input][limits]") {
  auto registry = sharedBuiltinRegistry();
  struct Case {
    const char* what;
    std::string spec;
    size_t column;  // where the 513th level opens
  };
  Case c = GENERATE_COPY(Case{"nested pipelines", repeat("g(", 20000) + "InferType" + repeat(")", 20000), 2 * 512 + 2},
                         Case{"option lists", "FuseOps{fuse_opt_level=" + repeat("[", 20000) + repeat("]", 20000) + "}", 24 + 512});
  CAPTURE(c.what);
  Diagnostic d = firstDiagnostic([&] { parsePipeline(c.spec, *registry); });
  CHECK(d.message == "nesting too deep (more than 512 levels)");
  CHECK(d.span.line == 1);
  CHECK(d.span.column == c.column);
  // Within the limit it still parses.
  CHECK(parsePipeline(repeat("g(", 100) + "InferType" + repeat(")", 100), *registry));
}

TEST_CASE("Bad input: element counts are overflow-checked", "[bad-input][limits]") {
  using limits::checkedElementCount;
  CHECK(checkedElementCount(std::vector<int64_t>{2, 3, 4}) == 24);
  CHECK(checkedElementCount(std::vector<int64_t>{}) == 1);
  CHECK(checkedElementCount(std::vector<int64_t>{int64_t{1} << 30, int64_t{1} << 30}) == int64_t{1} << 60);
  CHECK_FALSE(checkedElementCount(std::vector<int64_t>{int64_t{1} << 30, (int64_t{1} << 30) + 1}));
  CHECK_FALSE(checkedElementCount(std::vector<int64_t>{4294967296, 4294967296, 4294967296}));  // wraps to 0 unchecked
  CHECK(checkedElementCount(std::vector<int64_t>{4294967296, 4294967296, 4294967296, 0}) == 0);
  CHECK_THROWS_AS(NDArray(DataType(DTypeCode::Float32), {4294967296, 4294967296, 4294967296}), AllocationLimitError);
}

TEST_CASE("Bad input: oversized tensor types are located errors, never a wrong PASS", "[bad-input][limits]") {
  struct Case {
    std::string text;
    std::string message;
  };
  Case c = GENERATE(
      Case{"def @main(%x: Tensor[(4294967296, 4294967296, 4294967296), float32]) {\n  %x\n}\n",
           "a tensor of shape (4294967296, 4294967296, 4294967296) has more than 2^60 elements (the limit on one tensor's size)"},
      Case{"def @main() {\n  zeros(shape=[99999999999, 99999999999], dtype=\"float32\")\n}\n",
           "a tensor of shape (99999999999, 99999999999) has more than 2^60 elements (the limit on one tensor's size)"},
      Case{"primfn @f(%A: Buffer[(4294967296, 4294967296, 4294967296), int32]) {\n  %A[0] = 1;\n}\n",
           "a tensor of shape (4294967296, 4294967296, 4294967296) has more than 2^60 elements (the limit on one tensor's size)"},
      Case{"def @main(%x: Tensor[(1048576, 1048576), float32]) {\n  reshape(%x, newshape=[1048576, 1048576, 1048577])\n}\n",
           "has more than 2^60 elements (the limit on one tensor's size)"});
  CAPTURE(c.text);
  std::vector<Diagnostic> diags = parseOutcome(c.text);
  REQUIRE(!diags.empty());
  CHECK_THAT(diags[0].message, Catch::EndsWith(c.message));
  checkLocated(diags, c.text);
}

TEST_CASE("Bad input: the interpreter's memory budget is a located error naming interp-max-bytes", "[bad-input][limits]") {
  InterpSettingsGuard guard;
  interp::setMaxBytes(int64_t{64} << 20);
  IRModule mod = parseModule("def @main() {\n  zeros(shape=[100000, 100000], dtype=\"float32\")\n}\n", "big.relay");
  inferTypes(mod);
  Diagnostic d = firstDiagnostic([&] { evaluate(mod, "main", {}); });
  CAPTURE(d.message);
  CHECK(d.rule == "limits.memory");
  CHECK(d.span.line == 2);
  CHECK(d.message.find("needs 40000000000 bytes (37.3 GiB)") != std::string::npos);
  CHECK(d.message.find("`set interp-max-bytes N`") != std::string::npos);
  // Within the budget the same evaluation works.
  IRModule small = parseModule("def @main() {\n  zeros(shape=[1000, 1000], dtype=\"float32\")\n}\n", "small.relay");
  inferTypes(small);
  CHECK(evaluate(small, "main", {}).tensor().numElements() == 1000000);
}

TEST_CASE("Bad input: a function that calls itself stops at the call-depth limit", "[bad-input][limits]") {
  InterpSettingsGuard guard;
  const std::string text =
      "def @f(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {\n"
      "  @f(add(%x, %x))\n"
      "}\n"
      "def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {\n"
      "  @f(%x)\n"
      "}\n";
  IRModule mod = parseModule(text, "recursive.relay");
  inferTypes(mod);
  std::vector<Value> args{Value(NDArray(DataType(DTypeCode::Float32), {4}))};
  Diagnostic depth = firstDiagnostic([&] { evaluate(mod, "main", args); });
  CHECK(depth.rule == "limits.call-depth");
  CHECK(depth.message == "call depth exceeds 100000 nested calls (calling @f; a recursion without a base case?)");
  CHECK(depth.span.line == 2);
  // An interrupt (Ctrl-C in the REPL) stops the same evaluation at once.
  interp::requestInterrupt();
  Diagnostic interrupted = firstDiagnostic([&] { evaluate(mod, "main", args); });
  CHECK(interrupted.rule == "interp.interrupted");
  CHECK(interrupted.message == interp::kInterruptedMessage);
}

TEST_CASE("Bad input: a directory or special file where a file is expected is an error", "[bad-input][io]") {
  const std::string dir = std::filesystem::temp_directory_path().string();
  CHECK(firstDiagnostic([&] { parseModuleFile(dir); }).message == "cannot read file '" + dir + "': it is a directory");
  CHECK(firstDiagnostic([&] { parseModuleFile("/dev/zero"); }).message == "cannot read file '/dev/zero': it is not a regular file");
  CHECK(unreadableFileReason(dir) == "it is a directory");
  Session s;
  std::string line = GENERATE_COPY("load " + dir, "edit --from " + dir, "source " + dir, "load /dev/null");
  CAPTURE(line);
  CommandResult r = s.interpreter.runLine(line);
  CHECK(r.status == CommandStatus::Error);
  CHECK((r.error().find("it is a directory") != std::string::npos || r.error().find("it is not a regular file") != std::string::npos));
}

TEST_CASE("Bad input: a special file as the numeric check's inputs is an error, not an endless read", "[bad-input][io]") {
  // Found by the REPL session fuzzer: `inputs /dev/zero` read until memory ran out.
  Session s;
  REQUIRE(s.interpreter.runLine("load " + std::string(PASSLAB_SOURCE_DIR) + "/examples/cnn_block.relay").ok());
  CommandResult r = s.interpreter.runLine("set numeric-check on inputs /dev/zero");
  CHECK(r.status == CommandStatus::Error);
  CHECK_THAT(r.error(), Catch::Contains("cannot read inputs file '/dev/zero'") && Catch::Contains("it is not a regular file"));
  CHECK(s.interpreter.runLine("trace").ok());
}

TEST_CASE("Bad input: REPL values, counts, flags and pass options are checked with the range in the error", "[bad-input][repl]") {
  struct Case {
    std::string line;
    std::string error;
  };
  Case c = GENERATE(
      Case{"set opt_level abc", "error: set opt_level: expected int value, got 'abc'\n"},
      Case{"set opt_level 9", "error: opt_level must be between 0 and 4, got 9\n"},
      Case{"set interp-max-bytes lots", "error: set interp-max-bytes: expected a byte count from 1M to 1024T (e.g. 512M, 8G), got 'lots'\n"},
      Case{"set interp-max-bytes 99999999999999999999T",
           "error: set interp-max-bytes: expected a byte count from 1M to 1024T (e.g. 512M, 8G), got '99999999999999999999T'\n"},
      Case{"set relay.FuseOps.max_depth 0", "error: config key 'relay.FuseOps.max_depth' must be from 1 to 9223372036854775807, got 0\n"},
      Case{"step 99999999999", "error: expected a count from 1 to 2147483647, got '99999999999'\n"},
      Case{"attrs @nosuch Compiler --frob", "error: unknown flag '--frob' for `attrs`; it takes --all, --nested, --changed\n"},
      Case{"step --frob", "error: unknown flag '--frob' for `step`; it takes --force\n"},
      Case{"finish --all", "error: unknown flag '--all' for `finish`; it takes no flags\n"},
      Case{"set target frobnicator -mcpu=zz",
           "unknown target kind 'frobnicator' in target 'frobnicator -mcpu=zz'; known kinds: c, composite, cpu, cuda, ext_dev, "
           "hexagon, host, hybrid, llvm, metal, nvptx, opencl, rocm, stackvm, test, vulkan, webgpu\n"},
      Case{"set target llvm -mcpu=zz", "error: unknown -mcpu 'zz' for llvm: not a processor LLVM knows for "},
      Case{"set target hexagon -mcpu=hexagonv99",
           "error: unknown -mcpu 'hexagonv99' for hexagon; known: hexagonv5, hexagonv55, hexagonv60, hexagonv62, hexagonv65, "
           "hexagonv66, hexagonv67, hexagonv67t, hexagonv68, hexagonv69\n"},
      Case{"build --target \"llvm -mcpu=zz\"", "error: unknown -mcpu 'zz' for llvm"});
  CAPTURE(c.line);
  Session s;
  CommandResult r = s.interpreter.runLine(c.line);
  CHECK(r.status == CommandStatus::Error);
  // Exact where the whole message is given; else it must contain the given part.
  if (c.error.rfind("error: ", 0) == 0 && c.error.back() == '\n')
    CHECK(r.error() == c.error);
  else
    CHECK_THAT(r.error(), Catch::Contains(c.error));
  // The session is still usable and the setting unchanged.
  CHECK(s.interpreter.runLine("show").ok());
  CHECK(s.workbench.context().target.empty());
}

TEST_CASE("Bad input: out-of-range pass options are located errors naming the range", "[bad-input][limits]") {
  auto registry = sharedBuiltinRegistry();
  std::string spec = GENERATE(Catch::Generators::as<std::string>{}, "FuseOps{fuse_opt_level=-7}", "FuseOps{fuse_opt_level=5}");
  Diagnostic d = firstDiagnostic([&] { parsePipeline(spec, *registry); });
  CHECK(d.message == "option 'fuse_opt_level' of pass 'FuseOps' must be from -1 to 4, got " + spec.substr(23, spec.size() - 24));
  CHECK(d.span.column == 24);
  CHECK(parsePipeline("FuseOps{fuse_opt_level=-1}", *registry));
}

TEST_CASE("Bad input: set interp-max-bytes takes sizes with a suffix", "[bad-input][repl]") {
  InterpSettingsGuard guard;
  Session s;
  CommandResult r = s.interpreter.runLine("set interp-max-bytes 2G");
  CHECK(r.ok());
  CHECK(r.output() == "interp-max-bytes = 2147483648 bytes\n");
  CHECK(interp::maxBytes() == int64_t{2} << 30);
}

TEST_CASE("Bad input: a valid target is accepted and build uses it", "[bad-input][repl]") {
  Session s;
  CHECK(s.interpreter.runLine("set target llvm -mcpu=x86-64").ok());
  CHECK(s.workbench.context().target == "llvm -mcpu=x86-64");
  CHECK(s.interpreter.runLine("set target cuda").ok());  // PlanDevices reads it; only build refuses it
  CommandResult build = s.interpreter.runLine("build");
  CHECK(build.error() == "error: unknown target 'cuda' (llvm, host or hexagon)\n");
}

TEST_CASE("Bad input: Unicode identifiers parse and print back as written", "[bad-input][unicode]") {
  const std::string text =
      "def @函数(%données: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
      "  %数据.1 = nn.relu(%données);\n"
      "  negative(%数据.1)\n"
      "}\n"
      "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
      "  @函数(%x)\n"
      "}\n";
  IRModule mod = parseModule(text, "unicode.relay");
  REQUIRE(mod->lookupFunction("函数"));
  PrintOptions plain;
  plain.typeComments = false;
  std::string printed = printModule(mod, plain);
  CAPTURE(printed);
  CHECK(printed.find("def @函数(%données: Tensor[(2), float32])") != std::string::npos);
  CHECK(printed.find("@函数(%x)") != std::string::npos);
  CHECK(printModule(parseModule(printed, "printed.relay"), plain) == printed);
}

TEST_CASE("Bad input: non-letter and malformed UTF-8 in names are located errors", "[bad-input][unicode]") {
  struct Case {
    std::string text;
    std::string message;
  };
  Case c = GENERATE(Case{"def @main(%x: float32) {\n  %x \xc3\x97 %x\n}\n", "unexpected byte 0xc3"},     // '×' is no letter
                    Case{"def @main(%x\xe2\x80\x8b: float32) {\n  %x\n}\n", "unexpected byte 0xe2"},  // zero-width space
                    Case{"def @main(%x: float32) {\n  %\xc3(%x)\n}\n", "expected an expression, got '%'"},  // truncated sequence
                    Case{"def @main(%x: float32) {\n  @\xc0\xaf\n}\n", "expected a name after '@'"});  // overlong '/'
  CAPTURE(c.text);
  std::vector<Diagnostic> diags = parseOutcome(c.text);
  REQUIRE(!diags.empty());
  CHECK(diags[0].message == c.message);
  checkLocated(diags, c.text);
}

TEST_CASE("Bad input: the passlab binary refuses a directory as its input file", "[bad-input][io]") {
  const std::string binary = std::string(PASSLAB_BINARY_DIR) + "/passlab";
  REQUIRE(std::filesystem::exists(binary));
  auto dir = std::filesystem::temp_directory_path() / "passlab_bad_input_dir";
  std::filesystem::create_directories(dir);
  auto errPath = std::filesystem::temp_directory_path() / "passlab_bad_dir.err";
  std::string command = "'" + binary + "' '" + dir.string() + "/' -o - > /dev/null 2> '" + errPath.string() + "'";
  int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK_THAT(readFile(errPath), Catch::Contains("cannot read file '" + dir.string() + "/': it is a directory"));
  std::filesystem::remove(errPath);
}

TEST_CASE("Bad input: random mutations of pipeline specs never crash, and whatever parses round-trips", "[bad-input][limits]") {
  // The in-suite counterpart of fuzz/pipeline_fuzzer.cpp, on the real registry.
  auto registry = sharedBuiltinRegistry();
  std::vector<std::string> seeds;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(PASSLAB_SOURCE_DIR) / "fuzz" / "corpus-pipeline"))
    seeds.push_back(readFile(entry.path()));
  REQUIRE(seeds.size() >= 20);
  static const char* kSnippets[] = {"(", ")", "{", "}", "[", "]", ",", "=", "\"", "\\", "-", "1e999", "-7", "g(", "FuseOps{",
                                    "fuse_opt_level=", "InferType", "true", " ", "\xc3\xa9", "\xff", "9223372036854775808"};
  std::mt19937 rng(31);
  for (int iteration = 0; iteration < 5000; ++iteration) {
    std::string spec = seeds[rng() % seeds.size()];
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t at = spec.empty() ? 0 : rng() % (spec.size() + 1);
      switch (rng() % 3) {
        case 0: spec.erase(std::min(at, spec.size()), 1 + rng() % 6); break;
        case 1: spec.insert(at, kSnippets[rng() % std::size(kSnippets)]); break;
        default:
          if (!spec.empty()) spec[std::min(at, spec.size() - 1)] = static_cast<char>(rng() % 256);
          break;
      }
    }
    CAPTURE(iteration, spec);
    PassPtr pipeline;
    try {
      pipeline = parsePipeline(spec, *registry);
    } catch (const DiagnosticError& e) {
      CHECK(e.diagnostics().front().span.known());
      continue;
    }
    std::string once = pipelineText(*pipeline);
    CHECK(pipelineText(*parsePipeline(once, *registry)) == once);
  }
}
