// Parser unit tests: the TVM dialect, passlab's extensions, exact literals,
// scoping, spans and located errors.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>

#include "core/ir/functor.h"
#include "tests/text_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

const FunctionNode& mainOf(const IRModule& mod) {
  const FunctionNode* f = mod->lookupFunction("main");
  REQUIRE(f);
  return *f;
}

/// The error message of the first diagnostic, or "" when parsing succeeds.
std::string parseError(const std::string& text) {
  try {
    parseModule(text, "t.relay");
    return "";
  } catch (const DiagnosticError& e) {
    return e.diagnostics().front().message;
  }
}

/// The scalar constant a standalone expression parses to.
NDArray scalarOf(const std::string& literal) {
  Expr e = parseExpr(literal);
  auto* c = as<ConstantNode>(e);
  REQUIRE(c);
  REQUIRE(c->data.ndim() == 0);
  return c->data;
}

template <class T>
T bitsOf(const NDArray& a) {
  T v;
  std::memcpy(&v, a.rawData(), sizeof v);
  return v;
}

}  // namespace

TEST_CASE("Parser: reads a module as TVM prints it", "[parser]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3), float32], %w: Tensor[(4, 3), float32]) -> Tensor[(1, 4), float32] {
  %0 = nn.dense(%x, %w, units=4) /* ty=Tensor[(1, 4), float32] */;
  %1 = add(%0, 1f /* ty=float32 */) /* ty=Tensor[(1, 4), float32] span=foo:1:2 */;
  nn.relu(%1) // trailing comment
}
)");
  const FunctionNode& f = mainOf(mod);
  REQUIRE(f.params.size() == 2);
  CHECK(f.params[0]->name == "x");
  CHECK(typeToString(f.params[0]->annotation) == "Tensor[(1, 3), float32]");
  CHECK(typeToString(f.retType) == "Tensor[(1, 4), float32]");
  auto* relu = as<CallNode>(f.body);
  REQUIRE(relu);
  CHECK(relu->op()->name == "nn.relu");
  auto* add = as<CallNode>(relu->args[0]);
  REQUIRE(add);
  CHECK(add->op()->name == "add");
  CHECK(as<ConstantNode>(add->args[1]));
  auto* dense = as<CallNode>(add->args[0]);
  REQUIRE(dense);
  CHECK(dense->attrs.getInt("units") == 4);
  CHECK(mod->phase() == 0);
}

TEST_CASE("Parser: a %N binding names one shared node", "[parser]") {
  IRModule mod = parseModule(R"(def @main(%x: float32) {
  %0 = exp(%x);
  %1 = add(%0, %0);
  multiply(%1, %0)
})");
  auto* mul = as<CallNode>(mainOf(mod).body);
  auto* add = as<CallNode>(mul->args[0]);
  CHECK(add->args[0] == add->args[1]);
  CHECK(mul->args[1] == add->args[0]);
  CHECK(mul->args[1]->span.line == 2);
}

TEST_CASE("Parser: let, free_var, closures, if, tuples and projections", "[parser]") {
  IRModule mod = parseModule(R"(def @main(%c: bool, %x: Tensor[(2), float32]) {
  let %t: (Tensor[(2), float32], Tensor[(2), float32]) = (%x, %x);
  let %f = fn (%a: Tensor[(2), float32], Primitive=1) -> Tensor[(2), float32] { negative(%a) };
  %0 = %t.1;
  %1 = if (%c) { %f(%0) } else { %t.0 };
  (%1, (%x,), ())
})");
  auto* let1 = as<LetNode>(mainOf(mod).body);
  REQUIRE(let1);
  CHECK(let1->var->name == "t");
  CHECK(as<TupleTypeNode>(let1->var->annotation));
  auto* let2 = as<LetNode>(let1->body);
  REQUIRE(let2);
  auto* fn = as<FunctionNode>(let2->value);
  REQUIRE(fn);
  CHECK(fn->attrs.getInt("Primitive") == 1);
  auto* tuple = as<TupleNode>(let2->body);
  REQUIRE(tuple);
  REQUIRE(tuple->fields.size() == 3);
  CHECK(as<TupleNode>(tuple->fields[1])->fields.size() == 1);
  CHECK(as<TupleNode>(tuple->fields[2])->fields.empty());
  auto* iff = as<IfNode>(tuple->fields[0]);
  REQUIRE(iff);
  auto* call = as<CallNode>(iff->thenBranch);
  REQUIRE(call);
  CHECK(call->callee == let2->var);
  auto* item = as<TupleGetItemNode>(call->args[0]);
  REQUIRE(item);
  CHECK(item->index == 1);
  CHECK(item->tuple == let1->var);
  CHECK(as<TupleGetItemNode>(iff->elseBranch)->index == 0);
}

