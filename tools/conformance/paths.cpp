// The execution paths: the interpreter, and the compiled paths that wait for
// code generation.
#include "tools/conformance/paths.h"

#include "core/interp/interpreter.h"

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

/// A compiled path. The lowering pipeline and the LLVM code generators are a
/// separate piece of work (the codegen issue); until this build contains them
/// the path says so and runs nothing.
class CompiledPath final : public ExecutionPath {
 public:
  CompiledPath(std::string name, std::string what) : name_(std::move(name)), what_(std::move(what)) {}
  std::string name() const override { return name_; }
  std::string unavailableReason() const override {
    return "not yet available: " + what_ + " needs lowering and LLVM code generation, which this build does not contain";
  }
  std::vector<NDArray> run(const IRModule&, const std::vector<NDArray>&) override {
    throw std::logic_error(name_ + " path is not available");
  }

 private:
  std::string name_, what_;
};

}  // namespace

std::unique_ptr<ExecutionPath> makeInterpreterPath() { return std::make_unique<InterpreterPath>(); }

std::unique_ptr<ExecutionPath> makeHostPath() {
  return std::make_unique<CompiledPath>("host", "compiling for the host and running with the JIT");
}

std::unique_ptr<ExecutionPath> makeHexagonPath() {
  return std::make_unique<CompiledPath>("hexagon", "compiling for Hexagon and running under qemu-hexagon");
}

std::vector<std::string> allPathNames() { return {"interpreter", "host", "hexagon"}; }

std::unique_ptr<ExecutionPath> makePath(const std::string& name) {
  if (name == "interpreter") return makeInterpreterPath();
  if (name == "host") return makeHostPath();
  if (name == "hexagon") return makeHexagonPath();
  return nullptr;
}

}  // namespace passlab::conformance
