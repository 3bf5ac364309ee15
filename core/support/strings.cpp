#include "core/support/strings.h"

#include <cctype>
#include <cstdio>

namespace passlab {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  while (true) {
    size_t at = text.find(separator);
    pieces.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return pieces;
    text.remove_prefix(at + 1);
  }
}

std::vector<std::string> splitList(std::string_view text, char separator) {
  std::vector<std::string> items;
  for (std::string_view piece : split(text, separator))
    if (!piece.empty()) items.emplace_back(piece);
  return items;
}

std::set<std::string> splitSet(std::string_view text, char separator) {
  std::set<std::string> items;
  for (std::string_view piece : split(text, separator))
    if (!trim(piece).empty()) items.emplace(trim(piece));
  return items;
}

std::string stripAt(std::string_view name) {
  if (!name.empty() && name.front() == '@') name.remove_prefix(1);
  return std::string(name);
}

std::string formatSignificant(double value, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  return buf;
}

}  // namespace passlab
