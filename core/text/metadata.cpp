#include "core/text/metadata.h"

#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_set>

#include "core/ir/functor.h"
#include "core/ir/tir_functor.h"
#include "core/text/json_reader.h"

namespace passlab {

namespace {

using metadata_json::Json;
using metadata_json::JsonReader;

/// A node index written as a JSON number or, in `attrs`, as a string.
size_t nodeIndex(const Json& v, size_t count, const char* what) {
  const std::string& t = v.text;
  if ((v.kind != Json::Kind::Number && v.kind != Json::Kind::String) || t.empty() || t.size() > 18)
    throw MetadataError(std::string("metadata JSON: ") + what + " is not a node index", v.offset);
  size_t n = 0;
  for (char c : t) {
    if (c < '0' || c > '9') throw MetadataError(std::string("metadata JSON: ") + what + " is not a node index", v.offset);
    n = n * 10 + static_cast<size_t>(c - '0');
  }
  if (n >= count)
    throw MetadataError(std::string("metadata JSON: ") + what + " " + t + " is out of range (" + std::to_string(count) +
                            " entries)",
                        v.offset);
  return n;
}

const Json& field(const Json& object, std::string_view key, Json::Kind kind) {
  const Json* v = object.kind == Json::Kind::Object ? object.member(key) : nullptr;
  if (!v || v->kind != kind)
    throw MetadataError("metadata JSON: expected field \"" + std::string(key) + "\"", object.offset);
  return *v;
}

std::string typeKey(const Json& node) {
  const Json* t = node.kind == Json::Kind::Object ? node.member("type_key") : nullptr;
  return t && t->kind == Json::Kind::String ? t->text : std::string();
}

/// The string a map key node holds (runtime.String: repr_str, or a "data" attr).
std::string stringNodeValue(const Json& node) {
  if (const Json* r = node.member("repr_str"); r && r->kind == Json::Kind::String) return r->text;
  if (const Json* a = node.member("attrs"))
    if (const Json* d = a->member("data"); d && d->kind == Json::Kind::String) return d->text;
  throw MetadataError("metadata JSON: a map key is not a string", node.offset);
}

template <class T>
T readLE(std::string_view bytes, size_t& at) {
  if (bytes.size() - at < sizeof(T) || at > bytes.size()) throw MetadataError("NDArray data is truncated", 0);
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  at += sizeof(T);
  return v;
}

/// The node an attribute names (its value is a node index), or null for a
/// null reference or anything that is not an index.
const Json* attrNode(const Json& nodes, const Json& node, std::string_view key) {
  const Json* attrs = node.member("attrs");
  const Json* v = attrs ? attrs->member(key) : nullptr;
  if (!v || v->kind != Json::Kind::String || v->text.empty() || v->text.size() > 18) return nullptr;
  for (char c : v->text)
    if (c < '0' || c > '9') return nullptr;
  size_t i = std::stoull(v->text);
  return i < nodes.items.size() ? &nodes.items[i] : nullptr;
}

/// An integer attribute written as a decimal string ("2"), or `fallback`.
int64_t attrInt(const Json& node, std::string_view key, int64_t fallback) {
  const Json* attrs = node.member("attrs");
  const Json* v = attrs ? attrs->member(key) : nullptr;
  if (!v || (v->kind != Json::Kind::String && v->kind != Json::Kind::Number) || v->text.empty() || v->text.size() > 9)
    return fallback;
  int64_t n = 0;
  bool negative = v->text[0] == '-';
  for (size_t i = negative ? 1 : 0; i < v->text.size(); ++i) {
    if (v->text[i] < '0' || v->text[i] > '9') return fallback;
    n = n * 10 + (v->text[i] - '0');
  }
  return negative ? -n : n;
}

/// A runtime.String node's text, or "" for anything else.
std::string stringNodeOrEmpty(const Json* node) {
  if (!node) return "";
  if (const Json* r = node->member("repr_str"); r && r->kind == Json::Kind::String) return r->text;
  return "";
}

/// A VirtualDevice node: device_type_int, virtual_device_id, memory_scope and
/// the target's kind name (with -mcpu when the target's attrs give one).
VirtualDevice decodeVirtualDevice(const Json& nodes, const Json& node) {
  if (typeKey(node) != "VirtualDevice")
    throw MetadataError("metadata JSON: a VirtualDevice entry is a '" + typeKey(node) + "' node", node.offset);
  VirtualDevice d;
  d.deviceType = static_cast<int>(attrInt(node, "device_type_int", device_type::kUnknown));
  d.virtualDeviceId = static_cast<int>(attrInt(node, "virtual_device_id", 0));
  d.memoryScope = stringNodeOrEmpty(attrNode(nodes, node, "memory_scope"));
  if (const Json* target = attrNode(nodes, node, "target"); target && typeKey(*target) == "Target") {
    const Json* kind = attrNode(nodes, *target, "kind");
    d.target = stringNodeOrEmpty(kind);
    if (d.target.empty() && kind)
      if (const Json* name = kind->member("attrs") ? kind->member("attrs")->member("name") : nullptr;
          name && name->kind == Json::Kind::String)
        d.target = name->text;
  }
  if (d.deviceType < 0) d.deviceType = device_type::kUnknown;
  return d;
}

}  // namespace

std::string decodeBase64(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  int bits = 0;
  bool padding = false;
  for (char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+') v = 62;
    else if (c == '/') v = 63;
    else if (c == '=') {
      padding = true;
      continue;
    } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    } else {
      throw MetadataError(std::string("bad base64 character '") + c + "'", 0);
    }
    if (padding) throw MetadataError("base64 data after '=' padding", 0);
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  return out;
}

NDArray decodeTvmNDArray(std::string_view bytes) {
  constexpr uint64_t kMagic = 0xDD5E40F096B4A13Full;
  size_t at = 0;
  if (readLE<uint64_t>(bytes, at) != kMagic) throw MetadataError("NDArray data does not start with TVM's NDArray magic number", 0);
  readLE<uint64_t>(bytes, at);  // reserved
  readLE<int32_t>(bytes, at);   // device type: the data is plain host bytes whatever it says
  readLE<int32_t>(bytes, at);   // device id
  int32_t ndim = readLE<int32_t>(bytes, at);
  uint8_t code = readLE<uint8_t>(bytes, at);
  uint8_t bits = readLE<uint8_t>(bytes, at);
  uint16_t lanes = readLE<uint16_t>(bytes, at);
  if (ndim < 0 || ndim > 32) throw MetadataError("NDArray has " + std::to_string(ndim) + " dimensions", 0);
  std::optional<DataType> dtype;
  // DLPack codes: 0 int, 1 uint, 2 float. TVM's bool is uint1, stored a byte per element.
  if (lanes == 1) {
    if (code == 0 && bits == 8) dtype = DataType(DTypeCode::Int8);
    if (code == 0 && bits == 16) dtype = DataType(DTypeCode::Int16);
    if (code == 0 && bits == 32) dtype = DataType(DTypeCode::Int32);
    if (code == 0 && bits == 64) dtype = DataType(DTypeCode::Int64);
    if (code == 1 && bits == 8) dtype = DataType(DTypeCode::UInt8);
    if (code == 1 && bits == 1) dtype = DataType(DTypeCode::Bool);
    if (code == 2 && bits == 16) dtype = DataType(DTypeCode::Float16);
    if (code == 2 && bits == 32) dtype = DataType(DTypeCode::Float32);
    if (code == 2 && bits == 64) dtype = DataType(DTypeCode::Float64);
  }
  if (!dtype)
    throw MetadataError("NDArray has an unsupported data type (DLPack code " + std::to_string(code) + ", " +
                            std::to_string(bits) + " bits, " + std::to_string(lanes) + " lanes)",
                        0);
  std::vector<int64_t> shape;
  uint64_t elements = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t d = readLE<int64_t>(bytes, at);
    if (d < 0) throw MetadataError("NDArray has a negative dimension", 0);
    if (d != 0 && elements > kMaxMetadataArrayBytes / static_cast<uint64_t>(d))
      throw MetadataError("NDArray is larger than " + std::to_string(kMaxMetadataArrayBytes) + " bytes", 0);
    elements *= static_cast<uint64_t>(d);
    shape.push_back(d);
  }
  const uint64_t expected = elements * dtype->bytes();
  if (expected > kMaxMetadataArrayBytes)
    throw MetadataError("NDArray is larger than " + std::to_string(kMaxMetadataArrayBytes) + " bytes", 0);
  int64_t size = readLE<int64_t>(bytes, at);
  if (size < 0 || static_cast<uint64_t>(size) != expected)
    throw MetadataError("NDArray declares " + std::to_string(size) + " data bytes but its shape and type need " +
                            std::to_string(expected),
                        0);
  if (bytes.size() - at < expected) throw MetadataError("NDArray data is truncated", 0);
  NDArray a(*dtype, std::move(shape));
  if (expected) std::memcpy(a.mutableData(), bytes.data() + at, expected);
  if (dtype->isBool())
    for (uint8_t* p = a.mutableData(), *end = p + expected; p != end; ++p) *p = *p != 0;
  return a;
}

