#include "report/report_changes.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>
#include <unordered_map>

#include "core/text/printer.h"
#include "core/trace/diff.h"
#include "core/trace/change_summary.h"
#include "report/html_text.h"

namespace passlab {

void ReportModel::checkpoint(const std::string& what) const {
  if (options.cancelled && options.cancelled()) throw WorkbenchError("report interrupted (Ctrl-C) while writing " + what + "; nothing was written");
  if (options.progress) options.progress("report: " + what);
}

ReportModel::ReportModel(const Workbench& wb, const ReportOptions& opts) : options(opts), wb_(wb) {
  for (const TraceEvent& ev : wb.trace().events()) {
    ++events;
    if (wb.builds().isCodegen(ev.id) || ev.id == 0) continue;
    switch (ev.status) {
      case EventStatus::Changed: ++changedEvents; break;
      case EventStatus::Unchanged: ++unchangedEvents, ++quietEvents; break;
      case EventStatus::Skipped: ++skippedEvents, ++quietEvents; break;
      case EventStatus::Failed: ++failedEvents; break;
    }
    if (ev.parent < 0) totalMs += ev.wallMs;
  }
}

namespace {

/// Constants print with their data inline, so an imported model's weights
/// would fill the page once per changed event (hundreds of MB for a 700-op
/// CNN). Lists longer than this keep their first values and a count; the
/// report shows what changed, and passlab itself has the full text.
constexpr size_t kMaxConstantDataChars = 160;

/// `text` with the data of every long `const(Tensor[...], [...])` literal cut
/// to its first values and "… N more".
std::string elideConstantData(const std::string& text) {
  static const std::string kOpen = "const(Tensor[";
  size_t at = text.find(kOpen);
  if (at == std::string::npos) return text;
  std::string out;
  out.reserve(text.size() / 4);
  size_t copied = 0;
  for (; at != std::string::npos; at = text.find(kOpen, at + 1)) {
    // Skip the type: Tensor[...] with nested brackets.
    size_t i = at + kOpen.size();
    for (int depth = 1; i < text.size() && depth > 0; ++i) depth += text[i] == '[' ? 1 : text[i] == ']' ? -1 : 0;
    if (text.compare(i, 2, ", ") != 0 || i + 2 >= text.size() || text[i + 2] != '[') continue;
    size_t dataStart = i + 2, j = dataStart + 1;
    for (int depth = 1; j < text.size() && depth > 0; ++j) depth += text[j] == '[' ? 1 : text[j] == ']' ? -1 : 0;
    // [dataStart, j) is the data list, brackets included.
    if (j - dataStart <= kMaxConstantDataChars) continue;
    size_t keep = text.rfind(", ", dataStart + kMaxConstantDataChars / 2);
    if (keep == std::string::npos || keep <= dataStart) keep = dataStart + 1;
    size_t values = 1;
    for (size_t k = dataStart; k < j; ++k) values += text[k] == ',';
    size_t shown = 0;
    for (size_t k = dataStart; k < keep; ++k) shown += text[k] == ',';
    out.append(text, copied, keep - copied);
    out += ", \u2026 " + std::to_string(values - shown - (keep > dataStart + 1 ? 1 : 0)) + " more]";
    copied = j;
    at = j - 1;
  }
  out.append(text, copied, std::string::npos);
  return out;
}

/// Removes every `open ... close` span (close included) from `text`.
void eraseSpans(std::string& text, const std::string& open, const std::string& close) {
  std::string out;
  out.reserve(text.size());
  size_t copied = 0;
  for (size_t at = text.find(open); at != std::string::npos; at = text.find(open, copied)) {
    size_t end = text.find(close, at + open.size());
    if (end == std::string::npos) break;
    out.append(text, copied, at - copied);
    copied = end + close.size();
  }
  out.append(text, copied, std::string::npos);
  text = std::move(out);
}

/// Removes every occurrence of `what`.
void eraseAll(std::string& text, const std::string& what) {
  std::string out;
  out.reserve(text.size());
  size_t copied = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, copied)) {
    out.append(text, copied, at - copied);
    copied = at + what.size();
  }
  out.append(text, copied, std::string::npos);
  text = std::move(out);
}

