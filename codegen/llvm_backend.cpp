// LLVM back end: target machines, the O3 pipeline, assembly and objects, and
// the host JIT (ORC LLJIT). Everything that needs LLVM headers beyond IR
// emission lives here, so only two files of the project pay for them.
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/SplitModule.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "codegen/codegen.h"
#include "codegen/codegen_internal.h"
#include "codegen/llvm_emit.h"
#include "codegen/tir_scan.h"

extern "C" {
void LLVMInitializeHexagonTargetInfo();
void LLVMInitializeHexagonTarget();
void LLVMInitializeHexagonTargetMC();
void LLVMInitializeHexagonAsmPrinter();
}

namespace passlab::codegen {

namespace {

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

std::unique_ptr<llvm::TargetMachine> makeTargetMachine(const Target& target) {
  initializeLLVM();
  std::string triple = target.kind == TargetKind::Host ? llvm::sys::getProcessTriple() : target.triple;
  std::string cpu = target.cpu, features = target.features;
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
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!t) throw CodegenError("LLVM has no target for " + triple + ": " + error);
  llvm::TargetOptions options;
  auto rm = target.kind == TargetKind::Host ? llvm::Optional<llvm::Reloc::Model>(llvm::Reloc::PIC_) : llvm::Optional<llvm::Reloc::Model>(llvm::Reloc::Static);
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(triple, cpu, features, options, rm, llvm::None, llvm::CodeGenOpt::Aggressive));
  if (!tm) throw CodegenError("cannot create an LLVM target machine for " + triple);
  return tm;
}

void optimize(llvm::Module& m, llvm::TargetMachine& tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder pb(&tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(m, mam);
}

/// Code generation of `m` itself (it rewrites the IR it runs on).
std::string emitFileConsuming(llvm::Module& m, llvm::TargetMachine& tm, llvm::CodeGenFileType type) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, type)) throw CodegenError("LLVM cannot emit this file type for " + tm.getTargetTriple().str());
  pm.run(m);
  return std::string(buffer.begin(), buffer.end());
}

std::string emitFile(const llvm::Module& source, llvm::TargetMachine& tm, llvm::CodeGenFileType type) {
  std::unique_ptr<llvm::Module> m = llvm::CloneModule(source);
  return emitFileConsuming(*m, tm, type);
}

/// Where the warnings and remarks of every LLVM context of one build go
/// (shared: a JIT compiles after the build returns, workers on other threads).
struct DiagnosticSink {
  std::mutex mutex;
  std::vector<std::string> messages;
};

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

void collectDiagnostics(llvm::LLVMContext& ctx, const std::shared_ptr<DiagnosticSink>& sink) {
  ctx.setDiagnosticHandler(std::make_unique<DiagnosticCollector>(sink));
}

std::vector<std::string> diagnosticsOf(DiagnosticSink& sink) {
  std::lock_guard<std::mutex> lock(sink.mutex);
  return sink.messages;
}

