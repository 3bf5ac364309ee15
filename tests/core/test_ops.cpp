// The op table: schemas with TVM's names and defaults, canonicalization, and
// the type relation of every op (results and error messages).
#include <catch2/catch.hpp>

#include "core/ir/float_math.h"

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "core/ir/expr.h"
#include "core/ir/op.h"

using namespace passlab;
using Catch::Contains;

namespace {

Type f32(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float32); }
Type f16(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float16); }
Type i32(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Int32); }
Type i64(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Int64); }
Type boolean(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Bool); }

const OpDef& op(std::string_view name) {
  const OpDef* d = findOp(name);
  REQUIRE(d != nullptr);
  return *d;
}

/// Canonicalizes `attrs` and runs the relation; returns the type as text.
std::string infer(std::string_view name, std::vector<Type> args, const AttrDict& attrs = {}) {
  const OpDef& d = op(name);
  return typeToString(inferOpCallType(d, args, canonicalizeAttrs(d, attrs)));
}

AttrValue ints(std::vector<int64_t> v) { return AttrValue::ints(v); }
AttrValue str(std::string s) { return AttrValue::string(std::move(s)); }
AttrValue integer(int64_t i) { return AttrValue::integer(i); }

}  // namespace

// ---- Table and schemas ------------------------------------------------------------

TEST_CASE("Ops: every op of ops.def has a unique name, an id matching its position and a relation", "[ops]") {
  std::set<std::string_view> names;
  REQUIRE(allOps().size() == kNumOps);
  for (size_t i = 0; i < allOps().size(); ++i) {
    const OpDef& d = allOps()[i];
    CHECK(static_cast<size_t>(d.id) == i);
    CHECK(&opDef(d.id) == &d);
    CHECK(findOp(d.name) == &d);
    CHECK(d.relation != nullptr);
    CHECK(names.insert(d.name).second);
    // Every schema default must survive its own canonicalization (no required field has one).
    for (const AttrField& f : d.attrs) CHECK((f.required ? f.defaultValue.isNone() : true));
  }
  CHECK(findOp("nn.conv3d") == nullptr);
}

TEST_CASE("Ops: the issue's op list is all in the table", "[ops]") {
  for (const char* name :
       {"add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "negative", "abs", "exp", "log", "sqrt",
        "rsqrt", "tanh", "sigmoid", "erf", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
        "acosh", "atanh", "clip", "round", "floor", "ceil", "where", "equal", "less", "greater",
        "nn.relu", "nn.leaky_relu", "nn.conv2d", "nn.conv2d_transpose", "nn.dense", "nn.matmul", "nn.batch_matmul",
        "nn.bias_add", "nn.batch_norm", "nn.layer_norm", "nn.max_pool2d", "nn.avg_pool2d", "nn.global_avg_pool2d",
        "nn.softmax", "nn.pad", "reshape", "transpose", "concatenate", "split", "squeeze", "expand_dims",
        "strided_slice", "take", "cast", "layout_transform", "mean", "sum", "max", "min", "prod", "argmax", "argmin", "mod", "floor_mod", "image.resize2d", "zeros",
        "ones", "full"})
    CHECK(findOp(name) != nullptr);
}

TEST_CASE("Ops: fusion patterns follow TVM and have names", "[ops]") {
  CHECK(op("add").pattern == FusionPattern::Broadcast);
  CHECK(op("exp").pattern == FusionPattern::ElemWise);
  CHECK(op("nn.conv2d").pattern == FusionPattern::OutEWiseFusable);
  CHECK(op("reshape").pattern == FusionPattern::Injective);
  CHECK(op("sum").pattern == FusionPattern::CommReduce);
  CHECK(op("nn.batch_norm").pattern == FusionPattern::Opaque);
  CHECK(fusionPatternName(FusionPattern::ElemWise) == "elemwise");
  CHECK(fusionPatternName(FusionPattern::Broadcast) == "broadcast");
  CHECK(fusionPatternName(FusionPattern::Injective) == "injective");
  CHECK(fusionPatternName(FusionPattern::CommReduce) == "comm-reduce");
  CHECK(fusionPatternName(FusionPattern::OutEWiseFusable) == "out-elemwise-fusable");
  CHECK(fusionPatternName(FusionPattern::Opaque) == "opaque");
}

TEST_CASE("Ops: conv2d schema has TVM's names, order and defaults", "[ops][attrs]") {
  const OpDef& conv = op("nn.conv2d");
  std::vector<std::string> names;
  for (const AttrField& f : conv.attrs) names.push_back(f.name);
  CHECK(names == std::vector<std::string>{"strides", "padding", "dilation", "groups", "channels", "kernel_size",
                                          "data_layout", "kernel_layout", "out_layout", "out_dtype"});
  AttrDict none;
  CHECK(attrOrDefault(conv, none, "strides") == ints({1, 1}));
  CHECK(attrOrDefault(conv, none, "padding") == ints({0, 0}));
  CHECK(attrOrDefault(conv, none, "groups") == integer(1));
  CHECK(attrOrDefault(conv, none, "channels").isNone());
  CHECK(attrOrDefault(conv, none, "kernel_size").isNone());
  CHECK(attrOrDefault(conv, none, "data_layout") == str("NCHW"));
  CHECK(attrOrDefault(conv, none, "kernel_layout") == str("OIHW"));
  CHECK(attrOrDefault(conv, none, "out_layout") == str(""));
  CHECK(attrOrDefault(conv, none, "out_dtype") == str(""));
  CHECK(attrOrDefault(conv, none, "no_such_key").isNone());
}

TEST_CASE("Ops: argmax/argmin schema has TVM's ArgReduceAttrs order", "[ops][attrs]") {
  for (const char* name : {"argmax", "argmin"}) {
    std::vector<std::string> names;
    for (const AttrField& f : op(name).attrs) names.push_back(f.name);
    CHECK(names == std::vector<std::string>{"axis", "keepdims", "select_last_index", "exclude"});
  }
}

TEST_CASE("Ops: schema defaults of other ops match TVM", "[ops][attrs]") {
  using Row = std::tuple<std::string, std::string, AttrValue>;
  auto [name, key, expected] = GENERATE(table<std::string, std::string, AttrValue>({
      Row{"nn.batch_norm", "axis", AttrValue::integer(1)},
      Row{"nn.batch_norm", "epsilon", AttrValue::floating(1e-5)},
      Row{"nn.batch_norm", "center", AttrValue::boolean(true)},
      Row{"nn.batch_norm", "scale", AttrValue::boolean(true)},
      Row{"nn.batch_matmul", "transpose_b", AttrValue::boolean(true)},
      Row{"nn.batch_matmul", "transpose_a", AttrValue::boolean(false)},
      Row{"nn.max_pool2d", "layout", AttrValue::string("NCHW")},
      Row{"nn.max_pool2d", "ceil_mode", AttrValue::boolean(false)},
      Row{"nn.leaky_relu", "alpha", AttrValue::floating(0.25)},
      Row{"nn.softmax", "axis", AttrValue::integer(-1)},
      Row{"nn.bias_add", "axis", AttrValue::integer(1)},
      Row{"mean", "keepdims", AttrValue::boolean(false)},
      Row{"sum", "exclude", AttrValue::boolean(false)},
      Row{"argmax", "select_last_index", AttrValue::boolean(false)},
      Row{"argmin", "axis", AttrValue::none()},
      Row{"transpose", "axes", AttrValue::none()},
      Row{"image.resize2d", "method", AttrValue::string("linear")},
      Row{"image.resize2d", "coordinate_transformation_mode", AttrValue::string("half_pixel")},
      Row{"nn.conv2d_transpose", "kernel_layout", AttrValue::string("IOHW")},
      Row{"take", "mode", AttrValue::string("clip")},
      Row{"strided_slice", "slice_mode", AttrValue::string("end")},
      Row{"nn.pad", "pad_mode", AttrValue::string("constant")},
  }));
  CAPTURE(name, key);
  CHECK(attrOrDefault(op(name), {}, key) == expected);
}