/// A Graphviz SVG as the report's <img> needs it: an image shows no tooltip
/// and reads no comment, so `<title>`s, `xlink:title` anchors, comments, the
/// XML prolog and DOCTYPE go; the text attributes every label repeats (anchor,
/// font family) become one style rule. The picture is unchanged; the 700-op
/// model's graphs shrink by about a third.
std::string compactSvg(std::string svg) {
  size_t start = svg.find("<svg");
  if (start == std::string::npos) return svg;
  svg.erase(0, start);
  eraseSpans(svg, "<!--", "-->");
  eraseSpans(svg, "<title>", "</title>\n");
  eraseSpans(svg, "<a xlink:title=", ">\n");
  eraseAll(svg, "</a>\n");
  // Group ids and classes ("n12", "edge3", "node") name nothing an image uses.
  std::string out;
  out.reserve(svg.size());
  size_t copied = 0;
  for (size_t at = svg.find("<g id=\""); at != std::string::npos; at = svg.find("<g id=\"", copied)) {
    size_t end = svg.find('"', at + 7);
    if (end == std::string::npos) break;
    out.append(svg, copied, at + 2 - copied);
    copied = end + 1;
    if (svg.compare(copied, 8, " class=\"") == 0) {
      size_t classEnd = svg.find('"', copied + 8);
      if (classEnd != std::string::npos) copied = classEnd + 1;
    }
  }
  out.append(svg, copied, std::string::npos);
  svg = std::move(out);
  eraseAll(svg, "\n\n");
  // A style rule outranks an attribute, so a rule is written only when every
  // label has the same value.
  static const std::string kAnchor = " text-anchor=\"middle\"", kFamily = " font-family=\"Courier,monospace\"",
                           kSize = " font-size=\"10.00\"";
  size_t texts = 0, anchors = 0, families = 0, sizes = 0;
  for (size_t at = svg.find("<text "); at != std::string::npos; at = svg.find("<text ", at + 1)) {
    ++texts;
    size_t end = svg.find('>', at);
    std::string_view tag(svg.data() + at, (end == std::string::npos ? svg.size() : end) - at);
    anchors += tag.find(kAnchor) != std::string_view::npos;
    families += tag.find(kFamily) != std::string_view::npos;
    sizes += tag.find(kSize) != std::string_view::npos;
  }
  if (texts > 0 && anchors == texts && families == texts && sizes == texts) {
    eraseAll(svg, kAnchor);
    eraseAll(svg, kFamily);
    eraseAll(svg, kSize);
    size_t open = svg.find('>');
    if (open != std::string::npos)
      svg.insert(open + 1, "\n<style>text{text-anchor:middle;font-family:Courier,monospace;font-size:10px}</style>");
  }
  return svg;
}

}  // namespace

int ReportModel::textId(const std::string& raw) {
  std::string text = elideConstantData(raw);
  auto [it, inserted] = textIds_.try_emplace(std::move(text), static_cast<int>(texts_.size()));
  if (inserted) texts_.push_back(&it->first);
  return it->second;
}

int ReportModel::functionTextId(const IRModule& mod, const std::string& name) {
  Expr fn = mod->lookup(name);
  if (!fn) return -1;
  auto it = functionTexts_.find(fn.get());
  if (it != functionTexts_.end()) return it->second;
  int id = textId(printFunction(mod, name, wb_.printOptions()));
  functionTexts_.emplace(fn.get(), id);
  return id;
}

int ReportModel::addDiff(int beforeText, int afterText, int& added, int& removed) {
  static const std::string empty;
  const std::string& a = beforeText < 0 ? empty : *texts_[static_cast<size_t>(beforeText)];
  const std::string& b = afterText < 0 ? empty : *texts_[static_cast<size_t>(afterText)];
  int moved = 0;
  return addDiff(beforeText, afterText, diffLines(a, b), added, removed, moved);
}

