// TVM-style target strings: `hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b -link-params=1`.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/ir/attrs.h"

namespace passlab {

/// A parsed target string: the kind and its `-key=value` / `-key` options.
struct TargetSpec {
  /// "llvm", "hexagon", "c", ...
  std::string kind;
  /// Options in the order written, keys without the leading '-'. Values are typed
  /// from their text: an integer becomes Int, `true`/`false` Bool, a comma-separated
  /// list an Array of strings, anything else a String; a bare `-key` is Bool true.
  AttrDict options;
};

/// Parses a target string. Values may be quoted (`-libs="a b"`). An empty option
/// name (`-=1`, a lone `-`) or a missing kind is a DiagnosticError quoting the text.
TargetSpec parseTarget(std::string_view text);

/// TVM's target kinds (and passlab's aliases host and cpu), sorted.
std::span<const std::string_view> knownTargetKinds();

/// Parses `text` (as parseTarget) and checks its kind against
/// knownTargetKinds(): an unknown kind is a DiagnosticError listing the known ones.
TargetSpec parseKnownTarget(std::string_view text);

/// The option `key` of `target` (with or without leading '-'); the pseudo-key
/// "kind" is the target kind. nullopt when absent.
std::optional<AttrValue> targetOption(const TargetSpec& target, std::string_view key);

}  // namespace passlab