TEST_CASE("Ops: stateful ops are the builtins that allocate or write memory, device annotations and lowered calls", "[ops]") {
  // Stateful ops are never folded: a device annotation or copy is part of the
  // plan, and call_lowered may call an external function.
  const std::set<OpId> stateful = {OpId::VmAllocStorage,     OpId::VmAllocTensor,      OpId::VmCallTir,
                                   OpId::MemoryAllocStorage, OpId::MemoryAllocTensor,  OpId::MemoryKill,
                                   OpId::VmInvokeTvmOp,      OpId::OnDevice,           OpId::DeviceCopy,
                                   OpId::CallLowered,
                                   // Relax's VM lowering: packed calls, allocations and kills.
                                   OpId::RelaxCallPacked,    OpId::BuiltinAllocTensor, OpId::RelaxMemAllocStorage,
                                   OpId::RelaxMemAllocTensor, OpId::RelaxMemKillStorage, OpId::RelaxMemKillTensor,
                                   OpId::RelaxVmAllocStorage, OpId::RelaxVmAllocTensor, OpId::RelaxVmKillObject,
                                   // VMShapeLower's heap allocation.
                                   OpId::RelaxCallBuiltinWithCtx};
  for (const OpDef& d : allOps()) {
    bool expected = stateful.count(d.id) > 0;
    CAPTURE(d.name);
    CHECK(d.stateful == expected);
  }
}

TEST_CASE("Ops: the float-math category of ops.def has one reference function per op", "[ops]") {
  size_t members = 0;
  for (const OpDef& d : allOps()) {
    CAPTURE(d.name);
    if (!isFloatMathOp(d.id)) continue;
    ++members;
    // Its function (what the interpreters compute) and its relation (floats only).
    FloatMathFn f = floatMathFunction(floatMathIntrinsic(d.id));
    REQUIRE(f != nullptr);
    std::vector<Type> ints{tensorType({4}, DTypeCode::Int32)};
    CHECK_THROWS_WITH(inferOpCallType(d, ints, {}), Catch::Contains("floating-point"));
  }
  CHECK(members == 18);
  CHECK(floatMathIntrinsic(OpId::Sigmoid) == "sigmoid");
  CHECK(floatMathIntrinsic(OpId::Relu).empty());
  CHECK(floatMathFunction("rsqrt")(4.0) == 0.5);
}

// ---- Canonicalization ------------------------------------------------------------------

TEST_CASE("Attrs: canonical form is schema order with default values removed", "[ops][attrs]") {
  AttrDict given{{"kernel_size", ints({3, 3})},
                 {"data_layout", str("NCHW")},
                 {"channels", integer(16)},
                 {"padding", ints({1, 1})},
                 {"strides", ints({1, 1})}};
  AttrDict canonical = canonicalizeAttrs(op("nn.conv2d"), given);
  REQUIRE(canonical.size() == 3);
  CHECK(canonical.entries()[0].first == "padding");
  CHECK(canonical.entries()[1].first == "channels");
  CHECK(canonical.entries()[2].first == "kernel_size");
  CHECK(attrOrDefault(op("nn.conv2d"), canonical, "strides") == ints({1, 1}));
  CHECK(attrOrDefault(op("nn.conv2d"), canonical, "channels") == integer(16));
}

TEST_CASE("Attrs: unknown key is an error naming the key and the op", "[ops][attrs]") {
  REQUIRE_THROWS_AS(canonicalizeAttrs(op("nn.conv2d"), {{"stride", ints({2, 2})}}), TypeRelationError);
  REQUIRE_THROWS_WITH(canonicalizeAttrs(op("nn.conv2d"), {{"stride", ints({2, 2})}}),
                      Contains("'stride'") && Contains("nn.conv2d"));
  REQUIRE_THROWS_WITH(canonicalizeAttrs(op("add"), {{"axis", integer(1)}}), Contains("'axis'") && Contains("add"));
}

TEST_CASE("Attrs: value of the wrong kind is an error naming the key and the op", "[ops][attrs]") {
  REQUIRE_THROWS_WITH(canonicalizeAttrs(op("nn.conv2d"), {{"groups", str("two")}}),
                      Contains("'groups'") && Contains("nn.conv2d") && Contains("an int"));
  REQUIRE_THROWS_WITH(canonicalizeAttrs(op("nn.conv2d"), {{"data_layout", integer(1)}}), Contains("'data_layout'"));
  REQUIRE_THROWS_WITH(canonicalizeAttrs(op("nn.batch_norm"), {{"epsilon", str("tiny")}}), Contains("'epsilon'"));
  // None is legal only for nullable fields.
  CHECK_NOTHROW(canonicalizeAttrs(op("nn.conv2d"), {{"channels", AttrValue::none()}}));
  REQUIRE_THROWS_WITH(canonicalizeAttrs(op("nn.conv2d"), {{"groups", AttrValue::none()}}), Contains("'groups'"));
}

TEST_CASE("Attrs: lenient kinds are converted so equal values have one spelling", "[ops][attrs]") {
  // An int where a float is expected becomes a float; epsilon=1e-5 given as default is dropped.
  AttrDict a = canonicalizeAttrs(op("nn.batch_norm"), {{"epsilon", integer(1)}, {"center", integer(1)}});
  REQUIRE(a.size() == 1);
  CHECK(a.find("epsilon")->kind() == AttrValue::Kind::Float);
  CHECK(a.find("epsilon")->asFloat() == 1.0);
  // A bool where an int is expected becomes an int.
  AttrDict g = canonicalizeAttrs(op("nn.conv2d"), {{"groups", AttrValue::boolean(true)}});
  CHECK(g.empty());  // groups=1 is the default
  // A single int where a list is expected becomes a one-element list (as TVM's Python API does).
  AttrDict m = canonicalizeAttrs(op("mean"), {{"axis", integer(1)}});
  CHECK(*m.find("axis") == ints({1}));
  // ...except where an int is meaningful on its own: split's sections.
  AttrDict s = canonicalizeAttrs(op("split"), {{"indices_or_sections", integer(3)}});
  CHECK(s.find("indices_or_sections")->kind() == AttrValue::Kind::Int);
}

TEST_CASE("Attrs: missing required attribute is an error", "[ops][attrs]") {
  REQUIRE_THROWS_WITH(canonicalizeAttrs(op("reshape"), {}), Contains("reshape") && Contains("'newshape'"));
  REQUIRE_THROWS_WITH(canonicalizeAttrs(op("clip"), {{"a_min", integer(0)}}), Contains("'a_max'"));
  // Required attributes are kept even when they look like a default value.
  AttrDict c = canonicalizeAttrs(op("clip"), {{"a_min", integer(0)}, {"a_max", integer(6)}});
  CHECK(c.size() == 2);
}

TEST_CASE("Attrs: makeOpCall canonicalizes and reports bad attributes at the call's span", "[ops][attrs]") {
  Var x = makeVar("x", f32({1, 4}));
  Expr call = makeOpCall(OpId::Softmax, {x}, {{"axis", integer(-1)}});
  CHECK(as<CallNode>(call)->attrs.empty());
  Span span;
  span.line = 7;
  span.column = 3;
  try {
    makeOpCall(OpId::Softmax, {x}, {{"dim", integer(1)}}, span);
    FAIL("expected an error");
  } catch (const DiagnosticError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].span.line == 7);
    CHECK_THAT(e.diagnostics()[0].message, Contains("'dim'") && Contains("nn.softmax"));
  }
}

// ---- Relations: elementwise --------------------------------------------------------

