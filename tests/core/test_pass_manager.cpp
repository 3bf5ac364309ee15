// The pass manager: registry, pipeline text, config, opt levels, instruments,
// FunctionPass skips, child contexts and provenance, failures.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>

#include "core/pass/instruments.h"
#include "core/pass/pass.h"
#include "core/pass/registry.h"
#include "core/pass/target.h"
#include "passes/registry.h"
#include "tests/pass_fixtures.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// The first built-in passes plus two stand-ins with options of every kind
/// (independent of the other passes the built-in table holds).
PassRegistry testRegistry() {
  PassRegistry builtins;
  registerBuiltinPasses(builtins);
  PassRegistry registry;
  for (const char* name : {"InferType", "SimplifyExpr", "DeadCodeElimination", "Inline", "EliminateCommonSubexpr"})
    registry.add(*builtins.find(name));
  auto stand_in = [](std::string name, std::vector<PassOptionInfo> options) {
    PassRegistration r;
    r.info.name = name;
    r.info.optLevel = 2;
    r.options = std::move(options);
    r.create = [name](const AttrDict& opts) {
      // Keep only the options that differ from the defaults, as real passes do.
      AttrDict given;
      for (const auto& [k, v] : opts.entries()) {
        bool isDefault = (k == "max_depth" && v == AttrValue::integer(256)) || (k == "link_params" && v == AttrValue::boolean(false)) ||
                         (k == "mode" && v == AttrValue::string("auto")) || (k == "ratio" && v == AttrValue::floating(0.5)) ||
                         (k == "axes" && v == AttrValue::array({}));
        if (!isDefault) given.set(k, v);
      }
      PassInfo info;
      info.name = name;
      return std::make_shared<ModulePass>(info, [](const IRModule& m, PassContext&) { return m; }, given);
    };
    return r;
  };
  registry.add(stand_in("FoldConstant", {}));
  registry.add(stand_in("FuseOps", {{"max_depth", AttrValue::Kind::Int, AttrValue::integer(256), "depth"},
                                    {"link_params", AttrValue::Kind::Bool, AttrValue::boolean(false), "link"},
                                    {"mode", AttrValue::Kind::String, AttrValue::string("auto"), "mode"},
                                    {"ratio", AttrValue::Kind::Float, AttrValue::floating(0.5), "ratio"},
                                    {"axes", AttrValue::Kind::Array, AttrValue::array({}), "axes"}}));
  return registry;
}

std::vector<std::string> names(const std::vector<PassPtr>& passes) {
  std::vector<std::string> out;
  for (const PassPtr& p : passes) out.push_back(p->info().name);
  return out;
}

}  // namespace

TEST_CASE("PassManager: registry lists built-in passes by name", "[pass]") {
  PassRegistry registry;
  registerBuiltinPasses(registry);
  std::vector<std::string> listed;
  for (const PassRegistration* r : registry.all()) listed.push_back(r->info.name);
  CHECK(std::is_sorted(listed.begin(), listed.end()));
  for (const char* name : {"DeadCodeElimination", "EliminateCommonSubexpr", "InferType", "Inline", "SimplifyExpr"}) {
    CAPTURE(name);
    CHECK(std::count(listed.begin(), listed.end(), name) == 1);
  }
  REQUIRE(registry.find("EliminateCommonSubexpr"));
  CHECK(registry.find("EliminateCommonSubexpr")->info.optLevel == 3);
  CHECK(registry.find("Nope") == nullptr);
  // The instance reports the same info as the table.
  CHECK(registry.create("SimplifyExpr")->info().required == std::vector<std::string>{"InferType"});
  CHECK_THROWS_AS(registerBuiltinPasses(registry), std::invalid_argument);
}