TEST_CASE("Parser: standalone expressions with free variables", "[parser]") {
  Expr e = parseExpr("free_var %x: Tensor[(3), float32];\n%0 = add(%x, %x);\nnn.relu(%0)");
  auto* relu = as<CallNode>(e);
  REQUIRE(relu);
  auto* add = as<CallNode>(relu->args[0]);
  CHECK(as<VarNode>(add->args[0])->name == "x");
  Expr inline_ = parseExpr("add(%y: float32, %y)");
  auto* call = as<CallNode>(inline_);
  REQUIRE(call);
  CHECK(call->args[0] == call->args[1]);
}

TEST_CASE("Parser: scalar literal suffixes give TVM's dtypes and exact values", "[parser]") {
  CHECK(scalarOf("1f").dtype() == DataType(DTypeCode::Float32));
  CHECK(scalarOf("1.5").dtype() == DataType(DTypeCode::Float32));
  CHECK(scalarOf("1").dtype() == DataType(DTypeCode::Int32));
  CHECK(scalarOf("1f16").dtype() == DataType(DTypeCode::Float16));
  CHECK(scalarOf("1f64").dtype() == DataType(DTypeCode::Float64));
  CHECK(scalarOf("1i64").dtype() == DataType(DTypeCode::Int64));
  CHECK(scalarOf("1i8").dtype() == DataType(DTypeCode::Int8));
  CHECK(scalarOf("7u8").dtype() == DataType(DTypeCode::UInt8));
  CHECK(scalarOf("True").dtype() == DataType(DTypeCode::Bool));
  CHECK(scalarOf("-2.5f").getAsDouble(0) == -2.5);
  CHECK(scalarOf("-128i8").getAsInt(0) == -128);
  CHECK(scalarOf("-9223372036854775808i64").getAsInt(0) == INT64_MIN);
  CHECK(scalarOf("1e-05f").getAsDouble(0) == static_cast<double>(1e-05f));
  // Rounded once, in the literal's own dtype: 0.1 as a half is 0x2e66.
  CHECK(bitsOf<uint16_t>(scalarOf("0.1f16")) == 0x2e66);
  CHECK(bitsOf<uint16_t>(scalarOf("65504f16")) == 0x7bff);
  CHECK(std::signbit(scalarOf("-0f").getAsDouble(0)));
  CHECK(std::isinf(scalarOf("inff").getAsDouble(0)));
  CHECK(bitsOf<uint32_t>(scalarOf("-inff")) == 0xff800000u);
  CHECK(bitsOf<uint16_t>(scalarOf("nanf16")) == 0x7e00);
}

TEST_CASE("Parser: const data is exact for every dtype", "[parser]") {
  auto constOf = [](const std::string& text) {
    Expr e = parseExpr(text);
    auto* c = as<ConstantNode>(e);
    REQUIRE(c);
    return c->data;
  };
  NDArray h = constOf("const(Tensor[(2, 3), float16], [1, 0.1, -inf, nan, 0x7e01, -0])");
  CHECK(h.shape() == std::vector<int64_t>{2, 3});
  std::vector<uint16_t> expected = {0x3c00, 0x2e66, 0xfc00, 0x7e00, 0x7e01, 0x8000};
  for (size_t i = 0; i < expected.size(); ++i) CHECK(h.values<uint16_t>()[i] == expected[i]);
  NDArray i8 = constOf("const(Tensor[(3), int8], [-128, 0x7f, 0xff])");
  CHECK(i8.values<int8_t>()[0] == -128);
  CHECK(i8.values<int8_t>()[1] == 127);
  CHECK(i8.values<int8_t>()[2] == -1);
  NDArray b = constOf("const(Tensor[(2), bool], [True, False])");
  CHECK(b.values<uint8_t>()[0] == 1);
  NDArray d = constOf("const(Tensor[(1), float64], [0.1])");
  CHECK(d.values<double>()[0] == 0.1);
  NDArray empty = constOf("const(Tensor[(0, 4), float32], [])");
  CHECK(empty.numElements() == 0);
}

TEST_CASE("Parser: rank-1 shapes with and without a trailing comma, dynamic dimensions", "[parser]") {
  IRModule mod = parseModule("def @main(%a: Tensor[(64), float32], %b: Tensor[(64,), float32], %c: Tensor[(?, 3), float16]) { %a }");
  const FunctionNode& f = mainOf(mod);
  CHECK(typeEqual(f.params[0]->annotation, f.params[1]->annotation));
  CHECK(as<TensorTypeNode>(f.params[2]->annotation)->shape == std::vector<int64_t>{kDynamicDim, 3});
  CHECK(typeToString(parseModule("def @f(%x: fn (float32, (int8,)) -> ()) { %x }")->lookupFunction("f")->params[0]->annotation) ==
        "fn (float32, (int8,)) -> ()");
}

