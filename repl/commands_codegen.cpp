// Code generation commands: `build` (records a build event with its stages in
// the trace through Workbench::build), `show llvm|llvm-opt|asm|c` (the
// generated code of the cursor's build, else the most recent one) and
// `run --host|--hexagon` (execute the module at the cursor and compare with
// the interpreter).
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "codegen/codegen.h"
#include "core/interp/interpreter.h"
#include "core/ir/shape_expr.h"
#include "core/pass/pass.h"
#include "core/pass/registry.h"
#include "core/trace/numeric_check.h"
#include "core/workbench/remarks.h"
#include "passes/bind_symbolic_vars.h"
#include "repl/codegen_backend.h"
#include "repl/command_util.h"
#include "repl/format.h"

namespace passlab {
namespace {

using namespace command_util;

std::string join(const std::vector<std::string>& items, const std::string& prefix = "@") {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + prefix + s;
  return out.empty() ? "none" : out;
}

/// Functions with their own artifact in stage event `id` (-1: none).
std::vector<std::string> stageFunctions(const Workbench& wb, int id) {
  std::vector<std::string> names;
  if (id < 0) return names;
  for (const CodegenArtifact& a : wb.builds().artifacts(id))
    if (!a.function.empty()) names.push_back(a.function);
  return names;
}

void runBuild(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  CodegenRequest request;
  std::string dir;
  bool targetGiven = false;
  const bool all = args.takeFlag("--all");
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& w = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw WorkbenchError("'" + w + "' needs a value");
      return args[++i];
    };
    if (w == "--target") request.target = value(), targetGiven = true;
    else if (w == "-o") dir = value();
    else if (w == "--entry") request.entry = value();
    else if (w == "--run") request.run = true;
    else if (w == "--profile") request.profile = true;
    else if (w == "--repeat") request.repeat = parseCount(value());
    else if (w == "--seed") {
      std::string v = value();
      char* end = nullptr;
      unsigned long seed = std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0') return result.fail("expected a seed number, got '" + v + "'");
      request.seed = static_cast<uint32_t>(seed);
    }
    else return result.fail("unexpected argument '" + w + "'; " + usage(*ctx.interpreter.find("build")));
  }
  Workbench& wb = ctx.workbench;
  // Without --target, the target `set target` chose (the host when none was).
  if (!targetGiven && !wb.context().target.empty()) request.target = wb.context().target;
  parseTargetWord(request.target);  // an unknown target is reported as such, not as a failed build
  LlvmCodegenBackend& backend = ensureCodegenBackend(wb);
  // LLVM takes seconds on a 700-op model: each function it starts on shows
  // on the status line, and Ctrl-C stops the build (nothing is recorded).
  wb.clearCancel();  // a Ctrl-C from before this command is not for it
  if (ctx.interpreter.statusLine)
    backend.hooks.progress = [&ctx](const codegen::BuildProgress& p) {
      ctx.interpreter.statusLine({"build: " + p.stage + " @" + p.function + " (" + std::to_string(p.done) + " of " + std::to_string(p.total) +
                                      ")  (Ctrl-C stops)",
                                  static_cast<size_t>(p.done), static_cast<size_t>(p.total)});
    };
  backend.hooks.cancelled = [&wb] { return wb.cancelRequested(); };
  struct Unhook {
    Workbench& wb;
    LlvmCodegenBackend& backend;
    ~Unhook() {
      backend.hooks = {};
      wb.clearCancel();
    }
  } unhook{wb, backend};
  const int id = wb.build(request);
  const TraceEvent& ev = wb.event(id);
  const BuildLog& builds = wb.builds();
  const codegen::Artifacts& a = *backend.lastArtifacts();
  std::string out = "built for " + std::string(a.target.kindName()) + " (" + a.target.text + ") at event #" +
                    std::to_string(builds.builtFrom(id)) + ": recorded as #" + std::to_string(id) + " with stages";
  for (int c : ev.children) out += " #" + std::to_string(c) + " " + wb.event(c).pass;
  std::string summary = builds.artifacts(id).front().text;
  if (const int run = builds.stage(id, "run"); run >= 0) summary += builds.artifacts(run).front().text;
  if (const int profile = builds.stage(id, "profile"); profile >= 0) summary += builds.artifacts(profile).front().text;
  out += "\n" + (all ? summary : capBuildText(summary, kListCap, kNamesCap));
  if (!dir.empty()) {
    std::vector<std::string> files;
    try {
      files = codegen::writeArtifacts(a, dir);
    } catch (const codegen::CodegenError& e) {
      return result.fail(e.what());
    }
    out += "  artifacts in " + dir + ":\n";
    for (const std::string& f : files) out += "    " + f + "\n";
  } else {
    out += "  write the artifacts with -o DIR\n";
  }
  result.out(out);
}

