// The textual pipeline syntax (docs/pipelines.md):
//
//   pipeline := [ item { ',' item } ]
//   item     := NAME [ '{' [ option { ',' option } ] '}' ]     a registered pass
//             | NAME '(' pipeline ')'                           a named nested pipeline
//   option   := NAME [ '=' value ]                             bare NAME means true
//   value    := INT | FLOAT | true | false | WORD | "quoted" | '[' [ value { ',' value } ] ']'
//             | '{' [ NAME '=' value { ',' NAME '=' value } ] '}'          a dict (TVM's desired_layouts)
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>

#include "core/ir/limits.h"
#include "core/pass/option_check.h"
#include "core/pass/registry.h"

namespace passlab {

namespace {

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
// Bare words in values may also hold '-', '+', '/' and ':' (layouts, targets, paths).
bool isWordChar(char c) { return isNameChar(c) || c == '-' || c == '+' || c == '/' || c == ':'; }

class PipelineParser {
 public:
  PipelineParser(std::string_view spec, const PassRegistry& registry, std::string sourceName, int depth = 0)
      : text_(spec), registry_(registry), file_(std::make_shared<SourceFile>(std::move(sourceName), std::string(spec))),
        namedDepth_(depth) {}

  PassPtr parse() {
    std::vector<PassPtr> passes = parseList(/*closing=*/'\0');
    return std::make_shared<Sequential>("pipeline", std::move(passes));
  }

 private:
  /// A located error covering [begin, end) of the spec.
  [[noreturn]] void fail(size_t begin, size_t end, std::string message) const {
    Diagnostic d;
    d.message = std::move(message);
    d.rule = "pipeline";
    d.span = spanOf(begin, std::max(end, begin + 1));
    throw DiagnosticError(std::move(d));
  }

  Span spanOf(size_t begin, size_t end) const {
    auto locate = [&](size_t offset, uint32_t& line, uint32_t& column) {
      const std::vector<uint32_t>& starts = file_->lineStarts;
      size_t i = std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin();
      line = static_cast<uint32_t>(i);
      column = static_cast<uint32_t>(offset - starts[i - 1] + 1);
    };
    Span span;
    span.file = file_;
    locate(begin, span.line, span.column);
    locate(end - 1, span.endLine, span.endColumn);
    return span;
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }
  /// Describes what is at the cursor for error messages.
  std::string found() const {
    if (atEnd()) return "end of pipeline";
    return std::string("'") + text_[pos_] + "'";
  }

