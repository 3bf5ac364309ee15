// Code generation commands: `build` (artifacts per target), `show llvm|asm|c`
// (the generated code of one function) and `run --host|--hexagon` (execute
// the built module and compare with the interpreter). The last build is kept
// per workbench, so `show` and `run` look at what `build` listed.
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <map>

#include "codegen/codegen.h"
#include "core/interp/interpreter.h"
#include "core/trace/numeric_check.h"
#include "repl/command_util.h"

namespace passlab {
namespace {

using namespace command_util;

struct LastBuild {
  codegen::Artifacts artifacts;
  IRModule module;  // what was built (the module at the cursor then)
  bool valid = false;
};

LastBuild& lastBuild(const Workbench& wb) {
  static std::map<const Workbench*, LastBuild> builds;
  return builds[&wb];
}

/// `host`, `llvm`, `hexagon` or full target text.
codegen::Target parseTargetWord(const std::string& text) {
  if (text == "host") return codegen::Target::host();
  try {
    return codegen::Target::parse(text);
  } catch (const codegen::CodegenError& e) {
    throw WorkbenchError(e.what());
  }
}

std::string sigText(const codegen::TensorSig& s) {
  std::string out = "Tensor[(";
  for (size_t i = 0; i < s.shape.size(); ++i) out += (i ? ", " : "") + std::to_string(s.shape[i]);
  return out + "), " + std::string(s.dtype.name()) + "]";
}

std::string join(const std::vector<std::string>& items, const std::string& prefix = "@") {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + prefix + s;
  return out.empty() ? "none" : out;
}

const LastBuild& doBuild(CommandContext& ctx, const codegen::Target& target, const std::string& entry) {
  IRModule mod = ctx.workbench.moduleAt(ctx.workbench.cursor(), Side::After);
  LastBuild& last = lastBuild(ctx.workbench);
  codegen::BuildOptions options;
  options.entry = entry;
  try {
    last.artifacts = codegen::build(mod, target, options);
  } catch (const codegen::CodegenError& e) {
    last.valid = false;
    throw WorkbenchError(std::string("build failed: ") + e.what());
  }
  last.module = mod;
  last.valid = true;
  return last;
}

void runBuild(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  codegen::Target target = codegen::Target::host();
  std::string dir, entry = "main";
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& w = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw WorkbenchError("'" + w + "' needs a value");
      return args[++i];
    };
    if (w == "--target") target = parseTargetWord(value());
    else if (w == "-o") dir = value();
    else if (w == "--entry") entry = value();
    else return result.fail("unexpected argument '" + w + "'; " + usage(*ctx.interpreter.find("build")));
  }
  const LastBuild& last = doBuild(ctx, target, entry);
  const codegen::Artifacts& a = last.artifacts;
  std::string out = "built for " + std::string(a.target.kindName()) + " (" + a.target.text + ") at event #" +
                    std::to_string(ctx.workbench.cursor()) + "\n";
  out += "  PrimFuncs: " + join(a.functions) + "\n";
  if (a.target.kind == codegen::TargetKind::Hexagon) out += "  with HVX instructions: " + join(a.hvxFunctions) + "\n";
  std::vector<std::string> ext;
  for (const auto& [name, c] : a.externC) ext.push_back(name);
  if (!ext.empty()) out += "  ccompiler functions (C): " + join(ext) + "\n";
  if (!a.entry.empty()) {
    out += "  entry @" + a.entry + ": (";
    for (size_t i = 0; i < a.entryInputs.size(); ++i) out += (i ? ", " : "") + sigText(a.entryInputs[i]);
    out += ") -> (";
    for (size_t i = 0; i < a.entryOutputs.size(); ++i) out += (i ? ", " : "") + sigText(a.entryOutputs[i]);
    out += ")\n";
  }
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
    out += "  artifacts: llvm, llvm-opt" + std::string(a.assembly.empty() ? "" : ", asm") + (a.object.empty() ? "" : ", object") +
           (ext.empty() ? "" : ", c") + " (write them with -o DIR)\n";
  }
  result.out(out);
}

/// The text of `symbol`'s definition in LLVM IR text.
std::string llvmFunction(const std::string& ir, const std::string& symbol) {
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

/// The assembly of `symbol`: from its label to its .Lfunc_end.
std::string asmFunction(const std::string& s, const std::string& symbol) {
  size_t at = s.find("\n" + symbol + ":");
  if (at == std::string::npos) return "";
  size_t end = s.find(".Lfunc_end", at + symbol.size() + 2);
  end = end == std::string::npos ? s.size() : s.find('\n', end);
  return s.substr(at + 1, end - at);
}

}  // namespace