int ReportModel::addDiff(int beforeText, int afterText, const std::vector<DiffLine>& lines, int& added, int& removed,
                         int& moved) {
  DiffEntry entry{beforeText, afterText, {}};
  added = removed = moved = 0;
  for (const DiffLine& line : lines) {
    uint32_t kind = line.kind == DiffLine::Kind::Same ? 0 : line.kind == DiffLine::Kind::Removed ? 1 : 2;
    if (kind && line.moved) kind += 2;
    if (kind == 1) ++removed;
    if (kind == 2) ++added;
    if (kind >= 3) ++moved;
    if (!entry.ops.empty() && entry.ops[entry.ops.size() - 2] == kind) {
      ++entry.ops.back();
    } else {
      entry.ops.push_back(kind);
      entry.ops.push_back(1);
    }
  }
  diffs_.push_back(std::move(entry));
  return static_cast<int>(diffs_.size()) - 1;
}

int ReportModel::addGraph(const std::string& svg, const std::string& caption) {
  auto [it, inserted] = textIds_.try_emplace(compactSvg(svg), static_cast<int>(texts_.size()));
  if (inserted) texts_.push_back(&it->first);
  graphs_.push_back({it->second, caption});
  return static_cast<int>(graphs_.size()) - 1;
}

std::string ReportModel::summaryOf(int id) const {
  try {
    return wb_.changeSummary(id);
  } catch (const std::exception&) {
    // Fall back to naming the changed functions.
  }
  const TraceEvent& ev = wb_.event(id);
  std::string out;
  size_t shown = 0;
  for (const std::string& f : ev.changedFunctions) {
    if (shown == 3) {
      out += " and " + std::to_string(ev.changedFunctions.size() - shown) + " more";
      break;
    }
    out += std::string(shown ? ", " : "") + "@" + f;
    ++shown;
  }
  if (ev.moduleAttrsChanged) out += std::string(out.empty() ? "" : "; ") + "module attributes changed";
  return out;
}

void ReportModel::writeData(std::string& out) const {
  out += "{\"texts\":[";
  for (size_t i = 0; i < texts_.size(); ++i) {
    if (i) out += ",\n";
    out += scriptJsonString(*texts_[i]);
  }
  out += "],\n\"diffs\":[";
  for (size_t i = 0; i < diffs_.size(); ++i) {
    const DiffEntry& d = diffs_[i];
    out += std::string(i ? ",\n" : "") + "{\"b\":" + std::to_string(d.before) + ",\"a\":" + std::to_string(d.after) + ",\"ops\":[";
    for (size_t k = 0; k < d.ops.size(); ++k) out += (k ? "," : "") + std::to_string(d.ops[k]);
    out += "]}";
  }
  out += "],\n\"graphs\":[";
  for (size_t i = 0; i < graphs_.size(); ++i)
    out += std::string(i ? ",\n" : "") + "{\"svg\":" + std::to_string(graphs_[i].svg) + ",\"caption\":" + scriptJsonString(graphs_[i].caption) + "}";
  out += "]}";
}

ReportStats ReportModel::stats() const {
  ReportStats s;
  s.events = events;
  s.changedEvents = changedEvents;
  s.diffs = static_cast<int>(diffs_.size());
  s.texts = static_cast<int>(texts_.size());
  s.graphs = static_cast<int>(graphs_.size());
  return s;
}

namespace {

/// Changed functions shown per event: a pass that rewrites thousands of
/// functions (FuseOps on a 100k-op model) would otherwise make the page
/// enormous; the rest are named with a count.
constexpr size_t kMaxFunctionsPerEvent = 200;
/// Changed functions whose text is compared per event: a function whose text
/// is another's but for its own name joins that one's row, so up to this many
/// can stand behind the rows shown.
constexpr size_t kMaxFunctionsExamined = 2000;

/// `text` with every whole-identifier occurrence of `name` (`@fused_add_3`,
/// `"fused_add_3"`, `def fused_add_3(`) replaced by one placeholder, so two
/// kernels that differ only in their names compare equal.
std::string nameBlind(const std::string& text, const std::string& name) {
  if (name.empty()) return text;
  auto identChar = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.'; };
  std::string out;
  out.reserve(text.size());
  size_t copied = 0;
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at > 0 && identChar(text[at - 1])) || (end < text.size() && identChar(text[end]))) continue;
    out.append(text, copied, at - copied);
    out += '\x01';
    copied = end;
    at = end - 1;
  }
  out.append(text, copied, std::string::npos);
  return out;
}

