// Code generation tests: TIR -> LLVM IR run by the host JIT and compared with
// the reference interpreter over every dtype; the module entry (a call_tir
// sequence); float16 constants; C for ccompiler functions; Hexagon programs
// run under qemu-hexagon ([slow]); errors for what cannot be compiled.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <tuple>

#include "codegen/codegen.h"
#include "codegen/entry_plan.h"
#include "codegen/object_cache.h"
#include "core/interp/interpreter.h"
#include "core/ir/ccompiler_ops.h"
#include "core/pass/pass.h"
#include "core/pass/registry.h"
#include "passes/registry.h"
#include "core/text/parser.h"

using namespace passlab;
using namespace passlab::codegen;

namespace {

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

/// Random values suited to the dtype (small integers so products do not just wrap).
NDArray randomFor(DataType d, std::vector<int64_t> shape, uint32_t seed) {
  NDArray a(d, std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-3.0, 3.0);
  for (int64_t i = 0; i < a.numElements(); ++i) {
    double v = dist(rng);
    if (d.isBool()) v = v > 0;
    else if (d.isUnsigned()) v = std::floor(std::fabs(v) * 40);
    else if (!d.isFloat()) v = std::floor(v * 20);
    a.setFromDouble(i, v);
  }
  return a;
}

/// Tolerance of compiled code against the interpreter: bit-exact for integers,
/// one float16 ulp-ish for half, contraction-sized for float32/64.
double toleranceFor(DataType d) {
  switch (d.code) {
    case DTypeCode::Float16: return 2e-3;
    case DTypeCode::Float32: return 1e-5;
    case DTypeCode::Float64: return 1e-12;
    default: return 0;
  }
}

void requireClose(const NDArray& actual, const NDArray& expected, double rtol) {
  REQUIRE(actual.dtype() == expected.dtype());
  REQUIRE(actual.numElements() == expected.numElements());
  for (int64_t i = 0; i < actual.numElements(); ++i) {
    double a = actual.getAsDouble(i), e = expected.getAsDouble(i);
    if (a == e) continue;  // also equal infinities
    if (std::isnan(e)) {
      CHECK(std::isnan(a));
      continue;
    }
    INFO("element " << i << ": compiled " << a << ", interpreter " << e);
    CHECK(std::fabs(a - e) <= rtol * std::max(1.0, std::fabs(e)));
  }
}

std::vector<NDArray> copies(const std::vector<NDArray>& xs) {
  std::vector<NDArray> out;
  for (const NDArray& x : xs) {
    NDArray c(x.dtype(), x.shape());
    std::copy(x.rawData(), x.rawData() + x.byteSize(), c.mutableData());
    out.push_back(c);
  }
  return out;
}

/// Runs PrimFunc `name` through the interpreter and the JIT on the same inputs; compares every buffer.
void compareHost(const IRModule& mod, const std::string& name, const std::vector<NDArray>& args, double rtol) {
  std::vector<NDArray> reference = copies(args), compiled = copies(args);
  evaluatePrimFunc(mod, name, reference);
  auto host = HostModule::compile(mod);
  host->callPrimFunc(name, compiled);
  for (size_t i = 0; i < args.size(); ++i) requireClose(compiled[i], reference[i], rtol);
}

const char* kElementwise = R"(#[version = "0.0.5"]
primfn @k(%A: Buffer[(4, 8), DT], %B: Buffer[(4, 8), DT], %C: Buffer[(4, 8), DT]) {
  for (%i, 0, 4, parallel) {
    for (%j, 0, 8, vectorized) {
      let %t: DT = %A[%i, %j] * %B[%i, %j] + %A[%i, %j];
      %C[%i, %j] = select(%t > %B[%i, %j], %t - %B[%i, %j], max(%A[%i, %j], min(%B[%i, %j], %t)));
    }
  }
}
)";

const char* kDivision = R"(#[version = "0.0.5"]
primfn @k(%A: Buffer[(32), DT], %B: Buffer[(32), DT], %C: Buffer[(4, 32), DT]) {
  for (%i, 0, 32) {
    if (%B[%i] != DT(0)) {
      %C[0, %i] = %A[%i] / %B[%i];
      %C[1, %i] = %A[%i] % %B[%i];
      %C[2, %i] = floordiv(%A[%i], %B[%i]);
      %C[3, %i] = floormod(%A[%i], %B[%i]);
    }
  }
}
)";

}  // namespace

TEST_CASE("Codegen: host JIT agrees with the interpreter on arithmetic over every dtype", "[codegen]") {
  auto dtype = GENERATE(Catch::Generators::as<std::string>{}, "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8");
  DataType d = *DataType::parse(dtype);
  INFO("dtype " << dtype);
  IRModule mod = parseModule(replaceAll(kElementwise, "DT", dtype));
  std::vector<NDArray> args{randomFor(d, {4, 8}, 1), randomFor(d, {4, 8}, 2), NDArray(d, {4, 8})};
  compareHost(mod, "k", args, toleranceFor(d));
  IRModule div = parseModule(replaceAll(kDivision, "DT", dtype));
  std::vector<NDArray> dargs{randomFor(d, {32}, 3), randomFor(d, {32}, 4), NDArray(d, {4, 32})};
  compareHost(div, "k", dargs, toleranceFor(d));
}

TEST_CASE("Codegen: bools, casts and saturating float-to-int conversion", "[codegen]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
primfn @k(%F: Buffer[(8), float32], %I: Buffer[(8), int8], %U: Buffer[(8), uint8], %H: Buffer[(8), float16], %Q: Buffer[(8), bool]) {
  for (%i, 0, 8, unrolled) {
    %I[%i] = int8(%F[%i] * 100f);
    %U[%i] = uint8(%F[%i] * 100f);
    %H[%i] = float16(%F[%i] * 1000f) + float16(int32(%F[%i]));
    %Q[%i] = %F[%i] > 0f && !(%I[%i] < int8(3));
  }
}
)");
  NDArray f(DTypeCode::Float32, {8});
  std::vector<double> values{0.5, -0.5, 3.3, -2.9, 100.0, -1e30, 1e30, std::nan("")};
  for (int i = 0; i < 8; ++i) f.setFromDouble(i, values[static_cast<size_t>(i)]);
  std::vector<NDArray> args{f, NDArray(DTypeCode::Int8, {8}), NDArray(DTypeCode::UInt8, {8}), NDArray(DTypeCode::Float16, {8}),
                            NDArray(DTypeCode::Bool, {8})};
  compareHost(mod, "k", args, 0);
}

