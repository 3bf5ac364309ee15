// The well-formed checker: single definitions, scoping, globals, dataflow
// locality, type consistency, TIR scoping, phase invariants; every violation
// reported. The rules that text can express are checked on parsed modules, so
// each case asserts the exact line:column the diagnostic points at.
#include <catch2/catch.hpp>

#include <set>

#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/text/parser.h"

using namespace passlab;
using Catch::Contains;

namespace {

Type f32(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float32); }

Span at(uint32_t line) {
  Span s;
  s.line = line;
  s.column = 1;
  return s;
}

Expr add(Expr a, Expr b, Span s = {}) { return makeOpCall(OpId::Add, {std::move(a), std::move(b)}, {}, std::move(s)); }
Expr relu(Expr a, Span s = {}) { return makeOpCall(OpId::Relu, {std::move(a)}, {}, std::move(s)); }

std::vector<Diagnostic> withRule(const std::vector<Diagnostic>& ds, const std::string& rule) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : ds)
    if (d.rule == rule) out.push_back(d);
  return out;
}

}  // namespace

TEST_CASE("WellFormed: a module with lets, closures, ifs and globals is clean", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Var c = makeVar("c", tensorType({}, DTypeCode::Bool));
  Var v = makeVar("v");
  Var p = makeVar("p", f32({4}));
  Var f = makeVar("f");
  Expr body = makeLet(v, relu(x),
                      makeLet(f, makeFunction({p}, add(p, v)),  // closure captures %v
                              makeIf(c, makeCall(f, {v}), makeCall(makeGlobalVar("helper"), {x}))));
  Var a = makeVar("a", f32({4}));
  IRModule mod = makeModule({{"main", makeFunction({x, c}, body)}, {"helper", makeFunction({a}, a)}});
  CHECK(checkWellFormed(mod).empty());
  REQUIRE(checkTypes(mod).empty());
  CHECK(checkWellFormed(mod).empty());  // typed nodes agree with annotations
}

TEST_CASE("WellFormed: a variable bound as parameter of two functions is reported", "[wf]") {
  Var x = makeVar("x", f32({4}), false, at(3));
  IRModule mod = makeModule({{"f", makeFunction({x}, relu(x))}, {"g", makeFunction({x}, x)}});
  std::vector<Diagnostic> ds = checkWellFormed(mod);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.param-of-two-functions");
  CHECK(ds[0].function == "g");
  CHECK(ds[0].span.line == 3);
  CHECK_THAT(ds[0].message, Contains("%x"));
}

TEST_CASE("WellFormed: a variable let-bound twice is a duplicate definition", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Var v = makeVar("v");
  Function main = makeFunction({x}, makeLet(v, relu(x), makeLet(v, relu(v), v)));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", main}}));
  REQUIRE(withRule(ds, "wf.duplicate-def").size() == 1);
  // The same parameter twice in one list, too.
  Function twice = makeFunction({x, x}, x);
  CHECK(withRule(checkWellFormed(makeModule({{"main", twice}})), "wf.duplicate-def").size() == 1);
}

TEST_CASE("WellFormed: using an undefined variable is located at the use", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Var ghost = makeVar("ghost", f32({4}));
  Function main = makeFunction({x}, add(x, ghost, at(7)));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", main}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.undefined-var");
  CHECK(ds[0].function == "main");
  CHECK(ds[0].span.line == 7);
  CHECK_THAT(ds[0].message, Contains("%ghost") && Contains("never defined"));
}

