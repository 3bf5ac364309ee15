// Symbolic shapes: the shape-expression helpers (simplification, equality,
// printing, evaluation), the type relations carrying `n` through, TVMScript
// reading and printing `n = T.int64()` forms, structural equality binding shape
// variables by position, and the interpreter running one symbolic-shaped
// function for several batch sizes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/frontend/onnx_importer.h"
#include "core/ir/op.h"
#include "core/ir/shape_expr.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"
#include "tests/interp_test_util.h"

using namespace passlab;

namespace {

const char* kHeader = "# from tvm.script import ir as I\n# from tvm.script import tir as T\n# from tvm.script import relax as R\n\n";

PrintOptions scriptOptions() {
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  return o;
}

/// "(n, 4) float32": the dims of a tensor type as TVMScript writes them.
std::string dimsText(const Type& t) {
  const auto* tt = as<TensorTypeNode>(t);
  if (!tt) return typeToString(t);
  std::string s = "(";
  for (size_t i = 0; i < tt->shape.size(); ++i) s += (i ? ", " : "") + shape::toScript(shape::dimOf(*tt, i));
  return s + ") " + std::string(tt->dtype.name());
}

/// The located error of loading `text`, or "" when it loads.
std::string loadError(const std::string& text) {
  try {
    parseTvmScript(text, "t.py");
    return "";
  } catch (const DiagnosticError& e) {
    const Diagnostic& d = e.diagnostics().front();
    return std::to_string(d.span.line) + ":" + std::to_string(d.span.column) + ": " + d.message;
  }
}

std::string mlpText(const std::string& var) {
  return std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("VAR", 8), dtype="float32"), w: R.Tensor((8, 4), dtype="float32"), b: R.Tensor((1, 4), dtype="float32")) -> R.Tensor(("VAR", 4), dtype="float32"):
        VAR = T.int64()
        with R.dataflow():
            lv: R.Tensor((VAR, 4), dtype="float32") = R.matmul(x, w, out_dtype="void")
            lv1: R.Tensor((VAR, 4), dtype="float32") = R.add(lv, b)
            gv: R.Tensor((VAR, 4), dtype="float32") = R.nn.relu(lv1)
            R.output(gv)
        return gv
)";
}

std::string withVar(std::string text, const std::string& var) {
  for (size_t at; (at = text.find("VAR")) != std::string::npos;) text.replace(at, 3, var);
  return text;
}

}  // namespace

TEST_CASE("Symbolic: simplification and printing of dims", "[symbolic]") {
  tir::Var n = shape::makeShapeVar("n"), m = shape::makeShapeVar("m");
  using shape::constant;
  auto bin = [](tir::BinaryOp op, shape::Dim a, shape::Dim b) { return tir::binary(op, a, b); };
  using Op = tir::BinaryOp;
  auto [expr, printed] = GENERATE_COPY(table<shape::Dim, std::string>({
      {bin(Op::Mul, n, constant(1)), "n"},
      {bin(Op::Add, n, constant(0)), "n"},
      {bin(Op::Add, constant(2), constant(3)), "5"},
      {bin(Op::Mul, constant(2), n), "n * 2"},
      {bin(Op::Add, m, n), "m + n"},
      {bin(Op::Add, n, m), "m + n"},
      {bin(Op::Sub, bin(Op::Add, n, constant(1)), n), "1"},
      {bin(Op::Sub, bin(Op::Add, n, constant(1)), m), "n + 1 - m"},
      {bin(Op::FloorDiv, bin(Op::Mul, n, constant(8)), constant(8)), "n"},
      {bin(Op::FloorDiv, bin(Op::Add, n, constant(2)), constant(2)), "(n + 2) // 2"},
      {bin(Op::Mul, bin(Op::Add, n, constant(1)), constant(2)), "n * 2 + 2"},
  }));
  CHECK(shape::toScript(shape::simplify(expr)) == printed);
}