TEST_CASE("Codegen: lets, ifs, allocations, float16 constants, intrinsics and PrimFunc calls", "[codegen]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
primfn @scale(%X: Buffer[(16), float16], %Y: Buffer[(16), float16], %n: int32) {
  allocate_const %W: Buffer[(4), float16] = [0.5, 1.0009765625, -1.5, 65504];
  for (%i, 0, %n) {
    %Y[%i] = %X[%i] * %W[floormod(%i, 4)] + 0.333f16;
  }
}
primfn @main_k(%A: Buffer[(16), float16], %T: Buffer[(16), float16], %B: Buffer[(16), float32], %C: Buffer[(16), float32]) {
  allocate %S: Buffer[(16), float32];
  @scale(%A, %T, 12);
  for (%i, 0, 16) {
    let %x: float32 = float32(%T[%i]);
    if (%i < 12) {
      %B[%i] = exp(%x * 0.1f) + sqrt(fabs(%x)) + tanh(%x) + erf(%x * 0.5f) + sigmoid(%x);
    } else {
      %B[%i] = floor(%x) + ceil(%x * 0.5f) + round(2.5f) + pow(2f, 3f) + log(fabs(%x) + 1f);
    }
    %S[%i] = float32(float16(%x) * 2f16);
    %C[%i] = select(%i > 3, %B[%i - 4], -1f) + %S[%i];
  }
}
)");
  std::vector<NDArray> args{randomFor(DTypeCode::Float16, {16}, 7), NDArray(DTypeCode::Float16, {16}), NDArray(DTypeCode::Float32, {16}),
                            NDArray(DTypeCode::Float32, {16})};
  compareHost(mod, "main_k", args, 1e-5);
  // The float16 constant (65504 is half's largest finite value) is embedded as raw half bits.
  Artifacts a = build(mod, Target::host());
  CHECK(a.llvmIR.find("[4 x half]") != std::string::npos);
  CHECK(a.llvmIR.find("call void @scale(") != std::string::npos);
}

TEST_CASE("Codegen: the entry runs a call_tir sequence and matches the interpreter", "[codegen]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
primfn @add1(%A: Buffer[(2, 3), float32], %B: Buffer[(2, 3), float32], %C: Buffer[(2, 3), float32]) {
  for (%i, 0, 2) {
    for (%j, 0, 3) {
      %C[%i, %j] = %A[%i, %j] + %B[%i, %j];
    }
  }
}
primfn @relu(%A: Buffer[(6), float32], %C: Buffer[(6), float32]) {
  for (%i, 0, 6) {
    %C[%i] = max(%A[%i], 0f);
  }
}
def @main(%x: Tensor[(2, 3), float32]) {
  %0 = call_tir(@add1, (%x, const(Tensor[(2, 3), float32], [1, -2, 3, -4, 5, -6])), out_shape=[2, 3], out_dtype="float32");
  %1 = call_tir(@relu, (%0,), out_shape=[2, 3], out_dtype="float32");
  (%1, %0)
}
)");
  NDArray x = randomFor(DTypeCode::Float32, {2, 3}, 11);
  Value reference = evaluate(mod, "main", {x});
  auto host = HostModule::compile(mod);
  std::vector<NDArray> outs = host->runEntry({x});
  REQUIRE(outs.size() == 2);
  REQUIRE(reference.fields().size() == 2);
  requireClose(outs[0], reference.fields()[0].tensor(), 0);
  requireClose(outs[1], reference.fields()[1].tensor(), 0);
  CHECK(host->artifacts().entry == "main");
  CHECK(host->artifacts().functions == std::vector<std::string>{"add1", "relu"});
  // The JIT reads the entry's constants where the module keeps them, on the
  // parallel path above and on the one-module path that keeps IR text.
  BuildOptions withText;
  withText.keepText = true;
  auto shown = HostModule::compile(mod, withText);
  CHECK(shown->artifacts().llvmIR.find("@__passlab_const0 = external constant [24 x i8]") != std::string::npos);
  CHECK(shown->artifacts().llvmIR.find("c\"") == std::string::npos);
  requireClose(shown->runEntry({x})[1], reference.fields()[1].tensor(), 0);
}

TEST_CASE("Codegen: a host rebuild reuses the objects of the kernels that did not change", "[codegen]") {
  auto moduleWith = [](const std::string& floor) {
    return parseModule(R"(#[version = "0.0.5"]
primfn @scale(%A: Buffer[(8), float32], %C: Buffer[(8), float32]) {
  for (%i, 0, 8, vectorized) {
    %C[%i] = %A[%i] * 3.25f;
  }
}
primfn @floor(%A: Buffer[(8), float32], %C: Buffer[(8), float32]) {
  for (%i, 0, 8) {
    %C[%i] = max(%A[%i], )" + floor + R"();
  }
}
def @main(%x: Tensor[(8), float32]) {
  %0 = call_tir(@scale, (%x,), out_shape=[8], out_dtype="float32");
  call_tir(@floor, (%0,), out_shape=[8], out_dtype="float32")
}
)");
  };
  BuildOptions options;
  options.keepText = false;
  options.emitAssembly = false;
  NDArray x = randomFor(DTypeCode::Float32, {8}, 3);
  IRModule first = moduleWith("0.0625f");
  HostModule::compile(first, options);
  auto again = HostModule::compile(first, options);
  // Units: the two kernels (each with its packed wrapper) and the entry.
  REQUIRE(again->artifacts().unitCompileMs.size() == 3);
  CHECK(again->artifacts().reusedUnits == 3);
  requireClose(again->runEntry({x})[0], evaluate(first, "main", {x}).tensor(), 0);

  IRModule edited = moduleWith("0.1875f");
  auto rebuilt = HostModule::compile(edited, options);
  CHECK(rebuilt->artifacts().reusedUnits == 2);  // only @floor is compiled again
  requireClose(rebuilt->runEntry({x})[0], evaluate(edited, "main", {x}).tensor(), 0);
  for (const auto& [unit, ms] : rebuilt->artifacts().unitCompileMs) CHECK((unit == "floor") == (ms > 0));

  options.reuseCompiledKernels = false;
  CHECK(HostModule::compile(edited, options)->artifacts().reusedUnits == 0);
}

