// libFuzzer target for the pipeline spec (`--pass-pipeline=`, the REPL's
// `pipeline`), built by fuzz/build.sh.
//
// The registry holds stand-in passes with one option of every kind (an int
// with TVM-style range, bool, float, string, array), so the parser and the
// option checks are exercised without compiling every pass under the
// sanitizers. Properties checked on every input:
//  - parsePipeline either returns or throws DiagnosticError whose first
//    diagnostic is located inside the spec (anything else escaping, a
//    sanitizer report, a stack overflow or a hang is a bug);
//  - whatever parses prints (pipelineText), and the printed text parses back
//    and prints identically.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/pass/registry.h"

using namespace passlab;

namespace {

[[noreturn]] void fuzzFailure(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz failure: %s\n%s\n", what, detail.c_str());
  std::abort();
}

PassRegistration standIn(const std::string& name, std::vector<PassOptionInfo> options) {
  PassRegistration r;
  r.info.name = name;
  r.info.description = "a stand-in for the fuzzer";
  r.options = std::move(options);
  r.create = [info = r.info](const AttrDict& given) {
    return std::make_shared<ModulePass>(info, [](const IRModule& m, PassContext&) { return m; }, given);
  };
  return r;
}

const PassRegistry& registry() {
  static const PassRegistry r = [] {
    using Kind = AttrValue::Kind;
    PassRegistry out;
    out.add(standIn("InferType", {}));
    out.add(standIn("FoldConstant", {}));
    out.add(standIn("FuseOps", {{"fuse_opt_level", Kind::Int, AttrValue::integer(-1), "level", -1, 4}}));
    out.add(standIn("Options", {{"flag", Kind::Bool, AttrValue::boolean(false), "a bool"},
                                {"scale", Kind::Float, AttrValue::floating(1.0), "a float"},
                                {"mode", Kind::String, AttrValue::string("a"), "a string"},
                                {"axes", Kind::Array, AttrValue::array({}), "a list"},
                                {"count", Kind::Int, AttrValue::integer(1), "an int", 0, 1000}}));
    return out;
  }();
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string spec(reinterpret_cast<const char*>(data), size);
  PassPtr pipeline;
  try {
    pipeline = parsePipeline(spec, registry(), "fuzz");
  } catch (const DiagnosticError& e) {
    const Diagnostic& d = e.diagnostics().front();
    if (!d.span.known()) fuzzFailure("unlocated pipeline error", d.render());
    if (d.message.rfind("internal", 0) == 0) fuzzFailure("internal error in the pipeline parser", d.render());
    return 0;
  }
  std::string once = pipelineText(*pipeline);
  PassPtr again;
  try {
    again = parsePipeline(once, registry(), "printed");
  } catch (const DiagnosticError& e) {
    fuzzFailure("printed pipeline does not parse", once + "\n" + e.renderAll());
  }
  std::string twice = pipelineText(*again);
  if (twice != once) fuzzFailure("pipeline text does not round-trip", once + "\n---\n" + twice);
  return 0;
}
