// TVMScript: the lexer, detection, the Relax half of the reader and printer,
// located errors and the round trip of the corpus under tests/tvmscript/.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"
#include "core/text/tvmscript_lexer.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::readFile;
using namespace passlab::tvmscript;

namespace {

/// The kinds of the tokens of `text`, as a compact string ("N ( N ) : NL > ...").
std::string kindsOf(const std::string& text) {
  auto file = std::make_shared<const SourceFile>("t.py", text);
  PyTokens toks = lexTvmScript(file);
  std::string out;
  for (const PyToken& t : toks.tokens) {
    if (!out.empty()) out += ' ';
    switch (t.kind) {
      case PyTok::Newline: out += "NL"; break;
      case PyTok::Indent: out += ">"; break;
      case PyTok::Dedent: out += "<"; break;
      case PyTok::End: out += "$"; break;
      case PyTok::Name: out += "N"; break;
      case PyTok::Int: out += "I"; break;
      case PyTok::Float: out += "F"; break;
      case PyTok::String: out += "S"; break;
      default: out += std::string(t.text); break;
    }
  }
  return out;
}

/// "line:col: message" of the lexical error of `text`, or "" when it lexes.
std::string lexError(const std::string& text) {
  try {
    lexTvmScript(std::make_shared<const SourceFile>("t.py", text));
    return "";
  } catch (const DiagnosticError& e) {
    const Diagnostic& d = e.diagnostics().front();
    return std::to_string(d.span.line) + ":" + std::to_string(d.span.column) + ": " + d.message;
  }
}

}  // namespace

TEST_CASE("TVMScript: lexer token forms", "[tvmscript][lexer]") {
  auto [text, kinds] = GENERATE(table<std::string, std::string>({
      {"a = b", "N = N NL $"},
      {"def f(x):\n    return x\n", "N N ( N ) : NL > N N NL < $"},
      {"x -> y ** 2 // 3 == 4 <= 5", "N -> N ** I // I == I <= I NL $"},
      {"f(a,\n  b)\nc", "N ( N , N ) NL N NL $"},
      {"1e-05 -1.5 .5 2. 0x1f 1_000", "F - F F F I I NL $"},
      {"'a' \"b\\\"c\" '''x\ny'''", "S S S NL $"},
      {"# header\n\nx  # trailing\n", "N NL $"},
      {"if a:\n    if b:\n        c\nd\n", "N N : NL > N N : NL > N NL < < N NL $"},
      {"a.b.c", "N . N . N NL $"},
      {"", "$"},
  }));
  CAPTURE(text);
  CHECK(kindsOf(text) == kinds);
}

TEST_CASE("TVMScript: lexer positions and string values", "[tvmscript][lexer]") {
  auto file = std::make_shared<const SourceFile>("t.py", "def f():\n    x = \"a\\nb\\x41\"\n");
  PyTokens toks = lexTvmScript(file);
  REQUIRE(toks.tokens.size() > 8);
  const PyToken& x = toks.tokens[7];
  CHECK(x.is("x"));
  CHECK(x.line == 2);
  CHECK(x.column == 5);
  CHECK(toks.tokens[9].kind == PyTok::String);
  CHECK(decodePyString(toks.tokens[9].text) == "a\nbA");
  CHECK(decodePyString("'''q\"r'''") == "q\"r");
}

TEST_CASE("TVMScript: lexer errors are located", "[tvmscript][lexer]") {
  auto [text, error] = GENERATE(table<std::string, std::string>({
      {"x = 'abc\n", "1:5: unterminated string (a string must end on its line)"},
      {"x = '''abc", "1:5: unterminated string"},
      {"if a:\n    b\n\tc\n", "3:1: indentation mixes tabs and spaces (earlier lines used the other)"},
      {"if a:\n \tb\n", "2:1: indentation mixes tabs and spaces"},
      {"if a:\n    b\n  c\n", "3:3: unindent does not match any outer indentation level"},
      {"x = f\"{a}\"", "1:5: f-strings are not TVMScript passlab reads"},
      {"x = (1, 2", "1:5: this bracket is never closed"},
      {"x = 1)", "1:6: unmatched ')'"},
      {"x = $", "1:5: unexpected character '$'"},
      {"x = 1e+", "1:5: malformed exponent in a number"},
      {"  x = 1", "1:3: unexpected indentation of the first statement"},
  }));
  CAPTURE(text);
  CHECK(lexError(text) == error);
}