bool isCodegenView(const std::string& word) { return word == "llvm" || word == "llvm-opt" || word == "asm" || word == "c"; }

void runCodegenShow(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  std::string function = args.takeFunction();
  const std::string what = args[0];
  if (args.size() > 1) return result.fail("unexpected argument '" + args[1] + "'; usage: show llvm|llvm-opt|asm|c @<function>");
  const LastBuild& last = lastBuild(ctx.workbench);
  if (!last.valid) return result.fail("nothing built yet; run `build` first");
  const codegen::Artifacts& a = last.artifacts;
  if (function.empty()) {
    if (what == "c") return result.fail("show c needs a ccompiler function: " + join([&] {
      std::vector<std::string> names;
      for (const auto& [n, c] : a.externC) names.push_back(n);
      return names;
    }()));
    return result.out(what == "llvm" ? a.llvmIR : what == "llvm-opt" ? a.llvmIROptimized : a.assembly);
  }
  if (what == "c") {
    auto it = a.externC.find(function);
    if (it == a.externC.end()) return result.fail("@" + function + " is not a ccompiler function of the last build");
    return result.out(it->second);
  }
  if (std::find(a.functions.begin(), a.functions.end(), function) == a.functions.end())
    return result.fail("@" + function + " is not a PrimFunc of the last build (" + join(a.functions) + ")");
  Expr fn = last.module->lookup(function);
  std::string symbol = functionAttrs(fn).getString(fn_attr::kGlobalSymbol, function);
  if (symbol.empty()) symbol = function;
  std::string text = what == "llvm" ? llvmFunction(a.llvmIR, symbol) : what == "llvm-opt" ? llvmFunction(a.llvmIROptimized, symbol)
                                                                      : asmFunction(a.assembly, symbol);
  if (text.empty()) return result.fail("no " + what + " for @" + function + " in the last build");
  result.out(text);
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
  const FunctionNode* fn = mod->lookupFunction(entry);
  if (!fn) return result.fail("the module has no graph-level function @" + entry + " to run");
  std::vector<NDArray> inputs = randomInputs(*fn, seed);
  Value reference = evaluate(mod, entry, std::vector<Value>(inputs.begin(), inputs.end()));
  std::vector<NDArray> expected;
  if (reference.isTensor()) expected.push_back(reference.tensor());
  for (const Value& f : reference.fields()) expected.push_back(f.tensor());
  std::vector<NDArray> actual;
  try {
    if (host) {
      codegen::BuildOptions options;
      options.entry = entry;
      actual = codegen::HostModule::compile(mod, options)->runEntry(inputs);
    } else {
      const LastBuild& last = doBuild(ctx, codegen::Target::hexagon(), entry);
      std::string dir = codegen::makeTempDir("passlab-run-");
      actual = codegen::runHexagon(last.artifacts, inputs, dir).outputs;
      std::filesystem::remove_all(dir);
    }
  } catch (const codegen::CodegenError& e) {
    return result.fail(std::string("run failed: ") + e.what());
  }
  if (actual.size() != expected.size()) return result.fail("compiled code returned " + std::to_string(actual.size()) + " outputs, the interpreter " + std::to_string(expected.size()));
  std::string out = "ran @" + entry + (host ? " on the host (JIT)" : " on Hexagon (qemu-hexagon -cpu v67)") + " with inputs of seed " +
                    std::to_string(seed) + "; compared with the interpreter:\n";
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
  out += allOk ? "PASS\n" : "FAIL\n";
  result.out(out);
  if (!allOk) result.status = CommandStatus::Error;
}

void addCodegenCommands(std::vector<Command>& out) {
  Command c;
  c.name = "build";
  c.syntax = {"build [--target <target>] [-o <file>] [--entry <name>]"};
  c.summary = "Compile the module at the cursor: LLVM IR, assembly, object, C for ccompiler functions";
  c.help = "Compiles every PrimFunc for the target (`host`/`llvm`, the default, or `hexagon`: hexagonv68 with HVX), "
           "the entry function's call_tir sequence (`--entry`, default main) and `Compiler=\"ccompiler\"` functions as C. "
           "Lists the functions, which Hexagon kernels got HVX instructions and the entry's signature; `-o DIR` writes "
           "the artifacts (`<target>.ll`, `.opt.ll`, `.s`, `.o`, `<function>.c`). `show llvm|llvm-opt|asm|c @F` prints "
           "one function of the last build; `run --host|--hexagon` executes it.";
  c.run = runBuild;
  out.push_back(std::move(c));
}

}  // namespace passlab