TEST_CASE("Codegen: a cache directory serves compiled kernels to a new process, and a damaged entry is a miss", "[codegen]") {
  namespace fs = std::filesystem;
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
primfn @offset(%A: Buffer[(16), float32], %C: Buffer[(16), float32]) {
  for (%i, 0, 16, vectorized) {
    %C[%i] = %A[%i] + 0.4375f;
  }
}
def @main(%x: Tensor[(16), float32]) {
  call_tir(@offset, (%x,), out_shape=[16], out_dtype="float32")
}
)");
  const std::string dir = makeTempDir("passlab-kernel-cache");
  BuildOptions options;
  options.keepText = false;
  options.emitAssembly = false;
  options.objectCacheDir = dir;
  NDArray x = randomFor(DTypeCode::Float32, {16}, 5);
  NDArray expected = evaluate(mod, "main", {x}).tensor();
  auto unitFiles = [&] {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".unit") files.push_back(e.path());
    return files;
  };
  // A new process: nothing in memory.
  forgetCompiledKernelsInMemory();
  auto first = HostModule::compile(mod, options);
  CHECK(first->artifacts().reusedUnits == 0);
  REQUIRE(unitFiles().size() == 2);  // the kernel with its packed wrapper, the entry

  forgetCompiledKernelsInMemory();
  auto second = HostModule::compile(mod, options);
  CHECK(second->artifacts().reusedUnits == 2);
  CHECK(second->artifacts().reusedUnitsFromDisk == 2);
  requireClose(second->runEntry({x})[0], expected, 0);

  // Truncated and overwritten files are compiled again and replaced.
  std::vector<fs::path> files = unitFiles();
  fs::resize_file(files[0], fs::file_size(files[0]) / 2);
  std::ofstream(files[1], std::ios::binary | std::ios::trunc) << "not a compiled unit";
  forgetCompiledKernelsInMemory();
  auto repaired = HostModule::compile(mod, options);
  CHECK(repaired->artifacts().reusedUnitsFromDisk == 0);
  requireClose(repaired->runEntry({x})[0], expected, 0);
  forgetCompiledKernelsInMemory();
  CHECK(HostModule::compile(mod, options)->artifacts().reusedUnitsFromDisk == 2);

  // Without reuse the directory is neither read nor written.
  options.reuseCompiledKernels = false;
  fs::remove_all(dir);
  CHECK(HostModule::compile(mod, options)->artifacts().reusedUnits == 0);
  CHECK(!fs::exists(dir));
}

TEST_CASE("Codegen: trimming a cache directory drops the least recently used units first", "[codegen]") {
  namespace fs = std::filesystem;
  const std::string dir = makeTempDir("passlab-kernel-cache");
  auto unit = [](size_t bytes) {
    auto u = std::make_shared<CompiledUnit>();
    u->object.assign(bytes, 'o');
    return u;
  };
  ObjectCache& cache = ObjectCache::process();
  cache.insert("old", unit(1000), dir);
  cache.insert("used", unit(1000), dir);
  cache.insert("new", unit(1000), dir);
  std::ofstream(fs::path(dir) / "notes.txt") << "not ours";
  // Age the files, then use "used": it becomes the most recent.
  auto past = fs::file_time_type::clock::now() - std::chrono::hours(1);
  int age = 0;
  for (const auto& e : fs::directory_iterator(dir)) fs::last_write_time(e.path(), past - std::chrono::minutes(age++));
  cache.forgetInMemory();
  bool fromDisk = false;
  REQUIRE(cache.find("used", dir, &fromDisk));
  CHECK(fromDisk);
  ObjectCache::trimDirectory(dir, 2500);  // room for two of the three
  cache.forgetInMemory();
  CHECK(cache.find("used", dir));
  int left = 0;
  for (const char* key : {"old", "new"}) left += cache.find(key, dir) != nullptr;
  CHECK(left == 1);
  CHECK(fs::exists(fs::path(dir) / "notes.txt"));
  cache.forgetInMemory();
}

TEST_CASE("Codegen: the entry's intermediates share storage blocks when their lifetimes do not overlap", "[codegen]") {
  // x -> a -> b -> c, and d = a + c. `a` lives until the last step, so `b`
  // and `c` cannot take its block; `b` is read by the step that writes `c`,
  // so `c` needs a third block; d (the output) reuses the block of `b`.
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
primfn @twice(%A: Buffer[(64), float32], %C: Buffer[(64), float32]) {
  for (%i, 0, 64, vectorized) {
    %C[%i] = %A[%i] * 2f;
  }
}
primfn @sum(%A: Buffer[(64), float32], %B: Buffer[(64), float32], %C: Buffer[(64), float32]) {
  for (%i, 0, 64, vectorized) {
    %C[%i] = %A[%i] + %B[%i];
  }
}
def @main(%x: Tensor[(64), float32]) {
  %a = call_tir(@twice, (%x,), out_shape=[64], out_dtype="float32");
  %b = call_tir(@twice, (%a,), out_shape=[64], out_dtype="float32");
  %c = call_tir(@twice, (%b,), out_shape=[64], out_dtype="float32");
  call_tir(@sum, (%a, %c), out_shape=[64], out_dtype="float32")
}
)");
  EntryPlan plan = planEntry(mod, "main");
  std::vector<int> blockOf;
  for (const PlanSlot& s : plan.slots)
    if (s.kind == PlanSlot::Kind::Temp) blockOf.push_back(s.storage);
  REQUIRE(blockOf.size() == 4);  // a, b, c, d in step order
  CHECK(plan.storageBytes.size() == 3);
  CHECK(blockOf[0] != blockOf[1]);
  CHECK(blockOf[1] != blockOf[2]);
  CHECK(blockOf[0] != blockOf[2]);
  CHECK(blockOf[3] == blockOf[1]);  // b ended at the step that wrote c
  NDArray x = randomFor(DTypeCode::Float32, {64}, 9);
  NDArray expected = evaluate(mod, "main", {x}).tensor();
  auto host = HostModule::compile(mod);
  CHECK(host->artifacts().llvmIR.find("@__passlab_storage.entry.storage2 = external global [256 x i8]") != std::string::npos);
  CHECK(host->artifacts().llvmIR.find("@__passlab_storage.entry.storage3") == std::string::npos);
  for (int run = 0; run < 2; ++run) requireClose(host->runEntry({x})[0], expected, 0);
}

TEST_CASE("Codegen: artifacts per target are written to a folder", "[codegen]") {
  IRModule mod = parseModule(replaceAll(kElementwise, "DT", "int8"));
  std::string dir = (std::filesystem::temp_directory_path() / "passlab-test-artifacts").string();
  std::filesystem::remove_all(dir);
  Artifacts host = build(mod, Target::host());
  std::vector<std::string> files = writeArtifacts(host, dir);
  CHECK(files == std::vector<std::string>{"host.ll", "host.opt.ll", "host.s"});
  Artifacts hex = build(mod, Target::parse("hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b"));
  files = writeArtifacts(hex, dir);
  CHECK(files == std::vector<std::string>{"hexagon.ll", "hexagon.opt.ll", "hexagon.s", "hexagon.o"});
  CHECK(std::filesystem::file_size(std::filesystem::path(dir) / "hexagon.o") == hex.object.size());
  // An ELF object for Hexagon (EM_HEXAGON = 164).
  REQUIRE(hex.object.size() > 20);
  CHECK(hex.object[0] == 0x7f);
  CHECK(hex.object[18] == 164);
  std::filesystem::remove_all(dir);
}

