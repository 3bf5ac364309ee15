// TIR in TVMScript: the files under tests/tvmscript/tir_*.py (both spellings)
// load, reprint byte for byte in TVM's printed form, round trip (load -> print
// -> load structurally equal, print -> load -> print a fixpoint), refuse what
// passlab's TIR cannot hold with located errors, and run: block-form PrimFuncs
// called through R.call_tir agree with the graph-level ops on the interpreter,
// the host JIT and (slow) qemu-hexagon.
#include <catch2/catch.hpp>

#include "codegen/codegen.h"
#include "core/analysis/structural_equal.h"
#include "core/analysis/well_formed.h"
#include "core/ir/tir_functor.h"
#include "core/ir/tir_lower_blocks.h"
#include "core/text/tvmscript.h"
#include "core/text/tvmscript_tir.h"
#include "tests/interp_test_util.h"
#include "tests/text_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// The text of the module's PrimFuncs as printScriptPrimFunc writes them, in name order, separated by blank lines.
std::string printPrimFuncs(const IRModule& mod, TvmScriptSpelling spelling) {
  text::TextWriter w(nullptr);
  tvmscript::ScriptPrintContext ctx;
  ctx.spelling = spelling;
  bool first = true;
  for (const auto& [name, fn] : mod->functions) {
    const auto* prim = as<PrimFuncNode>(fn);
    if (!prim) continue;
    if (!first) w.endLine();
    first = false;
    tvmscript::printScriptPrimFunc(w, ctx, name, *prim);
  }
  return w.out();
}

PrintOptions scriptOptions(TvmScriptSpelling spelling) {
  PrintOptions o;
  o.syntax = TextSyntax::TVMScript;
  o.spelling = spelling;
  return o;
}

std::string header(TvmScriptSpelling s) {
  return s == TvmScriptSpelling::Main ? "# from tvm.script import tirx as T\n\n" : "# from tvm.script import tir as T\n\n";
}

IRModule load(const std::string& text, TvmScriptSpelling* spelling = nullptr) {
  return parseTvmScript(text, "t.py", nullptr, spelling);
}

std::string loadError(const std::string& text) {
  try {
    load(text);
  } catch (const DiagnosticError& e) {
    return e.what();
  }
  return "";
}

/// Whether an assert of the module names an error kind other than RuntimeError (main's spelling only).
bool hasErrorKinds(const IRModule& mod) {
  bool found = false;
  for (const auto& [name, fn] : mod->functions)
    if (const auto* prim = as<PrimFuncNode>(fn))
      tir::preOrderVisit(
          prim->body,
          [&](const tir::Stmt& s) {
            const auto* a = tir::as<tir::AssertStmtNode>(s);
            found = found || (a && a->errorKind != tir::kDefaultAssertKind);
            return true;
          },
          [](const tir::PrimExpr&) { return false; });
  return found;
}

}  // namespace

TEST_CASE("TVMScript TIR: the corpus reprints byte for byte and round trips", "[tvmscript][tir]") {
  std::string name = GENERATE(from_range(corpusNames("tvmscript", ".py")));
  bool handwritten = name.rfind("handwritten_tir", 0) == 0;
  if (name.rfind("tir_", 0) != 0 && !handwritten) return;
  INFO(name);
  std::string text = readFile(corpusDir("tvmscript") / (name + ".py"));
  TvmScriptSpelling spelling = TvmScriptSpelling::Release;
  IRModule mod = load(text, &spelling);
  CHECK(spelling == (name.find("_main") != std::string::npos ? TvmScriptSpelling::Main : TvmScriptSpelling::Release));
  CHECK(checkWellFormed(mod).empty());
  // Files in TVM's printed form (`mod.show()`) come back byte for byte; hand-written ones print canonically.
  std::string printed = printModule(mod, scriptOptions(spelling));
  if (!handwritten) CHECK(printed == text);
  IRModule again = load(printed);
  CHECK(structuralEqual(mod, again));
  CHECK(structuralHash(mod) == structuralHash(again));
  CHECK(printModule(again, scriptOptions(spelling)) == printed);
  // The Relay dialect holds the same IR (blocks in passlab's block form).
  CHECK(structuralEqual(mod, parseModule(printModule(mod), "relay.txt")));
  // The PrimFuncs alone, and in the other spelling, round trip too.
  TvmScriptSpelling other = spelling == TvmScriptSpelling::Main ? TvmScriptSpelling::Release : TvmScriptSpelling::Main;
  for (TvmScriptSpelling s : {spelling, other}) {
    std::string alone = printPrimFuncs(mod, s);
    IRModule reread = load(header(s) + alone);
    // The releases' asserts have no error kind: only that is lost on the way to them.
    if (s == TvmScriptSpelling::Main || !hasErrorKinds(mod)) CHECK(structuralEqual(mod, reread));
  }
}

