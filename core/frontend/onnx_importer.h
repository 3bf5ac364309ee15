// The ONNX importer: an .onnx file (opsets 1-17 of the default domain) becomes
// an IRModule whose @main is a graph-level function over the op table.
//
// What the importer guarantees:
//  - Graph inputs become the parameters of @main, in graph order, named after
//    the ONNX inputs (characters the text format cannot spell become '_').
//    Initializers and Constant nodes become Constant expressions.
//  - Every expression built for a node carries a Span into a synthetic listing
//    of the model (one line per graph input, initializer, node and output), so
//    a diagnostic about any expression names the ONNX node it came from.
//  - A dimension named by a dim_param (`batch_size`) becomes a shape variable
//    of that name (symbolic shapes, core/ir/shape_expr.h); the type
//    relations carry it where they can and give `?` where they cannot, and
//    inputShapes binds it to a number instead when an op's import needs the
//    extent. Unnamed unknown dimensions must be bound with inputShapes.
//  - Float16 tensors stay float16.
//  - Any unsupported op, attribute value, dtype or construct raises a
//    DiagnosticError naming the op, the node and the opset; a file that is not
//    a valid ONNX model raises a DiagnosticError naming the file.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"
#include "core/ir/ndarray.h"

namespace passlab {

/// How to import a model.
struct OnnxImportOptions {
  /// Shapes for graph inputs, keyed by ONNX input name. Required for inputs
  /// with unnamed unknown dimensions; a binding for a static input must
  /// agree with its declared rank (and replaces the declared dimensions).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Graph inputs replaced by constants at import. A static-shape compiler must
  /// know inputs that decide shapes (Reshape's shape, Slice's starts, Resize's
  /// scales...) when they are graph inputs rather than initializers.
  std::map<std::string, NDArray> inputValues;
  /// Name of the entry function (without '@').
  std::string entryName = "main";
};

/// Everything the importer learnt about the model besides the IR.
struct OnnxModelInfo {
  /// Opset of the default ONNX domain.
  int64_t opset = 0;
  /// ONNX names of @main's parameters, in parameter order.
  std::vector<std::string> paramNames;
  /// ONNX names of the graph outputs, in order (@main returns a tuple when
  /// there is more than one).
  std::vector<std::string> outputNames;
  /// Distinct op types of the graph's nodes, in first-use order.
  std::vector<std::string> opTypes;
  /// Number of nodes in the graph.
  size_t nodeCount = 0;
};

/// An imported module with its model information.
struct OnnxImport {
  /// The module: @main plus the phase attribute (0, ingestion).
  IRModule module;
  /// What the importer found in the model.
  OnnxModelInfo info;
};

/// Raised when an input that decides a shape is a graph input rather than a
/// constant. `inputs` names the graph inputs whose values would be needed (bind
/// them with OnnxImportOptions::inputValues and import again).
class OnnxNeedsConstantError : public DiagnosticError {
 public:
  /// Wraps the diagnostic and the graph inputs it needs.
  OnnxNeedsConstantError(Diagnostic diagnostic, std::vector<std::string> inputs)
      : DiagnosticError(std::move(diagnostic)), inputs_(std::move(inputs)) {}
  /// ONNX names of the graph inputs whose values are needed.
  const std::vector<std::string>& inputs() const { return inputs_; }

 private:
  std::vector<std::string> inputs_;
};

/// Imports the model at `path`. Throws DiagnosticError (see the file comment).
IRModule importOnnx(const std::string& path, const OnnxImportOptions& options = {});

/// Imports the model at `path` and reports what it found.
OnnxImport importOnnxWithInfo(const std::string& path, const OnnxImportOptions& options = {});

/// Imports a model from its serialized bytes; `displayName` names it in
/// diagnostics (and names the synthetic source listing).
OnnxImport importOnnxBytes(std::string_view bytes, const std::string& displayName,
                           const OnnxImportOptions& options = {});

/// What a model holds, read without importing it.
struct OnnxModelSummary {
  /// Opset of the default domain (1 when the model declares none).
  int64_t opset = 0;
  /// ONNX names of the runtime inputs: graph inputs that are not initializers,
  /// in graph order (what a caller feeds, and may bind shapes or values for).
  std::vector<std::string> runtimeInputs;
  /// Distinct op types of the graph's nodes, in first-use order.
  std::vector<std::string> opTypes;
};

/// Reads the summary of the model at `path`. Throws DiagnosticError like
/// importOnnx for an unreadable or invalid file.
OnnxModelSummary summarizeOnnxModel(const std::string& path);

/// Parses one `--input-shape` binding: "name=1,3,48,192" (an empty list after
/// '=' binds a scalar). Throws DiagnosticError on malformed text.
std::pair<std::string, std::vector<int64_t>> parseInputShapeBinding(std::string_view text);

/// The spelling of an ONNX value name that the Relay text format accepts after
/// '%': letters, digits and '_' are kept, anything else becomes '_', and a name
/// that starts with a digit (or is empty) gets a 'v' in front so it cannot be
/// mistaken for a numbered binding.
std::string sanitizeOnnxName(std::string_view name);

}  // namespace passlab
