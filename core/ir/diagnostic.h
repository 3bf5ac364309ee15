// Source files, spans and diagnostics shared by the parser, analyses and passes.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace passlab {

/// The text of one input file, kept alive so diagnostics can quote it.
struct SourceFile {
  /// Name shown in diagnostics ("model.relay", "<stdin>", "<repl>").
  std::string name;
  /// The whole text.
  std::string text;
  /// Byte offset of the start of each line (line 1 is index 0).
  std::vector<uint32_t> lineStarts;

  /// Builds the line index.
  SourceFile(std::string name, std::string text);
  /// The text of 1-based line `line` without its newline.
  std::string_view lineText(uint32_t line) const;
};

/// A located range in a source file (1-based lines and columns). A default
/// Span is "unknown" and prints as nothing.
struct Span {
  /// The file; null for IR built by passes rather than parsed.
  std::shared_ptr<const SourceFile> file;
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t endLine = 0;
  uint32_t endColumn = 0;

  /// True when the span points somewhere.
  bool known() const { return line != 0; }
  /// "file:line:col" (or "" when unknown).
  std::string location() const;
};

/// How serious a diagnostic is.
enum class Severity : uint8_t { Note, Warning, Error };

/// One message about the IR or the input text.
struct Diagnostic {
  Severity severity = Severity::Error;
  /// Where; may be unknown.
  Span span;
  /// Human-readable text, without location prefix.
  std::string message;
  /// A stable identifier of the rule that fired ("parse", "type.shape-mismatch",
  /// "wf.undefined-var", ...); used by breakpoints and filters.
  std::string rule;
  /// The global function it concerns, where one applies.
  std::string function;

  /// `file:line:col: error: message` followed by the source line and a caret,
  /// like clang. Without a known span only "error: message".
  std::string render() const;
};

/// Thrown when an operation cannot proceed; carries every diagnostic found
/// (the parser reports several independent errors at once).
class DiagnosticError : public std::runtime_error {
 public:
  /// Wraps a list of diagnostics (at least one).
  explicit DiagnosticError(std::vector<Diagnostic> diagnostics);
  /// A single diagnostic.
  explicit DiagnosticError(Diagnostic diagnostic);
  /// All diagnostics, in order.
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  /// Every diagnostic rendered, newline-separated.
  std::string renderAll() const;

 private:
  std::vector<Diagnostic> diagnostics_;
};

/// Convenience: throws a DiagnosticError with one error.
[[noreturn]] void throwError(const Span& span, std::string message, std::string rule = "error");

}  // namespace passlab
