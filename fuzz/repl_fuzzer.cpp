// libFuzzer target for REPL command lines, built by fuzz/build.sh.
//
// Each input is a session: its bytes steer fuzz/repl_session.h's generator
// (which command, which syntax form, which completion or hostile word), and
// the lines run on examples/cnn_block.relay with the relay.default pipeline.
// Properties checked on every input:
//  - no line answers "internal error" (an exception a command let escape);
//  - the interpreter stays usable: `trace` still succeeds at the end;
//  - no crash, hang (libFuzzer's -timeout) or sanitizer report.
// The suite runs the same generator with fixed seeds
// (tests/cli/test_repl_session_fuzz.cpp).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "fuzz/repl_session.h"
#include "passes/registry.h"
#include "repl/interpreter.h"

using namespace passlab;

namespace {

[[noreturn]] void fuzzFailure(const std::string& line, const std::string& answer) {
  std::fprintf(stderr, "fuzz failure: `%s` answered\n%s\n", line.c_str(), answer.c_str());
  std::abort();
}

/// The example module, read once: every session starts from it.
const std::string& exampleDir() {
  static const std::string dir = [] {
    std::filesystem::path d = std::filesystem::temp_directory_path() / "passlab-repl-fuzz";
    std::filesystem::create_directories(d);
    return d.string();
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string source = std::filesystem::absolute("examples/cnn_block.relay").string();
  std::filesystem::current_path(exampleDir());
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench workbench(registry);
  CommandInterpreter interpreter(workbench);
  size_t at = 0;
  // Bytes steer the choices; when they run out every choice is the first one.
  fuzz::Chooser choose = [&](uint32_t bound) -> uint32_t {
    if (bound <= 1 || at >= size) return 0;
    return data[at++] % bound;
  };
  auto run = [&](const std::string& line) {
    CommandResult r = interpreter.runLine(line);
    std::string answer = r.output() + r.error();
    if (answer.find("internal error") != std::string::npos) fuzzFailure(line, answer);
  };
  run("load " + source);
  run("pipeline relay.default");
  for (int lines = 0; at < size && lines < 64; ++lines) {
    std::string line = fuzz::randomCommandLine(interpreter, choose);
    if (line.find("hexagon") == std::string::npos) run(line);  // qemu takes seconds a run
  }
  if (!interpreter.runLine("trace").ok()) fuzzFailure("trace", "failed after the session");
  return 0;
}