TEST_CASE("WellFormed: a let variable used outside its scope", "[wf]") {
  Var c = makeVar("c", tensorType({}, DTypeCode::Bool));
  Var x = makeVar("x", f32({4}));
  Var v = makeVar("v");
  // %v is bound in the then-branch only, then used in the else-branch and after.
  Expr ifExpr = makeIf(c, makeLet(v, relu(x), v), relu(v, at(4)));
  Function main = makeFunction({c, x}, makeTuple({ifExpr, relu(v, at(5))}));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", main}}));
  REQUIRE(ds.size() == 2);
  for (const Diagnostic& d : ds) {
    CHECK(d.rule == "wf.undefined-var");
    CHECK_THAT(d.message, Contains("outside the scope"));
  }
  // A use before the definition is outside the scope too.
  Var w = makeVar("w");
  Function early = makeFunction({x}, makeLet(w, relu(w, at(2)), w));
  ds = checkWellFormed(makeModule({{"main", early}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].span.line == 2);
}

TEST_CASE("WellFormed: a let-bound function may call itself", "[wf]") {
  Var f = makeVar("f");
  Var n = makeVar("n", f32({}));
  Function rec = makeFunction({n}, makeCall(f, {n}));
  Var x = makeVar("x", f32({}));
  CHECK(checkWellFormed(makeModule({{"main", makeFunction({x}, makeLet(f, rec, makeCall(f, {x})))}})).empty());
}

TEST_CASE("WellFormed: referenced globals must exist", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Function main = makeFunction({x}, makeCall(makeGlobalVar("nowhere", at(6)), {x}));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", main}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.undefined-global");
  CHECK(ds[0].span.line == 6);
  CHECK_THAT(ds[0].message, Contains("@nowhere"));
}

TEST_CASE("WellFormed: dataflow variables stay inside their block", "[wf][dataflow]") {
  Var x = makeVar("x", f32({4}));
  Var lv = makeVar("lv", nullptr, true);
  Var gv = makeVar("gv");
  // Correct: the output %gv is used after the block.
  Function ok = makeFunction({x}, makeDataflow({{lv, relu(x)}, {gv, relu(lv)}}, gv));
  CHECK(checkWellFormed(makeModule({{"main", ok}})).empty());

  Var lv2 = makeVar("lv", nullptr, true);
  Var gv2 = makeVar("gv");
  Function escape = makeFunction({x}, makeDataflow({{lv2, relu(x)}, {gv2, relu(lv2)}}, add(gv2, lv2, at(9))));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"main", escape}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.dataflow-var-escape");
  CHECK(ds[0].span.line == 9);

  Var lv3 = makeVar("lv", nullptr, true);
  Function outside = makeFunction({x}, makeLet(lv3, relu(x), lv3));
  ds = checkWellFormed(makeModule({{"main", outside}}));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].rule == "wf.dataflow-var-outside");
}

TEST_CASE("WellFormed: inferred types must agree with annotations", "[wf][types]") {
  Var x = makeVar("x", f32({4}));
  Var h = makeVar("h", tensorType({4}, DTypeCode::Float16));
  Function main = makeFunction({x}, makeLet(h, relu(x, at(3)), x), f32({4}));
  IRModule mod = makeModule({{"main", main}});
  CHECK(checkWellFormed(mod).empty());  // nothing typed yet: nothing to compare
  CHECK(!checkTypes(mod).empty());      // type inference reports it...
  std::vector<Diagnostic> ds = checkWellFormed(mod);
  REQUIRE(ds.size() == 1);               // ...and afterwards so does the checker
  CHECK(ds[0].rule == "wf.type-mismatch");
  CHECK(ds[0].span.line == 3);
  CHECK_THAT(ds[0].message, Contains("float16") && Contains("float32"));
}

TEST_CASE("WellFormed: every violation in every function is reported", "[wf]") {
  Var x = makeVar("x", f32({4}));
  Var ghost = makeVar("ghost", f32({4}));
  Function f = makeFunction({x}, makeTuple({relu(ghost, at(1)), makeCall(makeGlobalVar("missing"), {x}, {}, at(2))}));
  Function g = makeFunction({x}, relu(ghost, at(3)));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"f", f}, {"g", g}}));
  CHECK(withRule(ds, "wf.undefined-var").size() == 2);
  CHECK(withRule(ds, "wf.undefined-global").size() == 1);
  CHECK(withRule(ds, "wf.param-of-two-functions").size() == 1);  // %x is a parameter of both
  int inG = 0;
  for (const Diagnostic& d : ds) inG += d.function == "g";
  CHECK(inG == 2);
}

TEST_CASE("WellFormed: a 200k-deep let chain is checked iteratively", "[wf][scale]") {
  Var x = makeVar("x", f32({2}));
  constexpr int kDepth = 200000;
  std::vector<Var> vars;
  std::vector<Expr> values;
  Expr prev = x;
  for (int i = 0; i < kDepth; ++i) {
    vars.push_back(makeVar("v"));
    values.push_back(relu(prev));
    prev = vars.back();
  }
  Expr body = prev;
  for (int i = kDepth; i-- > 0;) body = makeLet(vars[i], values[i], body);
  CHECK(checkWellFormed(makeModule({{"main", makeFunction({x}, body)}})).empty());
}