struct FunctionChange {
  std::string name;
  /// "main", or "old → @new" for a renamed global.
  std::string label;
  /// The function's op edits ("2 updated, 1 inserted"), "" when unknown.
  std::string counts;
  int diff = -1;
  int added = 0, removed = 0, moved = 0;
  int beforeText = -1, afterText = -1;
  /// Other changed functions whose before and after texts are this one's but
  /// for their own names (LegalizeOps lowers every `add` of one shape alike):
  /// shown once, in this row, with their names.
  std::vector<std::string> sameAs;
};

/// A size Graphviz gave an SVG (`height="4690pt"`), 0 when it says none.
double svgSizePt(const std::string& svg, const std::string& attr) {
  size_t at = svg.find("<svg");
  at = at == std::string::npos ? at : svg.find(" " + attr + "=\"", at);
  if (at == std::string::npos || at > 4096) return 0;
  return std::atof(svg.c_str() + at + attr.size() + 3);
}

std::string opCounts(const EditCounts& c) {
  std::string out;
  auto add = [&](uint32_t n, const char* what) {
    if (n) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(c.updated, "updated");
  add(c.inserted, "inserted");
  add(c.deleted, "deleted");
  add(c.moved, "moved");
  add(c.folded, "folded");
  return out.empty() ? "no op changed" : "ops: " + out;
}

void writeAttrChanges(std::string& out, const std::vector<AttrChange>& changes) {
  if (changes.empty()) return;
  out += "<table class=\"grid attr-changes\"><tr><th>function</th><th>attribute</th><th>before</th><th>after</th></tr>\n";
  size_t shown = 0;
  for (const AttrChange& c : changes) {
    if (++shown > 50) {
      out += "<tr><td colspan=\"4\" class=\"note\">" + std::to_string(changes.size() - 50) +
             " more attribute changes (see the attribute timeline)</td></tr>\n";
      break;
    }
    out += "<tr><td class=\"mono\">" + htmlEscape(c.function == "<module>" ? c.function : "@" + c.function) + "</td><td class=\"mono\">" +
           htmlEscape(c.key) + "</td><td class=\"mono\">" + htmlEscape(c.oldValue) + "</td><td class=\"mono changed\">" +
           htmlEscape(c.newValue) + "</td></tr>\n";
  }
  out += "</table>\n";
}

}  // namespace

