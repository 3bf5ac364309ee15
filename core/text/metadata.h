// TVM's metadata section: what `astext(show_meta_data=True)` appends after a
// module as `#[metadata]` followed by JSON (tvm.ir.save_json of a map from
// kind to array of nodes). Only the constants are read: each relay.Constant
// node names an entry of `b64ndarrays`, an NDArray in TVM's binary
// serialisation, base64-encoded. Virtual devices (the `VirtualDevice` kind
// that device planning prints) are read too. Everything here treats its input as
// untrusted (it is fuzzed by fuzz/metadata_fuzzer.cpp).
#pragma once

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/module.h"
#include "core/ir/ndarray.h"
#include "core/ir/virtual_device.h"

namespace passlab {

/// A malformed metadata section. `offset` is the byte offset into the JSON
/// text where the problem was found (0 when it concerns the whole section).
class MetadataError : public std::runtime_error {
 public:
  MetadataError(const std::string& message, size_t offset) : std::runtime_error(message), offset_(offset) {}
  size_t offset() const { return offset_; }

 private:
  size_t offset_;
};

/// The decoded section.
struct TvmMetadata {
  /// `meta[relay.Constant][N]` is constants[N].
  std::vector<NDArray> constants;
  /// `meta[VirtualDevice][N]` is virtualDevices[N] (device type, id, target
  /// kind and memory scope; a target is kept as its kind name plus -mcpu).
  std::vector<VirtualDevice> virtualDevices;
  /// Other kinds the section holds (attributes, virtual devices, ...) and how
  /// many nodes of each: references to them are refused by name.
  std::map<std::string, size_t> otherKinds;
};

/// Largest NDArray (in bytes) a metadata section may hold.
inline constexpr size_t kMaxMetadataArrayBytes = size_t(1) << 30;

/// Decodes the JSON of a metadata section. Throws MetadataError.
TvmMetadata decodeTvmMetadata(std::string_view json);

/// Decodes one NDArray in TVM's binary format (NDArray::Save: magic, reserved,
/// device, ndim, dtype, shape, byte size, data). Throws MetadataError (offset 0).
NDArray decodeTvmNDArray(std::string_view bytes);

/// Standard base64 (padding optional, whitespace ignored). Throws MetadataError.
std::string decodeBase64(std::string_view text);

/// Standard base64 with padding (the inverse of decodeBase64).
std::string encodeBase64(std::string_view bytes);

/// One NDArray in TVM's binary format (the inverse of decodeTvmNDArray); bool
/// is written as TVM's uint1, a byte per element.
std::string encodeTvmNDArray(const NDArray& data);

/// The JSON of a metadata section holding `constants` as its array of `kind`
/// (`meta[relay.Constant][N]` is constants[N]; TVMScript's is
/// "relax.expr.Constant"), as TVM's save_json writes it, so decodeTvmMetadata
/// (for relay.Constant) and TVM's load_json both read it back. Every entry
/// must be defined.
std::string encodeTvmMetadata(const std::vector<NDArray>& constants, std::string_view kind = "relay.Constant");

/// The offset of a `#[metadata]` line in module text (at the start of a line and
/// followed, after white space, by '{'), or npos.
size_t findMetadataSection(std::string_view text);

/// Placeholder constants in a module (see NDArray::placeholder).
struct PlaceholderSummary {
  /// Distinct `meta[relay.Constant][N]` placeholders in graph-level functions.
  size_t placeholders = 0;
  /// Other constants computed from placeholder data (FoldConstant's results).
  size_t derived = 0;
  bool any() const { return placeholders + derived > 0; }
};

/// Counts the placeholder and placeholder-derived constants of `mod`.
PlaceholderSummary summarizePlaceholders(const IRModule& mod);

}  // namespace passlab
