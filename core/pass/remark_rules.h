// The enumerators of RemarkRule (core/pass/remark.h), one per line of
// core/pass/remarks.def. Included by the passes that emit remarks and by code
// that names a rule; everything else sees the opaque enum and rebuilds less.
#pragma once

#include "core/pass/remark.h"

namespace passlab {

/// Every rule id a pass may give a remark (core/pass/remarks.def).
enum class RemarkRule : uint16_t {
#define PASSLAB_REMARK_RULE(id, name, pass, kind, description) id,
#include "core/pass/remarks.def"
#undef PASSLAB_REMARK_RULE
};

}  // namespace passlab
