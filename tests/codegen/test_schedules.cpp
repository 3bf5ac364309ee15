// LegalizeOps' host schedules, run on the host JIT against the reference
// interpreter: the wide-grid direct convolution (strides, dilations,
// asymmetric padding, groups, depthwise multipliers, grids shorter than one
// tile), pointwise tiles whose last tile overlaps, dense/matmul dot-product
// tiles (single rows, odd rows and columns, K tails), matmul row tiles,
// depthwise convolutions vectorized along channels, elementwise nests with
// merged axes, and the JIT's parallel compilation.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>

#include "codegen/codegen.h"
#include "core/interp/interpreter.h"
#include "core/pass/pass.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "passes/legalize_lower.h"
#include "passes/registry.h"

using namespace passlab;
using namespace passlab::codegen;

namespace {

NDArray randomTensor(std::vector<int64_t> shape, uint32_t seed) {
  NDArray a(DTypeCode::Float32, std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int64_t i = 0; i < a.numElements(); ++i) a.setFromDouble(i, dist(rng));
  return a;
}

/// Lowered for `target` (its -mattr shapes the schedules' vectors and tiles).
IRModule lower(const IRModule& mod, const std::string& target = "llvm") {
  PassRegistry registry;
  registerBuiltinPasses(registry);
  auto ctx = PassContext::create();
  AttrDict attrs = mod->attrs;
  attrs.set(module_attr::kTarget, AttrValue::string(target));
  return runPass(*parsePipeline("InferType,FoldConstant,FuseOps,LambdaLifting,LegalizeOps", registry), withModuleAttrs(mod, attrs), *ctx);
}

/// Relative to the largest |reference|: the schedules sum in other orders
/// than the interpreter (partial sums over K), never with contraction.
void requireClose(const NDArray& actual, const NDArray& expected) {
  REQUIRE(actual.numElements() == expected.numElements());
  double scale = 1e-30, worst = 0;
  for (int64_t i = 0; i < expected.numElements(); ++i) scale = std::max(scale, std::abs(expected.getAsDouble(i)));
  for (int64_t i = 0; i < expected.numElements(); ++i) worst = std::max(worst, std::abs(actual.getAsDouble(i) - expected.getAsDouble(i)));
  CHECK(worst <= 1e-5 * scale);
}

/// Lowers `text` for `target`, runs @main on the host JIT compiled for that
/// target (both compile paths) and on the interpreter with the same random inputs.
void checkAgainstInterpreter(const std::string& text, const std::vector<std::vector<int64_t>>& inputShapes,
                             const std::string& target = "llvm") {
  IRModule mod = parseModule(text);
  IRModule lowered = lower(mod, target);
  REQUIRE(lowered->phase() == 2);
  std::vector<NDArray> inputs;
  for (size_t i = 0; i < inputShapes.size(); ++i) inputs.push_back(randomTensor(inputShapes[i], 17 + static_cast<uint32_t>(i)));
  std::vector<Value> args(inputs.begin(), inputs.end());
  Value reference = evaluate(mod, "main", args);
  for (bool keepText : {true, false}) {
    BuildOptions options;
    options.keepText = keepText;
    options.emitAssembly = keepText;
    options.hostTarget = Target::parse(target);
    auto host = HostModule::compile(lowered, options);
    INFO("kept text (one module) " << keepText << "; compile threads " << host->artifacts().compileThreads);
    std::vector<NDArray> outs = host->runEntry(inputs);
    REQUIRE(outs.size() == 1);
    requireClose(outs[0], reference.tensor());
  }
}

struct ConvCase {
  const char* what;
  std::vector<int64_t> data, weight;
  int sh, sw, dh, dw, groups;
  std::vector<int64_t> padding;
};

/// The host target as it is and, on an AVX-512 host, forced to AVX2: the
/// targets this machine can run code for, so both ISAs' schedules are
/// checked where the machine allows.
std::vector<std::string> runnableIsaTargets() {
  std::vector<std::string> out{"llvm"};
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2")) out.push_back("llvm -mattr=-avx512f");
#endif
  return out;
}

std::string ints(const std::vector<int64_t>& v) {
  std::ostringstream os;
  for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  return os.str();
}

}  // namespace