TEST_CASE("TVMScript TIR: what the reader makes of the corpus", "[tvmscript][tir]") {
  IRModule mm = load(readFile(corpusDir("tvmscript") / "tir_matmul.py"));
  const auto* fn = as<PrimFuncNode>(mm->lookup("matmul"));
  REQUIRE(fn);
  // Public: the frame adds global_symbol; the implicit root block is there.
  CHECK(fn->attrs.getString("global_symbol", "") == "matmul");
  const auto* root = tir::as<tir::BlockNode>(fn->body);
  REQUIRE(root);
  CHECK(root->name == "root");
  IRModule target = load(readFile(corpusDir("tvmscript") / "tir_target.py"));
  const auto* scale = as<PrimFuncNode>(target->lookup("scale"));
  REQUIRE(scale);
  CHECK(scale->attrs.getString("target", "") == "hexagon -mcpu=hexagonv68");
  CHECK_FALSE(tir::hasBlocks(scale->body));  // no blocks, no root block
  IRModule conv = load(readFile(corpusDir("tvmscript") / "tir_conv_where.py"));
  const auto* c = as<PrimFuncNode>(conv->lookup("conv1d_relu"));
  REQUIRE(c);
  CHECK_FALSE(c->attrs.contains("global_symbol"));  // private=True
  const auto* croot = tir::as<tir::BlockNode>(c->body);
  REQUIRE(croot);
  CHECK(croot->allocBuffers.size() == 1);
  IRModule main = load(readFile(corpusDir("tvmscript") / "tir_matmul_main.py"));
  CHECK(as<PrimFuncNode>(main->lookup("matmul"))->attrs.getBool("s_tir", false));
  // Main's hand-written forms: T.axis.S, a block's own scratch buffer, T.let, a target dict.
  IRModule hw = load(readFile(corpusDir("tvmscript") / "handwritten_tir_main.py"));
  const auto* rs = as<PrimFuncNode>(hw->lookup("rowsum_scaled"));
  REQUIRE(rs);
  CHECK(rs->attrs.getString("target", "") == "llvm -mcpu=skylake");
  NDArray x = randomArray(DTypeCode::Float16, {4, 6}, 9);
  std::vector<NDArray> args{x, NDArray(DTypeCode::Float32, {4})};
  evaluatePrimFunc(hw, "rowsum_scaled", args);
  std::vector<double> xs = toDoubles(x), ys = toDoubles(args[1]);
  for (int i = 0; i < 4; ++i) {
    float acc = 0;
    for (int k = 0; k < 6; ++k) acc += static_cast<float>(xs[i * 6 + k]);
    CHECK(ys[i] == Approx(acc * 0.5f));
  }
}

TEST_CASE("TVMScript TIR: a block without T.reads/T.writes gets its regions from its statements", "[tvmscript][tir]") {
  IRModule mod = load(R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((8, 4), "float32"), B: T.Buffer((8,), "float32")):
    for i, k in T.grid(8, 4):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
    for i in range(8):
        with T.block("W"):
            vi = T.axis.spatial(8, i)
            for j in range(4):
                A[vi, j] = B[vi]
)");
  std::string printed = printPrimFuncs(mod, TvmScriptSpelling::Release);
  CHECK(printed.find("            T.reads(B[vi], A[vi, vk])\n            T.writes(B[vi])\n") != std::string::npos);
  // An index over a loop inside the block covers the whole buffer.
  CHECK(printed.find("            T.reads(B[vi])\n            T.writes(A[0:8, 0:4])\n") != std::string::npos);
}