namespace {

/// "file:line:col: message" of the load error of `text`, or "" when it loads.
std::string loadError(const std::string& text) {
  try {
    parseTvmScript(text, "t.py");
    return "";
  } catch (const DiagnosticError& e) {
    return e.diagnostics().front().span.location() + ": " + e.diagnostics().front().message;
  }
}

PrintOptions scriptOptions(TvmScriptSpelling spelling) {
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  o.spelling = spelling;
  return o;
}

const char* kHeader = "# from tvm.script import ir as I\n# from tvm.script import relax as R\n\n";

}  // namespace

TEST_CASE("TVMScript: detection", "[tvmscript]") {
  auto [text, expected] = GENERATE(table<std::string, bool>({
      {"# from tvm.script import ir as I\n", true},
      {"\n\n# from tvm.script import relax as R\n@R.function\n", true},
      {"from tvm.script import ir as I\n", true},
      {"@I.ir_module\nclass Module:\n", true},
      {"@R.function\ndef f():\n", true},
      {"@T.prim_func\ndef f():\n", true},
      {"# a comment\n@I.ir_module\n", true},
      {"#[version = \"0.0.5\"]\ndef @main() { 0 }", false},
      {"def @main(%x: float32) { %x }", false},
      {"fn (%x) { %x }", false},
      {"free_var %x: float32;\n%x", false},
      {"", false},
  }));
  CAPTURE(text);
  CHECK(looksLikeTvmScript(text) == expected);
}

TEST_CASE("TVMScript: parses Relax constructs", "[tvmscript]") {
  IRModule mod = parseTvmScript(std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 8), dtype="float32")) -> R.Tensor((1, 8), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 8), dtype="float32") = R.add(x, x)
            gv: R.Tensor((1, 8), dtype="float32") = R.nn.relu(lv)
            R.output(gv)
        return gv
)", "t.py");
  const FunctionNode* f = mod->lookupFunction("main");
  REQUIRE(f);
  CHECK(f->attrs.getString("global_symbol") == "main");
  const auto* df = as<DataflowNode>(f->body);
  REQUIRE(df);
  REQUIRE(df->bindings.size() == 2);
  CHECK(df->bindings[0].var->isDataflow);
  CHECK_FALSE(df->bindings[1].var->isDataflow);
  CHECK(df->body.get() == df->bindings[1].var.get());
  const auto* call = as<CallNode>(df->bindings[1].value);
  REQUIRE(call);
  CHECK(as<OpNode>(call->callee)->def->id == OpId::Relu);
}

TEST_CASE("TVMScript: call_tir and spellings", "[tvmscript]") {
  auto [keyword, spelling] = GENERATE(table<std::string, TvmScriptSpelling>({
      {"out_sinfo", TvmScriptSpelling::Release},
      {"out_ty", TvmScriptSpelling::Main},
  }));
  std::string text = std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        gv = R.call_dps_packed("k", (x,), )" + keyword + R"(=R.Tensor((16,), dtype="float32"))
        return gv
)";
  TvmScriptSpelling found = TvmScriptSpelling::Release;
  IRModule mod = parseTvmScript(text, "t.py", nullptr, &found);
  CHECK(found == spelling);
  std::string printed = printModule(mod, scriptOptions(found));
  CHECK(printed == text);
}

