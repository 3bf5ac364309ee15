// The one load path for module text: Relay text or TVMScript, decided by the
// content (looksLikeTvmScript) or a `.py` file name, returning what it learned
// about the syntax (TextOrigin) with the module. Every face loads through it
// (command line, `load`, `edit`, paste, the GUI's Open, reproducers), so the
// print syntax can default to the syntax a module came in.
#pragma once

#include <string>
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/module.h"
#include "core/text/tvmscript.h"

namespace passlab {

/// A parsed module and the syntax it was written in.
struct LoadedText {
  IRModule module;
  TextOrigin origin;
};

/// The syntax `text` is in: TVMScript when `fileName` ends in `.py` or the
/// first statements are TVMScript (looksLikeTvmScript), else Relay.
TextSyntax detectTextSyntax(std::string_view text, std::string_view fileName);

/// Parses module text in whichever syntax it is written (detectTextSyntax).
/// Errors and notes as parseModule / parseTvmScript give them.
LoadedText loadModuleText(std::string text, std::string fileName, std::vector<Diagnostic>* notes = nullptr);

/// Reads and parses a file (loadModuleText); an unreadable file is a
/// DiagnosticError naming it.
LoadedText loadModuleTextFile(const std::string& path, std::vector<Diagnostic>* notes = nullptr);

/// What `load` says about the syntax: "Relay text", "TVMScript, release
/// spelling", "TVMScript, main spelling".
std::string describeTextOrigin(const TextOrigin& origin);

/// The TVMScript spelling named `name` ("release" / "main"), and back.
std::string_view tvmScriptSpellingName(TvmScriptSpelling spelling);

/// The file name extension modules in `syntax` are saved under (".relay", ".py").
std::string_view textSyntaxExtension(TextSyntax syntax);

}  // namespace passlab
