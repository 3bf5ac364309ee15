// The first built-in passes on small modules built with the IR constructors.
#include <catch2/catch.hpp>

#include "core/ir/functor.h"
#include "core/trace/trace.h"
#include "passes/dead_code.h"
#include "passes/eliminate_common_subexpr.h"
#include "passes/infer_type.h"
#include "passes/inline.h"
#include "passes/registry.h"
#include "passes/simplify_expr.h"
#include "tests/pass_fixtures.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// Runs `pass` through the pass manager at opt_level 3 with a recording instrument.
struct Runner {
  PassContextPtr ctx = PassContext::create();
  std::shared_ptr<RecordingInstrument> recorder = std::make_shared<RecordingInstrument>();
  Runner() {
    ctx->optLevel = 3;
    ctx->instruments().push_back(recorder);
  }
  IRModule run(const PassPtr& pass, const IRModule& mod) { return runPass(*pass, mod, *ctx); }
  /// InferType, then `pass`.
  IRModule runTyped(const PassPtr& pass, const IRModule& mod) { return run(pass, run(createInferTypePass(), mod)); }
};

IRModule singleFunction(Function main) { return makeModule({{"main", std::move(main)}}); }

const FunctionNode& mainOf(const IRModule& mod) { return *as<FunctionNode>(mod->lookup("main")); }

const CallNode* callTo(const Expr& e, OpId id) {
  const CallNode* c = as<CallNode>(e);
  return c && c->op() && c->op()->id == id ? c : nullptr;
}

size_t countKind(const Expr& root, ExprKind kind) {
  size_t n = 0;
  postOrderVisit(root, [&](const Expr& e) { n += e->kind == kind; });
  return n;
}

bool referencesGlobal(const Expr& root, const std::string& name) {
  bool found = false;
  postOrderVisit(root, [&](const Expr& e) {
    if (auto* g = as<GlobalVarNode>(e); g && g->name == name) found = true;
  });
  return found;
}

}  // namespace

// ---- InferType ---------------------------------------------------------------

TEST_CASE("Passes: InferType fills types and keeps the module", "[passes]") {
  IRModule mod = singleFunction(reluAddFunction());
  Runner r;
  IRModule out = r.run(createInferTypePass(), mod);
  CHECK(out == mod);
  REQUIRE(mainOf(out).body->checkedType);
  CHECK(typeToString(mainOf(out).body->checkedType) == "Tensor[(2, 3), float32]");
}

TEST_CASE("Passes: InferType failure is located and leaves the module", "[passes]") {
  Var x = makeVar("x", f32({2, 3}));
  Var y = makeVar("y", f32({4, 5}));
  IRModule mod = singleFunction(makeFunction({x, y}, makeOpCall(OpId::Add, {x, y})));
  Runner r;
  try {
    r.run(createInferTypePass(), mod);
    FAIL("expected a failure");
  } catch (const PassFailure& f) {
    CHECK(f.pass() == "InferType");
    CHECK_THAT(f.diagnostics().front().message, Catch::Contains("add"));
  }
}

// ---- DeadCodeElimination -----------------------------------------------------

TEST_CASE("Passes: DeadCodeElimination removes unused pure bindings transitively", "[passes]") {
  Var x = makeVar("x", f32({2, 3}));
  Var a = makeVar("a"), b = makeVar("b"), c = makeVar("c"), d = makeVar("d"), s = makeVar("s");
  Expr alloc = makeOpCall(OpId::VmAllocStorage, {}, {{"size", AttrValue::integer(64)}});
  // let a = relu(x); let b = add(a, a); let c = negative(b); let s = alloc(); let d = exp(x); d
  Expr body = makeLet(a, makeOpCall(OpId::Relu, {x}),
                      makeLet(b, makeOpCall(OpId::Add, {a, a}),
                              makeLet(c, makeOpCall(OpId::Negative, {b}),
                                      makeLet(s, alloc, makeLet(d, makeOpCall(OpId::Exp, {x}), d)))));
  IRModule mod = makeModule({{"main", makeFunction({x}, body)}, {"untouched", reluAddFunction()}});
  Runner r;
  IRModule out = r.run(createDeadCodeEliminationPass(), mod);

  // The stateful binding stays although unused; the others die together.
  const LetNode* first = as<LetNode>(mainOf(out).body);
  REQUIRE(first);
  CHECK(first->var == s);
  const LetNode* second = as<LetNode>(first->body);
  REQUIRE(second);
  CHECK(second->var == d);
  CHECK(second->body == d);
  CHECK(out->lookup("untouched") == mod->lookup("untouched"));
  CHECK(as<LetNode>(mainOf(mod).body)->var == a);  // input untouched

  SECTION("a second run changes nothing and returns the same module") { CHECK(r.run(createDeadCodeEliminationPass(), out) == out); }
}

