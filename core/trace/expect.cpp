// Structural comparison with an expected module and its aligned diff (see expect.h).
#include "core/trace/expect.h"

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/text/parser.h"
#include "core/trace/diff.h"
#include "core/trace/change_summary.h"

namespace passlab {
namespace {

/// `m` without the `phase` attribute (attribute order is significant, so the
/// key is dropped on both sides rather than copied across).
IRModule withoutPhase(const IRModule& m) {
  if (!m->attrs.contains(module_attr::kPhase)) return m;
  AttrDict attrs = m->attrs;
  attrs.erase(module_attr::kPhase);
  return withModuleAttrs(m, std::move(attrs));
}

}  // namespace

IRModule loadExpectedModule(const std::string& path, TextOrigin* origin) {
  IRModule mod = parseModuleFile(path, nullptr, origin);
  try {
    return inferTypes(mod);
  } catch (const DiagnosticError&) {
    return mod;
  }
}

ExpectOutcome expectModule(const IRModule& actual, const IRModule& expected, const std::string& actualLabel,
                           const std::string& expectedLabel, const PrintOptions& options) {
  ExpectOutcome out;
  IRModule want = withoutPhase(expected), got = withoutPhase(actual);
  if (structuralEqual(got, want)) {
    out.equal = true;
    return out;
  }
  // Aligned: the actual side prints with the expected side's names, so only
  // nodes that differ show, never a renumbering or a renamed variable.
  std::shared_ptr<const ModuleEdits> edits = matchModules(want, got);
  AlignedText text = printAligned(*edits, "", options);
  out.diff = unifiedDiffIgnoringIndent(text.before, text.after, expectedLabel, actualLabel, 3);
  if (out.diff.empty()) {
    // The aligned print hides type comments known on one side only; the plain
    // printouts show them.
    out.diff = unifiedDiff(printModule(want, options), printModule(got, options), expectedLabel, actualLabel, 3);
  }
  if (out.diff.empty())
    out.diff = "--- " + expectedLabel + "\n+++ " + actualLabel +
               "\nthe modules print identically but differ structurally (a constant's bits, a type the "
               "printout leaves out, or a free variable that is not the same node)\n";
  return out;
}

}  // namespace passlab
