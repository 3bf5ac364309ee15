// RunSettings: the one value the faces configure a run with
// (core/workbench/run_settings.h), its text form and the workbench's use of it.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "core/workbench/run_settings.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::sharedBuiltinRegistry;

namespace {

RunSettings sample() {
  RunSettings s;
  s.optLevel = 3;
  s.target = "llvm -mcpu=znver3";
  s.config.emplace_back("relay.FuseOps.max_depth", AttrValue::integer(4));
  s.disabledPasses = {"FoldConstant", "SimplifyExpr"};
  s.requiredPasses = {"InferType"};
  s.verifyEach = true;
  return s;
}

/// Reads the text form back line by line, as a reproducer header is read.
RunSettings readBack(const std::string& text) {
  RunSettings s;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end - start);
    size_t colon = line.find(": ");
    REQUIRE(s.readLine(line.substr(0, colon), line.substr(colon + 2)));
    start = end + 1;
  }
  return s;
}

const char* kModule = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {
  add(%x, %x)
}
)";

}  // namespace

TEST_CASE("RunSettings: the text form reads back to the same settings", "[run-settings]") {
  const RunSettings s = sample();
  CHECK(s.lines() ==
        "opt_level: 3\ntarget: llvm -mcpu=znver3\ndisabled_pass: FoldConstant,SimplifyExpr\nrequired_pass: InferType\n"
        "config: relay.FuseOps.max_depth = 4\nverify_each: on\n");
  CHECK(readBack(s.lines()) == s);
  // The defaults write a single line.
  CHECK(RunSettings{}.lines() == "opt_level: 2\n");
}

TEST_CASE("RunSettings: a bad value in the text form is an error naming the key", "[run-settings]") {
  auto [key, value, message] = GENERATE(table<std::string, std::string, std::string>({
      {"opt_level", "three", "opt_level must be an integer, got 'three'"},
      {"opt_level", "3x", "opt_level must be an integer, got '3x'"},
      {"verify_each", "maybe", "verify_each must be 'on' or 'off', got 'maybe'"},
      {"config", "relay.FuseOps.max_depth 4", "expected 'config: KEY = VALUE'"},
  }));
  RunSettings s;
  CHECK_THROWS_WITH(s.readLine(key, value), Catch::Contains(message));
  // Keys that are not run settings are the caller's.
  CHECK_FALSE(s.readLine("pipeline", "FuseOps"));
}

TEST_CASE("RunSettings: applyTo writes every field into a context and of() reads them back", "[run-settings]") {
  sharedBuiltinRegistry();  // registers the passes' config keys
  auto ctx = PassContext::create("root");
  RunSettings s = sample();
  s.applyTo(*ctx);
  CHECK(ctx->optLevel == 3);
  CHECK(ctx->target == "llvm -mcpu=znver3");
  CHECK(ctx->disabledPasses == s.disabledPasses);
  RunSettings back = RunSettings::of(*ctx);
  back.verifyEach = true;  // an instrument, not a context field
  CHECK(back == s);
}

TEST_CASE("RunSettings: the workbench takes them whole and refuses a bad one without changing anything", "[run-settings][workbench]") {
  Workbench wb(sharedBuiltinRegistry());
  wb.loadText(kModule, "add.relay");
  wb.setPipeline("InferType,FoldConstant");
  RunSettings s = sample();
  wb.setRunSettings(s);
  CHECK(wb.runSettings() == s);
  CHECK(wb.verifyEach());

  RunSettings bad = s;
  bad.disabledPasses.insert("NoSuchPass");
  CHECK_THROWS_WITH(wb.setRunSettings(bad), Catch::Contains("unknown pass 'NoSuchPass' in disabled_pass"));
  bad = s;
  bad.target = "frobnicator";
  CHECK_THROWS(wb.setRunSettings(bad));
  bad = s;
  bad.config.emplace_back("relay.NoSuch.key", AttrValue::integer(1));
  CHECK_THROWS(wb.setRunSettings(bad));
  CHECK(wb.runSettings() == s);

  // Dropping a config key takes effect (a fresh context forgets it).
  RunSettings fewer = s;
  fewer.config.clear();
  wb.setRunSettings(fewer);
  CHECK(wb.runSettings() == fewer);
  CHECK(wb.context().explicitConfig().entries().empty());
}