TEST_CASE("PassManager: every pass file's registrar reaches the built-in registry", "[pass][registry]") {
  // The registrars run when libpasslab_passes is loaded; a pass file left out of
  // the link (or a registrar that never ran) is a pass missing here.
  const std::vector<std::string> expected = {
      "AnnotateTIROpPattern", "AnnotateTarget", "BindParams", "BindSymbolicVars", "BindTarget", "CallTIRRewrite", "CanonicalizeBindings", "ConvertLayout",
      "DeadCodeElimination", "DecomposeOpsForInference", "DefuseOps", "EliminateCommonSubexpr", "FoldConstant", "FoldScaleAxis", "FuseOps",
      "FuseTIR", "InferType", "Inline", "InlinePrivateFunctions", "KillAfterLastUse", "LambdaLifting", "LegalizeOps", "LowerAllocTensor", "LowerRuntimeBuiltin",
      "MarkCompilerFunctionsAsExtern", "MergeCompilerRegions", "Normalize", "OutlineCompilerFunctions",
      "PartitionGraph", "PlanDevices", "RemovePurityChecking", "SimplifyExpr", "SimplifyInference", "StaticPlanBlockMemory",
      "ToMixedPrecision", "ToNonDataflow", "VMBuiltinLower", "VMShapeLower"};
  std::vector<std::string> declared;
  for (const PassRegistration* r : declaredPasses()) declared.push_back(r->info.name);
  for (const std::string& name : expected) {
    CAPTURE(name);
    CHECK(std::count(declared.begin(), declared.end(), name) == 1);
  }
  PassRegistry registry;
  registerBuiltinPasses(registry);
  CHECK(registry.all().size() == declared.size());
  // Each instance reports its own declaration, and a function-level pass gets
  // the `compiler` scope option once, even when re-added from another registry.
  for (const PassRegistration* r : registry.all()) {
    CAPTURE(r->info.name);
    CHECK(registry.create(r->info.name)->info().name == r->info.name);
    PassRegistry copy;
    copy.add(*r);
    const auto& options = copy.find(r->info.name)->options;
    const auto compilers = std::count_if(options.begin(), options.end(), [](const PassOptionInfo& o) { return o.name == "compiler"; });
    CHECK(compilers == (r->level == PassLevel::Function || r->info.name == "OutlineCompilerFunctions" ||
                                r->info.name == "MarkCompilerFunctionsAsExtern"
                            ? 1
                            : 0));
  }
}

TEST_CASE("PassManager: registry create validates options", "[pass]") {
  PassRegistry registry = testRegistry();
  PassPtr fuse = registry.create("FuseOps", {{"max_depth", AttrValue::integer(4)}});
  CHECK(fuse->options().getInt("max_depth") == 4);
  try {
    registry.create("FuseOps", {{"max_depth", AttrValue::string("four")}});
    FAIL("expected an error");
  } catch (const DiagnosticError& e) {
    CHECK_THAT(e.diagnostics().front().message, Catch::Contains("max_depth") && Catch::Contains("expects int"));
  }
  CHECK_THROWS_WITH(registry.create("FuseOp"), Catch::Contains("did you mean 'FuseOps'?"));
}

TEST_CASE("PassManager: pipeline parses passes and options", "[pass]") {
  PassRegistry registry = testRegistry();
  PassPtr pipeline = parsePipeline(" InferType , FoldConstant,FuseOps{max_depth=4, link_params=true, mode=\"a b\", ratio=2, axes=[1,-2]}",
                                   registry);
  CHECK(pipeline->info().name == "pipeline");
  std::vector<PassPtr> passes = pipeline->subPasses();
  REQUIRE(names(passes) == std::vector<std::string>{"InferType", "FoldConstant", "FuseOps"});
  const AttrDict& o = passes[2]->options();
  CHECK(o.find("max_depth")->asInt() == 4);
  CHECK(o.find("link_params")->kind() == AttrValue::Kind::Bool);
  CHECK(o.find("mode")->asString() == "a b");
  // An int given for a float option is stored as a float.
  CHECK(o.find("ratio")->kind() == AttrValue::Kind::Float);
  CHECK(o.find("axes")->asInts() == std::vector<int64_t>{1, -2});
  CHECK(pipelineText(*pipeline) == "InferType,FoldConstant,FuseOps{max_depth=4,link_params=true,mode=\"a b\",ratio=2.0,axes=[1,-2]}");
}

TEST_CASE("PassManager: pipeline text round-trips", "[pass]") {
  PassRegistry registry = testRegistry();
  std::string spec = GENERATE(Catch::Generators::as<std::string>{}, "", "InferType", "InferType,FoldConstant,FuseOps{max_depth=4}",
                              "FuseOps{mode=NCHW4c,ratio=0.25}", "FuseOps{mode=\"with \\\"quotes\\\"\"}",
                              "fold(FoldConstant,FuseOps{link_params=true}),InferType", "outer(inner(InferType),outer2())",
                              "DeadCodeElimination{remove_unused_functions=true,entry_functions=[main,other]}",
                              "SimplifyExpr{disabled_rules=[cast,reshape]},EliminateCommonSubexpr{skip_ops=[nn.relu]}");
  PassPtr once = parsePipeline(spec, registry);
  std::string text = pipelineText(*once);
  CHECK(text == spec);
  CHECK(pipelineText(*parsePipeline(text, registry)) == text);
}

