// Throughput of JIT-compiled TIR against the interpreter and a plain C loop
// nest built with `g++ -O3 -march=native`, one thread, float32:
//   conv2d 1x64x56x56, 3x3, 64 filters, pad 1   (231 MFLOP)
//   dense  1x1024 by 1024x1024                  (2.1 MFLOP)
// The conv2d PrimFunc is written here with a register-blocked schedule (8
// output channels x 8 output columns of accumulators, the reduction outside a
// vectorized loop); the PrimFuncs LegalizeOps produces are measured too. Then
// the compile time of examples/cnn_block.relay, lowered by LegalizeOps, for
// the host and for Hexagon. Prints figures; asserts nothing (every compiled
// result is checked against the interpreter and its max error printed).
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "codegen/codegen.h"
#include "core/interp/interpreter.h"
#include "core/pass/pass.h"
#include "core/pass/registry.h"
#include "core/text/parser.h"
#include "passes/registry.h"

using namespace passlab;

namespace {

NDArray randomArray(std::vector<int64_t> shape, uint32_t seed) {
  NDArray a(DTypeCode::Float32, std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float& v : a.mutableValues<float>()) v = dist(rng);
  return a;
}

/// Best wall time of `fn` over at least `minRuns` runs and `minSeconds`.
double bestSeconds(const std::function<void()>& fn, int minRuns = 3, double minSeconds = 0.5) {
  fn();  // warm-up
  double best = 1e30, total = 0;
  for (int runs = 0; runs < minRuns || total < minSeconds; ++runs) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s);
    total += s;
  }
  return best;
}

double maxError(const NDArray& a, const NDArray& b) { return codegen::maxAbsError({a}, {b}); }

void row(const char* what, const char* impl, double flops, double seconds, double error) {
  std::printf("  %-8s %-34s %9.3f ms %8.2f GFLOP/s   max |err| %.2e\n", what, impl, seconds * 1e3, flops / seconds / 1e9, error);
}

// ---- hand-scheduled conv2d ---------------------------------------------------
const char* kConvSchedule = R"(#[version = "0.0.5"]
primfn @conv(%data: Buffer[(1, 64, 56, 56), float32], %weight: Buffer[(64, 64, 3, 3), float32], %out: Buffer[(1, 64, 56, 56), float32]) {
  allocate %pad: Buffer[(64, 58, 58), float32];
  for (%c, 0, 64) {
    for (%y, 0, 58) {
      for (%x, 0, 58) {
        if (%y >= 1 && %y <= 56 && %x >= 1 && %x <= 56) {
          %pad[%c, %y, %x] = %data[0, %c, %y - 1, %x - 1];
        } else {
          %pad[%c, %y, %x] = 0f;
        }
      }
    }
  }
  for (%ocb, 0, 8) {
    for (%oh, 0, 56) {
      for (%owb, 0, 7) {
        allocate %acc: Buffer[(8, 8), float32];
        for (%i, 0, 8, unrolled) {
          for (%j, 0, 8, vectorized) {
            %acc[%i, %j] = 0f;
          }
        }
        for (%ic, 0, 64) {
          for (%kh, 0, 3) {
            for (%kw, 0, 3, unrolled) {
              for (%i, 0, 8, unrolled) {
                for (%j, 0, 8, vectorized) {
                  %acc[%i, %j] = %acc[%i, %j] + %pad[%ic, %oh + %kh, %owb * 8 + %j + %kw] * %weight[%ocb * 8 + %i, %ic, %kh, %kw];
                }
              }
            }
          }
        }
        for (%i, 0, 8, unrolled) {
          for (%j, 0, 8, vectorized) {
            %out[0, %ocb * 8 + %i, %oh, %owb * 8 + %j] = %acc[%i, %j];
          }
        }
      }
    }
  }
}
)";

// ---- hand-scheduled dense: 16 partial sums along K ----------------------------
const char* kDenseSchedule = R"(#[version = "0.0.5"]
primfn @dense(%data: Buffer[(1, 1024), float32], %weight: Buffer[(1024, 1024), float32], %out: Buffer[(1, 1024), float32]) {
  for (%n, 0, 1024) {
    allocate %acc: Buffer[(16), float32];
    for (%k, 0, 16, vectorized) {
      %acc[%k] = 0f;
    }
    for (%ko, 0, 64) {
      for (%k, 0, 16, vectorized) {
        %acc[%k] = %acc[%k] + %data[0, %ko * 16 + %k] * %weight[%n, %ko * 16 + %k];
      }
    }
    %out[0, %n] = 0f;
    for (%k, 0, 16) {
      %out[0, %n] = %out[0, %n] + %acc[%k];
    }
  }
}
)";

