// LLVM back end: builds for a target (one module, or host code compiled unit
// by unit in parallel for the JIT), the host JIT (ORC LLJIT), and the HVX
// scan of Hexagon assembly. The shared LLVM machinery is llvm_machine.cpp.
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Target/TargetMachine.h>

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/ir/limits.h"
#include "codegen/codegen.h"
#include "core/ir/tir_lower_blocks.h"
#include "codegen/codegen_internal.h"
#include "codegen/llvm_emit.h"
#include "codegen/llvm_machine.h"
#include "codegen/llvm_parallel.h"
#include "codegen/shared_bodies.h"
#include "codegen/tir_scan.h"

namespace passlab::codegen {

namespace {

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

/// Why each PrimFunc without HVX code has none. LLVM 14's Hexagon loop
/// vectorizer treats only integer element types as HVX-legal (float HVX came
/// with v68's IEEE/qfloat extensions, which its cost model does not use), so
/// a kernel touching a float buffer stays scalar whatever its schedule.
std::map<std::string, std::string> scalarReasonsOf(const IRModule& mod, const std::vector<std::string>& functions,
                                                   const std::vector<std::string>& hvx) {
  std::map<std::string, std::string> out;
  for (const std::string& name : functions) {
    if (std::find(hvx.begin(), hvx.end(), name) != hvx.end()) continue;
    Expr e = mod->lookup(name);
    bool floats = false;
    if (e && e->kind == ExprKind::PrimFunc)
      for (const tir::Param& p : static_cast<const PrimFuncNode&>(*e).params)
        floats = floats || (p.buffer ? p.buffer->dtype : p.var->dtype).isFloat();
    out[name] = floats ? "float loops: LLVM 14 vectorizes only integer loops into HVX"
                       : "integer loops LLVM 14 did not vectorize (too short, or not a simple loop)";
  }
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
  /// Storage the code refers to by address (EmitRequest::storageByAddress):
  /// symbol and bytes, for the JIT to bind.
  std::vector<std::pair<std::string, uint64_t>> storage;
};

/// Zeroed memory for the storage of a JIT build (EmitRequest::storageByAddress),
/// mapped at once and touched only when the code writes it.
class MappedStorage {
 public:
  /// Maps room for every item of `storage`, each 64-byte aligned.
  explicit MappedStorage(const std::vector<std::pair<std::string, uint64_t>>& storage) {
    for (const auto& item : storage) {
      offsets_.push_back(bytes_);
      bytes_ += (item.second + 63) / 64 * 64;
    }
    if (bytes_ == 0) return;
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw CodegenError("cannot map " + std::to_string(bytes_) + " bytes for the code's storage: " + std::strerror(errno));
    base_ = static_cast<uint8_t*>(p);
  }
  ~MappedStorage() {
    if (base_) munmap(base_, bytes_);
  }
  MappedStorage(const MappedStorage&) = delete;
  MappedStorage& operator=(const MappedStorage&) = delete;
  /// The address of item `i` of the storage it was made for.
  void* at(size_t i) const { return base_ + offsets_[i]; }

