// TVMScript tokenizer: Python's indentation rules and token forms.
#include "core/text/tvmscript_lexer.h"

#include <cstdio>

namespace passlab::tvmscript {

std::string_view pyTokName(PyTok kind) {
  switch (kind) {
    case PyTok::End: return "end of input";
    case PyTok::Newline: return "end of line";
    case PyTok::Indent: return "an indented block";
    case PyTok::Dedent: return "the end of a block";
    case PyTok::Name: return "name";
    case PyTok::Int: return "integer";
    case PyTok::Float: return "float";
    case PyTok::String: return "string";
    case PyTok::LParen: return "'('";
    case PyTok::RParen: return "')'";
    case PyTok::LBracket: return "'['";
    case PyTok::RBracket: return "']'";
    case PyTok::LBrace: return "'{'";
    case PyTok::RBrace: return "'}'";
    case PyTok::Comma: return "','";
    case PyTok::Colon: return "':'";
    case PyTok::Semi: return "';'";
    case PyTok::Dot: return "'.'";
    case PyTok::At: return "'@'";
    case PyTok::Equal: return "'='";
    case PyTok::Arrow: return "'->'";
    case PyTok::Plus: return "'+'";
    case PyTok::Minus: return "'-'";
    case PyTok::Star: return "'*'";
    case PyTok::StarStar: return "'**'";
    case PyTok::Slash: return "'/'";
    case PyTok::SlashSlash: return "'//'";
    case PyTok::Percent: return "'%'";
    case PyTok::EqEq: return "'=='";
    case PyTok::NotEq: return "'!='";
    case PyTok::Less: return "'<'";
    case PyTok::LessEq: return "'<='";
    case PyTok::Greater: return "'>'";
    case PyTok::GreaterEq: return "'>='";
    case PyTok::Tilde: return "'~'";
    case PyTok::Amp: return "'&'";
    case PyTok::Pipe: return "'|'";
    case PyTok::Caret: return "'^'";
    case PyTok::LShift: return "'<<'";
    case PyTok::RShift: return "'>>'";
    case PyTok::AugAssign: return "augmented assignment";
    case PyTok::Walrus: return "':='";
  }
  return "token";
}

namespace {

class PyLexer {
 public:
  explicit PyLexer(const std::shared_ptr<const SourceFile>& file) : file_(file), src_(file->text) {}

  PyTokens run() {
    indents_.push_back(0);
    bool atLineStart = true;
    while (pos_ < src_.size()) {
      if (atLineStart && depth_ == 0) {
        if (!lineStart()) continue;  // blank or comment-only line consumed
        atLineStart = false;
      }
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\f') {
        advance(1);
        continue;
      }
      if (c == '\r' || c == '\n') {
        size_t n = (c == '\r' && at(pos_ + 1) == '\n') ? 2 : 1;
        if (depth_ == 0) emitAt(PyTok::Newline, pos_, line_, column_, 0);
        newline(n);
        atLineStart = depth_ == 0;
        continue;
      }
      if (c == '\\') {
        size_t n = at(pos_ + 1) == '\r' && at(pos_ + 2) == '\n' ? 3 : 2;
        if (at(pos_ + 1) != '\n' && at(pos_ + 1) != '\r') fail(line_, column_, "stray '\\' (a line continuation must end its line)");
        pos_ += n;
        ++line_;
        column_ = 1;
        continue;
      }
      if (c == '#') {
        comment(false);
        continue;
      }
      token();
    }
    if (!out_.tokens.empty() && out_.tokens.back().kind != PyTok::Newline && out_.tokens.back().kind != PyTok::Dedent)
      emitAt(PyTok::Newline, pos_, line_, column_, 0);
    if (depth_ > 0) fail(openLine_.back(), openColumn_.back(), "this bracket is never closed");
    while (indents_.size() > 1) {
      indents_.pop_back();
      emitAt(PyTok::Dedent, pos_, line_, column_, 0);
    }
    emitAt(PyTok::End, pos_, line_, column_, 0);
    return std::move(out_);
  }