TEST_CASE("TVMScript TIR: block-form PrimFuncs compute what the loop form computes", "[tvmscript][tir]") {
  // The hand-written softmax row (handle + match_buffer, lets, if/else) on the interpreter.
  IRModule sm = load(readFile(corpusDir("tvmscript") / "handwritten_tir_softmax.py"));
  NDArray a = randomArray(DTypeCode::Float32, {8}, 5);
  std::vector<NDArray> args{a, NDArray(DTypeCode::Float32, {8})};
  evaluatePrimFunc(sm, "softmax_row", args);
  std::vector<double> x = toDoubles(a), y = toDoubles(args[1]);
  double mx = -1e30, sum = 0;
  for (double v : x) mx = std::max(mx, v);
  for (double v : x) sum += std::exp(v - mx);
  for (size_t i = 0; i < 8; ++i) CHECK(y[i] == Approx(std::exp(x[i] - mx) / sum).epsilon(1e-5));
  // The JIT agrees with the interpreter.
  std::vector<NDArray> jit{a, NDArray(DTypeCode::Float32, {8})};
  codegen::HostModule::compile(sm)->callPrimFunc("softmax_row", jit);
  CHECK(maxAbsDiff(jit[1], args[1]) < 1e-6);
}

namespace {
const char* kCallTirModule = R"(# from tvm.script import ir as I
# from tvm.script import relax as R
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((16, 10), "float32"), B: T.Buffer((16, 10), "float32"), C: T.Buffer((16, 10), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i, j in T.grid(16, 10):
            with T.block("C"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(A[v_i, v_j], B[v_i, v_j])
                T.writes(C[v_i, v_j])
                C[v_i, v_j] = A[v_i, v_j] + B[v_i, v_j]

    @T.prim_func(private=True)
    def matmul(A: T.Buffer((16, 12), "float32"), B: T.Buffer((12, 10), "float32"), C: T.Buffer((16, 10), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i, j, k in T.grid(16, 10, 12):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0.0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    @R.function
    def main(x: R.Tensor((16, 12), dtype="float32"), w: R.Tensor((12, 10), dtype="float32"), b: R.Tensor((16, 10), dtype="float32")) -> R.Tensor((16, 10), dtype="float32"):
        cls = Module
        lv = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((16, 10), dtype="float32"))
        gv = R.call_tir(cls.add, (lv, b), out_sinfo=R.Tensor((16, 10), dtype="float32"))
        return gv
)";

const char* kGraphModule = R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16, 12), dtype="float32"), w: R.Tensor((12, 10), dtype="float32"), b: R.Tensor((16, 10), dtype="float32")) -> R.Tensor((16, 10), dtype="float32"):
        lv = R.matmul(x, w, out_dtype="void")
        gv = R.add(lv, b)
        return gv
)";
}  // namespace

TEST_CASE("TVMScript TIR: R.call_tir of block-form PrimFuncs matches the graph-level ops", "[tvmscript][tir][codegen]") {
  IRModule lowered = load(kCallTirModule), graph = load(kGraphModule);
  std::vector<NDArray> inputs{randomArray(DTypeCode::Float32, {16, 12}, 1), randomArray(DTypeCode::Float32, {12, 10}, 2),
                              randomArray(DTypeCode::Float32, {16, 10}, 3)};
  std::vector<Value> args(inputs.begin(), inputs.end());
  NDArray reference = evaluate(graph, "main", args).tensor();
  NDArray interp = evaluate(lowered, "main", args).tensor();
  CHECK(maxAbsDiff(interp, reference) < 1e-5);
  auto host = codegen::HostModule::compile(lowered);
  std::vector<NDArray> jit = host->runEntry(inputs);
  REQUIRE(jit.size() == 1);
  CHECK(maxAbsDiff(jit[0], reference) < 1e-5);
}