/// The text of stage event `stage` for `function` ("" = whole module), or nullopt.
std::optional<std::string> artifactText(const Workbench& wb, int stage, const std::string& function) {
  if (stage < 0) return std::nullopt;
  for (const CodegenArtifact& a : wb.builds().artifacts(stage))
    if (a.function == function) return a.text;
  return std::nullopt;
}

}  // namespace

bool isCodegenView(const std::string& word) { return word == "llvm" || word == "llvm-opt" || word == "asm" || word == "c"; }

void showCodegenEvent(CommandContext& ctx, int id, const std::string& function, CommandResult& result) {
  const Workbench& wb = ctx.workbench;
  const TraceEvent& ev = wb.event(id);
  if (ev.parent < 0) {
    if (!function.empty()) return result.fail("#" + std::to_string(id) + " is a build; `show " + std::string("llvm @") + function +
                                              "` or step into its stages for one function's code");
    const std::vector<CodegenArtifact>& summary = wb.builds().artifacts(id);
    return result.out(summary.empty() ? std::string() : capBuildText(summary.front().text, kListCap, kNamesCap));
  }
  if (std::optional<std::string> text = artifactText(wb, id, function)) return result.out(*text);
  result.fail("#" + std::to_string(id) + " " + ev.pass + " has no code for @" + function + " (it has " +
              join(stageFunctions(wb, id)) + ")");
}

void runCodegenShow(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  std::string function = args.takeFunction();
  const std::string what = args[0];
  if (args.size() > 1) return result.fail("unexpected argument '" + args[1] + "'; usage: show llvm|llvm-opt|asm|c @<function>");
  const Workbench& wb = ctx.workbench;
  const int build = wb.builds().current(wb.cursor());
  if (build < 0) return result.fail("nothing built yet; run `build` first");
  const int stage = wb.builds().stage(build, what);
  if (function.empty()) {
    if (what == "c") return result.fail("show c needs a ccompiler function: " + join(stageFunctions(wb, stage)));
    return result.out(artifactText(wb, stage, "").value_or(""));
  }
  if (what == "c") {
    if (std::optional<std::string> text = artifactText(wb, stage, function)) return result.out(*text);
    return result.fail("@" + function + " is not a ccompiler function of build #" + std::to_string(build));
  }
  std::vector<std::string> primFuncs = stageFunctions(wb, wb.builds().stage(build, "llvm"));
  if (std::find(primFuncs.begin(), primFuncs.end(), function) == primFuncs.end())
    return result.fail("@" + function + " is not a PrimFunc of build #" + std::to_string(build) + " (" + join(primFuncs) + ")");
  if (std::optional<std::string> text = artifactText(wb, stage, function)) return result.out(*text);
  result.fail("no " + what + " for @" + function + " in build #" + std::to_string(build));
}

bool isCodegenRun(const CommandArgs& args) {
  for (const std::string& w : args.words())
    if (w == "--host" || w == "--hexagon") return true;
  return false;
}