TEST_CASE("Passes: DeadCodeElimination cleans dataflow blocks", "[passes]") {
  Var x = makeVar("x", f32({2, 3}));
  Var lv0 = makeVar("lv0", nullptr, true), lv1 = makeVar("lv1", nullptr, true), gv = makeVar("gv"), unusedOut = makeVar("gv1");
  Expr body = makeDataflow({{lv0, makeOpCall(OpId::Relu, {x})},
                            {lv1, makeOpCall(OpId::Exp, {x})},
                            {gv, makeOpCall(OpId::Negative, {lv0})},
                            {unusedOut, makeOpCall(OpId::Exp, {lv1})}},
                           gv);
  IRModule mod = singleFunction(makeFunction({x}, body));
  Runner r;
  IRModule out = r.run(createDeadCodeEliminationPass(), mod);
  const DataflowNode* df = as<DataflowNode>(mainOf(out).body);
  REQUIRE(df);
  REQUIRE(df->bindings.size() == 2);
  CHECK(df->bindings[0].var == lv0);
  CHECK(df->bindings[1].var == gv);

  SECTION("a block left empty disappears") {
    Expr onlyDead = makeDataflow({{lv1, makeOpCall(OpId::Exp, {x})}}, x);
    CHECK(mainOf(r.run(createDeadCodeEliminationPass(), singleFunction(makeFunction({x}, onlyDead)))).body == x);
  }
}

TEST_CASE("Passes: DeadCodeElimination keeps unused globals unless asked", "[passes]") {
  Var x = makeVar("x", f32({2, 3}));
  IRModule mod = makeModule({{"main", makeFunction({x}, makeCall(makeGlobalVar("used"), {x}))},
                             {"used", makeFunction({x}, makeCall(makeGlobalVar("deeper"), {x}))},
                             {"deeper", reluAddFunction()},
                             {"unused", reluAddFunction()}});
  Runner r;
  CHECK(r.run(createDeadCodeEliminationPass(), mod) == mod);
  DeadCodeEliminationOptions options;
  options.removeUnusedFunctions = true;
  IRModule out = r.run(createDeadCodeEliminationPass(options), mod);
  CHECK(out->functions.size() == 3);
  CHECK_FALSE(out->lookup("unused"));
  CHECK(out->lookup("deeper") == mod->lookup("deeper"));
  // The decision input is recorded as a pass option read.
  REQUIRE_FALSE(r.recorder->reads.empty());
  CHECK(r.recorder->reads.back().key == "remove_unused_functions");
  CHECK(r.recorder->reads.back().source == ConfigSource::PassOption);

  SECTION("no entry function: nothing removed, with a warning") {
    options.entryFunctions = {"nope"};
    CHECK(r.run(createDeadCodeEliminationPass(options), mod) == mod);
    CHECK(r.recorder->diagnostics.back().rule == "dce.no-entry");
  }
}

