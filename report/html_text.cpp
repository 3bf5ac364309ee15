#include "report/html_text.h"

#include <cstdio>

#include "core/trace/trace_json.h"

namespace passlab {

std::string htmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string scriptJsonString(std::string_view text) {
  // JSON's own escaping is the trace exporter's; what a <script> element
  // needs beyond it is written as \u escapes, which JSON reads the same.
  std::string json = jsonString(text);
  std::string out;
  out.reserve(json.size() + json.size() / 16);
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xE2' && i + 2 < json.size() && json[i + 1] == '\x80' && (json[i + 2] == '\xA8' || json[i + 2] == '\xA9')) {
      out += json[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string htmlId(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (plain) {
      out += c;
    } else {
      char buffer[4];
      std::snprintf(buffer, sizeof buffer, "_%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buffer;
    }
  }
  return out;
}

}  // namespace passlab