TEST_CASE("Parser: op attributes are checked and stored canonically", "[parser]") {
  IRModule mod = parseModule(R"(def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) {
  nn.conv2d(%x, %w, kernel_size=[3, 3], strides=[1, 1], channels=4, padding=[1, 1])
})");
  auto* conv = as<CallNode>(mainOf(mod).body);
  REQUIRE(conv);
  // strides=[1, 1] is the default and is dropped; the rest is in schema order.
  std::vector<std::string> keys;
  for (const auto& [k, v] : conv->attrs.entries()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"padding", "channels", "kernel_size"});
}

TEST_CASE("Parser: module attributes and the default phase", "[parser]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
#[executor = {"kind": "graph", "link-params": 1}]
#[target = "llvm"]
#["odd key" = [1, 2.5, "s", None, True]]
def @main(%x: float32) { %x })");
  const AttrValue* exec = mod->attrs.find("executor");
  REQUIRE(exec);
  CHECK(exec->asDict().getInt("link-params") == 1);
  CHECK(exec->asDict().getString("kind") == "graph");
  CHECK(mod->attrs.getString("target") == "llvm");
  CHECK(mod->attrs.find("odd key")->asArray().size() == 5);
  CHECK(mod->phase() == 0);
  CHECK(mod->attrs.entries().back().first == "phase");
  CHECK(parseModule("#[phase = 2]\ndef @main(%x: float32) { %x }")->phase() == 2);
}

TEST_CASE("Parser: dataflow blocks mark their local variables", "[parser]") {
  IRModule mod = parseModule(R"(def @main(%x: float32) {
  dataflow {
    %lv0: float32 = add(%x, %x);
    %3 = exp(%lv0);
    output %gv0 = negative(%3);
  }
  %gv0
})");
  auto* df = as<DataflowNode>(mainOf(mod).body);
  REQUIRE(df);
  REQUIRE(df->bindings.size() == 2);
  CHECK(df->bindings[0].var->isDataflow);
  CHECK(df->bindings[0].var->annotation);
  CHECK_FALSE(df->bindings[1].var->isDataflow);
  CHECK(df->body == df->bindings[1].var);
  CHECK(as<CallNode>(df->bindings[1].value)->op()->name == "negative");
}

TEST_CASE("Parser: PrimFuncs cover every TIR node", "[parser]") {
  IRModule mod = parseModule(R"(primfn @f(%A: Buffer[(4, 4), float16], %n: int32, target="llvm") {
  let %m: int32 = %n * 2 + 1;
  allocate %T: Buffer[(4), float32];
  allocate_const %W: Buffer[(2), float16] = [0.5, nan];
  for (%i, 0, 4, parallel) {
    if (!(%i < %m) && %i != 3) {
      %T[%i] = select(%i > 1, float32(%W[0]), exp(float32(%A[%i, 0])));
    } else {
      @g(%A, %i);
    }
  }
}
primfn @g(%A: Buffer[(4, 4), float16], %k: int32) {
  for (%j: int64, 0i64, 4i64, unrolled) { }
})");
  auto* f = as<PrimFuncNode>(mod->lookup("f"));
  REQUIRE(f);
  REQUIRE(f->params.size() == 2);
  CHECK(f->params[0].buffer->shape == std::vector<int64_t>{4, 4});
  CHECK(f->params[1].buffer == nullptr);
  CHECK(f->attrs.getString("target") == "llvm");
  auto* let = tir::as<tir::LetStmtNode>(f->body);
  REQUIRE(let);
  auto* alloc = tir::as<tir::AllocateNode>(let->body);
  REQUIRE(alloc);
  auto* constant = tir::as<tir::AllocateConstNode>(alloc->body);
  REQUIRE(constant);
  CHECK(constant->data.values<uint16_t>()[1] == 0x7e00);
  auto* loop = tir::as<tir::ForNode>(constant->body);
  REQUIRE(loop);
  CHECK(loop->forKind == tir::ForKind::Parallel);
  auto* branch = tir::as<tir::IfThenElseNode>(loop->body);
  REQUIRE(branch);
  auto* cond = tir::as<tir::BinaryNode>(branch->cond);
  REQUIRE(cond);
  CHECK(cond->op == tir::BinaryOp::And);
  CHECK(tir::as<tir::NotNode>(cond->a));
  auto* store = tir::as<tir::StoreNode>(branch->thenCase);
  REQUIRE(store);
  CHECK(store->buffer == alloc->buffer);
  CHECK(tir::as<tir::SelectNode>(store->value));
  auto* eval = tir::as<tir::EvaluateNode>(branch->elseCase);
  REQUIRE(eval);
  auto* call = tir::as<tir::CallNode>(eval->value);
  REQUIRE(call);
  CHECK(call->isGlobal);
  CHECK(call->callee == "g");
  CHECK(call->args[0] == f->params[0].var);
  auto* g = as<PrimFuncNode>(mod->lookup("g"));
  auto* loop64 = tir::as<tir::ForNode>(g->body);
  REQUIRE(loop64);
  CHECK(loop64->var->dtype == DataType(DTypeCode::Int64));
  CHECK(tir::as<tir::SeqNode>(loop64->body)->stmts.empty());
}