TEST_CASE("PassManager: unknown pass is located", "[pass]") {
  PassRegistry registry = testRegistry();
  struct Case {
    std::string spec;
    uint32_t column;
    std::string message;
  };
  Case c = GENERATE(values<Case>({
      {"InferType,FoldConstnt", 11, "unknown pass 'FoldConstnt'; did you mean 'FoldConstant'?"},
      {"InferTyp", 1, "unknown pass 'InferTyp'; did you mean 'InferType'?"},
      {"Frobnicate", 1, "unknown pass 'Frobnicate'"},
      {"FuseOps{max_dept=4}", 9, "pass 'FuseOps' has no option 'max_dept'; did you mean 'max_depth'?"},
      {"InferType{x=1}", 11, "pass 'InferType' has no option 'x'; it takes no options"},
      {"FuseOps{max_depth=four}", 19, "option 'max_depth' of pass 'FuseOps' expects int, got string four"},
      {"FuseOps{link_params=2}", 21, "option 'link_params' of pass 'FuseOps' expects bool, got int 2"},
      {"FuseOps{max_depth=4x}", 19, "malformed number '4x'"},
      {"FuseOps{max_depth=4", 20, "expected ',' or '}' in the options of pass 'FuseOps', found end of pipeline"},
      {"FuseOps{max_depth=4,max_depth=5}", 21, "option 'max_depth' of pass 'FuseOps' is given twice"},
      {"FuseOps{mode=\"abc}", 14, "unterminated string"},
      {"FuseOps{max_depth=}", 19, "expected a value for option 'max_depth', found '}'"},
      {"InferType FoldConstant", 11, "expected ',' or end of pipeline after a pass, found 'F'"},
      {"InferType,,FoldConstant", 11, "expected a pass name, found ','"},
      {"InferType,", 11, "expected a pass name, found end of pipeline"},
      {"InferType(FoldConstant)", 1, "pass 'InferType' does not take a nested pipeline"},
      {"group(InferType", 16, "expected ',' or ')' after a pass, found end of pipeline"},
      {"SimplifyExpr{disabled_rules=[nope]}", 1, "SimplifyExpr has no rule 'nope'"},
      {"EliminateCommonSubexpr{skip_ops=[no.such.op]}", 1, "EliminateCommonSubexpr: unknown op 'no.such.op'"},
  }));
  CAPTURE(c.spec);
  try {
    parsePipeline(c.spec, registry, "<spec>");
    FAIL("expected an error");
  } catch (const DiagnosticError& e) {
    const Diagnostic& d = e.diagnostics().front();
    CHECK_THAT(d.message, Catch::StartsWith(c.message));
    CHECK(d.span.line == 1);
    CHECK(d.span.column == c.column);
    CHECK(d.span.file->name == "<spec>");
    // The rendered form quotes the spec with a caret under the column.
    std::string rendered = d.render();
    CHECK_THAT(rendered, Catch::StartsWith("<spec>:1:" + std::to_string(c.column) + ": error: "));
    CHECK_THAT(rendered, Catch::EndsWith("\n  " + std::string(c.column - 1, ' ') + "^"));
  }
}

TEST_CASE("PassManager: config keys are validated and name the key", "[pass]") {
  ConfigRegistry& keys = ConfigRegistry::global();
  keys.add({"test.pm.flag", AttrValue::Kind::Bool, AttrValue::boolean(false), "a flag"});
  keys.add({"test.pm.depth", AttrValue::Kind::Int, AttrValue::integer(8), "a depth"});
  keys.add({"test.pm.ratio", AttrValue::Kind::Float, AttrValue::floating(0.5), "a ratio"});
  // Registering again with the same kind is allowed; another kind is a bug.
  keys.add({"test.pm.flag", AttrValue::Kind::Bool, AttrValue::boolean(false), "a flag"});
  CHECK_THROWS_AS(keys.add({"test.pm.flag", AttrValue::Kind::Int, AttrValue::integer(0), ""}), std::invalid_argument);

  auto ctx = PassContext::create();
  ctx->setConfig("test.pm.flag", AttrValue::integer(1));
  CHECK(ctx->explicitConfig().find("test.pm.flag")->kind() == AttrValue::Kind::Bool);
  ctx->setConfig("test.pm.ratio", AttrValue::integer(2));
  CHECK(ctx->explicitConfig().find("test.pm.ratio")->asFloat() == 2.0);
  CHECK_THROWS_WITH(ctx->setConfig("test.pm.dept", AttrValue::integer(1)),
                    Catch::Contains("unknown config key 'test.pm.dept'") && Catch::Contains("did you mean 'test.pm.depth'?"));
  CHECK_THROWS_WITH(ctx->setConfig("test.pm.depth", AttrValue::string("deep")),
                    Catch::Contains("config key 'test.pm.depth' expects int, got string"));
  CHECK_THROWS_WITH(ctx->setConfig("test.pm.flag", AttrValue::integer(7)), Catch::Contains("'test.pm.flag' expects bool"));
  // Reading a key nobody registered is a programming error that names it.
  CHECK_THROWS_WITH(ctx->config("test.pm.unregistered", "P"), Catch::Contains("test.pm.unregistered"));
}

