// The TIR half of the TVMScript reader and printer, as the module frame
// (tvmscript_module.cpp) calls it for each `@T.prim_func` (internal to
// core/text). The frame reads the decorator and the module around the
// function; these read and print the function itself.
#pragma once

#include <string>
#include <string_view>

#include "core/ir/expr.h"
#include "core/ir/tir.h"
#include "core/text/printer_impl.h"
#include "core/text/tvmscript_parser.h"

namespace passlab::tvmscript {

/// The PrimFunc attribute that records `@T.prim_func(s_tir=True)` (main
/// spelling), printed back in the decorator rather than in T.func_attr.
inline constexpr const char* kSTirAttr = "s_tir";

/// What the decorator `@T.prim_func(...)` said (read by the frame).
struct PrimFuncDecorator {
  /// `private=True`: the frame then does not give the function a global_symbol.
  bool isPrivate = false;
  /// `s_tir=True` (main spelling: schedulable TIR).
  bool sTir = false;
  /// The `@` of the decorator, for diagnostics.
  PyToken at;
};

/// Parses one PrimFunc with the cursor at its `def`, through its body (the
/// Dedent that closes it consumed). Sets `*name` to the Python name after
/// `def`. The attributes are those of `T.func_attr({...})` as written; the
/// frame adds `global_symbol` = name to a function that is not private, as
/// TVM's parser does. Throws a located DiagnosticError (via p.fail) on
/// anything it does not read; records version spellings with p.noteSpelling.
PrimFunc parseScriptPrimFunc(ScriptParser& p, const PrimFuncDecorator& decorator, std::string* name);

/// How the frame asks a function to be printed.
struct ScriptPrintContext {
  /// Release or main spelling (`T.block` / `T.sblock`, `tir` / `tirx` ...).
  TvmScriptSpelling spelling = TvmScriptSpelling::Release;
  /// The TIR module's alias (always "T" in printed output).
  std::string_view tirAlias = "T";
};

/// Prints PrimFunc `fn`, global name `name`, at the writer's current
/// indentation: from its decorator line (`@T.prim_func`, or
/// `@T.prim_func(private=True)` when scriptIsPrivate(fn.attrs, name)) through
/// the last line of its body, each line ended. One TVMScript indent level is
/// `w.indent(2)` (TextWriter counts 2-space units). `T.func_attr` omits a
/// global_symbol equal to `name`, as TVM does.
void printScriptPrimFunc(text::TextWriter& w, const ScriptPrintContext& ctx, const std::string& name,
                         const PrimFuncNode& fn);

/// True when a function named `name` with attributes `attrs` prints as
/// private: it has no global_symbol equal to its name (TVM's rule).
bool scriptIsPrivate(const AttrDict& attrs, const std::string& name);

}  // namespace passlab::tvmscript
