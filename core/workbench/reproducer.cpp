#include "core/workbench/reproducer.h"
#include "core/ir/file_io.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/text/load_text.h"
#include "core/workbench/value_text.h"
#include "core/support/strings.h"
#include "core/workbench/setting_keys.h"

namespace passlab {
namespace {

constexpr std::string_view kMagic = "passlab reproducer";

/// Header lines are comments of the module's syntax, so the file stays loadable by hand.
std::string commentMark(TextSyntax syntax) { return syntax == TextSyntax::TVMScript ? "# " : "// "; }

/// The module file of the directory form.
std::string moduleFileName(TextSyntax syntax) { return "module" + std::string(textSyntaxExtension(syntax)); }

/// `key: value` (a lower-case key): in TVMScript the module's own `# from
/// tvm.script import ...` comments follow the header, and are not settings.
bool isSettingLine(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  for (char c : text.substr(0, colon))
    if (!((c >= 'a' && c <= 'z') || c == '_' || c == '-')) return false;
  return true;
}

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

/// The `key: value` lines shared by both forms (everything but the module text).
std::string settingsLines(const Reproducer& r) {
  std::string out;
  auto line = [&](std::string_view key, const std::string& value) { out += std::string(key) + ": " + value + "\n"; };
  if (!r.predicate.empty()) line("predicate", r.predicate);
  if (!r.failedPass.empty() || r.predicate.empty()) {
    line("failed", r.failedPass);
    line("failure", (r.failureRule.empty() ? "" : r.failureRule + ": ") + firstLine(r.failureMessage));
  }
  line("pipeline", r.pipeline);
  out += r.settings.lines();
  for (const std::string& e : r.edits) line("edit", e);
  line("load", r.typeCheck ? "check" : "no-check");
  if (!r.source.empty()) line("source", r.source);
  return out;
}

/// Applies one `key: value` setting line; `where` prefixes error messages.
void applySetting(Reproducer& r, const std::string& line, const std::string& where) {
  size_t colon = line.find(':');
  if (colon == std::string::npos) throw WorkbenchError(where + ": expected 'key: value', got '" + line + "'");
  std::string key(trim(line.substr(0, colon)));
  std::string value(trim(line.substr(colon + 1)));
  if (key == "failed") {
    r.failedPass = value;
  } else if (key == "failure") {
    // "rule: message" — rule ids contain no spaces, messages usually do.
    size_t sep = value.find(": ");
    if (sep != std::string::npos && value.substr(0, sep).find(' ') == std::string::npos) {
      r.failureRule = value.substr(0, sep);
      r.failureMessage = value.substr(sep + 2);
    } else {
      r.failureMessage = value;
    }
  } else if (key == "pipeline") {
    r.pipeline = value;
  } else if (key == "load") {
    if (value != "check" && value != "no-check") throw WorkbenchError(where + ": load must be 'check' or 'no-check'");
    r.typeCheck = value == "check";
  } else if (key == "edit") {
    r.edits.push_back(value);
  } else if (key == "predicate") {
    // Validated now, so a typo is reported with the reproducer's line.
    std::vector<std::string> words;
    std::stringstream in(value);
    for (std::string w; in >> w;) words.push_back(w);
    try {
      parseBisectPredicate(words);
    } catch (const WorkbenchError& e) {
      throw WorkbenchError(where + ": " + e.what());
    }
    r.predicate = value;
  } else if (key == "source") {
    r.source = value;
  } else {
    bool known = false;
    try {
      known = r.settings.readLine(key, value);
    } catch (const std::invalid_argument& e) {
      throw WorkbenchError(where + ": " + e.what());
    }
    if (!known) throw WorkbenchError(where + ": unknown reproducer setting '" + key + "'");
  }
}

std::string readWholeFile(const std::string& path) {
  if (std::optional<std::string> why = unreadableFileReason(path)) throw WorkbenchError("cannot read '" + path + "': " + *why);
  return readRegularFile(path);
}

void writeWholeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw WorkbenchError("cannot write '" + path + "'");
}

}  // namespace

std::string formatReproducer(const Reproducer& repro) {
  const std::string mark = commentMark(repro.syntax);
  std::string out = mark + std::string(kMagic) + ": replay with `passlab --reproduce FILE`\n";
  std::stringstream settings(settingsLines(repro));
  for (std::string line; std::getline(settings, line);) out += mark + line + "\n";
  return out + repro.moduleText;
}