TvmMetadata decodeTvmMetadata(std::string_view text) {
  Json doc = JsonReader(text).parseDocument();
  const Json& nodes = field(doc, "nodes", Json::Kind::Array);
  const Json* rootField = doc.member("root");
  if (!rootField) throw MetadataError("metadata JSON: expected field \"root\"", doc.offset);
  const Json* arrays = doc.member("b64ndarrays");
  const size_t count = nodes.items.size();
  const Json& root = nodes.items[nodeIndex(*rootField, count, "root")];
  std::string rootKey = typeKey(root);
  if (rootKey != "Map" && rootKey != "StrMap")
    throw MetadataError("metadata JSON: the root node is a '" + rootKey + "', expected a Map", root.offset);

  // Map entries: with "keys", data[i] is the value of keys[i]; without, data
  // alternates key node, value node.
  std::vector<std::pair<std::string, const Json*>> entries;
  const Json* data = root.member("data");
  const Json* keys = root.member("keys");
  if (data && data->kind == Json::Kind::Array) {
    if (keys && keys->kind == Json::Kind::Array) {
      if (keys->items.size() != data->items.size())
        throw MetadataError("metadata JSON: the map has different numbers of keys and values", root.offset);
      for (size_t i = 0; i < keys->items.size(); ++i) {
        if (keys->items[i].kind != Json::Kind::String)
          throw MetadataError("metadata JSON: a map key is not a string", keys->items[i].offset);
        entries.emplace_back(keys->items[i].text, &nodes.items[nodeIndex(data->items[i], count, "map value")]);
      }
    } else {
      if (data->items.size() % 2)
        throw MetadataError("metadata JSON: the map has a key without a value", root.offset);
      for (size_t i = 0; i < data->items.size(); i += 2)
        entries.emplace_back(stringNodeValue(nodes.items[nodeIndex(data->items[i], count, "map key")]),
                             &nodes.items[nodeIndex(data->items[i + 1], count, "map value")]);
    }
  }

  TvmMetadata result;
  for (const auto& [kind, arrayNode] : entries) {
    const Json* elements = arrayNode->member("data");
    if (typeKey(*arrayNode) != "Array" || !elements || elements->kind != Json::Kind::Array)
      throw MetadataError("metadata JSON: the entry '" + kind + "' is not an Array", arrayNode->offset);
    if (kind == kVirtualDeviceKind) {
      for (const Json& item : elements->items)
        result.virtualDevices.push_back(decodeVirtualDevice(nodes, nodes.items[nodeIndex(item, count, "virtual device")]));
      continue;
    }
    if (kind != "relay.Constant") {
      result.otherKinds[kind] = elements->items.size();
      continue;
    }
    for (const Json& item : elements->items) {
      const Json& node = nodes.items[nodeIndex(item, count, "constant")];
      if (typeKey(node) != "relay.Constant")
        throw MetadataError("metadata JSON: a relay.Constant entry is a '" + typeKey(node) + "' node", node.offset);
      const Json& attrs = field(node, "attrs", Json::Kind::Object);
      const Json* dataIndex = attrs.member("data");
      if (!dataIndex) throw MetadataError("metadata JSON: a relay.Constant has no \"data\"", node.offset);
      if (!arrays || arrays->kind != Json::Kind::Array)
        throw MetadataError("metadata JSON: expected field \"b64ndarrays\"", doc.offset);
      const Json& encoded = arrays->items[nodeIndex(*dataIndex, arrays->items.size(), "b64ndarrays index")];
      if (encoded.kind != Json::Kind::String)
        throw MetadataError("metadata JSON: a b64ndarrays entry is not a string", encoded.offset);
      try {
        result.constants.push_back(decodeTvmNDArray(decodeBase64(encoded.text)));
      } catch (const MetadataError& e) {
        throw MetadataError(std::string("metadata constant ") + std::to_string(result.constants.size()) + ": " + e.what(),
                            encoded.offset);
      }
    }
  }
  return result;
}

