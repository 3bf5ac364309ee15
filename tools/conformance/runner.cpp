// Test discovery, import with shape and value bindings, execution and
// comparison of one ONNX backend test.
#include "tools/conformance/runner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

#include "core/analysis/type_infer.h"
#include "core/frontend/onnx_importer.h"
#include "core/frontend/onnx_tensor.h"
#include "core/text/parser.h"
#include "core/text/printer.h"

namespace passlab::conformance {

namespace fs = std::filesystem;

namespace {

/// The trailing number of "input_12.pb" or "test_data_set_3" (-1 when none),
/// so input_10 sorts after input_9.
long trailingNumber(const std::string& name) {
  std::string stem = name.substr(0, name.find('.'));
  size_t i = stem.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(stem[i - 1]))) --i;
  return i == stem.size() ? -1 : std::stol(stem.substr(i));
}

/// Files or directories in `dir` whose names start with `prefix`, sorted by their number.
std::vector<fs::path> numbered(const fs::path& dir, const std::string& prefix, bool directories) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && entry.is_directory() == directories) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) {
    return trailingNumber(a.filename().string()) < trailingNumber(b.filename().string());
  });
  return out;
}

std::string formatDouble(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}

bool isUnsupportedRule(const std::string& rule) { return rule.rfind("onnx.unsupported", 0) == 0; }

/// The first line of a diagnostic (result lines are one line each).
std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

/// One data set: inputs keyed by the runtime input they feed, expected outputs in order.
struct DataSet {
  std::string name;
  std::map<std::string, NDArray> inputs;
  std::vector<NDArray> outputs;
};

DataSet readDataSet(const fs::path& dir, const std::vector<std::string>& runtimeInputs) {
  DataSet ds;
  ds.name = dir.filename().string();
  std::vector<fs::path> inputFiles = numbered(dir, "input_", false);
  for (size_t i = 0; i < inputFiles.size(); ++i) {
    OnnxTensorFile t = readOnnxTensorFile(inputFiles[i].string());
    // Inputs are matched by name when the file names one, else by position.
    std::string name = t.name;
    if (std::find(runtimeInputs.begin(), runtimeInputs.end(), name) == runtimeInputs.end())
      name = i < runtimeInputs.size() ? runtimeInputs[i] : t.name;
    ds.inputs[name] = t.data;
  }
  for (const fs::path& f : numbered(dir, "output_", false)) ds.outputs.push_back(readOnnxTensorFile(f.string()).data);
  return ds;
}

}  // namespace

std::vector<TestCase> discoverTests(const std::string& root) {
  std::vector<TestCase> tests;
  fs::path base(root);
  auto add = [&tests](const fs::path& dir, const std::string& id) { tests.push_back({id, dir.string()}); };
  if (fs::exists(base / "model.onnx")) {
    add(base, base.parent_path().filename().string() + "/" + base.filename().string());
    return tests;
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(base, ec)) {
    if (!entry.is_directory()) continue;
    if (fs::exists(entry.path() / "model.onnx")) {
      add(entry.path(), base.filename().string() + "/" + entry.path().filename().string());
      continue;
    }
    for (const auto& sub : fs::directory_iterator(entry.path(), ec))
      if (sub.is_directory() && fs::exists(sub.path() / "model.onnx"))
        add(sub.path(), entry.path().filename().string() + "/" + sub.path().filename().string());
  }
  std::sort(tests.begin(), tests.end(), [](const TestCase& a, const TestCase& b) { return a.id < b.id; });
  return tests;
}

Tolerance toleranceFor(DataType dtype) {
  switch (dtype.code) {
    case DTypeCode::Float32:
    case DTypeCode::Float64: return {1e-3, 1e-7};
    // Half carries 11 significant bits (one ulp is ~1e-3 relative): a result
    // rounded once per op may be a few ulps from the float32 reference.
    case DTypeCode::Float16: return {5e-3, 1e-3};
    default: return {0, 0};
  }
}