TEST_CASE("Types: broadcasting follows NumPy rules", "[ops][types]") {
  using Row = std::tuple<std::vector<int64_t>, std::vector<int64_t>, std::string>;
  auto [a, b, expected] = GENERATE(table<std::vector<int64_t>, std::vector<int64_t>, std::string>({
      Row{{1, 3}, {1, 3}, "Tensor[(1, 3), float32]"},
      Row{{4, 1}, {1, 5}, "Tensor[(4, 5), float32]"},
      Row{{2, 3, 4}, {4}, "Tensor[(2, 3, 4), float32]"},
      Row{{}, {2, 2}, "Tensor[(2, 2), float32]"},
      Row{{8, 1, 6, 1}, {7, 1, 5}, "Tensor[(8, 7, 6, 5), float32]"},
      Row{{-1, 3}, {1, 3}, "Tensor[(?, 3), float32]"},
      Row{{-1, 3}, {5, 3}, "Tensor[(5, 3), float32]"},
  }));
  for (const char* name : {"add", "subtract", "multiply", "divide", "power", "maximum", "minimum"})
    CHECK(infer(name, {f32(a), f32(b)}) == expected);
}

TEST_CASE("Types: add of incompatible shapes names both shapes", "[ops][types]") {
  REQUIRE_THROWS_WITH(infer("add", {f32({2, 3}), f32({4, 3})}),
                      Contains("add") && Contains("(2, 3)") && Contains("(4, 3)"));
}

TEST_CASE("Types: dtype mismatch between arguments is an error", "[ops][types]") {
  REQUIRE_THROWS_WITH(infer("multiply", {f32({2}), f16({2})}), Contains("float32") && Contains("float16"));
  REQUIRE_THROWS_WITH(infer("nn.conv2d", {f32({1, 3, 8, 8}), f16({4, 3, 3, 3})}), Contains("dtype"));
  REQUIRE_THROWS_WITH(infer("nn.dense", {f16({1, 8}), f32({4, 8})}), Contains("dtype"));
}

TEST_CASE("Types: comparisons give bool, where broadcasts three ways", "[ops][types]") {
  for (const char* name : {"equal", "less", "greater"}) CHECK(infer(name, {i32({2, 1}), i32({3})}) == "Tensor[(2, 3), bool]");
  CHECK(infer("where", {boolean({2, 1}), f32({1, 3}), f32({})}) == "Tensor[(2, 3), float32]");
  REQUIRE_THROWS_WITH(infer("where", {f32({2}), f32({2}), f32({2})}), Contains("condition must be bool"));
  REQUIRE_THROWS_WITH(infer("where", {boolean({2}), f32({2}), f16({2})}), Contains("dtype"));
}

TEST_CASE("Types: unary ops keep the type; transcendental ones need floats", "[ops][types]") {
  for (const char* name : {"negative", "abs", "round", "floor", "ceil", "nn.relu"}) {
    CHECK(infer(name, {f16({3, 5})}) == "Tensor[(3, 5), float16]");
    CHECK(infer(name, {i32({2})}) == "Tensor[(2), int32]");
  }
  for (const char* name : {"exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "sin", "cos", "tan", "asin", "acos", "atan",
                           "sinh", "cosh", "asinh", "acosh", "atanh"}) {
    CHECK(infer(name, {f32({7})}) == "Tensor[(7), float32]");
    REQUIRE_THROWS_WITH(infer(name, {i32({7})}), Contains(name) && Contains("floating-point"));
  }
  CHECK(infer("nn.leaky_relu", {f32({2, 2})}, {{"alpha", AttrValue::floating(0.1)}}) == "Tensor[(2, 2), float32]");
  REQUIRE_THROWS_WITH(infer("negative", {tupleType({f32({1})})}), Contains("tensor"));
}

TEST_CASE("Types: clip checks its bounds, cast changes the dtype", "[ops][types]") {
  CHECK(infer("clip", {f32({4})}, {{"a_min", integer(0)}, {"a_max", integer(6)}}) == "Tensor[(4), float32]");
  REQUIRE_THROWS_WITH(infer("clip", {f32({4})}, {{"a_min", integer(6)}, {"a_max", integer(0)}}), Contains("a_min"));
  CHECK(infer("cast", {f32({2, 3})}, {{"dtype", str("float16")}}) == "Tensor[(2, 3), float16]");
  CHECK(infer("cast", {f32({})}, {{"dtype", str("int8")}}) == "int8");
  REQUIRE_THROWS_WITH(infer("cast", {f32({2})}, {{"dtype", str("float8")}}), Contains("unknown dtype") && Contains("float8"));
}

TEST_CASE("Types: argument count is checked", "[ops][types]") {
  REQUIRE_THROWS_WITH(infer("add", {f32({1})}), Contains("add") && Contains("expects 2 arguments, got 1"));
  REQUIRE_THROWS_WITH(infer("nn.relu", {f32({1}), f32({1})}), Contains("expects 1 argument, got 2"));
}

// ---- Relations: reductions and constructors ---------------------------------------------

TEST_CASE("Types: reductions with axis, keepdims and exclude", "[ops][types]") {
  Type x = f32({2, 3, 4});
  CHECK(infer("sum", {x}) == "float32");
  CHECK(infer("mean", {x}, {{"axis", ints({1})}}) == "Tensor[(2, 4), float32]");
  CHECK(infer("max", {x}, {{"axis", ints({-1})}, {"keepdims", AttrValue::boolean(true)}}) == "Tensor[(2, 3, 1), float32]");
  CHECK(infer("min", {x}, {{"axis", ints({1})}, {"exclude", AttrValue::boolean(true)}}) == "Tensor[(3), float32]");
  CHECK(infer("prod", {x}, {{"axis", ints({0})}}) == "Tensor[(3, 4), float32]");
  // argmax/argmin give int32 positions (TVM's ArgReduceRel), whatever the data dtype.
  CHECK(infer("argmax", {x}, {{"axis", ints({1})}}) == "Tensor[(2, 4), int32]");
  CHECK(infer("argmin", {f16({2, 3})}, {{"axis", ints({0})}, {"keepdims", AttrValue::boolean(true)}}) == "Tensor[(1, 3), int32]");
  CHECK(infer("argmax", {x}) == "int32");
  REQUIRE_THROWS_WITH(infer("argmin", {x}, {{"axis", ints({3})}}), Contains("axis 3"));
  CHECK(infer("sum", {x}, {{"axis", ints({0, 2})}, {"keepdims", AttrValue::boolean(true)}}) == "Tensor[(1, 3, 1), float32]");
  REQUIRE_THROWS_WITH(infer("sum", {x}, {{"axis", ints({3})}}), Contains("axis 3") && Contains("rank 3"));
  REQUIRE_THROWS_WITH(infer("sum", {x}, {{"axis", ints({1, -2})}}), Contains("twice"));
}

TEST_CASE("Types: zeros, ones, full and shape_of", "[ops][types]") {
  CHECK(infer("zeros", {}, {{"shape", ints({2, 3})}, {"dtype", str("float16")}}) == "Tensor[(2, 3), float16]");
  CHECK(infer("ones", {}, {{"shape", ints({})}, {"dtype", str("int32")}}) == "int32");
  CHECK(infer("full", {f16({})}, {{"shape", ints({4})}}) == "Tensor[(4), float16]");
  CHECK(infer("full", {f32({})}, {{"shape", ints({4})}, {"dtype", str("int8")}}) == "Tensor[(4), int8]");
  REQUIRE_THROWS_WITH(infer("full", {f32({2})}, {{"shape", ints({4})}}), Contains("scalar"));
  REQUIRE_THROWS_WITH(infer("zeros", {}, {{"shape", ints({-2})}, {"dtype", str("float32")}}), Contains("negative"));
  CHECK(infer("shape_of", {f32({1, 3, 224, 224})}) == "Tensor[(4), int64]");
  CHECK(infer("shape_of", {f32({5})}, {{"dtype", str("int32")}}) == "Tensor[(1), int32]");
}

// ---- Relations: later-phase calls -------------------------------------------------------