TEST_CASE("PassManager: opt level, required and disabled passes", "[pass]") {
  IRModule mod = moduleWithExternalFunctions();
  auto ctx = PassContext::create();
  auto recorder = std::make_shared<RecordingInstrument>();
  ctx->instruments().push_back(recorder);
  PassPtr heavy = lambdaPass("Heavy", [](const IRModule& m, PassContext&) { return withModuleAttrs(m, {{"heavy", AttrValue::integer(1)}}); },
                             /*optLevel=*/3);

  SECTION("opt_level above the context's: not run") {
    ctx->optLevel = 2;
    CHECK(runPass(*heavy, mod, *ctx) == mod);
    CHECK(recorder->events == std::vector<std::string>{"enter Heavy", "skip Heavy: opt_level 3 > context opt_level 2", "exit Heavy"});
  }
  SECTION("opt_level reached: run") {
    ctx->optLevel = 3;
    CHECK(runPass(*heavy, mod, *ctx) != mod);
  }
  SECTION("required runs whatever the opt_level, even when also disabled") {
    ctx->optLevel = 0;
    ctx->requiredPasses.insert("Heavy");
    ctx->disabledPasses.insert("Heavy");
    CHECK(runPass(*heavy, mod, *ctx)->attrs.getInt("heavy") == 1);
  }
  SECTION("disabled: not run") {
    ctx->optLevel = 3;
    ctx->disabledPasses.insert("Heavy");
    CHECK(runPass(*heavy, mod, *ctx) == mod);
    CHECK_THAT(recorder->events.at(1), Catch::StartsWith("skip Heavy: disabled"));
  }
  SECTION("an instrument's shouldRun can veto") {
    ctx->optLevel = 3;
    recorder->vetoed.insert("Heavy");
    CHECK(runPass(*heavy, mod, *ctx) == mod);
    CHECK(recorder->events.at(1) == "skip Heavy: instrument 'recording' chose not to run it");
  }
}

TEST_CASE("PassManager: hooks run in order, after-hooks reversed", "[pass]") {
  auto ctx = PassContext::create();
  auto a = std::make_shared<RecordingInstrument>("A");
  auto b = std::make_shared<RecordingInstrument>("B");
  ctx->instruments() = {a, b};
  PassPtr pass = identityPass("P");
  runPass(*pass, moduleWithExternalFunctions(), *ctx);
  CHECK(a->events == std::vector<std::string>{"A:enter P", "A:before P", "A:after P", "A:exit P"});
  CHECK(b->events == std::vector<std::string>{"B:enter P", "B:before P", "B:after P", "B:exit P"});
  // Ordering across instruments: observe it with one shared sequence.
  struct Sequencer final : PassInstrument {
    std::string tag;
    std::shared_ptr<std::vector<std::string>> out;
    std::string name() const override { return tag; }
    void enterPass(const Pass&, const IRModule&, PassContext&) override { out->push_back(tag + " enter"); }
    void beforePass(const Pass&, const IRModule&, PassContext&) override { out->push_back(tag + " before"); }
    void afterPass(const Pass&, const IRModule&, const IRModule&, PassContext&) override { out->push_back(tag + " after"); }
    void exitPass(const Pass&, PassContext&) override { out->push_back(tag + " exit"); }
  };
  auto log = std::make_shared<std::vector<std::string>>();
  auto s1 = std::make_shared<Sequencer>();
  s1->tag = "1";
  s1->out = log;
  auto s2 = std::make_shared<Sequencer>();
  s2->tag = "2";
  s2->out = log;
  ctx->instruments() = {s1, s2};
  runPass(*pass, moduleWithExternalFunctions(), *ctx);
  CHECK(*log == std::vector<std::string>{"1 enter", "2 enter", "1 before", "2 before", "2 after", "1 after", "2 exit", "1 exit"});
}

