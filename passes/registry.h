// The built-in passes and pipelines. Each pass declares itself in its own file
// (a PassRegistrar, core/pass/registry.h); this fills a registry from those
// declarations and adds the named pipelines (passes/build_pipeline.h).
#pragma once

#include "core/pass/registry.h"

namespace passlab {

/// Adds every built-in pass to `registry` (and their config keys to
/// ConfigRegistry::global()), then the built-in named pipelines. Call once per
/// registry.
void registerBuiltinPasses(PassRegistry& registry);

}  // namespace passlab
