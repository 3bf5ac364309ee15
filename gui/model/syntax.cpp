#include "gui/model/syntax.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace passlab::gui {
namespace {

constexpr std::array<std::string_view, 8> kWatched = {"Compiler", "Extern",      "Inline", "Primitive",
                                                      "global_symbol", "target", "link_params", "phase"};

// Relay text's keywords, then TVMScript's (Python's) ones.
constexpr std::array<std::string_view, 23> kKeywords = {"def",    "fn",     "let",      "if",         "else",   "free_var",
                                                        "dataflow", "output", "for",    "in",         "primfn", "prim_func",
                                                        "serial", "parallel", "vectorized", "unrolled", "allocate",
                                                        "class",  "with",   "return",   "as",         "from",   "import"};

constexpr std::array<std::string_view, 4> kLiteralWords = {"True", "False", "None", "meta"};

constexpr std::array<std::string_view, 13> kTypeWords = {"Tensor", "float16", "float32", "float64", "int8", "int16", "int32",
                                                         "int64",  "uint8",   "bool",    "Tuple",   "handle", "void"};

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

template <size_t N>
bool contains(const std::array<std::string_view, N>& words, std::string_view w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

/// Appends a run, merging with the previous run of the same role.
void push(std::vector<Token>& out, size_t begin, size_t end, ColourRole role) {
  if (end <= begin) return;
  if (!out.empty() && out.back().role == role && out.back().end == begin) {
    out.back().end = static_cast<uint32_t>(end);
    return;
  }
  out.push_back(Token{static_cast<uint32_t>(begin), static_cast<uint32_t>(end), role});
}

size_t skipSpaces(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

}  // namespace

std::span<const std::string_view> watchedAttributes() { return kWatched; }

std::string_view canonicalWatchedAttribute(std::string_view word) {
  if (word == "link-params") return "link_params";
  for (std::string_view w : kWatched)
    if (w == word) return w;
  return {};
}

bool isWatchedAttribute(std::string_view word) { return !canonicalWatchedAttribute(word).empty(); }

void tokenizeLine(std::string_view s, std::vector<Token>& out) {
  out.clear();
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    const size_t begin = i;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t close = s.find("*/", i + 2);
      i = close == std::string_view::npos ? s.size() : close + 2;
      push(out, begin, i, ColourRole::Comment);
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/' && skipSpaces(s, 0) == i) {
      // A `//` comment stands on its own line (the printer writes none); inside
      // a line `//` is TVMScript's floor division (`ax0 // 4`).
      push(out, begin, s.size(), ColourRole::Comment);
      i = s.size();
    } else if (c == '#' && i + 1 < s.size() && s[i + 1] == '[') {
      // Module attributes print as `#[phase = 1]`, `#[executor = {...}]`: the
      // brackets are dimmed, the inside is tokenized so `phase` stays visible.
      i += 2;
      push(out, begin, i, ColourRole::Comment);
    } else if (c == '#') {
      // Any other `#` starts a TVMScript (Python) comment, e.g. `# from tvm.script import ...`.
      push(out, begin, s.size(), ColourRole::Comment);
      i = s.size();
    } else if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"') i += s[i] == '\\' && i + 1 < s.size() ? 2 : 1;
      if (i < s.size()) ++i;
      std::string_view content = s.substr(begin + 1, i >= begin + 2 ? i - begin - 2 : 0);
      push(out, begin, i, isWatchedAttribute(content) ? ColourRole::WatchedAttr : ColourRole::String);
    } else if ((c == '@' || c == '%') && i + 1 < s.size() && (isIdentChar(s[i + 1]))) {
      ++i;
      while (i < s.size() && isIdentChar(s[i])) ++i;
      push(out, begin, i, c == '@' ? ColourRole::GlobalName : ColourRole::LocalName);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      ++i;
      while (i < s.size()) {
        char d = s[i];
        bool exponentSign = (d == '-' || d == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E') &&
                            std::isdigit(static_cast<unsigned char>(s[begin]));
        if (!(std::isalnum(static_cast<unsigned char>(d)) || d == '.' || d == '_' || exponentSign)) break;
        ++i;
      }
      push(out, begin, i, ColourRole::Number);
    } else if (isIdentStart(c)) {
      while (i < s.size() && isIdentChar(s[i])) ++i;
      std::string_view word = s.substr(begin, i - begin);
      // `link-params` is the one watched name with a dash (the executor's key).
      if (word == "link" && s.substr(i, 7) == "-params") {
        i += 7;
        word = s.substr(begin, i - begin);
      }
      size_t next = skipSpaces(s, i);
      bool beforeAssign = next < s.size() && s[next] == '=' && !(next + 1 < s.size() && s[next + 1] == '=');
      bool beforeParen = next < s.size() && s[next] == '(';
      ColourRole role = ColourRole::Text;
      if (isWatchedAttribute(word))
        role = ColourRole::WatchedAttr;
      else if (contains(kKeywords, word))
        role = ColourRole::Keyword;
      else if (contains(kLiteralWords, word))
        role = ColourRole::Number;
      else if (contains(kTypeWords, word))
        role = ColourRole::TypeName;
      else if (beforeAssign)
        role = ColourRole::AttrKey;
      else if (beforeParen)
        role = ColourRole::OpName;
      push(out, begin, i, role);
    } else {
      ++i;
      push(out, begin, i, ColourRole::Text);
    }
  }
}

std::vector<std::string_view> watchedAttributesIn(std::string_view line) {
  std::vector<std::string_view> found;
  std::vector<Token> tokens;
  tokenizeLine(line, tokens);
  for (const Token& t : tokens) {
    if (t.role != ColourRole::WatchedAttr) continue;
    std::string_view word = line.substr(t.begin, t.end - t.begin);
    if (word.size() >= 2 && word.front() == '"') word = word.substr(1, word.size() - 2);
    // Adjacent watched runs are merged by tokenizeLine only when they touch, which
    // cannot happen between two words, so each run is one name.
    std::string_view canonical = canonicalWatchedAttribute(word);
    if (!canonical.empty() && std::find(found.begin(), found.end(), canonical) == found.end()) found.push_back(canonical);
  }
  return found;
}

}  // namespace passlab::gui
