// Execution paths of the conformance runner: each takes an imported module and
// the test inputs and returns @main's outputs. The interpreter path runs the
// reference interpreter; the compiled paths lower the module with the default
// build pipeline (passes/build_pipeline.h) and run it on the host JIT or, for
// Hexagon, under qemu-hexagon. What the lowering or a code generator does not
// support is reported as UnsupportedError, so the runner skips the test with
// the reason instead of counting it as a failure.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ir/module.h"
#include "core/ir/ndarray.h"

namespace passlab::conformance {

/// Thrown by ExecutionPath::run when the path cannot run the model at all (an
/// op without a lowering, a construct the code generator rejects); the
/// message is the reason shown on the result line. A wrong result is never
/// reported this way.
class UnsupportedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One way of running a model.
class ExecutionPath {
 public:
  virtual ~ExecutionPath() = default;
  /// Short name used on result lines and in the report ("interpreter").
  virtual std::string name() const = 0;
  /// Empty when the path can run; otherwise why it cannot (every test of the
  /// path is then skipped with this reason).
  virtual std::string unavailableReason() const = 0;
  /// Runs @main on `args` (one per parameter, in order) and returns its
  /// outputs (a tuple result is flattened into its fields). Throws
  /// UnsupportedError when the path cannot take the model, DiagnosticError
  /// (or std::exception) on a run-time failure.
  virtual std::vector<NDArray> run(const IRModule& mod, const std::vector<NDArray>& args) = 0;
};

/// The reference interpreter (core/interp).
std::unique_ptr<ExecutionPath> makeInterpreterPath();
/// The default pipeline compiled for the host and run with the JIT.
std::unique_ptr<ExecutionPath> makeHostPath();
/// The host path with AVX-512 switched off (`llvm -mattr=-avx512f`): the
/// AVX2 schedules (16 vector registers, 8 lanes) checked on a machine whose
/// native ISA would choose the AVX-512 ones. Not in allPathNames(): on an
/// AVX2-only machine it is the host path again.
std::unique_ptr<ExecutionPath> makeHostAvx2Path();
/// The default pipeline compiled for Hexagon and run under qemu-hexagon.
std::unique_ptr<ExecutionPath> makeHexagonPath();

/// Every known path name, in report order.
std::vector<std::string> allPathNames();
/// The path called `name`, or null.
std::unique_ptr<ExecutionPath> makePath(const std::string& name);

}  // namespace passlab::conformance