TEST_CASE("Schedules: conv2d geometries on the host JIT match the interpreter", "[schedules][codegen]") {
  auto c = GENERATE(values<ConvCase>({
      {"depthwise 3x3 stride 1", {1, 8, 9, 11}, {8, 1, 3, 3}, 1, 1, 1, 1, 8, {1, 1, 1, 1}},
      {"depthwise 5x5 stride 2", {1, 6, 14, 14}, {6, 1, 5, 5}, 2, 2, 1, 1, 6, {2, 2, 2, 2}},
      {"depthwise multiplier 2, stride 2x1", {1, 3, 10, 9}, {6, 1, 3, 3}, 2, 1, 1, 1, 3, {1, 0, 1, 2}},
      {"depthwise 5x5 on 7x7: one 80-lane tile", {1, 20, 7, 7}, {20, 1, 5, 5}, 1, 1, 1, 1, 20, {2, 2, 2, 2}},
      {"depthwise 3x3 on a 190-position grid: 96-lane tiles", {1, 4, 10, 17}, {4, 1, 3, 3}, 1, 1, 1, 1, 4, {1, 1, 1, 1}},
      {"depthwise stride 2, even width (columns outside the phases' common range), batch 2", {2, 6, 15, 14}, {6, 1, 3, 3}, 2, 2, 1, 1, 6, {1, 1, 1, 1}},
      {"stem 3x3 stride 2, 4-channel tiles", {1, 3, 17, 19}, {8, 3, 3, 3}, 2, 2, 1, 1, 1, {1, 1, 1, 1}},
      {"depthwise 3x3 on 70-wide rows: tiles by row, the last overlapping", {1, 3, 9, 70}, {3, 1, 3, 3}, 1, 1, 1, 1, 3, {1, 1, 1, 1}},
      {"stem stride 2 on 65-wide output rows: 4-channel row tiles", {1, 3, 9, 130}, {8, 3, 3, 3}, 2, 2, 1, 1, 1, {1, 1, 1, 1}},
      {"grouped, dilation 2", {2, 8, 12, 12}, {8, 4, 3, 3}, 1, 1, 2, 2, 2, {2, 2, 2, 2}},
      {"stride 3, asymmetric padding, odd channels", {1, 5, 13, 16}, {7, 5, 2, 3}, 3, 3, 1, 1, 1, {0, 1, 2, 0}},
      {"grid shorter than one tile", {1, 4, 3, 3}, {4, 1, 3, 3}, 1, 1, 1, 1, 4, {0, 0, 0, 0}},
      {"depthwise 5x5 on 3x3 along 40 channels (a last block of 8 on AVX-512)", {1, 40, 3, 3}, {40, 1, 5, 5}, 1, 1, 1, 1, 40, {2, 2, 2, 2}},
      {"depthwise 5x5 stride 2 to 6x6 along 24 channels, batch 2", {2, 24, 12, 12}, {24, 1, 5, 5}, 2, 2, 1, 1, 24, {2, 2, 2, 2}},
      {"depthwise 3x3 stride 2 to 3x3 along 17 channels, asymmetric padding, unread last column", {1, 17, 6, 7}, {17, 1, 3, 3}, 2, 2, 1, 1, 17, {1, 0, 0, 1}},
      {"depthwise 3x3 dilation 2 on 3x3 along 32 channels", {1, 32, 3, 3}, {32, 1, 3, 3}, 1, 1, 2, 2, 32, {2, 2, 2, 2}},
      {"pointwise, last tile overlapping (7x7)", {1, 16, 7, 7}, {20, 16, 1, 1}, 1, 1, 1, 1, 1, {0, 0, 0, 0}},
      {"pointwise, 4-position tail (14x14)", {1, 8, 14, 14}, {9, 8, 1, 1}, 1, 1, 1, 1, 1, {0, 0, 0, 0}},
      {"pointwise, fewer positions than a vector", {1, 8, 3, 3}, {8, 8, 1, 1}, 1, 1, 1, 1, 1, {0, 0, 0, 0}},
      {"small spatial: pointwise 64 -> 48 channels on 3x3", {1, 64, 3, 3}, {48, 64, 1, 1}, 1, 1, 1, 1, 1, {0, 0, 0, 0}},
      {"small spatial: 3x3 padded on 3x3, channel and position leftovers", {1, 40, 3, 3}, {22, 40, 3, 3}, 1, 1, 1, 1, 1, {1, 1, 1, 1}},
      {"small spatial: stride 2 to 3x2, asymmetric padding, batch 2", {2, 16, 5, 5}, {13, 16, 3, 3}, 2, 2, 1, 1, 1, {1, 1, 1, 0}},
      {"small spatial: one position (squeeze-excite)", {1, 40, 1, 1}, {24, 40, 1, 1}, 1, 1, 1, 1, 1, {0, 0, 0, 0}},
      {"small spatial: dilation 2 on 3x3", {1, 32, 3, 3}, {8, 32, 3, 3}, 1, 1, 2, 2, 1, {2, 2, 2, 2}},
  }));
  INFO(c.what);
  int64_t oc = c.weight[0];
  // conv2d + bias + hard-swish (the producer's value read twice) as FuseOps groups them.
  std::ostringstream text;
  text << "#[version = \"0.0.5\"]\n"
       << "def @main(%x: Tensor[(" << ints(c.data) << "), float32], %w: Tensor[(" << ints(c.weight) << "), float32], %b: Tensor[(" << oc
       << "), float32]) {\n"
       << "  %0 = nn.conv2d(%x, %w, strides=[" << c.sh << ", " << c.sw << "], padding=[" << ints(c.padding) << "], dilation=[" << c.dh
       << ", " << c.dw << "], groups=" << c.groups << ", channels=" << oc << ", kernel_size=[" << c.weight[2] << ", " << c.weight[3] << "]);\n"
       << "  %1 = nn.bias_add(%0, %b);\n"
       << "  %2 = clip(add(multiply(%1, 0.166667f), 0.5f), a_min=0f, a_max=1f);\n"
       << "  multiply(%1, %2)\n"
       << "}\n";
  for (const std::string& target : runnableIsaTargets()) {
    INFO("target " << target);
    checkAgainstInterpreter(text.str(), {c.data, c.weight, {oc}}, target);
  }
}