TEST_CASE("TVMScript TIR: block-form PrimFuncs run under qemu-hexagon", "[tvmscript][tir][hexagon][slow]") {
  IRModule mod = load(readFile(corpusDir("tvmscript") / "tir_conv_where.py"));
  std::vector<NDArray> args{randomArray(DTypeCode::Float32, {1, 3, 18}, 7), randomArray(DTypeCode::Float32, {4, 3, 3}, 8),
                            NDArray(DTypeCode::Float32, {1, 4, 16})};
  std::vector<NDArray> interp = args;
  interp[2] = NDArray(DTypeCode::Float32, {1, 4, 16});
  evaluatePrimFunc(mod, "conv1d_relu", interp);
  std::vector<NDArray> outs = codegen::runPrimFuncHexagon(mod, "conv1d_relu", args, codegen::makeTempDir("tvmscript-tir"));
  REQUIRE(outs.size() == 3);
  CHECK(maxAbsDiff(outs[2], interp[2]) < 1e-5);
  // The Relax module's entry (R.call_tir of the block-form matmul and add) matches the graph-level reference.
  IRModule lowered = load(kCallTirModule), graph = load(kGraphModule);
  std::vector<NDArray> inputs{randomArray(DTypeCode::Float32, {16, 12}, 1), randomArray(DTypeCode::Float32, {12, 10}, 2),
                              randomArray(DTypeCode::Float32, {16, 10}, 3)};
  NDArray reference = evaluate(graph, "main", std::vector<Value>(inputs.begin(), inputs.end())).tensor();
  codegen::Artifacts artifacts = codegen::build(lowered, codegen::Target::hexagonEmulated());
  codegen::HexagonRun run = codegen::runHexagon(artifacts, inputs, codegen::makeTempDir("tvmscript-tir-entry"));
  REQUIRE(run.outputs.size() == 1);
  CHECK(maxAbsDiff(run.outputs[0], reference) < 1e-5);
}

TEST_CASE("TVMScript TIR: what passlab's TIR cannot hold is refused, located", "[tvmscript][tir]") {
  auto [body, expected] = GENERATE(table<std::string, std::string>({
      {"    for i in T.thread_binding(4, thread=\"threadIdx.x\"):\n        A[i] = T.float32(0)\n", "T.thread_binding: GPU thread bindings"},
      {"    with T.While(A[0] > T.float32(0)):\n        A[0] = T.float32(1)\n", "T.While: passlab's TIR has no while loop"},
      {"    A[0] = T.let(x, 1, x)\n", "'x' must be declared for the let first"},
      {"    A[0] = T.frobnicate(1)\n", "unknown TIR name T.frobnicate"},
      {"    A[0] = T.sqrtt(A[1])\n", "did you mean T.sqrt?"},
      {"    with T.sblok(\"b\"):\n        A[0] = T.float32(0)\n", "did you mean T.sblock?"},
      {"    A[0] = B[0]\n", "undefined name 'B'"},
      {"    A[0, 1] = T.float32(0)\n", "has 1 dimensions but 2 indices"},
      {"    with T.block(\"b\"):\n        vi = T.axis.remap(\"S\", [k])\n        A[vi] = T.float32(0)\n", "undefined name 'k'"},
      {"    for i in range(4):\n        with T.block(\"b\"):\n            vi, vj = T.axis.remap(\"S\", [i])\n            A[vi] = T.float32(0)\n", "one kind per variable"},
      {"    A[0] += T.float32(1)\n", "augmented assignment"},
      {"    T.reads(A[0])\n", "belongs directly inside a block"},
      {"    A[0] = 1 / 2\n", "'/' on integers"},
      {"    A[0] = T.float32(T.int64())\n", "declares a variable"},
      {"    x = T.int64()\n    A[0] = T.Cast(\"float32\", x)\n", "used outside a T.Let that binds it"},
      {"    for i in range(4):\n        with T.block(\"b\"):\n            vi = T.axis.spatial(1.5, i)\n            A[vi] = T.float32(0)\n", "domain must be an integer expression"},
      {"    for i in range(T.float32(4)):\n        A[0] = T.float32(0)\n", "range must be integers"},
  }));
  std::string text = "from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n" + body;
  std::string error = loadError(text);
  INFO(text);
  CHECK(error.find(expected) != std::string::npos);
  CHECK(error.find("t.py:") != std::string::npos);
}

