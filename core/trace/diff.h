// Line diffs of printed IR and attribute diffs between modules.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/module.h"

namespace passlab {

/// One line of a line diff.
struct DiffLine {
  /// In both texts, only in the new one, only in the old one.
  enum class Kind : uint8_t { Same, Added, Removed };
  Kind kind;
  /// 1-based line numbers in the old and new text (0 when absent on that side).
  uint32_t oldLine, newLine;
  /// The line without its newline.
  std::string text;
  /// A Removed or Added line whose nodes the pass only moved (core/trace/moved_lines.h);
  /// rendered `<` / `>` instead of `-` / `+`.
  bool moved = false;
};

/// Myers line diff of two texts: removed lines come before added lines within a
/// change. Lines are split at '\n' (a final newline does not start an empty line).
/// Common prefix and suffix are trimmed, lines that occur on one side only are set
/// aside before the search, and the search is the linear-space bisection variant.
/// Minimal while a region needs fewer than ~max(256, 2·sqrt(N+M)) edits; beyond that
/// it splits at the furthest point reached (GNU diff's heuristic), and a global work
/// budget finally reports what is left as removed-then-added. Always a correct diff;
/// 100k-line module printouts diff in about 0.1 s.
std::vector<DiffLine> diffLines(const std::string& oldText, const std::string& newText);
/// Unified diff text (`--- a`, `+++ b`, `@@ ... @@` hunks with `context` lines), as
/// GNU diff -u writes it; "" when the texts have the same lines.
std::string unifiedDiff(const std::string& oldText, const std::string& newText, const std::string& oldName,
                        const std::string& newName, int context = 3);

/// Unified diff text of `lines` (as unifiedDiff writes it), moved lines marked
/// `<` (moved away from here) and `>` (moved to here); "" without changes.
std::string renderUnifiedDiff(const std::vector<DiffLine>& lines, const std::string& oldName, const std::string& newName,
                              int context = 3);

/// diffLines comparing lines without their leading blanks; each DiffLine's text is
/// the real line (the new side's for lines in both).
std::vector<DiffLine> diffLinesIgnoringIndent(const std::string& oldText, const std::string& newText);
/// unifiedDiff comparing lines without their leading blanks: code that moved into
/// or out of a nested function is not a change just because its indentation is.
std::string unifiedDiffIgnoringIndent(const std::string& oldText, const std::string& newText, const std::string& oldName,
                                      const std::string& newName, int context = 3);

/// One attribute change of one function between two modules.
struct AttrChange {
  /// Global function name without '@', or "<module>" for module attributes.
  std::string function;
  /// Attribute key.
  std::string key;
  /// Whether the key appeared, disappeared or got another value.
  enum class Kind : uint8_t { Added, Removed, Changed } kind;
  /// Printed old and new values ("" where absent).
  std::string oldValue, newValue;
};

/// Per-function attribute diff (functions added/removed count as all keys added/removed);
/// module attributes are reported under function "<module>".
std::vector<AttrChange> diffAttrs(const IRModule& before, const IRModule& after);

}  // namespace passlab
