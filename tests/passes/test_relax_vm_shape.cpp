// VMShapeLower end to end: the Relax examples and a symbolic module through
// TVM's VM build order (relax.default, which ends with VMShapeLower) run on
// the interpreter equal to the module before lowering, the VM builtins the
// pass emits check and match at run time, and R.str / R.dtype /
// R.call_builtin_with_ctx read and print in TVM's form.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/type_infer.h"
#include "core/pass/registry.h"
#include "core/text/printer.h"
#include "core/text/tvmscript.h"
#include "tests/interp_test_util.h"
#include "passes/registry.h"
#include "core/interp/interpreter.h"

using namespace passlab;

namespace {

std::string readSource(const std::string& rel) {
  std::ifstream in(std::filesystem::path(PASSLAB_SOURCE_DIR) / rel);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

IRModule runPipeline(const IRModule& mod, const std::string& pipeline) {
  static PassRegistry registry = [] {
    PassRegistry r;
    registerBuiltinPasses(r);
    return r;
  }();
  PassPtr p = parsePipeline(pipeline, registry);
  PassContextPtr ctx = PassContext::create();
  return runPass(*p, inferTypes(mod), *ctx);
}

PrintOptions scriptOptions() {
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  return o;
}

bool mentions(const IRModule& mod, const std::string& what) { return printModule(mod, scriptOptions()).find(what) != std::string::npos; }

const char* kSymbolic = R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def double(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")):
        T.func_attr({"tir.noalias": True})
        for i, j in T.grid(4, 8):
            with T.block("B"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(A[v_i, v_j])
                T.writes(B[v_i, v_j])
                B[v_i, v_j] = A[v_i, v_j] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), y: R.Tensor(ndim=2)) -> R.Tuple(R.Tensor(("n", 8), dtype="float32"), R.Shape(ndim=2)):
        n = T.int64()
        k = T.int64()
        cls = Module
        z: R.Tensor((k, n + 1), dtype="float32") = R.match_cast(y, R.Tensor((k, n + 1), dtype="float32"))
        lv = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((n, 8), dtype="float32"))
        s: R.Shape(ndim=2) = R.shape([k * 2, n + 1])
        return (lv, s)
)";

/// The located message of running `main` on `args`, or "".
std::string runError(const IRModule& mod, std::vector<Value> args) {
  try {
    evaluate(mod, "main", std::move(args));
    return "";
  } catch (const DiagnosticError& e) {
    return e.diagnostics().front().message;
  }
}

}  // namespace

TEST_CASE("VMShapeLower: the Relax examples through relax.default run equal to the module before lowering", "[relax][vmshape][e2e]") {
  auto file = GENERATE(Catch::Generators::as<std::string>{}, "examples/relax/mlp.py", "examples/relax/cnn.py");
  CAPTURE(file);
  IRModule mod = inferTypes(parseTvmScript(readSource(file), file));
  IRModule lowered = runPipeline(mod, "relax.default");
  // relax.default ends with VMShapeLower: every parameter is checked.
  CHECK(mentions(lowered, "vm.builtin.check_tensor_info"));
  CHECK(mentions(lowered, "vm.builtin.match_shape"));
  const FunctionNode* main = mod->lookupFunction("main");
  REQUIRE(main);
  std::vector<Value> args;
  uint32_t seed = 11;
  for (const Var& p : main->params) {
    const auto* t = as<TensorTypeNode>(p->annotation);
    REQUIRE(t);
    args.emplace_back(testing::randomArray(t->dtype, t->shape, seed++));
  }
  Value want = evaluate(mod, "main", args);
  Value got = evaluate(lowered, "main", args);
  REQUIRE(want.isTensor());
  REQUIRE(got.isTensor());
  CHECK(got.tensor().shape() == want.tensor().shape());
  CHECK(testing::toDoubles(got.tensor()) == testing::toDoubles(want.tensor()));
}

