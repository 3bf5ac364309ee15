// The IR core: IEEE half rounding, NDArray storage, attributes, types,
// traversal and rewriting (sharing of unchanged subtrees, deep chains).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "core/ir/diagnostic_fold.h"
#include "core/ir/functor.h"
#include "core/ir/module.h"

using namespace passlab;
using Catch::Contains;

namespace {

Type f32(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float32); }
Expr relu(Expr a) { return makeOpCall(OpId::Relu, {std::move(a)}); }
Expr add(Expr a, Expr b) { return makeOpCall(OpId::Add, {std::move(a), std::move(b)}); }

}  // namespace

// ---- Half ----------------------------------------------------------------------------

TEST_CASE("Half: exact values and rounding to nearest", "[ir][half]") {
  using Row = std::tuple<float, uint16_t>;
  auto [value, bits] = GENERATE(table<float, uint16_t>({
      Row{0.0f, 0x0000},
      Row{-0.0f, 0x8000},
      Row{1.0f, 0x3c00},
      Row{-2.0f, 0xc000},
      Row{0.5f, 0x3800},
      Row{65504.0f, 0x7bff},              // largest finite half
      Row{0.333333343f, 0x3555},          // 1/3 rounds down
      Row{6.103515625e-05f, 0x0400},      // smallest normal 2^-14
      Row{5.9604644775390625e-08f, 0x0001},  // smallest subnormal 2^-24
  }));
  CAPTURE(value);
  CHECK(Half::fromFloat(value) == bits);
  CHECK(Half(value).bits == bits);
}

