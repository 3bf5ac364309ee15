#include "repl/codegen_backend.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/text/metadata.h"
#include "core/interp/interpreter.h"
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

std::string summaryOf(const codegen::Artifacts& a) {
  std::string out = "  PrimFuncs: " + joinNames(a.functions) + "\n";
  if (a.target.kind == codegen::TargetKind::Hexagon) out += "  with HVX instructions: " + joinNames(a.hvxFunctions) + "\n";
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

RunReport runAndCompare(const IRModule& mod, const std::string& entry, bool hexagon, uint32_t seed,
                        const codegen::Artifacts* built) {
  RunReport report;
  const FunctionNode* fn = mod->lookupFunction(entry);
  if (!fn) {
    report.error = "the module has no graph-level function @" + entry + " to run";
    return report;
  }
  std::vector<NDArray> inputs = randomInputs(*fn, seed);
  Value reference = evaluate(mod, entry, std::vector<Value>(inputs.begin(), inputs.end()));
  std::vector<NDArray> expected;
  if (reference.isTensor()) expected.push_back(reference.tensor());
  for (const Value& f : reference.fields()) expected.push_back(f.tensor());
  std::vector<NDArray> actual;
  try {
    codegen::BuildOptions options;
    options.entry = entry;
    if (!hexagon) {
      actual = codegen::HostModule::compile(mod, options)->runEntry(inputs);
    } else {
      std::optional<codegen::Artifacts> fresh;
      if (!built || built->target.kind != codegen::TargetKind::Hexagon || built->entry != entry)
        built = &fresh.emplace(codegen::build(mod, codegen::Target::hexagon(), options));
      std::string dir = codegen::makeTempDir("passlab-run-");
      actual = codegen::runHexagon(*built, inputs, dir).outputs;
      std::filesystem::remove_all(dir);
    }
  } catch (const codegen::CodegenError& e) {
    report.error = std::string("run failed: ") + e.what();
    return report;
  }
  if (actual.size() != expected.size()) {
    report.error = "compiled code returned " + std::to_string(actual.size()) + " outputs, the interpreter " + std::to_string(expected.size());
    return report;
  }
  std::string out = "ran @" + entry + (hexagon ? " on Hexagon (qemu-hexagon -cpu v67)" : " on the host (JIT)") + " with inputs of seed " +
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
  if (summarizePlaceholders(mod).any())
    out += "  (computed from placeholder constants: meta[relay.Constant][N] loaded without a #[metadata] section, "
           "made-up data)\n";
  out += allOk ? "PASS\n" : "FAIL\n";
  report.text = std::move(out);
  report.ok = allOk;
  return report;
}

CodegenOutcome LlvmCodegenBackend::build(const IRModule& mod, const CodegenRequest& request) {
  codegen::Target target = parseTargetWord(request.target);
  codegen::BuildOptions options;
  options.entry = request.entry;
  codegen::Artifacts a = codegen::build(mod, target, options);
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
    RunReport report = runAndCompare(mod, request.entry, a.target.kind == codegen::TargetKind::Hexagon, request.seed, &a);
    out.stages.push_back({"run", {{"", report.error.empty() ? report.text : "error: " + report.error + "\n"}}});
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