TEST_CASE("Symbolic: equality binds variables by first use", "[symbolic]") {
  tir::Var n = shape::makeShapeVar("n"), m = shape::makeShapeVar("m"), k = shape::makeShapeVar("k");
  using Op = tir::BinaryOp;
  CHECK(shape::equal(tir::binary(Op::Mul, n, shape::constant(2)), tir::binary(Op::Mul, shape::constant(2), n)));
  CHECK_FALSE(shape::equal(n, m));
  shape::VarMap map;
  CHECK(shape::equal(n, m, &map));                                   // binds m -> n
  CHECK(shape::equal(tir::binary(Op::Add, n, shape::constant(1)), tir::binary(Op::Add, shape::constant(1), m), &map));
  CHECK_FALSE(shape::equal(n, k, &map));                             // n is taken by m
  Type a = shape::tensorOfDims({n, shape::constant(4)}, DTypeCode::Float32);
  Type b = shape::tensorOfDims({m, shape::constant(4)}, DTypeCode::Float32);
  Type q = tensorType({kDynamicDim, 4}, DTypeCode::Float32);
  CHECK_FALSE(typeEqual(a, q));                                      // `?` is not n
  CHECK(typeHash(a) == typeHash(b));
  CHECK(as<TensorTypeNode>(a)->hasDynamicDim());                     // int64 readers see a `?`
}

TEST_CASE("Symbolic: type relations carry shape variables", "[symbolic][relations]") {
  tir::Var n = shape::makeShapeVar("n"), m = shape::makeShapeVar("m");
  auto t = [](std::vector<shape::Dim> dims) { return shape::tensorOfDims(dims, DTypeCode::Float32); };
  auto c = [](int64_t v) { return shape::constant(v); };
  auto axes = [](std::vector<int64_t> v) { return AttrValue::ints(v); };
  struct Row {
    OpId op;
    std::vector<Type> args;
    std::vector<std::pair<std::string, AttrValue>> attrs;
    std::string want;
  };
  auto row = GENERATE_COPY(values<Row>({
      {OpId::Add, {t({n, c(4)}), t({c(1), c(4)})}, {}, "(n, 4) float32"},
      {OpId::Add, {t({n, c(4)}), t({c(4)})}, {}, "(n, 4) float32"},
      {OpId::Multiply, {t({n, c(1)}), t({c(1), m})}, {}, "(n, m) float32"},
      {OpId::Add, {t({n, c(4)}), t({c(3), c(4)})}, {}, "(3, 4) float32"},
      {OpId::Add, {t({n}), t({m})}, {}, "(?) float32"},
      {OpId::Relu, {t({n, c(4)})}, {}, "(n, 4) float32"},
      {OpId::Cast, {t({n, c(4)})}, {{"dtype", AttrValue::string("float16")}}, "(n, 4) float16"},
      {OpId::Transpose, {t({n, c(4), m})}, {{"axes", axes({2, 0, 1})}}, "(m, n, 4) float32"},
      {OpId::Reshape, {t({n, c(4)})}, {{"newshape", axes({-1})}}, "(n * 4) float32"},
      {OpId::Reshape, {t({n, c(4), c(2)})}, {{"newshape", axes({0, -1})}}, "(n, 8) float32"},
      {OpId::Reshape, {t({n, c(8)})}, {{"newshape", axes({-1, 2, 4})}}, "(n, 2, 4) float32"},
      {OpId::Mean, {t({n, c(4), c(5)})}, {{"axis", axes({1})}}, "(n, 5) float32"},
      {OpId::Mean, {t({n, c(4)})}, {{"axis", axes({1})}, {"keepdims", AttrValue::boolean(true)}}, "(n, 1) float32"},
      {OpId::ExpandDims, {t({n, c(4)})}, {{"axis", AttrValue::integer(1)}}, "(n, 1, 4) float32"},
      {OpId::Matmul, {t({n, c(8)}), t({c(8), c(4)})}, {}, "(n, 4) float32"},
      {OpId::Dense, {t({n, c(8)}), t({c(4), c(8)})}, {}, "(n, 4) float32"},
      {OpId::Conv2D, {t({n, c(3), c(16), c(16)}), t({c(8), c(3), c(3), c(3)})}, {{"padding", axes({1, 1})}}, "(n, 8, 16, 16) float32"},
      {OpId::Conv2D, {t({c(1), c(3), m, m}), t({c(8), c(3), c(3), c(3)})}, {{"strides", axes({2, 2})}}, "(1, 8, (m - 3) // 2 + 1, (m - 3) // 2 + 1) float32"},
      {OpId::MaxPool2D, {t({n, c(8), c(4), c(4)})}, {{"pool_size", axes({2, 2})}, {"strides", axes({2, 2})}}, "(n, 8, 2, 2) float32"},
      {OpId::GlobalAvgPool2D, {t({n, c(8), c(4), c(4)})}, {}, "(n, 8, 1, 1) float32"},
  }));
  AttrDict attrs;
  for (const auto& [k, v] : row.attrs) attrs.set(k, v);
  const OpDef& def = opDef(row.op);
  CAPTURE(def.name, row.want);
  Type got = inferOpCallType(def, row.args, canonicalizeAttrs(def, attrs));
  CHECK(dimsText(got) == row.want);
}

