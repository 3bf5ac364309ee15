// Parser for the Relay-compatible text format (docs/text-format.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"
#include "core/text/tvmscript.h"

namespace passlab {

/// Parses a whole module from `text`. `fileName` is used in diagnostics.
/// Accepts Relay text as TVM prints it plus passlab's extensions (PrimFuncs,
/// dataflow blocks, module attributes, inline constant data). Sets the `phase`
/// module attribute to 0 unless the text gives one.
/// Throws DiagnosticError carrying every independent error found, each located
/// (file:line:col); never crashes or aborts on any input.
IRModule parseModule(std::string text, std::string fileName = "<input>");

/// Like parseModule, and appends to `notes` what the user should know about
/// the load: warnings (placeholder constants made for `meta[relay.Constant][N]`
/// references without a `#[metadata]` section) and notes (an expression text
/// wrapped as @main). Also accepts TVM's printed expressions (docs/text-format.md).
IRModule parseModule(std::string text, std::string fileName, std::vector<Diagnostic>* notes);

/// Like parseModule, and tells in `origin` which syntax the text was in (and,
/// for TVMScript, which TVM spelling): TVMScript when looksLikeTvmScript(text)
/// or `fileName` ends in `.py`, Relay text otherwise. The faces keep it to
/// print the module back in the syntax it came in.
IRModule parseModule(std::string text, std::string fileName, std::vector<Diagnostic>* notes, TextOrigin* origin);

/// Reads and parses a file; an unreadable file is a DiagnosticError naming it.
/// Load notes go to `notes` when given (see parseModule); the syntax found to
/// `origin` when given.
IRModule parseModuleFile(const std::string& path, std::vector<Diagnostic>* notes = nullptr, TextOrigin* origin = nullptr);

/// Parses a single expression (free variables must be declared with
/// `free_var` first or appear as `%name: Type`); used by tests and the REPL.
Expr parseExpr(std::string text, std::string fileName = "<expr>");

}  // namespace passlab