 private:
  char at(size_t i) const { return i < src_.size() ? src_[i] : '\0'; }
  void advance(size_t n) {
    pos_ += n;
    column_ += static_cast<uint32_t>(n);
  }
  void newline(size_t n) {
    pos_ += n;
    ++line_;
    column_ = 1;
  }
  [[noreturn]] void fail(uint32_t line, uint32_t column, std::string message) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.span.file = file_;
    d.span.line = line;
    d.span.column = column;
    d.span.endLine = line;
    d.span.endColumn = column;
    d.message = std::move(message);
    d.rule = "parse";
    throw DiagnosticError(std::move(d));
  }
  void emitAt(PyTok kind, size_t start, uint32_t line, uint32_t column, size_t length) {
    PyToken t;
    t.kind = kind;
    t.offset = static_cast<uint32_t>(start);
    t.line = line;
    t.column = column;
    t.text = src_.substr(start, length);
    t.endLine = line_;
    t.endColumn = column_;
    if (t.endLine == line && length > 0) t.endColumn = column + static_cast<uint32_t>(length) - 1;
    else if (length == 0) t.endColumn = column;
    out_.tokens.push_back(t);
  }

  /// Measures the indentation of a new logical line; emits Indent/Dedent.
  /// Returns false when the line was blank or held only a comment (consumed).
  bool lineStart() {
    size_t p = pos_;
    bool sawSpace = false, sawTab = false;
    uint32_t width = 0;
    while (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t' || src_[p] == '\f')) {
      if (src_[p] == ' ') sawSpace = true;
      if (src_[p] == '\t') sawTab = true;
      width = src_[p] == '\t' ? (width / 8 + 1) * 8 : width + 1;
      ++p;
    }
    char c = at(p);
    if (c == '\n' || c == '\r' || c == '#' || p >= src_.size()) {
      advance(p - pos_);
      if (c == '#') comment(true);
      if (at(pos_) == '\r' || at(pos_) == '\n') newline(at(pos_) == '\r' && at(pos_ + 1) == '\n' ? 2 : 1);
      return false;
    }
    if (sawSpace && sawTab) fail(line_, 1, "indentation mixes tabs and spaces");
    if (sawTab) usedTabs_ = true;
    else if (sawSpace) usedSpaces_ = true;
    if (usedTabs_ && usedSpaces_) fail(line_, 1, "indentation mixes tabs and spaces (earlier lines used the other)");
    advance(p - pos_);
    if (width > indents_.back()) {
      if (out_.tokens.empty()) fail(line_, column_, "unexpected indentation of the first statement");
      indents_.push_back(width);
      emitAt(PyTok::Indent, pos_, line_, column_, 0);
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        emitAt(PyTok::Dedent, pos_, line_, column_, 0);
      }
      if (width != indents_.back()) fail(line_, column_, "unindent does not match any outer indentation level");
    }
    return true;
  }

  void comment(bool ownLine) {
    size_t start = pos_;
    uint32_t column = column_;
    while (pos_ < src_.size() && src_[pos_] != '\n' && src_[pos_] != '\r') ++pos_;
    column_ += static_cast<uint32_t>(pos_ - start);
    std::string_view text = src_.substr(start + 1, pos_ - start - 1);
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    out_.comments.push_back({line_, column, ownLine, text});
  }

  void token() {
    size_t start = pos_;
    uint32_t line = line_, column = column_;
    char c = src_[pos_];
    if (isPyNameStart(c)) {
      size_t p = pos_;
      while (isPyNameChar(at(p))) ++p;
      std::string_view word = src_.substr(pos_, p - pos_);
      char q = at(p);
      if ((q == '"' || q == '\'') && word.size() <= 2) {
        bool fmt = false, raw = false, bytes = false, ok = true;
        for (char ch : word) {
          char l = static_cast<char>(ch | 0x20);
          if (l == 'f') fmt = true;
          else if (l == 'r') raw = true;
          else if (l == 'b') bytes = true;
          else if (l != 'u') ok = false;
        }
        if (ok) {
          if (fmt) fail(line, column, "f-strings are not TVMScript passlab reads");
          if (bytes) fail(line, column, "bytes literals are not TVMScript passlab reads");
          (void)raw;
          advance(p - pos_);
          string(start, line, column);
          return;
        }
      }
      advance(p - pos_);
      emitAt(PyTok::Name, start, line, column, p - start);
      return;
    }
    if ((c >= '0' && c <= '9') || (c == '.' && at(pos_ + 1) >= '0' && at(pos_ + 1) <= '9')) {
      number();
      return;
    }
    if (c == '"' || c == '\'') {
      string(start, line, column);
      return;
    }
    auto op = [&](PyTok kind, size_t n) {
      advance(n);
      emitAt(kind, start, line, column, n);
    };
    char d = at(pos_ + 1);
    switch (c) {
      case '(': case '[': case '{':
        ++depth_;
        openLine_.push_back(line);
        openColumn_.push_back(column);
        return op(c == '(' ? PyTok::LParen : c == '[' ? PyTok::LBracket : PyTok::LBrace, 1);
      case ')': case ']': case '}': {
        if (depth_ == 0) fail(line, column, std::string("unmatched '") + c + "'");
        --depth_;
        openLine_.pop_back();
        openColumn_.pop_back();
        return op(c == ')' ? PyTok::RParen : c == ']' ? PyTok::RBracket : PyTok::RBrace, 1);
      }
      case ',': return op(PyTok::Comma, 1);
      case ':': return d == '=' ? op(PyTok::Walrus, 2) : op(PyTok::Colon, 1);
      case ';': return op(PyTok::Semi, 1);
      case '.': return op(PyTok::Dot, 1);
      case '@': return d == '=' ? op(PyTok::AugAssign, 2) : op(PyTok::At, 1);
      case '=': return d == '=' ? op(PyTok::EqEq, 2) : op(PyTok::Equal, 1);
      case '!':
        if (d == '=') return op(PyTok::NotEq, 2);
        break;
      case '-':
        if (d == '>') return op(PyTok::Arrow, 2);
        return d == '=' ? op(PyTok::AugAssign, 2) : op(PyTok::Minus, 1);
      case '+': return d == '=' ? op(PyTok::AugAssign, 2) : op(PyTok::Plus, 1);
      case '*':
        if (d == '*') return at(pos_ + 2) == '=' ? op(PyTok::AugAssign, 3) : op(PyTok::StarStar, 2);
        return d == '=' ? op(PyTok::AugAssign, 2) : op(PyTok::Star, 1);
      case '/':
        if (d == '/') return at(pos_ + 2) == '=' ? op(PyTok::AugAssign, 3) : op(PyTok::SlashSlash, 2);
        return d == '=' ? op(PyTok::AugAssign, 2) : op(PyTok::Slash, 1);
      case '%': return d == '=' ? op(PyTok::AugAssign, 2) : op(PyTok::Percent, 1);
      case '<':
        if (d == '<') return at(pos_ + 2) == '=' ? op(PyTok::AugAssign, 3) : op(PyTok::LShift, 2);
        return d == '=' ? op(PyTok::LessEq, 2) : op(PyTok::Less, 1);
      case '>':
        if (d == '>') return at(pos_ + 2) == '=' ? op(PyTok::AugAssign, 3) : op(PyTok::RShift, 2);
        return d == '=' ? op(PyTok::GreaterEq, 2) : op(PyTok::Greater, 1);
      case '~': return op(PyTok::Tilde, 1);
      case '&': return d == '=' ? op(PyTok::AugAssign, 2) : op(PyTok::Amp, 1);
      case '|': return d == '=' ? op(PyTok::AugAssign, 2) : op(PyTok::Pipe, 1);
      case '^': return d == '=' ? op(PyTok::AugAssign, 2) : op(PyTok::Caret, 1);
      default: break;
    }
    unsigned char u = static_cast<unsigned char>(c);
    char buf[64];
    if (u >= 0x20 && u < 0x7f) std::snprintf(buf, sizeof buf, "unexpected character '%c'", c);
    else std::snprintf(buf, sizeof buf, "unexpected byte 0x%02x", u);
    fail(line, column, buf);
  }

  void number() {
    size_t start = pos_;
    uint32_t line = line_, column = column_;
    size_t p = pos_;
    auto digits = [&](bool hex) {
      size_t from = p;
      while (true) {
        char ch = at(p);
        bool isDigit = (ch >= '0' && ch <= '9') || (hex && ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')));
        if (isDigit) ++p;
        else if (ch == '_' && p > from) ++p;
        else break;
      }
      return p > from;
    };
    bool isFloat = false;
    if (at(p) == '0' && (at(p + 1) == 'x' || at(p + 1) == 'X' || at(p + 1) == 'o' || at(p + 1) == 'O' ||
                         at(p + 1) == 'b' || at(p + 1) == 'B')) {
      p += 2;
      if (!digits(true)) fail(line, column, "malformed integer literal");
    } else {
      digits(false);
      if (at(p) == '.') {
        isFloat = true;
        ++p;
        digits(false);
      }
      if (at(p) == 'e' || at(p) == 'E') {
        size_t q = p + 1;
        if (at(q) == '+' || at(q) == '-') ++q;
        if (at(q) >= '0' && at(q) <= '9') {
          isFloat = true;
          p = q;
          digits(false);
        } else {
          fail(line, column, "malformed exponent in a number");
        }
      }
    }
    if (isPyNameChar(at(p))) fail(line, column + static_cast<uint32_t>(p - start), "malformed number");
    advance(p - start);
    emitAt(isFloat ? PyTok::Float : PyTok::Int, start, line, column, p - start);
  }

  /// A string starting at the quote at pos_; `start` includes a prefix if any.
  void string(size_t start, uint32_t line, uint32_t column) {
    char q = src_[pos_];
    bool triple = at(pos_ + 1) == q && at(pos_ + 2) == q;
    size_t p = pos_ + (triple ? 3 : 1);
    uint32_t curLine = line_, curCol = column_ + (triple ? 3 : 1);
    while (true) {
      if (p >= src_.size()) fail(line, column, "unterminated string");
      char ch = src_[p];
      if (ch == '\\') {
        if (p + 1 >= src_.size()) fail(line, column, "unterminated string");
        if (src_[p + 1] == '\n') {
          p += 2;
          ++curLine;
          curCol = 1;
          continue;
        }
        p += 2;
        curCol += 2;
        continue;
      }
      if (ch == '\n' || ch == '\r') {
        if (!triple) fail(line, column, "unterminated string (a string must end on its line)");
        p += (ch == '\r' && at(p + 1) == '\n') ? 2 : 1;
        ++curLine;
        curCol = 1;
        continue;
      }
      if (ch == q && (!triple || (at(p + 1) == q && at(p + 2) == q))) {
        p += triple ? 3 : 1;
        curCol += triple ? 3 : 1;
        break;
      }
      ++p;
      ++curCol;
    }
    // Only the quoted part is the token's text (a u/r prefix is dropped).
    size_t quoteAt = pos_;
    pos_ = p;
    line_ = curLine;
    column_ = curCol;
    PyToken t;
    t.kind = PyTok::String;
    t.offset = static_cast<uint32_t>(start);
    t.line = line;
    t.column = column;
    t.text = src_.substr(quoteAt, p - quoteAt);
    t.endLine = curLine;
    t.endColumn = curCol > 1 ? curCol - 1 : 1;
    out_.tokens.push_back(t);
  }

  std::shared_ptr<const SourceFile> file_;
  std::string_view src_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t column_ = 1;
  int depth_ = 0;
  std::vector<uint32_t> openLine_, openColumn_;
  std::vector<uint32_t> indents_;
  bool usedTabs_ = false, usedSpaces_ = false;
  PyTokens out_;
};

void appendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

PyTokens lexTvmScript(const std::shared_ptr<const SourceFile>& file) { return PyLexer(file).run(); }

std::string decodePyString(std::string_view quoted) {
  size_t quote = (quoted.size() >= 6 && quoted[0] == quoted[1] && quoted[1] == quoted[2]) ? 3 : 1;
  if (quoted.size() < 2 * quote) return {};
  std::string_view body = quoted.substr(quote, quoted.size() - 2 * quote);
  std::string out;
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
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case '\n': break;
      case 'x':
      case 'u': {
        size_t n = e == 'x' ? 2 : 4;
        uint32_t cp = 0;
        bool ok = i + n < body.size();
        for (size_t k = 1; ok && k <= n; ++k) {
          int h = i + k < body.size() ? hexValue(body[i + k]) : -1;
          if (h < 0) ok = false;
          else cp = cp * 16 + static_cast<uint32_t>(h);
        }
        if (ok) {
          appendUtf8(out, cp);
          i += n;
        } else {
          out += '\\';
          out += e;
        }
        break;
      }
      default:
        out += '\\';
        out += e;
    }
  }
  return out;
}

}  // namespace passlab::tvmscript
