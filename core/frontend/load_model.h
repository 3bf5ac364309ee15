// One entry point for the faces: load a model file, whatever its format.
#pragma once

#include <string>

#include "core/frontend/onnx_importer.h"
#include "core/ir/module.h"

namespace passlab {

/// Options for loadModelFile; ONNX options apply to .onnx files only.
struct LoadModelOptions {
  /// Input-shape bindings, initial constants and entry name for ONNX import.
  OnnxImportOptions onnx;
};

/// Loads `path`: a file ending in ".onnx" (any case) is imported with the ONNX
/// importer, anything else is parsed as Relay-compatible text. Throws
/// DiagnosticError (unreadable file, parse or import error), never crashes.
IRModule loadModelFile(const std::string& path, const LoadModelOptions& options = {});

/// True when `path` names an ONNX model (by its extension).
bool isOnnxPath(const std::string& path);

}  // namespace passlab