TEST_CASE("Schedules: conv2d_transpose with a kernel as large as its stride matches the interpreter", "[schedules][codegen]") {
  // One GEMM per kernel position, the column taps stored interleaved; fused
  // with bias and a skip connection as a detection head's upsampling is.
  auto [what, data, weight, sh, sw] = GENERATE(table<const char*, std::vector<int64_t>, std::vector<int64_t>, int, int>({
      {"2x2 stride 2, channels not a multiple of 4", {1, 6, 5, 7}, {6, 10, 2, 2}, 2, 2},
      {"3x3 stride 3, rows of two overlapping 32-column chunks, batch 2", {2, 3, 4, 37}, {3, 4, 3, 3}, 3, 3},
      {"2x1 stride 2x1", {1, 5, 6, 9}, {5, 8, 2, 1}, 2, 1},
  }));
  INFO(what);
  int64_t oc = weight[1];
  std::vector<int64_t> out{data[0], oc, data[2] * sh, data[3] * sw};
  std::ostringstream text;
  text << "#[version = \"0.0.5\"]\n"
       << "def @main(%x: Tensor[(" << ints(data) << "), float32], %w: Tensor[(" << ints(weight) << "), float32], %b: Tensor[(" << oc
       << "), float32], %skip: Tensor[(" << ints(out) << "), float32]) {\n"
       << "  %0 = nn.conv2d_transpose(%x, %w, channels=" << oc << ", kernel_size=[" << weight[2] << ", " << weight[3] << "], strides=[" << sh
       << ", " << sw << "]);\n"
       << "  %1 = nn.bias_add(%0, %b);\n"
       << "  add(%1, %skip)\n"
       << "}\n";
  for (const std::string& target : runnableIsaTargets()) {
    INFO("target " << target);
    checkAgainstInterpreter(text.str(), {data, weight, {oc}, out}, target);
  }
}

TEST_CASE("Schedules: dense, matmul and batch_matmul tiles match the interpreter", "[schedules][codegen]") {
  auto [what, body, shapes] = GENERATE(table<const char*, const char*, std::vector<std::vector<int64_t>>>({
      {"one row, 8 columns per tile, K tail", "nn.dense(%a, %b)", {{1, 37}, {19, 37}}},
      {"odd rows and columns, K multiple of 8", "nn.dense(%a, %b)", {{5, 24}, {7, 24}}},
      {"N-d data, K multiple of 16", "nn.dense(%a, %b)", {{2, 3, 32}, {6, 32}}},
      {"matmul with transpose_b", "nn.matmul(%a, %b, transpose_b=True)", {{3, 20}, {5, 20}}},
      {"batch_matmul broadcasting a batch of 1", "nn.batch_matmul(%a, %b, transpose_b=True)", {{3, 4, 18}, {1, 6, 18}}},
      {"matmul by [K, N]: odd rows, whole column tiles and a tail", "nn.matmul(%a, %b)", {{5, 30}, {30, 120}}},
      {"matmul of [1, T, C] by [C, N]: rows of 3-d data, columns fewer than a tile", "nn.matmul(%a, %b)", {{1, 7, 12}, {12, 53}}},
      {"batch_matmul by [K, N]", "nn.batch_matmul(%a, %b, transpose_b=False)", {{2, 3, 16}, {2, 16, 20}}},
  }));
  INFO(what);
  std::ostringstream text;
  text << "#[version = \"0.0.5\"]\n"
       << "def @main(%a: Tensor[(" << ints(shapes[0]) << "), float32], %b: Tensor[(" << ints(shapes[1]) << "), float32]) {\n"
       << "  nn.relu(" << body << ")\n}\n";
  for (const std::string& target : runnableIsaTargets()) {
    INFO("target " << target);
    checkAgainstInterpreter(text.str(), shapes, target);
  }
}

TEST_CASE("Schedules: the vector unit follows the target's -mcpu and -mattr", "[schedules]") {
  using legalize::vectorIsaFor;
  auto [mcpu, mattr, name, floats, registers] = GENERATE(table<const char*, const char*, const char*, int64_t, int64_t>({
      {"haswell", "", "avx2", 8, 16},
      {"znver3", "", "avx2", 8, 16},
      {"skylake-avx512", "", "avx512", 16, 32},
      {"znver4", "", "avx512", 16, 32},
      {"skylake-avx512", "-avx512f", "avx2", 8, 16},
      {"haswell", "+avx512bw", "avx512", 16, 32},
      {"znver4", "-avx2", "sse", 4, 16},
      {"sandybridge", "", "sse", 4, 16},
  }));
  INFO(mcpu << " " << mattr);
  legalize::VectorIsa isa = vectorIsaFor("llvm", mcpu, mattr);
  CHECK(isa.name == name);
  CHECK(isa.floats == floats);
  CHECK(isa.registers == registers);
  CHECK(vectorIsaFor("hexagon", "hexagonv68", "+hvxv68").name == "hvx");
  // Without -mcpu, -mattr applies to this machine's CPU: disabling AVX-512 never leaves it.
  CHECK(vectorIsaFor("llvm", "", "-avx512f").name != "avx512");
}

