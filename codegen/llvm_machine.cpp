// LLVM machinery shared by the back-end sources (see llvm_machine.h).
#include "codegen/llvm_machine.h"

#include "codegen/codegen_internal.h"

#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/OptBisect.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/SHA1.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>

extern "C" {
void LLVMInitializeHexagonTargetInfo();
void LLVMInitializeHexagonTarget();
void LLVMInitializeHexagonTargetMC();
void LLVMInitializeHexagonAsmPrinter();
}

namespace passlab::codegen {

namespace {

/// Keeps LLVM's warnings (a forced `vectorized` loop it could not vectorize)
/// out of stderr: the library never prints; the build lists them.
class DiagnosticCollector final : public llvm::DiagnosticHandler {
 public:
  explicit DiagnosticCollector(std::shared_ptr<DiagnosticSink> sink) : sink_(std::move(sink)) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo& info) override {
    if (info.getSeverity() == llvm::DS_Error) return false;  // errors keep LLVM's own handling
    // Remarks and notes (every SLP decision, instruction counts) are not
    // filtered before a handler sees them: only warnings are kept.
    if (info.getSeverity() != llvm::DS_Warning) return true;
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    os.flush();
    std::lock_guard<std::mutex> lock(sink_->mutex);
    sink_->messages.push_back(text);
    return true;
  }

 private:
  std::shared_ptr<DiagnosticSink> sink_;
};

}  // namespace

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void initializeLLVM() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    LLVMInitializeHexagonTargetInfo();
    LLVMInitializeHexagonTarget();
    LLVMInitializeHexagonTargetMC();
    LLVMInitializeHexagonAsmPrinter();
    // Auto-vectorization into HVX is off by default in LLVM 14's Hexagon back
    // end. Small-data (GP-relative) constants need relocations ld.lld-14 does
    // not implement, so none are placed there.
    const char* argv[] = {"passlab", "-hexagon-autohvx", "-hexagon-small-data-threshold=0"};
    llvm::cl::ParseCommandLineOptions(3, argv, "passlab\n");
  });
}

std::string toString(const llvm::Module& m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m.print(os, nullptr);
  return os.str();
}

std::string errorText(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return os.str();
}

std::optional<std::string> unknownCpuMessage(TargetKind kind, const std::string& cpu) {
  initializeLLVM();
  std::string triple = kind == TargetKind::Host ? llvm::sys::getProcessTriple() : Target::hexagon().triple;
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!t) return "LLVM has no target for " + triple + ": " + error;
  std::unique_ptr<llvm::MCSubtargetInfo> info(t->createMCSubtargetInfo(triple, "", ""));
  if (!info || info->isCPUStringValid(cpu)) return std::nullopt;
  if (kind == TargetKind::Hexagon) {
    // LLVM 14 cannot list its processors; these are its Hexagon ones.
    std::string known;
    for (const char* v : {"hexagonv5", "hexagonv55", "hexagonv60", "hexagonv62", "hexagonv65", "hexagonv66", "hexagonv67", "hexagonv67t",
                          "hexagonv68", "hexagonv69"})
      if (info->isCPUStringValid(v)) known += (known.empty() ? "" : ", ") + std::string(v);
    return "unknown -mcpu '" + cpu + "' for hexagon; known: " + known;
  }
  return "unknown -mcpu '" + cpu + "' for llvm: not a processor LLVM knows for " + triple + " (this machine is '" +
         llvm::sys::getHostCPUName().str() + "'; others are named like x86-64-v3, skylake, znver3)";
}

std::unique_ptr<llvm::TargetMachine> makeTargetMachine(const Target& target) {
  initializeLLVM();
  std::string triple = target.kind == TargetKind::Host ? llvm::sys::getProcessTriple() : target.triple;
  std::string cpu = target.cpu, features;
  if (target.kind == TargetKind::Host && cpu.empty()) {
    cpu = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> hostFeatures;
    if (llvm::sys::getHostCPUFeatures(hostFeatures)) {
      std::vector<std::string> list;
      for (auto& f : hostFeatures) list.push_back((f.second ? "+" : "-") + f.first().str());
      std::sort(list.begin(), list.end());
      for (const std::string& f : list) features += (features.empty() ? "" : ",") + f;
    }
  }
  // The target's -mattr last: LLVM applies features in order, so
  // `-mattr=-avx512f` turns the host's AVX-512 off (and what needs it).
  if (!target.features.empty()) features += (features.empty() ? "" : ",") + target.features;
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!t) throw CodegenError("LLVM has no target for " + triple + ": " + error);
  llvm::TargetOptions options;
  auto rm = target.kind == TargetKind::Host ? llvm::Optional<llvm::Reloc::Model>(llvm::Reloc::PIC_) : llvm::Optional<llvm::Reloc::Model>(llvm::Reloc::Static);
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(triple, cpu, features, options, rm, llvm::None, llvm::CodeGenOpt::Aggressive));
  if (!tm) throw CodegenError("cannot create an LLVM target machine for " + triple);
  return tm;
}