TEST_CASE("Symbolic: concat adds the extents along its axis", "[symbolic][relations]") {
  tir::Var n = shape::makeShapeVar("n"), m = shape::makeShapeVar("m");
  Type a = shape::tensorOfDims({n, shape::constant(4)}, DTypeCode::Float32);
  Type b = shape::tensorOfDims({m, shape::constant(4)}, DTypeCode::Float32);
  Type c = shape::tensorOfDims({shape::constant(2), shape::constant(4)}, DTypeCode::Float32);
  AttrDict attrs;
  attrs.set("axis", AttrValue::integer(0));
  const OpDef& def = opDef(OpId::Concatenate);
  CHECK(dimsText(inferOpCallType(def, std::vector<Type>{tupleType({a, b, c})}, canonicalizeAttrs(def, attrs))) == "(m + n + 2, 4) float32");
}

TEST_CASE("Symbolic: TVMScript reads and prints n = T.int64() forms", "[symbolic][tvmscript]") {
  std::string text = withVar(mlpText("VAR"), "n");
  IRModule mod = parseTvmScript(text, "t.py");
  const FunctionNode* f = mod->lookupFunction("main");
  REQUIRE(f);
  const auto* x = as<TensorTypeNode>(f->params[0]->annotation);
  const auto* ret = as<TensorTypeNode>(f->retType);
  REQUIRE(x);
  REQUIRE(ret);
  REQUIRE(x->hasSymbolicDim());
  CHECK(x->shape[0] == kDynamicDim);
  // One variable for the whole function: the parameter's and the result's n are the same node.
  CHECK(x->symbolicDim(0) == ret->symbolicDim(0));
  CHECK(printModule(mod, scriptOptions()) == text);
  // Types check: the relations give what the annotations say.
  CHECK(checkTypes(mod).empty());
  // Relay text has no shape variables: it prints `?`.
  PrintOptions relay;
  CHECK(printModule(mod, relay).find("Tensor[(?, 8), float32]") != std::string::npos);
}

TEST_CASE("Symbolic: structural equality binds shape variables by position", "[symbolic][tvmscript]") {
  IRModule a = parseTvmScript(withVar(mlpText("VAR"), "n"), "a.py");
  IRModule b = parseTvmScript(withVar(mlpText("VAR"), "batch"), "b.py");
  CHECK(structuralEqual(a, b));
  // `n * 2` and `2 * n` are one extent; `n` and `n + 1` are not.
  auto doubled = [](const std::string& dim) {
    return std::string(kHeader) + "@R.function\ndef main(x: R.Tensor((\"n\", 4), dtype=\"float32\")) -> R.Tensor((\"" + dim +
           "\", 4), dtype=\"float32\"):\n    n = T.int64()\n    y: R.Tensor((" + dim + ", 4), dtype=\"float32\") = R.concat((x, x), axis=0)\n    return y\n";
  };
  CHECK(structuralEqual(parseTvmScript(doubled("n * 2")), parseTvmScript(doubled("2 * n"))));
  CHECK(structuralEqual(parseTvmScript(doubled("n * 2")), parseTvmScript(doubled("n + n"))));
  CHECK_FALSE(structuralEqual(parseTvmScript(doubled("n * 2")), parseTvmScript(doubled("n * 2 + 1"))));
  // Two variables in one function may not collapse onto one.
  auto two = [](const std::string& second) {
    return std::string(kHeader) + "@R.function\ndef main(x: R.Tensor((\"n\",), dtype=\"float32\"), y: R.Tensor((\"" + second +
           "\",), dtype=\"float32\")) -> R.Tensor((\"n\",), dtype=\"float32\"):\n    n = T.int64()\n    return x\n";
  };
  CHECK_FALSE(structuralEqual(parseTvmScript(two("m")), parseTvmScript(two("n"))));
}

