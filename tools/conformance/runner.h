// The conformance runner: discovers ONNX backend tests, imports each model,
// runs it along the execution paths and compares with the expected outputs.
#pragma once

#include <string>
#include <vector>

#include "core/ir/ndarray.h"
#include "tools/conformance/paths.h"

namespace passlab::conformance {

/// One ONNX backend test: a directory with model.onnx and test_data_set_*/.
struct TestCase {
  /// "node/test_abs": suite and directory name, used on result lines.
  std::string id;
  /// The test directory.
  std::string dir;
};

/// Finds the tests under `root`. A directory holding model.onnx is one test;
/// otherwise its subdirectories (suites such as node/, simple/) are searched
/// one level deep. Sorted by id.
std::vector<TestCase> discoverTests(const std::string& root);

/// How a test ended on one path.
enum class Outcome { Pass, Fail, Skip };

/// The result of one test on one path.
struct TestResult {
  /// The test's id ("node/test_abs").
  std::string testId;
  /// The execution path's name.
  std::string path;
  /// Pass, fail or skip.
  Outcome outcome = Outcome::Skip;
  /// Why it failed or was skipped; for a pass, notes such as bound inputs.
  std::string detail;
  /// Distinct ONNX op types of the model (empty when it could not be read).
  std::vector<std::string> opTypes;
  /// Largest absolute and relative errors over all compared elements.
  double maxAbsError = 0, maxRelError = 0;
};

/// Element comparison tolerances (ONNX's backend-test defaults for float32).
struct Tolerance {
  /// Relative tolerance (times |expected|).
  double rtol;
  /// Absolute tolerance.
  double atol;
};

/// The tolerance used for outputs of `dtype`: rtol 1e-3 / atol 1e-7 for
/// float32 and float64, wider for float16; integers and bools compare exactly.
Tolerance toleranceFor(DataType dtype);

/// Compares `actual` with `expected` (dtype, shape, then elements with
/// |a - e| <= atol + rtol |e|; NaN matches NaN, infinities must match).
/// Returns an empty string when they agree, else what differs; updates the
/// running maximum errors.
std::string compareTensors(const NDArray& actual, const NDArray& expected, double* maxAbs, double* maxRel);

/// What runTest checks besides the outputs.
struct RunOptions {
  /// Also require print -> parse -> print of the imported module to be the
  /// identity, and run the paths on the re-parsed module: the text format
  /// must carry everything the importer produced (names, constants, attrs).
  bool checkText = false;
};

/// Runs one test on every path in `paths`; one result per path. Import
/// happens once per data set and is shared by the paths.
std::vector<TestResult> runTest(const TestCase& test, const std::vector<ExecutionPath*>& paths, const RunOptions& options = {});

}  // namespace passlab::conformance