std::string vectorUnitOf(const llvm::TargetMachine& tm) {
  const llvm::MCSubtargetInfo* st = tm.getMCSubtargetInfo();
  std::string cpu = " (CPU " + tm.getTargetCPU().str() + ")";
  if (tm.getTargetTriple().getArch() == llvm::Triple::hexagon) return "hvx: 128-byte vectors, 32 registers" + cpu;
  if (!tm.getTargetTriple().isX86()) return "target vectors" + cpu;
  if (st->checkFeatures("+avx512f")) return "avx512: 16 float32 lanes, 32 zmm registers" + cpu;
  if (st->checkFeatures("+avx2")) return "avx2: 8 float32 lanes, 16 ymm registers" + cpu;
  return "sse: 4 float32 lanes, 16 xmm registers" + cpu;
}

bool usesVectorMathLibrary(const llvm::Triple& triple) {
  if (triple.getArch() != llvm::Triple::x86_64 || !triple.isOSLinux() || triple.getEnvironment() != llvm::Triple::GNU) return false;
  // Loaded once, with its symbols global: the JIT resolves the vector calls
  // in the process like any libc function.
  static const bool loaded = !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
  return loaded;
}

namespace {

/// One vector variant of a math function in glibc's libmvec, named by the
/// x86 vector function ABI: _ZGV<isa>N<lanes><args>_<scalar name>.
struct VectorVariant {
  std::string scalar, vector;
  unsigned lanes;
  char isa;  // b: SSE4, d: AVX2, e: AVX-512
};

/// Every variant this process's libmvec has, for the scalar names and the
/// LLVM intrinsics the emitter calls. LLVM 14's own LIBMVEC-X86 table stops at
/// AVX2 and leaves tanh and erf out, so a 16-lane exp or any tanh would be
/// scalar calls.
const std::vector<VectorVariant>& libmvecVariants() {
  static const std::vector<VectorVariant> variants = [] {
    struct Family {
      const char* name;
      const char* intrinsic;  // "not_intrinsic" when LLVM has none
      const char* args;
    };
    const Family families[] = {
#define PASSLAB_FLOAT_UNARY(name, reference, lowering, llvmId, oneInstruction, libmvec, libm) {#name, #llvmId, libmvec},
#define PASSLAB_FLOAT_BINARY(name, lowering, llvmId, oneInstruction, libmvec, libm) {#name, #llvmId, libmvec},
#include "core/ir/float_intrinsics.def"
    };
    std::vector<VectorVariant> out;
    for (const Family& f : families) {
      if (!*f.args) continue;  // glibc has no vector variant
      bool hasIntrinsic = std::string_view(f.intrinsic) != "not_intrinsic";
      for (bool single : {true, false})
        for (char isa : {'b', 'd', 'e'}) {
          unsigned lanes = (isa == 'b' ? 2u : isa == 'd' ? 4u : 8u) * (single ? 2u : 1u);
          std::string scalar = std::string(f.name) + (single ? "f" : "");
          std::string vector = "_ZGV" + std::string(1, isa) + "N" + std::to_string(lanes) + f.args + "_" + scalar;
          if (!llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(vector)) continue;  // an older glibc
          out.push_back({scalar, vector, lanes, isa});
          if (hasIntrinsic) out.push_back({"llvm." + std::string(f.intrinsic) + (single ? ".f32" : ".f64"), vector, lanes, isa});
        }
    }
    return out;
  }();
  return variants;
}

}  // namespace