  std::string parseName(const char* what) {
    skipSpace();
    if (!isNameStart(peek())) fail(pos_, pos_ + 1, std::string("expected ") + what + ", found " + found());
    size_t start = pos_;
    while (!atEnd() && isNameChar(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  std::vector<PassPtr> parseList(char closing) {
    std::vector<PassPtr> passes;
    skipSpace();
    if (atEnd() || peek() == closing) return passes;
    while (true) {
      parseItem(passes);
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (closing == '\0' && atEnd()) return passes;
      if (closing != '\0' && peek() == closing) return passes;
      fail(pos_, pos_ + 1,
           std::string("expected ',' or ") + (closing ? "')'" : "end of pipeline") + " after a pass, found " + found());
    }
  }

  /// Appends one item to `passes`: a pass, a nested pipeline, or the passes of a named pipeline.
  void parseItem(std::vector<PassPtr>& passes) {
    skipSpace();
    size_t nameStart = pos_;
    std::string name = parseName("a pass name");
    size_t nameEnd = pos_;
    const PassRegistration* registration = registry_.find(name);
    skipSpace();
    if (peek() == '(') {
      if (registration) fail(nameStart, nameEnd, "pass '" + name + "' does not take a nested pipeline; use '{...}' for options");
      Depth depth(*this, pos_);
      ++pos_;
      std::vector<PassPtr> inner = parseList(')');
      skipSpace();
      if (peek() != ')') fail(pos_, pos_ + 1, "expected ')' to close nested pipeline '" + name + "', found " + found());
      ++pos_;
      passes.push_back(std::make_shared<Sequential>(name, std::move(inner)));
      return;
    }
    if (!registration) {
      if (const NamedPipeline* named = registry_.findPipeline(name)) {
        if (peek() == '{') fail(nameStart, pos_ + 1, "named pipeline '" + name + "' takes no options");
        // Its passes are spliced in: `pipeline relay.default` lists the passes, not one step.
        if (namedDepth_ >= kMaxNamedDepth) fail(nameStart, nameEnd, "named pipeline '" + name + "' is nested too deeply (does it name itself?)");
        PassPtr inner = PipelineParser(named->spec, registry_, name, namedDepth_ + 1).parse();
        for (const PassPtr& p : inner->subPasses()) passes.push_back(p);
        return;
      }
      fail(nameStart, nameEnd, pass_detail::unknownPassMessage(name, registry_));
    }
    AttrDict options;
    if (peek() == '{') {
      ++pos_;
      parseOptions(*registration, options);
    }
    PassPtr pass;
    try {
      pass = registration->create(pass_detail::completeOptions(*registration, options));
    } catch (const DiagnosticError& error) {
      // A factory rejects option values the schema cannot express (an unknown
      // rule name, say): point at the whole pass.
      fail(nameStart, pos_, error.diagnostics().front().message);
    }
    if (!pass) fail(nameStart, nameEnd, "internal: the factory of pass '" + name + "' returned null");
    passes.push_back(std::move(pass));
  }

  void parseOptions(const PassRegistration& registration, AttrDict& options) {
    const std::string& pass = registration.info.name;
    skipSpace();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    while (true) {
      skipSpace();
      size_t keyStart = pos_;
      std::string key = parseName("an option name");
      size_t keyEnd = pos_;
      if (options.contains(key)) fail(keyStart, keyEnd, "option '" + key + "' of pass '" + pass + "' is given twice");
      skipSpace();
      AttrValue value = AttrValue::boolean(true);
      size_t valueStart = keyStart, valueEnd = keyEnd;
      if (peek() == '=') {
        ++pos_;
        skipSpace();
        valueStart = pos_;
        value = parseValue("option '" + key + "'");
        valueEnd = pos_;
      }
      pass_detail::OptionCheck check = pass_detail::checkOption(registration, key, value);
      if (check.status == pass_detail::OptionCheck::Status::UnknownKey) fail(keyStart, keyEnd, check.message);
      if (check.status == pass_detail::OptionCheck::Status::BadValue) fail(valueStart, valueEnd, check.message);
      options.set(key, check.value);
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return;
      }
      fail(pos_, pos_ + 1, "expected ',' or '}' in the options of pass '" + pass + "', found " + found());
    }
  }

  AttrValue parseValue(const std::string& what) {
    skipSpace();
    char c = peek();
    if (c == '[') return parseArray(what);
    if (c == '{') return parseDict(what);
    if (c == '"') return AttrValue::string(parseQuoted());
    if (std::isdigit(static_cast<unsigned char>(c)) || ((c == '-' || c == '+' || c == '.') && pos_ + 1 < text_.size() &&
                                                        (std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])) || text_[pos_ + 1] == '.')))
      return parseNumber();
    if (isWordChar(c) && c != '-' && c != '+') {
      size_t start = pos_;
      while (!atEnd() && isWordChar(text_[pos_])) ++pos_;
      std::string_view word = text_.substr(start, pos_ - start);
      if (word == "true" || word == "True") return AttrValue::boolean(true);
      if (word == "false" || word == "False") return AttrValue::boolean(false);
      return AttrValue::string(std::string(word));
    }
    fail(pos_, pos_ + 1, "expected a value for " + what + ", found " + found());
  }

  /// Comma-separated items up to `close` (the opening bracket already read);
  /// `item` parses one, `kind` names the list in errors ("list", "dict").
  template <class ParseItem>
  void parseItems(char close, const char* kind, const std::string& what, ParseItem&& item) {
    skipSpace();
    if (peek() == close) {
      ++pos_;
      return;
    }
    while (true) {
      item();
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == close) {
        ++pos_;
        return;
      }
      fail(pos_, pos_ + 1, std::string("expected ',' or '") + close + "' in the " + kind + " for " + what + ", found " + found());
    }
  }

  AttrValue parseArray(const std::string& what) {
    Depth depth(*this, pos_);
    ++pos_;  // '['
    std::vector<AttrValue> items;
    parseItems(']', "list", what, [&] { items.push_back(parseValue(what)); });
    return AttrValue::array(std::move(items));
  }

  /// `{key=value, ...}`: keys are names (dots allowed: relax.nn.conv2d).
  AttrValue parseDict(const std::string& what) {
    Depth depth(*this, pos_);
    ++pos_;  // '{'
    AttrDict entries;
    parseItems('}', "dict", what, [&] {
      skipSpace();
      size_t keyStart = pos_;
      std::string key = parseName("a dict key");
      if (entries.contains(key)) fail(keyStart, pos_, "key '" + key + "' is given twice in the dict for " + what);
      skipSpace();
      if (peek() != '=') fail(pos_, pos_ + 1, "expected '=' after key '" + key + "' in the dict for " + what + ", found " + found());
      ++pos_;
      entries.set(key, parseValue(what));
    });
    return AttrValue::dict(std::move(entries));
  }