TEST_CASE("Passes: DeadCodeElimination handles a 100k-deep let chain", "[passes]") {
  Var x = makeVar("x", f32({4}));
  constexpr int kDepth = 100000;
  std::vector<Var> vars;
  std::vector<Expr> values;
  Expr previous = x;
  for (int i = 0; i < kDepth; ++i) {
    vars.push_back(makeVar("v" + std::to_string(i)));
    values.push_back(makeOpCall(OpId::Relu, {previous}));
    previous = vars.back();
  }
  Var dead = makeVar("dead");
  Expr body = makeLet(dead, makeOpCall(OpId::Exp, {x}), vars.back());
  for (int i = kDepth - 1; i >= 0; --i) body = makeLet(vars[static_cast<size_t>(i)], values[static_cast<size_t>(i)], body);
  IRModule mod = singleFunction(makeFunction({x}, body));
  Runner r;
  IRModule out = r.run(createDeadCodeEliminationPass(), mod);
  CHECK(countKind(mainOf(out).body, ExprKind::Let) == static_cast<size_t>(kDepth));
  CHECK(countKind(mainOf(mod).body, ExprKind::Let) == static_cast<size_t>(kDepth) + 1);
}

// ---- SimplifyExpr ------------------------------------------------------------

TEST_CASE("Passes: SimplifyExpr removes arithmetic identities when types allow", "[passes]") {
  Var x = makeVar("x", f32({2, 3}));
  Var v = makeVar("v", f32({3}));
  Runner r;
  auto simplified = [&](Function fn) { return mainOf(r.runTyped(createSimplifyExprPass(), singleFunction(std::move(fn)))).body; };

  CHECK(simplified(makeFunction({x}, makeOpCall(OpId::Multiply, {x, filled({2, 3}, 1)}))) == x);
  CHECK(simplified(makeFunction({x}, makeOpCall(OpId::Multiply, {filled({}, 1), x}))) == x);
  CHECK(simplified(makeFunction({x}, makeOpCall(OpId::Add, {filled({3}, 0), x}))) == x);
  CHECK(simplified(makeFunction({x}, makeOpCall(OpId::Subtract, {x, filled({1, 3}, 0)}))) == x);
  CHECK(simplified(makeFunction({x}, makeOpCall(OpId::Divide, {x, filled({}, 1)}))) == x);
  // Chains collapse in one run.
  CHECK(simplified(makeFunction({x}, makeOpCall(OpId::Add, {makeOpCall(OpId::Multiply, {x, filled({}, 1)}), filled({}, 0)}))) == x);

  // Not exact, so left alone: broadcasting that widens x, a non-identity constant, 0 - x.
  Expr widen = simplified(makeFunction({v}, makeOpCall(OpId::Multiply, {v, filled({2, 3}, 1)})));
  CHECK(callTo(widen, OpId::Multiply));
  CHECK(callTo(simplified(makeFunction({x}, makeOpCall(OpId::Multiply, {x, filled({}, 2)}))), OpId::Multiply));
  CHECK(callTo(simplified(makeFunction({x}, makeOpCall(OpId::Subtract, {filled({}, 0), x}))), OpId::Subtract));
  // A float16 one changes the dtype of a float32 x? Types differ, so no rewrite happens either way.
  Var h = makeVar("h", tensorType({2}, DTypeCode::Float16));
  CHECK(simplified(makeFunction({h}, makeOpCall(OpId::Multiply, {h, filled({2}, 1, DTypeCode::Float16)}))) == h);
}