/// LLVM 14's O3 function pipeline (buildFunctionSimplificationPipeline, then
/// buildModuleOptimizationPipeline's function part), in its order, without
/// the module and call-graph layers around it. A kernel never calls another
/// one and its packed wrapper must stay a call, so the inliner, the
/// interprocedural passes and the CGSCC walk that reruns the function passes
/// found nothing to do, yet cost about a quarter of the optimization time
/// (classifier cold compile 0.88 -> 0.67 s; latencies unchanged).
/// `inferattrs` first: it tells the vectorizer libm's functions only write
/// errno, which the vector variants' mappings need. One more `sroa` after the
/// late unroll: only then are a register tile's vector accesses at constant
/// offsets, and until then the accumulators were stored to the stack after
/// every tap (a depthwise 5x5 layer: 75 -> 63 us).
constexpr const char* kKernelPipeline =
    "inferattrs,function("
    // Simplification: scalars out of memory, redundancies, canonical loops.
    "simplifycfg,sroa,early-cse,instcombine,simplifycfg,reassociate,"
    "loop-mssa(loop-instsimplify,loop-simplifycfg,licm,loop-rotate,licm),simplifycfg,instcombine,"
    "loop(loop-idiom,indvars,loop-deletion,loop-unroll-full),"
    "sroa,gvn,sccp,bdce,instcombine,adce,memcpyopt,dse,loop-mssa(licm),simplifycfg,instcombine,"
    // Optimization: vectorization, unrolling, cleanup.
    "float2int,loop(loop-rotate,loop-deletion),inject-tli-mappings,loop-vectorize,loop-load-elim,instcombine,simplifycfg,"
    "slp-vectorizer,vector-combine,instcombine,loop-unroll<O3>,sroa,transform-warning,instcombine,loop-mssa(licm),"
    "alignment-from-assumptions,instsimplify,div-rem-pairs,simplifycfg)";

std::string machineSignature(const llvm::TargetMachine& tm) {
  // The pipeline shapes the code as much as the machine does.
  static const std::string pipeline = [] {
    auto digest = llvm::SHA1::hash(llvm::arrayRefFromStringRef(kKernelPipeline));
    return llvm::toHex(llvm::ArrayRef<uint8_t>(digest.data(), 8));
  }();
  return tm.getTargetTriple().str() + "|" + tm.getTargetCPU().str() + "|" + tm.getTargetFeatureString().str() + "|O" +
         std::to_string(static_cast<int>(tm.getOptLevel())) + (usesVectorMathLibrary(tm.getTargetTriple()) ? "|libmvec" : "") + "|" + pipeline;
}

StageWatch::StageWatch(const BuildOptions& options, std::string stage, int total,
                       std::function<std::string(const std::string&)> nameOf)
    : options_(options), stage_(std::move(stage)), total_(total), nameOf_(std::move(nameOf)) {}

void StageWatch::at(const std::string& symbol) {
  // Once cancelled, LLVM still passes over the rest (its required passes): that is not progress.
  if (std::this_thread::get_id() != owner_ || symbol == last_ || cancelled_.load(std::memory_order_relaxed)) return;
  last_ = symbol;
  const int done = ++done_;
  if (options_.progress) options_.progress(BuildProgress{stage_, nameOf_ ? nameOf_(symbol) : symbol, std::min(done, total_), total_});
}

void StageWatch::unitStarted(const std::string& symbol) {
  const int done = ++done_;
  if (std::this_thread::get_id() != owner_) return;
  last_ = symbol;
  if (options_.progress) options_.progress(BuildProgress{stage_, nameOf_ ? nameOf_(symbol) : symbol, std::min(done, total_), total_});
}

bool StageWatch::cancelled() {
  if (cancelled_.load(std::memory_order_relaxed)) return true;
  if (options_.cancelled && options_.cancelled()) cancelled_.store(true, std::memory_order_relaxed);
  return cancelled_.load(std::memory_order_relaxed);
}

void StageWatch::throwIfCancelled() {
  if (!cancelled()) return;
  std::string where = "cancelled while " + stage_;
  if (!last_.empty()) where += " @" + (nameOf_ ? nameOf_(last_) : last_);
  where += " (" + std::to_string(std::min(done_.load(), total_)) + " of " + std::to_string(total_) + " functions)";
  throw BuildCancelled(where);
}