TEST_CASE("TVMScript TIR: damaged corpus files give errors, never crashes", "[tvmscript][tir]") {
  // Every line deleted in turn, every prefix, and every line's first token
  // doubled: each load either succeeds or throws a located DiagnosticError.
  size_t loads = 0, errors = 0;
  for (const std::string& name : corpusNames("tvmscript", ".py")) {
    if (name.rfind("tir_", 0) != 0 && name.rfind("handwritten_tir", 0) != 0) continue;
    std::string text = readFile(corpusDir("tvmscript") / (name + ".py"));
    std::vector<size_t> starts{0};
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts.push_back(i + 1);
    for (size_t k = 0; k + 1 < starts.size(); ++k) {
      size_t a = starts[k], b = starts[k + 1];
      size_t indent = text.find_first_not_of(' ', a);
      size_t word = text.find_first_of(" (:[.=", indent);
      for (const std::string& variant :
           {text.substr(0, a) + text.substr(b), text.substr(0, b - 1), text.substr(0, indent) + text.substr(indent, word - indent) + " " + text.substr(indent)}) {
        ++loads;
        try {
          IRModule mod = load(variant);
          // What loads also prints, lowers and is checked without crashing.
          printPrimFuncs(mod, TvmScriptSpelling::Release);
          tir::lowerBlocks(mod);
          checkWellFormed(mod);
        } catch (const DiagnosticError& e) {
          ++errors;
          INFO(name << " variant at line " << k + 1 << ": " << e.what());
          CHECK(std::string(e.what()).find("t.py:") != std::string::npos);
        }
      }
    }
  }
  CHECK(loads > 300);
  CHECK(errors > 0);
}

TEST_CASE("TVMScript TIR: fuzz findings stay fixed", "[tvmscript][tir]") {
  // An annotation keyed "" printed as {} (fixpoint broken); a (min, end) domain written min + extent.
  std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((8,), "float32"), n: T.int32):
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial((n, n + 4), i + n)
            T.reads()
            T.writes(A[vi])
            T.block_attr({"": 1})
            A[vi] = T.float32(0)
)";
  IRModule mod = load(text);
  std::string once = printModule(mod, scriptOptions(TvmScriptSpelling::Release));
  CHECK(once.find("T.block_attr({\"\": 1})") != std::string::npos);
  CHECK(once.find("vi = T.axis.spatial((n, n + 4), i + n)") != std::string::npos);
  IRModule again = load(once);
  CHECK(structuralEqual(mod, again));
  CHECK(printModule(again, scriptOptions(TvmScriptSpelling::Release)) == once);
}

TEST_CASE("TVMScript TIR: every statement and expression kind survives print -> load", "[tvmscript][tir]") {
  // Written in the Relay dialect, printed as TVMScript in both spellings, read back.
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
primfn @helper(%H: Buffer[(4), int32]) {
  %H[0] = 1;
}
primfn @kinds(%A: Buffer[(4, 8), float32], %B: Buffer[(8), float16], %I: Buffer[(4), int32], %n: int32, %big: int64, global_symbol="kinds_sym", target="llvm") {
  allocate_const %W: Buffer[(4), float32] = [0.5, -1, 2.25, 0];
  {
    allocate %T: Buffer[(4), float32];
    for (%i, 0, 4, parallel) {
      for (%j, 2, 6, unrolled) {
        %T[%i] = max(%A[%i, %j], %W[%i]) * -2f + exp(%A[%i, 0]);
      }
    }
    for (%k, 0, 8, vectorized) {
      %B[%k] = float16(select(%k < 4 && !(%k == 1), %T[floormod(%k, 4)], sqrt(%A[0, %k])));
    }
  }
  for (%l: int64, 0i64, 4i64) {
    let %x: int32 = floordiv(%n, 2) - %n % 3 + %n / 7;
    if (%x >= 0 || %big > 10i64) {
      %I[%l] = min(%x, 5) * -1;
    } else {
      %I[%l] = int32(%A[0, 0]);
    }
  }
  @helper(%I);
  {
    let %y: float32 = if_then_else<float32>(%n > 0, 1f, 0.5f);
    %A[0, 0] = %y;
  }
  {
    assert(%n != 3 && %big < 5i64, "n is not 3");
    %A[2, 2] = float32(let(%z: int32 = %n * 2, %z + let(%w: int32 = %z, %w)));
  }
  assert(%n > -1, "n is not negative");
  %A[1, 1] = 3f;
}
)");
  for (TvmScriptSpelling spelling : {TvmScriptSpelling::Release, TvmScriptSpelling::Main}) {
    std::string printed = printPrimFuncs(mod, spelling);
    INFO(printed);
    IRModule again = load(header(spelling) + printed);
    CHECK(structuralEqual(mod, again));
    CHECK(printPrimFuncs(again, spelling) == printed);
  }
}