TEST_CASE("Symbolic: located errors for shape variables", "[symbolic][tvmscript]") {
  auto [body, error] = GENERATE(table<std::string, std::string>({
      {"def main(x: R.Tensor((k, 4), dtype=\"float32\")):\n    return x\n", "2:23: unknown shape variable 'k'"},
      {"def main(x: R.Tensor((\"n +\", 4), dtype=\"float32\")):\n    return x\n", "2:23: cannot read the dimension"},
      {"def main(x: R.Tensor((\"n / 2\", 4), dtype=\"float32\")):\n    return x\n", "2:23: cannot read the dimension"},
      {"def main(x: R.Tensor((2 - 3, 4), dtype=\"float32\")):\n    return x\n", "2:23: dimension -1 is negative"},
      {"def main(x: R.Tensor((4,), dtype=\"float32\")):\n    x = T.int64()\n    return x\n", "3:5: 'x' is already a Relax value"},
  }));
  std::string text = "@R.function\n" + body;
  CAPTURE(text);
  CHECK_THAT(loadError(text), Catch::StartsWith(error));
}

TEST_CASE("Symbolic: one function runs for two batch sizes on the interpreter", "[symbolic][interp]") {
  IRModule mod = inferTypes(parseTvmScript(withVar(mlpText("VAR"), "n"), "t.py"));
  NDArray w = testing::randomArray(DTypeCode::Float32, {8, 4}, 1);
  NDArray b = testing::randomArray(DTypeCode::Float32, {1, 4}, 2);
  for (int64_t batch : {1, 3, 5}) {
    CAPTURE(batch);
    NDArray x = testing::randomArray(DTypeCode::Float32, {batch, 8}, 3 + static_cast<uint32_t>(batch));
    Value out = evaluate(mod, "main", {Value(x), Value(w), Value(b)});
    REQUIRE(out.isTensor());
    CHECK(out.tensor().shape() == std::vector<int64_t>{batch, 4});
    // Against the same arithmetic by hand.
    std::vector<double> xs = testing::toDoubles(x), ws = testing::toDoubles(w), bs = testing::toDoubles(b), got = testing::toDoubles(out.tensor());
    for (int64_t i = 0; i < batch; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < 8; ++k) acc += xs[i * 8 + k] * ws[k * 4 + j];
        acc = std::max(0.0, acc + bs[j]);
        CHECK(got[i * 4 + j] == Approx(acc).margin(1e-5));
      }
  }
}

TEST_CASE("Symbolic: the interpreter checks that parameters agree on n", "[symbolic][interp]") {
  std::string text = std::string(kHeader) + R"(@R.function
def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n * 2", 4), dtype="float32")) -> R.Tensor(("n * 3", 4), dtype="float32"):
    n = T.int64()
    z: R.Tensor((n * 3, 4), dtype="float32") = R.concat((x, y), axis=0)
    return z
)";
  IRModule mod = inferTypes(parseTvmScript(text, "t.py"));
  NDArray x = testing::randomArray(DTypeCode::Float32, {2, 4}, 1);
  Value ok = evaluate(mod, "main", {Value(x), Value(testing::randomArray(DTypeCode::Float32, {4, 4}, 2))});
  CHECK(ok.tensor().shape() == std::vector<int64_t>{6, 4});
  try {
    evaluate(mod, "main", {Value(x), Value(testing::randomArray(DTypeCode::Float32, {3, 4}, 2))});
    FAIL("a y of 3 rows passed for n = 2");
  } catch (const DiagnosticError& e) {
    CHECK_THAT(e.diagnostics().front().message, Catch::Contains("n * 2 = 4 here, but 3 was passed"));
  }
}