std::string encodeBase64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 | uint8_t(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out += kAlphabet[(v >> shift) & 63];
  }
  if (size_t rest = bytes.size() - i) {
    uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | (rest == 2 ? uint32_t(uint8_t(bytes[i + 1])) << 8 : 0);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string encodeTvmNDArray(const NDArray& data) {
  std::string out;
  auto put = [&out](auto v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(uint64_t(0xDD5E40F096B4A13Full));
  put(uint64_t(0));
  put(int32_t(1));  // kDLCPU
  put(int32_t(0));
  put(int32_t(data.ndim()));
  DataType t = data.dtype();
  // DLPack: 0 int, 1 uint, 2 float; TVM's bool is uint1.
  uint8_t code = t.isFloat() ? 2 : t.isBool() || t.isUnsigned() ? 1 : 0;
  put(code);
  put(uint8_t(t.isBool() ? 1 : t.bits()));
  put(uint16_t(1));
  for (int64_t d : data.shape()) put(d);
  put(int64_t(data.byteSize()));
  if (data.byteSize()) out.append(reinterpret_cast<const char*>(data.rawData()), data.byteSize());
  return out;
}

std::string encodeTvmMetadata(const std::vector<NDArray>& constants, std::string_view kind) {
  // Node 0 is the null node, 1 the root map, 2 its relay.Constant array, then
  // one relay.Constant node per array; constant i holds b64ndarrays[i].
  const size_t n = constants.size();
  std::string out = "{\n  \"root\": 1,\n  \"nodes\": [\n    {\n      \"type_key\": \"\"\n    },\n";
  out += "    {\n      \"type_key\": \"Map\",\n      \"keys\": [\n        \"" + std::string(kind) + "\"\n      ],\n";
  out += "      \"data\": [\n        2\n      ]\n    },\n";
  out += "    {\n      \"type_key\": \"Array\",\n      \"data\": [";
  for (size_t i = 0; i < n; ++i) out += (i ? ",\n        " : "\n        ") + std::to_string(3 + i);
  out += n ? "\n      ]\n    }" : "]\n    }";
  for (size_t i = 0; i < n; ++i)
    out += ",\n    {\n      \"type_key\": \"" + std::string(kind) + "\",\n      \"attrs\": {\n        \"_checked_type_\": \"0\",\n"
           "        \"data\": \"" + std::to_string(i) + "\",\n        \"span\": \"0\",\n        \"virtual_device_\": \"0\"\n"
           "      }\n    }";
  out += "\n  ],\n  \"b64ndarrays\": [";
  for (size_t i = 0; i < n; ++i) out += (i ? ",\n    \"" : "\n    \"") + encodeBase64(encodeTvmNDArray(constants[i])) + "\"";
  out += n ? "\n  ],\n" : "],\n";
  out += "  \"attrs\": {\n    \"tvm_version\": \"0.14.0\"\n  }\n}\n";
  return out;
}

size_t findMetadataSection(std::string_view text) {
  constexpr std::string_view kHeader = "#[metadata]";
  for (size_t at = text.find(kHeader); at != std::string_view::npos; at = text.find(kHeader, at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    size_t p = at + kHeader.size();
    while (p < text.size() && (text[p] == ' ' || text[p] == '\n' || text[p] == '\r' || text[p] == '\t')) ++p;
    if (p < text.size() && text[p] == '{') return at;
  }
  return std::string_view::npos;
}

PlaceholderSummary summarizePlaceholders(const IRModule& mod) {
  PlaceholderSummary summary;
  if (!mod) return summary;
  std::unordered_set<int32_t> indices;
  for (const auto& [name, fn] : mod->functions) {
    if (const auto* prim = as<PrimFuncNode>(fn)) {
      // Lowered constants (link-params) live in allocate_const statements.
      tir::preOrderVisit(
          prim->body,
          [&](const tir::Stmt& s) {
            if (const auto* a = tir::as<tir::AllocateConstNode>(s); a && a->data.fromPlaceholder()) ++summary.derived;
            return true;
          },
          [](const tir::PrimExpr&) { return false; });
      continue;
    }
    if (!as<FunctionNode>(fn)) continue;
    postOrderVisit(fn, [&](const Expr& e) {
      const auto* c = as<ConstantNode>(e);
      if (!c) return;
      if (c->data.isPlaceholder())
        indices.insert(c->data.placeholderIndex());
      else if (c->data.fromPlaceholder())
        ++summary.derived;
    });
  }
  summary.placeholders = indices.size();
  return summary;
}

}  // namespace passlab
