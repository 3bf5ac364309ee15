// LegalizeOps: which vector unit the host schedules are shaped for, from the
// target's -mcpu / -mattr or, without them, this process's CPU. The code
// generator makes its LLVM target machine from the same text (codegen/
// llvm_machine.cpp), so the tiles chosen here are the registers the code gets.
// No LLVM here (passes/ stays free of it): the CPUs with AVX-512 are a table.
#include <algorithm>
#include <array>
#include <sstream>
#include <string_view>

#include "passes/legalize_lower.h"
#include "core/ir/module.h"
#include "core/pass/pass.h"
#include "core/support/strings.h"

namespace passlab::legalize {

namespace {

/// LLVM 14's -mcpu names of x86 processors with AVX-512 (and the later ones
/// a newer LLVM knows, so a target text written for one still reads right).
constexpr std::array<std::string_view, 18> kAvx512Cpus{
    "skylake-avx512", "cascadelake", "cooperlake",   "cannonlake", "icelake-client", "icelake-server",
    "tigerlake",      "rocketlake",  "sapphirerapids", "knl",      "knm",            "x86-64-v4",
    "znver4",         "znver5",      "graniterapids", "emeraldrapids", "diamondrapids", "alderlake-avx512"};

/// -mcpu names of x86 processors without AVX2 (older than Haswell / Excavator).
constexpr std::array<std::string_view, 16> kPreAvx2Cpus{
    "x86-64", "x86-64-v2", "nehalem", "westmere", "sandybridge", "ivybridge", "corei7", "corei7-avx", "core2",
    "penryn", "btver2",    "bdver1",  "bdver2",   "silvermont",  "goldmont",  "generic"};

bool hostHasAvx512() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

bool hostHasAvx2() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

bool contains(const auto& table, std::string_view name) { return std::find(table.begin(), table.end(), name) != table.end(); }

}  // namespace

std::string VectorIsa::describe() const {
  return name + ": " + std::to_string(floats) + " float32 lanes, " + std::to_string(registers) + " vector registers (" + reason + ")";
}

VectorIsa vectorIsaFor(const std::string& kind, const std::string& mcpu, const std::string& mattr) {
  // Hexagon: the HVX schedules were tuned with 16-float (64-byte) halves.
  if (kind == "hexagon") return {"hvx", 16, 32, "hexagon"};
#if !defined(__x86_64__) && !defined(__i386__)
  if (mcpu.empty() && mattr.empty()) return {"neon", 4, 32, "host CPU"};
#endif
  bool avx512 = false, avx2 = false;
  std::string reason;
  if (!mcpu.empty()) {
    avx512 = contains(kAvx512Cpus, mcpu);
    avx2 = avx512 || !contains(kPreAvx2Cpus, mcpu);
    reason = "-mcpu=" + mcpu;
  } else {
    avx512 = hostHasAvx512();
    avx2 = avx512 || hostHasAvx2();
    reason = "host CPU";
  }
  // Features in order, each overriding what came before; disabling one
  // disables what depends on it, enabling one enables what it needs.
  bool changed = false;
  for (std::string_view piece : split(mattr, ',')) {
    const std::string f(piece);
    if (f.size() < 2 || (f[0] != '+' && f[0] != '-')) continue;
    bool on = f[0] == '+';
    std::string name = f.substr(1);
    if (name.rfind("avx512", 0) == 0) {
      if (on) avx512 = avx2 = true, changed = true;
      else if (name == "avx512f") avx512 = false, changed = true;
    } else if (name == "avx2" || name == "avx" || name == "fma") {
      if (on && name == "avx2") avx2 = true, changed = true;
      else if (!on) avx2 = avx512 = false, changed = true;
    }
  }
  if (changed) reason += (reason.empty() ? "" : ", ") + std::string("-mattr=") + mattr;
  if (avx512) return {"avx512", 16, 32, reason};
  if (avx2) return {"avx2", 8, 16, reason};
  return {"sse", 4, 16, reason};
}

VectorIsa scheduleIsa(const IRModule& mod, PassContext& ctx, const std::string& kind) {
  std::string mcpu, mattr;
  // A comma-separated -mattr comes back as an array of strings.
  auto text = [](const std::optional<AttrValue>& v) {
    std::string out;
    if (v && v->kind() == AttrValue::Kind::String) out = v->asString();
    if (v && v->kind() == AttrValue::Kind::Array)
      for (const AttrValue& item : v->asArray())
        if (item.kind() == AttrValue::Kind::String) out += (out.empty() ? "" : ",") + item.asString();
    return out;
  };
  if (!ctx.target.empty()) {
    mcpu = text(ctx.targetAttr("mcpu", "LegalizeOps"));
    mattr = text(ctx.targetAttr("mattr", "LegalizeOps"));
  } else if (const AttrValue* t = mod->attrs.find(module_attr::kTarget); t && t->kind() == AttrValue::Kind::String) {
    std::istringstream words(t->asString());
    for (std::string w; words >> w;) {
      if (w.rfind("-mcpu=", 0) == 0) mcpu = w.substr(6);
      else if (w.rfind("-mattr=", 0) == 0) mattr = w.substr(7);
    }
  }
  VectorIsa isa = vectorIsaFor(kind, mcpu, mattr);
  ctx.recordDecision("legalize.vector_isa", AttrValue::string(isa.describe()), "LegalizeOps");
  return isa;
}

}  // namespace passlab::legalize