TEST_CASE("PassManager: FunctionPass skips external functions and records why", "[pass]") {
  IRModule mod = moduleWithExternalFunctions();
  auto ctx = PassContext::create();
  auto recorder = std::make_shared<RecordingInstrument>();
  ctx->instruments().push_back(recorder);
  NegateBodies pass;
  IRModule out = runPass(pass, mod, *ctx);

  REQUIRE(out != mod);
  CHECK(out->lookup("main") != mod->lookup("main"));
  CHECK(out->lookup("helper") != mod->lookup("helper"));
  for (const char* skipped : {"byoc", "noopt", "stub"}) CHECK(out->lookup(skipped) == mod->lookup(skipped));
  REQUIRE(recorder->skips.size() == 3);
  std::map<std::string, std::string> reasons;
  for (const FunctionSkip& s : recorder->skips) {
    CHECK(s.pass == "NegateBodies");
    reasons[s.function] = s.reason;
  }
  CHECK(reasons["byoc"] == "Compiler=\"ccompiler\": external codegen function");
  CHECK_THAT(reasons["noopt"], Catch::StartsWith("SkipOptimization=1"));
  CHECK_THAT(reasons["stub"], Catch::StartsWith("Extern=1"));
  // The input module is untouched.
  CHECK(as<FunctionNode>(mod->lookup("main"))->body->kind == ExprKind::Call);
  CHECK(as<CallNode>(as<FunctionNode>(mod->lookup("main"))->body)->op()->id == OpId::Relu);

  SECTION("SkipOptimization=0 and Extern=0 do not skip") {
    std::map<std::string, Expr> fns{{"a", reluAddFunction({{"SkipOptimization", AttrValue::integer(0)}, {"Extern", AttrValue::integer(0)}})}};
    IRModule m = makeModule(fns);
    CHECK(runPass(pass, m, *ctx)->lookup("a") != m->lookup("a"));
  }
}

TEST_CASE("PassManager: a FunctionPass that changes nothing returns the same module", "[pass]") {
  struct Nothing final : FunctionPass {
    PassInfo i = [] {
      PassInfo p;
      p.name = "Nothing";
      return p;
    }();
    const PassInfo& info() const override { return i; }
    Function runOnFunction(const Function& fn, const std::string&, const IRModule&, PassContext&) const override { return fn; }
  };
  IRModule mod = moduleWithExternalFunctions();
  auto ctx = PassContext::create();
  Nothing pass;
  CHECK(runPass(pass, mod, *ctx) == mod);
}

TEST_CASE("PassManager: child contexts share instruments and record where reads happened", "[pass]") {
  ConfigRegistry::global().add({"test.pm.level", AttrValue::Kind::Int, AttrValue::integer(1), "a level"});
  auto root = PassContext::create("root");
  root->setConfig("test.pm.level", AttrValue::integer(5));
  root->target = "hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b -link-params=1";
  root->optLevel = 1;
  auto recorder = std::make_shared<RecordingInstrument>();
  root->instruments().push_back(recorder);

  auto child = root->makeChild("Outer.eval");
  CHECK(child->parent() == root);
  CHECK(child->depth() == 1);
  CHECK(child->id() != root->id());
  CHECK(child->optLevel == 3);
  CHECK(child->explicitConfig().empty());
  CHECK(child->target.empty());
  CHECK(&child->instruments() == &root->instruments());
  auto inheriting = root->makeChild("copy", /*inheritSettings=*/true);
  CHECK(inheriting->optLevel == 1);
  CHECK(inheriting->target == root->target);
  CHECK(inheriting->explicitConfig().getInt("test.pm.level") == 5);

  CHECK(root->config("test.pm.level", "Outer").asInt() == 5);
  CHECK(child->config("test.pm.level", "Inner").asInt() == 1);
  CHECK_FALSE(child->configIfSet("test.pm.level", "Inner"));
  IRModule mod = makeModule({}, {{"executor", AttrValue::dict({{"kind", AttrValue::string("graph")}, {"link-params", AttrValue::integer(1)}})}});
  CHECK(root->moduleAttr(mod, "executor", "link-params", "Outer")->asInt() == 1);
  CHECK_FALSE(root->moduleAttr(mod, "runtime", "", "Outer"));
  CHECK(root->targetAttr("-mcpu", "Outer")->asString() == "hexagonv68");
  CHECK(root->targetAttr("link-params", "Outer")->asInt() == 1);
  CHECK(root->targetAttr("mattr", "Outer")->asArray().size() == 2);
  CHECK(root->targetAttr("kind", "Outer")->asString() == "hexagon");
  CHECK_FALSE(child->targetAttr("mcpu", "Inner"));
  root->recordOption("max_depth", AttrValue::integer(4), "Outer");

  const std::vector<ConfigRead>& reads = recorder->reads;
  REQUIRE(reads.size() == 11);
  auto check = [&](size_t i, std::string key, ConfigSource source, const PassContext& ctx, std::string pass) {
    CAPTURE(i);
    CHECK(reads[i].key == key);
    CHECK(reads[i].source == source);
    CHECK(reads[i].contextId == ctx.id());
    CHECK(reads[i].contextName == ctx.name());
    CHECK(reads[i].pass == pass);
  };
  check(0, "test.pm.level", ConfigSource::PassContext, *root, "Outer");
  check(1, "test.pm.level", ConfigSource::Default, *child, "Inner");
  check(2, "test.pm.level", ConfigSource::Default, *child, "Inner");
  CHECK(reads[2].value.isNone());
  check(3, "executor.link-params", ConfigSource::ModuleAttr, *root, "Outer");
  check(4, "runtime", ConfigSource::Default, *root, "Outer");
  check(5, "target.mcpu", ConfigSource::Target, *root, "Outer");
  check(6, "target.link-params", ConfigSource::Target, *root, "Outer");
  check(9, "target.mcpu", ConfigSource::Default, *child, "Inner");
  check(10, "max_depth", ConfigSource::PassOption, *root, "Outer");
  CHECK(root->reads().size() == 8);
  CHECK(child->reads().size() == 3);
  CHECK(configSourceName(ConfigSource::ModuleAttr) == "module attribute");
}