TEST_CASE("Types: call_tir takes its result type from out_shape/out_dtype", "[ops][types]") {
  Type prim = funcType({f32({2, 3}), f32({2, 3})}, unitType());
  CHECK(infer("call_tir", {prim, tupleType({f32({2, 3})})}, {{"out_shape", ints({2, 3})}, {"out_dtype", str("float32")}}) ==
        "Tensor[(2, 3), float32]");
  // Tuple outputs: a list of shapes and a list of dtypes.
  Type prim2 = funcType({f32({4}), f32({2}), i32({2})}, unitType());
  AttrDict two{{"out_shape", AttrValue::array({ints({2}), ints({2})})},
               {"out_dtype", AttrValue::array({str("float32"), str("int32")})}};
  CHECK(infer("call_tir", {prim2, tupleType({f32({4})})}, two) == "(Tensor[(2), float32], Tensor[(2), int32])");
  // The callee must take inputs then outputs.
  REQUIRE_THROWS_WITH(infer("call_tir", {prim, tupleType({f32({2, 3}), f32({2, 3})})},
                            {{"out_shape", ints({2, 3})}, {"out_dtype", str("float32")}}),
                      Contains("takes 2 parameters"));
  REQUIRE_THROWS_WITH(infer("call_tir", {prim, tupleType({f16({2, 3})})}, {{"out_shape", ints({2, 3})}, {"out_dtype", str("float32")}}),
                      Contains("input 0"));
  REQUIRE_THROWS_WITH(infer("call_tir", {prim, tupleType({f32({2, 3})})}, {{"out_shape", ints({3, 2})}, {"out_dtype", str("float32")}}),
                      Contains("output 0"));
}

TEST_CASE("Types: packed calls, closures and vm builtins", "[ops][types]") {
  AttrDict out{{"out_shape", ints({8})}, {"out_dtype", str("float16")}};
  CHECK(infer("call_dps_packed", {funcType({}, unitType()), tupleType({f16({8})})}, out) == "Tensor[(8), float16]");
  CHECK(infer("call_pure_packed", {funcType({}, unitType()), f16({8}), f16({8})}, out) == "Tensor[(8), float16]");
  Type closure = funcType({f16({8})}, f16({8}));
  CHECK(infer("invoke_pure_closure", {closure, tupleType({f16({8})})}, out) == "Tensor[(8), float16]");
  REQUIRE_THROWS_WITH(infer("invoke_pure_closure", {closure, tupleType({f32({8})})}, out), Contains("closure expects"));
  CHECK(infer("vm.builtin.alloc_storage", {}, {{"size", integer(64)}}) == "Tensor[(64), uint8]");
  Type storage = tensorType({64}, DTypeCode::UInt8);
  CHECK(infer("vm.builtin.alloc_tensor", {storage}, {{"shape", ints({4, 4})}, {"dtype", str("float32")}}) ==
        "Tensor[(4, 4), float32]");
  REQUIRE_THROWS_WITH(infer("vm.builtin.alloc_tensor", {storage}, {{"offset", integer(8)}, {"shape", ints({4, 4})}, {"dtype", str("float32")}}),
                      Contains("does not fit"));
  CHECK(infer("vm.builtin.call_tir", {funcType({f32({4}), f32({4})}, unitType()), tupleType({f32({4}), f32({4})})}) == "()");
}

// ---- Relations: neural-network ops --------------------------------------------------------

TEST_CASE("Types: conv2d in every supported layout", "[ops][types][conv]") {
  using Row = std::tuple<std::string, std::string, std::vector<int64_t>, std::vector<int64_t>, std::string>;
  auto [dl, kl, data, weight, expected] = GENERATE(table<std::string, std::string, std::vector<int64_t>, std::vector<int64_t>, std::string>({
      Row{"NCHW", "OIHW", {1, 3, 32, 32}, {16, 3, 3, 3}, "Tensor[(1, 16, 32, 32), float32]"},
      Row{"NHWC", "HWIO", {1, 32, 32, 3}, {3, 3, 3, 16}, "Tensor[(1, 32, 32, 16), float32]"},
      Row{"NHWC", "OHWI", {1, 32, 32, 3}, {16, 3, 3, 3}, "Tensor[(1, 32, 32, 16), float32]"},
      Row{"NCHW", "HWIO", {2, 3, 32, 32}, {3, 3, 3, 16}, "Tensor[(2, 16, 32, 32), float32]"},
  }));
  CAPTURE(dl, kl);
  AttrDict attrs{{"padding", ints({1, 1})}, {"data_layout", str(dl)}, {"kernel_layout", str(kl)}};
  CHECK(infer("nn.conv2d", {f32(data), f32(weight)}, attrs) == expected);
}

TEST_CASE("Types: conv2d with strides, dilation, asymmetric padding and groups", "[ops][types][conv]") {
  CHECK(infer("nn.conv2d", {f32({1, 3, 224, 224}), f32({64, 3, 7, 7})}, {{"strides", ints({2, 2})}, {"padding", ints({3, 3})}}) ==
        "Tensor[(1, 64, 112, 112), float32]");
  CHECK(infer("nn.conv2d", {f32({1, 8, 16, 16}), f32({8, 8, 3, 3})}, {{"dilation", ints({2, 2})}}) ==
        "Tensor[(1, 8, 12, 12), float32]");
  // 4-value padding: top, left, bottom, right.
  CHECK(infer("nn.conv2d", {f32({1, 1, 10, 10}), f32({1, 1, 3, 3})}, {{"padding", ints({0, 1, 2, 3})}}) ==
        "Tensor[(1, 1, 10, 12), float32]");
  // Depthwise: groups = channels, weight I = 1.
  CHECK(infer("nn.conv2d", {f32({1, 32, 14, 14}), f32({32, 1, 3, 3})}, {{"padding", ints({1, 1})}, {"groups", integer(32)}}) ==
        "Tensor[(1, 32, 14, 14), float32]");
  CHECK(infer("nn.conv2d", {f16({1, 3, 8, 8}), f16({4, 3, 1, 1})}, {{"out_dtype", str("float32")}}) == "Tensor[(1, 4, 8, 8), float32]");
  CHECK(infer("nn.conv2d", {f32({1, 3, 8, 8}), f32({4, 3, 1, 1})}, {{"out_layout", str("NHWC")}}) == "Tensor[(1, 8, 8, 4), float32]");
  CHECK(infer("nn.conv2d", {f32({-1, 3, 8, 8}), f32({4, 3, 3, 3})}) == "Tensor[(?, 4, 6, 6), float32]");
}

TEST_CASE("Types: conv2d errors name the shapes involved", "[ops][types][conv]") {
  REQUIRE_THROWS_WITH(infer("nn.conv2d", {f32({1, 3, 32, 32}), f32({16, 4, 3, 3})}),
                      Contains("nn.conv2d") && Contains("Tensor[(1, 3, 32, 32), float32]") && Contains("Tensor[(16, 4, 3, 3), float32]"));
  REQUIRE_THROWS_WITH(infer("nn.conv2d", {f32({1, 3, 32}), f32({16, 3, 3, 3})}), Contains("4-d"));
  REQUIRE_THROWS_WITH(infer("nn.conv2d", {f32({1, 3, 2, 2}), f32({16, 3, 3, 3})}), Contains("does not fit"));
  REQUIRE_THROWS_WITH(infer("nn.conv2d", {f32({1, 3, 8, 8}), f32({16, 3, 3, 3})}, {{"channels", integer(8)}}), Contains("channels=8"));
  REQUIRE_THROWS_WITH(infer("nn.conv2d", {f32({1, 3, 8, 8}), f32({16, 3, 3, 3})}, {{"kernel_size", ints({5, 5})}}), Contains("kernel_size"));
  REQUIRE_THROWS_WITH(infer("nn.conv2d", {f32({1, 3, 8, 8}), f32({16, 3, 3, 3})}, {{"padding", ints({1, 1, 1})}}), Contains("1, 2 or 4"));
  REQUIRE_THROWS_WITH(infer("nn.conv2d", {f32({1, 3, 8, 8}), f32({16, 3, 3, 3})}, {{"data_layout", str("NCWH4")}}), Contains("data_layout"));
  REQUIRE_THROWS_WITH(infer("nn.conv2d", {f32({1, 4, 8, 8}), f32({6, 1, 3, 3})}, {{"groups", integer(4)}}), Contains("divisible"));
}