TEST_CASE("Codegen: what cannot be compiled is a clear error", "[codegen]") {
  IRModule unknown = parseModule(R"(#[version = "0.0.5"]
primfn @k(%A: Buffer[(4), float32]) {
  for (%i, 0, 4) {
    %A[%i] = frobnicate(%A[%i]);
  }
}
)");
  CHECK_THROWS_WITH(build(unknown, Target::host()), Catch::Contains("@k: unknown intrinsic frobnicate"));
  CHECK_THROWS_WITH(Target::parse("cuda -arch=sm_80"), Catch::Contains("unknown target 'cuda -arch=sm_80' (llvm, host or hexagon)"));
  IRModule graph = parseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  nn.relu(%x)
}
)");
  CHECK_THROWS_WITH(build(graph, Target::host()), Catch::Contains("<input>:3:3: @main: cannot compile this call in the entry (nn.relu)") &&
                                                   Catch::Contains("lower it with LegalizeOps first"));
}

namespace {

const char* kCcompilerModule = R"(#[version = "0.0.5"]
def @ext_conv(%x: Tensor[(1, 2, 5, 5), float32], %w: Tensor[(3, 2, 3, 3), float32], Compiler="ccompiler") -> Tensor[(1, 3, 5, 5), float32] {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=3, kernel_size=[3, 3]);
  %1 = nn.bias_add(%0, const(Tensor[(3), float32], [0.5, -0.25, 1]));
  %2 = add(%1, const(Tensor[(3, 1, 1), float32], [0.125, 0, -2]));
  nn.relu(%2)
}
primfn @scale2(%A: Buffer[(1, 3, 5, 5), float32], %B: Buffer[(1, 3, 5, 5), float32]) {
  for (%c, 0, 3) {
    for (%y, 0, 5) {
      for (%x, 0, 5, vectorized) {
        %B[0, %c, %y, %x] = %A[0, %c, %y, %x] * 2f;
      }
    }
  }
}
def @main(%x: Tensor[(1, 2, 5, 5), float32], %w: Tensor[(3, 2, 3, 3), float32]) {
  %0 = @ext_conv(%x, %w);
  call_tir(@scale2, (%0,), out_shape=[1, 3, 5, 5], out_dtype="float32")
}
)";

std::string workDir(const std::string& name) {
  std::string dir = (std::filesystem::temp_directory_path() / ("passlab-test-" + name)).string();
  std::filesystem::remove_all(dir);
  return dir;
}

}  // namespace

TEST_CASE("Codegen: ccompiler functions become C compiled into the host build", "[codegen]") {
  IRModule mod = parseModule(kCcompilerModule);
  std::string c = emitC(mod, "ext_conv");
  CHECK(c.find("void ext_conv(const float* restrict p0, const float* restrict p1, float* restrict out)") != std::string::npos);
  NDArray x = randomFor(DTypeCode::Float32, {1, 2, 5, 5}, 21), w = randomFor(DTypeCode::Float32, {3, 2, 3, 3}, 22);
  Value reference = evaluate(mod, "main", {x, w});
  auto host = HostModule::compile(mod);
  REQUIRE(host->artifacts().externC.count("ext_conv") == 1);
  std::vector<NDArray> outs = host->runEntry({x, w});
  REQUIRE(outs.size() == 1);
  requireClose(outs[0], reference.tensor(), 1e-5);
  // Ops the C backend does not know are named.
  IRModule bad = parseModule(R"(#[version = "0.0.5"]
def @ext(%x: Tensor[(4), float32], Compiler="ccompiler") -> Tensor[(4), float32] {
  nn.softmax(%x)
}
)");
  CHECK_THROWS_WITH(emitC(bad, "ext"), Catch::Contains("op nn.softmax is not supported by the ccompiler codegen"));
}

TEST_CASE("Codegen: every op offered to ccompiler is one the C codegen emits", "[codegen][byoc]") {
  // kCCompilerOps is what AnnotateTarget offers; each must become C (it once
  // offered exp and tanh, which the emitter had no case for).
  OpId id = GENERATE(from_range(kCCompilerOps.begin(), kCCompilerOps.end()));
  const OpDef& op = opDef(id);
  CAPTURE(op.name);
  std::string params = "%x: Tensor[(4), float32], %y: Tensor[(4), float32]";
  std::string call = std::string(op.name) + (op.numArgs == 1 ? "(%x)" : "(%x, %y)");
  if (id == OpId::Clip) call = "clip(%x, a_min=-1f, a_max=1f)";
  if (id == OpId::Dense) params = "%x: Tensor[(2, 4), float32], %y: Tensor[(3, 4), float32]";
  if (id == OpId::Conv2D) params = "%x: Tensor[(1, 2, 5, 5), float32], %y: Tensor[(3, 2, 3, 3), float32]";
  IRModule mod = parseModule("def @ext(" + params + ", Compiler=\"ccompiler\") {\n  " + call + "\n}\n");
  std::string c;
  REQUIRE_NOTHROW(c = emitC(mod, "ext"));
  CHECK(c.find("void ext(") != std::string::npos);
}

TEST_CASE("Codegen: ccompiler's abs agrees with the interpreter, signed zeros included", "[codegen][byoc]") {
  IRModule mod = parseModule(R"(def @ext(%x: Tensor[(4), float32], Compiler="ccompiler") -> Tensor[(4), float32] {
  abs(%x)
}
def @main(%x: Tensor[(4), float32]) {
  @ext(%x)
}
)");
  NDArray x(DTypeCode::Float32, {4});
  float* v = reinterpret_cast<float*>(x.mutableData());
  v[0] = -2.5f, v[1] = -0.0f, v[2] = 0.0f, v[3] = 3.0f;
  Value reference = evaluate(mod, "main", {x});
  std::vector<NDArray> outs = HostModule::compile(mod)->runEntry({x});
  REQUIRE(outs.size() == 1);
  CHECK(outs[0].bitwiseEqual(reference.tensor()));
}

TEST_CASE("Codegen: Hexagon programs run under qemu and agree with the interpreter", "[codegen][hexagon][slow]") {
  auto dtype = GENERATE(Catch::Generators::as<std::string>{}, "float16", "float32", "int8", "int32");
  DataType d = *DataType::parse(dtype);
  INFO("dtype " << dtype);
  IRModule mod = parseModule(replaceAll(kElementwise, "DT", dtype));
  std::vector<NDArray> args{randomFor(d, {4, 8}, 1), randomFor(d, {4, 8}, 2), NDArray(d, {4, 8})};
  std::vector<NDArray> reference = copies(args);
  evaluatePrimFunc(mod, "k", reference);
  Artifacts artifacts;
  std::vector<NDArray> outs = runPrimFuncHexagon(mod, "k", args, workDir("hex-" + dtype), &artifacts);
  REQUIRE(outs.size() == 3);
  requireClose(outs[2], reference[2], toleranceFor(d));
}