/// Optimizes and compiles a host module to objects on every hardware thread.
/// The optimization pipeline and the code generator work one function at a
/// time, so the module is split into partitions (llvm::SplitModule keeps each
/// local global with its users; kernels call each other by external symbol)
/// and each partition is moved through bitcode into a context of its own,
/// since a context belongs to one thread. More partitions than threads, taken
/// from a shared counter, balance kernels of very different sizes.
std::vector<std::unique_ptr<llvm::MemoryBuffer>> optimizeAndCompileInParallel(llvm::Module& m, const Target& target, unsigned threads,
                                                                             const std::shared_ptr<DiagnosticSink>& sink) {
  std::vector<llvm::SmallVector<char, 0>> bitcode;
  llvm::SplitModule(m, threads * 4, [&](std::unique_ptr<llvm::Module> part) {
    for (const llvm::Function& f : *part)
      if (!f.isDeclaration()) {
        llvm::SmallVector<char, 0> buffer;
        llvm::raw_svector_ostream os(buffer);
        llvm::WriteBitcodeToFile(*part, os);
        bitcode.push_back(std::move(buffer));
        return;
      }
  }, /*PreserveLocals=*/true);
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects(bitcode.size());
  std::vector<std::string> errors(bitcode.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < bitcode.size(); i = next++) {
      try {
        llvm::LLVMContext ctx;
        collectDiagnostics(ctx, sink);
        llvm::MemoryBufferRef ref(llvm::StringRef(bitcode[i].data(), bitcode[i].size()), "partition");
        llvm::Expected<std::unique_ptr<llvm::Module>> part = llvm::parseBitcodeFile(ref, ctx);
        if (!part) {
          errors[i] = errorText(part.takeError());
          continue;
        }
        std::unique_ptr<llvm::TargetMachine> tm = makeTargetMachine(target);
        optimize(**part, *tm);
        objects[i] = llvm::MemoryBuffer::getMemBufferCopy(emitFileConsuming(**part, *tm, llvm::CGFT_ObjectFile),
                                                          "passlab-partition-" + std::to_string(i) + ".o");
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  for (const std::string& e : errors)
    if (!e.empty()) throw CodegenError("parallel compilation: " + e);
  return objects;
}

/// Which functions of an assembly listing use HVX vector registers (v0..v31, w pairs, q predicates in vector ops).
std::vector<std::string> hvxFunctionsOf(const std::string& assembly, const std::vector<std::pair<std::string, std::string>>& symbols) {
  std::set<std::string> found;
  std::string current;
  size_t pos = 0;
  while (pos < assembly.size()) {
    size_t end = assembly.find('\n', pos);
    if (end == std::string::npos) end = assembly.size();
    std::string_view line(assembly.data() + pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == ':' && line.front() != '.' && line.front() != '\t' && line.front() != ' ') {
      current = std::string(line.substr(0, line.size() - 1));
      continue;
    }
    if (line.empty() || (line.front() != '\t' && line.front() != ' ')) continue;
    for (size_t i = 0; i + 1 < line.size(); ++i) {
      char c = line[i];
      bool startsWord = i == 0 || !(std::isalnum(static_cast<unsigned char>(line[i - 1])) || line[i - 1] == '_' || line[i - 1] == '.');
      if (startsWord && (c == 'v' || c == 'w') && std::isdigit(static_cast<unsigned char>(line[i + 1]))) {
        size_t j = i + 1;
        while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j]))) ++j;
        bool endsWord = j == line.size() || !(std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '_');
        if (endsWord && !current.empty()) found.insert(current);
        break;
      }
    }
  }
  std::vector<std::string> out;
  for (const auto& [name, symbol] : symbols)
    if (found.count(symbol) || found.count(packedSymbol(symbol))) out.push_back(name);
  return out;
}

/// Whether a PrimFunc belongs to a build for `kind`: by its own target, else the module's.
bool belongsTo(const IRModule& mod, const Expr& fn, TargetKind kind) {
  std::string text = functionAttrs(fn).getString(fn_attr::kTarget, "");
  if (text.empty()) {
    const AttrValue* mt = mod->attrs.find(module_attr::kTarget);
    if (mt && mt->kind() == AttrValue::Kind::String) text = mt->asString();
  }
  if (text.empty()) return true;
  try {
    return Target::parse(text).kind == kind;
  } catch (const CodegenError&) {
    return false;
  }
}

struct Compiled {
  Artifacts artifacts;
  std::shared_ptr<DiagnosticSink> diagnostics = std::make_shared<DiagnosticSink>();
  // The context must outlive the module: members are destroyed in reverse order.
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> optimized;
  /// Host objects compiled in parallel (then `optimized` is null).
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  /// The entry's constants, when the code refers to them by address
  /// (EmitRequest::constantsByAddress): the JIT binds their symbols to these.
  std::vector<NDArray> constants;
};