TEST_CASE("Passes: SimplifyExpr folds reshape and transpose chains", "[passes]") {
  Var x = makeVar("x", f32({2, 3}));
  Var t = makeVar("t", f32({2, 3, 4}));
  Runner r;
  auto simplified = [&](Function fn) { return mainOf(r.runTyped(createSimplifyExprPass(), singleFunction(std::move(fn)))).body; };
  auto reshape = [](Expr e, std::vector<int64_t> shape) { return makeOpCall(OpId::Reshape, {std::move(e)}, {{"newshape", AttrValue::ints(shape)}}); };
  auto transpose = [](Expr e, std::vector<int64_t> axes) {
    return axes.empty() ? makeOpCall(OpId::Transpose, {std::move(e)}) : makeOpCall(OpId::Transpose, {std::move(e)}, {{"axes", AttrValue::ints(axes)}});
  };

  Expr folded = simplified(makeFunction({x}, reshape(reshape(x, {3, 2}), {6})));
  const CallNode* one = callTo(folded, OpId::Reshape);
  REQUIRE(one);
  CHECK(one->args[0] == x);
  CHECK(one->attrs.find("newshape")->asInts() == std::vector<int64_t>{6});
  CHECK(simplified(makeFunction({x}, reshape(reshape(x, {3, 2}), {2, 3}))) == x);
  CHECK(simplified(makeFunction({x}, reshape(x, {2, -1}))) == x);
  // newshape 0 copies a dimension of its input, which changes: the concrete shape is used.
  Expr concrete = simplified(makeFunction({x}, reshape(reshape(x, {6, 1}), {0, 1})));
  const CallNode* copied = callTo(concrete, OpId::Reshape);
  REQUIRE(copied);
  CHECK(copied->args[0] == x);
  CHECK(copied->attrs.find("newshape")->asInts() == std::vector<int64_t>{6, 1});

  CHECK(simplified(makeFunction({t}, transpose(transpose(t, {1, 0, 2}), {1, 0, 2}))) == t);
  CHECK(simplified(makeFunction({x}, transpose(transpose(x, {}), {}))) == x);
  CHECK(simplified(makeFunction({t}, transpose(t, {0, 1, -1}))) == t);
  Expr twice = simplified(makeFunction({t}, transpose(transpose(t, {1, 2, 0}), {1, 2, 0})));
  const CallNode* composed = callTo(twice, OpId::Transpose);
  REQUIRE(composed);
  CHECK(composed->args[0] == t);
  CHECK(composed->attrs.find("axes")->asInts() == std::vector<int64_t>{2, 0, 1});
  CHECK(typeToString(composed->checkedType) == "Tensor[(4, 2, 3), float32]");
}

TEST_CASE("Passes: SimplifyExpr casts, negations, relu, options", "[passes]") {
  Var x = makeVar("x", f32({2, 3}));
  Runner r;
  auto run = [&](Function fn, SimplifyExprOptions options = {}) {
    return mainOf(r.runTyped(createSimplifyExprPass(options), singleFunction(std::move(fn)))).body;
  };
  CHECK(run(makeFunction({x}, makeOpCall(OpId::Cast, {x}, {{"dtype", AttrValue::string("float32")}}))) == x);
  CHECK(callTo(run(makeFunction({x}, makeOpCall(OpId::Cast, {x}, {{"dtype", AttrValue::string("float16")}}))), OpId::Cast));
  CHECK(run(makeFunction({x}, makeOpCall(OpId::Negative, {makeOpCall(OpId::Negative, {x})}))) == x);
  Expr innerRelu = makeOpCall(OpId::Relu, {x});
  CHECK(run(makeFunction({x}, makeOpCall(OpId::Relu, {innerRelu}))) == innerRelu);

  SimplifyExprOptions noIdentity;
  noIdentity.disabledRules = {"identity"};
  CHECK(callTo(run(makeFunction({x}, makeOpCall(OpId::Multiply, {x, filled({}, 1)})), noIdentity), OpId::Multiply));
  SimplifyExprOptions bogus;
  bogus.disabledRules = {"bogus"};
  CHECK_THROWS_WITH(createSimplifyExprPass(bogus), Catch::Contains("no rule 'bogus'"));
}

TEST_CASE("Passes: SimplifyExpr keeps unchanged functions and infers missing types", "[passes]") {
  Var x = makeVar("x", f32({2, 3}));
  IRModule mod = makeModule({{"main", makeFunction({x}, makeOpCall(OpId::Multiply, {x, filled({}, 1)}))}, {"other", reluAddFunction()}});
  Runner r;
  // No InferType before: the pass infers the function's types itself.
  IRModule out = r.run(createSimplifyExprPass(), mod);
  CHECK(mainOf(out).body == x);
  CHECK(out->lookup("other") == mod->lookup("other"));
  CHECK(r.run(createSimplifyExprPass(), out) == out);

  SECTION("a function that does not type-check is left alone with a warning") {
    Var a = makeVar("a", f32({2, 3})), b = makeVar("b", f32({5}));
    IRModule bad = singleFunction(makeFunction({a, b}, makeOpCall(OpId::Multiply, {makeOpCall(OpId::Add, {a, b}), filled({}, 1)})));
    CHECK(r.run(createSimplifyExprPass(), bad) == bad);
    CHECK(r.recorder->diagnostics.back().severity == Severity::Warning);
    CHECK(r.recorder->diagnostics.back().function == "main");
  }
}

