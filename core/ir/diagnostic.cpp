#include "core/ir/diagnostic.h"

#include "core/ir/diagnostic_fold.h"

#include "core/ir/severity_names.h"

namespace passlab {

SourceFile::SourceFile(std::string n, std::string t) : name(std::move(n)), text(std::move(t)) {
  lineStarts.push_back(0);
  for (uint32_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') lineStarts.push_back(i + 1);
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line == 0 || line > lineStarts.size()) return {};
  uint32_t begin = lineStarts[line - 1];
  uint32_t end = line < lineStarts.size() ? lineStarts[line] : static_cast<uint32_t>(text.size());
  std::string_view s(text.data() + begin, end - begin);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string Span::location() const {
  if (!known()) return "";
  std::string out = file ? file->name : "<unknown>";
  out += ":" + std::to_string(line) + ":" + std::to_string(column);
  return out;
}

std::string_view severityName(Severity severity) {
  const size_t index = static_cast<size_t>(severity);
  return index < std::size(kSeverityNames) ? kSeverityNames[index] : "error";
}

std::optional<Severity> severityFromName(std::string_view name) {
  for (size_t i = 0; i < std::size(kSeverityNames); ++i)
    if (kSeverityNames[i] == name) return static_cast<Severity>(i);
  return std::nullopt;
}

std::string Diagnostic::render() const {
  std::string out;
  if (span.known()) out += span.location() + ": ";
  out += severityName(severity);
  out += ": ";
  out += message;
  if (span.known() && span.file) {
    std::string_view line = span.file->lineText(span.line);
    // Very long lines (minified or binary input) are clipped around the caret.
    constexpr size_t kMaxShown = 160;
    size_t col = span.column > 0 ? span.column - 1 : 0;
    size_t start = 0;
    if (line.size() > kMaxShown && col > kMaxShown / 2) start = col - kMaxShown / 2;
    std::string_view shown = line.substr(std::min(start, line.size()), kMaxShown);
    std::string printable;
    for (char c : shown) printable += (static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f ? '?' : c;
    out += "\n  " + printable + "\n  ";
    for (size_t i = start; i < col && i - start < printable.size(); ++i) out += shown[i - start] == '\t' ? '\t' : ' ';
    out += "^";
  }
  return out;
}

DiagnosticError::DiagnosticError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(diagnostics.empty() ? "error" : diagnostics.front().render()),
      diagnostics_(std::move(diagnostics)) {}

DiagnosticError::DiagnosticError(Diagnostic diagnostic) : DiagnosticError(std::vector<Diagnostic>{std::move(diagnostic)}) {}

std::string DiagnosticError::renderAll() const { return renderFolded(diagnostics_); }

void throwError(const Span& span, std::string message, std::string rule) {
  Diagnostic d;
  d.span = span;
  d.message = std::move(message);
  d.rule = std::move(rule);
  throw DiagnosticError(std::move(d));
}

}  // namespace passlab
