// Helpers any test may share: a file's bytes, paths in the source tree, and a
// registry of the built-in passes. One copy here instead of one per test file.
#pragma once

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "core/pass/registry.h"
#include "passes/registry.h"

namespace passlab::testing {

/// The whole file as bytes ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// `relative` (e.g. "tests/data/edit/a.relay") in the source tree.
inline std::filesystem::path sourcePath(const std::string& relative) {
  return std::filesystem::path(PASSLAB_SOURCE_DIR) / relative;
}

/// The built-in passes, registered once for the whole test binary, shared:
/// what a Workbench (or a batch run) takes.
inline const std::shared_ptr<const PassRegistry>& sharedBuiltinRegistry() {
  static const std::shared_ptr<const PassRegistry> registry = [] {
    auto r = std::make_shared<PassRegistry>();
    registerBuiltinPasses(*r);
    return std::shared_ptr<const PassRegistry>(std::move(r));
  }();
  return registry;
}

/// The same registry, for code that takes it by reference (parsePipeline, runPass).
inline const PassRegistry& builtinRegistry() { return *sharedBuiltinRegistry(); }

}  // namespace passlab::testing
