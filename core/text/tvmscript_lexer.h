// Tokenizer for TVMScript (internal to core/text): Python's lexical rules,
// as far as TVMScript uses them. Indentation becomes Newline / Indent /
// Dedent tokens; inside brackets lines join implicitly. Comments are kept
// aside (the `# from tvm.script import ...` header tells the spelling).
// Errors are located DiagnosticErrors: tabs mixed with spaces, unterminated
// strings, a dedent to a column no enclosing block started at, stray bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/diagnostic.h"

namespace passlab::tvmscript {

/// Kinds of TVMScript tokens.
enum class PyTok : uint8_t {
  End,
  Newline,  ///< end of a logical line
  Indent,   ///< the next line is indented deeper than the block
  Dedent,   ///< one block closed (one token per block)
  Name,     ///< identifiers and keywords (`def`, `with`, `R`, `float32`)
  Int,      ///< 12, 0x1f, 1_000 (never signed: '-' is an operator)
  Float,    ///< 1.5, 1e-05, 2., .5
  String,   ///< '...' or "..." or triple-quoted (text keeps the quotes; decode with decodePyString)
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Semi,
  Dot,
  At,
  Equal,      ///< =
  Arrow,      ///< ->
  Plus,
  Minus,
  Star,
  StarStar,   ///< **
  Slash,
  SlashSlash, ///< //
  Percent,
  EqEq,
  NotEq,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  Tilde,
  Amp,
  Pipe,
  Caret,
  LShift,
  RShift,
  AugAssign,  ///< +=, -=, *=, ... (not TVMScript; kept so the parser can say so)
  Walrus,     ///< := (likewise)
};

/// A short human name of a token kind for messages ("name", "'('", "newline").
std::string_view pyTokName(PyTok kind);

/// One token; `text` points into the source (empty for Indent/Dedent/End).
struct PyToken {
  PyTok kind = PyTok::End;
  uint32_t offset = 0;
  uint32_t line = 1;
  uint32_t column = 1;
  /// Where the token ends (a triple-quoted string may span lines).
  uint32_t endLine = 1;
  uint32_t endColumn = 1;
  std::string_view text;

  /// True for a Name spelled exactly `word`.
  bool is(std::string_view word) const { return kind == PyTok::Name && text == word; }
};

/// A `#` comment: where it starts and its text after the '#', trimmed.
struct PyComment {
  uint32_t line = 0;
  uint32_t column = 0;
  /// True when nothing but blanks precede it on its line.
  bool ownLine = false;
  std::string_view text;
};

/// The tokens and comments of one text.
struct PyTokens {
  std::vector<PyToken> tokens;
  std::vector<PyComment> comments;
};

/// Tokenizes `file`'s text. The token list always ends with Newline (when the
/// text had any token), the Dedents closing open blocks, and End. Throws a
/// located DiagnosticError (rule "parse") on a lexical error.
PyTokens lexTvmScript(const std::shared_ptr<const SourceFile>& file);

/// Decodes a String token's text (with prefix-free quotes, single or triple)
/// into its value: the escapes \\ \' \" \n \t \r \0 \xHH \uHHHH; others kept
/// as written, as Python does.
std::string decodePyString(std::string_view quoted);

/// True for characters that may start a Python identifier (ASCII subset).
inline bool isPyNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
/// True for characters that may continue one.
inline bool isPyNameChar(char c) { return isPyNameStart(c) || (c >= '0' && c <= '9'); }

}  // namespace passlab::tvmscript