Reproducer parseReproducer(const std::string& text, const std::string& name) {
  Reproducer r;
  std::stringstream in(text);
  std::string line;
  if (!std::getline(in, line)) line.clear();
  for (TextSyntax syntax : {TextSyntax::Relay, TextSyntax::TVMScript})
    if (line.rfind(commentMark(syntax) + std::string(kMagic), 0) == 0) r.syntax = syntax;
  const std::string mark = commentMark(r.syntax);
  if (line.rfind(mark + std::string(kMagic), 0) != 0)
    throw WorkbenchError(name + ": not a passlab reproducer (the first line must start with '// " + std::string(kMagic) +
                         "', or '# " + std::string(kMagic) + "' for TVMScript)");
  // Header lines are blanked rather than dropped, so parse errors in the module
  // report the line numbers of the reproducer file itself.
  std::string module = "\n";
  int lineNo = 1;
  bool inHeader = true;
  while (std::getline(in, line)) {
    ++lineNo;
    if (inHeader && line.rfind(mark, 0) == 0 && (r.syntax == TextSyntax::Relay || isSettingLine(line.substr(mark.size())))) {
      applySetting(r, line.substr(mark.size()), name + ":" + std::to_string(lineNo));
      module += "\n";
      continue;
    }
    inHeader = false;
    module += line + "\n";
  }
  if (r.pipeline.empty()) throw WorkbenchError(name + ": the reproducer has no 'pipeline:' line");
  r.moduleText = std::move(module);
  r.moduleName = name;
  return r;
}

std::string writeReproducer(const std::string& path, const Reproducer& repro) {
  namespace fs = std::filesystem;
  std::error_code ec;
  bool asDirectory = (!path.empty() && path.back() == '/') || fs::is_directory(path, ec);
  if (!asDirectory) {
    writeWholeFile(path, formatReproducer(repro));
    return path;
  }
  fs::create_directories(path, ec);
  if (ec) throw WorkbenchError("cannot create directory '" + path + "': " + ec.message());
  fs::path dir(path);
  const std::string moduleFile = moduleFileName(repro.syntax);
  writeWholeFile((dir / moduleFile).string(), repro.moduleText);
  writeWholeFile((dir / "pipeline.txt").string(), repro.pipeline + "\n");
  writeWholeFile((dir / "config.txt").string(), settingsLines(repro));
  return path + (path.back() == '/' ? "" : "/") + " (" + moduleFile + ", pipeline.txt, config.txt)";
}

Reproducer readReproducer(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return parseReproducer(readWholeFile(path), path);
  fs::path dir(path);
  Reproducer r;
  std::string configPath = (dir / "config.txt").string();
  std::stringstream settings(readWholeFile(configPath));
  int lineNo = 0;
  for (std::string line; std::getline(settings, line);) {
    ++lineNo;
    if (!trim(line).empty()) applySetting(r, line, configPath + ":" + std::to_string(lineNo));
  }
  // pipeline.txt wins over a pipeline line in config.txt: it is the file users edit.
  r.pipeline = std::string(trim(readWholeFile((dir / "pipeline.txt").string())));
  // module.py when the reproducer was written in TVMScript.
  std::string modulePath = (dir / moduleFileName(TextSyntax::Relay)).string();
  if (!fs::exists(modulePath, ec) && fs::exists(dir / moduleFileName(TextSyntax::TVMScript), ec)) {
    modulePath = (dir / moduleFileName(TextSyntax::TVMScript)).string();
    r.syntax = TextSyntax::TVMScript;
  }
  r.moduleText = readWholeFile(modulePath);
  r.moduleName = modulePath;
  return r;
}

std::pair<std::string, std::string> eventFailure(const TraceEvent& event) {
  for (const Diagnostic& d : event.diagnostics)
    if (d.severity == Severity::Error) return {d.rule, firstLine(d.message)};
  return {"", firstLine(event.failure)};
}

bool sameFailure(const Reproducer& repro, const TraceEvent& event) {
  if (event.status != EventStatus::Failed || event.pass != repro.failedPass) return false;
  auto [rule, message] = eventFailure(event);
  return rule == repro.failureRule && message == firstLine(repro.failureMessage);
}

}  // namespace passlab
