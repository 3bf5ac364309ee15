// MergeCompilerRegions: joins adjacent compiler regions of the same codegen.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// TVM's MergeCompilerRegions over the region representation of
/// passes/byoc_util.h. A region whose argument is another region of the same
/// codegen used by nothing else absorbs it: the producer's body takes the
/// place of the consumer's parameter and the producer's parameters join the
/// consumer's (one parameter per distinct argument). Regions therefore grow
/// along single-use producer→consumer edges and always have one output, so a
/// merge can never create a cycle through an op left to the main compiler.
/// A producer with several users stays a region of its own (TVM would merge it
/// too and give the region several outputs). Skipped functions are recorded;
/// results are typed; functions without regions to merge keep their identity.
PassPtr createMergeCompilerRegionsPass();

}  // namespace passlab
