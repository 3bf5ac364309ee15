// The line diff over views of texts, for the diffs that cut their texts into
// pieces first (the aligned diff diffs each function's lines): no copies.
// Internal to core/trace (diff.h is included everywhere; this is not).
#pragma once

#include <string_view>
#include <vector>

#include "core/trace/diff.h"

namespace passlab {

/// diffLines over lines already split: `oldKeys`/`newKeys` are compared, and
/// each DiffLine's text is the line of `oldLines`/`newLines` at the same index
/// (the new side's for lines in both).
std::vector<DiffLine> diffLineViews(const std::vector<std::string_view>& oldKeys, const std::vector<std::string_view>& newKeys,
                                    const std::vector<std::string_view>& oldLines, const std::vector<std::string_view>& newLines);

/// diffLinesIgnoringIndent over views of the two texts.
std::vector<DiffLine> diffLineViewsIgnoringIndent(std::string_view oldText, std::string_view newText);

}  // namespace passlab