TEST_CASE("TVMScript: located errors", "[tvmscript]") {
  const std::string mod = "@I.ir_module\nclass Module:\n    @R.function\n    def main(x: R.Tensor((2,), dtype=\"float32\")):\n";
  auto [body, error] = GENERATE(table<std::string, std::string>({
      {"        import os\n", "t.py:5:9: imports inside a function are not TVMScript passlab reads"},
      {"        for i in x:\n            pass\n", "t.py:5:9: 'for' loops in a Relax function are not TVMScript passlab reads"},
      {"        y = R.nn.gelu_tanh(x)\n        return y\n", "t.py:5:13: unknown Relax op 'R.nn.gelu_tanh' (passlab has no gelu op yet)"},
      {"        y = R.transpose(x)\n        return y\n", "t.py:5:13: unknown Relax op 'R.transpose': the Relax name is R.permute_dims"},
      {"        y = R.foo(x)\n        return y\n", "t.py:5:13: unknown Relax op 'R.foo'"},
      {"        y = f\"{x}\"\n", "t.py:5:13: f-strings are not TVMScript passlab reads"},
      {"        y = undefined_name\n        return y\n", "t.py:5:13: undefined name 'undefined_name'"},
      {"        y = x\n", "t.py:6:1: a Relax function must end with 'return'"},
      {"        x = T.int64()\n        return x\n", "t.py:5:9: 'x' is already a Relax value in this function"},
      {"        y: R.Tensor((n, 2), dtype=\"float32\") = x\n        return y\n",
       "t.py:5:22: unknown shape variable 'n' (declare it with n = T.int64() first, or write the dimension as the string \"n\")"},
      {"        y: R.Shape(rank=2) = x\n        return y\n", "t.py:5:20: unknown keyword 'rank' of R.Shape (R.Shape takes values or ndim=)"},
      {"        y = R.builtin.alloc_tensor(R.shape([2, 3]), \"float32\")\n        return y\n",
       "t.py:5:13: R.builtin.alloc_tensor needs its argument 'runtime_device_index'"},
      {"        y = R.memory.alloc_tensor(x, 0, R.shape([n]), \"float32\")\n        return y\n",
       "t.py:5:50: expected a literal value, got 'n'"},
      {"        y = R.call_packed(x)\n        return y\n",
       "t.py:5:27: R.call_packed names its function first: R.call_packed(\"vm.builtin.reshape\", ...)"},
      {"        y = R.add(x, x) + x\n        return y\n", "t.py:5:25: operator '+' between Relax values is not supported; write the op (R.add, R.multiply, ...)"},
      {"        y = lambda: x\n", "t.py:5:13: lambdas are not TVMScript passlab reads"},
  }));
  CAPTURE(body);
  CHECK(loadError(mod + body) == error);
}

TEST_CASE("TVMScript: not TVMScript at module level", "[tvmscript]") {
  CHECK(loadError("import os\n") == "t.py:1:1: 'import os' is not TVMScript passlab reads (only tvm.script imports are)");
  CHECK(loadError("x = 1\n").find("is not TVMScript passlab reads") != std::string::npos);
  CHECK(loadError("def f():\n    pass\n") == "t.py:1:1: a function needs a decorator (@R.function or @T.prim_func) to be TVMScript");
  // Deep nesting is refused, not a stack overflow.
  std::string deep = "@R.function\ndef f(x: R.Tensor((1,), dtype=\"float32\")):\n    return " + std::string(2000, '(') + "x" +
                     std::string(2000, ')') + "\n";
  CHECK(loadError(deep).find("nesting deeper than") != std::string::npos);
}

TEST_CASE("TVMScript: Relay text still loads as Relay", "[tvmscript]") {
  IRModule mod = parseModule("def @main(%x: Tensor[(2), float32]) { nn.relu(%x) }", "t.relay");
  REQUIRE(mod->lookupFunction("main"));
}