TEST_CASE("Codegen: min and max keep a NaN from either side, on the host and on Hexagon", "[codegen][hexagon]") {
  // relu is max(x, 0): LLVM 14's Hexagon backend once turned it into sfmax,
  // which answers 0 for relu(NaN) where the interpreter answers NaN.
  auto [dtype, hexagon] = GENERATE(table<std::string, bool>({{"float32", false}, {"float16", false}, {"float32", true}, {"float16", true}}));
  INFO(dtype << (hexagon ? " on Hexagon" : " on the host"));
  DataType d = *DataType::parse(dtype);
  IRModule mod = parseModule(replaceAll(R"(#[version = "0.0.5"]
primfn @k(%A: Buffer[(8), DT], %B: Buffer[(8), DT], %C: Buffer[(4, 8), DT]) {
  for (%i, 0, 8) {
    %C[0, %i] = max(%A[%i], DT(0));
    %C[1, %i] = min(%A[%i], DT(0));
    %C[2, %i] = max(%A[%i], %B[%i]);
    %C[3, %i] = min(%B[%i], %A[%i]);
  }
}
)", "DT", dtype));
  double nan = std::nan("");
  std::vector<double> a{nan, -1.5, 2.0, nan, 0.0, 3.0, -2.0, nan}, b{1.0, nan, -4.0, nan, 2.5, nan, 1.0, -1.0};
  std::vector<NDArray> args{NDArray(d, {8}), NDArray(d, {8}), NDArray(d, {4, 8})};
  for (int64_t i = 0; i < 8; ++i) {
    args[0].setFromDouble(i, a[static_cast<size_t>(i)]);
    args[1].setFromDouble(i, b[static_cast<size_t>(i)]);
  }
  std::vector<NDArray> reference = copies(args);
  evaluatePrimFunc(mod, "k", reference);
  for (size_t row = 0; row < 4; ++row)
    for (size_t i = 0; i < 8; ++i) {
      bool nanIn = std::isnan(a[i]) || (row >= 2 && std::isnan(b[i]));
      CHECK(std::isnan(reference[2].getAsDouble(static_cast<int64_t>(row * 8 + i))) == nanIn);
    }
  std::vector<NDArray> outs;
  if (hexagon) {
    outs = runPrimFuncHexagon(mod, "k", args, workDir("hex-nan-" + dtype));
  } else {
    outs = copies(args);
    HostModule::compile(mod)->callPrimFunc("k", outs);
  }
  REQUIRE(outs.size() == 3);
  requireClose(outs[2], reference[2], 0);
}

TEST_CASE("Codegen: Hexagon builds report which kernels got HVX instructions", "[codegen][hexagon]") {
  // LLVM 14 auto-vectorizes integer code into HVX; float and half stay scalar (docs/codegen.md, "HVX").
  auto [dtype, expectHvx] = GENERATE(table<std::string, bool>({{"int8", true}, {"int16", true}, {"int32", true}, {"float32", false}, {"float16", false}}));
  IRModule mod = parseModule(replaceAll(R"(#[version = "0.0.5"]
primfn @vadd(%A: Buffer[(1024), DT], %B: Buffer[(1024), DT], %C: Buffer[(1024), DT]) {
  for (%i, 0, 1024, vectorized) {
    %C[%i] = %A[%i] + %B[%i];
  }
}
)", "DT", dtype));
  Artifacts a = build(mod, Target::hexagon());
  INFO(dtype);
  CHECK((a.hvxFunctions == std::vector<std::string>{"vadd"}) == expectHvx);
  // A kernel without HVX says why, instead of a bare "none".
  if (!expectHvx) CHECK(a.scalarReasons.at("vadd") == "float loops: LLVM 14 vectorizes only integer loops into HVX");
  else CHECK(a.scalarReasons.empty());
}

TEST_CASE("Codegen: Hexagon code runs on the CPU it was built for", "[codegen][hexagon]") {
  // qemu-hexagon 7.2 emulates v67 at most: a v68 object is refused rather than
  // run on a CPU it was not built for, and forEmulator() names the build that runs.
  IRModule mod = parseModule(kCcompilerModule);
  Artifacts v68 = build(mod, Target::hexagon());
  NDArray x = randomFor(DTypeCode::Float32, {1, 2, 5, 5}, 21), w = randomFor(DTypeCode::Float32, {3, 2, 3, 3}, 22);
  CHECK_THROWS_WITH(runHexagon(v68, {x, w}, workDir("hex-v68")),
                    Catch::Contains("this build is for hexagonv68, but qemu-hexagon 7.2 emulates hexagonv67"));
  CHECK(Target::hexagon().forEmulator().cpu == "hexagonv67");
  CHECK(Target::hexagon().forEmulator().features == "+hvxv67,+hvx-length128b");
  CHECK(Target::parse("hexagon -mcpu=hexagonv66").forEmulator().cpu == "hexagonv66");
  CHECK(Target::parse("hexagon -mcpu=hexagonv69").hexagonVersion() == 69);
  CHECK(Target::host().forEmulator().kind == TargetKind::Host);
}

TEST_CASE("Codegen: the Hexagon runtime's trigonometric and hyperbolic functions match the C library", "[codegen][hexagon][slow]") {
  // float64 so the runtime's own accuracy shows (float32 would round it away);
  // the inputs span several periods and both sides of the small-argument forms.
  // The last row is fmod (the mod op's remainder) with quotients near 4e6: exact
  // only if the runtime does not go through the rounded quotient.
  IRModule math = parseModule(R"(#[version = "0.0.5"]
primfn @trig(%X: Buffer[(32), float64], %Y: Buffer[(12, 32), float64]) {
  for (%i, 0, 32) {
    let %x: float64 = %X[%i];
    let %u: float64 = %x * 0.33f64;
    %Y[0, %i] = sin(%x * 7f64);
    %Y[1, %i] = cos(%x * 7f64);
    %Y[2, %i] = tan(%x);
    %Y[3, %i] = asin(%u);
    %Y[4, %i] = acos(%u);
    %Y[5, %i] = atan(%x * 5f64);
    %Y[6, %i] = sinh(%x * 0.1f64) + sinh(%x * 3f64);
    %Y[7, %i] = cosh(%x * 3f64);
    %Y[8, %i] = asinh(%x * 1e-3f64) + asinh(%x * 50f64);
    %Y[9, %i] = acosh(fabs(%x) + 1.0001f64);
    %Y[10, %i] = atanh(%u * 1e-3f64) + atanh(%u);
    %Y[11, %i] = (%x * 1000000f64) % 0.7f64;
  }
}
)");
  std::vector<NDArray> args{randomFor(DTypeCode::Float64, {32}, 41), NDArray(DTypeCode::Float64, {12, 32})};
  std::vector<NDArray> reference = copies(args);
  evaluatePrimFunc(math, "trig", reference);
  std::vector<NDArray> outs = runPrimFuncHexagon(math, "trig", args, workDir("hex-trig"));
  requireClose(outs[1], reference[1], 1e-13);
}

TEST_CASE("Codegen: Hexagon runtime math and the module entry with C under qemu", "[codegen][hexagon][slow]") {
  IRModule math = parseModule(R"(#[version = "0.0.5"]
primfn @m(%X: Buffer[(16), float32], %Y: Buffer[(8, 16), float32], %H: Buffer[(16), float16]) {
  for (%i, 0, 16) {
    let %x: float32 = %X[%i];
    %Y[0, %i] = exp(%x);
    %Y[1, %i] = log(fabs(%x) + 0.5f);
    %Y[2, %i] = tanh(%x) + sigmoid(%x);
    %Y[3, %i] = erf(%x);
    %Y[4, %i] = sqrt(fabs(%x)) / (%x + 10f);
    %Y[5, %i] = pow(fabs(%x) + 1f, 1.5f) + floor(%x) + ceil(%x) + round(%x);
    %Y[6, %i] = float32(floordiv(int32(%x * 100f), 7) + floormod(int64(%x * 1000f), int64(13)));
    %Y[7, %i] = sin(%x) + cos(%x);
    %H[%i] = float16(%x) * 3.14f16 + float16(%x * 0.001f);
  }
}
)");
  std::vector<NDArray> args{randomFor(DTypeCode::Float32, {16}, 31), NDArray(DTypeCode::Float32, {8, 16}), NDArray(DTypeCode::Float16, {16})};
  std::vector<NDArray> reference = copies(args);
  evaluatePrimFunc(math, "m", reference);
  std::vector<NDArray> outs = runPrimFuncHexagon(math, "m", args, workDir("hex-math"));
  requireClose(outs[1], reference[1], 1e-5);
  requireClose(outs[2], reference[2], 2e-3);

  IRModule mod = parseModule(kCcompilerModule);
  NDArray x = randomFor(DTypeCode::Float32, {1, 2, 5, 5}, 21), w = randomFor(DTypeCode::Float32, {3, 2, 3, 3}, 22);
  Value expected = evaluate(mod, "main", {x, w});
  Artifacts artifacts = build(mod, Target::hexagonEmulated());
  CHECK(artifacts.externC.count("ext_conv") == 1);
  HexagonRun run = runHexagon(artifacts, {x, w}, workDir("hex-entry"));
  REQUIRE(run.outputs.size() == 1);
  requireClose(run.outputs[0], expected.tensor(), 1e-5);
}

TEST_CASE("Codegen: a model lowered by LegalizeOps runs on the host JIT like the interpreter", "[codegen]") {
  // float32 and (with ToMixedPrecision) float16, link-params on and off.
  auto [mixed, linkParams] = GENERATE(table<bool, bool>({{false, false}, {false, true}, {true, true}}));
  IRModule mod = parseModuleFile(std::string(PASSLAB_SOURCE_DIR) + "/examples/seed000/cnn_fp32.relay");
  AttrDict attrs = mod->attrs;
  attrs.set("executor", AttrValue::dict(AttrDict{{"kind", AttrValue::string("graph")}, {"link-params", AttrValue::integer(linkParams)}}));
  mod = withModuleAttrs(mod, attrs);
  PassRegistry registry;
  registerBuiltinPasses(registry);
  std::string spec = std::string("InferType,SimplifyInference,") + (mixed ? "ToMixedPrecision," : "") + "FoldConstant,FuseOps,LambdaLifting,LegalizeOps";
  auto ctx = PassContext::create();
  IRModule lowered = runPass(*parsePipeline(spec, registry), mod, *ctx);
  REQUIRE(lowered->phase() == 2);
  const FunctionNode* main = lowered->lookupFunction("main");
  REQUIRE(main != nullptr);
  NDArray x = randomFor(DTypeCode::Float32, {1, 3, 8, 8}, 5);
  Value reference = evaluate(lowered, "main", {x});
  auto host = HostModule::compile(lowered);
  std::vector<NDArray> outs = host->runEntry({x});
  REQUIRE(outs.size() == 1);
  INFO("mixed precision " << mixed << ", link-params " << linkParams);
  requireClose(outs[0], reference.tensor(), mixed ? 2e-3 : 1e-5);
  // With link-params on, the weights are constants inside the PrimFuncs, not entry constants.
  if (linkParams) CHECK(host->artifacts().llvmIR.find(mixed ? "x half]" : "x float]") != std::string::npos);
}

TEST_CASE("Codegen: a multi-target module builds one object per target and both run", "[codegen][hexagon][slow]") {
  // Seed 004: BindTarget gives the device functions the Hexagon target,
  // InlinePrivateFunctions inlines @scale_row into @device_scale for Hexagon.
  IRModule mod = parseModuleFile(std::string(PASSLAB_SOURCE_DIR) + "/examples/seed004/multi_target.relay");
  PassRegistry registry;
  registerBuiltinPasses(registry);
  auto ctx = PassContext::create();
  IRModule bound = runPass(*parsePipeline("BindTarget{target=\"hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b\"},InlinePrivateFunctions",
                                          registry), mod, *ctx);
  Artifacts host = build(bound, Target::host());
  Artifacts hexagon = build(bound, Target::hexagon());
  // The host build also compiles @device_scale for the host: host code calling it runs it in place.
  CHECK(host.functions == std::vector<std::string>{"host_main", "host_prepare", "device_scale"});
  CHECK(hexagon.functions == std::vector<std::string>{"device_scale"});
  CHECK_FALSE(hexagon.object.empty());
  // The host object runs on the JIT, the Hexagon one under qemu; both match the interpreter.
  NDArray a = randomFor(DTypeCode::Float32, {4, 32}, 41);
  std::vector<NDArray> hostArgs{a, NDArray(DTypeCode::Float32, {4, 32})};
  compareHost(bound, "host_prepare", hostArgs, 0);
  std::vector<NDArray> mainArgs{a, NDArray(DTypeCode::Float32, {4, 32}), NDArray(DTypeCode::Float32, {4, 32})};
  compareHost(bound, "host_main", mainArgs, 0);
  std::vector<NDArray> devArgs{a, NDArray(DTypeCode::Float32, {4, 32})};
  std::vector<NDArray> reference = copies(devArgs);
  evaluatePrimFunc(bound, "device_scale", reference);
  std::vector<NDArray> outs = runPrimFuncHexagon(bound, "device_scale", devArgs, workDir("hex-seed004"));
  requireClose(outs[1], reference[1], 0);
}

TEST_CASE("Codegen: split, take, reflect pad and integer power lowered by LegalizeOps run on the host JIT", "[codegen]") {
  // split is a call_tir with three outputs whose projections the entry reads;
  // take's indices are random (out of range for the axis) and wrap.
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4, 6), float32], %i: Tensor[(3), int32]) {
  %0 = split(%x, indices_or_sections=[1, 4], axis=1);
  %1 = take(%0.1, %i, axis=1, mode="wrap");
  %2 = nn.pad(%1, 0f, pad_width=[[1, 1], [2, 0]], pad_mode="reflect");
  %3 = power(%i, 3);
  (%2, %0.2, %3)
}
)");
  PassRegistry registry;
  registerBuiltinPasses(registry);
  auto ctx = PassContext::create();
  IRModule lowered = runPass(*parsePipeline("InferType,SimplifyInference,FoldConstant,FuseOps,LambdaLifting,LegalizeOps", registry), mod, *ctx);
  REQUIRE(lowered->phase() == 2);
  NDArray x = randomFor(DTypeCode::Float32, {4, 6}, 3);
  NDArray i = randomFor(DTypeCode::Int32, {3}, 4);
  Value reference = evaluate(mod, "main", {x, i});
  auto host = HostModule::compile(lowered);
  std::vector<NDArray> outs = host->runEntry({x, i});
  REQUIRE(outs.size() == 3);
  REQUIRE(reference.fields().size() == 3);
  for (size_t k = 0; k < outs.size(); ++k) {
    INFO("output " << k);
    requireClose(outs[k], reference.fields()[k].tensor(), 0);
  }
}