namespace {

/// The first pass of the watched function pipeline: tells the watch which
/// function the passes after it work on. (The instrumentation callbacks get
/// the function in an llvm::Any, whose type ids this library, built with an
/// export map, does not share with libLLVM: any_isa would never match.)
struct WatchFunctionPass : llvm::PassInfoMixin<WatchFunctionPass> {
  StageWatch* watch;
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager&) {
    watch->at(f.getName().str());
    return llvm::PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

/// The legacy pass manager's hook for code generation: every optional pass
/// asks it before it runs on a function ("function (NAME)").
class WatchGate final : public llvm::OptPassGate {
 public:
  explicit WatchGate(StageWatch& watch) : watch_(watch) {}
  bool isEnabled() const override { return true; }
  bool shouldRunPass(const llvm::Pass*, llvm::StringRef description) override {
    if (description.consume_front("function (") && description.consume_back(")")) watch_.at(description.str());
    return !watch_.cancelled();
  }

 private:
  StageWatch& watch_;
};

}  // namespace

void optimize(llvm::Module& m, llvm::TargetMachine& tm, StageWatch* watch) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassInstrumentationCallbacks instrumentation;
  const bool watching = watch && watch->active();
  if (watching) instrumentation.registerShouldRunOptionalPassCallback([watch](llvm::StringRef, llvm::Any) { return !watch->cancelled(); });
  llvm::PassBuilder pb(&tm, tuning, llvm::None, &instrumentation);
  if (watching)
    pb.registerPipelineParsingCallback(
        [watch](llvm::StringRef name, llvm::FunctionPassManager& fpm, llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
          if (name != "passlab-watch") return false;
          fpm.addPass(WatchFunctionPass{{}, watch});
          return true;
        });
  llvm::TargetLibraryInfoImpl library(tm.getTargetTriple());
  if (usesVectorMathLibrary(tm.getTargetTriple())) {
    // What the subtarget has after every feature applied in order: a target's
    // `-mattr=-avx512f` follows the host's `+avx512f` in the feature string.
    const llvm::MCSubtargetInfo* st = tm.getMCSubtargetInfo();
    const bool avx2 = st->checkFeatures("+avx2"), avx512 = st->checkFeatures("+avx512f");
    std::vector<llvm::VecDesc> usable;
    for (const VectorVariant& v : libmvecVariants())
      if (v.isa == 'b' || (v.isa == 'd' && avx2) || (v.isa == 'e' && avx512))
        usable.push_back({v.scalar, v.vector, llvm::ElementCount::getFixed(v.lanes)});
    library.addVectorizableFunctions(usable);
  }
  // Registered before PassBuilder's defaults, which would otherwise provide
  // a library without vector variants.
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(library); });
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  std::string pipeline = kKernelPipeline;
  // The watch's pass first in each function's pipeline (the object cache's
  // key is kKernelPipeline: the marker changes no code).
  if (watching) pipeline.replace(pipeline.find("function("), 9, "function(passlab-watch,");
  if (llvm::Error error = pb.parsePassPipeline(mpm, pipeline)) throw CodegenError("LLVM rejects the kernel pipeline: " + errorText(std::move(error)));
  mpm.run(m, mam);
}

std::string emitFileConsuming(llvm::Module& m, llvm::TargetMachine& tm, llvm::CodeGenFileType type, StageWatch* watch) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, type)) throw CodegenError("LLVM cannot emit this file type for " + tm.getTargetTriple().str());
  if (watch && watch->active()) {
    // The gate belongs to this run only: the context's own (LLVM's
    // -opt-bisect-limit) comes back however the run ends.
    WatchGate gate(*watch);
    llvm::OptPassGate& previous = m.getContext().getOptPassGate();
    m.getContext().setOptPassGate(gate);
    struct Restore {
      llvm::LLVMContext& ctx;
      llvm::OptPassGate& gate;
      ~Restore() { ctx.setOptPassGate(gate); }
    } restore{m.getContext(), previous};
    pm.run(m);
  } else {
    pm.run(m);
  }
  return std::string(buffer.begin(), buffer.end());
}

std::string emitFile(const llvm::Module& source, llvm::TargetMachine& tm, llvm::CodeGenFileType type, StageWatch* watch) {
  std::unique_ptr<llvm::Module> m = llvm::CloneModule(source);
  return emitFileConsuming(*m, tm, type, watch);
}

void collectDiagnostics(llvm::LLVMContext& ctx, const std::shared_ptr<DiagnosticSink>& sink) {
  ctx.setDiagnosticHandler(std::make_unique<DiagnosticCollector>(sink));
}

std::vector<std::string> diagnosticsOf(DiagnosticSink& sink) {
  std::lock_guard<std::mutex> lock(sink.mutex);
  return sink.messages;
}

}  // namespace passlab::codegen
