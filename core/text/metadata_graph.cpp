#include "core/text/metadata_graph.h"

#include <cstdio>
#include <utility>

#include "core/text/json_reader.h"

namespace passlab {

namespace {

using metadata_json::Json;
using metadata_json::JsonReader;

// ---- Writing ---------------------------------------------------------------

/// A JSON value to write: what ToJSONGraph produces needs only integers,
/// strings, arrays and objects (members in insertion order, as ffi's Map keeps
/// them for these small objects).
struct OutJson {
  enum class Kind : uint8_t { Int, String, Array, Object };
  Kind kind = Kind::Int;
  int64_t integer = 0;
  std::string text;
  std::vector<OutJson> items;
  /// Object members: keys[i] names values[i] (a vector of pairs would need
  /// OutJson complete, which clang 14's library insists on).
  std::vector<std::string> keys;
  std::vector<OutJson> values;

  static OutJson number(int64_t v) {
    OutJson j;
    j.integer = v;
    return j;
  }
  static OutJson string(std::string s) {
    OutJson j;
    j.kind = Kind::String;
    j.text = std::move(s);
    return j;
  }
  static OutJson array(std::vector<OutJson> items) {
    OutJson j;
    j.kind = Kind::Array;
    j.items = std::move(items);
    return j;
  }
  static OutJson object(std::vector<std::string> keys, std::vector<OutJson> values) {
    OutJson j;
    j.kind = Kind::Object;
    j.keys = std::move(keys);
    j.values = std::move(values);
    return j;
  }
};

void writeJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

/// tvm-ffi's json::Stringify with an indent: every array element and object
/// member on its own line, `"key": value`, the closing bracket on its own line
/// (also for an empty container).
void writeJson(std::string& out, const OutJson& v, int indent) {
  auto newline = [&out](int n) {
    out += '\n';
    out.append(static_cast<size_t>(n), ' ');
  };
  switch (v.kind) {
    case OutJson::Kind::Int: out += std::to_string(v.integer); return;
    case OutJson::Kind::String: writeJsonString(out, v.text); return;
    case OutJson::Kind::Array:
      out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        newline(indent + 2);
        writeJson(out, v.items[i], indent + 2);
      }
      newline(indent);
      out += ']';
      return;
    case OutJson::Kind::Object:
      out += '{';
      for (size_t i = 0; i < v.keys.size(); ++i) {
        if (i) out += ',';
        newline(indent + 2);
        writeJsonString(out, v.keys[i]);
        out += ": ";
        writeJson(out, v.values[i], indent + 2);
      }
      newline(indent);
      out += '}';
      return;
  }
}

/// Builds the node array the way ObjectGraphSerializer does: a node is
/// appended after its children (post-order), and a value met again reuses its
/// node (None, equal strings; here also equal PrimTypes, which in TVM are
/// separate objects unless shared).
class GraphWriter {
 public:
  int64_t none() {
    if (none_ < 0) none_ = add(OutJson::object({"type"}, {OutJson::string("None")}));
    return none_;
  }

  int64_t string(const std::string& s) {
    auto it = strings_.find(s);
    if (it != strings_.end()) return it->second;
    int64_t i = add(node("ffi.String", OutJson::string(s)));
    strings_.emplace(s, i);
    return i;
  }

  /// relax.expr.Constant {span, ty, data} with its relax.TensorType.
  int64_t constant(const NDArray& data) {
    int64_t span = none();
    std::vector<OutJson> dims;
    for (int64_t d : data.shape()) dims.push_back(OutJson::number(intImm(d)));
    const auto ndim = static_cast<int64_t>(data.shape().size());
    int64_t values = add(node("ffi.Array", OutJson::array(std::move(dims))));
    int64_t shapeType = add(node("relax.ShapeType", OutJson::object({"span", "values", "ndim"},
        {OutJson::number(span), OutJson::number(values), OutJson::number(ndim)})));
    int64_t shape = add(node("relax.expr.ShapeExpr", OutJson::object({"span", "ty", "values"},
        {OutJson::number(span), OutJson::number(shapeType), OutJson::number(values)})));
    int64_t dtype = primType(std::string(data.dtype().name()));
    int64_t vdevice = none();
    int64_t type = add(node("relax.TensorType", OutJson::object({"span", "shape", "dtype", "vdevice", "ndim"},
        {OutJson::number(span), OutJson::number(shape), OutJson::number(dtype), OutJson::number(vdevice), OutJson::number(ndim)})));
    int64_t tensor = add(node("ffi.Tensor", OutJson::string(encodeBase64(encodeTvmNDArray(data)))));
    return add(node("relax.expr.Constant", OutJson::object({"span", "ty", "data"},
        {OutJson::number(span), OutJson::number(type), OutJson::number(tensor)})));
  }