TEST_CASE("PassManager: target strings parse TVM-style", "[pass]") {
  TargetSpec t = parseTarget("hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b -link-params=1 -keys=\"a b\" -system-lib");
  CHECK(t.kind == "hexagon");
  CHECK(t.options.find("mcpu")->asString() == "hexagonv68");
  CHECK(t.options.find("mattr")->asArray().at(1).asString() == "+hvx-length128b");
  CHECK(t.options.find("link-params")->kind() == AttrValue::Kind::Int);
  CHECK(t.options.find("keys")->asString() == "a b");
  CHECK(t.options.find("system-lib")->asBool());
  CHECK(targetOption(t, "-mcpu")->asString() == "hexagonv68");
  CHECK_FALSE(targetOption(t, "mtriple"));
  CHECK(parseTarget("llvm").options.empty());
  CHECK_THROWS_WITH(parseTarget("-mcpu=x"), Catch::Contains("expected a target kind"));
  CHECK_THROWS_WITH(parseTarget("llvm -=1"), Catch::Contains("option without a name"));
  CHECK_THROWS_WITH(parseTarget("llvm mcpu"), Catch::Contains("expected '-key=value'"));
  CHECK_THROWS_WITH(parseTarget(""), Catch::Contains("empty target"));
}

TEST_CASE("PassManager: a failing pass leaves the module unchanged and is recorded", "[pass]") {
  IRModule mod = moduleWithExternalFunctions();
  auto ctx = PassContext::create();
  auto recorder = std::make_shared<RecordingInstrument>();
  ctx->instruments().push_back(recorder);
  Expr mainBefore = mod->lookup("main");

  SECTION("a DiagnosticError") {
    PassPtr bad = lambdaPass("Bad", [](const IRModule&, PassContext&) -> IRModule { throwError({}, "cannot fold", "fold"); });
    try {
      runPass(*bad, mod, *ctx);
      FAIL("expected PassFailure");
    } catch (const PassFailure& f) {
      CHECK(f.pass() == "Bad");
      CHECK(f.diagnostics().front().message == "cannot fold");
    }
    CHECK(recorder->events == std::vector<std::string>{"enter Bad", "before Bad", "failure Bad: cannot fold", "exit Bad"});
  }
  SECTION("any std::exception") {
    PassPtr bad = lambdaPass("Crash", [](const IRModule&, PassContext&) -> IRModule { throw std::out_of_range("index 7"); });
    CHECK_THROWS_AS(runPass(*bad, mod, *ctx), PassFailure);
    CHECK(recorder->events.at(2) == "failure Crash: pass 'Crash' failed: index 7");
  }
  SECTION("inside a Sequential: the innermost pass is named, earlier results are not lost to the caller") {
    PassPtr bad = lambdaPass("Bad", [](const IRModule&, PassContext&) -> IRModule { throwError({}, "boom"); });
    Sequential seq("seq", {setModuleAttrPass("Mark", "marked", 1), bad, identityPass("After")});
    try {
      runPass(seq, mod, *ctx);
      FAIL("expected PassFailure");
    } catch (const PassFailure& f) {
      CHECK(f.pass() == "Bad");
    }
    CHECK(recorder->events == std::vector<std::string>{"enter seq", "before seq", "enter Mark", "before Mark", "after Mark", "exit Mark",
                                                       "enter Bad", "before Bad", "failure Bad: boom", "exit Bad",
                                                       "failure seq: boom", "exit seq"});
  }
  CHECK(mod->lookup("main") == mainBefore);
  CHECK(mod->attrs.empty());
}

