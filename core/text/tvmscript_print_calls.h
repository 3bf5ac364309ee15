// The call forms of TVMScript whose text is not `R.op(args, attrs)`: the
// VM-lowering builtins, packed calls and the destination-passing calls
// (internal to the TVMScript printer: core/text/tvmscript_print*.cpp).
// `mainSpelling` writes TVM main's names (ty_args=, out_ty=, T.int64(n)).
#pragma once

#include <string>
#include <vector>

#include "core/ir/expr.h"

namespace passlab::text::script_calls {

/// Relax's VM-lowering ops (R.shape, R.prim_value, R.memory.*, R.vm.*,
/// R.call_packed, ...) as TVM prints them; sets `usedTir` when the text uses `T.`.
std::string vmValueText(const CallNode& call, const std::vector<std::string>& args, bool mainSpelling, bool& usedTir);
/// `R.call_pure_packed("f", x, sinfo_args=(T,))`.
std::string purePackedText(const CallNode& call, const std::vector<std::string>& args, bool mainSpelling);
/// `R.call_tir`, `R.call_tir_inplace` and `R.call_dps_packed` with their output types.
std::string callTirText(const CallNode& call, const std::vector<std::string>& args, bool mainSpelling);

}  // namespace passlab::text::script_calls