TEST_CASE("Half: ties round to even", "[ir][half]") {
  // Halfway between 1 and 1+2^-10: the even neighbour is 1.
  CHECK(Half::fromFloat(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);
  // Halfway between 1+2^-10 and 1+2^-9: the even neighbour is 1+2^-9.
  CHECK(Half::fromFloat(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);
  // Just above a tie rounds up.
  CHECK(Half::fromFloat(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)) == 0x3c01);
  // Mantissa carry into the exponent: the tie below 2 rounds to 2.
  CHECK(Half::fromFloat(2.0f - std::ldexp(1.0f, -12)) == 0x4000);
}

TEST_CASE("Half: subnormals underflow gradually, ties to even", "[ir][half]") {
  float tiny = std::ldexp(1.0f, -24);  // one subnormal step
  CHECK(Half::fromFloat(tiny * 0.5f) == 0x0000);   // tie between 0 and 1 step: even is 0
  CHECK(Half::fromFloat(tiny * 0.75f) == 0x0001);  // above the tie
  CHECK(Half::fromFloat(tiny * 1.5f) == 0x0002);   // tie between 1 and 2: even is 2
  CHECK(Half::fromFloat(tiny * 2.5f) == 0x0002);   // tie between 2 and 3: even is 2
  CHECK(Half::fromFloat(tiny * 1023) == 0x03ff);   // largest subnormal
  CHECK(Half::fromFloat(-tiny * 3) == 0x8003);
  CHECK(Half::fromFloat(std::ldexp(1.0f, -30)) == 0x0000);
  CHECK(Half::toFloatBits(0x0001) == tiny);
  CHECK(Half::toFloatBits(0x03ff) == tiny * 1023);
}

TEST_CASE("Half: overflow goes to infinity, NaN stays NaN", "[ir][half]") {
  CHECK(Half::fromFloat(65519.0f) == 0x7bff);  // below the rounding boundary
  CHECK(Half::fromFloat(65520.0f) == 0x7c00);  // the boundary rounds to inf (ties to even)
  CHECK(Half::fromFloat(1e10f) == 0x7c00);
  CHECK(Half::fromFloat(-1e10f) == 0xfc00);
  CHECK(Half::fromFloat(std::numeric_limits<float>::infinity()) == 0x7c00);
  uint16_t nan = Half::fromFloat(std::numeric_limits<float>::quiet_NaN());
  CHECK((nan & 0x7c00) == 0x7c00);
  CHECK((nan & 0x03ff) != 0);
  CHECK(std::isnan(Half::toFloatBits(nan)));
  CHECK(std::isinf(Half::toFloatBits(0x7c00)));
  uint16_t dnan = Half::fromDouble(std::numeric_limits<double>::quiet_NaN());
  CHECK(std::isnan(Half::toFloatBits(dnan)));
  CHECK(Half::fromDouble(65519.99) == 0x7bff);
  CHECK(Half::fromDouble(65520.0) == 0x7c00);
  CHECK(Half::fromDouble(-1e300) == 0xfc00);
}

TEST_CASE("Half: every half widens exactly and narrows back to itself", "[ir][half]") {
  int checked = 0;
  for (uint32_t raw = 0; raw <= 0xffff; ++raw) {
    float f = Half::toFloatBits(static_cast<uint16_t>(raw));
    if (std::isnan(f)) continue;
    if (Half::fromFloat(f) != raw || Half::fromDouble(f) != raw) {
      FAIL_CHECK("half 0x" << std::hex << raw << " does not round-trip");
      break;
    }
    ++checked;
  }
  CHECK(checked == 65536 - 2 * 1023);  // all but the NaN patterns
}

TEST_CASE("Half: fromDouble avoids double rounding through float", "[ir][half]") {
  // Slightly above the tie between 1 and 1+2^-10. Rounding to float first loses
  // the 2^-40 and lands exactly on the tie, which then goes to even (1.0).
  double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(Half::fromDouble(x) == 0x3c01);
  CHECK(Half::fromFloat(static_cast<float>(x)) == 0x3c00);
  // Subnormal range: same effect.
  double y = std::ldexp(1.0, -25) + std::ldexp(1.0, -60);
  CHECK(Half::fromDouble(y) == 0x0001);
  CHECK(Half::fromFloat(static_cast<float>(y)) == 0x0000);
  // Where float holds the value exactly, both agree.
  for (double v : {0.1, -3.75, 1000.5, 1e-6, 123.456})
    CHECK(Half::fromDouble(static_cast<float>(v)) == Half::fromFloat(static_cast<float>(v)));
}

TEST_CASE("DataType: names parse and print as TVM spells them", "[ir]") {
  for (const char* name : {"bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"}) {
    std::optional<DataType> d = DataType::parse(name);
    REQUIRE(d);
    CHECK(d->name() == name);
  }
  CHECK_FALSE(DataType::parse("float8"));
  CHECK(DataType(DTypeCode::Float16).bits() == 16);
  CHECK(DataType(DTypeCode::Bool).bytes() == 1);
  CHECK(DataType(DTypeCode::UInt8).isInt());
  CHECK_FALSE(DataType(DTypeCode::Bool).isInt());
}

// ---- NDArray ---------------------------------------------------------------------------

TEST_CASE("NDArray: copies and reshapes share storage", "[ir][ndarray]") {
  NDArray a(DTypeCode::Float32, {2, 3});
  for (int i = 0; i < 6; ++i) a.setFromDouble(i, i * 1.5);
  NDArray copy = a;
  NDArray flat = a.reshaped({6});
  CHECK(copy.sharesStorageWith(a));
  CHECK(flat.sharesStorageWith(a));
  CHECK(flat.shape() == std::vector<int64_t>{6});
  CHECK(flat.getAsDouble(5) == 7.5);
  // Two constants built from one array hold the same bytes, not a copy.
  Expr c1 = makeConstant(a), c2 = makeConstant(copy);
  CHECK(as<ConstantNode>(c1)->data.rawData() == as<ConstantNode>(c2)->data.rawData());
  REQUIRE_THROWS(a.reshaped({4}));
}

TEST_CASE("NDArray: equality, hashing and element access", "[ir][ndarray]") {
  NDArray a(DTypeCode::Float16, {3});
  NDArray b(DTypeCode::Float16, {3});
  for (int i = 0; i < 3; ++i) {
    a.setFromDouble(i, 0.1 * i);
    b.setFromDouble(i, 0.1 * i);
  }
  CHECK_FALSE(a.sharesStorageWith(b));
  CHECK(a.bitwiseEqual(b));
  CHECK(a.contentHash() == b.contentHash());
  b.setFromDouble(2, 7);
  CHECK_FALSE(a.bitwiseEqual(b));
  // Half storage rounds to nearest even.
  CHECK(a.values<uint16_t>()[1] == Half::fromDouble(0.1));
  CHECK(a.getAsDouble(1) == static_cast<double>(Half::toFloatBits(Half::fromDouble(0.1))));
  NDArray s = NDArray::scalar(DTypeCode::Int64, -5);
  CHECK(s.ndim() == 0);
  CHECK(s.numElements() == 1);
  CHECK(s.getAsInt(0) == -5);
  CHECK(NDArray(DTypeCode::Int32, {2, 2}).byteSize() == 16);
}

// ---- Attributes ----------------------------------------------------------------------

TEST_CASE("AttrDict: insertion order, overwrite in place, erase, typed lookups", "[ir][attrs]") {
  AttrDict d{{"Compiler", AttrValue::string("ccompiler")}, {"Primitive", AttrValue::integer(1)}};
  d.set("global_symbol", AttrValue::string("tvmgen_default_ccompiler_main_0"));
  d.set("Compiler", AttrValue::string("dnnl"));
  REQUIRE(d.size() == 3);
  CHECK(d.entries()[0].first == "Compiler");
  CHECK(d.getString("Compiler") == "dnnl");
  CHECK(d.getInt("Primitive") == 1);
  CHECK(d.getBool("Primitive"));
  CHECK(d.getInt("Inline", 7) == 7);
  CHECK(d.getString("Primitive", "fallback") == "fallback");  // not a string
  CHECK(d.erase("Primitive"));
  CHECK_FALSE(d.erase("Primitive"));
  CHECK_FALSE(d.contains("Primitive"));
  AttrDict reordered{{"global_symbol", AttrValue::string("tvmgen_default_ccompiler_main_0")}, {"Compiler", AttrValue::string("dnnl")}};
  CHECK(d != reordered);  // order matters for printing, so for equality too
}

TEST_CASE("AttrValue: kinds, equality, hashing and text", "[ir][attrs]") {
  CHECK(AttrValue::integer(1) != AttrValue::boolean(true));
  CHECK(AttrValue::floating(0.5) == AttrValue::floating(0.5));
  CHECK(AttrValue::ints({1, 2}) == AttrValue::array({AttrValue::integer(1), AttrValue::integer(2)}));
  CHECK(AttrValue::ints({1, 2}).hash() == AttrValue::array({AttrValue::integer(1), AttrValue::integer(2)}).hash());
  AttrDict inner{{"kind", AttrValue::string("graph")}, {"link-params", AttrValue::integer(1)}};
  AttrValue exec = AttrValue::dict(inner);
  CHECK(exec.asDict().getInt("link-params") == 1);
  CHECK(exec.toString() == "{\"kind\": \"graph\", \"link-params\": 1}");
  CHECK(AttrValue::none().toString() == "None");
  CHECK(AttrValue::boolean(false).toString() == "False");
  CHECK(AttrValue::floating(1e-5).toString() == "1e-05f");
  CHECK(AttrValue::string("a\"b").toString() == "\"a\\\"b\"");
  CHECK(AttrValue::ints({3, 3}).toString() == "[3, 3]");
}

// ---- Types -------------------------------------------------------------------------------

TEST_CASE("Types: text form and structural equality", "[ir][types]") {
  CHECK(typeToString(f32({1, 3})) == "Tensor[(1, 3), float32]");
  CHECK(typeToString(f32({64})) == "Tensor[(64), float32]");
  CHECK(typeToString(f32({})) == "float32");
  CHECK(typeToString(f32({1, kDynamicDim})) == "Tensor[(1, ?), float32]");
  CHECK(typeToString(tupleType({f32({})})) == "(float32,)");
  CHECK(typeToString(unitType()) == "()");
  CHECK(typeToString(funcType({f32({2})}, f32({}))) == "fn (Tensor[(2), float32]) -> float32");
  CHECK(typeEqual(tupleType({f32({2}), f32({})}), tupleType({f32({2}), f32({})})));
  CHECK_FALSE(typeEqual(f32({2}), tensorType({2}, DTypeCode::Float16)));
  CHECK(typeHash(f32({2, 3})) == typeHash(f32({2, 3})));
  CHECK(as<TensorTypeNode>(f32({2, 3}))->numElements() == 6);
}

// ---- Traversal and rewriting -------------------------------------------------------------

namespace {

/// Replaces every sigmoid call by tanh of the same (rewritten) argument.
class SigmoidToTanh : public ExprMutator {
 protected:
  Expr rewrite(const Expr&, const Expr& rebuilt) override {
    const auto* call = as<CallNode>(rebuilt);
    if (call && call->op() && call->op()->id == OpId::Sigmoid) {
      ++rewrites;
      return makeOpCall(OpId::Tanh, call->args);
    }
    return rebuilt;
  }

 public:
  int rewrites = 0;
};

}  // namespace

TEST_CASE("ExprMutator: rebuilds only the changed path and shares the rest", "[ir][functor]") {
  Var x = makeVar("x", f32({4}));
  Expr untouched = add(relu(x), x);
  Expr changedLeaf = makeOpCall(OpId::Sigmoid, {x});
  Expr changedParent = relu(changedLeaf);
  Expr root = makeTuple({untouched, changedParent});
  Function fn = makeFunction({x}, root);

  SigmoidToTanh mutator;
  Expr out = mutator.mutate(fn);
  REQUIRE(out != fn);
  const auto* newFn = as<FunctionNode>(out);
  REQUIRE(newFn);
  CHECK(newFn->params[0] == x);  // parameters shared
  const auto* newRoot = as<TupleNode>(newFn->body);
  REQUIRE(newRoot);
  CHECK(newRoot->fields[0] == untouched);       // unchanged subtree: same pointer
  CHECK(newRoot->fields[1] != changedParent);   // path to the change: rebuilt
  const auto* newRelu = as<CallNode>(newRoot->fields[1]);
  CHECK(newRelu->op()->id == OpId::Relu);
  CHECK(as<CallNode>(newRelu->args[0])->op()->id == OpId::Tanh);
  CHECK(mutator.rewrites == 1);
}

TEST_CASE("ExprMutator: nothing to change returns the very same tree", "[ir][functor]") {
  Var x = makeVar("x", f32({4}));
  Function fn = makeFunction({x}, add(relu(x), x));
  SigmoidToTanh mutator;
  CHECK(mutator.mutate(fn) == fn);
  CHECK(mutator.rewrites == 0);
}

TEST_CASE("ExprMutator: a DAG stays a DAG", "[ir][functor]") {
  Var x = makeVar("x", f32({4}));
  Expr shared = makeOpCall(OpId::Sigmoid, {x});
  Expr root = add(relu(shared), shared);
  SigmoidToTanh mutator;
  Expr out = mutator.mutate(root);
  CHECK(mutator.rewrites == 1);  // the shared node is rewritten once
  const auto* call = as<CallNode>(out);
  const auto* left = as<CallNode>(call->args[0]);
  CHECK(left->args[0] == call->args[1]);  // both uses point to one new node
  CHECK(countOpCalls(out) == 3);
}

TEST_CASE("ExprMutator: rewriting a 200k-deep chain shares nothing it changed and everything it did not", "[ir][functor][scale]") {
  Var x = makeVar("x", f32({2}));
  Expr e = x;
  std::vector<Expr> nodes;
  for (int i = 0; i < 200000; ++i) {
    e = i == 10 ? makeOpCall(OpId::Sigmoid, {e}) : relu(e);
    nodes.push_back(e);
  }
  SigmoidToTanh mutator;
  Expr out = mutator.mutate(e);
  CHECK(mutator.rewrites == 1);
  // Nodes below the rewrite are shared: walk down to depth 9.
  const ExprNode* walk = out.get();
  for (int i = 199999; i > 10; --i) walk = as<CallNode>(walk)->args[0].get();
  CHECK(as<CallNode>(walk)->op()->id == OpId::Tanh);
  CHECK(as<CallNode>(walk)->args[0] == nodes[9]);
}

TEST_CASE("postOrderVisit: 200k-long chain, children first, each node once", "[ir][functor][scale]") {
  Var x = makeVar("x", f32({2}));
  Expr e = x;
  for (int i = 0; i < 200000; ++i) e = i % 2 ? relu(e) : add(e, x);
  std::unordered_map<const ExprNode*, size_t> order;
  size_t visits = 0;
  postOrderVisit(e, [&](const Expr& n) { order[n.get()] = visits++; });
  // 200k calls, the variable, and the two shared op nodes.
  CHECK(visits == 200000 + 1 + 2);
  CHECK(order.size() == visits);
  CHECK(order.at(e.get()) == visits - 1);  // root last
  const auto* top = as<CallNode>(e);
  CHECK(order.at(top->args[0].get()) < order.at(e.get()));
  CHECK(order.at(x.get()) < order.at(top->args[0].get()));
  CHECK(countOpCalls(e) == 200000);
}

TEST_CASE("postOrderVisit: enter can skip a subtree", "[ir][functor]") {
  Var x = makeVar("x", f32({2}));
  Var p = makeVar("p", f32({2}));
  Function inner = makeFunction({p}, relu(relu(p)));
  Expr root = makeTuple({inner, relu(x)});
  size_t calls = 0;
  postOrderVisit(
      root, [&](const Expr& n) { calls += as<CallNode>(n) != nullptr; },
      [](const Expr& n) { return !as<FunctionNode>(n); });
  CHECK(calls == 1);  // only the relu outside the function
}

TEST_CASE("rebuildWithChildren: identical children share the node", "[ir][functor]") {
  Var x = makeVar("x", f32({2}));
  Expr call = add(x, x);
  std::vector<Expr> children;
  appendChildren(call, children);
  CHECK(rebuildWithChildren(call, children) == call);
  children[2] = relu(x);
  Expr rebuilt = rebuildWithChildren(call, children);
  CHECK(rebuilt != call);
  CHECK(as<CallNode>(rebuilt)->args[0] == x);
  CHECK(as<CallNode>(rebuilt)->attrs == as<CallNode>(call)->attrs);
}

TEST_CASE("Module: updates share the untouched functions", "[ir][module]") {
  Var x = makeVar("x", f32({2}));
  Function f = makeFunction({x}, relu(x));
  Var y = makeVar("y", f32({2}));
  Function g = makeFunction({y}, y);
  IRModule m = makeModule({{"f", f}, {"g", g}}, {{"phase", AttrValue::integer(1)}});
  IRModule m2 = withFunction(m, "g", makeFunction({y}, relu(y)));
  CHECK(m2->lookup("f") == f);
  CHECK(m->lookup("g") == g);  // the old module is unchanged
  CHECK(m2->phase() == 1);
  CHECK(withoutFunction(m2, "f")->lookup("f") == nullptr);
  CHECK(functionAttrs(withAttrs(*f, {{"Inline", AttrValue::integer(1)}})).getInt("Inline") == 1);
  CHECK(m->lookupFunction("f") == f.get());
}

TEST_CASE("Diagnostic: rendering points at the column with a caret", "[ir][diagnostic]") {
  auto file = std::make_shared<const SourceFile>("m.relay", "def @main() {\n  %0 = add(%x, %y);\n}\n");
  Diagnostic d;
  d.span.file = file;
  d.span.line = 2;
  d.span.column = 8;
  d.message = "incompatible shapes";
  CHECK(d.render() == "m.relay:2:8: error: incompatible shapes\n    %0 = add(%x, %y);\n         ^");
  Diagnostic unlocated;
  unlocated.message = "no place";
  CHECK(unlocated.render() == "error: no place");
}

TEST_CASE("Diagnostic: many errors with one message are folded into a note with their places", "[ir][diagnostic]") {
  auto file = std::make_shared<const SourceFile>("m.relay", std::string(20, '\n'));
  std::vector<Diagnostic> all;
  for (uint32_t line = 1; line <= 12; ++line) {
    Diagnostic d;
    d.span.file = file;
    d.span.line = line;
    d.span.column = 1;
    d.rule = "legalize";
    d.message = line == 5 ? "another message" : "op 'nn.batch_norm' returns a tuple";
    all.push_back(d);
  }
  std::string text = DiagnosticError(all).renderAll();
  // Three of the repeated message in full, the other one as it is, then the note.
  CHECK(text.find("m.relay:3:1: error: op") != std::string::npos);
  CHECK(text.find("m.relay:4:1: error: op") == std::string::npos);
  CHECK(text.find("m.relay:5:1: error: another message") != std::string::npos);
  CHECK(text.find("note: 8 more errors with the same message, at m.relay:4:1, m.relay:6:1, m.relay:7:1, m.relay:8:1, m.relay:9:1, "
                  "m.relay:10:1, m.relay:11:1, m.relay:12:1") != std::string::npos);
  CHECK(text.find(", ...") == std::string::npos);  // all eight places fit
  // The same message under another rule is another message.
  all[11].rule = "other";
  CHECK(DiagnosticError(all).renderAll().find("note: 7 more errors") != std::string::npos);
  // Streaming, as the batch driver prints: the same decisions, the note at the end.
  DiagnosticFolder folder;
  int printed = 0;
  for (const Diagnostic& d : all) printed += folder.accept(d) ? 1 : 0;
  CHECK(printed == 5);
  CHECK(folder.summary().rfind("note: 7 more errors with the same message, at m.relay:4:1", 0) == 0);
  CHECK(DiagnosticFolder().summary().empty());
}
