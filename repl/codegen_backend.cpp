#include "repl/codegen_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <thread>
#include <map>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/text/metadata.h"
#include "core/interp/interpreter.h"
#include "core/interp/interp_limits.h"
#include "core/trace/numeric_check.h"

namespace passlab {
namespace {

std::string sigText(const codegen::TensorSig& s) {
  std::string out = "Tensor[(";
  for (size_t i = 0; i < s.shape.size(); ++i) out += (i ? ", " : "") + std::to_string(s.shape[i]);
  return out + "), " + std::string(s.dtype.name()) + "]";
}

std::string joinNames(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + ("@" + s);
  return out.empty() ? "none" : out;
}

/// At most eight names, then a count: a 700-op model has 80 kernels.
std::string capNames(const std::vector<std::string>& names) {
  constexpr size_t kShown = 8;
  if (names.size() <= kShown) return joinNames(names);
  return joinNames({names.begin(), names.begin() + kShown}) + " and " + std::to_string(names.size() - kShown) + " more";
}

std::string summaryOf(const codegen::Artifacts& a) {
  std::string out = "  PrimFuncs: " + joinNames(a.functions) + "\n";
  if (a.target.kind == codegen::TargetKind::Hexagon) {
    out += "  with HVX instructions: " + joinNames(a.hvxFunctions) + "\n";
    // Grouped by reason: on a CNN every kernel shares the same one.
    std::map<std::string, std::vector<std::string>> byReason;
    for (const auto& [name, why] : a.scalarReasons) byReason[why].push_back(name);
    for (const auto& [why, names] : byReason)
      out += "  scalar (" + why + "): " + capNames(names) + "\n";
  }
  std::vector<std::string> ext;
  for (const auto& [name, c] : a.externC) ext.push_back(name);
  if (!ext.empty()) out += "  ccompiler functions (C): " + joinNames(ext) + "\n";
  if (!a.entry.empty()) {
    out += "  entry @" + a.entry + ": (";
    for (size_t i = 0; i < a.entryInputs.size(); ++i) out += (i ? ", " : "") + sigText(a.entryInputs[i]);
    out += ") -> (";
    for (size_t i = 0; i < a.entryOutputs.size(); ++i) out += (i ? ", " : "") + sigText(a.entryOutputs[i]);
    out += ")\n";
  }
  // Shown when the target chose it (-mcpu / -mattr): the host's own varies by machine.
  if (!a.vectorUnit.empty() && a.target.kind == codegen::TargetKind::Host && (!a.target.cpu.empty() || !a.target.features.empty()))
    out += "  vector unit: " + a.vectorUnit + "\n";
  if (!a.llvmDiagnostics.empty()) {
    out += "  LLVM reported " + std::to_string(a.llvmDiagnostics.size()) + " warning" + (a.llvmDiagnostics.size() == 1 ? "" : "s") +
           ", first: " + a.llvmDiagnostics.front() + "\n";
  }
  return out;
}

}  // namespace

std::string llvmFunctionText(const std::string& ir, const std::string& symbol) {
  size_t at = ir.find(" @" + symbol + "(");
  while (at != std::string::npos) {
    size_t lineStart = ir.rfind('\n', at) + 1;
    if (ir.compare(lineStart, 7, "define ") == 0) {
      size_t end = ir.find("\n}\n", at);
      return ir.substr(lineStart, end == std::string::npos ? std::string::npos : end + 3 - lineStart);
    }
    at = ir.find(" @" + symbol + "(", at + 1);
  }
  return "";
}

std::string asmFunctionText(const std::string& s, const std::string& symbol) {
  size_t at = s.find("\n" + symbol + ":");
  if (at == std::string::npos) return "";
  size_t end = s.find(".Lfunc_end", at + symbol.size() + 2);
  end = end == std::string::npos ? s.size() : s.find('\n', end);
  return s.substr(at + 1, end - at);
}

codegen::Target parseTargetWord(const std::string& text) {
  if (text == "host") return codegen::Target::host();
  try {
    return codegen::Target::parse(text);
  } catch (const codegen::CodegenError& e) {
    throw WorkbenchError(e.what());
  }
}

namespace {

/// The last parameter's shape of PrimFunc `primFunc` ("1x72x28x28"; empty when it has none).
std::string outputShapeOf(const IRModule& mod, const std::string& primFunc) {
  const auto* fn = as<PrimFuncNode>(mod->lookup(primFunc));
  if (!fn || fn->params.empty() || !fn->params.back().buffer) return "";
  std::string out;
  for (int64_t d : fn->params.back().buffer->shape) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out.empty() ? "scalar" : out;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Runs `module`'s entry 1 + repeat times on `inputs` and times it (and, when
/// it was compiled with profiling, each of its calls).
TimingReport timeEntry(codegen::HostModule& module, const IRModule& mod, const std::vector<NDArray>& inputs, const TimingRequest& request) {
  TimingReport t;
  t.repeat = std::max(1, request.repeat);
  t.perKernel = request.perKernel;
  const codegen::Artifacts& a = module.artifacts();
  // Each kernel's time in every run, summed over its calls: the table shows
  // the median, so one run preempted by another process does not put a
  // kernel at the top (a mean over 10 runs did).
  std::map<std::string, std::vector<double>> msByRun;
  if (request.perKernel)
    for (const std::string& name : a.entryCalls) msByRun[name].assign(static_cast<size_t>(t.repeat), 0.0);
  std::vector<double> latency;
  module.runEntry(inputs);  // warm-up: first touches of code, constants and scratch
  codegen::resetThreadBusy();
  // Ctrl-C ends the timing after the current run: the runs so far are reported.
  for (int r = 0; r < t.repeat && !(r > 0 && interp::interruptRequested()); ++r) {
    auto t0 = std::chrono::steady_clock::now();
    module.runEntry(inputs);
    latency.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (request.perKernel) {
      std::vector<int64_t> steps = module.lastProfile();
      for (size_t i = 0; i < steps.size() && i < a.entryCalls.size(); ++i)
        msByRun[a.entryCalls[i]][static_cast<size_t>(r)] += static_cast<double>(steps[i]) / 1e6;
    }
  }
  if (static_cast<int>(latency.size()) < t.repeat) {
    t.repeat = static_cast<int>(latency.size());
    for (auto& [name, runs] : msByRun) runs.resize(latency.size());
  }
  t.medianMs = median(latency);
  t.minMs = *std::min_element(latency.begin(), latency.end());
  if (codegen::threadCount() > 1)
    for (int64_t ns : codegen::threadBusyNs()) t.threadMs.push_back(static_cast<double>(ns) / 1e6 / t.repeat);
  if (!request.perKernel) return t;
  for (auto& [name, runs] : msByRun) {
    KernelProfile k;
    k.function = name;
    k.calls = static_cast<int>(std::count(a.entryCalls.begin(), a.entryCalls.end(), name));
    k.msPerRun = median(runs);
    k.flopsPerRun = codegen::multiplyAccumulateFlops(mod, name) * k.calls;
    k.output = outputShapeOf(mod, name);
    if (auto s = request.schedules.find(name); s != request.schedules.end()) k.schedule = s->second;
    t.kernelMs += k.msPerRun;
    t.kernels.push_back(k);
  }
  std::stable_sort(t.kernels.begin(), t.kernels.end(), [](const KernelProfile& x, const KernelProfile& y) { return x.msPerRun > y.msPerRun; });
  return t;
}

}  // namespace

std::string capBuildText(const std::string& text, size_t cap, size_t nameCap) {
  std::string out;
  bool inTable = false;
  size_t rows = 0, hidden = 0;
  double hiddenMs = 0, hiddenShare = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string line = text.substr(start, end - start);
    start = end;
    if (line.rfind("  kernel ", 0) == 0) {
      inTable = true;
      rows = hidden = 0;
      out += line;
      continue;
    }
    if (inTable && line.rfind("  total in kernels", 0) == 0) {
      inTable = false;
      if (hidden) {
        char buf[256];
        std::string label = "… " + std::to_string(hidden) + " more kernels (--all lists every one)";
        std::snprintf(buf, sizeof buf, "  %-64s %5s %11.5f %6.1f%%\n", label.c_str(), "", hiddenMs, hiddenShare);
        out += buf;
      }
      out += line;
      continue;
    }
    if (inTable) {
      if (++rows <= cap) {
        out += line;
      } else {
        // "  @name  calls  ms  share% ..."
        char name[512];
        int calls = 0;
        double ms = 0, share = 0;
        if (std::sscanf(line.c_str(), " %511s %d %lf %lf%%", name, &calls, &ms, &share) == 4) {
          hiddenMs += ms;
          hiddenShare += share;
        }
        ++hidden;
      }
      continue;
    }
    // A list of function names: "  LABEL: @a, @b, @c".
    size_t colon = line.find(": @");
    if (line.rfind("  ", 0) == 0 && colon != std::string::npos && line.find('(') > colon) {
      std::vector<std::string> names;
      std::string body = line.substr(colon + 2, line.size() - colon - 3);
      for (size_t at = 0; at <= body.size();) {
        size_t comma = body.find(", ", at);
        names.push_back(body.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos) break;
        at = comma + 2;
      }
      if (names.size() > nameCap) {
        out += line.substr(0, colon + 2) + "(" + std::to_string(names.size()) + ") ";
        for (size_t i = 0; i < nameCap; ++i) out += names[i] + ", ";
        out += "… " + std::to_string(names.size() - nameCap) + " more (--all lists every one)\n";
        continue;
      }
    }
    out += line;
  }
  return out;
}

std::string kernelLine(const KernelProfile& k, double totalMs) {
  char line[160];
  double share = totalMs > 0 ? 100 * k.msPerRun / totalMs : 0;
  int n = std::snprintf(line, sizeof line, "calls %d, %.5f ms per run, %.1f%%", k.calls, k.msPerRun, share);
  std::string out(line, static_cast<size_t>(n));
  if (k.flopsPerRun > 0 && k.msPerRun > 0) {
    n = std::snprintf(line, sizeof line, ", %.2f GFLOP/s", static_cast<double>(k.flopsPerRun) / (k.msPerRun * 1e6));
    out.append(line, static_cast<size_t>(n));
  }
  if (!k.schedule.empty()) out += ", schedule " + k.schedule;
  if (!k.output.empty()) out += ", output " + k.output;
  return out + "\n";
}

bool parseKernelLine(const std::string& text, KernelProfile& out) {
  int calls = 0;
  double ms = 0;
  if (std::sscanf(text.c_str(), "calls %d, %lf ms per run", &calls, &ms) != 2) return false;
  out.calls = calls;
  out.msPerRun = ms;
  size_t at = text.find(", output ");
  if (at != std::string::npos) out.output = text.substr(at + 9, text.find('\n', at) - at - 9);
  if (size_t s = text.find(", schedule "); s != std::string::npos) out.schedule = text.substr(s + 11, text.find(',', s + 11) - s - 11);
  return true;
}

std::string formatTiming(const TimingReport& t) {
  char line[256];
  std::snprintf(line, sizeof line, "latency over %d runs after a warm-up: median %.4f ms, min %.4f ms%s\n", t.repeat, t.medianMs, t.minMs,
                t.perKernel ? " (instrumented: a timestamp around each call)" : "");
  std::string out = line;
  if (!t.threadMs.empty()) {
    out += std::to_string(t.threadMs.size()) + " threads; ms per run in parallel loops, by thread:";
    for (size_t i = 0; i < t.threadMs.size(); ++i) {
      std::snprintf(line, sizeof line, "%s %.4f", i ? "," : "", t.threadMs[i]);
      out += line;
    }
    out += "\n";
  }
  if (t.compileUnits > 0) {
    std::snprintf(line, sizeof line, "JIT compile: %.0f ms, %d of %d code units reused from earlier builds%s", t.compileMs,
                  t.reusedUnits, t.compileUnits,
                  t.reusedUnitsFromDisk > 0 ? (" (" + std::to_string(t.reusedUnitsFromDisk) + " from the kernel cache directory)").c_str() : "");
    out += line;
    if (t.sharedBodies > 0) {
      std::snprintf(line, sizeof line, "; %d kernels that differ only in sizes share %d compiled bodies", t.kernelsOnSharedBodies, t.sharedBodies);
      out += line;
    }
    out += "\n";
  }
  if (!t.perKernel) return out;
  const bool schedules = std::any_of(t.kernels.begin(), t.kernels.end(), [](const KernelProfile& k) { return !k.schedule.empty(); });
  std::snprintf(line, sizeof line, "  %-64s %5s %11s %7s %9s  %-14s%s\n", "kernel", "calls", "ms per run", "share", "GFLOP/s", "output",
                schedules ? "  schedule" : "");
  out += line;
  for (const KernelProfile& k : t.kernels) {
    std::string gflops = "-";
    if (k.flopsPerRun > 0 && k.msPerRun > 0) {
      char g[32];
      std::snprintf(g, sizeof g, "%.2f", static_cast<double>(k.flopsPerRun) / (k.msPerRun * 1e6));
      gflops = g;
    }
    std::string name = "@" + k.function;
    if (name.size() > 64) name = name.substr(0, 61) + "...";
    std::snprintf(line, sizeof line, "  %-64s %5d %11.5f %6.1f%% %9s  %-14s", name.c_str(), k.calls, k.msPerRun,
                  t.kernelMs > 0 ? 100 * k.msPerRun / t.kernelMs : 0.0, gflops.c_str(), k.output.c_str());
    out += line;
    if (schedules) out += "  " + (k.schedule.empty() ? std::string("-") : k.schedule);
    // Trailing spaces only when the output column is followed by nothing.
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  }
  std::snprintf(line, sizeof line, "  %-64s %5s %11.5f %6.1f%%  (the rest of the latency: entry copies, timestamps)\n", "total in kernels", "",
                t.kernelMs, t.medianMs > 0 ? 100 * t.kernelMs / t.medianMs : 0.0);
  out += line;
  if (schedules)
    out += "  schedule: what LegalizeOps chose for the kernel's main loop nest; `remarks LegalizeOps @KERNEL` gives its tiles, "
           "vector unit and why\n";
  return out;
}

const std::vector<NDArray>* ReferenceCache::find(const IRModule& mod, const std::string& entry, uint32_t seed, bool tir) const {
  auto it = entries_.find(Key{mod.get(), entry, seed, tir});
  return it == entries_.end() ? nullptr : &it->second.outputs;
}

void ReferenceCache::store(const IRModule& mod, const std::string& entry, uint32_t seed, bool tir, std::vector<NDArray> outputs) {
  entries_[Key{mod.get(), entry, seed, tir}] = Entry{mod, std::move(outputs), ++clock_};
  while (entries_.size() > kCapacity) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const auto& a, const auto& b) { return a.second.stamp < b.second.stamp; });
    entries_.erase(oldest);
  }
}