TEST_CASE("Schedules: forcing AVX2 or AVX-512 with -mattr shapes the tiles and the code", "[schedules][codegen]") {
  // A 1x48x3x3 pointwise output: the small-spatial schedule's partial sums
  // are one vector of the ISA (8 or 16 lanes) and its tiles 3 or 4 channels.
  const char* text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 64, 3, 3), float32], %w: Tensor[(48, 64, 1, 1), float32]) {
  nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=48, kernel_size=[1, 1])
}
)";
  auto [target, isa, accShape, reg] = GENERATE(table<const char*, const char*, const char*, const char*>({
      {"llvm -mcpu=haswell", "avx2", "%conv_acc: Buffer[(9, 8), float32]", "%ymm"},
      {"llvm -mattr=-avx512f", "avx2", "%conv_acc: Buffer[(9, 8), float32]", "%ymm"},
      {"llvm -mcpu=skylake-avx512", "avx512", "%conv_acc: Buffer[(12, 16), float32]", "%zmm"},
  }));
  INFO(target);
  IRModule lowered = lower(parseModule(text), target);
  std::string tir = printModule(lowered);
  CHECK(tir.find(accShape) != std::string::npos);
  Artifacts a = build(lowered, Target::parse(target));
  CHECK(a.vectorUnit.rfind(isa, 0) == 0);
  CHECK(a.assembly.find(reg) != std::string::npos);
  if (std::string(isa) == "avx2") CHECK(a.assembly.find("%zmm") == std::string::npos);
}

namespace {

/// Lines of x86 assembly in innermost loops (a label, no other label, a jump
/// back to it) that move a `reg` register ("%ymm") to or from a fixed stack
/// slot ("96(%rsp)"): spills in the code that runs most. Spills around a
/// call (memset) outside the loops cost nothing and are not counted.
int vectorSpillsInInnermostLoops(const std::string& assembly, const std::string& reg) {
  std::vector<std::string> lines;
  std::istringstream in(assembly);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  int spills = 0;
  size_t label = lines.size();  // the most recent label definition
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind(".LBB", 0) == 0 && line.back() == ':') {
      label = i;
      continue;
    }
    if (label == lines.size() || line.find('j') == std::string::npos) continue;
    const std::string name = lines[label].substr(0, lines[label].size() - 1);
    const size_t at = line.find(name);
    if (line.find("\tj") == std::string::npos || at == std::string::npos || at + name.size() != line.size()) continue;
    for (size_t k = label + 1; k < i; ++k) {
      const std::string& body = lines[k];
      const size_t slot = body.find("(%rsp)");
      spills += body.find(reg) != std::string::npos && slot != std::string::npos && slot > 0 && std::isdigit(static_cast<unsigned char>(body[slot - 1]));
    }
  }
  return spills;
}

/// LegalizeOps' remark messages of one lowering (the schedule it chose).
struct RemarkCollector : PassInstrument {
  std::vector<std::string> messages;
  std::string name() const override { return "remarks"; }
  void onRemark(const Remark& r) override { messages.push_back(std::string(r.ruleId()) + ": " + r.message); }
};

}  // namespace

TEST_CASE("Schedules: register tiles fit the ISA's registers (pointwise, 4-channel wide-grid and depthwise channel tiles on AVX2 and AVX-512)",
          "[schedules][codegen]") {
  // Pointwise: 40 channels over 14x14 positions: full tiles of both ISAs, a
  // last position tile that overlaps, and on AVX-512 a last tile of 8
  // channels. Wide grid: a stem (3 input channels, 3x3, stride 2) whose 9
  // taps LLVM unrolls, keeping every tap's data vector for the 4 channels.
  const char* pointwise = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 24, 14, 14), float32], %w: Tensor[(40, 24, 1, 1), float32]) {
  nn.relu(nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=40, kernel_size=[1, 1]))
}
)";
  const char* stem = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 40, 40), float32], %w: Tensor[(8, 3, 3, 3), float32]) {
  nn.relu(nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3]))
}
)";
  // The last column: stack moves of vector registers in innermost loops.
  // AVX-512's stem loop keeps one of its 36 broadcast weights on the stack
  // (a store and a load per 72 products: left as it is).
  // Depthwise 5x5 on a 3x3 map: vectorized along the channels on AVX2, one
  // vector of sums per position of the tile (AVX-512 keeps the wide grid).
  const char* depthwise = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 48, 3, 3), float32], %w: Tensor[(48, 1, 5, 5), float32]) {
  nn.relu(nn.conv2d(%x, %w, padding=[2, 2, 2, 2], groups=48, channels=48, kernel_size=[5, 5]))
}
)";
  auto [text, rule, target, accShape, tile, reg, spills] =
      GENERATE_COPY(table<const char*, const char*, const char*, const char*, const char*, const char*, int>({
          {pointwise, "legalize.conv-pointwise", "llvm -mcpu=haswell", "%conv_acc: Buffer[(4, 16), float32]",
           "register tiles of 4 channels x 16 positions (2 vectors each)", "%ymm", 0},
          {pointwise, "legalize.conv-pointwise", "llvm -mcpu=skylake-avx512", "%conv_acc: Buffer[(8, 32), float32]",
           "register tiles of 8 channels x 32 positions (2 vectors each)", "%zmm", 0},
          {stem, "legalize.conv-wide-grid", "llvm -mcpu=haswell", "%conv_acc: Buffer[(4, 8), float32]",
           "tiles of 4 channels x 8 positions (4 vector registers of accumulators)", "%ymm", 0},
          {stem, "legalize.conv-wide-grid", "llvm -mcpu=skylake-avx512", "%conv_acc: Buffer[(4, 32), float32]",
           "tiles of 4 channels x 32 positions (8 vector registers of accumulators)", "%zmm", 2},
          {depthwise, "legalize.conv-depthwise", "llvm -mcpu=haswell", "%conv_acc: Buffer[(9, 8), float32]",
           "vectorized along the channels: data and weights copied channels-last (7x7x48 and 25x48), tiles of 8 channels x 9 positions",
           "%ymm", 0},
      }));
  INFO(target << " " << rule);
  PassRegistry registry;
  registerBuiltinPasses(registry);
  auto ctx = PassContext::create();
  ctx->setRemarksEnabled(true);
  auto remarks = std::make_shared<RemarkCollector>();
  ctx->instruments().push_back(remarks);
  IRModule mod = parseModule(text);
  AttrDict attrs = mod->attrs;
  attrs.set(module_attr::kTarget, AttrValue::string(target));
  IRModule lowered = runPass(*parsePipeline("InferType,FuseOps,LambdaLifting,LegalizeOps", registry), withModuleAttrs(mod, attrs), *ctx);
  bool chosen = false;
  for (const std::string& m : remarks->messages)
    chosen = chosen || (m.rfind(std::string(rule) + ": ", 0) == 0 && m.find(tile) != std::string::npos);
  CHECK(chosen);
  CHECK(printModule(lowered).find(accShape) != std::string::npos);
  Artifacts a = build(lowered, Target::parse(target));
  // No innermost loop spills a vector register to the stack or reloads one:
  // the sums, broadcast weights, data vectors and products all fit.
  CHECK(vectorSpillsInInnermostLoops(a.assembly, reg) <= spills);
  CHECK(a.assembly.find(reg) != std::string::npos);
}

