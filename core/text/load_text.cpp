#include "core/text/load_text.h"

#include "core/ir/file_io.h"
#include "core/text/parser.h"

namespace passlab {

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string_view tvmScriptSpellingName(TvmScriptSpelling spelling) {
  return spelling == TvmScriptSpelling::Main ? "main" : "release";
}

std::string_view textSyntaxExtension(TextSyntax syntax) { return syntax == TextSyntax::TVMScript ? ".py" : ".relay"; }

std::string describeTextOrigin(const TextOrigin& origin) {
  if (origin.syntax == TextSyntax::Relay) return "Relay text";
  return "TVMScript, " + std::string(tvmScriptSpellingName(origin.spelling)) + " spelling";
}

TextSyntax detectTextSyntax(std::string_view text, std::string_view fileName) {
  if (endsWith(fileName, ".py") || looksLikeTvmScript(text)) return TextSyntax::TVMScript;
  return TextSyntax::Relay;
}

LoadedText loadModuleText(std::string text, std::string fileName, std::vector<Diagnostic>* notes) {
  LoadedText loaded;
  loaded.module = parseModule(std::move(text), std::move(fileName), notes, &loaded.origin);
  return loaded;
}

LoadedText loadModuleTextFile(const std::string& path, std::vector<Diagnostic>* notes) {
  return loadModuleText(readRegularFile(path), path, notes);
}

}  // namespace passlab