TEST_CASE("PassManager: a pass out of its phases reports an error and still runs", "[pass]") {
  IRModule mod = makeModule({{"main", reluAddFunction()}}, {{"phase", AttrValue::integer(2)}});
  auto ctx = PassContext::create();
  auto recorder = std::make_shared<RecordingInstrument>();
  ctx->instruments().push_back(recorder);
  PassPtr early = lambdaPass("Early", [](const IRModule& m, PassContext&) { return m; }, 0, {Phase::Ingestion, Phase::Optimization});
  runPass(*early, mod, *ctx);
  REQUIRE(recorder->diagnostics.size() == 1);
  CHECK(recorder->diagnostics[0].rule == "phase.out-of-phase");
  CHECK(recorder->diagnostics[0].severity == Severity::Error);
  CHECK(recorder->diagnostics[0].message == "pass 'Early' accepts phase 0, 1 but the module is in phase 2");
  CHECK(recorder->events.at(1) == "before Early");
  PassPtr late = lambdaPass("Late", [](const IRModule& m, PassContext&) { return m; }, 0, {Phase::Lowering});
  runPass(*late, mod, *ctx);
  CHECK(recorder->diagnostics.size() == 1);
}

TEST_CASE("PassManager: passDisabledReason follows TVM's PassEnabled", "[pass]") {
  auto ctx = PassContext::create();
  ctx->optLevel = 2;
  PassInfo info;
  info.name = "X";
  info.optLevel = 2;
  CHECK_FALSE(passDisabledReason(info, *ctx));
  info.optLevel = 3;
  CHECK(passDisabledReason(info, *ctx) == std::optional<std::string>("opt_level 3 > context opt_level 2"));
  ctx->requiredPasses.insert("X");
  CHECK_FALSE(passDisabledReason(info, *ctx));
}

// ---- Instruments -------------------------------------------------------------

TEST_CASE("PassManager: PrintInstrument prints around passes into a sink", "[pass]") {
  IRModule mod = moduleWithExternalFunctions();
  auto ctx = PassContext::create();
  std::string out;
  PrintInstrumentOptions options;

  SECTION("print-after-all filtered to one function") {
    options.printAfterAll = true;
    options.functions = {"main"};
    ctx->instruments().push_back(std::make_shared<PrintInstrument>(options, out));
    runPass(NegateBodies(), mod, *ctx);
    CHECK_THAT(out, Catch::StartsWith("// -----// IR Dump After NegateBodies //----- //\n"));
    CHECK_THAT(out, Catch::Contains("@main") && Catch::Contains("negative("));
    CHECK_THAT(out, !Catch::Contains("@helper"));
  }
  SECTION("print-before-all and nested passes name their context") {
    options.printBeforeAll = true;
    ctx->instruments().push_back(std::make_shared<PrintInstrument>(options, out));
    auto child = ctx->makeChild("Outer.eval");
    runPass(*identityPass("Inner"), mod, *child);
    CHECK_THAT(out, Catch::StartsWith("// -----// IR Dump Before Inner (in Outer.eval) //----- //\n"));
    CHECK_THAT(out, Catch::Contains("@byoc"));
  }
  SECTION("print-changed as a diff, and 'omitted because no change'") {
    options.printChanged = true;
    options.changedAsDiff = true;
    std::ostringstream stream;
    ctx->instruments().push_back(std::make_shared<PrintInstrument>(options, stream));
    IRModule changed = runPass(NegateBodies(), mod, *ctx);
    runPass(*identityPass("Nothing"), changed, *ctx);
    out = stream.str();
    CHECK_THAT(out, Catch::StartsWith("// -----// IR Dump At Start //----- //\n"));
    CHECK_THAT(out, Catch::Contains("// -----// IR Dump After NegateBodies (diff) //----- //\n--- before NegateBodies\n+++ after NegateBodies\n@@ "));
    CHECK_THAT(out, Catch::Contains("\n+") && Catch::Contains("negative("));
    CHECK_THAT(out, Catch::Contains("// -----// IR Dump After Nothing omitted because no change //----- //"));
  }
  SECTION("a failure prints its diagnostics") {
    options.printAfterAll = true;
    ctx->instruments().push_back(std::make_shared<PrintInstrument>(options, out));
    PassPtr bad = lambdaPass("Bad", [](const IRModule&, PassContext&) -> IRModule { throwError({}, "broken"); });
    CHECK_THROWS(runPass(*bad, mod, *ctx));
    CHECK(out == "// -----// IR Dump After Bad Failed //----- //\nerror: broken\n\n");
  }
}

