// `--expect=FILE` (batch), `expect FILE` (REPL) and core/trace/expect.h:
// structural equality with an expected module (TVM's Before/Expected idiom),
// with the aligned diff when they differ; and the named pipelines.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "core/analysis/type_infer.h"
#include "core/pass/registry.h"
#include "core/text/parser.h"
#include "core/trace/expect.h"
#include "core/workbench/workbench.h"
#include "passes/build_pipeline.h"
#include "passes/registry.h"
#include "repl/batch.h"
#include "repl/interpreter.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::sharedBuiltinRegistry;

namespace {

const std::string kData = std::string(PASSLAB_SOURCE_DIR) + "/tests/expect/";

IRModule load(const std::string& name) { return inferTypes(parseModuleFile(kData + name)); }

/// Runs a batch and returns {exit status, stderr}.
std::pair<int, std::string> batch(BatchOptions o) {
  std::FILE* err = std::tmpfile();
  std::FILE* out = std::tmpfile();
  int status = runBatch(o, *sharedBuiltinRegistry(), out, err);
  std::rewind(err);
  std::string text;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, err)) > 0;) text.append(buf, n);
  std::fclose(err);
  std::fclose(out);
  return {status, text};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("expect: renamed variables are structurally equal", "[expect]") {
  ExpectOutcome o = expectModule(load("two_functions.relay"), loadExpectedModule(kData + "two_functions_renamed.relay"),
                                 "actual", "expected");
  CHECK(o.equal);
  CHECK(o.diff.empty());
}

TEST_CASE("expect: a changed op, a changed attribute, a missing function each fail with a diff", "[expect]") {
  auto [file, removed, added] = GENERATE(table<std::string, std::string, std::string>({
      {"changed_op.relay", "-  %0 = subtract(%a, %b)", " = add(%a, %b)"},
      {"changed_attr.relay", "-  nn.softmax(%1) /*", "+  nn.softmax(%1, axis=0) /*"},
      {"missing_function.relay", "", "+def @helper("},
  }));
  CAPTURE(file);
  ExpectOutcome o = expectModule(load("two_functions.relay"), loadExpectedModule(kData + file), "actual", file);
  CHECK_FALSE(o.equal);
  CHECK(contains(o.diff, "--- " + file + "\n+++ actual\n"));
  if (!removed.empty()) CHECK(contains(o.diff, removed));
  CHECK(contains(o.diff, added));
  // Aligned: the actual side prints with the expected side's names, so the
  // renamed parameters are not differences.
  CHECK_FALSE(contains(o.diff, "%x"));
}

TEST_CASE("expect: the phase attribute is not compared", "[expect]") {
  IRModule m = load("two_functions.relay");
  AttrDict attrs = m->attrs;
  attrs.set("phase", AttrValue::integer(2));
  CHECK(expectModule(withModuleAttrs(m, attrs), loadExpectedModule(kData + "two_functions_renamed.relay"), "a", "b").equal);
}

TEST_CASE("expect: a Before/Expected pair in TVMScript through a pass", "[expect]") {
  auto [before, pipeline, expected] = GENERATE(table<std::string, std::string, std::string>({
      {"dce_before.py", "DeadCodeElimination", "dce_expected.py"},
      {"fold_before.py", "FoldConstant", "fold_expected.py"},
  }));
  CAPTURE(before, pipeline);
  BatchOptions o;
  o.input = kData + before;
  o.pipeline = pipeline;
  o.hasPipeline = true;
  o.expect = kData + expected;
  auto [status, err] = batch(o);
  CHECK(status == 0);
  CHECK(contains(err, "matches " + o.expect));
  // Without the pass the Before module is not the Expected one: the check can fail.
  o.pipeline = "InferType";
  auto [status2, err2] = batch(o);
  CHECK(status2 == 1);
  CHECK(contains(err2, "does not match"));
  CHECK(contains(err2, "R."));  // the diff is in the expected file's syntax
}

TEST_CASE("expect: batch exit codes and a located error for a file that does not load", "[expect]") {
  BatchOptions o;
  o.input = kData + "two_functions.relay";
  o.expect = kData + "two_functions_renamed.relay";
  CHECK(batch(o).first == 0);
  o.expect = kData + "changed_op.relay";
  auto [status, err] = batch(o);
  CHECK(status == 1);
  CHECK(contains(err, " = add(%a, %b)"));
  o.expect = kData + "broken.relay";
  auto [status2, err2] = batch(o);
  CHECK(status2 == 1);
  CHECK(contains(err2, "broken.relay:4:1"));
  o.expect = kData + "no_such_file.relay";
  CHECK(batch(o).first == 1);
}