namespace {

/// The outputs of `entry` of `mod` interpreted on `inputs`.
std::vector<NDArray> interpretOutputs(const IRModule& mod, const std::string& entry, const std::vector<NDArray>& inputs) {
  Value reference = evaluate(mod, entry, std::vector<Value>(inputs.begin(), inputs.end()));
  std::vector<NDArray> expected;
  if (reference.isTensor()) expected.push_back(reference.tensor());
  for (const Value& f : reference.fields()) expected.push_back(f.tensor());
  return expected;
}

/// The reference outputs: from the cache, or interpreted. With a status or a
/// cancel hook the interpreter runs on a worker thread while this one shows
/// the elapsed time after a second and polls the cancel flag. The
/// interpreter itself is only stopped if it polls an interrupt flag; until
/// then a cancel is honoured when it returns. `interrupted` tells the caller.
std::vector<NDArray> referenceOutputs(const IRModule& refMod, const std::string& entry, uint32_t seed, const std::vector<NDArray>& inputs,
                                      const RunReference& ref, bool& cached, bool& interrupted) {
  cached = interrupted = false;
  if (ref.cache)
    if (const std::vector<NDArray>* hit = ref.cache->find(refMod, entry, seed, ref.tir)) {
      cached = true;
      return *hit;
    }
  std::vector<NDArray> out;
  if (!ref.status && !ref.cancelled) {
    out = interpretOutputs(refMod, entry, inputs);
  } else {
    std::exception_ptr failure;
    std::atomic<bool> done{false};
    std::thread worker([&] {
      try {
        out = interpretOutputs(refMod, entry, inputs);
      } catch (...) {
        failure = std::current_exception();
      }
      done.store(true, std::memory_order_release);
    });
    const auto started = std::chrono::steady_clock::now();
    int shownSeconds = 0;  // the status line is redrawn once a second, or at once on an interrupt
    bool shownInterrupt = false;
    while (!done.load(std::memory_order_acquire)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (!interrupted && ref.cancelled && ref.cancelled()) interrupted = true;
      const int seconds = static_cast<int>(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      if (ref.status && seconds >= 1 && (seconds != shownSeconds || interrupted != shownInterrupt)) {
        shownSeconds = seconds;
        shownInterrupt = interrupted;
        ref.status("run: computing the reference, " + std::to_string(seconds) + " s: " + ref.label +
                   (interrupted ? "; stopping when the interpreter returns" : "  (Ctrl-C stops)"));
      }
    }
    worker.join();
    // An interpreter that polls the interrupt may return before this loop saw the flag.
    if (!interrupted && ref.cancelled && ref.cancelled()) interrupted = true;
    if (failure && interrupted) return {};  // stopped by the interrupt (an interpreter that polls it throws)
    if (failure) std::rethrow_exception(failure);
  }
  if (!interrupted && ref.cache) ref.cache->store(refMod, entry, seed, ref.tir, out);
  return out;
}

}  // namespace

RunReport runAndCompare(const IRModule& mod, const std::string& entry, bool hexagon, uint32_t seed,
                        const codegen::Artifacts* built, const TimingRequest* timing, const RunReference* reference,
                        const std::string& hostTarget) {
  RunReport report;
  if (timing && hexagon) {
    report.error = kHostOnlyProfiling;
    return report;
  }
  const FunctionNode* fn = mod->lookupFunction(entry);
  if (!fn) {
    report.error = "the module has no graph-level function @" + entry + " to run";
    return report;
  }
  std::vector<NDArray> inputs = randomInputs(*fn, seed);
  RunReference ref = reference ? *reference : RunReference{};
  bool cached = false, interrupted = false;
  std::vector<NDArray> expected;
  std::string fallback;
  try {
    expected = referenceOutputs(ref.module ? ref.module : mod, entry, seed, inputs, ref, cached, interrupted);
  } catch (const std::exception& e) {
    if (!ref.module) throw;
    // The snapshot before lowering is only a shortcut: when the graph
    // interpreter cannot run it, the module's own PrimFuncs still can.
    fallback = e.what();
    ref.module = nullptr;
    ref.tir = true;
    ref.label = "the TIR interpreter on the same module (the graph-level reference failed: " + fallback.substr(0, fallback.find('\n')) + ")";
    expected = referenceOutputs(mod, entry, seed, inputs, ref, cached, interrupted);
  }
  if (interrupted) {
    report.error = "interrupted (Ctrl-C) while computing the reference; nothing was compared";
    return report;
  }
  std::vector<NDArray> actual;
  std::string runCpu, emulatedFrom;
  try {
    codegen::BuildOptions options;
    options.entry = entry;
    options.cancelled = ref.cancelled;
    if (ref.status)
      options.progress = [&ref](const codegen::BuildProgress& p) {
        ref.status("run: " + p.stage + " @" + p.function + " (" + std::to_string(p.done) + " of " + std::to_string(p.total) + ")");
      };
    if (!hexagon) {
      options.profile = timing && timing->perKernel;
      options.emitAssembly = false;  // nobody reads it here, and it is a second code generation
      options.keepText = false;
      if (!hostTarget.empty()) options.hostTarget = parseTargetWord(hostTarget);
      auto t0 = std::chrono::steady_clock::now();
      std::unique_ptr<codegen::HostModule> module = codegen::HostModule::compile(mod, options);
      double compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      actual = module->runEntry(inputs);
      if (timing) {
        report.timing = timeEntry(*module, mod, inputs, *timing);
        report.timing->compileMs = compileMs;
        report.timing->compileUnits = static_cast<int>(module->artifacts().unitCompileMs.size());
        report.timing->reusedUnits = module->artifacts().reusedUnits;
        report.timing->reusedUnitsFromDisk = module->artifacts().reusedUnitsFromDisk;
        report.timing->kernelsOnSharedBodies = module->artifacts().kernelsOnSharedBodies();
        report.timing->sharedBodies = static_cast<int>(module->artifacts().kernelsSharingBodies.size());
      }
    } else {
      std::optional<codegen::Artifacts> fresh;
      // What runs is built for the CPU qemu emulates: a v68 object would run
      // on a v67 that it was not built for.
      codegen::Target asked = built && built->target.kind == codegen::TargetKind::Hexagon ? built->target : codegen::Target::hexagon();
      codegen::Target runTarget = asked.forEmulator();
      if (asked.cpu != runTarget.cpu) emulatedFrom = asked.cpu;
      if (!built || built->target.kind != codegen::TargetKind::Hexagon || built->entry != entry || built->target.cpu != runTarget.cpu)
        built = &fresh.emplace(codegen::build(mod, runTarget, options));
      runCpu = built->target.cpu;
      std::string dir = codegen::makeTempDir("passlab-run-");
      actual = codegen::runHexagon(*built, inputs, dir).outputs;
      std::filesystem::remove_all(dir);
    }
  } catch (const codegen::BuildCancelled& e) {
    report.error = std::string("interrupted (Ctrl-C) while compiling: ") + e.what() + "; nothing was compared";
    return report;
  } catch (const codegen::CodegenError& e) {
    report.error = std::string("run failed: ") + e.what();
    return report;
  }
  if (actual.size() != expected.size()) {
    report.error = "compiled code returned " + std::to_string(actual.size()) + " outputs, the interpreter " + std::to_string(expected.size());
    return report;
  }
  std::string where = " on the host (JIT)";
  if (hexagon)
    where = " on Hexagon (a " + runCpu + " build under qemu-hexagon -cpu v67" +
            (emulatedFrom.empty() ? std::string(")")
                                  : ", the newest CPU qemu 7.2 emulates; the " + emulatedFrom + " object is the one `build` writes)");
  std::string out = "ran @" + entry + where + " with inputs of seed " +
                    std::to_string(seed) + "; compared with " + (ref.label.empty() ? std::string("the interpreter") : ref.label) +
 ":\n" +
                    (cached ? "  (the reference's outputs are cached from an earlier run of the same module and seed)\n" : "");
  bool allOk = true;
  for (size_t i = 0; i < actual.size(); ++i) {
    double err = codegen::maxAbsError({actual[i]}, {expected[i]});
    double scale = 1;
    for (int64_t k = 0; k < expected[i].numElements(); ++k) scale = std::max(scale, std::fabs(expected[i].getAsDouble(k)));
    DataType d = expected[i].dtype();
    double rtol = d.code == DTypeCode::Float16 ? 1e-2 : d.code == DTypeCode::Float32 ? 1e-4 : d.code == DTypeCode::Float64 ? 1e-9 : 0;
    double tol = rtol * scale;
    bool ok = err <= tol;
    allOk = allOk && ok;
    char line[256];
    std::snprintf(line, sizeof line, "  output %zu %s: max |err| %s %.0e (tolerance %.0e): %s\n", i,
                  sigText({d, expected[i].shape()}).c_str(), err == 0 ? "=" : "<", err == 0 ? 0.0 : std::pow(10, std::ceil(std::log10(err))),
                  tol, ok ? "ok" : "MISMATCH");
    out += line;
  }
  if (summarizePlaceholders(mod).any())
    out += "  (computed from placeholder constants: meta[relay.Constant][N] loaded without a #[metadata] section, "
           "made-up data)\n";
  out += allOk ? "PASS\n" : "FAIL\n";
  if (report.timing) out += formatTiming(*report.timing);
  report.text = std::move(out);
  report.ok = allOk;
  return report;
}

CodegenOutcome LlvmCodegenBackend::build(const IRModule& mod, const CodegenRequest& request) {
  codegen::Target target = parseTargetWord(request.target);
  if (request.profile && target.kind != codegen::TargetKind::Host) throw WorkbenchError(kHostOnlyProfiling);
  codegen::BuildOptions options;
  options.entry = request.entry;
  options.progress = hooks.progress;
  options.cancelled = hooks.cancelled;
  codegen::Artifacts a;
  try {
    a = codegen::build(mod, target, options);
  } catch (const codegen::BuildCancelled& e) {
    // The workbench records nothing for a build that throws: the trace and the cursor stay.
    throw WorkbenchError(std::string("build interrupted (Ctrl-C): ") + e.what() + "; nothing was recorded");
  }
  CodegenOutcome out;
  out.target = a.target.text;
  out.summary = summaryOf(a);
  // Code per PrimFunc is cut out of the module's text by its symbol, as the
  // user knows functions by their IR names, not their LLVM ones.
  auto perFunction = [&](const std::string& name, const std::string& whole,
                         std::string (*cut)(const std::string&, const std::string&)) {
    CodegenStage stage;
    stage.name = name;
    stage.artifacts.push_back({"", whole});
    for (const std::string& f : a.functions) {
      Expr fn = mod->lookup(f);
      std::string symbol = fn ? functionAttrs(fn).getString(fn_attr::kGlobalSymbol, f) : f;
      if (symbol.empty()) symbol = f;
      std::string text = cut(whole, symbol);
      if (auto shared = a.sharedKernels.find(f); text.empty() && shared != a.sharedKernels.end()) {
        Expr original = mod->lookup(shared->second);
        std::string originalSymbol = original ? functionAttrs(original).getString(fn_attr::kGlobalSymbol, shared->second) : shared->second;
        if (originalSymbol.empty()) originalSymbol = shared->second;
        std::string code = cut(whole, originalSymbol);
        if (!code.empty())
          text = (name == "asm" ? "# @" : "; @") + f + " is structurally equal to @" + shared->second + ": its symbol " + symbol +
                 " is an alias of this code\n" + code;
      }
      if (!text.empty()) stage.artifacts.push_back({f, std::move(text)});
    }
    out.stages.push_back(std::move(stage));
  };
  perFunction("llvm", a.llvmIR, llvmFunctionText);
  perFunction("llvm-opt", a.llvmIROptimized, llvmFunctionText);
  if (!a.assembly.empty()) perFunction("asm", a.assembly, asmFunctionText);
  if (!a.object.empty()) {
    std::string kind(a.target.kindName());
    out.stages.push_back({"object", {{"", kind + ".o: " + std::to_string(a.object.size()) + " bytes, relocatable object for " +
                                              (a.target.triple.empty() ? std::string("the host") : a.target.triple) + "\n"}}});
  }
  if (!a.externC.empty()) {
    CodegenStage stage;
    stage.name = "c";
    std::string all;
    for (const auto& [name, c] : a.externC) all += c;
    stage.artifacts.push_back({"", std::move(all)});
    for (const auto& [name, c] : a.externC) stage.artifacts.push_back({name, c});
    out.stages.push_back(std::move(stage));
  }
  if (request.run) {
    // A failed run is the stage's content, not a failed build: the code above it is still worth reading.
    const bool hexagon = a.target.kind == codegen::TargetKind::Hexagon;
    RunReference reference;
    reference.cancelled = hooks.cancelled;
    RunReport report = runAndCompare(mod, request.entry, hexagon, request.seed, &a, nullptr, &reference, hexagon ? "" : request.target);
    if (hooks.cancelled && hooks.cancelled())
      throw WorkbenchError("build interrupted (Ctrl-C) while running the compiled entry (--run); nothing was recorded");
    out.stages.push_back({"run", {{"", report.error.empty() ? report.text : "error: " + report.error + "\n"}}});
  }
  if (request.profile) {
    TimingRequest timing{request.repeat, true, request.kernelSchedules};
    RunReport report = runAndCompare(mod, request.entry, false, request.seed, nullptr, &timing, nullptr, request.target);
    CodegenStage stage;
    stage.name = "profile";
    if (!report.timing) {
      stage.artifacts.push_back({"", "error: " + (report.error.empty() ? std::string("the entry did not run") : report.error) + "\n"});
    } else {
      stage.artifacts.push_back({"", "profiled @" + request.entry + " on the host (JIT), inputs of seed " + std::to_string(request.seed) +
                                         (report.ok ? "" : "; its outputs do NOT match the interpreter") + "\n" + formatTiming(*report.timing)});
      for (const KernelProfile& k : report.timing->kernels) stage.artifacts.push_back({k.function, kernelLine(k, report.timing->kernelMs)});
    }
    out.stages.push_back(std::move(stage));
  }
  last_ = std::move(a);
  return out;
}

LlvmCodegenBackend& ensureCodegenBackend(Workbench& wb) {
  auto mine = std::dynamic_pointer_cast<LlvmCodegenBackend>(wb.codegenBackend());
  if (!mine) {
    mine = std::make_shared<LlvmCodegenBackend>();
    wb.setCodegenBackend(mine);
  }
  return *mine;
}

}  // namespace passlab