namespace {

/// What `run` compares with: the graph-level interpreter on the last snapshot
/// before lowering (seconds faster than interpreting every kernel's loops),
/// else, or with --tir-reference, the TIR interpreter on the module itself.
/// The module `run --host|--hexagon` compiles when shapes are symbolic.
/// Compiled code needs static shapes, and LegalizeOps lowers only static ones,
/// so the shape variables of the entry (those `bindings`, "n=3;m=4", names to
/// their values, the others to 1, as `note` says) are bound by
/// BindSymbolicVars on a copy of the module the trace starts from, and the
/// trace's passes up to the cursor are replayed on it (none recorded). A
/// trace that cannot be replayed (an edit, a pass not in the registry) binds
/// the module at the cursor instead. The module at the cursor itself when its
/// entry has no shape variables and nothing is bound.
IRModule boundModuleForRun(const Workbench& wb, const std::string& entry, const std::string& bindings, std::string& note) {
  IRModule mod = wb.moduleAt(wb.cursor(), Side::After);
  std::map<std::string, int64_t> values = parseSymbolicBindings(bindings);
  std::vector<tir::Var> vars;
  auto collect = [&vars, &entry](const IRModule& m) {
    if (const FunctionNode* fn = m ? m->lookupFunction(entry) : nullptr) {
      for (const Var& p : fn->params) shape::collectTypeVars(p->annotation ? p->annotation : p->checkedType, vars);
      shape::collectTypeVars(fn->retType, vars);
    }
  };
  collect(mod);
  // Replay from the first top-level pass's input, when every step is a registered pass.
  IRModule start;
  std::string replay;
  bool replayable = wb.cursor() > 0;
  for (int id = 1; replayable && id <= wb.cursor(); ++id) {
    const TraceEvent& ev = wb.event(id);
    if (ev.parent != -1) continue;
    if (!start) start = ev.before;
    if (!wb.registry().find(ev.pass)) replayable = false;
    else replay += (replay.empty() ? "" : ",") + ev.pass + (ev.options.empty() ? "" : "{" + ev.options + "}");
  }
  if (replayable && start) collect(start);
  if (vars.empty() && values.empty()) return mod;
  std::string chosen, defaulted;
  std::set<std::string> seen;
  for (const tir::Var& v : vars) {
    if (values.count(v->name) || !seen.insert(v->name).second) continue;
    values[v->name] = 1;
    defaulted += (defaulted.empty() ? "" : ", ") + v->name;
  }
  for (const auto& [name, value] : values) chosen += (chosen.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  BindSymbolicVarsOptions options;
  options.values = values;
  PassContextPtr ctx = PassContext::create();
  IRModule bound;
  if (replayable && start) {
    bound = runPass(*createBindSymbolicVarsPass(options), start, *ctx);
    if (!replay.empty()) bound = runPass(*parsePipeline(replay, wb.registry()), bound, *ctx);
    note = "shapes bound for this run: " + chosen + " (BindSymbolicVars on the trace's input, then its " +
           std::to_string(std::count(replay.begin(), replay.end(), ',') + (replay.empty() ? 0 : 1)) + " passes replayed)";
  } else {
    bound = runPass(*createBindSymbolicVarsPass(options), mod, *ctx);
    note = "shapes bound for this run: " + chosen + " (BindSymbolicVars on a copy of the module at the cursor)";
  }
  if (!defaulted.empty()) note += "; " + defaulted + " defaulted to 1, choose with --bind NAME=N";
  note += "\n";
  return bound;
}

RunReference runReference(const Workbench& wb, const std::string& entry, bool tirReference) {
  RunReference ref;
  const int built = wb.builds().builtFrom(wb.cursor());
  if (tirReference) {
    ref.label = "the TIR interpreter on the same module (--tir-reference)";
    return ref;
  }
  const int at = wb.graphReferenceEvent(wb.cursor(), entry);
  if (at < 0) {
    ref.label = "the TIR interpreter on the same module (no graph-level @" + entry +
                " in the trace before it, e.g. the module was loaded already lowered)";
    return ref;
  }
  ref.module = wb.moduleAt(at, Side::After);
  ref.tir = false;
  const TraceEvent& ev = wb.event(at);
  ref.label = "the graph-level interpreter on #" + std::to_string(at) + " " + ev.pass +
              (at == built ? "" : " (the last graph-level snapshot before lowering)");
  return ref;
}

}  // namespace

void runCodegenRun(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  constexpr const char* kUsage =
      "usage: run --host|--hexagon [--tir-reference] [--seed N] [--repeat N [--profile]] [--threads N] [--bind NAME=N,...] "
      "[--all] [@<function>]";
  bool hexagon = args.takeFlag("--hexagon");
  bool host = args.takeFlag("--host");
  bool profile = args.takeFlag("--profile");
  bool tirReference = args.takeFlag("--tir-reference");
  bool all = args.takeFlag("--all");
  if (hexagon == host) return result.fail(kUsage);
  int threads = 0;
  std::string entry = args.takeFunction();
  if (entry.empty()) entry = "main";
  uint32_t seed = 0;
  int repeat = 0;
  std::string bindings;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--seed" && i + 1 < args.size()) {
      char* end = nullptr;
      unsigned long v = std::strtoul(args[i + 1].c_str(), &end, 10);
      if (args[i + 1].empty() || *end != '\0') return result.fail("expected a seed number, got '" + args[i + 1] + "'");
      seed = static_cast<uint32_t>(v);
      ++i;
    } else if (args[i] == "--repeat" && i + 1 < args.size()) {
      repeat = parseCount(args[++i]);
    } else if (args[i] == "--bind" && i + 1 < args.size()) {
      bindings += (bindings.empty() ? "" : ";") + args[++i];
    } else if (args[i].rfind("--bind=", 0) == 0) {
      bindings += (bindings.empty() ? "" : ";") + args[i].substr(7);
    } else if (args[i] == "--threads" && i + 1 < args.size() && !hexagon) {
      threads = parseCount(args[++i]);
    } else {
      return result.fail("unexpected argument '" + args[i] + "'; " + kUsage);
    }
  }
  if (hexagon && (repeat > 0 || profile)) return result.fail(kHostOnlyProfiling);
  // --threads N sizes the process's pool (as `set threads N`) before the build.
  if (threads > 0) codegen::setThreadCount(threads);
  Workbench& wb = ctx.workbench;
  // Compiled code needs static shapes: a symbolic module runs as a bound
  // copy (boundModuleForRun); the workbench's module is left as it is.
  std::string bindNote;
  IRModule mod;
  try {
    mod = boundModuleForRun(wb, entry, bindings, bindNote);
  } catch (const DiagnosticError& e) {
    return result.fail(e.renderAll());
  }
  std::optional<TimingRequest> timing;
  if (repeat > 0 || profile) timing = TimingRequest{repeat > 0 ? repeat : 10, profile, profile ? kernelSchedules(wb, wb.cursor()) : std::map<std::string, std::string>{}};
  RunReference reference = runReference(wb, entry, tirReference);
  // Cached reference outputs belong to the module, not to one binding of it.
  reference.cache = bindNote.empty() ? &ensureCodegenBackend(wb).referenceCache() : nullptr;
  if (ctx.interpreter.statusLine) reference.status = [&ctx](const std::string& text) { ctx.interpreter.statusLine({text}); };
  wb.clearCancel();  // a Ctrl-C from before this command is not for it
  reference.cancelled = [&wb] { return wb.cancelRequested(); };
  // The JIT compiles for the session's host target (its -mcpu / -mattr), as LegalizeOps shaped the schedules for it.
  std::string hostTarget;
  if (!hexagon && !wb.context().target.empty() && parseTargetWord(wb.context().target).kind == codegen::TargetKind::Host)
    hostTarget = wb.context().target;
  RunReport report = runAndCompare(mod, entry, hexagon, seed, nullptr, timing ? &*timing : nullptr, &reference, hostTarget);
  wb.clearCancel();
  if (!report.error.empty()) return result.fail(report.error);
  result.out(bindNote + (all ? report.text : capBuildText(report.text, kListCap, kNamesCap)));
  if (!report.ok) result.status = CommandStatus::Error;
}

