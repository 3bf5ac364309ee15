// The one table of built-in passes: each pass with its PassInfo, options and
// config keys. The faces fill their PassRegistry from here.
#pragma once

#include <string_view>

#include "core/pass/registry.h"

namespace passlab {

/// Adds every built-in pass to `registry` (and their config keys to
/// ConfigRegistry::global()). Call once per registry.
void registerBuiltinPasses(PassRegistry& registry);

/// The PassInfo of a built-in pass as registered; the passes' info() return it,
/// so the table is the single source of truth. Throws std::out_of_range for a
/// name that is not built in.
const PassInfo& builtinPassInfo(std::string_view name);

}  // namespace passlab
