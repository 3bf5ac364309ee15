// Cold JIT compile time of whole models, and the latency of the code it
// compiles (so that a cheaper compile that costs run time shows). The models:
// the 700-op MobileNetV3 at 96x96 (bench/make_mobilenetv3_onnx.py --dynamic,
// bound to 1x3x96x96, as bench_run_reference and the report tests use it)
// and the 250-280-op models of bench/onnxruntime/make_models.py. Each is
// lowered by the default build pipeline, then compiled cold N times (no
// object reused, from memory or disk) for the host's vector unit and, on an
// AVX-512 host, for AVX2 (`llvm -mattr=-avx512f`). Prints per model and ISA
// the median and minimum process CPU time (all threads: getrusage) and wall
// time of a compile, the phases the build reports (TIR->LLVM, optimization
// and machine code, JIT link; the units' reading, O3 and machine code), and the
// median latency and thread CPU time of the entry on one thread; the load
// average with each row. Asserts nothing.
//
//   bench_jit_compile [--runs N] [--repeat N] [--isa native|avx2|both] [--only NAME] [--serial] [--depthwise] [--units]
//                     [--timeline] [--settle MS] [--interleave]
//
// --units lists the last compile's units by their compile time (wall, ms).
// --depthwise also profiles the entry (BuildOptions::profile) and prints the
// median time and GFLOP/s of each depthwise convolution kernel (its weight
// [C, 1, kh, kw], its output shape), each small-spatial convolution and each
// matmul or dense kernel. The
// FLOPs are multiplyAccumulateFlops: the lanes a schedule computes, so the
// wide grid's dropped columns count and GFLOP/s of two schedules of one
// layer compare only through their times.
//
// --timeline prints, per 10 timed runs, the median wall and thread CPU time
// and the thread's involuntary and voluntary context switches: a wall time
// far above the CPU time with involuntary switches is another task holding
// the core (on the shared 2-core machine, about 4 ms each), not the code.
// --settle MS sleeps before the timed runs. --interleave keeps each ISA's
// module and then runs them in turn, one run each, so both see the same load
// (with --interleave, --depthwise is skipped).
//
// --serial compiles on the caller's thread only (PASSLAB_COMPILE_THREADS=1):
// CPU time then equals wall time on an idle machine.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_stats.h"
#include "codegen/codegen.h"
#include "core/frontend/load_model.h"
#include "core/ir/expr.h"
#include "core/ir/functor.h"
#include "core/ir/tir_functor.h"
#include "core/pass/pass.h"
#include "passes/build_pipeline.h"

using namespace passlab;
using bench::countOps;
using bench::median;

namespace {

std::string loadAverage() {
  FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return "?";
  char buf[64] = {0};
  double a = 0, b = 0, c = 0;
  if (std::fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) std::snprintf(buf, sizeof buf, "%.2f %.2f %.2f", a, b, c);
  std::fclose(f);
  return buf;
}

/// CPU time of the process (every thread), in ms.
double processCpuMs() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3) + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

/// CPU time of the calling thread, in ms.
double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double minimum(const std::vector<double>& v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }

/// "5x5 depthwise, out 1x480x3x3" for a PrimFunc with a depthwise weight
/// parameter [C, 1, kh, kw] (C > 1), "matmul/dense, out ..." for one named
/// after those ops, "small-spatial conv, out ..." for one that copies its
/// patches (conv_patches), else "".
std::string depthwiseKernel(const IRModule& mod, const std::string& name) {
  Expr e = mod->lookup(name);
  if (!e || e->kind != ExprKind::PrimFunc) return "";
  const auto& fn = static_cast<const PrimFuncNode&>(*e);
  std::string found;
  for (const tir::Param& p : fn.params)
    if (p.buffer && p.buffer->shape.size() == 4 && p.buffer->shape[0] > 1 && p.buffer->shape[1] == 1 && p.buffer->shape[2] > 1)
      found = std::to_string(p.buffer->shape[2]) + "x" + std::to_string(p.buffer->shape[3]) + " depthwise";
  if (found.empty() && (name.find("matmul") != std::string::npos || name.find("dense") != std::string::npos)) found = "matmul/dense";
  if (found.empty() && fn.body) {
    // The small-spatial convolution: its patches copied into a scratch matrix.
    tir::preOrderVisit(
        fn.body,
        [&](const tir::Stmt& s) {
          const auto* a = as<tir::AllocateNode>(s);
          if (a && a->buffer->name == "conv_patches") found = "small-spatial conv";
          return found.empty();
        },
        [](const tir::PrimExpr&) { return false; });
  }
  if (found.empty() || !fn.params.back().buffer) return "";
  std::string out;
  for (int64_t d : fn.params.back().buffer->shape) out += (out.empty() ? "" : "x") + std::to_string(d);
  return found + ", out " + out;
}