namespace {

/// The kernels of build `build`'s profile stage by name; fails when it has none.
std::map<std::string, KernelProfile> profileOf(const Workbench& wb, int build, std::string& error) {
  std::map<std::string, KernelProfile> out;
  if (wb.builds().buildOf(build) < 0) {
    error = "#" + std::to_string(build) + " is not a build";
    return out;
  }
  build = wb.builds().buildOf(build);
  int stage = wb.builds().stage(build, "profile");
  if (stage < 0) {
    error = "build #" + std::to_string(build) + " has no profile (build --profile records one)";
    return out;
  }
  for (const CodegenArtifact& a : wb.builds().artifacts(stage)) {
    KernelProfile k;
    if (!a.function.empty() && parseKernelLine(a.text, k)) {
      k.function = a.function;
      out[a.function] = k;
    }
  }
  return out;
}

void runProfile(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  const Workbench& wb = ctx.workbench;
  bool compare = args.takeFlag("--compare");
  bool all = args.takeFlag("--all");
  if (!compare) {
    if (args.size() > 1) return result.fail(usage(*ctx.interpreter.find("profile")));
    int build = args.empty() ? wb.builds().current(wb.cursor()) : parseEventId(args[0]);
    if (build < 0) return result.fail("nothing built yet; run `build --profile` first");
    std::string error;
    profileOf(wb, build, error);
    if (!error.empty()) return result.fail(error);
    const BuildLog& builds = wb.builds();
    const std::string& text = builds.artifacts(builds.stage(builds.buildOf(build), "profile")).front().text;
    return result.out(all ? text : capBuildText(text, kListCap, kNamesCap));
  }
  if (args.size() != 2) return result.fail(usage(*ctx.interpreter.find("profile")));
  int a = parseEventId(args[0]), b = parseEventId(args[1]);
  std::string error;
  auto before = profileOf(wb, a, error);
  if (error.empty()) {
    auto after = profileOf(wb, b, error);
    if (error.empty()) {
      struct Row {
        std::string name;
        const KernelProfile *x, *y;
        double delta;
      };
      std::vector<Row> rows;
      double totalA = 0, totalB = 0;
      for (const auto& [name, k] : before) {
        auto it = after.find(name);
        rows.push_back({name, &k, it == after.end() ? nullptr : &it->second, (it == after.end() ? 0 : it->second.msPerRun) - k.msPerRun});
        totalA += k.msPerRun;
      }
      for (const auto& [name, k] : after) {
        totalB += k.msPerRun;
        if (!before.count(name)) rows.push_back({name, nullptr, &k, k.msPerRun});
      }
      std::stable_sort(rows.begin(), rows.end(), [](const Row& p, const Row& q) { return std::fabs(p.delta) > std::fabs(q.delta); });
      char line[256];
      std::string out = "kernels of build #" + std::to_string(wb.builds().buildOf(a)) + " against build #" + std::to_string(wb.builds().buildOf(b)) +
                        " (ms per run; largest change first)\n";
      std::snprintf(line, sizeof line, "  %-44s %10s %10s %10s %8s\n", "kernel", "before", "after", "change", "speedup");
      out += line;
      auto cell = [](const KernelProfile* k) {
        char c[32];
        if (!k) return std::string("-");
        std::snprintf(c, sizeof c, "%.4f", k->msPerRun);
        return std::string(c);
      };
      size_t shownRows = 0;
      for (const Row& r : rows) {
        if (!all && ++shownRows > kListCap) {
          out += "  … " + std::to_string(rows.size() - kListCap) + " more kernels (--all lists every one)\n";
          break;
        }
        std::string name = "@" + r.name;
        if (name.size() > 44) name = name.substr(0, 41) + "...";
        std::string speedup = r.x && r.y && r.y->msPerRun > 0 ? std::to_string(r.x->msPerRun / r.y->msPerRun).substr(0, 5) + "x" : "-";
        std::snprintf(line, sizeof line, "  %-44s %10s %10s %+10.4f %8s\n", name.c_str(), cell(r.x).c_str(), cell(r.y).c_str(), r.delta,
                      speedup.c_str());
        out += line;
      }
      std::snprintf(line, sizeof line, "  %-44s %10.4f %10.4f %+10.4f %7.3fx\n", "total in kernels", totalA, totalB, totalB - totalA,
                    totalB > 0 ? totalA / totalB : 0.0);
      out += line;
      return result.out(out);
    }
  }
  result.fail(error);
}

}  // namespace