TEST_CASE("TVMScript: Relay-origin modules print as frontends build them", "[tvmscript]") {
  IRModule mod = parseModule("def @main(%x: Tensor[(2), float32]) { nn.relu(add(%x, %x)) }", "t.relay");
  std::string printed = printModule(mod, scriptOptions(TvmScriptSpelling::Release));
  CHECK(printed == std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")):
        with R.dataflow():
            lv = R.add(x, x)
            gv = R.nn.relu(lv)
            R.output(gv)
        return gv
)");
  IRModule again = parseTvmScript(printed, "t.py");
  CHECK(printModule(again, scriptOptions(TvmScriptSpelling::Release)) == printed);
}

TEST_CASE("TVMScript: corpus round trip", "[tvmscript][corpus]") {
  std::filesystem::path dir = std::filesystem::path(PASSLAB_SOURCE_DIR) / "tests" / "tvmscript";
  int files = 0, loaded = 0, equal = 0, fixpoint = 0, identical = 0, printedForm = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    ++files;
    std::string name = entry.path().filename().string();
    CAPTURE(name);
    std::string text = readFile(entry.path());
    IRModule mod;
    TvmScriptSpelling spelling = TvmScriptSpelling::Release;
    try {
      mod = parseTvmScript(text, name, nullptr, &spelling);
    } catch (const DiagnosticError& e) {
      FAIL_CHECK(e.renderAll());
      continue;
    }
    ++loaded;
    // A file with TVM's metadata statement (show_meta=True) is written back with it.
    PrintOptions options = scriptOptions(spelling);
    options.metadataSection = text.find("metadata = tvm.ir.load_json(") != std::string::npos;
    std::string once = printModule(mod, options);
    IRModule reloaded;
    try {
      reloaded = parseTvmScript(once, name);
    } catch (const DiagnosticError& e) {
      FAIL_CHECK(e.renderAll() + "\n" + once);
      continue;
    }
    bool eq = structuralEqual(mod, reloaded);
    INFO(once);
    CHECK(eq);
    equal += eq;
    std::string twice = printModule(reloaded, options);
    CHECK(twice == once);
    fixpoint += twice == once;
    // Modules written in TVM's printed form reprint byte for byte (a lone
    // function reprints as a module holding it).
    if (name.rfind("handwritten_", 0) != 0 && text.find("@I.ir_module") != std::string::npos) {
      ++printedForm;
      CHECK(once == text);
      identical += once == text;
    }
  }
  WARN("corpus: " << files << " files, " << loaded << " loaded, " << equal << " load-print-load equal, " << fixpoint
                  << " print fixpoints, " << identical << "/" << printedForm << " byte-identical reprints");
  CHECK(files >= 10);
}

TEST_CASE("TVMScript: Relay goldens print as TVMScript that loads back", "[tvmscript][corpus]") {
  std::filesystem::path dir = std::filesystem::path(PASSLAB_SOURCE_DIR) / "tests" / "golden";
  int files = 0, printed = 0, reloaded = 0, fixpoints = 0;
  std::string refused;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".relay") continue;
    std::string name = entry.path().filename().string();
    CAPTURE(name);
    IRModule mod;
    try {
      mod = inferTypes(parseModule(readFile(entry.path()), name));
    } catch (const DiagnosticError&) {
      continue;  // goldens of errors
    }
    ++files;
    std::string once;
    try {
      once = printModule(mod, scriptOptions(TvmScriptSpelling::Release));
    } catch (const DiagnosticError& e) {
      refused += name + ": " + e.diagnostics().front().message + "\n";
      continue;
    }
    ++printed;
    IRModule again;
    try {
      again = parseTvmScript(once, name + ".py");
    } catch (const DiagnosticError& e) {
      refused += name + ": " + e.renderAll() + "\n";
      continue;
    }
    ++reloaded;
    std::string twice = printModule(again, scriptOptions(TvmScriptSpelling::Release));
    INFO(once);
    CHECK(twice == once);
    fixpoints += twice == once;
  }
  WARN("Relay goldens: " << files << " typed, " << printed << " printed as TVMScript, " << reloaded << " loaded back, "
                         << fixpoints << " print fixpoints\n"
                         << refused);
  CHECK(reloaded >= files / 2);
}