  std::string parseQuoted() {
    size_t start = pos_++;
    std::string out;
    while (true) {
      if (atEnd()) fail(start, pos_, "unterminated string");
      char c = text_[pos_++];
      if (c == '"') return out;
      if (c == '\\') {
        if (atEnd()) fail(start, pos_, "unterminated string");
        char e = text_[pos_++];
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case '"':
          case '\\': out += e; break;
          default: fail(pos_ - 2, pos_, std::string("unknown escape '\\") + e + "' in string");
        }
        continue;
      }
      out += c;
    }
  }

  AttrValue parseNumber() {
    size_t start = pos_;
    if (peek() == '-' || peek() == '+') ++pos_;
    bool isFloat = false;
    while (!atEnd() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (peek() == '.') {
      isFloat = true;
      ++pos_;
      while (!atEnd() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      isFloat = true;
      ++pos_;
      if (peek() == '-' || peek() == '+') ++pos_;
      size_t digits = pos_;
      while (!atEnd() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      if (digits == pos_) fail(start, pos_, "malformed number '" + std::string(text_.substr(start, pos_ - start)) + "'");
    }
    // A number glued to letters ("4x") is a typo, not a word.
    if (!atEnd() && isWordChar(text_[pos_])) {
      while (!atEnd() && isWordChar(text_[pos_])) ++pos_;
      fail(start, pos_, "malformed number '" + std::string(text_.substr(start, pos_ - start)) + "'");
    }
    std::string literal(text_.substr(start, pos_ - start));
    try {
      if (isFloat) return AttrValue::floating(std::stod(literal));
      return AttrValue::integer(std::stoll(literal));
    } catch (const std::exception&) {
      fail(start, pos_, "number '" + literal + "' is out of range");
    }
  }

  /// Bounds the recursion of nested pipelines and option lists, so a hostile
  /// spec is a located error and not a stack overflow.
  struct Depth {
    Depth(PipelineParser& parser, size_t at) : parser_(parser) {
      if (++parser_.depth_ > limits::kMaxNestingDepth)
        parser_.fail(at, at + 1, "nesting too deep (more than " + std::to_string(limits::kMaxNestingDepth) + " levels)");
    }
    ~Depth() { --parser_.depth_; }
    PipelineParser& parser_;
  };

  std::string_view text_;
  const PassRegistry& registry_;
  std::shared_ptr<SourceFile> file_;
  size_t pos_ = 0;
  /// Brackets open at the cursor (Depth).
  int depth_ = 0;
  /// Named pipelines being expanded around this parser (a cycle is an error, not a stack overflow).
  int namedDepth_ = 0;
  static constexpr int kMaxNamedDepth = 8;
};

bool isBareWord(const std::string& s) {
  if (s.empty() || !isNameStart(s[0])) return false;
  if (s == "true" || s == "false" || s == "True" || s == "False") return false;
  for (char c : s)
    if (!isWordChar(c)) return false;
  return true;
}

std::string pipelineTextImpl(const Pass& pass, bool topLevel) {
  if (auto* seq = dynamic_cast<const Sequential*>(&pass)) {
    std::string inner;
    for (const PassPtr& sub : seq->subPasses()) inner += (inner.empty() ? "" : ",") + pipelineTextImpl(*sub, false);
    if (topLevel && seq->info().name == "pipeline") return inner;
    return seq->info().name + "(" + inner + ")";
  }
  std::string text = pass.info().name;
  if (!pass.options().empty()) text += "{" + optionsText(pass.options()) + "}";
  return text;
}

}  // namespace

PassPtr parsePipeline(std::string_view spec, const PassRegistry& registry, std::string sourceName) {
  return PipelineParser(spec, registry, std::move(sourceName)).parse();
}

std::string pipelineText(const Pass& pass) { return pipelineTextImpl(pass, true); }

std::string formatOptionValue(const AttrValue& value) {
  switch (value.kind()) {
    case AttrValue::Kind::None: return "none";
    case AttrValue::Kind::Bool: return value.asBool() ? "true" : "false";
    case AttrValue::Kind::Int: return std::to_string(value.asInt());
    case AttrValue::Kind::Float: {
      double v = value.asFloat();
      if (!std::isfinite(v)) return std::isnan(v) ? "\"nan\"" : (v > 0 ? "\"inf\"" : "\"-inf\"");
      char buffer[40];
      // The shortest %g form that reads back to the same double.
      for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, v);
        if (std::stod(buffer) == v) break;
      }
      std::string text = buffer;
      if (text.find_first_of(".eE") == std::string::npos) text += ".0";
      return text;
    }
    case AttrValue::Kind::String: {
      const std::string& s = value.asString();
      if (isBareWord(s)) return s;
      std::string out = "\"";
      for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
          out += "\\n";
          continue;
        }
        if (c == '\t') {
          out += "\\t";
          continue;
        }
        out += c;
      }
      return out + "\"";
    }
    case AttrValue::Kind::Array: {
      std::string out = "[";
      for (const AttrValue& item : value.asArray()) out += (out.size() > 1 ? "," : "") + formatOptionValue(item);
      return out + "]";
    }
    case AttrValue::Kind::Dict: {
      std::string out = "{";
      for (const auto& [key, item] : value.asDict().entries()) out += (out.size() > 1 ? "," : "") + key + "=" + formatOptionValue(item);
      return out + "}";
    }
    case AttrValue::Kind::MetaRef: return value.toString();
  }
  return "";
}

std::string optionsText(const AttrDict& options) {
  std::string out;
  for (const auto& [key, value] : options.entries()) out += (out.empty() ? "" : ",") + key + "=" + formatOptionValue(value);
  return out;
}

}  // namespace passlab
