#include "core/workbench/value_text.h"
#include "core/support/strings.h"

#include <cctype>
#include <charconv>
#include <stdexcept>

namespace passlab {
namespace {

/// A recursive-descent reader over one value's text. Values typed by users are
/// a line long, so recursion depth is not a concern here.
class ValueReader {
 public:
  explicit ValueReader(std::string_view text) : text_(text) {}

  AttrValue readAll() {
    AttrValue v = read();
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected text after the value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("cannot read value '" + std::string(text_) + "': " + what);
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  AttrValue read() {
    skipSpace();
    if (pos_ >= text_.size()) fail("a value is missing");
    char c = text_[pos_];
    if (c == '"') return AttrValue::string(readQuoted());
    if (c == '[') return readArray();
    if (c == '{') return readDict();
    if (text_.substr(pos_, 5) == "meta[") return readMetaRef();
    return readWord();
  }

  /// `meta[Kind][N]`, as the printer writes a virtual device.
  AttrValue readMetaRef() {
    pos_ += 5;
    size_t close = text_.find(']', pos_);
    if (close == std::string_view::npos || close == pos_) fail("expected meta[Kind][N]");
    std::string kind(text_.substr(pos_, close - pos_));
    pos_ = close + 1;
    if (!eat('[')) fail("expected '[' and an index after meta[" + kind + "]");
    skipSpace();
    int64_t index = -1;
    auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), index);
    if (ec != std::errc() || index < 0) fail("expected a non-negative index in meta[" + kind + "][N]");
    pos_ = static_cast<size_t>(end - text_.data());
    if (!eat(']')) fail("expected ']' after the metadata index");
    return AttrValue::metaRef(std::move(kind), index);
  }

  std::string readQuoted() {
    ++pos_;  // opening quote
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("a backslash ends the string");
      char e = text_[pos_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        default: out += e; break;
      }
    }
    if (pos_ >= text_.size()) fail("the string is not closed");
    ++pos_;
    return out;
  }

  AttrValue readArray() {
    ++pos_;
    std::vector<AttrValue> items;
    if (eat(']')) return AttrValue::array(std::move(items));
    do items.push_back(read());
    while (eat(','));
    if (!eat(']')) fail("expected ',' or ']'");
    return AttrValue::array(std::move(items));
  }

  AttrValue readDict() {
    ++pos_;
    AttrDict dict;
    if (eat('}')) return AttrValue::dict(std::move(dict));
    do {
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') fail("dictionary keys are quoted strings");
      std::string key = readQuoted();
      if (!eat(':')) fail("expected ':' after a dictionary key");
      dict.set(std::move(key), read());
    } while (eat(','));
    if (!eat('}')) fail("expected ',' or '}'");
    return AttrValue::dict(std::move(dict));
  }

  AttrValue readWord() {
    size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) && text_[pos_] != ',' &&
           text_[pos_] != ']' && text_[pos_] != '}')
      ++pos_;
    std::string_view word = text_.substr(start, pos_ - start);
    if (word.empty()) fail("a value is missing");
    return wordValue(word);
  }

 public:
  /// Interprets one unquoted word.
  static AttrValue wordValue(std::string_view word) {
    if (word == "None") return AttrValue::none();
    if (word == "True" || word == "true") return AttrValue::boolean(true);
    if (word == "False" || word == "false") return AttrValue::boolean(false);
    int64_t i = 0;
    auto [iend, iec] = std::from_chars(word.data(), word.data() + word.size(), i);
    if (iec == std::errc() && iend == word.data() + word.size()) return AttrValue::integer(i);
    std::string_view number = word;
    // The printer marks floats with an `f` suffix ("1f", "0.5f"), so read it back.
    if (!number.empty() && (number.back() == 'f' || number.back() == 'F')) number.remove_suffix(1);
    double d = 0;
    auto [dend, dec] = std::from_chars(number.data(), number.data() + number.size(), d);
    if (!number.empty() && dec == std::errc() && dend == number.data() + number.size()) return AttrValue::floating(d);
    return AttrValue::string(std::string(word));
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

std::string_view attrKindName(AttrValue::Kind kind) {
  switch (kind) {
    case AttrValue::Kind::None: return "none";
    case AttrValue::Kind::Bool: return "bool";
    case AttrValue::Kind::Int: return "int";
    case AttrValue::Kind::Float: return "float";
    case AttrValue::Kind::String: return "string";
    case AttrValue::Kind::Array: return "array";
    case AttrValue::Kind::Dict: return "dict";
    case AttrValue::Kind::MetaRef: return "metadata reference";
  }
  return "none";
}

AttrValue parseAttrValueText(std::string_view text) { return ValueReader(trim(text)).readAll(); }

AttrValue parseAttrValueAs(std::string_view text, AttrValue::Kind kind) {
  std::string_view t = trim(text);
  auto mismatch = [&]() -> AttrValue {
    throw std::invalid_argument("expected " + std::string(attrKindName(kind)) + " value, got '" + std::string(t) + "'");
  };
  switch (kind) {
    case AttrValue::Kind::String:
      if (!t.empty() && t.front() == '"') {
        AttrValue v = parseAttrValueText(t);
        return v.kind() == AttrValue::Kind::String ? v : mismatch();
      }
      // Target strings contain spaces and dashes ("hexagon -mcpu=hexagonv68"): take them whole.
      return AttrValue::string(std::string(t));
    case AttrValue::Kind::Bool:
      if (t == "on" || t == "1" || t == "True" || t == "true") return AttrValue::boolean(true);
      if (t == "off" || t == "0" || t == "False" || t == "false") return AttrValue::boolean(false);
      return mismatch();
    case AttrValue::Kind::Int: {
      AttrValue v = parseAttrValueText(t);
      if (v.kind() == AttrValue::Kind::Int) return v;
      if (v.kind() == AttrValue::Kind::Bool) return AttrValue::integer(v.asInt());
      return mismatch();
    }
    case AttrValue::Kind::Float: {
      AttrValue v = parseAttrValueText(t);
      if (v.kind() == AttrValue::Kind::Float) return v;
      if (v.kind() == AttrValue::Kind::Int) return AttrValue::floating(v.asFloat());
      return mismatch();
    }
    case AttrValue::Kind::Array: {
      AttrValue v = parseAttrValueText(t);
      return v.kind() == AttrValue::Kind::Array ? v : mismatch();
    }
    case AttrValue::Kind::Dict: {
      AttrValue v = parseAttrValueText(t);
      return v.kind() == AttrValue::Kind::Dict ? v : mismatch();
    }
    case AttrValue::Kind::None: return parseAttrValueText(t);
    case AttrValue::Kind::MetaRef: {
      AttrValue v = parseAttrValueText(t);
      return v.kind() == AttrValue::Kind::MetaRef ? v : mismatch();
    }
  }
  return mismatch();
}

}  // namespace passlab