TEST_CASE("VMShapeLower: a symbolic module runs equal before and after, and its heap checks bite", "[relax][vmshape][symbolic][e2e]") {
  IRModule mod = inferTypes(parseTvmScript(kSymbolic, "symbolic.py"));
  IRModule lowered = runPipeline(mod, "relax.default");
  std::string text = printModule(lowered, scriptOptions());
  CAPTURE(text);
  // n, k, n + 1, k * 2 and the planned storage's 32 * n have slots; two
  // shape functions compute n + 1 / 32 * n and k * 2 as their variables arrive.
  CHECK(text.find("\"vm.builtin.alloc_shape_heap\", (R.prim_value(5),)") != std::string::npos);
  CHECK(text.find("def shape_func(") != std::string::npos);
  CHECK(text.find("def shape_func1(") != std::string::npos);
  CHECK(text.find("\"vm.builtin.make_shape\"") != std::string::npos);
  // The lowered module reads back to the same module.
  IRModule reread = inferTypes(parseTvmScript(text, "lowered.py"));
  CHECK(printModule(reread, scriptOptions()) == text);

  NDArray x = testing::randomArray(DTypeCode::Float32, {4, 8}, 5);
  NDArray y = testing::randomArray(DTypeCode::Float32, {3, 5}, 6);
  Value want = evaluate(mod, "main", {Value(x), Value(y)});
  Value got = evaluate(lowered, "main", {Value(x), Value(y)});
  REQUIRE(got.isTuple());
  REQUIRE(want.isTuple());
  CHECK(testing::toDoubles(got.fields()[0].tensor()) == testing::toDoubles(want.fields()[0].tensor()));
  CHECK(testing::toDoubles(got.fields()[1].tensor()) == std::vector<double>{6, 5});
  CHECK(testing::toDoubles(want.fields()[1].tensor()) == std::vector<double>{6, 5});

  // y's second dim must be n + 1 = 5: the match after the shape function says so.
  std::string err = runError(lowered, {Value(x), Value(testing::randomArray(DTypeCode::Float32, {3, 6}, 7))});
  CHECK_THAT(err, Catch::Contains("ErrorContext(match_cast") && Catch::Contains("dimension 1 is 6, expected 5"));
  // y's dtype is not declared (TVM's void): the match_cast checks it, before any match.
  err = runError(lowered, {Value(x), Value(testing::randomArray(DTypeCode::Int32, {3, 5}, 8))});
  CHECK_THAT(err, Catch::Contains("check_tensor_info") && Catch::Contains("dtype float32"));
  // Before lowering, the interpreter's own match_cast check says the same.
  CHECK_THAT(runError(mod, {Value(x), Value(testing::randomArray(DTypeCode::Int32, {3, 5}, 8))}), Catch::Contains("R.match_cast"));
}

TEST_CASE("VMShapeLower: TVM's test options and identity on a module without Relax functions", "[relax][vmshape]") {
  std::string text = readSource("tests/relax_parity/VMShapeLower/symbolic_params.before.py");
  IRModule mod = inferTypes(parseTvmScript(text, "b.py"));
  IRModule quiet = runPipeline(mod, "VMShapeLower{emit_err_ctx=false}");
  IRModule loud = runPipeline(mod, "VMShapeLower");
  CHECK_FALSE(mentions(quiet, "ErrorContext"));
  CHECK(mentions(loud, "R.str(\"ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((n, 4, m), dtype=\\\"float32\\\")) \")"));
  // Names come from one supply per run, as TVM's BlockBuilder gives them.
  CHECK(mentions(quiet, "_1: R.Tuple = R.call_packed(\"vm.builtin.check_tensor_info\", y"));
}

TEST_CASE("VMShapeLower: a nested function is refused with a located error", "[relax][vmshape]") {
  std::string text = R"(# from tvm.script import relax as R

@R.function
def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
    @R.function
    def inner(y: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return y
    return x
)";
  IRModule mod = inferTypes(parseTvmScript(text, "n.py"));
  try {
    runPipeline(mod, "VMShapeLower");
    FAIL("no error");
  } catch (const DiagnosticError& e) {
    CHECK_THAT(e.diagnostics().front().message, Catch::Contains("run LambdaLifting"));
  }
}