/// --interleave: the ISAs' modules run in turn, one run each, so that both
/// see the same load; per ISA the median wall and thread CPU time, and the
/// scheduler's involuntary switches (another task given the core).
void interleaveRuns(const std::vector<std::pair<std::string, std::unique_ptr<codegen::HostModule>>>& modules, int repeat) {
  std::vector<NDArray> inputs;
  for (const codegen::TensorSig& s : modules.front().second->artifacts().entryInputs) {
    NDArray x(s.dtype, s.shape);
    for (int64_t i = 0; i < x.numElements(); ++i) x.setFromDouble(i, 0.001 * static_cast<double>(i % 1000));
    inputs.push_back(x);
  }
  for (const auto& m : modules)
    for (int k = 0; k < 3; ++k) m.second->runEntry(inputs);
  std::vector<std::vector<double>> wall(modules.size()), cpu(modules.size());
  std::vector<long> switches(modules.size(), 0);
  for (int k = 0; k < repeat; ++k)
    for (size_t i = 0; i < modules.size(); ++i) {
      rusage u0{}, u1{};
      getrusage(RUSAGE_THREAD, &u0);
      double c0 = threadCpuMs();
      auto t0 = std::chrono::steady_clock::now();
      modules[i].second->runEntry(inputs);
      wall[i].push_back(msSince(t0));
      cpu[i].push_back(threadCpuMs() - c0);
      getrusage(RUSAGE_THREAD, &u1);
      switches[i] += u1.ru_nivcsw - u0.ru_nivcsw;
    }
  for (size_t i = 0; i < modules.size(); ++i)
    std::printf("    interleaved %-6s wall median %7.3f ms, thread CPU median %7.3f ms, %ld involuntary switches in %d runs\n", modules[i].first.c_str(),
                median(wall[i]), median(cpu[i]), switches[i], repeat);
}

struct Model {
  std::string name, path;
  LoadModelOptions load;
};

}  // namespace

int main(int argc, char** argv) {
  int runs = 5, repeat = 50;
  bool depthwise = false, units = false, timeline = false, interleave = false;
  int settleMs = 0;
  std::string isaChoice = "both", only;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--runs") runs = std::max(1, std::atoi(value().c_str()));
    else if (a == "--repeat") repeat = std::max(0, std::atoi(value().c_str()));
    else if (a == "--isa") isaChoice = value();
    else if (a == "--only") only = value();
    else if (a == "--serial") setenv("PASSLAB_COMPILE_THREADS", "1", 1);
    else if (a == "--depthwise") depthwise = true;
    else if (a == "--units") units = true;
    else if (a == "--timeline") timeline = true;
    else if (a == "--interleave") interleave = true;
    else if (a == "--settle") settleMs = std::max(0, std::atoi(value().c_str()));
    else {
      std::fprintf(stderr, "usage: bench_jit_compile [--runs N] [--repeat N] [--isa native|avx2|both] [--only NAME] [--serial] [--depthwise] [--units] [--timeline] [--settle MS] [--interleave]\n");
      return 2;
    }
  }
  // Nothing compiled before is taken, from memory or from a cache directory.
  setenv("PASSLAB_CACHE_DIR", "off", 1);
  char tmpl[] = "/tmp/passlab-bench-jit-XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  const std::string dir = tmpl;
  std::vector<Model> models;
  {
    Model m{"mnv3_96 (700-op)", dir + "/mnv3_96.onnx", {}};
    std::string cmd = "/usr/bin/python3 " + std::string(PASSLAB_SOURCE_DIR) + "/bench/make_mobilenetv3_onnx.py " + m.path + " --dynamic >/dev/null";
    if (std::system(cmd.c_str()) != 0) {
      std::fprintf(stderr, "cannot generate the models (needs /usr/bin/python3 with python3-onnx)\n");
      return 1;
    }
    m.load.onnx.inputShapes["input"] = {1, 3, 96, 96};
    models.push_back(m);
  }
  {
    std::string cmd = "/usr/bin/python3 " + std::string(PASSLAB_SOURCE_DIR) + "/bench/onnxruntime/make_models.py " + dir + " >" + dir + "/list.txt";
    if (std::system(cmd.c_str()) != 0) return 1;
    FILE* f = std::fopen((dir + "/list.txt").c_str(), "r");
    char path[1024], input[128], dims[128];
    int nodes = 0;
    while (f && std::fscanf(f, "%1023s %127s %127s %d", path, input, dims, &nodes) == 4)
      models.push_back({std::filesystem::path(path).stem().string(), path, {}});
    if (f) std::fclose(f);
  }
  std::vector<std::pair<std::string, std::string>> isas;
  bool avx512Host = false;
