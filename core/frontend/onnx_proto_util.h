// Internal to core/frontend: conversions between ONNX protobuf messages and the
// IR's dtypes and NDArrays.
#pragma once

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

#include "core/ir/dtype.h"
#include "core/ir/ndarray.h"

namespace passlab::onnx_import {

/// The IR dtype of an ONNX TensorProto::DataType, or nullopt for the ones the
/// IR lacks (string, uint16/32/64, bfloat16, complex).
std::optional<DataType> dtypeFromOnnx(int32_t elemType);

/// The ONNX spelling of an element type ("FLOAT", "FLOAT16", "UINT32", ...).
std::string onnxTypeName(int32_t elemType);

/// The ONNX element type of an IR dtype.
int32_t onnxTypeOf(DataType dtype);

/// Decodes a TensorProto into an NDArray: raw_data, the typed repeated fields
/// and external data (read relative to `baseDir`). Throws std::runtime_error
/// with a message naming the tensor on an unsupported dtype, a size mismatch or
/// an unreadable external file.
NDArray tensorFromProto(const onnx::TensorProto& tensor, const std::string& baseDir);

}  // namespace passlab::onnx_import
