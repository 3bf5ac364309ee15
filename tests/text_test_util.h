// Helpers shared by the text-format tests (parser, printer, golden, bad input).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/type_infer.h"
#include "core/ir/diagnostic.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "tests/test_util.h"

namespace passlab::testing {

/// The directory of a test corpus (tests/golden, tests/bad) in the source tree.
inline std::filesystem::path corpusDir(const std::string& name) {
  return std::filesystem::path(PASSLAB_SOURCE_DIR) / "tests" / name;
}

inline void writeFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

/// Sorted stems of the files with extension `ext` in corpus `dir`.
inline std::vector<std::string> corpusNames(const std::string& dir, const std::string& ext) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(corpusDir(dir)))
    if (entry.path().extension() == ext) names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// True when the expected files are to be rewritten (PASSLAB_UPDATE_GOLDEN=1);
/// the rewritten files must then be checked by eye before committing.
inline bool updatingGoldens() {
  const char* v = std::getenv("PASSLAB_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

inline std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

/// Parses and type-checks `text`; returns the first line of the first error
/// ("name:3:14: error: ..."), "no error", or a description of any exception
/// that is not a DiagnosticError (which would be a bug).
inline std::string firstError(const std::string& text, const std::string& fileName) {
  try {
    IRModule mod = parseModule(text, fileName);
    inferTypes(mod);
    return "no error";
  } catch (const DiagnosticError& e) {
    return firstLine(e.diagnostics().front().render());
  } catch (const std::exception& e) {
    return std::string("unexpected exception: ") + e.what();
  }
}

}  // namespace passlab::testing
