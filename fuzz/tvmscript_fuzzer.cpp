// libFuzzer target for the TVMScript loader (built by fuzz/build.sh with
// clang-14, -fsanitize=fuzzer,address,undefined, directly against the core
// sources; seeds: tests/tvmscript/*.py).
//
// Properties checked on every input:
//  - parseTvmScript either succeeds or throws DiagnosticError without an
//    "internal" rule (anything else escaping, a sanitizer report, a stack
//    overflow or a hang is a bug);
//  - whatever parses prints as TVMScript in the spelling it came in, the
//    printed text parses back, and prints identically (print -> parse -> print
//    is the identity) and to a structurally equal module;
//  - the same holds for the text a file gets (the metadata statement of
//    TVM's show_meta=True holding the tensor constants).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/analysis/structural_equal.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"

using namespace passlab;

namespace {

[[noreturn]] void fuzzFailure(const char* what, const std::string& first, const std::string& second) {
  std::fprintf(stderr, "fuzz failure: %s\n--- first ---\n%s\n--- second ---\n%s\n", what, first.c_str(),
               second.c_str());
  std::abort();
}

bool internal(const DiagnosticError& e) {
  for (const Diagnostic& d : e.diagnostics())
    if (d.rule == "internal") return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  IRModule mod;
  TvmScriptSpelling spelling = TvmScriptSpelling::Release;
  try {
    mod = parseTvmScript(text, "fuzz.py", nullptr, &spelling);
  } catch (const DiagnosticError& e) {
    if (internal(e)) fuzzFailure("internal error in the TVMScript parser", text, e.renderAll());
    return 0;
  }
  PrintOptions options;
  options.syntax = TextSyntax::TVMScript;
  options.spelling = spelling;
  std::string once = printModule(mod, options);
  IRModule again;
  try {
    again = parseTvmScript(once, "printed.py");
  } catch (const DiagnosticError& e) {
    fuzzFailure("printed TVMScript does not parse", once, e.renderAll());
  }
  std::string twice = printModule(again, options);
  if (twice != once) fuzzFailure("print -> parse -> print changed the text", once, twice);
  // As a file (-o x.py): with TVM's metadata statement holding the constants.
  options.metadataSection = true;
  std::string file = printModule(mod, options);
  IRModule reloaded;
  try {
    reloaded = parseTvmScript(file, "written.py");
  } catch (const DiagnosticError& e) {
    fuzzFailure("written TVMScript (with its metadata statement) does not parse", file, e.renderAll());
  }
  std::string rewritten = printModule(reloaded, options);
  if (rewritten != file) fuzzFailure("write -> parse -> write changed the text", file, rewritten);
  return 0;
}
