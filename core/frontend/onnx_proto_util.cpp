// TensorProto decoding and ONNX dtype names; readOnnxTensorFile.
#include "core/frontend/onnx_proto_util.h"
#include "core/ir/file_io.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <span>
#include <sstream>
#include <stdexcept>

#include "core/frontend/onnx_tensor.h"
#include "core/ir/diagnostic.h"

namespace passlab::onnx_import {

namespace {

using TP = onnx::TensorProto;

std::string tensorLabel(const TP& t) { return t.name().empty() ? std::string("tensor") : "tensor '" + t.name() + "'"; }

/// Copies `count` values of a repeated protobuf field into `out`, converting
/// each with `store` (the field's C++ type and the dtype's storage differ, e.g.
/// int8 values travel in int32_data and float16 bit patterns as well).
template <class Field, class Store>
void copyRepeated(const Field& field, int64_t count, const std::string& label, Store store) {
  if (static_cast<int64_t>(field.size()) != count)
    throw std::runtime_error(label + " holds " + std::to_string(field.size()) + " values but its shape needs " +
                             std::to_string(count));
  for (int64_t i = 0; i < count; ++i) store(i, field.Get(static_cast<int>(i)));
}

/// The bytes of an externally stored tensor (data_location EXTERNAL).
std::string readExternal(const TP& t, const std::string& baseDir) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : t.external_data()) {
    if (kv.key() == "location") location = kv.value();
    else if (kv.key() == "offset") offset = std::stoll(kv.value());
    else if (kv.key() == "length") length = std::stoll(kv.value());
  }
  if (location.empty()) throw std::runtime_error(tensorLabel(t) + " is stored externally but names no location");
  std::string path = baseDir.empty() ? location : baseDir + "/" + location;
  // A FIFO or device named as a location would block or never end.
  if (std::optional<std::string> why = unreadableFileReason(path))
    throw std::runtime_error(tensorLabel(t) + ": cannot read external data file '" + path + "': " + *why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(tensorLabel(t) + ": cannot open external data file '" + path + "'");
  in.seekg(0, std::ios::end);
  int64_t size = static_cast<int64_t>(in.tellg());
  if (length < 0) length = size - offset;
  if (offset < 0 || offset + length > size)
    throw std::runtime_error(tensorLabel(t) + ": external data range exceeds '" + path + "'");
  std::string bytes(static_cast<size_t>(length), '\0');
  in.seekg(offset);
  in.read(bytes.data(), length);
  return bytes;
}

}  // namespace

std::optional<DataType> dtypeFromOnnx(int32_t elemType) {
  switch (elemType) {
    case TP::FLOAT: return DataType(DTypeCode::Float32);
    case TP::UINT8: return DataType(DTypeCode::UInt8);
    case TP::INT8: return DataType(DTypeCode::Int8);
    case TP::INT16: return DataType(DTypeCode::Int16);
    case TP::INT32: return DataType(DTypeCode::Int32);
    case TP::INT64: return DataType(DTypeCode::Int64);
    case TP::BOOL: return DataType(DTypeCode::Bool);
    case TP::FLOAT16: return DataType(DTypeCode::Float16);
    case TP::DOUBLE: return DataType(DTypeCode::Float64);
    default: return std::nullopt;
  }
}

std::string onnxTypeName(int32_t elemType) {
  if (TP::DataType_IsValid(elemType)) return TP::DataType_Name(static_cast<TP::DataType>(elemType));
  return "type " + std::to_string(elemType);
}

int32_t onnxTypeOf(DataType dtype) {
  switch (dtype.code) {
    case DTypeCode::Bool: return TP::BOOL;
    case DTypeCode::Int8: return TP::INT8;
    case DTypeCode::Int16: return TP::INT16;
    case DTypeCode::Int32: return TP::INT32;
    case DTypeCode::Int64: return TP::INT64;
    case DTypeCode::UInt8: return TP::UINT8;
    case DTypeCode::Float16: return TP::FLOAT16;
    case DTypeCode::Float32: return TP::FLOAT;
    case DTypeCode::Float64: return TP::DOUBLE;
  }
  return TP::UNDEFINED;
}