TEST_CASE("TVMScript: a mix of spellings gives a note", "[tvmscript]") {
  std::string text = std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        a = R.call_dps_packed("k", (x,), out_sinfo=R.Tensor((16,), dtype="float32"))
        b = R.call_dps_packed("k", (a,), out_ty=R.Tensor((16,), dtype="float32"))
        return b
)";
  std::vector<Diagnostic> notes;
  TvmScriptSpelling spelling = TvmScriptSpelling::Main;
  parseTvmScript(text, "t.py", &notes, &spelling);
  CHECK(spelling == TvmScriptSpelling::Release);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].span.location() == "t.py:9:42");
  CHECK(notes[0].message.find("main branch") != std::string::npos);
}

TEST_CASE("TVMScript: the load reports its origin; one function prints alone", "[tvmscript]") {
  TextOrigin origin;
  IRModule mod = parseModule(std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        y: R.Tensor((2,), dtype="float32") = R.nn.relu(x)
        return y
)", "t.txt", nullptr, &origin);
  CHECK(origin.syntax == TextSyntax::TVMScript);
  PrintOptions o = scriptOptions(origin.spelling);
  CHECK(printFunction(mod, "main", o) == R"(# from tvm.script import relax as R

@R.function
def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
    y: R.Tensor((2,), dtype="float32") = R.nn.relu(x)
    return y
)");
  parseModule("def @main(%x: float32) { %x }", "t.relay", nullptr, &origin);
  CHECK(origin.syntax == TextSyntax::Relay);
  // A .py name makes the text TVMScript even without a header.
  CHECK_THROWS_AS(parseModule("x = 1\n", "t.py"), DiagnosticError);
}

TEST_CASE("TVMScript: long graph-form chains print without deep recursion", "[tvmscript]") {
  std::string text = "def @main(%x: Tensor[(2), float32]) {\n";
  text += "  %0 = nn.relu(%x);\n";
  for (int i = 1; i < 20000; ++i) text += "  %" + std::to_string(i) + " = nn.relu(%" + std::to_string(i - 1) + ");\n";
  text += "  %19999\n}\n";
  IRModule mod = parseModule(text, "chain.relay");
  std::string printed = printModule(mod, scriptOptions(TvmScriptSpelling::Release));
  CHECK(printed.find("lv19998 = R.nn.relu(lv19997)") != std::string::npos);
  IRModule again = parseTvmScript(printed, "chain.py");
  CHECK(printModule(again, scriptOptions(TvmScriptSpelling::Release)) == printed);
}

TEST_CASE("TVMScript: truncated and mutated corpus files give located errors", "[tvmscript][corpus]") {
  std::filesystem::path dir = std::filesystem::path(PASSLAB_SOURCE_DIR) / "tests" / "tvmscript";
  const std::string replacements = ")(:=\n x[]0,.\"'#\t-";
  size_t runs = 0, errors = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    std::string text = readFile(entry.path());
    for (size_t i = 0; i < text.size(); i += 7) {
      std::vector<std::string> variants = {text.substr(0, i), text};
      variants[1][i] = replacements[(i / 7) % replacements.size()];
      for (const std::string& v : variants) {
        ++runs;
        try {
          IRModule mod = parseTvmScript(v, "m.py");
          (void)printModule(mod, scriptOptions(TvmScriptSpelling::Release));
        } catch (const DiagnosticError& e) {
          ++errors;
          // Every error is located, except a printer refusal.
          if (e.diagnostics().front().rule == "parse") CHECK(e.diagnostics().front().span.known());
        } catch (const std::exception& e) {
          FAIL_CHECK(entry.path().filename().string() << " at byte " << i << ": " << e.what());
        }
      }
    }
  }
  CHECK(runs > 1000);
  CHECK(errors > 0);
}