// ---- TIR -----------------------------------------------------------------------------

TEST_CASE("WellFormed: PrimFunc variables and buffers must be defined", "[wf][tir]") {
  using namespace tir;
  Buffer a = makeBuffer("A", DTypeCode::Float32, {4});
  Buffer b = makeBuffer("B", DTypeCode::Float32, {4});
  Buffer stray = makeBuffer("S", DTypeCode::Float32, {4});
  tir::Var i = tir::makeVar("i");
  tir::Var j = tir::makeVar("j");
  auto loop = [&](tir::Var v, Stmt body) {
    return forLoop(std::move(v), intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 4), ForKind::Serial, std::move(body));
  };
  std::vector<tir::Param> params = {{tir::makeVar("a"), a}, {tir::makeVar("b"), b}};
  PrimFunc ok = makePrimFunc(params, loop(i, store(b, {i}, load(a, {i}))));
  CHECK(checkWellFormed(makeModule({{"copy", ok}})).empty());

  PrimFunc bad = makePrimFunc(params, seq({loop(i, store(b, {j}, load(stray, {i}))),
                                           loop(i, evaluate(call(DTypeCode::Int32, "absent", {}, /*isGlobal=*/true)))}));
  std::vector<Diagnostic> ds = checkWellFormed(makeModule({{"copy", bad}}));
  CHECK(withRule(ds, "wf.undefined-var").size() == 1);      // j
  CHECK(withRule(ds, "wf.undefined-buffer").size() == 1);   // S
  CHECK(withRule(ds, "wf.duplicate-def").size() == 1);      // i bound by two loops
  CHECK(withRule(ds, "wf.undefined-global").size() == 1);   // @absent
  for (const Diagnostic& d : ds) CHECK(d.function == "copy");
}

TEST_CASE("WellFormed: allocated and constant buffers are in scope only in their body", "[wf][tir]") {
  using namespace tir;
  Buffer out = makeBuffer("O", DTypeCode::Float16, {2});
  Buffer k = makeBuffer("K", DTypeCode::Float16, {2});
  tir::Var i = tir::makeVar("i");
  NDArray data(DTypeCode::Float16, {2});
  Stmt use = forLoop(i, intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 2), ForKind::Serial, store(out, {i}, load(k, {i})));
  PrimFunc ok = makePrimFunc({{tir::makeVar("o"), out}}, allocateConst(k, data, use));
  CHECK(checkWellFormed(makeModule({{"f", ok}})).empty());
  tir::Var i2 = tir::makeVar("i");
  Stmt after = forLoop(i2, intImm(DTypeCode::Int32, 0), intImm(DTypeCode::Int32, 2), ForKind::Serial, store(out, {i2}, load(k, {i2})));
  PrimFunc bad = makePrimFunc({{tir::makeVar("o"), out}}, seq({allocateConst(k, data, evaluate(intImm(DTypeCode::Int32, 0))), after}));
  CHECK(withRule(checkWellFormed(makeModule({{"f", bad}})), "wf.undefined-buffer").size() == 1);
  // Constant data must match its buffer.
  PrimFunc mismatched = makePrimFunc({{tir::makeVar("o"), out}}, allocateConst(k, NDArray(DTypeCode::Float32, {2}), use));
  CHECK(withRule(checkWellFormed(makeModule({{"f", mismatched}})), "wf.type-mismatch").size() == 1);
}

// ---- Rules over parsed modules ------------------------------------------------

namespace {

/// One rule, a module violating it once, and where the checker must point.
struct RuleCase {
  const char* rule;
  const char* function;
  uint32_t line, column;
  const char* text;
};

const char* kPrim = R"(
primfn @prim(%A: Buffer[(4), float32], %B: Buffer[(4), float32]) {
  for (%i, 0, 4) {
    %B[%i] = %A[%i];
  }
}
)";