TEST_CASE("Parser: names with dots and projections of named tuples", "[parser]") {
  IRModule mod = parseModule(R"(def @main(%input.1: Tensor[(2), float32], %fc.weight: Tensor[(2), float32]) {
  let %t = (%input.1, %fc.weight);
  add(%t.0, %t.1)
})");
  const FunctionNode& f = mainOf(mod);
  CHECK(f.params[0]->name == "input.1");
  auto* add = as<CallNode>(as<LetNode>(f.body)->body);
  REQUIRE(add);
  CHECK(as<TupleGetItemNode>(add->args[1])->index == 1);
}

TEST_CASE("Parser: inner scopes see outer bindings and may shadow them", "[parser]") {
  IRModule mod = parseModule(R"(def @main(%x: float32) {
  %0 = exp(%x);
  %1 = fn (%x: float32) { add(%x, %0) };
  %1(%0)
})");
  auto* call = as<CallNode>(mainOf(mod).body);
  auto* fn = as<FunctionNode>(call->callee);
  REQUIRE(fn);
  auto* add = as<CallNode>(fn->body);
  CHECK(add->args[0] == fn->params[0]);
  CHECK(add->args[1] == call->args[0]);
}

TEST_CASE("Parser: spans locate nodes in the source", "[parser]") {
  IRModule mod = parseModule("def @main(%x: float32) {\n  %0 = exp(%x);\n  negative(%0)\n}\n", "spans.relay");
  auto* neg = as<CallNode>(mainOf(mod).body);
  CHECK(neg->span.location() == "spans.relay:3:3");
  CHECK(neg->span.endColumn == 14);  // inclusive: the closing ')'
  CHECK(neg->args[0]->span.location() == "spans.relay:2:8");
  CHECK(mainOf(mod).span.line == 1);
  // One SourceFile per parse, shared by every span.
  CHECK(neg->span.file == neg->args[0]->span.file);
}

TEST_CASE("Parser: rejects unterminated string", "[parser]") {
  CHECK(parseError("def @main(%x: float32, a=\"oops) { %x }") == "unterminated string (missing closing '\"')");
}

TEST_CASE("Parser: an unknown op is a located error naming it", "[parser]") {
  try {
    parseModule("def @main(%x: float32) {\n  nn.frobnicate(%x)\n}", "op.relay");
    FAIL("expected an error");
  } catch (const DiagnosticError& e) {
    CHECK(firstLine(e.diagnostics()[0].render()) == "op.relay:2:3: error: unknown operator 'nn.frobnicate'");
  }
}

TEST_CASE("Parser: attribute errors point at the attribute", "[parser]") {
  try {
    parseModule("def @main(%x: Tensor[(1, 4), float32]) {\n  nn.softmax(%x, axis=\"last\")\n}", "attr.relay");
    FAIL("expected an error");
  } catch (const DiagnosticError& e) {
    CHECK(e.diagnostics()[0].span.line == 2);
    CHECK(e.diagnostics()[0].span.column == 18);
    CHECK(e.diagnostics()[0].message.find("'axis'") != std::string::npos);
  }
}

TEST_CASE("Parser: a meta reference needs a type from a comment, a #[metadata] section or its use", "[parser]") {
  CHECK(parseError("def @main(%x: float32) { add(%x, meta[relay.Constant][0]) }").find("cannot tell the type of") !=
        std::string::npos);
  CHECK(parseError("def @main(%x: float32) { add(%x, meta[relay.Constant][0] /* ty=float32 */) }").empty());
}

TEST_CASE("Parser: literals out of range are errors", "[parser]") {
  CHECK(parseError("def @main(%x: int8) { add(%x, 128i8) }") == "literal 128i8 is out of range for int8");
  CHECK(parseError("def @main(%x: float16) { add(%x, 70000f16) }") == "literal 70000f16 is out of range for float16");
  CHECK(parseError("def @main(%x: int32) { add(%x, 2147483648i32) }") == "literal 2147483648i32 is out of range for int32");
  CHECK(parseError("def @main(%x: int32) { add(%x, -2147483648) }").empty());
}
