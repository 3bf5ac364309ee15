// The numeric check: after every pass, run the entry function of the module
// with the reference interpreter on fixed inputs and compare every output with
// what the first snapshot computes. A pass that changes numbers beyond rounding
// shows up as the first event with a large error (and `bisect` finds it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/interp/value.h"
#include "core/pass/pass.h"
#include "core/trace/trace.h"

namespace passlab {

/// Where the inputs come from.
struct NumericCheckOptions {
  /// Seed of the random inputs (floats uniform in [-1, 1), integers in [0, 4), bools fair).
  uint32_t seed = 0;
  /// A file of inputs (see readNumericInputs); parameters it does not name get random values.
  std::string inputsFile;
  /// The function run and compared.
  std::string function = "main";
};

/// "seed 0" or "inputs FILE" (plus "@fn" when not main): the options as the REPL shows them.
std::string describeNumericCheck(const NumericCheckOptions& options);

/// Random inputs for the parameters of `fn` (static tensor types only; a
/// DiagnosticError names a parameter that has none).
std::vector<NDArray> randomInputs(const FunctionNode& fn, uint32_t seed);

/// Reads inputs: one `%param = EXPR` per line (`#` comments), EXPR a constant
/// in the text format (`const(Tensor[(1, 3), float32], [0.5, 1, 2])`, `1.5f`,
/// or any expression of constants), evaluated by the interpreter. Returns the
/// inputs by parameter name; errors are DiagnosticErrors located in the file.
std::unordered_map<std::string, NDArray> readNumericInputs(const std::string& path);

/// Compares `actual` with `reference` output by output (tuples flattened).
NumericCheckResult compareValues(const Value& reference, const Value& actual);

/// The reference run: inputs and outputs of the first module, and checks of
/// later modules against it.
class NumericReference {
 public:
  /// Builds inputs for `reference`'s entry function and runs it. Throws
  /// DiagnosticError when the inputs cannot be made or the module cannot run.
  NumericReference(const IRModule& reference, NumericCheckOptions options);
  /// Runs `mod` on the same inputs (cast to its parameter dtypes when a pass
  /// changed them) and compares; never throws: failures are in the result's note.
  NumericCheckResult check(const IRModule& mod) const;
  const std::vector<NDArray>& inputs() const { return inputs_; }
  const NumericCheckOptions& options() const { return options_; }

 private:
  NumericCheckOptions options_;
  std::vector<NDArray> inputs_;
  Value outputs_;
  /// The reference holds placeholder constants: every result is labelled.
  bool placeholderData_ = false;
};

/// Records a NumericCheckResult on the event of every pass run in the root
/// context (nested passes work on their own modules, e.g. FoldConstant's
/// evaluation module, which have nothing to compare with). The reference is
/// the trace's event 0. Must be installed after the TraceInstrument, whose
/// enterPass opens the event this instrument annotates.
class NumericCheckInstrument final : public PassInstrument {
 public:
  /// Checks the passes recorded into `trace` with inputs from `options`.
  NumericCheckInstrument(std::shared_ptr<Trace> trace, NumericCheckOptions options);
  std::string name() const override { return "numeric-check"; }
  /// Notes the event the recorder just opened, when the pass runs in the root context.
  void enterPass(const Pass& pass, const IRModule& mod, PassContext& ctx) override;
  void exitPass(const Pass& pass, PassContext& ctx) override;
  /// Runs the check on the pass's result and stores it on the event.
  void afterPass(const Pass& pass, const IRModule& before, const IRModule& after, PassContext& ctx) override;
  /// The result for `mod`, computed once per module object.
  NumericCheckResult check(const IRModule& mod);
  /// Annotates a recorded event (its `after` module); used to check events
  /// recorded before the instrument was installed.
  void annotate(int event);

 private:
  std::shared_ptr<Trace> trace_;
  NumericCheckOptions options_;
  std::optional<NumericReference> reference_;
  std::string referenceError_;
  bool referenceTried_ = false;
  // The last module checked (unchanged passes return the same module).
  IRModule lastModule_;
  NumericCheckResult lastResult_;
  std::vector<int> open_;  // event per pass being run; -1 for nested ones
};

}  // namespace passlab