TEST_CASE("VMShapeLower: R.str, R.dtype and R.call_builtin_with_ctx read and print in TVM's form", "[relax][vmshape][tvmscript]") {
  std::string text = R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        R.func_attr({"relax.force_pure": True})
        heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str("ctx"), sinfo_args=(R.Tuple,))
        s: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", heap, R.prim_value(2), R.prim_value(0), R.prim_value(2), R.prim_value(0), R.prim_value(3), sinfo_args=(R.Shape(ndim=2),))
        t: R.Object = R.str("hello")
        d: R.Object = R.dtype("int8")
        return x
)";
  IRModule mod = inferTypes(parseTvmScript(text, "v.py"));
  CHECK(printModule(mod, scriptOptions()) == text);
  // TVM's tests write plain Python values and lists; they read to the same calls.
  std::string hand = text;
  auto replace = [&](const std::string& from, const std::string& to) {
    size_t at = hand.find(from);
    REQUIRE(at != std::string::npos);
    hand.replace(at, from.size(), to);
  };
  replace("(R.prim_value(1),), sinfo_args=(R.Tensor(dtype=\"int64\", ndim=1),)", "[R.prim_value(1)], sinfo_args=[R.Tensor(ndim=1, dtype=\"int64\")]");
  replace("x, R.prim_value(2), R.dtype(\"float32\"), R.str(\"ctx\")", "x, 2, R.dtype(\"float32\"), \"ctx\"");
  CHECK(printModule(inferTypes(parseTvmScript(hand, "h.py")), scriptOptions()) == text);
  NDArray x = testing::randomArray(DTypeCode::Float32, {2, 3}, 1);
  CHECK(evaluate(mod, "main", {Value(x)}).isTensor());
  CHECK_THAT(runError(mod, {Value(testing::randomArray(DTypeCode::Float32, {2, 3, 1}, 2))}),
             Catch::Contains("vm.builtin.check_tensor_info: ctx: expected a tensor of rank 2"));
}

TEST_CASE("VMShapeLower: symbolic prim values are matched, computed and made, and run equal before and after",
          "[relax][vmshape][symbolic][e2e]") {
  auto [file, wantValue] = GENERATE(table<std::string, std::vector<double>>({
      {"prim_value_param", {12}},           // n * m for x of 3 rows and k = 4
      {"prim_value_match_cast", {2, 9}},   // (a, b + c) for s = (2, 5) and k = 4
  }));
  CAPTURE(file);
  const std::string dir = "tests/relax_parity/VMShapeLower/";
  IRModule mod = inferTypes(parseTvmScript(readSource(dir + file + ".before.py"), file));
  IRModule lowered = runPipeline(mod, "VMShapeLower");
  std::string text = printModule(lowered, scriptOptions());
  CAPTURE(text);
  CHECK(text.find("\"vm.builtin.match_prim_value\"") != std::string::npos);
  // The lowered module reads back to itself.
  CHECK(printModule(inferTypes(parseTvmScript(text, "lowered.py")), scriptOptions()) == text);
  NDArray k = NDArray::scalar(DTypeCode::Int64, 4);
  std::vector<Value> args;
  if (file == "prim_value_param") args = {Value(testing::randomArray(DTypeCode::Float32, {3, 4}, 3)), Value(k)};
  else args = {Value(testing::makeArray(DTypeCode::Int64, {2}, {2, 5})), Value(k)};
  Value want = evaluate(mod, "main", args);
  Value got = evaluate(lowered, "main", args);
  REQUIRE(want.isTensor());
  REQUIRE(got.isTensor());
  CHECK(testing::toDoubles(want.tensor()) == wantValue);
  CHECK(testing::toDoubles(got.tensor()) == wantValue);
}

TEST_CASE("VMShapeLower: a prim value cast to R.Prim(value=n) that contradicts n fails the match at run time", "[relax][vmshape][symbolic]") {
  const char* src = R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 2), dtype="float32"), k: R.Prim("int64")) -> R.Prim("int64"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        j: R.Prim(value=n) = R.match_cast(k, R.Prim(value=n))
        return R.prim_value(n + 1)
)";
  IRModule mod = inferTypes(parseTvmScript(src, "prim.py"));
  IRModule lowered = runPipeline(mod, "VMShapeLower");
  NDArray x = testing::randomArray(DTypeCode::Float32, {3, 2}, 4);
  CHECK(testing::toDoubles(evaluate(lowered, "main", {Value(x), Value(NDArray::scalar(DTypeCode::Int64, 3))}).tensor()) ==
        std::vector<double>{4});
  // k must equal x's row count: VMShapeLower's match_prim_value (before the cast) and, before lowering,
  // the interpreter's own match_cast check both say so.
  CHECK_THAT(runError(lowered, {Value(x), Value(NDArray::scalar(DTypeCode::Int64, 5))}),
             Catch::Contains("vm.builtin.match_prim_value") && Catch::Contains("the value is 5, expected 3"));
  CHECK_THAT(runError(mod, {Value(x), Value(NDArray::scalar(DTypeCode::Int64, 5))}),
             Catch::Contains("R.match_cast of %j") && Catch::Contains("n = 3"));
}
