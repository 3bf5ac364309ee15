// The execution paths: the interpreter, the host JIT and Hexagon under qemu.
#include "tools/conformance/paths.h"

#include <filesystem>

#include "codegen/codegen.h"
#include "core/interp/interpreter.h"
#include "passes/build_pipeline.h"

namespace passlab::conformance {

namespace {

class InterpreterPath final : public ExecutionPath {
 public:
  std::string name() const override { return "interpreter"; }
  std::string unavailableReason() const override { return ""; }
  std::vector<NDArray> run(const IRModule& mod, const std::vector<NDArray>& args) override {
    std::vector<Value> values(args.begin(), args.end());
    Value result = evaluate(mod, "main", values);
    std::vector<NDArray> outputs;
    if (result.isTensor()) {
      outputs.push_back(result.tensor());
    } else {
      for (const Value& f : result.fields()) {
        if (!f.isTensor()) throw std::runtime_error("output is not a tensor: " + f.describe());
        outputs.push_back(f.tensor());
      }
    }
    return outputs;
  }
};

/// Lowers `mod` with the default build pipeline for `target`. An op the
/// lowering does not support makes the test unsupported; any other pass
/// failure is a real failure and propagates.
IRModule lowerFor(const IRModule& mod, const codegen::Target& target) {
  AttrDict attrs = mod->attrs;
  attrs.set(module_attr::kTarget, AttrValue::string(target.text));
  auto ctx = PassContext::create();
  try {
    return lowerForBuild(withModuleAttrs(mod, attrs), *ctx);
  } catch (const PassFailure& e) {
    for (const Diagnostic& d : e.diagnostics())
      if (d.rule == "legalize.unsupported-op") throw UnsupportedError(d.message);
    throw;
  }
}

/// A path through the code generators: lower, build for `target`, run.
class CompiledPath : public ExecutionPath {
 public:
  /// `name` is the path's name on result lines; empty: the target's kind.
  explicit CompiledPath(codegen::Target target, std::string name = "")
      : target_(std::move(target)), name_(name.empty() ? std::string(target_.kindName()) : std::move(name)) {}
  std::string name() const override { return name_; }
  std::string unavailableReason() const override { return ""; }
  std::vector<NDArray> run(const IRModule& mod, const std::vector<NDArray>& args) override {
    IRModule lowered = lowerFor(mod, target_);
    codegen::BuildOptions options;
    options.emitAssembly = false;  // nobody reads it here, and it costs a second code-generation run
    try {
      return runLowered(lowered, args, options);
    } catch (const codegen::CodegenError& e) {
      // Compiling is where the code generator says what it cannot take;
      // runLowered reports errors of running the program as RunError.
      throw UnsupportedError(std::string("codegen: ") + firstLine(e.what()));
    }
  }

 protected:
  /// A failure after the program was built (a crash or a wrong-size result):
  /// a real failure, never a skip.
  struct RunError : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  /// Builds and runs; throws CodegenError only for what the build rejects.
  virtual std::vector<NDArray> runLowered(const IRModule& lowered, const std::vector<NDArray>& args,
                                          const codegen::BuildOptions& options) = 0;
  static std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

  codegen::Target target_;
  std::string name_;
};

class HostPath final : public CompiledPath {
 public:
  explicit HostPath(codegen::Target target = codegen::Target::host(), std::string name = "")
      : CompiledPath(std::move(target), std::move(name)) {}

 private:
  std::vector<NDArray> runLowered(const IRModule& lowered, const std::vector<NDArray>& args,
                                  const codegen::BuildOptions& options) override {
    std::unique_ptr<codegen::HostModule> module = codegen::HostModule::compile(lowered, options);
    try {
      return module->runEntry(args);
    } catch (const codegen::CodegenError& e) {
      throw RunError(std::string("host run: ") + e.what());
    }
  }
};

/// One work directory for the whole run: the runtime is compiled into it once
/// and every test's program overwrites the previous one.
class HexagonPath final : public CompiledPath {
 public:
  HexagonPath() : CompiledPath(codegen::Target::hexagonEmulated()) {}
  ~HexagonPath() override {
    std::error_code ec;
    if (!workDir_.empty()) std::filesystem::remove_all(workDir_, ec);
  }

 private:
  std::vector<NDArray> runLowered(const IRModule& lowered, const std::vector<NDArray>& args,
                                  const codegen::BuildOptions& options) override {
    codegen::Artifacts artifacts = codegen::build(lowered, target_, options);
    if (workDir_.empty()) workDir_ = codegen::makeTempDir("passlab-conformance-hexagon-");
    try {
      return codegen::runHexagon(artifacts, args, workDir_).outputs;
    } catch (const codegen::CodegenError& e) {
      throw RunError(std::string("qemu-hexagon run: ") + e.what());
    }
  }

  std::string workDir_;
};

}  // namespace

std::unique_ptr<ExecutionPath> makeInterpreterPath() { return std::make_unique<InterpreterPath>(); }

std::unique_ptr<ExecutionPath> makeHostPath() { return std::make_unique<HostPath>(); }

std::unique_ptr<ExecutionPath> makeHostAvx2Path() {
  return std::make_unique<HostPath>(codegen::Target::parse("llvm -mattr=-avx512f"), "host-avx2");
}

std::unique_ptr<ExecutionPath> makeHexagonPath() { return std::make_unique<HexagonPath>(); }

std::vector<std::string> allPathNames() { return {"interpreter", "host", "hexagon"}; }

std::unique_ptr<ExecutionPath> makePath(const std::string& name) {
  if (name == "interpreter") return makeInterpreterPath();
  if (name == "host") return makeHostPath();
  if (name == "host-avx2") return makeHostAvx2Path();
  if (name == "hexagon") return makeHexagonPath();
  return nullptr;
}

}  // namespace passlab::conformance