TEST_CASE("Schedules: pointwise tiles of both ISAs match the interpreter where the machine runs them", "[schedules][codegen]") {
  const char* text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 24, 14, 14), float32], %w: Tensor[(44, 24, 1, 1), float32]) {
  nn.relu(nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=44, kernel_size=[1, 1]))
}
)";
  for (const std::string& target : runnableIsaTargets()) {
    INFO(target);
    checkAgainstInterpreter(text, {{1, 24, 14, 14}, {44, 24, 1, 1}}, target);
  }
}

TEST_CASE("Schedules: elementwise nests merge trailing axes only where every access reads them together", "[schedules][codegen]") {
  // x * s broadcasts s over (H, W): the nest is C loops over H*W. x * r
  // broadcasts r over W only: merging would read r through floordiv/floormod
  // gathers, so the nest keeps its axes.
  const char* merged = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 6, 5, 7), float32], %s: Tensor[(1, 6, 1, 1), float32]) {
  multiply(%x, %s)
}
)";
  const char* kept = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 6, 5, 7), float32], %r: Tensor[(1, 1, 5, 1), float32]) {
  multiply(%x, %r)
}
)";
  IRModule mergedLow = lower(parseModule(merged));
  IRModule keptLow = lower(parseModule(kept));
  std::string mergedText = printModule(mergedLow), keptText = printModule(keptLow);
  CHECK(mergedText.find("0, 35, vectorized") != std::string::npos);
  CHECK(keptText.find("0, 7, vectorized") != std::string::npos);
  CHECK(keptText.find("0, 35, vectorized") == std::string::npos);
  checkAgainstInterpreter(merged, {{1, 6, 5, 7}, {1, 6, 1, 1}});
  checkAgainstInterpreter(kept, {{1, 6, 5, 7}, {1, 1, 5, 1}});
}

TEST_CASE("Schedules: a constant dense weight is passed transposed to a kernel with several rows", "[schedules][codegen]") {
  // dense(x, W) + bias with W a constant [N, K]: with 6 rows LegalizeOps passes
  // W^T [K, N] and the kernel accumulates rows of N; with one row W stays.
  int64_t rows = GENERATE(Catch::Generators::as<int64_t>{}, 6, 1);
  INFO("rows " << rows);
  const int64_t n = 10, k = 12;
  NDArray w = randomTensor({n, k}, 3), bias = randomTensor({n}, 4);
  Var x = makeVar("x", tensorType({rows, k}, DTypeCode::Float32));
  Expr body = makeOpCall(OpId::Add, {makeOpCall(OpId::Dense, {x, makeConstant(w)}), makeConstant(bias)});
  IRModule mod = makeModule({{"main", makeFunction({x}, body)}});
  IRModule lowered = lower(mod);
  REQUIRE(lowered->phase() == 2);
  std::string text = printModule(lowered);
  std::string transposedParam = "Buffer[(" + std::to_string(k) + ", " + std::to_string(n) + "), float32]";
  CHECK((text.find(transposedParam) != std::string::npos) == (rows > 1));
  NDArray input = randomTensor({rows, k}, 5);
  Value reference = evaluate(mod, "main", {Value(input)});
  // The lowered module agrees on the TIR interpreter too: the call passes the transposed constant.
  requireClose(evaluate(lowered, "main", {Value(input)}).tensor(), reference.tensor());
  auto host = HostModule::compile(lowered);
  requireClose(host->runEntry({input})[0], reference.tensor());
}

TEST_CASE("Schedules: an epilogue read twice (hard-swish) still finishes in the convolution's accumulator", "[schedules][codegen]") {
  // x * clip(x / 6 + 1/2) reads x = conv + bias twice: the fused group needs
  // no buffer for x, the whole activation runs on the accumulator's value.
  const char* text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4, 6, 6), float32], %w: Tensor[(8, 4, 1, 1), float32], %b: Tensor[(8), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=8, kernel_size=[1, 1]);
  %1 = nn.bias_add(%0, %b);
  multiply(%1, clip(add(multiply(%1, 0.166667f), 0.5f), a_min=0f, a_max=1f))
}
)";
  IRModule lowered = lower(parseModule(text));
  std::string printed = printModule(lowered);
  CHECK(printed.find("primfn @fused_nn_conv2d_nn_bias_add_multiply_add_clip_multiply(") != std::string::npos);
  CHECK(printed.find("allocate %T_bias_add") == std::string::npos);
  checkAgainstInterpreter(text, {{1, 4, 6, 6}, {8, 4, 1, 1}, {8}});
}

