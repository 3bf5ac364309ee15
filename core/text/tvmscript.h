// TVMScript: the second syntax over passlab's IR, as TVM 0.20 and later print
// it (`mod.show()`): Relax `@R.function`s and TIR `@T.prim_func`s inside
// `@I.ir_module class Module:` (docs/text-format.md, "TVMScript"). This header
// is the one entry point the rest of passlab uses; the grammar lives in
// core/text/tvmscript_*.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"

namespace passlab {

/// The two text syntaxes over one IR. Which one a module loads in is decided
/// by its content (looksLikeTvmScript); which one it prints in is a setting
/// whose default is the syntax it was loaded in.
enum class TextSyntax : uint8_t { Relay, TVMScript };
/// "relay" / "tvmscript".
std::string_view textSyntaxName(TextSyntax s);
/// The syntax named `name` ("relay", "tvmscript"; "py" is accepted for TVMScript).
std::optional<TextSyntax> textSyntaxFromName(std::string_view name);
/// The reference a constant numbered `n` prints as in `syntax`:
/// `meta[relay.Constant][n]` or `metadata["relax.expr.Constant"][n]`.
std::string constantReferenceText(TextSyntax syntax, int64_t n);

/// TVMScript is spelled two ways: as TVM's releases 0.20-0.26 print it
/// (`T.block`, `out_sinfo=`, `R.Object`, `tir`) and as TVM's main branch does
/// (`T.sblock`, `out_ty=`, `R.Any`, `tirx`). A module prints back in the
/// spelling it was loaded in; new modules get the release spelling.
enum class TvmScriptSpelling : uint8_t { Release, Main };

/// What a load learned besides the module: the syntax and, for TVMScript, the spelling.
struct TextOrigin {
  TextSyntax syntax = TextSyntax::Relay;
  TvmScriptSpelling spelling = TvmScriptSpelling::Release;
};

/// True when the first statements of `text` are TVMScript rather than Relay
/// text: a `# from tvm.script import ...` header, `from tvm.script import`,
/// `@I.ir_module`, `@R.function`, `@T.prim_func` (comments and blank lines
/// before them skipped). Relay text (`#[version = ...]`, `def @f`, `fn (`)
/// is never taken for TVMScript.
bool looksLikeTvmScript(std::string_view text);

/// A Relax type as TVM prints it (`R.Tensor((n, 4), dtype="float32")`), in
/// the release spelling: what VMShapeLower's error contexts quote.
std::string relaxTypeText(const Type& t);

/// Parses a TVMScript module (or a lone `@R.function` / `@T.prim_func`, which
/// becomes a module holding it under its Python name). `fileName` locates
/// diagnostics. Throws DiagnosticError with file:line:col for anything that is
/// not TVMScript passlab reads, naming what it met; never crashes. Load notes
/// (placeholder constants for `metadata[...]` references, spellings mixed from
/// two versions) go to `notes` when given; the spelling found goes to `spelling`.
IRModule parseTvmScript(std::string text, std::string fileName = "<input>", std::vector<Diagnostic>* notes = nullptr,
                        TvmScriptSpelling* spelling = nullptr);

}  // namespace passlab