TEST_CASE("TVMScript: oversized numbers are located errors", "[tvmscript]") {
  const std::string mod = "@R.function\ndef f(x: R.Tensor((2,), dtype=\"float32\")):\n";
  CHECK(loadError(mod + "    y = R.sum(x, axis=[99999999999999999999])\n    return y\n") ==
        "t.py:3:24: integer 99999999999999999999 does not fit in 64 bits");
  CHECK(loadError(mod + "    c: R.Tensor((100000, 100000, 100000), dtype=\"float32\") = metadata[\"relax.expr.Constant\"][0]\n    return c\n") ==
        "t.py:3:62: a metadata constant of more than 1 GiB cannot be made a placeholder");
}

TEST_CASE("TVMScript: printed ranges, names and function lines", "[tvmscript]") {
  IRModule mod = parseTvmScript(std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        y: R.Tensor((2,), dtype="float32") = R.nn.relu(x)
        return y
)", "t.py");
  PrintOptions o = scriptOptions(TvmScriptSpelling::Release);
  o.recordNames = true;
  PrintedModule printed = printModuleWithRanges(mod, o);
  CHECK(printed.functionLines.at("main") == 6);
  const auto* let = as<LetNode>(mod->lookupFunction("main")->body);
  REQUIRE(let);
  REQUIRE(printed.nodes.range(let->value.get()));
  CHECK(printed.nodes.range(let->value.get())->line == 8);
  CHECK(printed.nodes.name(let->var.get()) == "y");
  // An aligned print takes the given names.
  AlignedNames aligned;
  aligned.set(let->var.get(), "renamed");
  PrintOptions a = scriptOptions(TvmScriptSpelling::Release);
  a.alignedNames = &aligned;
  CHECK(printModule(mod, a).find("renamed: R.Tensor((2,), dtype=\"float32\") = R.nn.relu(x)") != std::string::npos);
}

TEST_CASE("TVMScript: metadata constants as operands take the type their use tells", "[tvmscript]") {
  IRModule mod = parseTvmScript(std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 4, 6, 6), dtype="float32") = R.nn.conv2d(x, metadata["relax.expr.Constant"][0], strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1: R.Tensor((1, 144), dtype="float32") = R.reshape(lv, R.shape([1, 144]))
            gv: R.Tensor((1, 4), dtype="float32") = R.matmul(lv1, metadata["relax.expr.Constant"][1], out_dtype="void")
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.
)", "t.py");
  const auto* df = as<DataflowNode>(mod->lookupFunction("main")->body);
  REQUIRE(df);
  const auto* conv = as<CallNode>(df->bindings[0].value);
  const auto* w = as<ConstantNode>(conv->args[1]);
  REQUIRE(w);
  CHECK(w->data.shape() == std::vector<int64_t>{4, 3, 3, 3});
  CHECK(w->data.placeholderIndex() == 0);
  const auto* mm = as<CallNode>(df->bindings[2].value);
  const auto* m = as<ConstantNode>(mm->args[1]);
  REQUIRE(m);
  CHECK(m->data.shape() == std::vector<int64_t>{144, 4});
  // An elementwise use does not tell the shape (broadcasting): refused, located.
  CHECK(loadError("@R.function\ndef f(x: R.Tensor((2,), dtype=\"float32\")):\n"
                  "    y: R.Tensor((2,), dtype=\"float32\") = R.add(x, metadata[\"relax.expr.Constant\"][3])\n    return y\n") ==
        "t.py:3:51: cannot tell the type of metadata[\"relax.expr.Constant\"][3] from its use; bind it first with its "
        "type: `c: R.Tensor((...), dtype=\"...\") = metadata[...]`");
}

