// libFuzzer target for the text format (built by fuzz/build.sh with clang-14,
// -fsanitize=fuzzer,address,undefined, directly against the core sources).
//
// Properties checked on every input:
//  - parsing either succeeds or throws DiagnosticError (anything else escaping,
//    a sanitizer report, a stack overflow or a hang is a bug);
//  - whatever parses prints, and the printed text parses back and prints
//    identically (print -> parse -> print is the identity). Large constants
//    print as meta[relay.Constant][N] references, so the prints carry their
//    #[metadata] section, as `-o` and `save module` write them;
//  - type inference and printing with type comments do not crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/analysis/type_infer.h"
#include "core/text/parser.h"
#include "core/text/printer.h"

using namespace passlab;

namespace {

[[noreturn]] void fuzzFailure(const char* what, const std::string& first, const std::string& second) {
  std::fprintf(stderr, "fuzz failure: %s\n--- first ---\n%s\n--- second ---\n%s\n", what, first.c_str(),
               second.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  IRModule mod;
  try {
    mod = parseModule(std::move(text), "fuzz.relay");
  } catch (const DiagnosticError& e) {
    for (const Diagnostic& d : e.diagnostics())
      if (d.rule == "internal") fuzzFailure("internal error in the parser", d.render(), "");
    return 0;
  }
  PrintOptions plain;
  plain.typeComments = false;
  plain.metadataSection = true;
  PrintOptions typedOptions;
  typedOptions.metadataSection = true;
  std::string once = printModule(mod, plain);
  IRModule again;
  try {
    again = parseModule(once, "printed.relay");
  } catch (const DiagnosticError& e) {
    fuzzFailure("printed text does not parse", once, e.renderAll());
  }
  std::string twice = printModule(again, plain);
  if (twice != once) fuzzFailure("print -> parse -> print changed the text", once, twice);
  try {
    IRModule typed = inferTypes(mod);
    std::string withTypes = printModule(typed, typedOptions);
    std::string reprinted = printModule(inferTypes(parseModule(withTypes, "typed.relay")), typedOptions);
    if (reprinted != withTypes) fuzzFailure("typed print -> parse -> print changed the text", withTypes, reprinted);
  } catch (const DiagnosticError&) {
  }
  return 0;
}
