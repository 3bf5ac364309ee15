// Unit-by-unit parallel host compilation and the process's object cache
// (see llvm_parallel.h).
#include "codegen/llvm_parallel.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA1.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <time.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <set>
#include <thread>
#include <unordered_map>

#include "codegen/llvm_emit.h"
#include "codegen/object_cache.h"

namespace passlab::codegen {

namespace {

/// CPU time of the calling thread, in ms.
double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

/// A unit: one group of definitions as a module of its own, in bitcode.
struct Unit {
  std::string name;
  llvm::SmallVector<char, 0> bitcode;
  std::string key;
  size_t instructions = 0;
};

/// The group a function definition belongs to: a packed wrapper goes with its kernel.
/// A parallel loop's outlined body and task (`SYM.par0`, `SYM.par0.task`) go with their kernel.
std::string groupOf(llvm::StringRef symbol) {
  const std::string prefix = packedSymbol("");
  if (size_t par = symbol.find(".par"); par != llvm::StringRef::npos) symbol = symbol.take_front(par);
  return symbol.startswith(prefix) ? symbol.drop_front(prefix.size()).str() : symbol.str();
}

/// The functions whose instructions use `v`, through constant expressions.
/// False when some other kind of user (a global's initializer) reads it.
bool functionsUsing(const llvm::Value* v, std::set<const llvm::Function*>& out) {
  bool onlyFunctions = true;
  for (const llvm::User* u : v->users()) {
    if (const auto* i = llvm::dyn_cast<llvm::Instruction>(u)) out.insert(i->getFunction());
    else if (llvm::isa<llvm::Constant>(u) && !llvm::isa<llvm::GlobalValue>(u)) onlyFunctions = functionsUsing(u, out) && onlyFunctions;
    else onlyFunctions = false;
  }
  return onlyFunctions;
}

/// Kernels (with their packed wrappers) per unit of kernels compiled together.
constexpr size_t kTogetherUnitKernels = 16;

/// Cuts `m` into units. Every definition gets a group; a local definition
/// some other group uses becomes a hidden external one, so the units link.
std::vector<Unit> splitIntoUnits(llvm::Module& m, const std::string& signature, const std::set<std::string>& together) {
  std::map<const llvm::GlobalValue*, std::string> group;
  std::vector<std::string> order;
  std::map<std::string, size_t> instructions;
  // The kernels to compile together go in units of a few, so that they
  // compile on every thread beside the large kernels; so do the packed
  // wrappers of kernels that are aliases of another's code (dedupKernels).
  std::map<std::string, std::string> togetherUnit;
  auto togetherGroup = [&](const std::string& g) -> const std::string& {
    auto [it, added] = togetherUnit.try_emplace(g);
    if (added) it->second = kTogetherUnit + std::to_string((togetherUnit.size() - 1) / kTogetherUnitKernels);
    return it->second;
  };
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    std::string g = groupOf(f.getName());
    if (together.count(g) || m.getNamedAlias(g)) g = togetherGroup(g);
    group[&f] = g;
    if (!instructions.count(g)) order.push_back(g);
    instructions[g] += f.getInstructionCount();
  }
  for (llvm::GlobalAlias& a : m.aliases())
    if (const auto* target = llvm::dyn_cast<llvm::Function>(a.getAliaseeObject())) group[&a] = group[target];
  auto localUsedElsewhere = [&](llvm::GlobalValue& gv, const std::string& home) {
    std::set<const llvm::Function*> users;
    bool onlyFunctions = functionsUsing(&gv, users);
    bool elsewhere = !onlyFunctions;
    for (const llvm::Function* f : users) elsewhere = elsewhere || group[f] != home;
    if (elsewhere && gv.hasLocalLinkage()) {
      gv.setLinkage(llvm::GlobalValue::ExternalLinkage);
      gv.setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
  };
  for (llvm::GlobalVariable& v : m.globals()) {
    if (v.isDeclaration()) continue;
    std::set<const llvm::Function*> users;
    functionsUsing(&v, users);
    // A variable lives with its first user (by module order); unused ones go with the first unit.
    std::string home = order.empty() ? "" : order.front();
    for (const llvm::Function& f : m)
      if (users.count(&f)) {
        home = group[&f];
        break;
      }
    group[&v] = home;
    localUsedElsewhere(v, home);
  }
  for (llvm::Function& f : m)
    if (!f.isDeclaration()) localUsedElsewhere(f, group[&f]);

  std::vector<Unit> units;
  for (const std::string& g : order) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> part = llvm::CloneModule(m, map, [&](const llvm::GlobalValue* gv) {
      auto it = group.find(gv);
      return it != group.end() && it->second == g;
    });
    // Declarations the unit does not use would make its bitcode (the cache
    // key) depend on the rest of the module.
    for (bool erased = true; erased;) {
      erased = false;
      for (llvm::Function& f : llvm::make_early_inc_range(*part))
        if (f.isDeclaration() && f.use_empty()) f.eraseFromParent(), erased = true;
      for (llvm::GlobalVariable& v : llvm::make_early_inc_range(part->globals()))
        if (v.isDeclaration() && v.use_empty()) v.eraseFromParent(), erased = true;
    }
    part->setModuleIdentifier("passlab-unit");
    part->setSourceFileName("");
    Unit u;
    u.name = g;
    u.instructions = instructions[g];
    llvm::raw_svector_ostream os(u.bitcode);
    llvm::WriteBitcodeToFile(*part, os);
    auto digest = llvm::SHA1::hash(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(u.bitcode.data()), u.bitcode.size()));
    u.key = signature + "|" + std::string(digest.begin(), digest.end());
    units.push_back(std::move(u));
  }
  return units;
}

}  // namespace

