#include "repl/format_checks.h"

#include "core/support/strings.h"
#include "repl/format.h"

namespace passlab {

namespace {

std::string eventName(const Workbench& wb, int id) { return "#" + std::to_string(id) + " " + wb.event(id).pass; }

}  // namespace

std::string formatNumericResult(const NumericCheckResult& result) {
  if (!result.compared) return "not compared: " + result.note;
  std::string out = "max abs " + formatSignificant(result.maxAbsError) + ", max rel " +
                    formatSignificant(result.maxRelError) + " (" +
                    std::to_string(result.outputs) + (result.outputs == 1 ? " output" : " outputs") + ")";
  if (!result.note.empty()) out += ", " + result.note;
  return out;
}

std::string formatNumericTable(const Workbench& wb, const Style& style) {
  const std::optional<NumericCheckOptions>& options = wb.numericCheck();
  if (!options) return "numeric check: off (`set numeric-check on [seed N | inputs FILE]` turns it on)\n";
  std::string out = "numeric check: on, " + describeNumericCheck(*options) + "; @" + options->function +
                    " after every pass of the root context vs #0\n";
  if (!wb.loaded()) return out;
  size_t width = 0;
  for (int id : wb.timeline())
    if (wb.event(id).numeric) width = std::max(width, eventName(wb, id).size());
  for (int id : wb.timeline()) {
    const TraceEvent& ev = wb.event(id);
    if (!ev.numeric) continue;
    std::string name = eventName(wb, id);
    name.resize(width, ' ');
    std::string text = formatNumericResult(*ev.numeric);
    out += "  " + name + "  " + (ev.numeric->compared ? text : style.red(text)) + "\n";
  }
  return out;
}

std::string formatConflicts(const std::vector<ProvenanceConflict>& conflicts, const Style& style) {
  std::string out;
  for (const ProvenanceConflict& c : conflicts)
    out += style.red("! provenance conflict") + " at #" + std::to_string(c.event) + " " + c.pass + " (context " + c.contextName +
           ", target " + (c.contextTarget.empty() ? std::string("(none)") : c.contextTarget) + "): " + c.message + "\n";
  return out;
}

std::string formatBisect(const Workbench& wb, const BisectPredicate& predicate, const BisectResult& result, const Style& style) {
  std::string out = "bisect: the first top-level pass after which " + describeBisectPredicate(predicate) + " (" +
                    std::to_string(result.candidates) + " top-level events)\n";
  if (result.passesRun > 0)
    out += "  ran the " + std::to_string(result.passesRun) + " remaining pipeline " + (result.passesRun == 1 ? "pass" : "passes") +
           " first\n";
  for (const BisectProbe& p : result.probes)
    out += "  probe " + eventName(wb, p.event) + ": " + (p.holds ? "holds" : "does not hold") + " (" + p.detail + ")\n";
  if (result.firstEvent < 0) return out + "it never holds: no pass of the pipeline breaks it\n";
  if (result.lastGood < 0) return out + style.yellow("it already holds for the loaded module (#0)") + "\n";
  return out + style.yellow("first: " + eventName(wb, result.firstEvent)) + " (it does not hold after " + eventName(wb, result.lastGood) +
         "); the cursor is there, `diff` shows the change\n";
}

}  // namespace passlab