TEST_CASE("Symbolic: an ONNX model with a named batch imports with n and runs for two batch sizes", "[symbolic][onnx]") {
  std::string path = std::string(PASSLAB_SOURCE_DIR) + "/tests/data/onnx/symbolic_batch.onnx";
  IRModule mod = inferTypes(importOnnx(path));
  const FunctionNode* f = mod->lookupFunction("main");
  REQUIRE(f);
  const auto* x = as<TensorTypeNode>(f->params[0]->annotation);
  REQUIRE(x);
  CHECK(shape::toScript(x->symbolicDim(0)) == "batch_size");
  // The result type carries the variable through MatMul, Add and Relu.
  const auto* out = as<TensorTypeNode>(f->body->checkedType);
  REQUIRE(out);
  CHECK(dimsText(f->body->checkedType) == "(batch_size, 4) float32");
  // TVMScript prints the variable; the print loads back and reprints the same.
  std::string printed = printModule(mod, scriptOptions());
  CHECK_THAT(printed, Catch::Contains("batch_size = T.int64()") && Catch::Contains("R.Tensor((\"batch_size\", 8), dtype=\"float32\")"));
  CHECK(printModule(inferTypes(parseTvmScript(printed, "p.py")), scriptOptions()) == printed);
  // Runs for two batch sizes; the rows of the larger batch that repeat the
  // smaller one's inputs give the same outputs.
  NDArray x2 = testing::randomArray(DTypeCode::Float32, {2, 8}, 7);
  std::vector<double> x2v = testing::toDoubles(x2), x5v = x2v;
  for (int i = 0; i < 3 * 8; ++i) x5v.push_back(0.5 - 0.1 * (i % 9));
  NDArray x5 = testing::f32({5, 8}, x5v);
  Value y2 = evaluate(mod, "main", {Value(x2)});
  Value y5 = evaluate(mod, "main", {Value(x5)});
  REQUIRE(y2.isTensor());
  REQUIRE(y5.isTensor());
  CHECK(y2.tensor().shape() == std::vector<int64_t>{2, 4});
  CHECK(y5.tensor().shape() == std::vector<int64_t>{5, 4});
  std::vector<double> a = testing::toDoubles(y2.tensor()), b = testing::toDoubles(y5.tensor());
  for (size_t i = 0; i < a.size(); ++i) CHECK(a[i] == Approx(b[i]));
  bool anyPositive = false;
  for (double v : b) anyPositive = anyPositive || v > 0;
  CHECK(anyPositive);
}

TEST_CASE("Symbolic: R.match_cast binds new shape variables and checks at run time", "[symbolic][tvmscript][interp]") {
  std::string text = std::string(kHeader) + R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(("m", 4), dtype="float32"):
        m = T.int64()
        lv: R.Tensor((m, 4), dtype="float32") = R.match_cast(x, R.Tensor((m, 4), dtype="float32"))
        return lv
)";
  IRModule mod = inferTypes(parseTvmScript(text, "t.py"));
  CHECK(printModule(mod, scriptOptions()) == text);
  // Handwritten: the annotation may be left out (the cast's type is the binding's).
  std::string bare = text;
  bare.replace(bare.find("lv: R.Tensor((m, 4), dtype=\"float32\") = "), std::string("lv: R.Tensor((m, 4), dtype=\"float32\") = ").size(), "lv = ");
  CHECK(structuralEqual(mod, parseTvmScript(bare, "bare.py")));
  Value ok = evaluate(mod, "main", {Value(testing::randomArray(DTypeCode::Float32, {3, 4}, 1))});
  CHECK(ok.tensor().shape() == std::vector<int64_t>{3, 4});
  try {
    evaluate(mod, "main", {Value(testing::randomArray(DTypeCode::Float32, {3, 5}, 1))});
    FAIL("a (3, 5) tensor passed R.match_cast to (m, 4)");
  } catch (const DiagnosticError& e) {
    CHECK_THAT(e.diagnostics().front().message, Catch::Contains("R.match_cast of %lv"));
  }
  std::string wrong = text;
  wrong.replace(wrong.find("lv: R.Tensor((m, 4)"), std::string("lv: R.Tensor((m, 4)").size(), "lv: R.Tensor((m, 5)");
  CHECK_THAT(loadError(wrong), Catch::Contains("differs from the type R.match_cast casts to"));
}
