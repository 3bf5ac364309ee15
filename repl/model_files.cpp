#include "repl/model_files.h"

#include <charconv>

#include "core/ir/diagnostic.h"

namespace passlab {

namespace {

[[noreturn]] void badBinding(std::string_view text, const std::string& why) {
  Diagnostic d;
  d.message = "--input-shape '" + std::string(text) + "': " + why + " (expected NAME=D0,D1,... such as data=1,3,224,224)";
  d.rule = "onnx.input-shape";
  throw DiagnosticError(std::move(d));
}

}  // namespace

void addInputShapeBinding(std::string_view text, OnnxImportOptions& options) {
  size_t eq = text.rfind('=');
  if (eq == std::string_view::npos || eq == 0) badBinding(text, "no input name");
  std::string name(text.substr(0, eq));
  std::string_view dims = text.substr(eq + 1);
  std::vector<int64_t> shape;
  // An empty list binds a scalar input.
  while (!dims.empty()) {
    size_t comma = dims.find(',');
    std::string_view item = dims.substr(0, comma);
    int64_t value = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc() || end != item.data() + item.size() || value < 0)
      badBinding(text, "'" + std::string(item) + "' is not a dimension");
    shape.push_back(value);
    if (comma == std::string_view::npos) break;
    dims.remove_prefix(comma + 1);
    if (dims.empty()) badBinding(text, "a trailing comma");
  }
  options.inputShapes[name] = std::move(shape);
}

void loadModelInto(Workbench& wb, const std::string& path, const LoadOptions& options, const LoadModelOptions& modelOptions) {
  if (!isOnnxPath(path)) return wb.load(path, options);
  wb.loadModule(loadModelFile(path, modelOptions), path, options);
}

}  // namespace passlab
