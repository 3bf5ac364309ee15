#include "core/text/lexer.h"

#include <cstdio>

namespace passlab::text {

std::string_view tokName(Tok kind) {
  switch (kind) {
    case Tok::End: return "end of input";
    case Tok::Error: return "invalid token";
    case Tok::Ident: return "identifier";
    case Tok::Local: return "local name (%x)";
    case Tok::Global: return "global name (@f)";
    case Tok::Int: return "integer";
    case Tok::Float: return "number";
    case Tok::String: return "string";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::Comma: return "','";
    case Tok::Colon: return "':'";
    case Tok::Semi: return "';'";
    case Tok::Equal: return "'='";
    case Tok::Arrow: return "'->'";
    case Tok::Dot: return "'.'";
    case Tok::Hash: return "'#'";
    case Tok::Question: return "'?'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Slash: return "'/'";
    case Tok::Percent: return "'%'";
    case Tok::Bang: return "'!'";
    case Tok::Less: return "'<'";
    case Tok::LessEq: return "'<='";
    case Tok::Greater: return "'>'";
    case Tok::GreaterEq: return "'>='";
    case Tok::EqEq: return "'=='";
    case Tok::NotEq: return "'!='";
    case Tok::AndAnd: return "'&&'";
    case Tok::OrOr: return "'||'";
  }
  return "token";
}

static bool isDigit(char c) { return c >= '0' && c <= '9'; }
static bool isHexDigit(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

size_t utf8LetterLength(std::string_view text, size_t pos) {
  auto byte = [&](size_t i) -> unsigned { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u; };
  unsigned b0 = byte(pos);
  size_t n = b0 >= 0xF0 && b0 <= 0xF4 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 && b0 < 0xE0 ? 2 : 0;
  if (n == 0) return 0;  // ASCII, a continuation byte, or a byte never valid in UTF-8
  uint32_t cp = b0 & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (size_t k = 1; k < n; ++k) {
    unsigned b = byte(pos + k);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;  // overlong or too large
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;                                            // surrogates
  // Not letters: Latin-1 punctuation and symbols (NBSP, ×, ÷), the general
  // punctuation block (zero-width and other spaces, quotes), the ideographic
  // space and punctuation, and the byte-order mark.
  if (cp < 0xC0 || cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x206F) || (cp >= 0x3000 && cp <= 0x303F) ||
      cp == 0xFEFF)
    return 0;
  return n;
}

bool isPlainIdentifier(std::string_view name) {
  if (identStartLength(name, 0) == 0) return false;
  for (size_t i = 0; i < name.size();) {
    size_t n = identCharLength(name, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void Lexer::advance(size_t n) {
  // Only called over characters of one line, so the column simply moves on.
  pos_ += n;
  column_ += static_cast<uint32_t>(n);
}

void Lexer::resetTo(const Token& t) {
  pos_ = t.offset;
  line_ = t.line;
  column_ = t.column;
  prev_ = t.prev;
}

void Lexer::skipToEnd() {
  while (pos_ < src_.size()) {
    if (src_[pos_++] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
  }
}

Token Lexer::make(Tok kind, uint32_t start, uint32_t line, uint32_t column) {
  Token t;
  t.kind = kind;
  t.prev = prev_;
  t.offset = start;
  t.line = line;
  t.column = column;
  t.text = src_.substr(start, pos_ - start);
  prev_ = kind;
  return t;
}

Token Lexer::error(std::string message, uint32_t start, uint32_t line, uint32_t column) {
  error_ = std::move(message);
  return make(Tok::Error, start, line, column);
}

void Lexer::skipSpaceAndComments(Token* err) {
  while (pos_ < src_.size()) {
    char c = src_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      column_ = 1;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      advance(1);
    } else if (c == '/' && at(pos_ + 1) == '/') {
      while (pos_ < src_.size() && src_[pos_] != '\n') advance(1);
    } else if (c == '/' && at(pos_ + 1) == '*') {
      uint32_t start = static_cast<uint32_t>(pos_), line = line_, column = column_;
      advance(2);
      bool closed = false;
      // Block comments nest, as in TVM's tokenizer: /* a /* b */ c */ is one comment.
      int depth = 1;
      while (pos_ < src_.size()) {
        if (src_[pos_] == '*' && at(pos_ + 1) == '/') {
          advance(2);
          if (--depth > 0) continue;
          closed = true;
          break;
        }
        if (src_[pos_] == '/' && at(pos_ + 1) == '*') {
          advance(2);
          ++depth;
          continue;
        }
        if (src_[pos_] == '\n') {
          ++pos_;
          ++line_;
          column_ = 1;
        } else {
          advance(1);
        }
      }
      if (!closed) {
        // Report at the opening "/*"; the token covers just those two characters.
        size_t end = pos_;
        pos_ = start + 2;
        *err = error("unterminated comment (missing '*/')", start, line, column);
        pos_ = end;
        return;
      }
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  Token err;
  skipSpaceAndComments(&err);
  if (err.kind == Tok::Error) return err;
  uint32_t start = static_cast<uint32_t>(pos_), line = line_, column = column_;
  if (pos_ >= src_.size()) return make(Tok::End, start, line, column);
  char c = src_[pos_];

  if (identStartLength(src_, pos_)) {
    // Dotted names (nn.conv2d, relay.Constant) are one identifier.
    while (true) {
      while (size_t n = identCharLength(src_, pos_)) advance(n);
      if (at(pos_) == '.' && identStartLength(src_, pos_ + 1)) {
        advance(1);
        continue;
      }
      break;
    }
    return make(Tok::Ident, start, line, column);
  }
  if (c == '%' || c == '@') {
    if (!identCharLength(src_, pos_ + 1)) {
      if (c == '%') {
        advance(1);
        return make(Tok::Percent, start, line, column);
      }
      advance(1);
      return error("expected a name after '@'", start, line, column);
    }
    advance(1);
    bool named = identStartLength(src_, pos_) > 0;
    while (true) {
      while (size_t n = identCharLength(src_, pos_)) advance(n);
      // Local names from PyTorch and ONNX keep their dots (%fc.weight, %input.1);
      // %0.1 is a projection of binding %0, and %t.0 is resolved by the parser.
      if (c == '%' && named && at(pos_) == '.' && identCharLength(src_, pos_ + 1)) {
        advance(1);
        continue;
      }
      break;
    }
    return make(c == '%' ? Tok::Local : Tok::Global, start, line, column);
  }
  if (isDigit(c)) {
    if (c == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X') && isHexDigit(at(pos_ + 2))) {
      advance(2);
      while (isHexDigit(at(pos_))) advance(1);
      return make(Tok::Int, start, line, column);
    }
    bool isFloat = false;
    while (isDigit(at(pos_))) advance(1);
    // After a '.', digits are a tuple index: %t.0.1 is two projections.
    if (prev_ != Tok::Dot) {
      if (at(pos_) == '.' && isDigit(at(pos_ + 1))) {
        isFloat = true;
        advance(1);
        while (isDigit(at(pos_))) advance(1);
      }
      char e = at(pos_);
      if (e == 'e' || e == 'E') {
        size_t k = pos_ + 1;
        if (at(k) == '+' || at(k) == '-') ++k;
        if (isDigit(at(k))) {
          isFloat = true;
          advance(k - pos_);
          while (isDigit(at(pos_))) advance(1);
        }
      }
      // Type suffix: 1f, 1f16, 3i64, 7u8 (validated by the parser).
      if (isIdentStart(at(pos_))) {
        while (isIdentChar(at(pos_))) advance(1);
      }
    }
    return make(isFloat ? Tok::Float : Tok::Int, start, line, column);
  }
  if (c == '"') {
    advance(1);
    while (true) {
      if (pos_ >= src_.size() || src_[pos_] == '\n') {
        size_t end = pos_;
        pos_ = start + 1;
        Token t = error("unterminated string (missing closing '\"')", start, line, column);
        pos_ = end;
        return t;
      }
      char d = src_[pos_];
      if (d == '"') {
        advance(1);
        break;
      }
      if (d == '\\') {
        char e = at(pos_ + 1);
        if (e == '"' || e == '\\' || e == 'n' || e == 't' || e == 'r' || e == '0' || e == '/') {
          advance(2);
        } else if (e == 'x' && isHexDigit(at(pos_ + 2)) && isHexDigit(at(pos_ + 3))) {
          advance(4);
        } else {
          uint32_t escLine = line_, escColumn = column_;
          uint32_t escStart = static_cast<uint32_t>(pos_);
          // Skip the rest of the line so lexing resumes after the bad string.
          while (pos_ < src_.size() && src_[pos_] != '\n') advance(1);
          size_t end = pos_;
          pos_ = escStart + 1;
          Token t = error("unknown escape sequence in string", escStart, escLine, escColumn);
          pos_ = end;
          return t;
        }
        continue;
      }
      advance(1);
    }
    return make(Tok::String, start, line, column);
  }

  auto two = [&](char second, Tok twoKind, Tok oneKind) {
    if (at(pos_ + 1) == second) {
      advance(2);
      return make(twoKind, start, line, column);
    }
    advance(1);
    return make(oneKind, start, line, column);
  };
  switch (c) {
    case '(': advance(1); return make(Tok::LParen, start, line, column);
    case ')': advance(1); return make(Tok::RParen, start, line, column);
    case '[': advance(1); return make(Tok::LBracket, start, line, column);
    case ']': advance(1); return make(Tok::RBracket, start, line, column);
    case '{': advance(1); return make(Tok::LBrace, start, line, column);
    case '}': advance(1); return make(Tok::RBrace, start, line, column);
    case ',': advance(1); return make(Tok::Comma, start, line, column);
    case ':': advance(1); return make(Tok::Colon, start, line, column);
    case ';': advance(1); return make(Tok::Semi, start, line, column);
    case '.': advance(1); return make(Tok::Dot, start, line, column);
    case '#': advance(1); return make(Tok::Hash, start, line, column);
    case '?': advance(1); return make(Tok::Question, start, line, column);
    case '+': advance(1); return make(Tok::Plus, start, line, column);
    case '*': advance(1); return make(Tok::Star, start, line, column);
    case '/': advance(1); return make(Tok::Slash, start, line, column);
    case '-': return two('>', Tok::Arrow, Tok::Minus);
    case '=': return two('=', Tok::EqEq, Tok::Equal);
    case '!': return two('=', Tok::NotEq, Tok::Bang);
    case '<': return two('=', Tok::LessEq, Tok::Less);
    case '>': return two('=', Tok::GreaterEq, Tok::Greater);
    case '&':
      if (at(pos_ + 1) == '&') {
        advance(2);
        return make(Tok::AndAnd, start, line, column);
      }
      break;
    case '|':
      if (at(pos_ + 1) == '|') {
        advance(2);
        return make(Tok::OrOr, start, line, column);
      }
      break;
    default: break;
  }
  advance(1);
  char buf[64];
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f)
    std::snprintf(buf, sizeof buf, "unexpected character '%c'", c);
  else
    std::snprintf(buf, sizeof buf, "unexpected byte 0x%02x", u);
  return error(buf, start, line, column);
}

std::string decodeString(std::string_view quoted) {
  std::string out;
  if (quoted.size() < 2) return out;
  std::string_view body = quoted.substr(1, quoted.size() - 2);
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '0': out += '\0'; break;
      case 'x': {
        auto hex = [](char h) { return h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10; };
        if (i + 2 < body.size()) {
          out += static_cast<char>(hex(body[i + 1]) * 16 + hex(body[i + 2]));
          i += 2;
        }
        break;
      }
      default: out += e; break;
    }
  }
  return out;
}

}  // namespace passlab::text