TEST_CASE("Types: conv2d_transpose", "[ops][types][conv]") {
  // IOHW (TVM's default): weight [in, out/groups, kh, kw].
  CHECK(infer("nn.conv2d_transpose", {f32({1, 16, 8, 8}), f32({16, 8, 4, 4})},
              {{"strides", ints({2, 2})}, {"padding", ints({1, 1})}}) == "Tensor[(1, 8, 16, 16), float32]");
  CHECK(infer("nn.conv2d_transpose", {f32({1, 16, 8, 8}), f32({16, 8, 3, 3})},
              {{"strides", ints({2, 2})}, {"padding", ints({1, 1})}, {"output_padding", ints({1, 1})}}) ==
        "Tensor[(1, 8, 16, 16), float32]");
  CHECK(infer("nn.conv2d_transpose", {f32({1, 4, 5, 5}), f32({8, 4, 3, 3})}, {{"kernel_layout", str("OIHW")}}) ==
        "Tensor[(1, 8, 7, 7), float32]");
  REQUIRE_THROWS_WITH(infer("nn.conv2d_transpose", {f32({1, 16, 8, 8}), f32({8, 8, 4, 4})}), Contains("input channels 16"));
}

TEST_CASE("Types: dense, matmul and batch_matmul", "[ops][types]") {
  CHECK(infer("nn.dense", {f32({4, 128}), f32({10, 128})}) == "Tensor[(4, 10), float32]");
  CHECK(infer("nn.dense", {f32({2, 3, 128}), f32({10, 128})}, {{"units", integer(10)}}) == "Tensor[(2, 3, 10), float32]");
  REQUIRE_THROWS_WITH(infer("nn.dense", {f32({4, 128}), f32({10, 64})}), Contains("(4, 128)") && Contains("(10, 64)"));
  REQUIRE_THROWS_WITH(infer("nn.dense", {f32({4, 128}), f32({10, 128})}, {{"units", integer(5)}}), Contains("units=5"));
  CHECK(infer("nn.matmul", {f32({4, 8}), f32({8, 3})}) == "Tensor[(4, 3), float32]");
  CHECK(infer("nn.matmul", {f32({4, 8}), f32({3, 8})}, {{"transpose_b", AttrValue::boolean(true)}}) == "Tensor[(4, 3), float32]");
  CHECK(infer("nn.matmul", {f32({8, 4}), f32({8, 3})}, {{"transpose_a", AttrValue::boolean(true)}}) == "Tensor[(4, 3), float32]");
  REQUIRE_THROWS_WITH(infer("nn.matmul", {f32({4, 8}), f32({3, 8})}), Contains("reduction"));
  // transpose_b defaults to True as in TVM: y is [batch, N, K].
  CHECK(infer("nn.batch_matmul", {f32({2, 4, 8}), f32({2, 5, 8})}) == "Tensor[(2, 4, 5), float32]");
  CHECK(infer("nn.batch_matmul", {f32({2, 4, 8}), f32({1, 8, 5})}, {{"transpose_b", AttrValue::boolean(false)}}) ==
        "Tensor[(2, 4, 5), float32]");
  REQUIRE_THROWS_WITH(infer("nn.batch_matmul", {f32({2, 4, 8}), f32({3, 5, 8})}), Contains("batch"));
  REQUIRE_THROWS_WITH(infer("nn.batch_matmul", {f32({2, 4, 8}), f32({2, 5, 7})}), Contains("reduction"));
}

TEST_CASE("Types: bias_add, batch_norm, layer_norm and group_norm", "[ops][types]") {
  CHECK(infer("nn.bias_add", {f32({1, 16, 8, 8}), f32({16})}) == "Tensor[(1, 16, 8, 8), float32]");
  CHECK(infer("nn.bias_add", {f32({1, 8, 8, 16}), f32({16})}, {{"axis", integer(-1)}}) == "Tensor[(1, 8, 8, 16), float32]");
  REQUIRE_THROWS_WITH(infer("nn.bias_add", {f32({1, 16, 8, 8}), f32({8})}), Contains("bias") && Contains("(16)"));
  Type c = f32({16});
  CHECK(infer("nn.batch_norm", {f32({1, 16, 8, 8}), c, c, c, c}) ==
        "(Tensor[(1, 16, 8, 8), float32], Tensor[(16), float32], Tensor[(16), float32])");
  REQUIRE_THROWS_WITH(infer("nn.batch_norm", {f32({1, 16, 8, 8}), c, c, f32({8}), c}), Contains("moving_mean"));
  CHECK(infer("nn.layer_norm", {f32({2, 5, 32}), f32({32}), f32({32})}) == "Tensor[(2, 5, 32), float32]");
  REQUIRE_THROWS_WITH(infer("nn.layer_norm", {f32({2, 5, 32}), f32({5}), f32({32})}), Contains("gamma"));
  AttrDict gn{{"num_groups", integer(4)}, {"channel_axis", integer(1)}, {"axes", ints({2, 3})}};
  CHECK(infer("nn.group_norm", {f32({1, 16, 8, 8}), c, c}, gn) == "Tensor[(1, 16, 8, 8), float32]");
  REQUIRE_THROWS_WITH(infer("nn.group_norm", {f32({1, 16, 8, 8}), f32({8}), c}, gn), Contains("gamma"));
  gn.set("num_groups", integer(5));
  REQUIRE_THROWS_WITH(infer("nn.group_norm", {f32({1, 16, 8, 8}), c, c}, gn), Contains("divisible by 5"));
}

TEST_CASE("Types: pools and softmax", "[ops][types]") {
  AttrDict p{{"pool_size", ints({3, 3})}, {"strides", ints({2, 2})}, {"padding", ints({1, 1})}};
  CHECK(infer("nn.max_pool2d", {f32({1, 64, 112, 112})}, p) == "Tensor[(1, 64, 56, 56), float32]");
  CHECK(infer("nn.avg_pool2d", {f32({1, 64, 112, 112})}, p) == "Tensor[(1, 64, 56, 56), float32]");
  CHECK(infer("nn.max_pool2d", {f32({1, 8, 8, 3})}, {{"pool_size", ints({2, 2})}, {"strides", ints({2, 2})}, {"layout", str("NHWC")}}) ==
        "Tensor[(1, 4, 4, 3), float32]");
  // ceil_mode rounds the window count up.
  CHECK(infer("nn.max_pool2d", {f32({1, 1, 6, 6})}, {{"pool_size", ints({3, 3})}, {"strides", ints({2, 2})}}) == "Tensor[(1, 1, 2, 2), float32]");
  CHECK(infer("nn.max_pool2d", {f32({1, 1, 6, 6})}, {{"pool_size", ints({3, 3})}, {"strides", ints({2, 2})}, {"ceil_mode", AttrValue::boolean(true)}}) ==
        "Tensor[(1, 1, 3, 3), float32]");
  CHECK(infer("nn.global_avg_pool2d", {f32({1, 512, 7, 7})}) == "Tensor[(1, 512, 1, 1), float32]");
  CHECK(infer("nn.global_avg_pool2d", {f32({1, 7, 7, 512})}, {{"layout", str("NHWC")}}) == "Tensor[(1, 1, 1, 512), float32]");
  CHECK(infer("nn.softmax", {f32({2, 10})}) == "Tensor[(2, 10), float32]");
  REQUIRE_THROWS_WITH(infer("nn.softmax", {f32({2, 10})}, {{"axis", integer(2)}}), Contains("axis 2"));
  REQUIRE_THROWS_WITH(infer("nn.max_pool2d", {f32({1, 1, 6, 6})}, {{"pool_size", ints({1, 2, 3})}}), Contains("pool_size"));
}

