// Relax spellings of passlab's ops (internal to core/text): the one table
// that says how an op of core/ir/ops.def is written in TVMScript, where the
// name or the attributes differ from Relay's. Ops absent from the table are
// written `R.<relay name>` with Relay's attribute names (which is what Relax
// uses for the elementwise ops, `R.nn.relu`, `R.where`, ...).
#pragma once

#include <string_view>
#include <vector>

#include "core/ir/attrs.h"
#include "core/ir/op.h"

namespace passlab::tvmscript {

/// How one Relax attribute relates to passlab's.
enum class AttrConv : uint8_t {
  Plain,      ///< same value under (possibly) another name
  OutDtype,   ///< Relax "void" is passlab's "" (infer)
  Pad4,       ///< Relax always writes 4 paddings; passlab's 2 are (top/bottom, left/right)
  OutLayout,  ///< Relax writes the input layout where passlab leaves "" (same as input)
  Fixed,      ///< Relax-only, printed as `fixed`; read and ignored (passlab has no such setting)
  AxisList,   ///< passlab's int axis is Relax's one-element axes list
  Positional, ///< printed without keyword, as an argument (R.shape([...]), prim values)
  Must,       ///< Relax-only, printed as `fixed`; another value is refused (passlab has only this one)
  BoolDefault,///< a flag whose Relax default (`fixed`, True/False) is not passlab's: absent in TVMScript means `fixed`
};

/// One attribute of a Relax op, in TVM's order.
struct RelaxAttr {
  std::string_view relax;
  /// passlab's key (empty for Fixed).
  std::string_view key;
  AttrConv conv = AttrConv::Plain;
  /// For Fixed/Must: the printed value; for BoolDefault: Relax's default; for OutLayout: the key of the input
  /// layout; for Plain: what Relax writes where passlab has None (and what
  /// reads back as None).
  std::string_view fixed;
  RelaxAttr(std::string_view r, std::string_view k, AttrConv c = AttrConv::Plain, std::string_view f = {})
      : relax(r), key(k), conv(c), fixed(f) {}
};

/// How one op is written in TVMScript.
struct RelaxOpSpec {
  OpId id;
  /// After the `R.` prefix: "nn.conv2d", "permute_dims".
  std::string_view name;
  std::vector<RelaxAttr> attrs;
};

/// The spelling of op `id` (null: `R.<relay name>`, Relay's attributes).
const RelaxOpSpec* relaxSpecFor(OpId id);
/// The spec whose Relax name is `name` (without `R.`), or null.
const RelaxOpSpec* relaxSpecNamed(std::string_view name);
/// A Relax name of the other direction that passlab does not have, with a hint
/// ("R.nn.gelu" -> "not supported yet"); empty when unknown.
std::string_view relaxUnsupportedHint(std::string_view name);

}  // namespace passlab::tvmscript