NDArray tensorFromProto(const TP& t, const std::string& baseDir) {
  std::optional<DataType> dtype = dtypeFromOnnx(t.data_type());
  if (!dtype)
    throw std::runtime_error(tensorLabel(t) + " has element type " + onnxTypeName(t.data_type()) +
                             ", which the IR does not support");
  if (t.has_segment()) throw std::runtime_error(tensorLabel(t) + " is segmented, which is not supported");
  std::vector<int64_t> shape(t.dims().begin(), t.dims().end());
  const std::string label = tensorLabel(t);
  // Validate the element count against the data actually present before
  // allocating: a corrupt file must not turn into a huge allocation.
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d < 0) throw std::runtime_error(label + " has a negative dimension");
    if (d != 0 && count > (int64_t{1} << 40) / d) throw std::runtime_error(label + " is implausibly large");
    count *= d;
  }
  int64_t available = 0;
  if (t.data_location() == TP::EXTERNAL) available = count;  // checked when read
  else if (t.has_raw_data()) available = static_cast<int64_t>(t.raw_data().size()) / dtype->bytes();
  else
    available = std::max<int64_t>({t.float_data_size(), t.double_data_size(), t.int32_data_size(), t.int64_data_size()});
  if (available != count)
    throw std::runtime_error(label + " holds " + std::to_string(available) + " values but its shape needs " + std::to_string(count));
  NDArray out(*dtype, shape);

  if (t.data_location() == TP::EXTERNAL || t.has_raw_data()) {
    std::string external;
    const std::string& raw = t.data_location() == TP::EXTERNAL ? (external = readExternal(t, baseDir)) : t.raw_data();
    if (raw.size() != out.byteSize())
      throw std::runtime_error(label + " holds " + std::to_string(raw.size()) + " bytes of raw data but its shape needs " +
                               std::to_string(out.byteSize()));
    // ONNX raw data is little-endian, as is every host we build for.
    if (!raw.empty()) std::memcpy(out.mutableData(), raw.data(), raw.size());
    if (dtype->isBool())  // normalise bytes so a bool is exactly 0 or 1
      for (uint8_t& b : std::span<uint8_t>(out.mutableData(), out.byteSize())) b = b != 0;
    return out;
  }

  uint8_t* data = out.mutableData();
  switch (dtype->code) {
    case DTypeCode::Float32:
      copyRepeated(t.float_data(), count, label, [&](int64_t i, float v) { reinterpret_cast<float*>(data)[i] = v; });
      break;
    case DTypeCode::Float64:
      copyRepeated(t.double_data(), count, label, [&](int64_t i, double v) { reinterpret_cast<double*>(data)[i] = v; });
      break;
    case DTypeCode::Int64:
      copyRepeated(t.int64_data(), count, label, [&](int64_t i, int64_t v) { reinterpret_cast<int64_t*>(data)[i] = v; });
      break;
    case DTypeCode::Int32:
      copyRepeated(t.int32_data(), count, label, [&](int64_t i, int32_t v) { reinterpret_cast<int32_t*>(data)[i] = v; });
      break;
    case DTypeCode::Int16:
      copyRepeated(t.int32_data(), count, label,
                   [&](int64_t i, int32_t v) { reinterpret_cast<int16_t*>(data)[i] = static_cast<int16_t>(v); });
      break;
    case DTypeCode::Int8:
      copyRepeated(t.int32_data(), count, label,
                   [&](int64_t i, int32_t v) { reinterpret_cast<int8_t*>(data)[i] = static_cast<int8_t>(v); });
      break;
    case DTypeCode::UInt8:
      copyRepeated(t.int32_data(), count, label, [&](int64_t i, int32_t v) { data[i] = static_cast<uint8_t>(v); });
      break;
    case DTypeCode::Bool:
      copyRepeated(t.int32_data(), count, label, [&](int64_t i, int32_t v) { data[i] = v != 0; });
      break;
    case DTypeCode::Float16:
      // float16 values travel as their 16-bit patterns in int32_data.
      copyRepeated(t.int32_data(), count, label,
                   [&](int64_t i, int32_t v) { reinterpret_cast<uint16_t*>(data)[i] = static_cast<uint16_t>(v); });
      break;
  }
  return out;
}

}  // namespace passlab::onnx_import

namespace passlab {

OnnxTensorFile readOnnxTensorFile(const std::string& path) {
  auto fail = [&path](const std::string& message) {
    Diagnostic d;
    d.message = path + ": " + message;
    d.rule = "onnx.tensor-file";
    throw DiagnosticError(std::move(d));
  };
  if (std::optional<std::string> why = unreadableFileReason(path)) fail("cannot read file: " + *why);
  std::string bytes = readRegularFile(path);
  onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes)) fail("not a serialized ONNX TensorProto (corrupt or truncated)");
  // Sequence, map and optional values (SequenceProto, OptionalProto) share
  // field numbers with TensorProto and parse as odd tensors: name them.
  bool plausible = !proto.has_segment() && proto.data_type() != onnx::TensorProto::UNDEFINED;
  double elements = 1;
  for (int64_t d : proto.dims()) {
    plausible = plausible && d >= 0;
    elements *= static_cast<double>(d);
  }
  if (!plausible || elements > static_cast<double>(int64_t{1} << 40))
    fail("not a plain TensorProto (sequence, map and optional values are not supported)");
  OnnxTensorFile out;
  out.name = proto.name();
  try {
    std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
    out.data = onnx_import::tensorFromProto(proto, dir);
  } catch (const std::runtime_error& e) {
    fail(e.what());
  }
  return out;
}

}  // namespace passlab
