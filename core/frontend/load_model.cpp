// Dispatch on the file extension between the ONNX importer and the text parser.
#include "core/frontend/load_model.h"

#include <cctype>

#include "core/text/load_text.h"

namespace passlab {

bool isOnnxPath(const std::string& path) {
  static constexpr std::string_view kExt = ".onnx";
  if (path.size() < kExt.size()) return false;
  for (size_t i = 0; i < kExt.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(path[path.size() - kExt.size() + i])) != kExt[i]) return false;
  return true;
}

IRModule loadModelFile(const std::string& path, const LoadModelOptions& options) {
  if (isOnnxPath(path)) return importOnnx(path, options.onnx);
  return loadModuleTextFile(path).module;
}

}  // namespace passlab