TEST_CASE("Schedules: global average pooling sums each channel's plane in partial sums", "[schedules][codegen]") {
  // Planes shorter than one block of partial sums, with and without a tail.
  auto shape = GENERATE(values<std::vector<int64_t>>({{1, 6, 7, 7}, {2, 3, 4, 5}, {1, 4, 1, 3}, {1, 5, 4, 4}}));
  INFO(ints(shape));
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(" + ints(shape) + "), float32]) {\n  nn.global_avg_pool2d(%x)\n}\n";
  IRModule lowered = lower(parseModule(text));
  CHECK(printModule(lowered).find("pool_count") == std::string::npos);  // no window loops, no tap counts
  checkAgainstInterpreter(text, {shape});
}

TEST_CASE("Schedules: LLVM vectorizes the schedule's vector axis, not the loops around it", "[schedules][codegen]") {
  // A 14-wide depthwise row: the finish loop is 14 wide inside a loop over
  // rows. LLVM used to unroll the row and vectorize over rows (a gather or
  // scatter per element); now the row is one 8-wide vector and a remainder,
  // and the loops around it are marked not to vectorize.
  const char* text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4, 14, 14), float32], %w: Tensor[(4, 1, 5, 5), float32]) {
  nn.conv2d(%x, %w, padding=[2, 2, 2, 2], groups=4, channels=4, kernel_size=[5, 5])
}
)";
  IRModule lowered = lower(parseModule(text));
  Artifacts a = build(lowered, Target::host());
  CHECK(a.llvmIR.find("!\"llvm.loop.vectorize.enable\", i1 false") != std::string::npos);
  CHECK(a.llvmIR.find("!\"llvm.loop.vectorize.width\", i32 8") != std::string::npos);
  CHECK(a.llvmIR.find("!\"llvm.loop.unroll.disable\"") != std::string::npos);
  CHECK(a.llvmIROptimized.find("llvm.masked.gather") == std::string::npos);
  CHECK(a.llvmIROptimized.find("llvm.masked.scatter") == std::string::npos);
  checkAgainstInterpreter(text, {{1, 4, 14, 14}, {4, 1, 5, 5}});
}

TEST_CASE("Schedules: the small-spatial convolution's transposing patch copy stays scalar", "[schedules][codegen]") {
  // The patches are copied from NCHW into [position][reduction]: one side of
  // every copy moves by a plane or a reduction row per step. On AVX-512 LLVM
  // vectorized these loops into gathers and scatters (hundreds in one
  // 1x672x3x3 layer, a quarter of a 700-op model's compile); they are marked
  // not to vectorize. A 1x1 kernel (the copy is a transpose) and a padded,
  // strided 3x3 one (taps in the padding stay zero).
  auto [shapes, text] = GENERATE(table<std::vector<std::vector<int64_t>>, const char*>({
      {{{1, 64, 3, 3}, {48, 64, 1, 1}}, R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 64, 3, 3), float32], %w: Tensor[(48, 64, 1, 1), float32]) {
  nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=48, kernel_size=[1, 1])
}
)"},
      {{{1, 40, 6, 6}, {24, 40, 3, 3}}, R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 40, 6, 6), float32], %w: Tensor[(24, 40, 3, 3), float32]) {
  nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], channels=24, kernel_size=[3, 3])
}
)"},
  }));
  for (const char* target : {"llvm -mcpu=skylake-avx512", "llvm -mcpu=haswell"}) {
    INFO(target << "\n" << text);
    IRModule lowered = lower(parseModule(text), target);
    REQUIRE(printModule(lowered).find("conv_patches") != std::string::npos);
    Artifacts a = build(lowered, Target::parse(target));
    CHECK(a.llvmIR.find("!\"llvm.loop.vectorize.enable\", i1 false") != std::string::npos);
    CHECK(a.llvmIROptimized.find("llvm.masked.gather") == std::string::npos);
    CHECK(a.llvmIROptimized.find("llvm.masked.scatter") == std::string::npos);
  }
  for (const std::string& target : runnableIsaTargets()) checkAgainstInterpreter(text, shapes, target);
}