TEST_CASE("PassManager: TimingInstrument nests and merges runs", "[pass]") {
  auto ctx = PassContext::create();
  auto timing = std::make_shared<TimingInstrument>();
  ctx->instruments().push_back(timing);
  PassPtr slow = lambdaPass("Slow", [](const IRModule& m, PassContext&) {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
    while (std::chrono::steady_clock::now() < until) {
    }
    return m;
  });
  Sequential inner("inner", {slow, slow});
  Sequential outer("pipeline", {identityPass("A"), std::make_shared<Sequential>(inner), identityPass("A")});
  runPass(outer, moduleWithExternalFunctions(), *ctx);
  std::vector<TimingEntry> entries = timing->entries();
  std::vector<std::string> rows;
  for (const TimingEntry& e : entries) rows.push_back(std::string(2 * static_cast<size_t>(e.depth), ' ') + e.name + " x" + std::to_string(e.count));
  CHECK(rows == std::vector<std::string>{"pipeline x1", "  A x2", "  inner x1", "    Slow x2"});
  CHECK(entries[3].ms >= 4.0);
  CHECK(entries[2].ms >= entries[3].ms);
  CHECK(timing->totalMs() == entries[0].ms);
  std::string report = timing->report();
  CHECK_THAT(report, Catch::Contains("... Pass execution timing report ..."));
  CHECK_THAT(report, Catch::Contains("  ----Wall Time----  ----Name----\n"));
  CHECK_THAT(report, Catch::Contains("(100.0%)  pipeline\n"));
  CHECK_THAT(report, Catch::Contains("%)      Slow (2 runs)\n"));
  CHECK_THAT(report, Catch::EndsWith("(100.0%)  Total\n"));
  timing->reset();
  CHECK(timing->entries().empty());
}

TEST_CASE("PassManager: VerifyInstrument reports violations as diagnostics", "[pass]") {
  auto ctx = PassContext::create();
  auto recorder = std::make_shared<RecordingInstrument>();
  auto verify = std::make_shared<VerifyInstrument>();
  ctx->instruments() = {verify, recorder};
  IRModule mod = moduleWithExternalFunctions();
  runPass(NegateBodies(), mod, *ctx);
  CHECK(recorder->diagnostics.empty());
  CHECK(verify->violations() == 0);

  // A pass that breaks the module: an undefined variable and a shape error.
  PassPtr breaker = lambdaPass("Breaker", [](const IRModule& m, PassContext&) {
    Var x = makeVar("x", f32({2, 3}));
    Var stray = makeVar("stray", f32({7}));
    return withFunction(m, "main", makeFunction({x}, makeOpCall(OpId::Add, {x, stray})));
  });
  IRModule broken = runPass(*breaker, mod, *ctx);  // no exception: the verifier only reports
  CHECK(broken != mod);
  REQUIRE_FALSE(recorder->diagnostics.empty());
  bool undefined = false;
  for (const Diagnostic& d : recorder->diagnostics) {
    CHECK_THAT(d.message, Catch::StartsWith("verify after Breaker: "));
    undefined = undefined || d.rule == "wf.undefined-var";
  }
  CHECK(undefined);
  CHECK(verify->violations() == recorder->diagnostics.size());
}

TEST_CASE("PassManager: pass time excludes other instruments' hooks", "[pass]") {
  // An instrument that is slow around every pass, registered after the timer.
  struct Slow final : PassInstrument {
    std::string name() const override { return "slow"; }
    void beforePass(const Pass&, const IRModule&, PassContext&) override { std::this_thread::sleep_for(std::chrono::milliseconds(150)); }
    void afterPass(const Pass&, const IRModule&, const IRModule&, PassContext&) override {
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
  };
  auto ctx = PassContext::create();
  auto timing = std::make_shared<TimingInstrument>();
  ctx->instruments() = {timing, std::make_shared<Slow>()};
  runPass(*identityPass("Quick"), moduleWithExternalFunctions(), *ctx);
  REQUIRE(timing->entries().size() == 1);
  CHECK(timing->entries()[0].ms < 100.0);
  CHECK(ctx->lastPassTiming().endNs >= ctx->lastPassTiming().startNs);
  CHECK(ctx->lastPassTiming().startNs > 0);
}