TEST_CASE("Types: pad with the value as argument or attribute", "[ops][types]") {
  AttrValue widths = AttrValue::array({ints({0, 0}), ints({0, 0}), ints({1, 1}), ints({2, 0})});
  CHECK(infer("nn.pad", {f32({1, 3, 4, 4}), f32({})}, {{"pad_width", widths}}) == "Tensor[(1, 3, 6, 6), float32]");
  CHECK(infer("nn.pad", {f32({1, 3, 4, 4})}, {{"pad_width", widths}, {"pad_value", AttrValue::floating(1)}}) ==
        "Tensor[(1, 3, 6, 6), float32]");
  REQUIRE_THROWS_WITH(infer("nn.pad", {f32({1, 3, 4, 4}), f32({})}, {{"pad_width", widths}, {"pad_value", AttrValue::floating(1)}}),
                      Contains("both"));
  REQUIRE_THROWS_WITH(infer("nn.pad", {f32({1, 3})}, {{"pad_width", widths}}), Contains("pair per dimension"));
  REQUIRE_THROWS_WITH(infer("nn.pad", {f32({4}), f32({2})}, {{"pad_width", AttrValue::array({ints({1, 1})})}}), Contains("scalar"));
  REQUIRE_THROWS_WITH(infer("nn.pad", {f32({4})}, {{"pad_width", AttrValue::array({ints({1, 1})})}, {"pad_mode", str("wrap")}}),
                      Contains("pad_mode"));
}

TEST_CASE("Types: image.resize2d", "[ops][types]") {
  CHECK(infer("image.resize2d", {f32({1, 3, 16, 16})}, {{"size", ints({32, 24})}}) == "Tensor[(1, 3, 32, 24), float32]");
  CHECK(infer("image.resize2d", {f32({1, 16, 16, 3})}, {{"size", ints({8, 8})}, {"layout", str("NHWC")}}) == "Tensor[(1, 8, 8, 3), float32]");
  REQUIRE_THROWS_WITH(infer("image.resize2d", {f32({1, 3, 16, 16})}, {{"size", ints({8})}}), Contains("size"));
  REQUIRE_THROWS_WITH(infer("image.resize2d", {f32({1, 3, 16, 16})}, {{"size", ints({8, 8})}, {"method", str("bicubic")}}),
                      Contains("method"));
}

// ---- Relations: data movement ------------------------------------------------------------

TEST_CASE("Types: reshape with TVM's special values", "[ops][types][reshape]") {
  using Row = std::tuple<std::vector<int64_t>, std::vector<int64_t>, std::string>;
  auto [in, spec, expected] = GENERATE(table<std::vector<int64_t>, std::vector<int64_t>, std::string>({
      Row{{2, 3, 4}, {6, 4}, "Tensor[(6, 4), float32]"},
      Row{{2, 3, 4}, {-1}, "Tensor[(24), float32]"},
      Row{{2, 3, 4}, {0, -1}, "Tensor[(2, 12), float32]"},
      Row{{2, 3, 4}, {4, 0, 2}, "Tensor[(4, 3, 2), float32]"},
      Row{{2, 3, 4}, {-2}, "Tensor[(2, 3, 4), float32]"},
      Row{{2, 3, 4}, {2, -2}, "Tensor[(2, 3, 4), float32]"},
      Row{{2, 3, 4}, {-3, 4}, "Tensor[(6, 4), float32]"},
      Row{{2, 3, 4}, {2, -3}, "Tensor[(2, 12), float32]"},
      Row{{2, 3, 4}, {-4, 1, 2, -2}, "Tensor[(1, 2, 3, 4), float32]"},
      Row{{2, 3, 4}, {2, 3, -4, -1, 2}, "Tensor[(2, 3, 2, 2), float32]"},
      Row{{1, 512, 1, 1}, {0, -1}, "Tensor[(1, 512), float32]"},
      Row{{-1, 4}, {-1, 2}, "Tensor[(?, 2), float32]"},
  }));
  CAPTURE(spec);
  CHECK(infer("reshape", {f32(in)}, {{"newshape", ints(spec)}}) == expected);
}

TEST_CASE("Types: reshape errors", "[ops][types][reshape]") {
  REQUIRE_THROWS_WITH(infer("reshape", {f32({2, 3})}, {{"newshape", ints({4, 2})}}),
                      Contains("Tensor[(2, 3), float32]") && Contains("6 elements") && Contains("(4, 2)"));
  REQUIRE_THROWS_WITH(infer("reshape", {f32({2, 3})}, {{"newshape", ints({-1, -1})}}), Contains("more than one -1"));
  REQUIRE_THROWS_WITH(infer("reshape", {f32({2, 3})}, {{"newshape", ints({-1, 4})}}), Contains("do not divide"));
  REQUIRE_THROWS_WITH(infer("reshape", {f32({2, 3})}, {{"newshape", ints({-4, 4, -1, 3})}}), Contains("cannot split"));
  REQUIRE_THROWS_WITH(infer("reshape", {f32({2, 3})}, {{"newshape", ints({0, 0, 0})}}), Contains("beyond the rank"));
  REQUIRE_THROWS_WITH(infer("reshape", {f32({2, 3})}, {{"newshape", ints({-7})}}), Contains("invalid value -7"));
}

TEST_CASE("Types: transpose, squeeze, expand_dims", "[ops][types]") {
  CHECK(infer("transpose", {f32({1, 2, 3})}) == "Tensor[(3, 2, 1), float32]");
  CHECK(infer("transpose", {f32({1, 2, 3, 4})}, {{"axes", ints({0, 2, 3, 1})}}) == "Tensor[(1, 3, 4, 2), float32]");
  CHECK(infer("transpose", {f32({1, 2, 3})}, {{"axes", ints({-1, 0, 1})}}) == "Tensor[(3, 1, 2), float32]");
  REQUIRE_THROWS_WITH(infer("transpose", {f32({1, 2, 3})}, {{"axes", ints({0, 0, 1})}}), Contains("permutation"));
  REQUIRE_THROWS_WITH(infer("transpose", {f32({1, 2, 3})}, {{"axes", ints({0, 1})}}), Contains("all 3"));
  CHECK(infer("squeeze", {f32({1, 3, 1, 2})}) == "Tensor[(3, 2), float32]");
  CHECK(infer("squeeze", {f32({1, 3, 1, 2})}, {{"axis", ints({2})}}) == "Tensor[(1, 3, 2), float32]");
  REQUIRE_THROWS_WITH(infer("squeeze", {f32({1, 3})}, {{"axis", ints({1})}}), Contains("extent is 3"));
  CHECK(infer("expand_dims", {f32({3, 4})}, {{"axis", integer(0)}}) == "Tensor[(1, 3, 4), float32]");
  CHECK(infer("expand_dims", {f32({3, 4})}, {{"axis", integer(-1)}, {"num_newaxis", integer(2)}}) == "Tensor[(3, 4, 1, 1), float32]");
  CHECK(infer("expand_dims", {f32({3, 4})}, {{"axis", integer(2)}}) == "Tensor[(3, 4, 1), float32]");
  REQUIRE_THROWS_WITH(infer("expand_dims", {f32({3, 4})}, {{"axis", integer(4)}}), Contains("out of range"));
}

TEST_CASE("Types: concatenate takes a tuple", "[ops][types]") {
  CHECK(infer("concatenate", {tupleType({f32({1, 2, 4}), f32({1, 3, 4})})}, {{"axis", integer(1)}}) == "Tensor[(1, 5, 4), float32]");
  CHECK(infer("concatenate", {tupleType({f32({2}), f32({3}), f32({4})})}) == "Tensor[(9), float32]");
  REQUIRE_THROWS_WITH(infer("concatenate", {tupleType({f32({1, 2}), f32({2, 2})})}, {{"axis", integer(1)}}),
                      Contains("(1, 2)") && Contains("(2, 2)"));
  REQUIRE_THROWS_WITH(infer("concatenate", {tupleType({f32({2}), i32({2})})}), Contains("dtype"));
  REQUIRE_THROWS_WITH(infer("concatenate", {f32({2})}), Contains("tuple"));
}