TEST_CASE("Codegen: take in fast mode never reads outside the data, even for indices the interpreter rejects", "[codegen]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 4), float32], %i: Tensor[(16), int32]) {
  take(%x, %i, axis=1, mode="fast")
}
)");
  PassRegistry registry;
  registerBuiltinPasses(registry);
  auto ctx = PassContext::create();
  IRModule lowered = runPass(*parsePipeline("InferType,LegalizeOps", registry), mod, *ctx);
  NDArray x = randomFor(DTypeCode::Float32, {2, 4}, 5);
  NDArray i = randomFor(DTypeCode::Int32, {16}, 6);  // within [-60, 60]: mostly out of range
  auto host = HostModule::compile(lowered);
  std::vector<NDArray> outs = host->runEntry({x, i});
  REQUIRE(outs.size() == 1);
  // Clamped after the negative shift: every element is the row's first or last, or the index's own.
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t k = 0; k < 16; ++k) {
      int64_t idx = i.getAsInt(k);
      if (idx < 0) idx += 4;
      idx = std::clamp<int64_t>(idx, 0, 3);
      INFO("row " << r << ", index " << i.getAsInt(k));
      CHECK(outs[0].getAsDouble(r * 16 + k) == x.getAsDouble(r * 4 + idx));
    }
}