TEST_CASE("Schedules: softmax and sigmoid run exp through the vector math library", "[schedules][codegen]") {
  // Rows of 24 (one 16-lane vector and a remainder), 1000 (a classifier's
  // head) and 5 (shorter than the partial sums: the scalar schedule).
  auto shape = GENERATE(values<std::vector<int64_t>>({{3, 24}, {2, 1000}, {4, 5}}));
  INFO(ints(shape));
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(" + ints(shape) + "), float32]) {\n  nn.softmax(%x, axis=-1)\n}\n";
  checkAgainstInterpreter(text, {shape});
  if (shape.back() >= 8) {
    Artifacts a = build(lower(parseModule(text)), Target::host());
    // glibc's libmvec names its variants _ZGV<isa>N<lanes>v_expf.
    CHECK(a.llvmIROptimized.find("v_expf(") != std::string::npos);
  }
  std::string sigmoid = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 8, 10, 10), float32]) {\n  sigmoid(%x)\n}\n";
  checkAgainstInterpreter(sigmoid, {{1, 8, 10, 10}});
  CHECK(build(lower(parseModule(sigmoid)), Target::host()).llvmIROptimized.find("v_expf(") != std::string::npos);
  // AVX2 forced on an AVX-512 host calls the AVX2 variants (_ZGVd), never the
  // AVX-512 ones, whose zmm arguments AVX2 code cannot pass.
  for (const std::string& target : runnableIsaTargets()) {
    INFO("target " << target);
    checkAgainstInterpreter(text, {shape}, target);
    checkAgainstInterpreter(sigmoid, {{1, 8, 10, 10}}, target);
  }
  Artifacts avx2 = build(lower(parseModule(sigmoid), "llvm -mcpu=haswell"), Target::parse("llvm -mcpu=haswell"));
  CHECK(avx2.llvmIROptimized.find("_ZGVe") == std::string::npos);
}

TEST_CASE("Schedules: a reshape divides only within the axes it regroups", "[schedules][codegen]") {
  // Shapes split where their running products agree: [1, 120, 24] against
  // [1, 120, 1, 24] is a copy, axis by axis. An input axis covering several
  // output axes ([6, 4] to [2, 3, 4]) only multiplies; an output axis covering
  // several input axes ([2, 3, 4] to [6, 4]) or a regrouping ([4, 6] to [3, 8])
  // divides.
  struct ReshapeCase {
    std::vector<int64_t> in, out;
    bool divides;
  };
  auto c = GENERATE(values<ReshapeCase>({{{1, 120, 24}, {1, 120, 1, 24}, false},
                                         {{2, 3, 4}, {6, 4}, true},
                                         {{6, 4}, {2, 3, 4}, false},
                                         {{4, 6}, {3, 8}, true},
                                         {{1, 1, 5}, {5}, false},
                                         {{2, 12}, {4, 3, 2}, true}}));
  INFO(ints(c.in) << " -> " << ints(c.out));
  // The transpose after the reshape keeps the copy from collapsing into one flat loop.
  std::string perm;
  for (size_t d = c.out.size(); d-- > 0;) perm += std::to_string(d) + (d ? ", " : "");
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(" + ints(c.in) + "), float32]) {\n  transpose(reshape(%x, newshape=[" + ints(c.out) +
                     "]), axes=[" + perm + "])\n}\n";
  std::string printed = printModule(lower(parseModule(text)));
  CHECK((printed.find("floordiv") != std::string::npos || printed.find("floormod") != std::string::npos) == c.divides);
  checkAgainstInterpreter(text, {c.in});
}

TEST_CASE("Schedules: a flattened convolution's epilogue stores rows and calls the vector exp", "[schedules][codegen]") {
  // The pointwise convolution tiles 32 flattened positions; its output is
  // indexed [n, c, floordiv(p, W), floormod(p, W)], which the emitter folds
  // back into p (no division left in the IR). The sigmoid's tile loop is no
  // longer forced 32 wide: no 32-lane exp exists, and LLVM had called the
  // scalar expf for every lane.
  const char* text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 12, 12), float32], %w: Tensor[(8, 16, 1, 1), float32], %b: Tensor[(8), float32]) {
  sigmoid(nn.bias_add(nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=8, kernel_size=[1, 1]), %b))
}
)";
  IRModule lowered = lower(parseModule(text));
  REQUIRE(printModule(lowered).find("floordiv") != std::string::npos);  // the TIR still unflattens
  Artifacts a = build(lowered, Target::host());
  CHECK(a.llvmIR.find("sdiv") == std::string::npos);
  CHECK(a.llvmIROptimized.find("v_expf(") != std::string::npos);
  CHECK(a.llvmIROptimized.find("@expf(") == std::string::npos);
  CHECK(a.llvmIROptimized.find("llvm.exp.v32f32") == std::string::npos);
  checkAgainstInterpreter(text, {{1, 16, 12, 12}, {8, 16, 1, 1}, {8}});
}

TEST_CASE("Schedules: the emitter folds an unflattened index back into the flat position only where it is exact", "[schedules][codegen]") {
  // B's three indices are unflattenIndex's form of q over (2, 4, 5): the
  // offset is q. D's pair divides by 5 over an axis of 6: the row-major
  // offset is row * 6 + column, not q.
  const char* folds = R"(#[version = "0.0.5"]
primfn @k(%A: Buffer[(40), float32], %B: Buffer[(2, 4, 5), float32]) {
  for (%q, 0, 40, vectorized) {
    %B[floordiv(%q, 20), floormod(floordiv(%q, 5), 4), floormod(%q, 5)] = %A[%q] + 1f;
  }
}
)";
  const char* keeps = R"(#[version = "0.0.5"]
primfn @k(%A: Buffer[(40), float32], %D: Buffer[(8, 6), float32]) {
  for (%q, 0, 40, vectorized) {
    %D[floordiv(%q, 5), floormod(%q, 5)] = %A[%q] + 1f;
  }
}
)";
  for (const char* text : {folds, keeps}) {
    const bool folded = text == folds;
    INFO((folded ? "folds" : "keeps"));
    IRModule mod = parseModule(text);
    CHECK((build(mod, Target::host()).llvmIR.find("sdiv") == std::string::npos) == folded);
    std::vector<NDArray> reference{randomTensor({40}, 1), folded ? NDArray(DTypeCode::Float32, {2, 4, 5}) : NDArray(DTypeCode::Float32, {8, 6})};
    std::vector<NDArray> compiled{reference[0], NDArray(reference[1].dtype(), reference[1].shape())};
    evaluatePrimFunc(mod, "k", reference);
    HostModule::compile(mod)->callPrimFunc("k", compiled);
    requireClose(compiled[1], reference[1]);
  }
}

