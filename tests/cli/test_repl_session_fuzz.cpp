// Random REPL sessions (fuzz/repl_session.h) with fixed seeds: every command
// line the commands' own syntax can form, with real and hostile arguments, on
// a loaded module. No line may crash, hang or answer with an "internal
// error" (an exception a command let escape), and the session stays usable.
// libFuzzer drives the same generator without a seed: fuzz/repl_fuzzer.cpp.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include "fuzz/repl_session.h"
#include "passes/registry.h"
#include "repl/interpreter.h"

using namespace passlab;
namespace fs = std::filesystem;

namespace {

/// Runs `lines` random lines from `seed` in a scratch directory; returns the
/// lines that answered "internal error", with their answers.
std::vector<std::string> internalErrors(uint32_t seed, int lines, std::string& transcript) {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench workbench(registry);
  CommandInterpreter interpreter(workbench);
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "repl-session-fuzz" / std::to_string(seed);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(fs::path(PASSLAB_SOURCE_DIR) / "examples" / "cnn_block.relay", dir / "cnn_block.relay");
  fs::path previous = fs::current_path();
  fs::current_path(dir);
  std::mt19937 random(seed);
  fuzz::Chooser choose = [&random](uint32_t bound) { return static_cast<uint32_t>(random() % bound); };
  std::vector<std::string> failures;
  auto runLine = [&](const std::string& line) {
    CommandResult r = interpreter.runLine(line);
    std::string answer = r.output() + r.error();
    transcript += "(passlab) " + line + "\n" + answer.substr(0, 200) + "\n";
    if (answer.find("internal error") != std::string::npos) failures.push_back(line + "\n  -> " + answer);
  };
  runLine("load cnn_block.relay");
  runLine("pipeline relay.default");
  for (int i = 0; i < lines; ++i) {
    // Reload now and then: `load` of a random file or a failing pass must not
    // leave later commands without a module to work on.
    if (i % 40 == 39) {
      runLine("load cnn_block.relay");
      runLine("pipeline relay.default");
    }
    std::string line = fuzz::randomCommandLine(interpreter, choose);
    // qemu-hexagon takes seconds a run; the Hexagon road has its own tests.
    if (line.find("hexagon") == std::string::npos) runLine(line);
  }
  fs::current_path(previous);
  std::ofstream(dir / "transcript.txt", std::ios::binary) << transcript;  // for reading a failure
  return failures;
}

}  // namespace

TEST_CASE("REPL session fuzz: random command lines never answer with an internal error", "[repl][fuzz]") {
  uint32_t seed = GENERATE(range(1u, 7u));
  std::string transcript;
  std::vector<std::string> failures = internalErrors(seed, 800, transcript);
  INFO("seed " << seed);
  for (const std::string& f : failures) FAIL_CHECK(f);
  CHECK(failures.empty());
  // The generator reaches the commands: a session is not 800 parse errors.
  CHECK(transcript.find("(passlab) step") != std::string::npos);
}
