// TVMScript's metadata statement: what TVM's `mod.script(show_meta=True)`
// writes before the module,
//
//   metadata = tvm.ir.load_json("""{ "root_index": ..., "nodes": [...] }""")
//
// in tvm-ffi's JSON graph format (ffi::ToJSONGraph): a flat array of nodes
// `{"type": <type key>, "data": ...}` where objects refer to other nodes by
// index, children before parents. The root is an ffi.Map from kind
// ("relax.expr.Constant") to an ffi.Array of nodes; a relax.expr.Constant's
// fields are `span`, `ty` (its relax.TensorType) and `data` (an ffi.Tensor
// whose data is TVM's binary tensor serialisation, base64-encoded).
//
// The reader understands only the nodes on the path from the root to the
// tensors (ffi.Map/ffi.Dict, ffi.String keys, ffi.Array/ffi.List,
// relax.expr.Constant, ffi.Tensor, None); everything else is skipped (a
// Constant's `ty` is not read: the tensor's own header gives its dtype and
// shape). Its input is untrusted (fuzz/metadata_fuzzer.cpp).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/ndarray.h"
#include "core/text/metadata.h"

namespace passlab {

/// The decoded metadata statement.
struct ScriptMetadata {
  /// `metadata["relax.expr.Constant"][N]` is constants[N]. An undefined entry
  /// (a None node: what passlab writes for a placeholder constant, which has
  /// no data) loads as a placeholder of the annotated type.
  std::vector<NDArray> constants;
  /// Other kinds the map holds and how many entries each: references to them
  /// are refused by name.
  std::map<std::string, size_t> otherKinds;
};

/// The TVM version passlab writes into the graph's "metadata" field.
inline constexpr std::string_view kScriptMetadataTvmVersion = "0.26.0";

/// Decodes the JSON text of the statement (the string load_json is given,
/// unescaped). Throws MetadataError with the byte offset of the problem in
/// `json`; TVM's legacy save_json format is refused (TVM 0.26's load_json
/// refuses it too).
ScriptMetadata decodeScriptMetadata(std::string_view json);

/// The JSON graph of `{"relax.expr.Constant": constants}` as tvm-ffi's
/// ToJSONGraph writes it with indent 2 (undefined entries as None nodes).
std::string encodeScriptMetadata(const std::vector<NDArray>& constants);

/// The whole statement TVM prints before a module with show_meta=True: the
/// JSON escaped for a triple-quoted Python string (`"` and `\` escaped,
/// newlines kept), ending in a newline.
std::string scriptMetadataStatement(const std::vector<NDArray>& constants);

}  // namespace passlab
