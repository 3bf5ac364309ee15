#include "gui/model/constant_ref_span.h"

#include <cctype>

#include "core/text/constant_refs.h"

namespace passlab::gui {
namespace {

constexpr std::string_view kRelayPrefix = "meta[relay.Constant][";
constexpr std::string_view kScriptPrefix = "metadata[\"relax.expr.Constant\"][";

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '%' || c == '@'; }

/// The reference that starts at `at` (prefix, digits, `]`), or nullopt.
std::optional<ConstantRefSpan> refStartingAt(std::string_view line, size_t at) {
  for (bool script : {false, true}) {
    std::string_view prefix = script ? kScriptPrefix : kRelayPrefix;
    if (line.substr(at, prefix.size()) != prefix) continue;
    size_t i = at + prefix.size(), digits = i;
    int64_t n = 0;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) && i - digits < 9)
      n = n * 10 + (line[i++] - '0');
    if (i == digits || i >= line.size() || line[i] != ']') return std::nullopt;
    return ConstantRefSpan{at, i + 1, static_cast<int32_t>(n), script};
  }
  return std::nullopt;
}

}  // namespace

std::vector<ConstantRefSpan> constantRefsIn(std::string_view line) {
  std::vector<ConstantRefSpan> out;
  for (size_t at = line.find("meta"); at != std::string_view::npos; at = line.find("meta", at + 1)) {
    // `%meta[...]`, `x_meta[...]`: part of another name, not a reference.
    if (at > 0 && identChar(line[at - 1])) continue;
    if (std::optional<ConstantRefSpan> span = refStartingAt(line, at)) {
      out.push_back(*span);
      at = span->end - 1;
    }
  }
  return out;
}

std::optional<ConstantRefSpan> constantRefAt(std::string_view line, size_t column) {
  if (column >= line.size()) return std::nullopt;
  // A reference is at most ~45 bytes long: look back only that far for its start,
  // so a hover over a 2 MB line costs nothing.
  constexpr size_t kLongest = kScriptPrefix.size() + 12;
  size_t from = column > kLongest ? column - kLongest : 0;
  for (const ConstantRefSpan& span : constantRefsIn(line.substr(from, column - from + kLongest))) {
    if (from + span.begin <= column && column < from + span.end) {
      ConstantRefSpan found = span;
      found.begin += from;
      found.end += from;
      // The window may start inside a name that ends in `meta`: check the whole line's byte before.
      if (found.begin > 0 && identChar(line[found.begin - 1])) return std::nullopt;
      return found;
    }
  }
  return std::nullopt;
}

std::string constantRefText(const ConstantRefSpan& span) {
  return std::string(span.tvmscript ? kScriptPrefix : kRelayPrefix) + std::to_string(span.number) + "]";
}

std::string constantTooltip(const Workbench& workbench, const ConstantRefSpan& span) {
  try {
    return constantRefText(span) + ": " + describeConstant(workbench.numberedConstant(span.number));
  } catch (const WorkbenchError& e) {
    return e.what();
  }
}

std::string constantCommand(const ConstantRefSpan& span) { return "show const " + std::to_string(span.number); }

}  // namespace passlab::gui
