// KillAfterLastUse: TVM's relax.transform.KillAfterLastUse.
#pragma once

#include "core/pass/pass.h"

namespace passlab {

/// The KillAfterLastUse pass, as TVM runs it on each Relax function:
///  1. trivial bindings go first (`y = x`, and `y = R.match_cast(x, T)` when
///     T is x's type): uses of y read x (TVM's CanonicalizeBindings, so the
///     VM does not keep one register alive through two names);
///  2. after the binding that uses a variable for the last time, a kill is
///     inserted: `R.memory.kill_tensor(t)` for a tensor, then
///     `R.memory.kill_storage(s)` for a storage from R.memory/R.vm.alloc_storage,
///     then `R.vm.kill_object(o)` for any other value the VM keeps in a
///     register; each group in binding order.
/// Nothing is killed that the function returns, that is already killed,
/// that is never used, that is bound to a constant, or whose type is a
/// function, R.Shape or R.Prim (not in a VM register). Uses inside an if or a
/// nested function count at the binding that holds it. Parameters are never
/// killed.
PassPtr createKillAfterLastUsePass();

}  // namespace passlab
