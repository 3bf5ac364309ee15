// Line diffs of aligned prints in which code a pass only moved reads as moved.
//
// A regrouping pass (FuseOps, PartitionGraph, LambdaLifting, Inline, DefuseOps)
// rewrites nothing, yet every op it moves prints on another line, under other
// parameter names, inside a new function: a line diff sees hundreds of removed
// and added lines. The node matcher knows better: those ops are Moved. Here
// each removed or added line is classified by the nodes printed on it, so the
// faces can draw a move as a move (`<` / `>` in text, their own colour in the
// GUI and the report) and count only real edits as changes.
//
// The same file pairs functions by name before diffing lines: a line diff of
// whole modules would otherwise pair `def @main(` with an unrelated function's
// header when most lines differ (LegalizeOps adding dozens of PrimFuncs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/text/printer.h"
#include "core/trace/diff.h"

namespace passlab {

struct ModuleEdits;

/// Line diff of two prints of `edits.before` / `edits.after` made with ranges
/// (printAlignedWithRanges, or printModuleWithRanges for the canonical text):
/// global functions are paired by name (renamed ones by their match) and diffed
/// one against the other without indentation, functions on one side only are
/// all removed or all added, and markMovedLines has run on the result.
std::vector<DiffLine> diffAlignedPrints(const ModuleEdits& edits, const PrintedModule& before, const PrintedModule& after);

/// Sets DiffLine::moved on the removed and added lines of `lines` (a diff of
/// before.text against after.text) whose nodes the matcher found only moved:
///  - an op call (or tuple, projection, ...) that is Moved with nothing else
///    changed (its inputs are the counterparts of its old inputs);
///  - the brackets of a group: a function literal or global that the pass
///    inserted (or deleted) whose every op is such a move, its closing line,
///    and the calls of it.
/// A line holding any inserted, deleted, updated or folded node stays a change;
/// so does a line with no matched node on it (it differs for another reason).
void markMovedLines(const ModuleEdits& edits, const PrintedModule& before, const PrintedModule& after,
                    std::vector<DiffLine>& lines);

/// Line counts of a diff: removed and added lines that are changes, and those that are moves.
struct DiffLineCounts {
  uint32_t removed = 0, added = 0;
  uint32_t movedOut = 0, movedIn = 0;
  /// Lines shown as changed (removed + added).
  uint32_t changed() const { return removed + added; }
  /// Lines shown as moved.
  uint32_t moved() const { return movedOut + movedIn; }
};
/// Counts `lines` by kind.
DiffLineCounts countDiffLines(const std::vector<DiffLine>& lines);
/// "748 lines moved (< >), 12 changed (- +)": the trailer of a diff with moves ("" without).
std::string movedLinesNote(const DiffLineCounts& counts);

}  // namespace passlab
