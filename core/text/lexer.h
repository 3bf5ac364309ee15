// Tokenizer for the Relay-compatible text format (internal to core/text).
//
// Tokens are views into the source text: the lexer never allocates per token,
// which keeps parsing a 100k-op model cheap. Errors (stray bytes, unterminated
// strings and comments) come back as Tok::Error tokens so the parser decides
// how to report and recover; the lexer itself never throws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace passlab::text {

/// Kinds of tokens.
enum class Tok : uint8_t {
  End,
  Error,
  Ident,   ///< nn.conv2d, def, True, float32 (dotted names are one token)
  Local,   ///< %x, %0 (text includes the '%')
  Global,  ///< @main (text includes the '@')
  Int,     ///< 12, 0x7e00, 3i64, 1f (suffix included; see Token::isFloatLiteral)
  Float,   ///< 1.5, 1e-05f, 2.5f16
  String,  ///< "text" (quotes and escapes kept; decode with decodeString)
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Semi,
  Equal,
  Arrow,
  Dot,
  Hash,
  Question,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Bang,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  EqEq,
  NotEq,
  AndAnd,
  OrOr,
};

/// A short human name of a token kind for messages ("identifier", "'('").
std::string_view tokName(Tok kind);

/// One token: where it is and what it is. `text` points into the source.
struct Token {
  Tok kind = Tok::End;
  /// The kind of the token before this one (the lexer needs it to split `%t.0.1`).
  Tok prev = Tok::End;
  uint32_t offset = 0;
  uint32_t line = 1;
  uint32_t column = 1;
  std::string_view text;

  /// True for an identifier spelled exactly `word`.
  bool is(std::string_view word) const { return kind == Tok::Ident && text == word; }
  /// Column just past the token (tokens never span lines).
  uint32_t endColumn() const { return column + static_cast<uint32_t>(text.size()); }
};

/// Streaming tokenizer over one source text.
class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}

  /// The next token (End forever at the end of input).
  Token next();
  /// Restarts lexing at `t` (which must come from this lexer); used to rescan
  /// after an error.
  void resetTo(const Token& t);
  /// Moves to the end of the input (the rest is not to be read).
  void skipToEnd();
  /// The message of the last Error token.
  const std::string& errorMessage() const { return error_; }

 private:
  Token make(Tok kind, uint32_t start, uint32_t line, uint32_t column);
  Token error(std::string message, uint32_t start, uint32_t line, uint32_t column);
  void skipSpaceAndComments(Token* err);
  char at(size_t i) const { return i < src_.size() ? src_[i] : '\0'; }
  void advance(size_t n);

  std::string_view src_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t column_ = 1;
  Tok prev_ = Tok::End;
  std::string error_;
};

/// Decodes a String token's text (with quotes) into its value. The lexer has
/// already validated the escapes.
std::string decodeString(std::string_view quoted);

/// True for the characters that may start an identifier.
inline bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
/// True for the characters that may continue an identifier.
inline bool isIdentChar(char c) { return isIdentStart(c) || (c >= '0' && c <= '9'); }
/// The byte length of the non-ASCII letter UTF-8-encoded at `text[pos]`
/// (identifiers may hold them, as TVM's do: `%données`, `@函数`), or 0 when
/// there is none: ASCII, malformed UTF-8, or a space or punctuation code point.
size_t utf8LetterLength(std::string_view text, size_t pos);
/// Bytes of the identifier character at `text[pos]` (ASCII or a UTF-8 letter), 0 if none.
inline size_t identCharLength(std::string_view text, size_t pos) {
  if (pos >= text.size()) return 0;
  return isIdentChar(text[pos]) ? 1 : utf8LetterLength(text, pos);
}
/// Bytes of a character that may start an identifier at `text[pos]`, 0 if none.
inline size_t identStartLength(std::string_view text, size_t pos) {
  if (pos >= text.size()) return 0;
  return isIdentStart(text[pos]) ? 1 : utf8LetterLength(text, pos);
}
/// True when `name` can be written bare (identifier syntax, no dots).
bool isPlainIdentifier(std::string_view name);

}  // namespace passlab::text