void writeChanges(std::string& out, const Workbench& wb, ReportModel& model) {
  out += "<section id=\"changes\"><h2>Changes</h2>\n";
  if (model.changedEvents == 0) {
    out += "<p class=\"note\">No pass changed the module.</p></section>\n";
    return;
  }
  out += "<p class=\"muted\">Each pass that changed the module, with a side-by-side diff per changed function (open one to render it).</p>\n";
  int written = 0;
  for (int id : wb.timeline()) {
    const TraceEvent& ev = wb.event(id);
    if (wb.builds().isCodegen(id) || ev.status != EventStatus::Changed) continue;
    // Each changed event is one matching, diffs and graphs: the report's long part.
    model.checkpoint("changes: #" + std::to_string(id) + " " + ev.pass + " (" + std::to_string(++written) + "/" +
                     std::to_string(model.changedEvents) + ")");
    std::string nested;
    if (ev.parent >= 0) nested = " <span class=\"muted\">(nested in #" + std::to_string(ev.parent) + " " + htmlEscape(wb.event(ev.parent).pass) + ")</span>";
    out += "<details class=\"change\" id=\"change-" + std::to_string(id) + "\" data-event=\"" + std::to_string(id) + "\"><summary>#" +
           std::to_string(id) + " " + htmlEscape(ev.options.empty() ? ev.pass : ev.pass + "{" + ev.options + "}") + nested +
           " &mdash; <span class=\"summary-line\">" + htmlEscape(model.summaryOf(id)) + "</span></summary><div class=\"body\">\n";
    writeAttrChanges(out, diffAttrs(ev.before, ev.after));

    // The node matcher's edit script names what changed and aligns the names
    // of matched nodes, so renumbering does not show as a change.
    std::shared_ptr<const ModuleEdits> edits;
    try {
      edits = wb.eventEdits(id);
    } catch (const std::exception&) {
      edits = nullptr;
    }
    std::vector<FunctionChange> changes;
    if (edits) {
      for (const FunctionEdit& f : edits->functions) {
        if (f.kind == FunctionEdit::Kind::Kept) continue;
        FunctionChange c;
        c.name = f.name.empty() ? f.beforeName : f.name;
        c.label = f.kind == FunctionEdit::Kind::Renamed ? f.beforeName + " \u2192 @" + f.name : c.name;
        c.counts = f.primFunc ? std::string() : opCounts(f.ops);
        changes.push_back(std::move(c));
      }
    } else {
      for (const std::string& name : ev.changedFunctions) changes.push_back(FunctionChange{name, name, ""});
    }
    // The entry first: it is where a reader starts; then the rest by name.
    std::stable_partition(changes.begin(), changes.end(), [](const FunctionChange& c) { return c.name == "main"; });
    size_t total = changes.size(), examined = 0;
    std::vector<FunctionChange> shown;
    // Name-blind before/after texts -> index in `shown`.
    std::unordered_map<std::string, size_t> byText;
    for (FunctionChange& c : changes) {
      if (shown.size() >= kMaxFunctionsPerEvent || examined >= kMaxFunctionsExamined) break;
      ++examined;
      if (edits) {
        // Lines the pass only moved (FuseOps' regrouping) are drawn as moves, not changes.
        AlignedLines t = alignedLines(*edits, c.name, wb.printOptions());
        const FunctionEdit* f = edits->function(c.name);
        bool hasBefore = f && f->kind != FunctionEdit::Kind::Added, hasAfter = f && f->kind != FunctionEdit::Kind::Removed;
        std::string key = (hasBefore ? nameBlind(t.before, f->beforeName) : std::string("\x02")) + '\0' +
                          (hasAfter ? nameBlind(t.after, f->name) : std::string("\x02")) + '\0' + c.counts;
        auto [same, fresh] = byText.try_emplace(std::move(key), shown.size());
        if (!fresh) {
          shown[same->second].sameAs.push_back(c.label);
          continue;
        }
        c.beforeText = hasBefore ? model.textId(t.before) : -1;
        c.afterText = hasAfter ? model.textId(t.after) : -1;
        c.diff = model.addDiff(c.beforeText, c.afterText, t.lines, c.added, c.removed, c.moved);
      } else {
        c.beforeText = model.functionTextId(ev.before, c.name);
        c.afterText = model.functionTextId(ev.after, c.name);
        c.diff = model.addDiff(c.beforeText, c.afterText, c.added, c.removed);
      }
      shown.push_back(std::move(c));
    }
    changes = std::move(shown);

    // Graphs of the largest changes, where the report has a graph layer.
    std::unordered_map<std::string, std::string> graphsOf;
    if (model.options.graphSvg) {
      std::vector<const FunctionChange*> bySize;
      for (const FunctionChange& c : changes) bySize.push_back(&c);
      std::stable_sort(bySize.begin(), bySize.end(),
                       [](const FunctionChange* a, const FunctionChange* b) {
                         return a->added + a->removed + a->moved > b->added + b->removed + b->moved;
                       });
      size_t drawn = 0;
      for (const FunctionChange* c : bySize) {
        if (drawn == model.options.maxGraphsPerEvent) break;
        // Moved lines count too: FuseOps on a 10k-op model moves every line and changes none,
        // and drawing its 10k-node graph takes minutes.
        if (static_cast<size_t>(std::max(c->added, c->removed) + c->moved / 2) > model.options.maxGraphNodes * 2) continue;
        std::string ids, leftOut;
        for (Side side : {Side::Before, Side::After}) {
          const IRModule& mod = side == Side::Before ? ev.before : ev.after;
          if (!mod->lookup(c->name)) continue;
          std::string svg;
          try {
            svg = model.options.graphSvg(id, c->name, side);
          } catch (const std::exception&) {
            continue;  // a function the graph layer cannot draw (a PrimFunc, say) keeps its diff only
          }
          if (svg.empty()) continue;
          double w = svgSizePt(svg, "width"), h = svgSizePt(svg, "height");
          // graphSvg cuts tall graphs into pages side by side (graph/svg_pages.h), so only a
          // picture it left whole or one of very many pages is too big to read in a page.
          if ((model.options.maxGraphHeightPt > 0 && h > model.options.maxGraphHeightPt) ||
              (model.options.maxGraphWidthPt > 0 && w > model.options.maxGraphWidthPt)) {
            leftOut += std::string(leftOut.empty() ? "" : "; ") + (side == Side::Before ? "before" : "after") + " left out (" +
                       std::to_string(static_cast<long>(w)) + "\u00d7" + std::to_string(static_cast<long>(h)) +
                       " pt; `save graph` draws it)";
            continue;
          }
          int g = model.addGraph(svg, "@" + c->name + (side == Side::Before ? " before" : " after") + " #" + std::to_string(id));
          ids += (ids.empty() ? "" : ",") + std::to_string(g);
        }
        if (!ids.empty() || !leftOut.empty()) graphsOf[c->name] = ids + "|" + leftOut, ++drawn;
      }
    }

    for (const FunctionChange& c : changes) {
      const char* what = c.beforeText < 0 ? "added" : c.afterText < 0 ? "removed" : "changed";
      out += "<details class=\"fn\" id=\"change-" + std::to_string(id) + "-" + htmlId(c.name) + "\" data-diff=\"" + std::to_string(c.diff) +
             "\"><summary class=\"mono\">@" + htmlEscape(c.label) + " <span class=\"fn-counts\">" + what +
             (c.counts.empty() ? "" : "; " + htmlEscape(c.counts) + ";") + " <span class=\"a\">+" +
             std::to_string(c.added) + "</span> <span class=\"r\">&minus;" + std::to_string(c.removed) + "</span> lines" +
             (c.moved ? ", <span class=\"m\">" + std::to_string(c.moved) + " moved</span>" : std::string()) +
             (c.sameAs.empty() ? std::string()
                               : "; <span class=\"same-as\">the same in " + std::to_string(c.sameAs.size()) + " more function" +
                                     (c.sameAs.size() == 1 ? "" : "s") + "</span>") +
             "</span></summary>" + "<div class=\"body\"></div></details>\n";
      if (!c.sameAs.empty()) {
        std::string names;
        for (const std::string& n : c.sameAs) names += (names.empty() ? "@" : ", @") + n;
        out += "<details class=\"fn same-as\"><summary class=\"muted\">" + std::to_string(c.sameAs.size()) +
               " function" + (c.sameAs.size() == 1 ? "" : "s") + " with the text of @" + htmlEscape(c.name) +
               " but for their own name</summary><p class=\"mono\">" + htmlEscape(names) + "</p></details>\n";
      }
      auto g = graphsOf.find(c.name);
      if (g != graphsOf.end()) {
        size_t bar = g->second.find('|');
        std::string ids = g->second.substr(0, bar), note = g->second.substr(bar + 1);
        std::string summary = "@" + htmlEscape(c.name) + " dataflow before and after" +
                              (note.empty() ? "" : " <span class=\"muted\">(" + htmlEscape(note) + ")</span>");
        if (ids.empty())
          out += "<p class=\"note mono\">" + summary + "</p>\n";
        else
          out += "<details class=\"fn graph\" id=\"graph-" + std::to_string(id) + "-" + htmlId(c.name) + "\" data-graphs=\"" + ids +
                 "\"><summary class=\"mono\">" + summary +
                 "</summary><div class=\"body\"></div></details>\n";
      }
    }
    if (total > examined)
      out += "<p class=\"note\">" + std::to_string(total - examined) +
             " more changed functions are not shown (the trace JSON and passlab itself have them all).</p>\n";
    out += "</div></details>\n";
  }
  out += "</section>\n";
}

}  // namespace passlab