/// The modules start at line 1 with the header; the phase is on line 2.
const RuleCase kRuleCases[] = {
    {"wf.global-symbol-mismatch", "main", 3, 1, R"(#[version = "0.0.5"]
#[phase = 0]
def @main(%x: Tensor[(4), float32], global_symbol="entry") {
  %x
}
)"},
    {"wf.duplicate-global-symbol", "g", 6, 1, R"(#[version = "0.0.5"]
#[phase = 0]
def @f(%x: Tensor[(4), float32], global_symbol="f") {
  %x
}
def @g(%x: Tensor[(4), float32], global_symbol="f") {
  %x
}
)"},
    {"wf.if-in-dataflow", "main", 5, 12, R"(#[version = "0.0.5"]
#[phase = 0]
def @main(%x: Tensor[(4), float32], %c: bool) {
  dataflow {
    %lv0 = if (%c) { %x } else { add(%x, %x) };
    output %gv0 = nn.relu(%lv0);
  }
  %gv0
}
)"},
    {"wf.impure-in-dataflow", "main", 5, 12, R"(#[version = "0.0.5"]
#[phase = 0]
def @main(%x: Tensor[(4), float32]) {
  dataflow {
    %lv0 = vm.builtin.alloc_storage(size=16);
    output %gv0 = nn.relu(%x);
  }
  %gv0
}
)"},
    {"wf.impure-in-dataflow", "main", 5, 12, R"(#[version = "0.0.5"]
#[phase = 0]
def @main(%x: Tensor[(4), float32]) {
  dataflow {
    %lv0 = @log(%x);
    output %gv0 = nn.relu(%lv0);
  }
  %gv0
}
def @log(%y: Tensor[(4), float32], is_pure=0) {
  %y
}
)"},
    {"wf.inner-function", "main", 4, 8, R"(#[version = "0.0.5"]
#[phase = 1]
def @main(%x: Tensor[(4), float32]) {
  %0 = fn (%y: Tensor[(4), float32]) {
    nn.relu(%y)
  };
  %0(%x)
}
)"},
    {"wf.dataflow-after-phase1", "main", 4, 3, R"(#[version = "0.0.5"]
#[phase = 2]
def @main(%x: Tensor[(4), float32]) {
  dataflow {
    output %gv0 = call_tir(@prim, (%x,), out_shape=[4], out_dtype="float32");
  }
  %gv0
}
)"},
    {"wf.unlegalized-op", "main", 4, 3, R"(#[version = "0.0.5"]
#[phase = 2]
def @main(%x: Tensor[(4), float32]) {
  nn.relu(%x)
}
)"},
    {"wf.purity-unmarked", "main", 3, 1, R"(#[version = "0.0.5"]
#[phase = 3]
def @main(%x: Tensor[(4), float32]) {
  %x
}
)"},
    {"wf.purity-wrapper", "main", 4, 12, R"(#[version = "0.0.5"]
#[phase = 3]
def @main(%x: Tensor[(4), float32], force_pure=1) {
  let %y = call_pure_packed(@ext, %x, out_shape=[4], out_dtype="float32");
  %y
}
def @ext(%a: Tensor[(4), float32], Extern=1) {
  %a
}
)"},
    {"wf.dps-call", "main", 4, 12, R"(#[version = "0.0.5"]
#[phase = 3]
def @main(%x: Tensor[(4), float32], force_pure=1) {
  let %y = call_tir(@prim, (%x,), out_shape=[4], out_dtype="float32");
  %y
}
)"},
    {"wf.not-anf", "main", 4, 12, R"(#[version = "0.0.5"]
#[phase = 3]
def @main(%x: Tensor[(4), float32], force_pure=1) {
  let %t = vm.builtin.alloc_tensor(vm.builtin.alloc_storage(size=16), shape=[4], dtype="float32");
  %t
}
)"},
};

/// First rule whose phase makes it apply, for rules tied to a phase (0 otherwise).
int ruleFromPhase(const std::string& id) {
  for (const WellFormedRule& r : wellFormedRules())
    if (r.id == id) return r.fromPhase;
  FAIL("rule " << id << " is not in wellFormedRules()");
  return -1;
}

IRModule parseCase(const RuleCase& c, int phase = -1) {
  std::string text = std::string(c.text) + kPrim;
  if (phase >= 0) {
    size_t at = text.find("#[phase = ");
    text[at + 10] = static_cast<char>('0' + phase);
  }
  return parseModule(text, "case.relay");
}

}  // namespace