TEST_CASE("Types: split into sections or at indices returns a tuple", "[ops][types]") {
  CHECK(infer("split", {f32({6, 4})}, {{"indices_or_sections", integer(3)}}) ==
        "(Tensor[(2, 4), float32], Tensor[(2, 4), float32], Tensor[(2, 4), float32])");
  CHECK(infer("split", {f32({6, 10})}, {{"indices_or_sections", ints({2, 7})}, {"axis", integer(1)}}) ==
        "(Tensor[(6, 2), float32], Tensor[(6, 5), float32], Tensor[(6, 3), float32])");
  REQUIRE_THROWS_WITH(infer("split", {f32({7})}, {{"indices_or_sections", integer(2)}}), Contains("equal sections"));
  REQUIRE_THROWS_WITH(infer("split", {f32({7})}, {{"indices_or_sections", ints({5, 3})}}), Contains("increasing"));
}

TEST_CASE("Types: strided_slice as TVM computes it", "[ops][types]") {
  using Row = std::tuple<std::vector<int64_t>, std::vector<int64_t>, std::vector<int64_t>, std::string>;
  auto [begin, end, strides, expected] = GENERATE(table<std::vector<int64_t>, std::vector<int64_t>, std::vector<int64_t>, std::string>({
      Row{{0, 0}, {2, 3}, {1, 1}, "Tensor[(2, 3, 6), float32]"},
      Row{{1}, {4}, {1}, "Tensor[(3, 5, 6), float32]"},
      Row{{0, 0, 0}, {4, 5, 6}, {2, 2, 2}, "Tensor[(2, 3, 3), float32]"},
      Row{{-1}, {-5}, {-1}, "Tensor[(4, 5, 6), float32]"},
      Row{{0}, {2147483647}, {1}, "Tensor[(4, 5, 6), float32]"},
      Row{{3}, {1}, {1}, "Tensor[(0, 5, 6), float32]"},
      Row{{0, 1}, {4, -1}, {1, 1}, "Tensor[(4, 3, 6), float32]"},
  }));
  CAPTURE(begin, end, strides);
  CHECK(infer("strided_slice", {f32({4, 5, 6})}, {{"begin", ints(begin)}, {"end", ints(end)}, {"strides", ints(strides)}}) == expected);
}

TEST_CASE("Types: strided_slice with axes and size mode", "[ops][types]") {
  CHECK(infer("strided_slice", {f32({4, 5, 6})}, {{"begin", ints({1})}, {"end", ints({3})}, {"axes", ints({2})}}) ==
        "Tensor[(4, 5, 2), float32]");
  CHECK(infer("strided_slice", {f32({4, 5, 6})}, {{"begin", ints({1, 2})}, {"end", ints({2, -1})}, {"slice_mode", str("size")}}) ==
        "Tensor[(2, 3, 6), float32]");
  REQUIRE_THROWS_WITH(infer("strided_slice", {f32({4})}, {{"begin", ints({0})}, {"end", ints({2})}, {"strides", ints({0})}}),
                      Contains("0"));
  REQUIRE_THROWS_WITH(infer("strided_slice", {f32({4})}, {{"begin", ints({0, 0})}, {"end", ints({2, 2})}}), Contains("rank 1"));
}

TEST_CASE("Types: take along an axis or on the flattened data", "[ops][types]") {
  CHECK(infer("take", {f32({10, 4}), i32({3})}, {{"axis", integer(0)}}) == "Tensor[(3, 4), float32]");
  CHECK(infer("take", {f32({10, 4}), i64({2, 3})}, {{"axis", integer(1)}}) == "Tensor[(10, 2, 3), float32]");
  CHECK(infer("take", {f32({10, 4}), i32({5})}) == "Tensor[(5), float32]");
  CHECK(infer("take", {f32({2, 10, 4}), i32({2, 3})}, {{"axis", integer(1)}, {"batch_dims", integer(1)}}) ==
        "Tensor[(2, 3, 4), float32]");
  REQUIRE_THROWS_WITH(infer("take", {f32({10, 4}), f32({3})}, {{"axis", integer(0)}}), Contains("integers"));
  REQUIRE_THROWS_WITH(infer("take", {f32({10, 4}), i32({3})}, {{"mode", str("nearest")}}), Contains("mode"));
}

TEST_CASE("Types: layout_transform between plain and blocked layouts", "[ops][types]") {
  using Row = std::tuple<std::string, std::string, std::vector<int64_t>, std::string>;
  auto [src, dst, shape, expected] = GENERATE(table<std::string, std::string, std::vector<int64_t>, std::string>({
      Row{"NCHW", "NHWC", {1, 3, 8, 9}, "Tensor[(1, 8, 9, 3), float32]"},
      Row{"NHWC", "NCHW", {1, 8, 9, 3}, "Tensor[(1, 3, 8, 9), float32]"},
      Row{"OIHW", "HWIO", {16, 3, 3, 5}, "Tensor[(3, 5, 3, 16), float32]"},
      Row{"NCHW", "NCHW4c", {1, 16, 8, 8}, "Tensor[(1, 4, 8, 8, 4), float32]"},
      Row{"NCHW4c", "NCHW", {1, 4, 8, 8, 4}, "Tensor[(1, 16, 8, 8), float32]"},
      Row{"NCHW4c", "NCHW8c", {1, 4, 8, 8, 4}, "Tensor[(1, 2, 8, 8, 8), float32]"},
  }));
  CAPTURE(src, dst);
  CHECK(infer("layout_transform", {f32(shape)}, {{"src_layout", str(src)}, {"dst_layout", str(dst)}}) == expected);
}

TEST_CASE("Types: layout_transform errors", "[ops][types]") {
  auto lt = [](std::string src, std::string dst, std::vector<int64_t> shape) {
    return infer("layout_transform", {f32(std::move(shape))}, {{"src_layout", str(std::move(src))}, {"dst_layout", str(std::move(dst))}});
  };
  REQUIRE_THROWS_WITH(lt("NCHW", "NCHW4c", {1, 6, 8, 8}), Contains("does not split by 4"));
  REQUIRE_THROWS_WITH(lt("NCHW", "NCDHW", {1, 6, 8, 8}), Contains("different axes"));
  REQUIRE_THROWS_WITH(lt("NCHW", "NHWC", {1, 6, 8}), Contains("has 4 axes"));
  REQUIRE_THROWS_WITH(lt("NCCW", "NHWC", {1, 6, 8, 8}), Contains("not a valid layout"));
  REQUIRE_THROWS_WITH(lt("NCHW4c", "NCHW", {1, 6, 8, 8, 3}), Contains("extent 4"));
}

// ---- Coverage ------------------------------------------------------------------------------