// ---- the plain C loop nests, compiled by g++ in this run -----------------------
const char* kPlainC = R"(
void conv(const float* restrict data, const float* restrict w, float* restrict out) {
  for (int o = 0; o < 64; ++o)
    for (int y = 0; y < 56; ++y)
      for (int x = 0; x < 56; ++x) {
        float acc = 0.0f;
        for (int c = 0; c < 64; ++c)
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
              int iy = y + ky - 1, ix = x + kx - 1;
              if (iy >= 0 && iy < 56 && ix >= 0 && ix < 56) acc += data[(c * 56 + iy) * 56 + ix] * w[((o * 64 + c) * 3 + ky) * 3 + kx];
            }
        out[(o * 56 + y) * 56 + x] = acc;
      }
}
void dense(const float* restrict data, const float* restrict w, float* restrict out) {
  for (int n = 0; n < 1024; ++n) {
    float acc = 0.0f;
    for (int k = 0; k < 1024; ++k) acc += data[k] * w[n * 1024 + k];
    out[n] = acc;
  }
}
)";

using Kernel = void (*)(const float*, const float*, float*);

struct PlainC {
  void* handle = nullptr;
  Kernel conv = nullptr, dense = nullptr;
};

PlainC compilePlainC() {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "passlab-bench-codegen";
  fs::create_directories(dir);
  std::ofstream(dir / "plain.c") << kPlainC;
  // g++ as the brief says, in C mode (restrict is C).
  std::string cmd = "g++ -x c -std=c11 -O3 -march=native -shared -fPIC -o " + (dir / "plain.so").string() + " " + (dir / "plain.c").string();
  PlainC p;
  if (std::system(cmd.c_str()) != 0) return p;
  p.handle = dlopen((dir / "plain.so").c_str(), RTLD_NOW);
  if (!p.handle) return p;
  p.conv = reinterpret_cast<Kernel>(dlsym(p.handle, "conv"));
  p.dense = reinterpret_cast<Kernel>(dlsym(p.handle, "dense"));
  return p;
}

/// Lowers `mod` with LegalizeOps (after the usual graph passes); null when it fails.
IRModule lower(const IRModule& mod, const std::string& target) {
  PassRegistry registry;
  registerBuiltinPasses(registry);
  std::string spec = "InferType,SimplifyInference,FoldConstant,FuseOps,LambdaLifting,LegalizeOps";
  if (!target.empty()) spec += ",BindTarget{target=\"" + target + "\"}";
  PassPtr pipeline = parsePipeline(spec, registry);
  auto ctx = PassContext::create();
  IRModule out = runPass(*pipeline, mod, *ctx);
  return out->phase() >= 2 ? out : nullptr;
}

}  // namespace

