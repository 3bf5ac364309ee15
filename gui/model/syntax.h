// Syntax highlighting of printed IR, one line at a time. The IR view tokenizes
// only the lines on screen, so highlighting costs the same for 100 or 100k lines.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "gui/model/palette.h"

namespace passlab::gui {

/// A run of characters of one kind inside a line: [begin, end) byte offsets.
struct Token {
  uint32_t begin = 0;
  uint32_t end = 0;
  ColourRole role = ColourRole::Text;
};

/// Splits one line of printed IR (the Relay dialect of docs/text-format.md, or
/// TVMScript) into coloured runs covering the whole line: keywords, `@globals`
/// and decorators, `%locals`, op names, numbers (with dtype suffixes), strings,
/// comments (`/* ... */`, `//`, `#[...]`, Python's `#`), type names, attribute keys (`key=`) and the watched
/// attributes, which are coloured wherever they appear (as a key, a dict key
/// in a string, or a bare word). Appends to `out` (cleared first).
void tokenizeLine(std::string_view line, std::vector<Token>& out);

/// The attributes whose changes the faces call out (docs/architecture.md, "The seed scenarios"):
/// Compiler, Extern, Inline, Primitive, global_symbol, target, link_params
/// (also spelled link-params) and phase.
std::span<const std::string_view> watchedAttributes();

/// True when `word` is one of watchedAttributes().
bool isWatchedAttribute(std::string_view word);

/// The watched attribute named in `word` in its canonical spelling
/// ("link-params" gives "link_params"), or "" when it is not one.
std::string_view canonicalWatchedAttribute(std::string_view word);

/// Watched attribute names (canonical spelling) appearing in `line`, in order, without repeats.
std::vector<std::string_view> watchedAttributesIn(std::string_view line);

}  // namespace passlab::gui