TEST_CASE("expect: the REPL command compares the cursor's module and keeps running", "[expect]") {
  Workbench wb{sharedBuiltinRegistry()};
  CommandInterpreter repl{wb};
  REQUIRE(repl.runLine("load " + kData + "dce_before.py").ok());
  REQUIRE(repl.runLine("pipeline DeadCodeElimination").ok());
  CommandResult before = repl.runLine("expect " + kData + "dce_expected.py");
  CHECK(before.status == CommandStatus::Error);
  // The diff prints the cursor's module with the expected file's names.
  CHECK(contains(before.output(), "= R.multiply(a, b)\n"));
  CHECK(contains(before.output(), "--- " + kData + "dce_expected.py\n+++ #0 load\n"));
  CHECK(contains(before.error(), "#0 "));
  REQUIRE(repl.runLine("run").ok());
  CommandResult after = repl.runLine("expect " + kData + "dce_expected.py");
  CHECK(after.ok());
  CHECK(contains(after.output(), "matches " + kData + "dce_expected.py"));
  CommandResult broken = repl.runLine("expect " + kData + "broken.relay");
  CHECK(broken.status == CommandStatus::Error);
  CHECK(contains(broken.error(), "broken.relay:4:1"));
  CHECK(repl.runLine("expect").status == CommandStatus::Error);
  CHECK(repl.runLine("trace").ok());
}

TEST_CASE("expect: `differs FILE` is a bisect predicate; reduce refuses it and says why", "[expect][bisect][reduce]") {
  Workbench wb{sharedBuiltinRegistry()};
  CommandInterpreter repl{wb};
  REQUIRE(repl.runLine("load " + kData + "dce_before.py").ok());
  REQUIRE(repl.runLine("pipeline DeadCodeElimination,Normalize").ok());
  // The first pass after which the module no longer is the loaded one.
  CommandResult first = repl.runLine("bisect differs " + kData + "dce_before.py");
  INFO(first.output() + first.error());
  REQUIRE(first.ok());
  CHECK(contains(first.output(), "the module differs from " + kData + "dce_before.py"));
  CHECK(contains(first.output(), "first: #1 DeadCodeElimination"));
  // A file that does not load is a located error, a missing file name a usage error.
  CHECK(contains(repl.runLine("bisect differs " + kData + "broken.relay").error(), "broken.relay:4:1"));
  CHECK(repl.runLine("bisect differs").status == CommandStatus::Error);
  BisectPredicate p = parseBisectPredicate({"differs", kData + "dce_expected.py"});
  CHECK(p.kind == BisectPredicate::Kind::Differs);
  CHECK(bisectPredicateText(p) == "differs " + kData + "dce_expected.py");
  CHECK(parseBisectPredicate({"differs", kData + "dce_expected.py"}).expected != nullptr);
  // reduce refuses it and says why (docs/pipelines.md): a smaller input gives another output.
  CommandResult reduced = repl.runLine("reduce differs " + kData + "dce_before.py");
  CHECK(reduced.status == CommandStatus::Error);
  CHECK(contains(reduced.error(), "use `bisect differs FILE`"));
}

TEST_CASE("named pipelines: relay.default, relax.default, relax.zero", "[expect][pipeline]") {
  auto registry = sharedBuiltinRegistry();
  PassPtr relay = parsePipeline("relay.default", *registry);
  CHECK(pipelineText(*relay) == defaultBuildPipeline());
  PassPtr mixed = parsePipeline("SimplifyExpr,relax.default", *registry);
  CHECK(pipelineText(*mixed) ==
        "SimplifyExpr,LambdaLifting,LegalizeOps,ToNonDataflow,RemovePurityChecking,CallTIRRewrite,StaticPlanBlockMemory,"
        "LowerAllocTensor,KillAfterLastUse,LowerRuntimeBuiltin,VMShapeLower");
  for (const NamedPipeline& p : builtinNamedPipelines()) CHECK(registry->findPipeline(p.name));
  try {
    parsePipeline("InferType,default", *registry, "--pass-pipeline");
    FAIL("default parsed");
  } catch (const DiagnosticError& e) {
    std::string m = e.renderAll();
    CHECK(contains(m, "--pass-pipeline:1:11"));
    CHECK(contains(m, "'default' is not a pass or a named pipeline; did you mean 'relay.default' or 'relax.default'?"));
    CHECK_FALSE(contains(m, "unknown pass"));
  }
  try {
    parsePipeline("relay.defualt", *registry);
    FAIL("relay.defualt parsed");
  } catch (const DiagnosticError& e) {
    CHECK(contains(e.renderAll(), "did you mean 'relay.default'?"));
  }
  CHECK_THROWS_AS(parsePipeline("relay.default{x=1}", *registry), DiagnosticError);
}

TEST_CASE("named pipelines run: relax.default on a Relax module, relay.default in the REPL", "[expect][pipeline]") {
  BatchOptions o;
  o.input = kData + "dce_before.py";
  o.pipeline = "relax.default";
  o.hasPipeline = true;
  o.output = std::string(PASSLAB_BINARY_DIR) + "/expect-relax-default.out";
  auto [status, err] = batch(o);
  CHECK(status == 0);
  CHECK(err.empty());
  Workbench wb{sharedBuiltinRegistry()};
  CommandInterpreter repl{wb};
  REQUIRE(repl.runLine("load " + kData + "two_functions.relay").ok());
  CommandResult set = repl.runLine("pipeline relay.default");
  CHECK(set.ok());
  CHECK(contains(set.output(), "(6 passes)"));
  CHECK(repl.runLine("run").ok());
  CommandResult bad = repl.runLine("pipeline default");
  CHECK(contains(bad.error(), "did you mean 'relay.default' or 'relax.default'?"));
  CommandResult help = repl.runLine("help pipeline");
  for (const NamedPipeline& p : builtinNamedPipelines()) CHECK(contains(help.output(), p.name));
}
