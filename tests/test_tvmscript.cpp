// TVMScript: the lexer, detection, the Relax half of the reader and printer,
// located errors and the round trip of the corpus under tests/tvmscript/.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/text/tvmscript_lexer.h"

using namespace passlab;
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
  const PyToken& x = toks.tokens[6];
  CHECK(x.is("x"));
  CHECK(x.line == 2);
  CHECK(x.column == 5);
  CHECK(toks.tokens[8].kind == PyTok::String);
  CHECK(decodePyString(toks.tokens[8].text) == "a\nbA");
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
