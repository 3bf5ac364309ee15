// Splitting and trimming text: the one copy every layer uses (command-line
// lists, pipeline and target options, REPL words, reproducer lines).
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace passlab {

/// `text` without leading and trailing white space (std::isspace).
std::string_view trim(std::string_view text);

/// The pieces of `text` between `separator`s, empty ones kept: "a,,b" gives
/// a, "", b and "" gives one empty piece (the caller decides what empty means).
std::vector<std::string_view> split(std::string_view text, char separator);

/// The non-empty pieces of a list such as "a,b,,c" (a, b, c): how command-line
/// and REPL lists (`--only=a,b`, `--remarks=FuseOps,FoldConstant`) are read.
std::vector<std::string> splitList(std::string_view text, char separator = ',');

/// The distinct pieces of a list, each trimmed, empty ones dropped
/// ("b, a,,b" gives {a, b}): sets of names in settings and reproducers.
std::set<std::string> splitSet(std::string_view text, char separator = ',');

/// A global's name without its leading '@' ("@main" and "main" give "main"):
/// the faces accept both spellings.
std::string stripAt(std::string_view name);

/// `value` with `digits` significant digits, as printf's %g writes it ("0.000123",
/// "1.5e+03"): how errors and statistics are shown to a reader, who wants a
/// magnitude, not every bit.
std::string formatSignificant(double value, int digits = 3);

}  // namespace passlab