/// Compiles for `target`. `forJit`: the result only runs in the host JIT, so
/// when no text is kept the module is optimized and compiled to objects in
/// parallel (Compiled::objects) instead of handed to the JIT as IR.
Compiled compileModule(const IRModule& mod, const Target& target, const BuildOptions& options,
                       std::vector<std::string> only = {}, bool forJit = false) {
  Compiled out;
  Artifacts& a = out.artifacts;
  a.target = target;
  std::unique_ptr<EntryPlan> plan;
  if (only.empty()) {
    const FunctionNode* entry = options.entry.empty() ? nullptr : mod->lookupFunction(options.entry);
    if (entry && entry->attrs.getString(fn_attr::kCompiler).empty()) {
      plan = std::make_unique<EntryPlan>(planEntry(mod, options.entry));
      a.entry = options.entry;
      for (int i = 0; i < plan->inputCount; ++i) a.entryInputs.push_back(plan->slots[static_cast<size_t>(i)].sig);
      for (int s : plan->outputs) a.entryOutputs.push_back(plan->slots[static_cast<size_t>(s)].sig);
    }
    for (const auto& [name, fn] : mod->functions)
      if (fn->kind == ExprKind::PrimFunc && belongsTo(mod, fn, target.kind)) a.functions.push_back(name);
    if (plan)  // the entry's callees are needed whatever their target says
      for (const PlanStep& s : plan->steps)
        if (!s.external && std::find(a.functions.begin(), a.functions.end(), s.callee) == a.functions.end()) a.functions.push_back(s.callee);
    if (target.kind == TargetKind::Host) {
      // Host code that calls a device function (seed 004's launch) runs it on
      // the host too: the JIT has no device to offload to. Hexagon builds keep
      // such a call external, and the link names it.
      for (size_t i = 0; i < a.functions.size(); ++i) {
        std::vector<std::string> callees;
        collectGlobalCalls(static_cast<const PrimFuncNode&>(*mod->lookup(a.functions[i])).body, callees);
        for (const std::string& c : callees) {
          Expr callee = mod->lookup(c);
          if (callee && callee->kind == ExprKind::PrimFunc && std::find(a.functions.begin(), a.functions.end(), c) == a.functions.end())
            a.functions.push_back(c);
        }
      }
    }
    for (const auto& [name, fn] : mod->functions)
      if (const auto* f = as<FunctionNode>(fn); f && f->attrs.getString(fn_attr::kCompiler) == "ccompiler") a.externC[name] = emitC(mod, name);
  } else {
    a.functions = std::move(only);
  }
  if (plan)
    for (const PlanStep& s : plan->steps) a.entryCalls.push_back(s.callee);
  out.context = std::make_unique<llvm::LLVMContext>();
  collectDiagnostics(*out.context, out.diagnostics);
  auto t0 = std::chrono::steady_clock::now();
  if (options.dedupKernels) {
    // Kernels other PrimFuncs call keep their own code: their callers declare them by symbol.
    std::vector<std::string> called, candidates;
    for (const std::string& f : a.functions) collectGlobalCalls(static_cast<const PrimFuncNode&>(*mod->lookup(f)).body, called);
    for (const std::string& f : a.functions)
      if (std::find(called.begin(), called.end(), f) == called.end()) candidates.push_back(f);
    a.sharedKernels = structurallyEqualKernels(mod, candidates);
  }
  EmitRequest request{mod, a.functions, plan.get(), options.allowContract, target.kind == TargetKind::Host,
                      target.kind == TargetKind::Host, options.profile && target.kind == TargetKind::Host, a.sharedKernels};
  if (forJit && plan) {
    request.constantsByAddress = true;
    out.constants = plan->constants;
  }
  std::unique_ptr<llvm::Module> m = emitModule(*out.context, request);
  std::unique_ptr<llvm::TargetMachine> tm = makeTargetMachine(target);
  m->setDataLayout(tm->createDataLayout());
  m->setTargetTriple(tm->getTargetTriple().str());
  if (options.keepText) a.llvmIR = toString(*m);
  a.emitMs = msSince(t0);
  t0 = std::chrono::steady_clock::now();
  unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  if (forJit && target.kind == TargetKind::Host && !options.keepText && !options.emitAssembly && threads > 1) {
    out.objects = optimizeAndCompileInParallel(*m, target, threads, out.diagnostics);
    a.compileThreads = static_cast<int>(threads);
    a.optimizeMs = msSince(t0);
    a.llvmDiagnostics = diagnosticsOf(*out.diagnostics);
    return out;
  }
  optimize(*m, *tm);
  if (options.keepText) a.llvmIROptimized = toString(*m);
  a.optimizeMs = msSince(t0);
  t0 = std::chrono::steady_clock::now();
  if (options.emitAssembly || target.kind == TargetKind::Hexagon) a.assembly = emitFile(*m, *tm, llvm::CGFT_AssemblyFile);
  if (target.kind == TargetKind::Hexagon) {
    std::string obj = emitFile(*m, *tm, llvm::CGFT_ObjectFile);
    a.object.assign(obj.begin(), obj.end());
    std::vector<std::pair<std::string, std::string>> symbols;
    for (const std::string& f : a.functions) {
      auto shared = a.sharedKernels.find(f);
      symbols.emplace_back(f, symbolOf(mod, shared == a.sharedKernels.end() ? f : shared->second));
    }
    a.hvxFunctions = hvxFunctionsOf(a.assembly, symbols);
  }
  a.objectMs = msSince(t0);
  a.llvmDiagnostics = diagnosticsOf(*out.diagnostics);
  out.optimized = std::move(m);
  return out;
}

// ---- host JIT ----------------------------------------------------------------