TEST_CASE("TVMScript: the VM-lowering types and ops read in both spellings and print back", "[tvmscript][vm]") {
  // One module in each spelling, in TVM's printed form: they reprint byte for
  // byte, and the two load to structurally equal modules.
  const std::string body = R"(    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32"), s: R.Shape([4]), d: R.Shape(ndim=2), o: OBJ) -> R.Tensor((4,), dtype="float32"):
        a: R.Tensor((2, 2), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 2]), R.dtype("float32"), ZERO, R.str("global"))
        storage: OBJ = R.memory.alloc_storage(R.shape([16]), ZERO, R.str("global"), R.dtype("float32"))
        y: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, ZERO, R.shape([4]), R.dtype("float32"), ZERO)
        _: R.Tuple = R.memory.kill_storage(storage)
        _1: R.Tuple = R.call_packed("my_runtime.fill", x, y, R.shape([4]), TYARGS=(R.Tuple,))
        z: R.Tensor((4,), dtype="float32") = R.call_packed("vm.builtin.reshape", a, R.shape([4]), TYARGS=(R.Tensor((4,), dtype="float32"),))
        _2: R.Tuple = R.memory.kill_tensor(y)
        v: OBJ = R.vm.alloc_storage(R.shape([16]), ZERO, R.dtype("uint8"), R.str("global"))
        w: R.Tensor((4,), dtype="float32") = R.vm.alloc_tensor(v, ZERO, R.shape([4]), R.dtype("float32"), ZERO)
        _3: R.Tuple = R.vm.kill_object(v)
        e: OBJ = R.null_value()
        return z
)";
  auto spell = [&](bool main) {
    std::string s = body;
    auto replace = [&s](const std::string& from, const std::string& to) {
      for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    };
    replace("OBJ", main ? "R.Any" : "R.Object");
    replace("ZERO", main ? "T.int64(0)" : "R.prim_value(0)");
    replace("TYARGS", main ? "ty_args" : "sinfo_args");
    return std::string("# from tvm.script import ir as I\n") + (main ? "# from tvm.script import tirx as T\n" : "") +
           "# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n" + s;
  };
  IRModule mods[2];
  for (bool main : {false, true}) {
    std::string text = spell(main);
    CAPTURE(main);
    TvmScriptSpelling found = TvmScriptSpelling::Release;
    mods[main] = parseTvmScript(text, "vm.py", nullptr, &found);
    CHECK(found == (main ? TvmScriptSpelling::Main : TvmScriptSpelling::Release));
    CHECK(printModule(mods[main], scriptOptions(found)) == text);
  }
  CHECK(structuralEqual(mods[0], mods[1]));
  // The Python values TVM's parser also takes read as the same nodes.
  std::string plain = spell(false);
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"R.builtin.alloc_tensor(R.shape([2, 2]), R.dtype(\"float32\"), R.prim_value(0), R.str(\"global\"))",
            "R.builtin.alloc_tensor(R.shape([2, 2]), dtype=\"float32\", runtime_device_index=0)"},
           {"R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str(\"global\"), R.dtype(\"float32\"))",
            "R.memory.alloc_storage(R.shape([16]), virtual_device_index=0, storage_scope=\"global\", dtype=\"float32\")"},
           {"R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype(\"float32\"), R.prim_value(0))",
            "R.memory.alloc_tensor(storage, 0, R.shape([4]), \"float32\")"},
       })
    plain.replace(plain.find(from), from.size(), to);
  CHECK(structuralEqual(parseTvmScript(plain, "plain.py"), mods[0]));
  // R.Prim in the release spelling (main spells the type T.int64, not read yet).
  std::string prim = std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(n: R.Prim("int64"), k: R.Prim(value=3), s: R.Shape) -> R.Prim("int64"):
        return n
)";
  CHECK(printModule(parseTvmScript(prim, "prim.py"), scriptOptions(TvmScriptSpelling::Release)) == prim);
}