#if defined(__x86_64__)
  avx512Host = __builtin_cpu_supports("avx512f");
#endif
  if (isaChoice != "avx2") isas.emplace_back(avx512Host ? "avx512" : "native", "llvm");
  if (isaChoice != "native" && avx512Host) isas.emplace_back("avx2", "llvm -mattr=-avx512f");
  std::printf("cold JIT compiles: %d per model and ISA (no object reused); latency: median of %d runs on one thread after 3 warm-up runs\n", runs, repeat);
  std::printf("%-18s %-6s %5s %5s | %9s %9s %9s | %6s %6s %6s %6s | %6s %6s %6s %6s | %8s %8s | %s\n", "model", "isa", "ops", "funcs", "cpu med",
              "cpu min", "wall med", "emit", "split", "opt+mc", "link", "units", "read", "O3", "mc", "run ms", "run cpu", "load");
  for (const Model& model : models) {
    if (!only.empty() && model.name.find(only) == std::string::npos) continue;
    IRModule mod = loadModelFile(model.path, model.load);
    size_t ops = countOps(mod);
    std::vector<std::pair<std::string, std::unique_ptr<codegen::HostModule>>> kept;  // --interleave
    for (const auto& [isaName, targetText] : isas) {
      auto ctx = PassContext::create();
      AttrDict attrs = mod->attrs;
      attrs.set(module_attr::kTarget, AttrValue::string(targetText));
      IRModule low = lowerForBuild(withModuleAttrs(mod, attrs), *ctx);
      codegen::BuildOptions options;
      options.emitAssembly = false;
      options.keepText = false;
      options.reuseCompiledKernels = false;
      options.objectCacheDir = "";
      options.hostTarget = codegen::Target::parse(targetText);
      std::vector<double> cpu, wall, emit, opt, link, parse, optimize, machine, split;
      std::unique_ptr<codegen::HostModule> last;
      std::string loadBefore = loadAverage();
      for (int k = 0; k < runs; ++k) {
        last.reset();
        codegen::forgetCompiledKernelsInMemory();
        double c0 = processCpuMs();
        auto t0 = std::chrono::steady_clock::now();
        last = codegen::HostModule::compile(low, options);
        wall.push_back(msSince(t0));
        cpu.push_back(processCpuMs() - c0);
        const codegen::Artifacts& a = last->artifacts();
        emit.push_back(a.emitMs);
        opt.push_back(a.optimizeMs);
        link.push_back(a.objectMs);
        parse.push_back(a.unitsParseMs);
        optimize.push_back(a.unitsOptimizeMs);
        machine.push_back(a.unitsMachineCodeMs);
        split.push_back(a.splitMs);
      }
      double runMs = 0, runCpu = 0;
      if (repeat > 0) {
        const codegen::Artifacts& a = last->artifacts();
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> dist(-1, 1);
        std::vector<NDArray> inputs;
        for (const codegen::TensorSig& s : a.entryInputs) {
          NDArray x(s.dtype, s.shape);
          for (int64_t i = 0; i < x.numElements(); ++i) x.setFromDouble(i, dist(rng));
          inputs.push_back(x);
        }
        for (int k = 0; k < 3; ++k) last->runEntry(inputs);
        if (settleMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(settleMs));
        std::vector<double> ms, cpuMs;
        std::vector<long> preempted, blocked;
        for (int k = 0; k < repeat; ++k) {
          rusage u0{}, u1{};
          getrusage(RUSAGE_THREAD, &u0);
          double c0 = threadCpuMs();
          auto t0 = std::chrono::steady_clock::now();
          last->runEntry(inputs);
          ms.push_back(msSince(t0));
          cpuMs.push_back(threadCpuMs() - c0);
          getrusage(RUSAGE_THREAD, &u1);
          preempted.push_back(u1.ru_nivcsw - u0.ru_nivcsw);
          blocked.push_back(u1.ru_nvcsw - u0.ru_nvcsw);
        }
        runMs = median(ms);
        runCpu = median(cpuMs);
        // Where the wall time above the thread's CPU time goes, run by run:
        // involuntary switches are the scheduler giving the core to another
        // task, voluntary ones the thread waiting (a fault, a lock).
        for (int k = 0; timeline && k < repeat; k += 10) {
          int end = std::min(repeat, k + 10);
          std::vector<double> w(ms.begin() + k, ms.begin() + end), c(cpuMs.begin() + k, cpuMs.begin() + end);
          long inv = 0, vol = 0;
          for (int j = k; j < end; ++j) inv += preempted[static_cast<size_t>(j)], vol += blocked[static_cast<size_t>(j)];
          std::printf("    runs %4d-%-4d wall median %7.3f ms, thread CPU %7.3f ms, %ld involuntary and %ld voluntary switches\n", k, end - 1, median(w),
                      median(c), inv, vol);
        }
      }
      const codegen::Artifacts& a = last->artifacts();
      std::printf("%-18s %-6s %5zu %5zu | %9.0f %9.0f %9.0f | %6.0f %6.0f %6.0f %6.0f | %6zu %6.0f %6.0f %6.0f | %8.3f %8.3f | %s .. %s\n",
                  model.name.c_str(), isaName.c_str(), ops, a.functions.size(), median(cpu), minimum(cpu), median(wall), median(emit), median(split),
                  median(opt), median(link), a.unitCompileMs.size(), median(parse), median(optimize), median(machine), runMs, runCpu,
                  loadBefore.c_str(), loadAverage().c_str());
      std::fflush(stdout);
      if (units) {
        std::vector<std::pair<std::string, double>> u = a.unitCompileMs;
        std::sort(u.begin(), u.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
        for (const auto& [name, ms] : u) std::printf("    unit %-60s %7.1f ms\n", name.substr(0, 60).c_str(), ms);
      }
      if (interleave) kept.emplace_back(isaName, std::move(last));
      if (depthwise && repeat > 0 && !interleave) {
        options.profile = true;
        auto profiled = codegen::HostModule::compile(low, options);
        const codegen::Artifacts& pa = profiled->artifacts();
        std::vector<NDArray> inputs;
        for (const codegen::TensorSig& sig : pa.entryInputs) {
          NDArray x(sig.dtype, sig.shape);
          for (int64_t i = 0; i < x.numElements(); ++i) x.setFromDouble(i, 0.001 * static_cast<double>(i % 1000));
          inputs.push_back(x);
        }
        for (int k = 0; k < 3; ++k) profiled->runEntry(inputs);
        std::vector<std::vector<double>> perCall(pa.entryCalls.size());
        for (int k = 0; k < repeat; ++k) {
          profiled->runEntry(inputs);
          std::vector<int64_t> ns = profiled->lastProfile();
          for (size_t c = 0; c < ns.size() && c < perCall.size(); ++c) perCall[c].push_back(static_cast<double>(ns[c]) / 1e3);
        }
        for (size_t c = 0; c < perCall.size(); ++c) {
          std::string what = depthwiseKernel(low, pa.entryCalls[c]);
          if (what.empty()) continue;
          double us = median(perCall[c]);
          double flops = static_cast<double>(codegen::multiplyAccumulateFlops(low, pa.entryCalls[c]));
          std::printf("    %-6s %-40s %-36s %8.1f us %7.1f GFLOP/s\n", isaName.c_str(), pa.entryCalls[c].substr(0, 40).c_str(), what.c_str(), us,
                      us > 0 ? flops / us / 1e3 : 0.0);
        }
      }
    }
    if (interleave && repeat > 0 && kept.size() > 1) interleaveRuns(kept, repeat);
  }
  std::printf("\ncpu: process CPU time of one cold compile (ms, every thread); wall: its wall time; emit: TIR->LLVM (wall); split: "
              "shared bodies and cutting into units (wall); opt+mc: the units' optimization and machine code (wall, on the compile threads); "
              "link: the JIT's linking (wall); units: how many; read, O3, mc: the units' bitcode reading, optimization pipeline and machine "
              "code, thread CPU time summed; run: entry latency and thread CPU time (ms); every figure the median of the runs\n");
  std::filesystem::remove_all(dir);
  return 0;
}
