// Loading model files into a workbench, whatever their format. The workbench
// (core/) parses Relay text itself but cannot see the ONNX importer (a layer
// above it), so every face loads through here: REPL, batch mode and GUI.
#pragma once

#include <string>
#include <string_view>

#include "core/frontend/load_model.h"
#include "core/workbench/workbench.h"

namespace passlab {

/// Parses an `--input-shape` binding `NAME=D0,D1,...` (the name may itself
/// contain '='; the last one separates it) into `options.inputShapes`.
/// Throws DiagnosticError naming the text when it is malformed.
void addInputShapeBinding(std::string_view text, OnnxImportOptions& options);

/// Loads `path` into `wb`: ".onnx" files through the ONNX importer (with
/// `modelOptions`), anything else as Relay text. Errors throw DiagnosticError
/// and leave the workbench as it was.
void loadModelInto(Workbench& wb, const std::string& path, const LoadOptions& options = {},
                   const LoadModelOptions& modelOptions = {});

}  // namespace passlab