// ---- Inline ------------------------------------------------------------------

TEST_CASE("Passes: Inline replaces calls to Inline=1 functions and removes them", "[passes]") {
  // @f(a, b) = let t = add(a, b); multiply(t, t)   [Inline=1]
  Var a = makeVar("a", f32({2})), b = makeVar("b", f32({2})), tv = makeVar("t");
  Function f = makeFunction({a, b}, makeLet(tv, makeOpCall(OpId::Add, {a, b}), makeOpCall(OpId::Multiply, {tv, tv})), nullptr,
                            {{"Inline", AttrValue::integer(1)}});
  // @g(p) = @f(p, p)   [Inline=1]; inline functions calling inline functions
  Var p = makeVar("p", f32({2}));
  Function g = makeFunction({p}, makeCall(makeGlobalVar("f"), {p, p}), nullptr, {{"Inline", AttrValue::integer(1)}});
  Var x = makeVar("x", f32({2})), y = makeVar("y", f32({2}));
  Function main = makeFunction({x, y}, makeOpCall(OpId::Add, {makeCall(makeGlobalVar("f"), {x, y}), makeCall(makeGlobalVar("g"), {y})}));
  IRModule mod = makeModule({{"main", main}, {"f", f}, {"g", g}, {"other", reluAddFunction()}});
  Runner r;
  IRModule out = r.runTyped(createInlinePass(), mod);

  CHECK_FALSE(out->lookup("f"));
  CHECK_FALSE(out->lookup("g"));
  CHECK(out->lookup("other") == mod->lookup("other"));
  const Expr& body = mainOf(out).body;
  CHECK_FALSE(referencesGlobal(body, "f"));
  CHECK_FALSE(referencesGlobal(body, "g"));
  // Each call site got its own copy of the let variable.
  std::set<const ExprNode*> letVars;
  postOrderVisit(body, [&](const Expr& e) {
    if (auto* l = as<LetNode>(e)) letVars.insert(l->var.get());
  });
  CHECK(letVars.size() == 2);
  CHECK_FALSE(letVars.count(tv.get()));
  // The parameters were replaced by the arguments.
  const CallNode* sum = callTo(body, OpId::Add);
  REQUIRE(sum);
  const LetNode* firstCopy = as<LetNode>(sum->args[0]);
  REQUIRE(firstCopy);
  CHECK(callTo(firstCopy->value, OpId::Add)->args == std::vector<Expr>{x, y});
  // The result type-checks.
  CHECK(r.run(createInferTypePass(), out) == out);
}

