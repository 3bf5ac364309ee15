// A small JSON reader for the metadata sections passlab reads (TVM's legacy
// save_json and tvm-ffi's JSON graph): objects, arrays, strings, numbers,
// true/false/null, each value remembering its byte offset so a malformed
// section is reported where it is wrong. Input is untrusted (fuzzed).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/text/metadata.h"

namespace passlab::metadata_json {

/// A parsed JSON value (only what save_json writes: objects, arrays, strings,
/// numbers, true/false/null). Numbers keep their text.
struct Json {
  enum class Kind : uint8_t { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  size_t offset = 0;
  std::string text;  // string value or number text
  std::vector<Json> items;
  /// Object members: keys[i] names values[i] (a vector of pairs would need Json complete).
  std::vector<std::string> keys;
  std::vector<Json> values;

  const Json* member(std::string_view key) const {
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key) return &values[i];
    return nullptr;
  }
};

/// Recursive descent with a depth bound; save_json output is at most 4 deep.
class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : s_(text) {}

  Json parseDocument() {
    Json v = value(0);
    skipSpace();
    if (pos_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 64;

  [[noreturn]] void fail(const std::string& message) const { throw MetadataError("metadata JSON: " + message, pos_); }

  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }

  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Json value(int depth) {
    if (depth > kMaxDepth) fail("nesting too deep");
    skipSpace();
    Json v;
    v.offset = pos_;
    if (pos_ >= s_.size()) fail("unexpected end of input");
    char c = s_[pos_];
    if (c == '{') {
      v.kind = Json::Kind::Object;
      ++pos_;
      skipSpace();
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return v;
      }
      while (true) {
        skipSpace();
        if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a string key");
        std::string key = string();
        skipSpace();
        if (pos_ >= s_.size() || s_[pos_] != ':') fail("expected ':'");
        ++pos_;
        v.keys.push_back(std::move(key));
        v.values.push_back(value(depth + 1));
        skipSpace();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == '}') {
          ++pos_;
          return v;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = Json::Kind::Array;
      ++pos_;
      skipSpace();
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return v;
      }
      while (true) {
        v.items.push_back(value(depth + 1));
        skipSpace();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == ']') {
          ++pos_;
          return v;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.kind = Json::Kind::String;
      v.text = string();
      return v;
    }
    if (literal("true") || literal("false")) {
      v.kind = Json::Kind::Bool;
      v.text = s_[v.offset] == 't' ? "true" : "false";
      return v;
    }
    if (literal("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = Json::Kind::Number;
      size_t start = pos_;
      while (pos_ < s_.size() && (std::strchr("+-.eE", s_[pos_]) || (s_[pos_] >= '0' && s_[pos_] <= '9'))) ++pos_;
      v.text = std::string(s_.substr(start, pos_ - start));
      return v;
    }
    fail(std::string("unexpected character '") + c + "'");
  }

  std::string string() {
    ++pos_;  // '"'
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated string");
      char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          // Keys and type names are ASCII; anything else is kept as '?'.
          if (s_.size() - pos_ < 4) fail("bad \\u escape");
          unsigned code = 0;
          for (int i = 0; i < 4; ++i) {
            char h = s_[pos_++];
            code <<= 4;
            if (h >= '0' && h <= '9') code |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f') code |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') code |= static_cast<unsigned>(h - 'A' + 10);
            else fail("bad \\u escape");
          }
          out += code < 0x80 ? static_cast<char>(code) : '?';
          break;
        }
        default: fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace passlab::metadata_json