TEST_CASE("Schedules: linear upsampling interpolates each input row once, with the interpreter's arithmetic", "[schedules][codegen]") {
  // Upsampling (2x, 3x, a non-integer 5 -> 12) goes through a scratch of
  // rows interpolated along x; downsampling keeps the one-nest schedule.
  auto [inShape, size, mode, separable] = GENERATE(table<std::vector<int64_t>, std::vector<int64_t>, const char*, bool>({
      {{2, 3, 8, 8}, {16, 16}, "half_pixel", true},
      {{1, 2, 5, 7}, {12, 21}, "align_corners", true},
      {{1, 4, 6, 6}, {18, 9}, "asymmetric", true},
      {{1, 2, 9, 8}, {4, 16}, "half_pixel", false},
  }));
  INFO(ints(inShape) << " -> " << ints(size) << " " << mode);
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(" + ints(inShape) + "), float32]) {\n  add(image.resize2d(%x, size=[" + ints(size) +
                     "], method=\"linear\", coordinate_transformation_mode=\"" + mode + "\"), 1f)\n}\n";
  CHECK((printModule(lower(parseModule(text))).find("rows_x") != std::string::npos) == separable);
  checkAgainstInterpreter(text, {inShape});
}

TEST_CASE("Schedules: parallel loops on the thread pool give one thread's outputs exactly", "[schedules][codegen]") {
  // Pointwise, depthwise and direct kernels with parallel outer loops large
  // enough for the pool: built with a pool of 3 threads they run their loops'
  // chunks on it, and every element is still summed by one thread in the
  // same order. The reshape's loop is below the pool's threshold: serial.
  const char* text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 32, 40, 40), float32], %w1: Tensor[(48, 32, 1, 1), float32], %w2: Tensor[(48, 1, 3, 3), float32],
          %w3: Tensor[(40, 48, 3, 3), float32], %w4: Tensor[(10, 4000), float32]) {
  %0 = nn.relu(nn.conv2d(%x, %w1, padding=[0, 0, 0, 0], channels=48, kernel_size=[1, 1]));
  %1 = nn.conv2d(%0, %w2, strides=[2, 2], padding=[1, 1, 1, 1], groups=48, channels=48, kernel_size=[3, 3]);
  %2 = nn.conv2d(%1, %w3, strides=[2, 2], padding=[1, 1, 1, 1], channels=40, kernel_size=[3, 3]);
  nn.dense(reshape(%2, newshape=[1, 4000]), %w4)
}
)";
  IRModule mod = parseModule(text);
  IRModule lowered = lower(mod);
  std::vector<std::vector<int64_t>> shapes{{1, 32, 40, 40}, {48, 32, 1, 1}, {48, 1, 3, 3}, {40, 48, 3, 3}, {10, 4000}};
  std::vector<NDArray> inputs;
  for (size_t i = 0; i < shapes.size(); ++i) inputs.push_back(randomTensor(shapes[i], 40 + static_cast<uint32_t>(i)));
  BuildOptions options;
  options.keepText = false;
  options.emitAssembly = false;
  options.reuseCompiledKernels = false;
  std::vector<NDArray> one = HostModule::compile(lowered, options)->runEntry(inputs);
  setThreadCount(3);
  std::unique_ptr<HostModule> threaded = HostModule::compile(lowered, options);
  resetThreadBusy();
  std::vector<NDArray> three;
  // A worker that is not running when a loop starts leaves its chunks to the
  // others (claimed chunks); on a busy machine it may take many runs before
  // one gets a core in time to take some.
  std::vector<int64_t> busy;
  for (int run = 0; run < 2000 && (busy.size() < 3 || busy[1] + busy[2] == 0); ++run) {
    three = threaded->runEntry(inputs);
    busy = threadBusyNs();
  }
  std::vector<std::string> loops = threaded->artifacts().parallelLoops;
  setThreadCount(1);
  REQUIRE(busy.size() == 3);
  CHECK(busy[1] + busy[2] > 0);  // a worker ran chunks (the caller may have run none: chunks are claimed)
  // The decisions: the pointwise kernel's loop on the pool, the reshape's serial.
  auto decided = [&](const std::string& kernel, const std::string& where) {
    for (const std::string& l : loops)
      if (l.rfind("@" + kernel + ":", 0) == 0 && l.find(where) != std::string::npos) return true;
    return false;
  };
  std::string listed;
  for (const std::string& l : loops) listed += l + "\n";
  INFO(listed);
  CHECK(decided("fused_nn_conv2d_nn_relu", ": thread pool"));
  CHECK(decided("fused_reshape", ": serial (below the pool's threshold"));
  REQUIRE(one.size() == 1);
  REQUIRE(three.size() == 1);
  CHECK(maxAbsError(one, three) == 0);
  std::vector<Value> args(inputs.begin(), inputs.end());
  requireClose(three[0], evaluate(mod, "main", args).tensor());
}