TEST_CASE("Passes: Inline leaves external and referenced functions alone", "[passes]") {
  Var a = makeVar("a", f32({2, 3}));
  Function ext = makeFunction({a}, makeOpCall(OpId::Relu, {a}), nullptr,
                              {{"Inline", AttrValue::integer(1)}, {"Compiler", AttrValue::string("ccompiler")}});
  Function kept = makeFunction({a}, makeOpCall(OpId::Exp, {a}), nullptr, {{"Inline", AttrValue::integer(1)}});
  Var x = makeVar("x", f32({2, 3}));
  // @byoc (skipped) still calls @kept, so @kept must stay.
  Function byoc = makeFunction({x}, makeCall(makeGlobalVar("kept"), {x}), nullptr, {{"Compiler", AttrValue::string("ccompiler")}});
  Function main = makeFunction({x}, makeCall(makeGlobalVar("ext"), {makeCall(makeGlobalVar("kept"), {x})}));
  IRModule mod = makeModule({{"main", main}, {"ext", ext}, {"kept", kept}, {"byoc", byoc}});
  Runner r;
  IRModule out = r.run(createInlinePass(), mod);
  // As in TVM, @ext (Compiler and Inline=1) is inlined whole: main calls a copy
  // of the function literal, attributes kept, and the global goes away.
  CHECK_FALSE(out->lookup("ext"));
  CHECK(out->lookup("kept") == mod->lookup("kept"));
  CHECK(out->lookup("byoc") == mod->lookup("byoc"));
  CHECK_FALSE(referencesGlobal(mainOf(out).body, "ext"));
  const CallNode* outer = as<CallNode>(mainOf(out).body);
  REQUIRE(outer);
  const FunctionNode* literal = as<FunctionNode>(outer->callee);
  REQUIRE(literal);
  CHECK(literal->attrs.getString("Compiler") == "ccompiler");
  CHECK(literal->attrs.getInt("Inline") == 1);
  CHECK(literal->params[0] != a);
  CHECK_FALSE(referencesGlobal(mainOf(out).body, "kept"));
  std::map<std::string, std::string> skips;
  for (const FunctionSkip& s : r.recorder->skips) skips[s.function] = s.reason;
  CHECK_THAT(skips["ext"], Catch::Contains("inlined whole into its callers"));
  CHECK_THAT(skips["byoc"], Catch::StartsWith("Compiler="));

  SECTION("no inline function: same module") {
    IRModule plain = moduleWithExternalFunctions();
    CHECK(r.run(createInlinePass(), plain) == plain);
  }
  SECTION("recursion through inline functions fails the pass") {
    Function rec = makeFunction({a}, makeCall(makeGlobalVar("rec"), {a}), nullptr, {{"Inline", AttrValue::integer(1)}});
    IRModule bad = makeModule({{"main", makeFunction({x}, makeCall(makeGlobalVar("rec"), {x}))}, {"rec", rec}});
    CHECK_THROWS_WITH(r.run(createInlinePass(), bad), Catch::Contains("cannot inline @rec: it is recursive"));
  }
}

// ---- EliminateCommonSubexpr --------------------------------------------------

TEST_CASE("Passes: EliminateCommonSubexpr merges equal pure calls", "[passes]") {
  Var x = makeVar("x", f32({2, 3})), y = makeVar("y", f32({2, 3}));
  Runner r;
  auto cse = [&](Expr body, EliminateCommonSubexprOptions options = {}) {
    return mainOf(r.run(createEliminateCommonSubexprPass(options), singleFunction(makeFunction({x, y}, std::move(body))))).body;
  };
  auto add = [&] { return makeOpCall(OpId::Add, {x, y}); };

  Expr product = cse(makeOpCall(OpId::Multiply, {makeOpCall(OpId::Relu, {add()}), makeOpCall(OpId::Relu, {add()})}));
  const CallNode* m = callTo(product, OpId::Multiply);
  REQUIRE(m);
  CHECK(m->args[0] == m->args[1]);  // whole subtrees collapse

  auto castTo = [&](const char* dtype) { return makeOpCall(OpId::Cast, {x}, {{"dtype", AttrValue::string(dtype)}}); };
  Expr castTuple = cse(makeTuple({castTo("float16"), castTo("float16"), castTo("int8")}));
  const TupleNode* casts = as<TupleNode>(castTuple);
  REQUIRE(casts);
  CHECK(casts->fields[0] == casts->fields[1]);
  CHECK(casts->fields[0] != casts->fields[2]);

  auto alloc = [] { return makeOpCall(OpId::VmAllocStorage, {}, {{"size", AttrValue::integer(64)}}); };
  Expr allocTuple = cse(makeTuple({alloc(), alloc()}));
  const TupleNode* allocs = as<TupleNode>(allocTuple);
  REQUIRE(allocs);
  CHECK(allocs->fields[0] != allocs->fields[1]);  // stateful: never merged

  EliminateCommonSubexprOptions skipAdd;
  skipAdd.skipOps = {"add"};
  Expr skipTuple = cse(makeTuple({add(), add()}), skipAdd);
  const TupleNode* skipped = as<TupleNode>(skipTuple);
  REQUIRE(skipped);
  CHECK(skipped->fields[0] != skipped->fields[1]);

  SECTION("nothing to merge: same module") {
    IRModule mod = singleFunction(reluAddFunction());
    CHECK(r.run(createEliminateCommonSubexprPass(), mod) == mod);
  }
  SECTION("opt_level 3: not run at the default opt_level") {
    auto ctx = PassContext::create();
    IRModule mod = singleFunction(makeFunction({x, y}, makeTuple({add(), add()})));
    CHECK(runPass(*createEliminateCommonSubexprPass(), mod, *ctx) == mod);
  }
}

