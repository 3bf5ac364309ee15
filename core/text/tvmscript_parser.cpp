// ScriptParser: the token cursor and diagnostics every TVMScript grammar half uses.
#include "core/text/tvmscript_parser.h"

#include "core/text/tvmscript_tir.h"

#include <cerrno>
#include <climits>
#include <cstdlib>

namespace passlab::tvmscript {

ScriptParser::ScriptParser(std::string text, std::string fileName)
    : file_(std::make_shared<const SourceFile>(std::move(fileName), std::move(text))) {
  PyTokens lexed = lexTvmScript(file_);
  tokens_ = std::move(lexed.tokens);
  comments_ = std::move(lexed.comments);
  if (tokens_.empty() || tokens_.back().kind != PyTok::End) tokens_.push_back(PyToken{});
}

const PyToken& ScriptParser::peek(size_t k) const {
  size_t i = pos_ + k;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const PyToken& ScriptParser::take() {
  const PyToken& t = tokens_[pos_];
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool ScriptParser::accept(PyTok kind) {
  if (!check(kind)) return false;
  take();
  return true;
}

bool ScriptParser::acceptName(std::string_view word) {
  if (!checkName(word)) return false;
  take();
  return true;
}

const PyToken& ScriptParser::expect(PyTok kind, std::string_view what) {
  if (!check(kind)) failExpected(what);
  return take();
}

const PyToken& ScriptParser::expectName(std::string_view word, std::string_view what) {
  if (!checkName(word)) failExpected(what);
  return take();
}

const PyToken& ScriptParser::expectAnyName(std::string_view what) {
  if (!check(PyTok::Name)) failExpected(what);
  return take();
}

void ScriptParser::expectEndOfStatement() {
  if (accept(PyTok::Semi) && check(PyTok::Newline)) {
    take();
    return;
  }
  if (check(PyTok::End)) return;
  if (!check(PyTok::Newline)) failExpected("the end of the statement");
  take();
}

void ScriptParser::expectBlockStart(std::string_view what) {
  expect(PyTok::Colon, std::string("':' to start ") + std::string(what));
  if (!check(PyTok::Newline)) fail(peek(), std::string("expected ") + std::string(what) + " on the following lines, indented");
  take();
  if (!check(PyTok::Indent)) fail(peek(), std::string("expected ") + std::string(what) + " indented below this line");
  take();
}

int64_t ScriptParser::intValue(const PyToken& t) const {
  std::string digits;
  for (char c : t.text)
    if (c != '_') digits += c;
  int base = 10;
  size_t start = 0;
  if (digits.size() > 1 && digits[0] == '0') {
    char k = static_cast<char>(digits[1] | 0x20);
    if (k == 'x') base = 16;
    else if (k == 'o') base = 8;
    else if (k == 'b') base = 2;
    if (base != 10) start = 2;
  }
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(digits.c_str() + start, &end, base);
  if (errno == ERANGE || v > static_cast<unsigned long long>(INT64_MAX) || end == digits.c_str() + start)
    fail(t, "integer " + std::string(t.text) + " does not fit in 64 bits");
  return static_cast<int64_t>(v);
}

double ScriptParser::floatValue(const PyToken& t) {
  std::string digits;
  for (char c : t.text)
    if (c != '_') digits += c;
  return std::strtod(digits.c_str(), nullptr);
}

bool ScriptParser::checkDotted(std::string_view dotted) const {
  size_t k = 0;
  while (true) {
    size_t dot = dotted.find('.');
    std::string_view part = dotted.substr(0, dot);
    if (!peek(k).is(part)) return false;
    if (dot == std::string_view::npos) return true;
    if (!check(PyTok::Dot, k + 1)) return false;
    dotted.remove_prefix(dot + 1);
    k += 2;
  }
}

std::string ScriptParser::takeDotted(std::string_view what) {
  std::string out(expectAnyName(what).text);
  while (check(PyTok::Dot) && check(PyTok::Name, 1)) {
    take();
    out += '.';
    out += take().text;
  }
  return out;
}

Span ScriptParser::spanOf(const PyToken& t) const { return spanOf(t, t); }

Span ScriptParser::spanOf(const PyToken& first, const PyToken& lastTok) const {
  Span s;
  s.file = file_;
  s.line = first.line;
  s.column = first.column;
  s.endLine = lastTok.endLine;
  s.endColumn = lastTok.endColumn;
  if (s.endLine < s.line || (s.endLine == s.line && s.endColumn < s.column)) {
    s.endLine = s.line;
    s.endColumn = s.column;
  }
  return s;
}

void ScriptParser::fail(const PyToken& t, std::string message) const { failAt(spanOf(t), std::move(message)); }

void ScriptParser::failAt(const Span& span, std::string message) const {
  Diagnostic d;
  d.severity = Severity::Error;
  d.span = span;
  d.message = std::move(message);
  d.rule = "parse";
  throw DiagnosticError(std::move(d));
}

void ScriptParser::failExpected(std::string_view what) const {
  fail(peek(), "expected " + std::string(what) + ", got " + describe(peek()));
}

std::string ScriptParser::describe(const PyToken& t) {
  switch (t.kind) {
    case PyTok::Name:
    case PyTok::Int:
    case PyTok::Float:
      return "'" + std::string(t.text) + "'";
    case PyTok::String: {
      std::string s(t.text.substr(0, 40));
      if (t.text.size() > 40) s += "...";
      return "string " + s;
    }
    case PyTok::AugAssign: return "'" + std::string(t.text) + "'";
    default: return std::string(pyTokName(t.kind));
  }
}

void ScriptParser::note(const Span& span, std::string message, std::string rule) {
  Diagnostic d;
  d.severity = Severity::Note;
  d.span = span;
  d.message = std::move(message);
  d.rule = std::move(rule);
  notes_.push_back(std::move(d));
}

ScriptParser::Depth::Depth(ScriptParser& p) : parser(p) {
  if (++parser.depth_ > kMaxScriptNesting) {
    --parser.depth_;
    parser.fail(parser.peek(), "nesting deeper than " + std::to_string(kMaxScriptNesting) + " levels");
  }
}

void ScriptParser::noteSpelling(TvmScriptSpelling spelling, const PyToken& at) {
  if (!spellingSeen_) {
    spellingSeen_ = true;
    spelling_ = spelling;
    return;
  }
  if (spelling == spelling_ || mixNoted_) return;
  mixNoted_ = true;
  note(spanOf(at), std::string("'") + std::string(at.text) + "' is the spelling of TVM's " +
                            (spelling == TvmScriptSpelling::Main ? "main branch" : "releases") +
                            ", while earlier text used the other; the module prints back in the first one met");
}

bool scriptIsPrivate(const AttrDict& attrs, const std::string& name) {
  const AttrValue* symbol = attrs.find("global_symbol");
  return symbol == nullptr || symbol->kind() != AttrValue::Kind::String || symbol->asString() != name;
}

}  // namespace passlab::tvmscript
