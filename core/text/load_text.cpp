#include "core/text/load_text.h"

#include <fstream>
#include <sstream>

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
  loaded.origin.syntax = detectTextSyntax(text, fileName);
  if (loaded.origin.syntax == TextSyntax::TVMScript)
    loaded.module = parseTvmScript(std::move(text), std::move(fileName), notes, &loaded.origin.spelling);
  else
    loaded.module = parseModule(std::move(text), std::move(fileName), notes);
  return loaded;
}

LoadedText loadModuleTextFile(const std::string& path, std::vector<Diagnostic>* notes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Diagnostic d;
    d.message = "cannot read file '" + path + "'";
    d.rule = "io";
    throw DiagnosticError(std::move(d));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return loadModuleText(buffer.str(), path, notes);
}

}  // namespace passlab