TEST_CASE("Passes: EliminateCommonSubexpr respects if-branch scopes", "[passes]") {
  Var x = makeVar("x", f32({2, 3})), y = makeVar("y", f32({2, 3}));
  Var c = makeVar("c", tensorType({}, DTypeCode::Bool));
  auto add = [&] { return makeOpCall(OpId::Add, {x, y}); };
  Runner r;
  auto cse = [&](Expr body) {
    return mainOf(r.run(createEliminateCommonSubexprPass(), singleFunction(makeFunction({x, y, c}, std::move(body))))).body;
  };
  // Two branches: each keeps its own call.
  Expr ifExpr = cse(makeIf(c, add(), add()));
  const IfNode* branches = as<IfNode>(ifExpr);
  REQUIRE(branches);
  CHECK(branches->thenBranch != branches->elseBranch);
  // A call evaluated before the if is reused inside it.
  Expr outerTuple = cse(makeTuple({add(), makeIf(c, add(), x)}));
  const TupleNode* outer = as<TupleNode>(outerTuple);
  REQUIRE(outer);
  CHECK(as<IfNode>(outer->fields[1])->thenBranch == outer->fields[0]);
}

TEST_CASE("Passes: EliminateCommonSubexpr aliases repeated bindings", "[passes]") {
  Var x = makeVar("x", f32({2, 3})), y = makeVar("y", f32({2, 3}));
  auto add = [&] { return makeOpCall(OpId::Add, {x, y}); };
  Runner r;
  Var a = makeVar("a"), b = makeVar("b");
  Expr lets = makeLet(a, add(), makeLet(b, add(), makeOpCall(OpId::Multiply, {a, b})));
  IRModule letOut = r.run(createEliminateCommonSubexprPass(), singleFunction(makeFunction({x, y}, lets)));
  const LetNode* outerLet = as<LetNode>(mainOf(letOut).body);
  REQUIRE(outerLet);
  const LetNode* inner = as<LetNode>(outerLet->body);
  REQUIRE(inner);
  CHECK(inner->var == b);
  CHECK(inner->value == a);

  Var lv0 = makeVar("lv0", nullptr, true), lv1 = makeVar("lv1", nullptr, true), gv = makeVar("gv");
  Expr df = makeDataflow({{lv0, add()}, {lv1, add()}, {gv, makeOpCall(OpId::Multiply, {lv0, lv1})}}, gv);
  IRModule dfOut = r.run(createEliminateCommonSubexprPass(), singleFunction(makeFunction({x, y}, df)));
  const DataflowNode* block = as<DataflowNode>(mainOf(dfOut).body);
  REQUIRE(block);
  CHECK(block->bindings[1].value == lv0);
}

TEST_CASE("Passes: every built-in pass runs from the registry under a trace", "[passes]") {
  PassRegistry registry;
  registerBuiltinPasses(registry);
  Var x = makeVar("x", f32({2, 3}));
  IRModule mod = makeModule({{"main", makeFunction({x}, makeOpCall(OpId::Multiply, {makeOpCall(OpId::Relu, {x}), filled({}, 1)}))},
                             {"other", reluAddFunction()}});
  auto trace = std::make_shared<Trace>(mod);
  auto ctx = PassContext::create();
  ctx->optLevel = 3;
  ctx->instruments().push_back(std::make_shared<TraceInstrument>(trace));
  PassPtr pipeline = parsePipeline("InferType,SimplifyExpr,Inline,EliminateCommonSubexpr,DeadCodeElimination", registry);
  IRModule out = runPass(*pipeline, mod, *ctx);
  CHECK(callTo(mainOf(out).body, OpId::Relu));
  REQUIRE(trace->events().size() == 7);
  CHECK(trace->event(3).pass == "SimplifyExpr");
  CHECK(trace->event(3).changedFunctions == std::vector<std::string>{"main"});
  for (int id : {2, 4, 5, 6}) CHECK(trace->event(id).status == EventStatus::Unchanged);
  CHECK(out->lookup("other") == mod->lookup("other"));
}
