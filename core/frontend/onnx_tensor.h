// Reading ONNX TensorProto files (the test_data_set_*/input_*.pb and
// output_*.pb of ONNX's backend tests) without including protobuf headers.
#pragma once

#include <string>

#include "core/ir/ndarray.h"

namespace passlab {

/// One tensor read from a serialized TensorProto.
struct OnnxTensorFile {
  /// The TensorProto's name (may be empty).
  std::string name;
  /// The data, in the dtype the file declares (float16 stays float16).
  NDArray data;
};

/// Reads a serialized TensorProto. Throws DiagnosticError naming the file when
/// it cannot be read, is not a TensorProto, or holds a dtype the IR lacks.
OnnxTensorFile readOnnxTensorFile(const std::string& path);

}  // namespace passlab
