// From a matching (core/analysis/node_match.h) to words and text: the one-line
// change summary, the edit script per function, and the aligned
// (renumbering-proof) print and diff.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/analysis/node_match.h"
#include "core/text/printer.h"
#include "core/trace/diff.h"

namespace passlab {

// ---- Summaries --------------------------------------------------------------

/// One line saying what the pass did, from the edit script, with exact counts:
///   "grouped 412 ops into 96 Primitive functions; 0 ops rewritten"
///   "folded 38 ops into 6 constants; 6 ops take a new constant input"
///   "inserted 4 layout_transform; updated 3 nn.conv2d (data_layout NCHW→NHWC)"
///   "no change"
/// Without the pass name; callers prefix "FuseOps: ".
std::string changeSummary(const ModuleEdits& edits);
/// The edit script grouped per function, one line per non-kept node (every node
/// with `all`), as `changes` / `diff --summary` print it, node names spelled
/// in `options.syntax`. With `maxLines` (0: no cap) the lines past it are
/// replaced by one line counting them by kind ("… 393 more lines (380 moved,
/// 13 functions); --all lists every one").
std::string formatEditScript(const ModuleEdits& edits, bool all = false, const std::string& function = "",
                             const PrintOptions& options = {}, size_t maxLines = 0);
/// "@main and 76 lifted functions" style list: at most `limit` names, then a count.
std::string summarizeFunctionList(const std::vector<std::string>& names, size_t limit = 3);

// ---- Aligned printing -------------------------------------------------------

/// Before and after printed so that matched nodes carry the same names: the
/// before side canonically, the after side with the before names of matched
/// nodes and fresh names (never used on the before side) for new ones. The
/// after text parses to a module structurally equal to `edits.after`.
struct AlignedText {
  std::string before, after;
  /// The name (without '%') each bound node and variable got on each side
  /// (PrintedNodes::name; no ranges).
  PrintedNodes beforeNames, afterNames;
};
/// Prints the whole module, or one function (one-sided functions print empty on the other side).
AlignedText printAligned(const ModuleEdits& edits, const std::string& function = "",
                         const PrintOptions& options = {});
/// printAligned with node → text ranges and names on both sides (the GUI's side-by-side view).
struct AlignedPrinted {
  PrintedModule before, after;
};
AlignedPrinted printAlignedWithRanges(const ModuleEdits& edits, const PrintOptions& options = {});
/// The aligned texts with their line diff (core/trace/moved_lines.h: functions
/// paired by name, lines compared without indentation, moved lines marked).
struct AlignedLines {
  std::string before, after;
  std::vector<DiffLine> lines;
};
AlignedLines alignedLines(const ModuleEdits& edits, const std::string& function = "", const PrintOptions& options = {});
/// Unified diff of the aligned texts ("" when equal), lines compared without their
/// indentation (code moved into a nested function is not a change), functions
/// paired by name; lines of ops the pass only moved are marked `<` / `>` and a
/// last line counts them ("740 lines moved (< from, > to), 8 changed (- +)"). Constants
/// the pass created that print by reference are named after the diff, one line
/// each: "meta[relay.Constant][7] is new, folded: 16x1x1 float32".
std::string alignedDiff(const ModuleEdits& edits, const std::string& oldName, const std::string& newName,
                        const std::string& function = "", int context = 3, const PrintOptions& options = {});

}  // namespace passlab