void addCodegenCommands(std::vector<Command>& out) {
  Command c;
  c.name = "build";
  c.syntax = {"build [--target <target>] [-o <file>] [--entry <name>] [--run] [--seed <n>] [--profile [--repeat <n>]] [--all]"};
  c.summary = "Compile the module at the cursor: LLVM IR, assembly, object, C for ccompiler functions";
  c.help = "Compiles every PrimFunc for the target (`host`/`llvm`, the default, or `hexagon`: hexagonv68 with HVX), "
           "the entry function's call_tir sequence (`--entry`, default main) and `Compiler=\"ccompiler\"` functions as C. "
           "Lists the functions, which Hexagon kernels got HVX instructions and the entry's signature; `-o DIR` writes "
           "the artifacts (`<target>.ll`, `.opt.ll`, `.s`, `.o`, `<function>.c`). The build is recorded in the trace "
           "right after the cursor's event, with one nested event per stage (llvm, llvm-opt, asm, object, c; `--run` "
           "adds a `run` stage: the entry run on inputs of `--seed` and compared with the interpreter; `--profile` "
           "adds a `profile` stage, host only: the entry's latency over `--repeat` runs (default 10) after a warm-up "
           "and a table of its kernels by total time, measured by timestamps around each call in the compiled entry), and "
           "the cursor moves to it: `stepin`/`back` walk the stages and `show [@F]` at a stage prints its code. "
           "`show llvm|llvm-opt|asm|c @F` prints one function of the cursor's build (else the most recent one); "
           "`run --host|--hexagon` executes the module at the cursor. Function lists stop at 20 names with a count and the "
           "kernel table at the 20 slowest kernels, a row for the rest and the total; `--all` lists every one. "
           "While LLVM works, the status line names the stage and the function (\"build: optimizing @f (12 of 81)\"); Ctrl-C "
           "stops the build within a function's pass and records nothing.";
  c.run = runBuild;
  out.push_back(std::move(c));

  Command p;
  p.name = "profile";
  p.syntax = {"profile [<event>] [--all]", "profile --compare <event> <event> [--all]"};
  p.summary = "Show a build's kernel profile, or compare two builds kernel by kernel";
  p.help = "Profiles are recorded by `build --profile` as the build's `profile` stage: the entry's median and min "
           "latency and, per PrimFunc, calls per run, ms per run, share of the time in kernels, GFLOP/s for "
           "kernels with a multiply-accumulate reduction (conv2d, conv2d_transpose, dense, matmul; FLOPs counted "
           "from the loop nest), the shape of its output (its last parameter) and its schedule: the `legalize.*` "
           "remark LegalizeOps recorded for the kernel's main loop nest, without the prefix (`conv-pointwise`, "
           "`conv-depthwise`, `dense-tile`, `loop-nest`, ...; `remarks LegalizeOps @KERNEL` gives its tiles, "
           "vector unit and the reason for it). `profile [#B]` prints the profile of build B (default: the cursor's build, else the "
           "latest), the 20 slowest kernels, a row for the rest and the total (`--all`: every kernel); `profile "
           "--compare #A #B` lists each kernel's ms per run in both builds and the change, largest change first (kernels "
           "are matched by name; the first 20 unless `--all`). Profiling is host-only: qemu-hexagon's times are not "
           "hardware times. `run --host --repeat N [--profile]` times the module at the cursor without recording a build.";
  p.run = runProfile;
  out.push_back(std::move(p));
}

}  // namespace passlab