TEST_CASE("Ops: every op of the table has a sample call that type-checks", "[ops][types]") {
  // One well-typed call per op; an op added to ops.def without a sample here fails this test.
  Type x = f32({1, 4, 8, 8});
  Type v4 = f32({4});
  AttrDict outAttrs{{"out_shape", ints({4})}, {"out_dtype", str("float32")}};
  const std::map<std::string, std::pair<std::vector<Type>, AttrDict>> samples = {
      {"add", {{x, f32({8})}, {}}}, {"subtract", {{x, x}, {}}}, {"multiply", {{x, f32({})}, {}}}, {"divide", {{x, x}, {}}},
      {"power", {{x, x}, {}}}, {"maximum", {{x, x}, {}}}, {"minimum", {{x, x}, {}}}, {"equal", {{x, x}, {}}},
      {"less", {{x, x}, {}}}, {"greater", {{x, x}, {}}}, {"where", {{boolean({8}), x, x}, {}}},
      {"negative", {{x}, {}}}, {"abs", {{x}, {}}}, {"exp", {{x}, {}}}, {"log", {{x}, {}}}, {"sqrt", {{x}, {}}},
      {"rsqrt", {{x}, {}}}, {"tanh", {{x}, {}}}, {"sigmoid", {{x}, {}}}, {"erf", {{x}, {}}},
      {"sin", {{x}, {}}}, {"cos", {{x}, {}}}, {"tan", {{x}, {}}}, {"asin", {{x}, {}}}, {"acos", {{x}, {}}}, {"atan", {{x}, {}}},
      {"sinh", {{x}, {}}}, {"cosh", {{x}, {}}}, {"asinh", {{x}, {}}}, {"acosh", {{x}, {}}}, {"atanh", {{x}, {}}},
      {"clip", {{x}, {{"a_min", integer(0)}, {"a_max", integer(6)}}}}, {"round", {{x}, {}}}, {"floor", {{x}, {}}},
      {"ceil", {{x}, {}}}, {"nn.relu", {{x}, {}}}, {"nn.leaky_relu", {{x}, {}}}, {"nn.gelu", {{x}, {}}}, {"nn.silu", {{x}, {}}}, {"cast", {{x}, {{"dtype", str("float16")}}}},
      {"nn.conv2d", {{x, f32({4, 4, 3, 3})}, {}}}, {"nn.conv2d_transpose", {{x, f32({4, 4, 3, 3})}, {}}},
      {"nn.dense", {{f32({2, 4}), f32({3, 4})}, {}}}, {"nn.matmul", {{f32({2, 4}), f32({4, 3})}, {}}},
      {"nn.batch_matmul", {{f32({2, 3, 4}), f32({2, 5, 4})}, {}}}, {"nn.bias_add", {{x, v4}, {}}},
      {"nn.batch_norm", {{x, v4, v4, v4, v4}, {}}}, {"nn.layer_norm", {{f32({2, 4}), v4, v4}, {}}},
      {"nn.group_norm", {{x, v4, v4}, {{"num_groups", integer(2)}, {"channel_axis", integer(1)}, {"axes", ints({2, 3})}}}},
      {"nn.max_pool2d", {{x}, {{"pool_size", ints({2, 2})}}}}, {"nn.avg_pool2d", {{x}, {{"pool_size", ints({2, 2})}}}},
      {"nn.global_avg_pool2d", {{x}, {}}}, {"nn.softmax", {{x}, {}}},
      {"nn.pad", {{v4}, {{"pad_width", AttrValue::array({ints({1, 1})})}}}},
      {"reshape", {{x}, {{"newshape", ints({-1})}}}}, {"transpose", {{x}, {}}},
      {"concatenate", {{tupleType({x, x})}, {}}}, {"split", {{x}, {{"indices_or_sections", integer(2)}, {"axis", integer(1)}}}},
      {"squeeze", {{x}, {}}}, {"expand_dims", {{x}, {{"axis", integer(0)}}}},
      {"strided_slice", {{x}, {{"begin", ints({0})}, {"end", ints({1})}}}}, {"take", {{x, i32({2})}, {}}},
      {"layout_transform", {{x}, {{"src_layout", str("NCHW")}, {"dst_layout", str("NHWC")}}}},
      {"image.resize2d", {{x}, {{"size", ints({4, 4})}}}}, {"mean", {{x}, {}}}, {"sum", {{x}, {}}}, {"max", {{x}, {}}},
      {"min", {{x}, {}}}, {"prod", {{x}, {}}}, {"argmax", {{x}, {}}}, {"argmin", {{x}, {}}},
      {"mod", {{x, x}, {}}}, {"floor_mod", {{x, f32({8})}, {}}}, {"zeros", {{}, {{"shape", ints({2})}, {"dtype", str("int8")}}}},
      {"ones", {{}, {{"shape", ints({2})}, {"dtype", str("int8")}}}}, {"full", {{f32({})}, {{"shape", ints({2})}}}},
      {"shape_of", {{x}, {}}},
      {"call_tir", {{funcType({v4, v4}, unitType()), tupleType({v4})}, outAttrs}},
      {"call_dps_packed", {{funcType({}, unitType()), tupleType({v4})}, outAttrs}},
      {"call_pure_packed", {{funcType({}, unitType()), v4}, outAttrs}},
      {"invoke_pure_closure", {{funcType({v4}, v4), tupleType({v4})}, outAttrs}},
      {"match_cast", {{v4}, {}}},
      {"vm.builtin.alloc_storage", {{}, {{"size", integer(16)}}}},
      {"vm.builtin.alloc_tensor", {{tensorType({16}, DTypeCode::UInt8)}, {{"shape", ints({4})}, {"dtype", str("float32")}}}},
      {"vm.builtin.call_tir", {{funcType({v4, v4}, unitType()), tupleType({v4, v4})}, {}}},
      {"on_device", {{x}, {{"virtual_device", AttrValue::metaRef("VirtualDevice", 0)}}}},
      {"device_copy", {{x}, {{"src_virtual_device", AttrValue::metaRef("VirtualDevice", 0)},
                             {"dst_virtual_device", AttrValue::metaRef("VirtualDevice", 1)}}}},
      {"call_lowered", {{funcType({v4, v4}, unitType()), tupleType({v4})}, {}}},
      {"memory.alloc_storage", {{tensorType({}, DTypeCode::Int64), tensorType({}, DTypeCode::Int64)}, {}}},
      {"memory.alloc_tensor", {{storageType(), tensorType({}, DTypeCode::Int64), tensorType({1}, DTypeCode::Int64)},
                               {{"assert_shape", ints({4})}}}},
      {"memory.kill", {{v4}, {}}},
      {"vm.shape_of", {{x}, {}}},
      {"vm.invoke_tvm_op", {{funcType({v4}, v4), tupleType({v4}), tupleType({v4})}, {}}},
      {"vm.reshape_tensor", {{x, tensorType({1}, DTypeCode::Int64)}, {{"newshape", ints({256})}}}},
      {"relax.shape", {{}, {{"values", ints({2, 4})}}}},
      {"relax.prim_value", {{}, {{"value", integer(0)}}}},
      {"relax.null_value", {{}, {}}},
      {"relax.call_packed", {{v4, shapeType({4})}, {{"func_name", str("vm.builtin.reshape")}, {"out_shape", ints({4})}, {"out_dtype", str("float32")}}}},
      {"relax.builtin.alloc_tensor", {{}, {{"shape", ints({2, 4})}, {"dtype", str("float32")}}}},
      {"relax.memory.alloc_storage", {{}, {{"size", ints({32})}, {"dtype", str("float32")}}}},
      {"relax.memory.alloc_tensor", {{objectType()}, {{"shape", ints({2, 4})}, {"dtype", str("float32")}}}},
      {"relax.memory.kill_storage", {{objectType()}, {}}},
      {"relax.memory.kill_tensor", {{v4}, {}}},
      {"relax.vm.alloc_storage", {{}, {{"size", ints({32})}}}},
      {"relax.vm.alloc_tensor", {{objectType()}, {{"shape", ints({8})}, {"dtype", str("float32")}}}},
      {"relax.vm.kill_object", {{v4}, {}}},
      {"relax.str", {{}, {{"value", str("ErrorContext")}}}},
      {"relax.dtype", {{}, {{"value", str("float32")}}}},
      {"relax.call_builtin_with_ctx", {{primType(DTypeCode::Int64, 2)}, {{"func_name", str("vm.builtin.alloc_shape_heap")}}}},
  };
  for (const OpDef& d : allOps()) {
    CAPTURE(d.name);
    auto it = samples.find(std::string(d.name));
    REQUIRE(it != samples.end());
    Type t;
    CHECK_NOTHROW(t = inferOpCallType(d, it->second.first, canonicalizeAttrs(d, it->second.second)));
    CHECK(t != nullptr);
  }
  CHECK(samples.size() == kNumOps);
}