std::string compareTensors(const NDArray& actual, const NDArray& expected, double* maxAbs, double* maxRel) {
  if (actual.dtype() != expected.dtype())
    return "dtype " + std::string(actual.dtype().name()) + ", expected " + std::string(expected.dtype().name());
  if (actual.shape() != expected.shape()) {
    auto text = [](const std::vector<int64_t>& s) {
      std::string out = "(";
      for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
      return out + ")";
    };
    return "shape " + text(actual.shape()) + ", expected " + text(expected.shape());
  }
  Tolerance tol = toleranceFor(expected.dtype());
  bool isFloat = expected.dtype().isFloat();
  int64_t bad = 0, firstBad = -1;
  for (int64_t i = 0, n = expected.numElements(); i < n; ++i) {
    if (!isFloat) {
      // int64 beyond 2^53 must compare exactly, not through double.
      if (actual.getAsInt(i) != expected.getAsInt(i)) {
        double err = std::fabs(actual.getAsDouble(i) - expected.getAsDouble(i));
        *maxAbs = std::max(*maxAbs, err);
        if (firstBad < 0) firstBad = i;
        ++bad;
      }
      continue;
    }
    double a = actual.getAsDouble(i), e = expected.getAsDouble(i);
    if (std::isnan(e) || std::isnan(a)) {
      if (std::isnan(e) != std::isnan(a)) {
        if (firstBad < 0) firstBad = i;
        ++bad;
      }
      continue;
    }
    if (std::isinf(e) || std::isinf(a)) {
      if (a != e) {
        if (firstBad < 0) firstBad = i;
        ++bad;
      }
      continue;
    }
    double err = std::fabs(a - e);
    *maxAbs = std::max(*maxAbs, err);
    if (e != 0) *maxRel = std::max(*maxRel, err / std::fabs(e));
    if (err > tol.atol + tol.rtol * std::fabs(e)) {
      if (firstBad < 0) firstBad = i;
      ++bad;
    }
  }
  if (bad == 0) return "";
  return std::to_string(bad) + " of " + std::to_string(expected.numElements()) + " elements differ (first at flat index " +
         std::to_string(firstBad) + ": got " + formatDouble(actual.getAsDouble(firstBad)) + ", expected " +
         formatDouble(expected.getAsDouble(firstBad)) + ")";
}

