// libFuzzer target for the ONNX importer (built by fuzz/build.sh): untrusted
// model files are passlab's attack surface. Seeded with the ONNX backend
// tests' models (libonnx-testdata).
//
// Property: importOnnxBytes either returns a module or throws DiagnosticError
// (OnnxNeedsConstantError included); anything else escaping, a sanitizer
// report, a stack overflow or a hang is a bug. An imported module must print.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/frontend/onnx_importer.h"
#include "core/text/printer.h"

using namespace passlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    OnnxImport imported = importOnnxBytes(bytes, "fuzz.onnx");
    std::string text = printModule(imported.module);
    if (text.empty()) {
      std::fprintf(stderr, "fuzz failure: an imported module printed as nothing\n");
      std::abort();
    }
  } catch (const DiagnosticError&) {
  }
  return 0;
}