UnitObjects compileUnitsInParallel(llvm::Module& m, const Target& target, unsigned threads, bool reuse, const std::string& cacheDir,
                                   const std::set<std::string>& together, const std::shared_ptr<DiagnosticSink>& sink,
                                   StageWatch* watch) {
  std::string signature = machineSignature(*makeTargetMachine(target));
  // Functions that only pass their arguments on run once per kernel call: O3
  // finds nothing to do in them, yet cost the detector about 30 of its 750 ms.
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && (f.getName().startswith(packedSymbol("")) || together.count(f.getName().str()) || f.getName() == kEntrySymbol)) {
      f.addFnAttr(llvm::Attribute::NoInline);
      f.addFnAttr(llvm::Attribute::OptimizeNone);
    }
  auto splitStart = std::chrono::steady_clock::now();
  std::vector<Unit> units = splitIntoUnits(m, signature, together);
  const double splitMs = msSince(splitStart);
  // Largest first, so a big kernel does not start last and leave the other threads idle.
  std::vector<size_t> schedule(units.size());
  for (size_t i = 0; i < schedule.size(); ++i) schedule[i] = i;
  std::stable_sort(schedule.begin(), schedule.end(), [&](size_t a, size_t b) { return units[a].instructions > units[b].instructions; });
  if (watch) watch->setTotal(static_cast<int>(units.size()));
  std::vector<std::shared_ptr<const CompiledUnit>> compiled(units.size());
  std::vector<double> ms(units.size(), 0);
  std::vector<char> hit(units.size(), 0), fromDisk(units.size(), 0);
  std::vector<std::string> errors(units.size());
  // Per unit: thread CPU time of reading, optimizing, machine code.
  std::vector<std::array<double, 3>> phases(units.size(), {0, 0, 0});
  std::atomic<size_t> next{0};
  ObjectCache& cache = ObjectCache::process();
  const std::string dir = reuse ? cacheDir : "";
  auto worker = [&] {
    std::unique_ptr<llvm::TargetMachine> tm;
    for (size_t k = next++; k < schedule.size(); k = next++) {
      size_t i = schedule[k];
      if (watch && watch->cancelled()) break;
      if (watch) watch->unitStarted(units[i].name);
      bool disk = false;
      if (reuse && (compiled[i] = cache.find(units[i].key, dir, &disk))) {
        hit[i] = 1;
        fromDisk[i] = disk;
        continue;
      }
      auto t0 = std::chrono::steady_clock::now();
      try {
        llvm::LLVMContext ctx;
        auto unitSink = std::make_shared<DiagnosticSink>();
        collectDiagnostics(ctx, unitSink);
        llvm::MemoryBufferRef ref(llvm::StringRef(units[i].bitcode.data(), units[i].bitcode.size()), units[i].name);
        double c0 = threadCpuMs();
        llvm::Expected<std::unique_ptr<llvm::Module>> part = llvm::parseBitcodeFile(ref, ctx);
        if (!part) {
          errors[i] = errorText(part.takeError());
          continue;
        }
        if (!tm) tm = makeTargetMachine(target);
        double c1 = threadCpuMs();
        optimize(**part, *tm);
        double c2 = threadCpuMs();
        auto entry = std::make_shared<CompiledUnit>();
        entry->object = emitFileConsuming(**part, *tm, llvm::CGFT_ObjectFile);
        phases[i] = {c1 - c0, c2 - c1, threadCpuMs() - c2};
        entry->warnings = diagnosticsOf(*unitSink);
        compiled[i] = entry;
        if (reuse) cache.insert(units[i].key, entry, dir);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
      ms[i] = msSince(t0);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads && t < units.size(); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (watch) watch->throwIfCancelled();
  for (size_t i = 0; i < units.size(); ++i)
    if (!errors[i].empty()) throw CodegenError("compiling " + units[i].name + ": " + errors[i]);
  UnitObjects out;
  for (size_t i = 0; i < units.size(); ++i) {
    {
      std::lock_guard<std::mutex> lock(sink->mutex);
      sink->messages.insert(sink->messages.end(), compiled[i]->warnings.begin(), compiled[i]->warnings.end());
    }
    out.objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(compiled[i]->object, "passlab-" + units[i].name + ".o"));
    out.unitMs.emplace_back(units[i].name, ms[i]);
    out.reused += hit[i];
    out.reusedFromDisk += fromDisk[i];
    out.parseMs += phases[i][0];
    out.optimizeMs += phases[i][1];
    out.machineCodeMs += phases[i][2];
  }
  out.splitMs = splitMs;
  bool wrote = false;
  for (size_t i = 0; i < units.size(); ++i) wrote = wrote || !hit[i];
  if (wrote && !dir.empty()) ObjectCache::trimDirectory(dir, kObjectCacheDirectoryBytes);
  return out;
}

}  // namespace passlab::codegen