 private:
  std::vector<uint64_t> offsets_;
  uint64_t bytes_ = 0;
  uint8_t* base_ = nullptr;
};

/// Compiles for `target`. `forJit`: the result only runs in the host JIT, so
/// when no text is kept the module is optimized and compiled to objects in
/// parallel (Compiled::objects) instead of handed to the JIT as IR.
Compiled compileModule(const IRModule& input, const Target& target, const BuildOptions& options,
                       std::vector<std::string> only = {}, bool forJit = false) {
  // Blocks (TVMScript) become plain loop nests before anything scans or emits TIR.
  const IRModule mod = tir::lowerBlocks(input);
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
  request.storageByAddress = forJit;
  request.parallel = forJit && target.kind == TargetKind::Host && threadCount() > 1;
  request.parallelLoops = &a.parallelLoops;
  // Kernels that share another's code are not emitted.
  StageWatch emitting(options, "emitting LLVM IR for", static_cast<int>(a.functions.size() - a.sharedKernels.size()));
  if (emitting.active()) request.watch = &emitting;
  std::unique_ptr<llvm::Module> m = emitModule(*out.context, request);
  emitting.throwIfCancelled();
  // The later stages see LLVM symbols; the faces show the module's names.
  std::map<std::string, std::string> nameOfSymbol{{kEntrySymbol, "(entry)"}};
  for (const std::string& f : a.functions) {
    nameOfSymbol[symbolOf(mod, f)] = f;
    nameOfSymbol[packedSymbol(symbolOf(mod, f))] = f + " (packed wrapper)";
  }
  auto nameOf = [&nameOfSymbol](const std::string& symbol) {
    auto known = nameOfSymbol.find(symbol);
    return known == nameOfSymbol.end() ? symbol : known->second;
  };
  int defined = 0;
  for (const llvm::Function& f : *m) defined += !f.isDeclaration();
  std::unique_ptr<llvm::TargetMachine> tm = makeTargetMachine(target);
  a.vectorUnit = vectorUnitOf(*tm);
  m->setDataLayout(tm->createDataLayout());
  m->setTargetTriple(tm->getTargetTriple().str());
  if (request.storageByAddress) out.storage = storageOf(*m);
  if (options.keepText) a.llvmIR = toString(*m);
  a.emitMs = msSince(t0);
  t0 = std::chrono::steady_clock::now();
  unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  // PASSLAB_COMPILE_THREADS=N caps the compile threads (1: the caller's only,
  // so a compile's CPU time can be measured without the scheduler's noise).
  if (const char* cap = std::getenv("PASSLAB_COMPILE_THREADS"); cap && std::atoi(cap) > 0)
    threads = std::min(threads, static_cast<unsigned>(std::atoi(cap)));
  if (forJit && target.kind == TargetKind::Host && !options.keepText && !options.emitAssembly) {
    std::set<std::string> callers;
    auto sharedStart = std::chrono::steady_clock::now();
    if (options.shareKernelBodies) {
      std::vector<std::string> kernels;
      for (const std::string& f : a.functions)
        if (!a.sharedKernels.count(f)) kernels.push_back(symbolOf(mod, f));
      for (const SharedBody& body : shareKernelBodies(*m, kernels)) {
        std::vector<std::string> names;
        for (const std::string& symbol : body.kernels) names.push_back(nameOfSymbol[symbol]);
        callers.insert(body.kernels.begin(), body.kernels.end());
        a.kernelsSharingBodies.emplace_back(names, body.parameters);
        nameOfSymbol[body.body] = "(body of " + names.front() + ")";
      }
    }
    const double sharedBodiesMs = msSince(sharedStart);
    StageWatch compiling(options, "compiling", 0, nameOf);
    UnitObjects units = compileUnitsInParallel(*m, target, threads, options.reuseCompiledKernels, options.objectCacheDir, callers, out.diagnostics,
                                               compiling.active() ? &compiling : nullptr);
    out.objects = std::move(units.objects);
    a.unitsParseMs = units.parseMs;
    a.unitsOptimizeMs = units.optimizeMs;
    a.unitsMachineCodeMs = units.machineCodeMs;
    a.splitMs = units.splitMs + sharedBodiesMs;
    a.reusedUnits = units.reused;
    a.reusedUnitsFromDisk = units.reusedFromDisk;
    for (auto& [symbol, ms] : units.unitMs) {
      auto known = nameOfSymbol.find(symbol);
      if (known != nameOfSymbol.end()) a.unitCompileMs.emplace_back(known->second, ms);
      else if (symbol.rfind(kTogetherUnit, 0) == 0) a.unitCompileMs.emplace_back("(kernels calling shared bodies)", ms);
      else a.unitCompileMs.emplace_back(symbol, ms);
    }
    a.compileThreads = static_cast<int>(threads);
    a.optimizeMs = msSince(t0);
    a.llvmDiagnostics = diagnosticsOf(*out.diagnostics);
    return out;
  }
  StageWatch optimizing(options, "optimizing", defined, nameOf);
  optimize(*m, *tm, &optimizing);
  optimizing.throwIfCancelled();
  if (options.keepText) a.llvmIROptimized = toString(*m);
  a.optimizeMs = msSince(t0);
  t0 = std::chrono::steady_clock::now();
  if (options.emitAssembly || target.kind == TargetKind::Hexagon) {
    StageWatch assembling(options, "generating assembly for", defined, nameOf);
    a.assembly = emitFile(*m, *tm, llvm::CGFT_AssemblyFile, &assembling);
    assembling.throwIfCancelled();
  }
  if (target.kind == TargetKind::Hexagon) {
    StageWatch objecting(options, "generating the object code of", defined, nameOf);
    std::string obj = emitFile(*m, *tm, llvm::CGFT_ObjectFile, &objecting);
    objecting.throwIfCancelled();
    a.object.assign(obj.begin(), obj.end());
    std::vector<std::pair<std::string, std::string>> symbols;
    for (const std::string& f : a.functions) {
      auto shared = a.sharedKernels.find(f);
      symbols.emplace_back(f, symbolOf(mod, shared == a.sharedKernels.end() ? f : shared->second));
    }
    a.hvxFunctions = hvxFunctionsOf(a.assembly, symbols);
    a.scalarReasons = scalarReasonsOf(mod, a.functions, a.hvxFunctions);
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
// The thread pool's entry point for parallel loops (thread_pool.cpp).
extern "C" void passlab_parallel_for(void (*task)(void*, int64_t, int64_t), void* closure, int64_t begin, int64_t end);
// The clock of profiled entries (BuildOptions::profile).
extern "C" int64_t passlab_profile_now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Failed TIR asserts (kAssertFailSymbol): the first message of a call, kept
// until the host side of the call takes it. Parallel chunks may fail at once,
// hence the lock; the generated code returns after reporting.
std::mutex assertMutex;
std::optional<std::string> assertFailure;
extern "C" void passlab_assert_fail(const char* message) {
  std::lock_guard<std::mutex> lock(assertMutex);
  if (!assertFailure) assertFailure = message;
}
/// Clears the failure record (before a call).
void clearAssertFailure() {
  std::lock_guard<std::mutex> lock(assertMutex);
  assertFailure.reset();
}
/// Throws the failure a call recorded, if any (after the call).
void raiseAssertFailure() {
  std::lock_guard<std::mutex> lock(assertMutex);
  if (!assertFailure) return;
  std::string message = std::move(*assertFailure);
  assertFailure.reset();
  throw CodegenError(message);
}

/// With PASSLAB_PERF_JIT set, the JIT writes perf's jitdump for the code it
/// loads, so `perf record -k 1` + `perf inject --jit` name the kernels in a
/// profile instead of showing bare addresses (docs/codegen.md).
void announceToPerf(llvm::orc::LLJIT& jit) {
  const char* wanted = std::getenv("PASSLAB_PERF_JIT");
  if (!wanted || !*wanted) return;
  static llvm::JITEventListener* listener = llvm::JITEventListener::createPerfJITEventListener();
  auto* layer = llvm::dyn_cast<llvm::orc::RTDyldObjectLinkingLayer>(&jit.getObjLinkingLayer());
  if (listener && layer) layer->registerJITEventListener(*listener);
}

class JitModule final : public HostModule {
 public:
  JitModule(const IRModule& mod, const BuildOptions& options) : mod_(mod) {
    initializeLLVM();
    if (options.hostTarget.kind != TargetKind::Host) throw CodegenError("the JIT compiles for the host, not " + options.hostTarget.text);
    Compiled c = compileModule(mod, options.hostTarget, options, {}, /*forJit=*/true);
    artifacts_ = std::move(c.artifacts);
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) throw CodegenError("cannot detect the host for the JIT: " + errorText(jtmb.takeError()));
    // What the JIT compiles itself (the keepText path) follows the target's -mcpu / -mattr too.
    if (!options.hostTarget.cpu.empty()) jtmb->setCPU(options.hostTarget.cpu);
    for (llvm::StringRef rest = options.hostTarget.features; !rest.empty();) {
      auto [feature, tail] = rest.split(',');
      if (!feature.empty()) jtmb->getFeatures().AddFeature(feature);
      rest = tail;
    }
    jtmb->setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
    if (!jit) throw CodegenError("cannot create the JIT: " + errorText(jit.takeError()));
    jit_ = std::move(*jit);
    announceToPerf(*jit_);
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
    def(kParallelForSymbol, reinterpret_cast<void*>(&passlab_parallel_for));
    def(kAssertFailSymbol, reinterpret_cast<void*>(&passlab_assert_fail));
    // The code reads the entry's constants where the module keeps them.
    constants_ = std::move(c.constants);
    static uint8_t noBytes = 0;  // an empty array has no storage, its symbol still needs an address
    for (size_t i = 0; i < constants_.size(); ++i) {
      const uint8_t* bytes = constants_[i].rawData();
      def(constantSymbol(static_cast<int>(i)).c_str(), const_cast<uint8_t*>(bytes ? bytes : &noBytes));
    }
    storage_ = std::make_unique<MappedStorage>(c.storage);
    for (size_t i = 0; i < c.storage.size(); ++i) def(c.storage[i].first.c_str(), storage_->at(i));
    if (auto err = lib.define(llvm::orc::absoluteSymbols(halfs))) throw CodegenError("JIT: " + errorText(std::move(err)));
    for (const auto& [name, source] : artifacts_.externC) {
      std::vector<uint8_t> obj = compileC(source, Target::host(), name);
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
        std::optional<int64_t> count = limits::checkedElementCount(p.buffer->shape);
        if (!count) throw CodegenError("@" + name + ": buffer " + p.buffer->name + ": " + limits::tooManyElementsMessage(p.buffer->shape));
        int64_t n = *count;
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
    Packed kernel = lookup(packedSymbol(symbolOf(mod_, name)));
    clearAssertFailure();
    kernel(ptrs.data());
    raiseAssertFailure();
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
    Packed entry = lookup(kEntrySymbol);
    clearAssertFailure();
    entry(ptrs.data());
    raiseAssertFailure();
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
  /// The code's zero-initialized storage (EmitRequest::storageByAddress).
  std::unique_ptr<MappedStorage> storage_;
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
