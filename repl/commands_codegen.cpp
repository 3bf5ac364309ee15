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
#include <optional>

#include "codegen/codegen.h"
#include "core/interp/interpreter.h"
#include "core/trace/numeric_check.h"
#include "repl/codegen_backend.h"
#include "repl/command_util.h"

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
  for (const CodegenArtifact& a : wb.event(id).artifacts)
    if (!a.function.empty()) names.push_back(a.function);
  return names;
}

void runBuild(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  CodegenRequest request;
  std::string dir;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& w = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw WorkbenchError("'" + w + "' needs a value");
      return args[++i];
    };
    if (w == "--target") request.target = value();
    else if (w == "-o") dir = value();
    else if (w == "--entry") request.entry = value();
    else if (w == "--run") request.run = true;
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
  parseTargetWord(request.target);  // an unknown target is reported as such, not as a failed build
  LlvmCodegenBackend& backend = ensureCodegenBackend(wb);
  const int id = wb.build(request);
  const TraceEvent& ev = wb.event(id);
  const codegen::Artifacts& a = *backend.lastArtifacts();
  std::string out = "built for " + std::string(a.target.kindName()) + " (" + a.target.text + ") at event #" +
                    std::to_string(ev.builtFrom) + ": recorded as #" + std::to_string(id) + " with stages";
  for (int c : ev.children) out += " #" + std::to_string(c) + " " + wb.event(c).pass;
  out += "\n" + ev.artifacts.front().text;
  if (const int run = wb.buildStage(id, "run"); run >= 0) out += wb.event(run).artifacts.front().text;
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
  for (const CodegenArtifact& a : wb.event(stage).artifacts)
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
    return result.out(ev.artifacts.empty() ? std::string() : ev.artifacts.front().text);
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
  const int build = wb.currentBuild();
  if (build < 0) return result.fail("nothing built yet; run `build` first");
  const int stage = wb.buildStage(build, what);
  if (function.empty()) {
    if (what == "c") return result.fail("show c needs a ccompiler function: " + join(stageFunctions(wb, stage)));
    return result.out(artifactText(wb, stage, "").value_or(""));
  }
  if (what == "c") {
    if (std::optional<std::string> text = artifactText(wb, stage, function)) return result.out(*text);
    return result.fail("@" + function + " is not a ccompiler function of build #" + std::to_string(build));
  }
  std::vector<std::string> primFuncs = stageFunctions(wb, wb.buildStage(build, "llvm"));
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

void runCodegenRun(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  bool hexagon = args.takeFlag("--hexagon");
  bool host = args.takeFlag("--host");
  if (hexagon == host) return result.fail("usage: run --host|--hexagon [--seed N] [@<function>]");
  std::string entry = args.takeFunction();
  if (entry.empty()) entry = "main";
  uint32_t seed = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--seed" && i + 1 < args.size()) {
      char* end = nullptr;
      unsigned long v = std::strtoul(args[i + 1].c_str(), &end, 10);
      if (args[i + 1].empty() || *end != '\0') return result.fail("expected a seed number, got '" + args[i + 1] + "'");
      seed = static_cast<uint32_t>(v);
      ++i;
    } else {
      return result.fail("unexpected argument '" + args[i] + "'; usage: run --host|--hexagon [--seed N] [@<function>]");
    }
  }
  IRModule mod = ctx.workbench.moduleAt(ctx.workbench.cursor(), Side::After);
  RunReport report = runAndCompare(mod, entry, hexagon, seed);
  if (!report.error.empty()) return result.fail(report.error);
  result.out(report.text);
  if (!report.ok) result.status = CommandStatus::Error;
}

void addCodegenCommands(std::vector<Command>& out) {
  Command c;
  c.name = "build";
  c.syntax = {"build [--target <target>] [-o <file>] [--entry <name>] [--run [--seed <n>]]"};
  c.summary = "Compile the module at the cursor: LLVM IR, assembly, object, C for ccompiler functions";
  c.help = "Compiles every PrimFunc for the target (`host`/`llvm`, the default, or `hexagon`: hexagonv68 with HVX), "
           "the entry function's call_tir sequence (`--entry`, default main) and `Compiler=\"ccompiler\"` functions as C. "
           "Lists the functions, which Hexagon kernels got HVX instructions and the entry's signature; `-o DIR` writes "
           "the artifacts (`<target>.ll`, `.opt.ll`, `.s`, `.o`, `<function>.c`). The build is recorded in the trace "
           "right after the cursor's event, with one nested event per stage (llvm, llvm-opt, asm, object, c; `--run` "
           "adds a `run` stage: the entry run on inputs of `--seed` and compared with the interpreter), and "
           "the cursor moves to it: `stepin`/`back` walk the stages and `show [@F]` at a stage prints its code. "
           "`show llvm|llvm-opt|asm|c @F` prints one function of the cursor's build (else the most recent one); "
           "`run --host|--hexagon` executes the module at the cursor.";
  c.run = runBuild;
  out.push_back(std::move(c));
}

}  // namespace passlab