TEST_CASE("Codegen: structurally equal kernels are compiled once and every name still runs", "[codegen]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
primfn @relu(%A: Buffer[(6), float32], %C: Buffer[(6), float32], global_symbol="relu") {
  for (%i, 0, 6) {
    %C[%i] = max(%A[%i], 0f);
  }
}
primfn @relu_1(%X: Buffer[(6), float32], %Y: Buffer[(6), float32], global_symbol="relu_1") {
  for (%k, 0, 6) {
    %Y[%k] = max(%X[%k], 0f);
  }
}
primfn @relu_2(%X: Buffer[(6), float32], %Y: Buffer[(6), float32]) {
  for (%k, 0, 6) {
    %Y[%k] = max(%X[%k], 1f);
  }
}
def @main(%x: Tensor[(6), float32]) {
  %0 = call_tir(@relu, (%x,), out_shape=[6], out_dtype="float32");
  %1 = call_tir(@relu_1, (%0,), out_shape=[6], out_dtype="float32");
  call_tir(@relu_2, (%1,), out_shape=[6], out_dtype="float32")
}
)");
  NDArray x = randomFor(DTypeCode::Float32, {6}, 5);
  Value reference = evaluate(mod, "main", {x});
  BuildOptions options;
  options.dedupKernels = GENERATE(true, false);
  auto host = HostModule::compile(mod, options);
  const Artifacts& a = host->artifacts();
  if (options.dedupKernels) {
    // Equal but for the name and global_symbol; @relu_2 differs in a constant.
    CHECK(a.sharedKernels == std::map<std::string, std::string>{{"relu_1", "relu"}});
    CHECK(a.llvmIR.find("@relu_1 = alias") != std::string::npos);
  } else {
    CHECK(a.sharedKernels.empty());
  }
  CHECK(a.entryCalls == std::vector<std::string>{"relu", "relu_1", "relu_2"});
  requireClose(host->runEntry({x}).at(0), reference.tensor(), 0);
  NDArray out(DTypeCode::Float32, {6});
  host->callPrimFunc("relu_1", std::vector<NDArray>{x, out});
  for (int64_t i = 0; i < 6; ++i) CHECK(out.getAsDouble(i) == std::max(x.getAsDouble(i), 0.0));
  CHECK(host->lastProfile().empty());  // not compiled with profiling
}

TEST_CASE("Codegen: a profiled entry times each call; FLOPs are counted from multiply-accumulate loops", "[codegen][profile]") {
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
primfn @mm(%A: Buffer[(4, 8), float32], %B: Buffer[(8, 3), float32], %C: Buffer[(4, 3), float32]) {
  for (%i, 0, 4) {
    for (%j, 0, 3) {
      %C[%i, %j] = 0f;
      for (%k, 0, 8) {
        %C[%i, %j] = %C[%i, %j] + %A[%i, %k] * %B[%k, %j];
      }
    }
  }
}
primfn @neg(%A: Buffer[(4, 3), float32], %C: Buffer[(4, 3), float32]) {
  for (%i, 0, 12) {
    %C[%i] = 0f - %A[%i];
  }
}
def @main(%x: Tensor[(4, 8), float32], %w: Tensor[(8, 3), float32]) {
  %0 = call_tir(@mm, (%x, %w), out_shape=[4, 3], out_dtype="float32");
  %1 = call_tir(@neg, (%0,), out_shape=[4, 3], out_dtype="float32");
  call_tir(@neg, (%1,), out_shape=[4, 3], out_dtype="float32")
}
)");
  CHECK(multiplyAccumulateFlops(mod, "mm") == 2 * 4 * 3 * 8);
  CHECK(multiplyAccumulateFlops(mod, "neg") == 0);
  CHECK(multiplyAccumulateFlops(mod, "missing") == 0);
  BuildOptions options;
  options.profile = true;
  auto host = HostModule::compile(mod, options);
  NDArray x = randomFor(DTypeCode::Float32, {4, 8}, 1), w = randomFor(DTypeCode::Float32, {8, 3}, 2);
  Value reference = evaluate(mod, "main", {x, w});
  requireClose(host->runEntry({x, w}).at(0), reference.tensor(), 0);  // the timestamps change nothing
  CHECK(host->artifacts().entryCalls == std::vector<std::string>{"mm", "neg", "neg"});
  std::vector<int64_t> ns = host->lastProfile();
  REQUIRE(ns.size() == 3);
  for (int64_t t : ns) CHECK(t >= 0);
}