  int64_t add(OutJson node) {
    nodes_.push_back(std::move(node));
    return static_cast<int64_t>(nodes_.size()) - 1;
  }

  static OutJson node(std::string_view type, OutJson data) {
    return OutJson::object({"type", "data"}, {OutJson::string(std::string(type)), std::move(data)});
  }

  std::vector<OutJson> take() { return std::move(nodes_); }

 private:
  int64_t primType(const std::string& dtype) {
    auto it = primTypes_.find(dtype);
    if (it != primTypes_.end()) return it->second;
    int64_t span = none();
    int64_t i = add(node("ir.PrimType", OutJson::object({"span", "dtype"},
        {OutJson::number(span), OutJson::string(dtype)})));
    primTypes_.emplace(dtype, i);
    return i;
  }

  int64_t intImm(int64_t value) {
    int64_t span = none();
    int64_t ty = primType("int64");
    return add(node("ir.IntImm", OutJson::object({"span", "ty", "value"},
        {OutJson::number(span), OutJson::number(ty), OutJson::number(value)})));
  }

  std::vector<OutJson> nodes_;
  int64_t none_ = -1;
  std::map<std::string, int64_t> strings_;
  std::map<std::string, int64_t> primTypes_;
};

// ---- Reading ---------------------------------------------------------------

[[noreturn]] void fail(const std::string& message, size_t offset) {
  throw MetadataError("metadata JSON graph: " + message, offset);
}

const std::string& typeOf(const Json& node) {
  static const std::string kNone;
  const Json* t = node.member("type");
  return t && t->kind == Json::Kind::String ? t->text : kNone;
}

/// The node a JSON number refers to, checked.
const Json& nodeAt(const Json& nodes, const Json& index, const char* what) {
  const std::string& t = index.text;
  if (index.kind != Json::Kind::Number || t.empty() || t.size() > 18) fail(std::string(what) + " is not a node index", index.offset);
  size_t n = 0;
  for (char c : t) {
    if (c < '0' || c > '9') fail(std::string(what) + " is not a node index", index.offset);
    n = n * 10 + static_cast<size_t>(c - '0');
  }
  if (n >= nodes.items.size())
    fail(std::string(what) + " " + t + " is out of range (" + std::to_string(nodes.items.size()) + " nodes)", index.offset);
  const Json& node = nodes.items[n];
  if (node.kind != Json::Kind::Object || typeOf(node).empty()) fail("node " + t + " has no \"type\"", node.offset);
  return node;
}

const Json& dataOf(const Json& node, Json::Kind kind, const char* what) {
  const Json* d = node.member("data");
  if (!d || d->kind != kind) fail("a " + typeOf(node) + " node needs " + what + " as its \"data\"", node.offset);
  return *d;
}

NDArray decodeConstant(const Json& nodes, const Json& node, size_t position) {
  const Json& fields = dataOf(node, Json::Kind::Object, "an object of fields");
  const Json* dataIndex = fields.member("data");
  if (!dataIndex) fail("a relax.expr.Constant has no field \"data\"", fields.offset);
  const Json& tensor = nodeAt(nodes, *dataIndex, "a constant's data");
  if (typeOf(tensor) != "ffi.Tensor")
    fail("a relax.expr.Constant's data is a '" + typeOf(tensor) + "' node, not an ffi.Tensor", tensor.offset);
  const Json& encoded = dataOf(tensor, Json::Kind::String, "a base64 string");
  try {
    return decodeTvmNDArray(decodeBase64(encoded.text));
  } catch (const MetadataError& e) {
    throw MetadataError("metadata constant " + std::to_string(position) + ": " + e.what(), encoded.offset);
  }
}

}  // namespace