std::vector<TestResult> runTest(const TestCase& test, const std::vector<ExecutionPath*>& paths, const RunOptions& runOptions) {
  std::vector<TestResult> results;
  for (ExecutionPath* p : paths) {
    TestResult r;
    r.testId = test.id;
    r.path = p->name();
    r.outcome = Outcome::Pass;
    results.push_back(r);
  }
  auto all = [&results](Outcome outcome, const std::string& detail) {
    for (TestResult& r : results)
      if (r.outcome == Outcome::Pass) {
        r.outcome = outcome;
        r.detail = detail;
      }
  };
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string why = paths[i]->unavailableReason();
    if (!why.empty()) {
      results[i].outcome = Outcome::Skip;
      results[i].detail = why;
    }
  }

  std::string modelPath = (fs::path(test.dir) / "model.onnx").string();
  OnnxModelSummary summary;
  try {
    summary = summarizeOnnxModel(modelPath);
  } catch (const DiagnosticError& e) {
    all(Outcome::Fail, "cannot read the model: " + firstLine(e.what()));
    return results;
  }
  for (TestResult& r : results) r.opTypes = summary.opTypes;

  std::vector<fs::path> dataSets = numbered(test.dir, "test_data_set_", true);
  if (dataSets.empty()) {
    all(Outcome::Skip, "no test data sets");
    return results;
  }
  std::vector<std::string> boundInputs;
  for (const fs::path& dsDir : dataSets) {
    DataSet ds;
    try {
      ds = readDataSet(dsDir, summary.runtimeInputs);
    } catch (const DiagnosticError& e) {
      // The message starts with the file's path; the test id already says where.
      std::string message = e.diagnostics().front().message;
      size_t dataDir = message.find(dsDir.filename().string());
      all(Outcome::Skip, "test data: " + (dataDir == std::string::npos ? message : message.substr(dataDir)));
      return results;
    }
    // Static shapes: every fed input is bound to the shape of its test data.
    OnnxImportOptions options;
    for (const auto& [name, value] : ds.inputs) options.inputShapes[name] = value.shape();
    OnnxImport imported;
    for (int attempt = 0;; ++attempt) {
      try {
        imported = importOnnxWithInfo(modelPath, options);
        break;
      } catch (const OnnxNeedsConstantError& e) {
        // Inputs that decide shapes become constants with this data set's values.
        bool progressed = false;
        for (const std::string& name : e.inputs()) {
          auto it = ds.inputs.find(name);
          if (it == ds.inputs.end() || options.inputValues.count(name)) continue;
          options.inputValues[name] = it->second;
          if (std::find(boundInputs.begin(), boundInputs.end(), name) == boundInputs.end()) boundInputs.push_back(name);
          progressed = true;
        }
        if (!progressed || attempt > 16) {
          all(Outcome::Fail, "import: " + firstLine(e.what()));
          return results;
        }
      } catch (const DiagnosticError& e) {
        const Diagnostic& d = e.diagnostics().front();
        all(isUnsupportedRule(d.rule) ? Outcome::Skip : Outcome::Fail, (isUnsupportedRule(d.rule) ? "" : "import: ") + d.message);
        return results;
      }
    }
    if (runOptions.checkText) {
      // The file form: large constants by reference with their data in the
      // #[metadata] section, so the round trip is lossless.
      PrintOptions file;
      file.metadataSection = true;
      std::string text = printModule(imported.module, file);
      try {
        IRModule reparsed = inferTypes(parseModule(text, test.id + ".relay"));
        std::string again = printModule(reparsed, file);
        if (again != text) {
          size_t at = 0, line = 1;
          while (at < text.size() && at < again.size() && text[at] == again[at]) line += text[at++] == '\n';
          all(Outcome::Fail, "text round trip: the re-parsed module prints differently from line " + std::to_string(line));
          return results;
        }
        imported.module = reparsed;
      } catch (const DiagnosticError& e) {
        all(Outcome::Fail, "text round trip: " + firstLine(e.what()));
        return results;
      }
    }
    std::vector<NDArray> args;
    for (const std::string& name : imported.info.paramNames) {
      auto it = ds.inputs.find(name);
      if (it == ds.inputs.end()) {
        all(Outcome::Fail, ds.name + " has no data for input '" + name + "'");
        return results;
      }
      args.push_back(it->second);
    }
    for (size_t p = 0; p < paths.size(); ++p) {
      TestResult& r = results[p];
      if (r.outcome != Outcome::Pass) continue;
      std::vector<NDArray> outputs;
      try {
        outputs = paths[p]->run(imported.module, args);
      } catch (const UnsupportedError& e) {
        r.outcome = Outcome::Skip;
        r.detail = e.what();
        continue;
      } catch (const DiagnosticError& e) {
        r.outcome = Outcome::Fail;
        r.detail = "run: " + firstLine(e.what());
        continue;
      } catch (const std::exception& e) {
        r.outcome = Outcome::Fail;
        r.detail = std::string("run: ") + e.what();
        continue;
      }
      if (outputs.size() != ds.outputs.size()) {
        r.outcome = Outcome::Fail;
        r.detail = "produced " + std::to_string(outputs.size()) + " outputs, expected " + std::to_string(ds.outputs.size());
        continue;
      }
      for (size_t k = 0; k < outputs.size() && r.outcome == Outcome::Pass; ++k) {
        std::string diff = compareTensors(outputs[k], ds.outputs[k], &r.maxAbsError, &r.maxRelError);
        if (!diff.empty()) {
          r.outcome = Outcome::Fail;
          r.detail = ds.name + " output " + std::to_string(k) + " ('" +
                     (k < imported.info.outputNames.size() ? imported.info.outputNames[k] : "?") + "'): " + diff +
                     " [max abs err " + formatDouble(r.maxAbsError) + ", max rel err " + formatDouble(r.maxRelError) + "]";
        }
      }
    }
  }
  for (TestResult& r : results) {
    if (r.outcome == Outcome::Pass && !boundInputs.empty()) {
      r.detail = "inputs bound at import:";
      for (const std::string& n : boundInputs) r.detail += " " + n;
    }
  }
  return results;
}

}  // namespace passlab::conformance