TEST_CASE("WellFormed: each rule reports its id, function and location", "[wf][rules]") {
  const RuleCase& c = GENERATE(from_range(std::begin(kRuleCases), std::end(kRuleCases)));
  INFO(c.rule << "\n" << c.text);
  std::vector<Diagnostic> found = withRule(checkWellFormed(parseCase(c)), c.rule);
  REQUIRE(found.size() == 1);
  CHECK(found[0].function == c.function);
  CHECK(found[0].span.line == c.line);
  CHECK(found[0].span.column == c.column);
  CHECK(found[0].span.file->name == "case.relay");
  CHECK(found[0].severity == Severity::Error);
  CHECK(ruleFromPhase(c.rule) >= 0);
}

TEST_CASE("WellFormed: phase invariants hold only from their phase on", "[wf][rules][phase]") {
  const RuleCase& c = GENERATE(from_range(std::begin(kRuleCases), std::end(kRuleCases)));
  int from = ruleFromPhase(c.rule);
  if (from == 0) return;  // always-on rules have no earlier phase
  INFO(c.rule);
  CHECK(withRule(checkWellFormed(parseCase(c, from - 1)), c.rule).empty());
  CHECK(withRule(checkWellFormed(parseCase(c, 3)), c.rule).size() == 1);  // and they stay
}

TEST_CASE("WellFormed: functions with a Compiler attribute are exempt from phase invariants", "[wf][phase][byoc]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
#[phase = 2]
def @main(%x: Tensor[(4), float32]) {
  %0 = fn (%y: Tensor[(4), float32], Compiler="ccompiler") {
    %1 = fn (%z: Tensor[(4), float32], Composite="relu") { nn.relu(%z) };
    %1(%y)
  };
  %0(%x)
}
def @ext(%a: Tensor[(4), float32], Compiler="ccompiler", global_symbol="ext") {
  add(%a, %a)
}
)",
                             "byoc.relay");
  CHECK(checkWellFormed(mod).empty());
}

TEST_CASE("WellFormed: fused Primitive functions may stay nested until LegalizeOps", "[wf][phase]") {
  auto module = [](int phase) {
    return parseModule(R"(#[version = "0.0.5"]
#[phase = )" + std::to_string(phase) + R"(]
def @main(%x: Tensor[(4), float32]) {
  %0 = fn (%p0: Tensor[(4), float32], Primitive=1) {
    nn.relu(%p0)
  };
  %0(%x)
}
)",
                       "fused.relay");
  };
  CHECK(checkWellFormed(module(1)).empty());
  std::vector<Diagnostic> lowering = checkWellFormed(module(2));
  REQUIRE_FALSE(lowering.empty());
  CHECK(lowering.front().rule == "wf.inner-function");
  CHECK(lowering.front().span.line == 4);
}

TEST_CASE("WellFormed: violations come in source order within each function", "[wf][rules]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
#[phase = 2]
def @a(%x: Tensor[(4), float32]) {
  %0 = add(%x, %x);
  %1 = multiply(%0, %x);
  nn.relu(%1)
}
def @b(%x: Tensor[(4), float32]) {
  %0 = fn (%y: Tensor[(4), float32]) { %y };
  %0(%x)
}
)",
                             "order.relay");
  std::vector<Diagnostic> found = checkWellFormed(mod);
  std::vector<std::string> seen;
  for (const Diagnostic& d : found) seen.push_back(d.function + ":" + std::to_string(d.span.line) + " " + d.rule);
  CHECK(seen == std::vector<std::string>{"a:4 wf.unlegalized-op", "a:5 wf.unlegalized-op", "a:6 wf.unlegalized-op",
                                         "b:9 wf.inner-function"});
}

TEST_CASE("WellFormed: every rule id reported is a documented rule", "[wf][rules]") {
  std::set<std::string> documented;
  for (const WellFormedRule& r : wellFormedRules()) CHECK(documented.insert(r.id).second);
  for (const RuleCase& c : kRuleCases)
    for (const Diagnostic& d : checkWellFormed(parseCase(c))) CHECK(documented.count(d.rule) == 1);
}