TEST_CASE("Codegen: kernels that differ only in sizes call one shared body and agree with the interpreter", "[codegen]") {
  // @wide_a and @wide_b are one schedule at two row lengths (large constants:
  // a stride and a trip count); @narrow_a and @narrow_b differ in a small trip
  // count of an innermost loop, which decides unrolling, so they keep their code.
  auto rowKernel = [](const std::string& name, int rows, int columns, const std::string& op) {
    const std::string r = std::to_string(rows), c = std::to_string(columns);
    return "primfn @" + name + "(%A: Buffer[(" + r + ", " + c + "), float32], %B: Buffer[(" + c + "), float32], %C: Buffer[(" + r + ", " + c +
           "), float32]) {\n  for (%i, 0, " + r + ") {\n    for (%j, 0, " + c + ") {\n      %C[%i, %j] = %A[%i, %j] " + op +
           " 0.5f + %B[%j];\n    }\n  }\n}\n";
  };
  // @staged_a and @staged_b stage the rows through a stack buffer of 480 and
  // 5760 bytes: the body allocates the longer one. @tile_a and @tile_b's
  // buffers would both fit in the vector registers (a register tile stays
  // there only while its zeroing has a constant length), so they keep theirs.
  auto stagedKernel = [](const std::string& name, int rows, int columns) {
    const std::string r = std::to_string(rows), c = std::to_string(columns);
    return "primfn @" + name + "(%A: Buffer[(" + r + ", " + c + "), float32], %B: Buffer[(" + c + "), float32], %C: Buffer[(" + r + ", " + c +
           "), float32]) {\n  allocate %S: Buffer[(" + std::to_string(rows * columns) + "), float32];\n  for (%i, 0, " + r +
           ") {\n    for (%j, 0, " + c + ") {\n      %S[%i * " + c + " + %j] = %A[%i, %j] * 0.5f;\n    }\n  }\n  for (%i, 0, " + r +
           ") {\n    for (%j, 0, " + c + ") {\n      %C[%i, %j] = %S[%i * " + c + " + %j] + %B[%j];\n    }\n  }\n}\n";
  };
  IRModule mod = parseModule("#[version = \"0.0.5\"]\n" + rowKernel("wide_a", 3, 40, "*") + rowKernel("wide_b", 5, 72, "*") +
                             rowKernel("narrow_a", 3, 8, "*") + rowKernel("narrow_b", 3, 12, "*") + rowKernel("other_op", 5, 72, "-") +
                             stagedKernel("staged_a", 3, 40) + stagedKernel("staged_b", 20, 72) + stagedKernel("tile_a", 2, 24) +
                             stagedKernel("tile_b", 3, 24) + rowKernel("wide_copy", 3, 40, "*"));
  BuildOptions options;
  options.keepText = false;
  options.emitAssembly = false;
  options.reuseCompiledKernels = false;
  options.shareKernelBodies = GENERATE(true, false);
  auto host = HostModule::compile(mod, options);
  const Artifacts& a = host->artifacts();
  if (options.shareKernelBodies) {
    std::map<std::vector<std::string>, int> groups(a.kernelsSharingBodies.begin(), a.kernelsSharingBodies.end());
    CHECK(groups.size() == 2);
    REQUIRE(groups.count({"wide_a", "wide_b"}));
    CHECK(groups[{"wide_a", "wide_b"}] >= 2);  // the row length and the row count at least
    REQUIRE(groups.count({"staged_a", "staged_b"}));
    CHECK(groups[{"staged_a", "staged_b"}] >= 3);  // and the buffer's zeroing length
    std::vector<std::string> units;
    for (const auto& [unit, ms] : a.unitCompileMs) units.push_back(unit);
    CHECK(std::count(units.begin(), units.end(), "(body of wide_a)") == 1);
    CHECK(std::count(units.begin(), units.end(), "(kernels calling shared bodies)") == 1);
    CHECK(std::count(units.begin(), units.end(), "wide_b") == 0);
    // @wide_copy is @wide_a's code (dedupKernels): its packed wrapper is no unit of its own.
    CHECK(a.sharedKernels.count("wide_copy"));
    CHECK(std::count(units.begin(), units.end(), "wide_copy") == 0);
  } else {
    CHECK(a.kernelsSharingBodies.empty());
  }
  for (const auto& [name, rows, columns] : std::vector<std::tuple<std::string, int, int>>{
           {"wide_a", 3, 40}, {"wide_b", 5, 72}, {"narrow_a", 3, 8}, {"narrow_b", 3, 12}, {"other_op", 5, 72}, {"staged_a", 3, 40},
           {"staged_b", 20, 72}, {"tile_a", 2, 24}, {"tile_b", 3, 24}, {"wide_copy", 3, 40}}) {
    INFO(name);
    std::vector<NDArray> args = {randomFor(DTypeCode::Float32, {rows, columns}, 11), randomFor(DTypeCode::Float32, {columns}, 12),
                                 NDArray(DTypeCode::Float32, {rows, columns})};
    std::vector<NDArray> reference = copies(args), compiled = copies(args);
    evaluatePrimFunc(mod, name, reference);
    host->callPrimFunc(name, compiled);
    requireClose(compiled[2], reference[2], 0);
  }
}

TEST_CASE("Codegen: the JIT binds large zeroed storage to mapped pages, and a second run sees no stale data", "[codegen]") {
  // @stage's 80 KB scratch is too large for the stack and the entry keeps an
  // intermediate: both are storage the JIT maps rather than an object's .bss.
  IRModule mod = parseModule(R"(#[version = "0.0.5"]
primfn @stage(%A: Buffer[(128, 160), float32], %C: Buffer[(128, 160), float32]) {
  allocate %S: Buffer[(20480), float32];
  for (%i, 0, 128) {
    for (%j, 0, 160) {
      %S[%i * 160 + %j] = %S[%i * 160 + %j] + %A[%i, %j];
    }
  }
  for (%i, 0, 128) {
    for (%j, 0, 160) {
      %C[%i, %j] = %S[%i * 160 + %j] * 2f;
    }
  }
}
def @main(%x: Tensor[(128, 160), float32]) {
  %0 = call_tir(@stage, (%x,), out_shape=[128, 160], out_dtype="float32");
  call_tir(@stage, (%0,), out_shape=[128, 160], out_dtype="float32")
}
)");
  NDArray x = randomFor(DTypeCode::Float32, {128, 160}, 3);
  Value reference = evaluate(mod, "main", {x});
  auto host = HostModule::compile(mod, BuildOptions{});
  const std::string& ir = host->artifacts().llvmIR;
  CHECK(ir.find("@__passlab_storage.stage.S = external global [20480 x float]") != std::string::npos);
  CHECK(ir.find("@__passlab_storage.entry.storage0 = external global") != std::string::npos);
  CHECK(ir.find("zeroinitializer") == std::string::npos);
  // The scratch is zeroed on every entry (it accumulates into itself here).
  for (int run = 0; run < 2; ++run) requireClose(host->runEntry({x}).at(0), reference.tensor(), 0);
  // A build for an object file keeps its storage.
  CHECK(build(mod, Target::host()).llvmIR.find("@stage.S = internal global [20480 x float] zeroinitializer") != std::string::npos);
}