// LLVM 14 lowers half conversions to these libcalls (i16 in an integer
// register). GCC 12's libgcc has the __extend/__trunc names with a different
// (SSE) ABI, so the JIT resolves them to ours.
extern "C" float passlab_h2f(uint16_t h) { return Half::toFloatBits(h); }
extern "C" uint16_t passlab_f2h(float f) { return Half::fromFloat(f); }
extern "C" uint16_t passlab_d2h(double d) { return Half::fromDouble(d); }
// The clock of profiled entries (BuildOptions::profile).
extern "C" int64_t passlab_profile_now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class JitModule final : public HostModule {
 public:
  JitModule(const IRModule& mod, const BuildOptions& options) : mod_(mod) {
    initializeLLVM();
    Compiled c = compileModule(mod, Target::host(), options, {}, /*forJit=*/true);
    artifacts_ = std::move(c.artifacts);
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) throw CodegenError("cannot detect the host for the JIT: " + errorText(jtmb.takeError()));
    jtmb->setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
    if (!jit) throw CodegenError("cannot create the JIT: " + errorText(jit.takeError()));
    jit_ = std::move(*jit);
    llvm::orc::JITDylib& lib = jit_->getMainJITDylib();
    auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(jit_->getDataLayout().getGlobalPrefix());
    if (!gen) throw CodegenError("JIT: " + errorText(gen.takeError()));
    lib.addGenerator(std::move(*gen));
    llvm::orc::SymbolMap halfs;
    auto def = [&](const char* name, void* fn) {
      halfs[jit_->mangleAndIntern(name)] = llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(fn), llvm::JITSymbolFlags::Exported);
    };
    def("__extendhfsf2", reinterpret_cast<void*>(&passlab_h2f));
    def("__gnu_h2f_ieee", reinterpret_cast<void*>(&passlab_h2f));
    def("__truncsfhf2", reinterpret_cast<void*>(&passlab_f2h));
    def("__gnu_f2h_ieee", reinterpret_cast<void*>(&passlab_f2h));
    def("__truncdfhf2", reinterpret_cast<void*>(&passlab_d2h));
    def(kProfileClockSymbol, reinterpret_cast<void*>(&passlab_profile_now));
    // The code reads the entry's constants where the module keeps them.
    constants_ = std::move(c.constants);
    static uint8_t noBytes = 0;  // an empty array has no storage, its symbol still needs an address
    for (size_t i = 0; i < constants_.size(); ++i) {
      const uint8_t* bytes = constants_[i].rawData();
      def(constantSymbol(static_cast<int>(i)).c_str(), const_cast<uint8_t*>(bytes ? bytes : &noBytes));
    }
    if (auto err = lib.define(llvm::orc::absoluteSymbols(halfs))) throw CodegenError("JIT: " + errorText(std::move(err)));
    for (const auto& [name, source] : artifacts_.externC) {
      std::vector<uint8_t> obj = compileC(source, TargetKind::Host, name);
      auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(reinterpret_cast<const char*>(obj.data()), obj.size()), name + ".o");
      if (auto err = jit_->addObjectFile(std::move(buffer))) throw CodegenError("JIT: " + errorText(std::move(err)));
    }
    for (std::unique_ptr<llvm::MemoryBuffer>& object : c.objects)
      if (auto err = jit_->addObjectFile(std::move(object))) throw CodegenError("JIT: " + errorText(std::move(err)));
    if (c.optimized) {
      c.optimized->setDataLayout(jit_->getDataLayout());
      if (auto err = jit_->addIRModule(llvm::orc::ThreadSafeModule(std::move(c.optimized), std::move(c.context))))
        throw CodegenError("JIT: " + errorText(std::move(err)));
    }
    // Compile (or link) now rather than at the first call: the build's times
    // then include machine code, and a failure surfaces here.
    auto t0 = std::chrono::steady_clock::now();
    if (!artifacts_.entry.empty()) lookup(kEntrySymbol);
    for (const std::string& f : artifacts_.functions) {
      auto shared = artifacts_.sharedKernels.find(f);
      lookup(packedSymbol(symbolOf(mod, shared == artifacts_.sharedKernels.end() ? f : shared->second)));
    }
    artifacts_.objectMs += msSince(t0);
    artifacts_.llvmDiagnostics = diagnosticsOf(*c.diagnostics);
    if (options.profile && !artifacts_.entry.empty()) {
      auto sym = jit_->lookup(kProfileTicksSymbol);
      if (!sym) throw CodegenError("JIT: " + errorText(sym.takeError()));
      ticks_ = reinterpret_cast<const int64_t*>(sym->getAddress());
    }
  }

  void callPrimFunc(const std::string& name, std::span<const NDArray> args) override {
    Expr e = mod_->lookup(name);
    if (!e || e->kind != ExprKind::PrimFunc) throw CodegenError("no PrimFunc @" + name + " in the module");
    const auto& fn = static_cast<const PrimFuncNode&>(*e);
    if (args.size() != fn.params.size())
      throw CodegenError("@" + name + " takes " + std::to_string(fn.params.size()) + " arguments, got " + std::to_string(args.size()));
    std::vector<void*> ptrs;
    std::vector<NDArray> scalars;
    for (size_t i = 0; i < args.size(); ++i) {
      const tir::Param& p = fn.params[i];
      if (p.buffer) {
        int64_t n = 1;
        for (int64_t d : p.buffer->shape) n *= d;
        if (args[i].dtype() != p.buffer->dtype || args[i].numElements() != n)
          throw CodegenError("@" + name + ": buffer " + p.buffer->name + " expects " + std::to_string(n) + " elements of " +
                             std::string(p.buffer->dtype.name()) + ", got " + std::to_string(args[i].numElements()) + " of " +
                             std::string(args[i].dtype().name()));
        ptrs.push_back(const_cast<NDArray&>(args[i]).mutableData());
      } else {
        NDArray s(p.var->dtype, {});
        s.setFromDouble(0, args[i].getAsDouble(0));
        scalars.push_back(s);
        ptrs.push_back(scalars.back().mutableData());
      }
    }
    lookup(packedSymbol(symbolOf(mod_, name)))(ptrs.data());
  }

  std::vector<NDArray> runEntry(const std::vector<NDArray>& inputs) override {
    if (artifacts_.entry.empty()) throw CodegenError("the module has no entry function to run");
    if (inputs.size() != artifacts_.entryInputs.size())
      throw CodegenError("@" + artifacts_.entry + " takes " + std::to_string(artifacts_.entryInputs.size()) + " inputs, got " +
                         std::to_string(inputs.size()));
    std::vector<void*> ptrs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const TensorSig& s = artifacts_.entryInputs[i];
      if (inputs[i].dtype() != s.dtype || inputs[i].shape() != s.shape)
        throw CodegenError("input " + std::to_string(i) + " of @" + artifacts_.entry + " has the wrong shape or dtype");
      ptrs.push_back(const_cast<NDArray&>(inputs[i]).mutableData());
    }
    std::vector<NDArray> outs;
    for (const TensorSig& s : artifacts_.entryOutputs) outs.emplace_back(s.dtype, s.shape);
    for (NDArray& o : outs) ptrs.push_back(o.mutableData());
    lookup(kEntrySymbol)(ptrs.data());
    return outs;
  }

  const Artifacts& artifacts() const override { return artifacts_; }

  std::vector<int64_t> lastProfile() const override {
    std::vector<int64_t> out;
    if (!ticks_) return out;
    for (size_t i = 0; i < artifacts_.entryCalls.size(); ++i) out.push_back(ticks_[i + 1] - ticks_[i]);
    return out;
  }

 private:
  using Packed = void (*)(void**);
  Packed lookup(const std::string& symbol) {
    auto it = cache_.find(symbol);
    if (it != cache_.end()) return it->second;
    auto sym = jit_->lookup(symbol);
    if (!sym) throw CodegenError("JIT: " + errorText(sym.takeError()));
    Packed fn = reinterpret_cast<Packed>(sym->getAddress());
    cache_[symbol] = fn;
    return fn;
  }

  IRModule mod_;
  Artifacts artifacts_;
  /// Storage the compiled entry reads its constants from (shared with the module's arrays).
  std::vector<NDArray> constants_;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::map<std::string, Packed> cache_;
  /// The profiled entry's timestamps (null when not profiled).
  const int64_t* ticks_ = nullptr;
};

}  // namespace

Artifacts build(const IRModule& mod, const Target& target, const BuildOptions& options) {
  return compileModule(mod, target, options).artifacts;
}

Artifacts buildFunctions(const IRModule& mod, const Target& target, const BuildOptions& options, std::vector<std::string> only) {
  return compileModule(mod, target, options, std::move(only)).artifacts;
}

std::unique_ptr<HostModule> HostModule::compile(const IRModule& mod, const BuildOptions& options) {
  return std::make_unique<JitModule>(mod, options);
}

}  // namespace passlab::codegen
