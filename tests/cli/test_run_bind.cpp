// `run --host --bind`: a module with a symbolic batch (an ONNX dim_param)
// runs on the host JIT for two batch sizes, each bound on a copy by
// BindSymbolicVars, and matches the graph-level interpreter.
#include <catch2/catch.hpp>

#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/interpreter.h"

using namespace passlab;

namespace {

std::unique_ptr<Workbench> emptyWorkbench() {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  return std::make_unique<Workbench>(registry);
}

}  // namespace

TEST_CASE("run --host --bind: a symbolic batch runs on the JIT for two batch sizes", "[workbench][codegen][symbolic][run]") {
  std::unique_ptr<Workbench> wb = emptyWorkbench();
  CommandInterpreter interpreter{*wb};
  for (const std::string line : {"load " + std::string(PASSLAB_SOURCE_DIR) + "/tests/data/onnx/symbolic_batch_conv.onnx",
                                 std::string("pipeline InferType,FuseOps,LambdaLifting,LegalizeOps"), std::string("run")}) {
    CommandResult r = interpreter.runLine(line);
    INFO(line << "\n" << r.output() << r.error());
    REQUIRE(r.ok());
  }
  for (const char* n : {"2", "5"}) {
    CommandResult r = interpreter.runLine(std::string("run --host --seed 3 --bind batch_size=") + n);
    INFO(r.output() << r.error());
    REQUIRE(r.ok());
    CHECK(r.output().rfind(std::string("shapes bound for this run: batch_size=") + n +
                               " (BindSymbolicVars on the trace's input, then its 4 passes replayed)\n",
                           0) == 0);
    CHECK(r.output().find("graph-level interpreter") != std::string::npos);
    CHECK(r.output().find("PASS\n") != std::string::npos);
    CHECK(r.output().find(std::string("(") + n + ", 4, 6, 6)") != std::string::npos);
  }
  // Nothing named: the batch is 1, and the output says how to choose it.
  CommandResult d = interpreter.runLine("run --host");
  INFO(d.output() << d.error());
  REQUIRE(d.ok());
  CHECK(d.output().find("passes replayed); batch_size defaulted to 1, choose with --bind NAME=N\n") != std::string::npos);
  // The workbench's module keeps its shape variable.
  REQUIRE(interpreter.runLine("set syntax tvmscript").ok());
  CHECK(interpreter.runLine("show").output().find("R.Tensor((\"batch_size\", 3, 8, 8), dtype=\"float32\")") != std::string::npos);
  // A name the module does not define, and a malformed value.
  CommandResult unknown = interpreter.runLine("run --host --bind m=3");
  CHECK(!unknown.ok());
  CHECK(unknown.error().find("no function defines a shape variable named 'm'") != std::string::npos);
  CommandResult bad = interpreter.runLine("run --host --bind batch_size=x");
  CHECK(!bad.ok());
  CHECK(bad.error().find("the value of 'batch_size' must be a non-negative integer, got 'x'") != std::string::npos);
}