int main() {
  std::printf("bench_codegen: one thread, float32, best of >= 3 runs\n\n");
  NDArray x = randomArray({1, 64, 56, 56}, 1), w = randomArray({64, 64, 3, 3}, 2);
  NDArray dx = randomArray({1, 1024}, 3), dw = randomArray({1024, 1024}, 4);
  const double convFlops = 2.0 * 64 * 56 * 56 * 64 * 9, denseFlops = 2.0 * 1024 * 1024;

  // Interpreter: the reference op kernels, and the TIR evaluator on the hand schedule.
  IRModule graph = parseModule(R"(#[version = "0.0.5"]
def @conv(%x: Tensor[(1, 64, 56, 56), float32], %w: Tensor[(64, 64, 3, 3), float32]) {
  nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3])
}
def @dense(%x: Tensor[(1, 1024), float32], %w: Tensor[(1024, 1024), float32]) {
  nn.dense(%x, %w, units=1024)
}
)");
  NDArray convRef, denseRef;
  double tConvInterp = bestSeconds([&] { convRef = evaluate(graph, "conv", {x, w}).tensor(); });
  double tDenseInterp = bestSeconds([&] { denseRef = evaluate(graph, "dense", {dx, dw}).tensor(); });

  IRModule tir = parseModule(std::string(kConvSchedule) + std::string(kDenseSchedule).substr(std::string(kDenseSchedule).find("primfn")));
  NDArray denseTirOut(DTypeCode::Float32, {1, 1024});
  double tDenseTir = bestSeconds([&] {
    std::vector<NDArray> args{dx, dw, denseTirOut};
    evaluatePrimFunc(tir, "dense", args);
  }, 1, 0.0);

  // JIT, hand schedules.
  codegen::BuildOptions options;
  options.allowContract = true;
  auto t0 = std::chrono::steady_clock::now();
  auto jit = codegen::HostModule::compile(tir, options);
  double jitCompileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  NDArray convOut(DTypeCode::Float32, {1, 64, 56, 56}), denseOut(DTypeCode::Float32, {1, 1024});
  double tConvJit = bestSeconds([&] {
    std::vector<NDArray> args{x, w, convOut};
    jit->callPrimFunc("conv", args);
  });
  double tDenseJit = bestSeconds([&] {
    std::vector<NDArray> args{dx, dw, denseOut};
    jit->callPrimFunc("dense", args);
  });

  // JIT of what LegalizeOps produces for the same ops.
  IRModule lowered = lower(graph, "");
  double tConvLegal = 0, tDenseLegal = 0, errConvLegal = NAN, errDenseLegal = NAN;
  std::string legalNote;
  if (lowered) {
    try {
      codegen::BuildOptions conv = options, dense = options;
      conv.entry = "conv";
      dense.entry = "dense";
      auto jc = codegen::HostModule::compile(lowered, conv);
      auto jd = codegen::HostModule::compile(lowered, dense);
      std::vector<NDArray> oc, od;
      tConvLegal = bestSeconds([&] { oc = jc->runEntry({x, w}); });
      tDenseLegal = bestSeconds([&] { od = jd->runEntry({dx, dw}); });
      errConvLegal = maxError(oc.at(0), convRef);
      errDenseLegal = maxError(od.at(0), denseRef);
    } catch (const std::exception& e) {
      legalNote = e.what();
    }
  } else {
    legalNote = "LegalizeOps did not lower the module";
  }

  PlainC plain = compilePlainC();
  NDArray convPlain(DTypeCode::Float32, {1, 64, 56, 56}), densePlain(DTypeCode::Float32, {1, 1024});
  double tConvPlain = 0, tDensePlain = 0;
  if (plain.conv) {
    tConvPlain = bestSeconds([&] { plain.conv(x.values<float>().data(), w.values<float>().data(), convPlain.mutableValues<float>().data()); });
    tDensePlain = bestSeconds([&] { plain.dense(dx.values<float>().data(), dw.values<float>().data(), densePlain.mutableValues<float>().data()); });
  }

  std::printf("conv2d 1x64x56x56 * 64x64x3x3, pad 1 (%.0f MFLOP)\n", convFlops / 1e6);
  row("conv2d", "JIT, hand schedule (8x8 regs)", convFlops, tConvJit, maxError(convOut, convRef));
  if (tConvLegal > 0) row("conv2d", "JIT, LegalizeOps schedule", convFlops, tConvLegal, errConvLegal);
  if (plain.conv) row("conv2d", "plain C, g++ -O3 -march=native", convFlops, tConvPlain, maxError(convPlain, convRef));
  row("conv2d", "interpreter (reference kernel)", convFlops, tConvInterp, 0);
  std::printf("dense 1x1024 * 1024x1024 (%.1f MFLOP)\n", denseFlops / 1e6);
  row("dense", "JIT, hand schedule (16 sums)", denseFlops, tDenseJit, maxError(denseOut, denseRef));
  if (tDenseLegal > 0) row("dense", "JIT, LegalizeOps schedule", denseFlops, tDenseLegal, errDenseLegal);
  if (plain.dense) row("dense", "plain C, g++ -O3 -march=native", denseFlops, tDensePlain, maxError(densePlain, denseRef));
  row("dense", "interpreter (reference kernel)", denseFlops, tDenseInterp, 0);
  row("dense", "interpreter (TIR evaluator)", denseFlops, tDenseTir, maxError(denseTirOut, denseRef));
  if (!legalNote.empty()) std::printf("  (LegalizeOps schedule not measured: %s)\n", legalNote.c_str());
  std::printf("JIT compile of the two hand-scheduled PrimFuncs: %.0f ms\n\n", jitCompileMs);

  // Compile time of the CNN example, lowered by LegalizeOps, per target.
  try {
    IRModule cnn = parseModuleFile(std::string(PASSLAB_SOURCE_DIR) + "/examples/cnn_block.relay");
    for (const char* target : {"llvm", "hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b"}) {
      auto t1 = std::chrono::steady_clock::now();
      IRModule low = lower(cnn, target);
      double lowerMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
      if (!low) {
        std::printf("examples/cnn_block.relay: LegalizeOps did not lower it\n");
        break;
      }
      codegen::Artifacts a = codegen::build(low, codegen::Target::parse(target));
      std::printf("examples/cnn_block.relay for %-7s: lowering %.0f ms, TIR->LLVM %.0f ms, LLVM O3 %.0f ms, %s %.0f ms; %zu PrimFuncs",
                  std::string(a.target.kindName()).c_str(), lowerMs, a.emitMs, a.optimizeMs,
                  a.target.kind == codegen::TargetKind::Host ? "assembly" : "assembly+object", a.objectMs, a.functions.size());
      if (a.target.kind == codegen::TargetKind::Hexagon) std::printf(", %zu with HVX", a.hvxFunctions.size());
      std::printf("\n");
    }
  } catch (const std::exception& e) {
    std::printf("examples/cnn_block.relay: %s\n", e.what());
  }
  return 0;
}
