// libFuzzer target for TVM's #[metadata] section (built by fuzz/build.sh).
//
// The input is the JSON of a section: TVM's legacy save_json (Relay's
// #[metadata]) or tvm-ffi's JSON graph (TVMScript's metadata statement); each
// input is tried as both. Properties checked on every input:
//  - decodeTvmMetadata either returns or throws MetadataError (anything else
//    escaping, a sanitizer report or a hang is a bug);
//  - the same JSON appended to a module that references meta[relay.Constant][0]
//    parses or fails with located diagnostics, never an internal error;
//  - whatever parses prints, and the printed text parses back and prints
//    identically (decoded constants print inline as const(...));
//  - the same for decodeScriptMetadata and a TVMScript module whose metadata
//    statement holds the JSON (written back with its statement).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/text/metadata.h"
#include "core/text/metadata_graph.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"

using namespace passlab;

namespace {

[[noreturn]] void fuzzFailure(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz failure: %s\n%s\n", what, detail.c_str());
  std::abort();
}

/// The same JSON as TVMScript's metadata statement (tvm-ffi's JSON graph).
void checkScriptMetadata(const std::string& json) {
  try {
    ScriptMetadata m = decodeScriptMetadata(json);
    for (const NDArray& a : m.constants)
      if (a.defined() && a.byteSize() > kMaxMetadataArrayBytes) fuzzFailure("constant larger than the limit", std::to_string(a.byteSize()));
  } catch (const MetadataError&) {
  }
  std::string escaped;
  for (char c : json) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  std::string text = "metadata = tvm.ir.load_json(\"\"\"" + escaped +
                     "\"\"\")\n# from tvm.script import ir as I\n# from tvm.script import relax as R\n\n"
                     "@I.ir_module\nclass Module:\n    @R.function\n    def main() -> R.Tensor((2, 3), dtype=\"float32\"):\n"
                     "        c: R.Tensor((2, 3), dtype=\"float32\") = metadata[\"relax.expr.Constant\"][0]\n        return c\n";
  IRModule mod;
  try {
    mod = parseTvmScript(text, "fuzz.py");
  } catch (const DiagnosticError& e) {
    for (const Diagnostic& d : e.diagnostics())
      if (d.rule == "internal") fuzzFailure("internal error in the TVMScript parser", d.render());
    return;
  }
  PrintOptions file;
  file.syntax = TextSyntax::TVMScript;
  file.metadataSection = true;
  std::string once = printModule(mod, file);
  IRModule again;
  try {
    again = parseTvmScript(once, "written.py");
  } catch (const DiagnosticError& e) {
    fuzzFailure("written TVMScript does not parse", once + "\n" + e.renderAll());
  }
  if (printModule(again, file) != once) fuzzFailure("TVMScript write -> parse -> write changed the text", once);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string json(reinterpret_cast<const char*>(data), size);
  try {
    TvmMetadata m = decodeTvmMetadata(json);
    for (const NDArray& a : m.constants)
      if (a.byteSize() > kMaxMetadataArrayBytes) fuzzFailure("constant larger than the limit", std::to_string(a.byteSize()));
  } catch (const MetadataError&) {
  }
  checkScriptMetadata(json);
  std::string text = "#[version = \"0.0.5\"]\ndef @main() {\n  meta[relay.Constant][0]\n}\n#[metadata]\n" + json;
  IRModule mod;
  try {
    mod = parseModule(std::move(text), "fuzz.relay");
  } catch (const DiagnosticError& e) {
    for (const Diagnostic& d : e.diagnostics())
      if (d.rule == "internal") fuzzFailure("internal error in the parser", d.render());
    return 0;
  }
  PrintOptions plain;
  plain.typeComments = false;
  plain.metadataSection = true;  // large constants print as references: keep their data
  std::string once = printModule(mod, plain);
  IRModule again;
  try {
    again = parseModule(once, "printed.relay");
  } catch (const DiagnosticError& e) {
    fuzzFailure("printed text does not parse", once + "\n" + e.renderAll());
  }
  std::string twice = printModule(again, plain);
  if (twice != once) fuzzFailure("print -> parse -> print changed the text", once + "\n---\n" + twice);
  return 0;
}