ScriptMetadata decodeScriptMetadata(std::string_view text) {
  Json doc = JsonReader(text).parseDocument();
  if (doc.kind != Json::Kind::Object) fail("expected a JSON object", doc.offset);
  const Json* nodes = doc.member("nodes");
  const Json* rootIndex = doc.member("root_index");
  if (!nodes || !rootIndex) {
    if (doc.member("attrs") || doc.member("root") || doc.member("b64ndarrays"))
      fail("this is TVM's legacy JSON format (save_json before tvm-ffi), which TVM 0.26's load_json refuses too "
           "(\"Legacy json graph format detected\"); write it with a current TVM, or load the Relay text with its "
           "#[metadata] section",
           doc.offset);
    fail("expected the fields \"root_index\" and \"nodes\"", doc.offset);
  }
  if (nodes->kind != Json::Kind::Array) fail("\"nodes\" is not an array", nodes->offset);
  const Json& root = nodeAt(*nodes, *rootIndex, "root_index");
  const std::string& rootType = typeOf(root);
  if (rootType != "ffi.Map" && rootType != "ffi.Dict")
    fail("the root is a '" + rootType + "' node; a metadata table is an ffi.Map", root.offset);
  const Json& entries = dataOf(root, Json::Kind::Array, "an array of key and value indices");
  if (entries.items.size() % 2) fail("the map has a key without a value", entries.offset);
  ScriptMetadata result;
  for (size_t i = 0; i < entries.items.size(); i += 2) {
    const Json& keyNode = nodeAt(*nodes, entries.items[i], "a map key");
    if (typeOf(keyNode) != "ffi.String") fail("a map key is a '" + typeOf(keyNode) + "' node, not an ffi.String", keyNode.offset);
    const std::string& key = dataOf(keyNode, Json::Kind::String, "a string").text;
    const Json& value = nodeAt(*nodes, entries.items[i + 1], "a map value");
    const std::string& valueType = typeOf(value);
    const bool sequence = valueType == "ffi.Array" || valueType == "ffi.List";
    if (key != "relax.expr.Constant") {
      const Json* d = value.member("data");
      result.otherKinds[key] = sequence && d && d->kind == Json::Kind::Array ? d->items.size() : 0;
      continue;
    }
    if (!sequence) fail("the entry \"relax.expr.Constant\" is a '" + valueType + "' node, not an ffi.Array", value.offset);
    const Json& elements = dataOf(value, Json::Kind::Array, "an array of node indices");
    for (const Json& item : elements.items) {
      const Json& node = nodeAt(*nodes, item, "a constant");
      if (typeOf(node) == "None") {
        result.constants.emplace_back();
        continue;
      }
      if (typeOf(node) != "relax.expr.Constant")
        fail("a relax.expr.Constant entry is a '" + typeOf(node) + "' node", node.offset);
      result.constants.push_back(decodeConstant(*nodes, node, result.constants.size()));
    }
  }
  return result;
}

std::string encodeScriptMetadata(const std::vector<NDArray>& constants) {
  GraphWriter graph;
  int64_t key = graph.string("relax.expr.Constant");
  std::vector<OutJson> elements;
  for (const NDArray& c : constants) elements.push_back(OutJson::number(c.defined() ? graph.constant(c) : graph.none()));
  int64_t array = graph.add(GraphWriter::node("ffi.Array", OutJson::array(std::move(elements))));
  int64_t map = graph.add(GraphWriter::node("ffi.Map", OutJson::array({OutJson::number(key), OutJson::number(array)})));
  OutJson doc = OutJson::object({"root_index", "nodes", "metadata"},
      {OutJson::number(map), OutJson::array(graph.take()), OutJson::object({"tvm_version"}, {OutJson::string(std::string(kScriptMetadataTvmVersion))})});
  std::string out;
  writeJson(out, doc, 0);
  return out;
}

std::string scriptMetadataStatement(const std::vector<NDArray>& constants) {
  std::string json = encodeScriptMetadata(constants);
  std::string out = "metadata = tvm.ir.load_json(\"\"\"";
  out.reserve(json.size() + 64);
  // support::StrEscape(json, false, false): quotes and backslashes escaped, newlines kept.
  for (char c : json) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\"\"\")\n";
  return out;
}

}  // namespace passlab
