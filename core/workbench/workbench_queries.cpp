// Workbench queries: IR at an event, diffs, attribute timeline, config provenance.
#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "core/ir/functor.h"
#include "core/text/printer.h"
#include "core/ir/virtual_device.h"
#include "core/trace/moved_lines.h"
#include "core/workbench/workbench.h"
#include "core/support/strings.h"

namespace passlab {
namespace {

/// How many printed texts to keep: a face typically flips between before/after
/// of a few events, and big modules take long to print.
constexpr size_t kPrintCacheSize = 8;

/// Lower-case, '-' and '_' equal: "link-params" finds "relay.FuseOps.link_params".
std::string normalizeKey(std::string_view key) {
  std::string out;
  for (char c : key) out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string listFunctions(const IRModule& mod) {
  std::string out;
  for (const auto& [name, fn] : mod->functions) out += (out.empty() ? "@" : ", @") + name;
  return out.empty() ? "none" : out;
}

}  // namespace

const Trace& Workbench::trace() const {
  requireLoaded();
  return *trace_;
}

const TraceEvent& Workbench::event(int id) const {
  requireLoaded();
  int count = static_cast<int>(trace_->events().size());
  if (id < 0 || id >= count)
    throw WorkbenchError("no event #" + std::to_string(id) + " (events are #0 to #" + std::to_string(count - 1) + ")");
  return trace_->event(id);
}

const IRModule& Workbench::moduleAt(int id, Side side) const {
  const TraceEvent& ev = event(id);
  return side == Side::Before ? ev.before : ev.after;
}

std::string Workbench::moduleText(int id, Side side, const std::string& function) const {
  const IRModule& mod = moduleAt(id, side);
  std::string fn = stripAt(function);
  if (!fn.empty() && !mod->lookup(fn))
    throw WorkbenchError("no function @" + fn + " in the module of #" + std::to_string(id) + " (functions: " + listFunctions(mod) + ")");
  for (size_t i = 0; i < printCache_.size(); ++i) {
    if (printCache_[i].mod == mod && printCache_[i].function == fn) {
      // Move to the front so the entries a face flips between stay cached.
      std::rotate(printCache_.begin(), printCache_.begin() + static_cast<long>(i), printCache_.begin() + static_cast<long>(i) + 1);
      return printCache_.front().text;
    }
  }
  PrintOptions options = printOptions();
  std::string text = fn.empty() ? printModule(mod, options) : printFunction(mod, fn, options);
  printCache_.insert(printCache_.begin(), PrintCacheEntry{mod, fn, text});
  if (printCache_.size() > kPrintCacheSize) printCache_.pop_back();
  return text;
}

std::vector<AttrTimelineGroup> groupAttrTimelineRows(const AttrTimeline& table) {
  std::vector<AttrTimelineGroup> groups;
  std::unordered_map<std::string, size_t> byStory;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    const AttrTimeline::Row& row = table.rows[r];
    std::string story(row.key);
    for (const AttrTimeline::Cell& cell : row.cells) {
      story += '\x1f';
      story += cell.present ? (cell.changed ? 'C' : 'P') : (cell.changed ? 'R' : '-');
      std::string_view v = cell.value;
      // A value naming the row's own function is the same story on every row.
      if (v == row.function || (v.size() == row.function.size() + 2 && v.front() == '"' && v.back() == '"' &&
                                v.substr(1, row.function.size()) == row.function))
        story += "\x1e";
      else
        story += v;
    }
    auto [it, inserted] = byStory.try_emplace(std::move(story), groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].rows.push_back(r);
  }
  return groups;
}

std::string Workbench::moduleFileText(int id, Side side) const {
  return printModule(moduleAt(id, side), fileOptions());
}

void Workbench::setConstantStyle(ConstantStyle style) {
  if (style == constantStyle_) return;
  constantStyle_ = style;
  printCache_.clear();
  if (loaded()) numberLoadedConstants();
}

NDArray Workbench::numberedConstant(int n) const {
  NDArray data = constantNumbers_->constant(n);
  // A reference loaded without a #[metadata] section is not numbered (its
  // number is only reserved): find it in the module at the cursor, so `show
  // const N` describes what is on screen (its made-up data, said so).
  if (!data.defined() && loaded()) {
    for (const auto& [name, fn] : moduleAt(cursor(), Side::After)->functions) {
      postOrderVisit(fn, [&data, n](const Expr& e) {
        if (const auto* c = as<ConstantNode>(e); c && !data.defined() && c->data.placeholderIndex() == n) data = c->data;
      });
      if (data.defined()) return data;
    }
  }
  if (!data.defined()) {
    size_t count = constantNumbers_->size();
    throw WorkbenchError("no constant " + constantReferenceText(printSyntax(), n) + " " +
                         (count ? "has been printed (" + std::to_string(count) + " numbered so far; numbers are given as constants print)"
                                : std::string("has been printed yet (constants are numbered as they print: try `show` first)")));
  }
  return data;
}

std::string Workbench::diff(int a, Side sideA, int b, Side sideB, const std::string& function) const {
  std::string fn = stripAt(function);
  const IRModule& modA = moduleAt(a, sideA);
  const IRModule& modB = moduleAt(b, sideB);
  // A function present on one side only diffs against nothing: all added or all removed.
  bool inA = fn.empty() || modA->lookup(fn), inB = fn.empty() || modB->lookup(fn);
  if (!inA && !inB)
    throw WorkbenchError("no function @" + fn + " in the modules of #" + std::to_string(a) + " and #" + std::to_string(b));
  auto label = [&](int id, Side side) {
    return "#" + std::to_string(id) + " " + trace_->event(id).pass + (side == Side::Before ? " (before)" : " (after)") +
           (fn.empty() ? "" : " @" + fn);
  };
  std::string textA = inA ? moduleText(a, sideA, fn) : "";
  std::string textB = inB ? moduleText(b, sideB, fn) : "";
  if (!fn.empty() || textA == textB) return unifiedDiff(textA, textB, label(a, sideA), label(b, sideB));
  // The canonical texts, but lines of ops the pass only moved are marked `<` / `>`
  // as in the aligned diff (renumbered lines stay changes here: that is --text).
  PrintOptions options = printOptions();
  PrintedModule pa = printModuleWithRanges(modA, options), pb = printModuleWithRanges(modB, options);
  std::vector<DiffLine> lines = diffLines(pa.text, pb.text);
  markMovedLines(*edits(a, sideA, b, sideB), pa, pb, lines);
  std::string out = renderUnifiedDiff(lines, label(a, sideA), label(b, sideB));
  return out.empty() ? out : out + movedLinesNote(countDiffLines(lines));
}

std::vector<std::string> Workbench::functionNames(int id) const {
  std::vector<std::string> names;
  for (const auto& [name, fn] : moduleAt(id, Side::After)->functions) names.push_back(name);
  return names;
}

std::vector<std::string> Workbench::attributeKeys() const {
  std::set<std::string> keys = {fn_attr::kPrimitive, fn_attr::kCompiler,         fn_attr::kInline, fn_attr::kExtern,
                                fn_attr::kGlobalSymbol, fn_attr::kComposite, fn_attr::kSkipOptimization, fn_attr::kTarget};
  if (trace_) {
    for (const TraceEvent& ev : trace_->events()) {
      if (ev.parent != -1) continue;
      for (const auto& [name, fn] : ev.after->functions)
        for (const auto& [key, value] : functionAttrs(fn).entries()) keys.insert(key);
      for (const auto& [key, value] : ev.after->attrs.entries()) keys.insert(key);
    }
  }
  return {keys.begin(), keys.end()};
}

std::vector<std::string> Workbench::diagnosticRules() const {
  std::set<std::string> rules;
  if (trace_)
    for (const TraceEvent& ev : trace_->events())
      for (const Diagnostic& d : ev.diagnostics)
        if (!d.rule.empty()) rules.insert(d.rule);
  return {rules.begin(), rules.end()};
}

AttrTimeline Workbench::attrTimeline(const AttrTimelineQuery& query) const {
  requireLoaded();
  AttrTimeline table;
  for (int id : timeline())
    if (!builds_->isCodegen(id) && (query.nested || trace_->event(id).parent == -1)) table.events.push_back(id);
  const size_t columns = table.events.size();
  const std::string onlyFunction = stripAt(query.function);
  const bool filterKeys = !query.key.empty() || !query.keys.empty();
  auto wanted = [&](const std::string& key) {
    return !filterKeys || key == query.key || std::find(query.keys.begin(), query.keys.end(), key) != query.keys.end();
  };
  // Two passes over the columns. The first finds the (function, key) rows,
  // the second fills their cells, so the rows are allocated once, already in
  // the order the faces list them (function, then key). Rows are found through
  // their function (a hash lookup, then its few keys), and a function whose
  // node is the one of the previous column — the usual case, since passes
  // share unchanged functions — copies that column's cells instead of printing
  // its attributes again.
  struct Owner {
    const std::string* name = nullptr;
    std::vector<std::pair<std::string, size_t>> rows;
    const void* node = nullptr;
    size_t column = static_cast<size_t>(-1);
  };
  std::unordered_map<std::string, Owner> owners;
  // Function nodes seen before lead to their owner without hashing the name;
  // the second pass replays the first one's owners in order.
  std::unordered_map<const void*, Owner*> byNode;
  std::vector<Owner*> visits;
  // Parameters' virtual devices (PlanDevices) are rows of their function,
  // keyed "virtual_device(%p)"; only functions that have some pay for the copy.
  AttrDict withParams;
  auto rowAttrs = [&withParams](const Expr& fn) -> const AttrDict& {
    const auto* f = as<FunctionNode>(fn);
    bool any = false;
    for (size_t i = 0; f && i < f->params.size() && !any; ++i) any = !f->params[i]->virtualDevice.isNone();
    if (!any) return functionAttrs(fn);
    withParams = f->attrs;
    for (const Var& p : f->params)
      if (!p->virtualDevice.isNone()) withParams.set("virtual_device(%" + p->name + ")", p->virtualDevice);
    return withParams;
  };
  const IRModule* columnModule = nullptr;
  auto forEachFunction = [&](size_t c, const auto& visit) {
    const IRModule& mod = trace_->event(table.events[c]).after;
    columnModule = &mod;
    if (onlyFunction.empty() || onlyFunction == "<module>") visit(std::string("<module>"), nullptr, mod->attrs);
    if (!onlyFunction.empty()) {
      auto it = mod->functions.find(onlyFunction);
      if (it != mod->functions.end()) visit(it->first, it->second.get(), rowAttrs(it->second));
      return;
    }
    for (const auto& [name, fn] : mod->functions) visit(name, fn.get(), rowAttrs(fn));
  };
  // A virtual device shows what it stands for in that column's module.
  auto cellText = [&](const AttrValue& value) {
    return isVirtualDeviceRef(value) && columnModule ? describeVirtualDeviceRef(*columnModule, value) : value.toString();
  };
  for (size_t c = 0; c < columns; ++c)
    forEachFunction(c, [&](const std::string& function, const void* node, const AttrDict& attrs) {
      Owner* found = nullptr;
      if (node) {
        auto it = byNode.find(node);
        if (it != byNode.end() && *it->second->name == function) found = it->second;
      }
      if (!found) {
        auto [it, added] = owners.try_emplace(function);
        found = &it->second;
        found->name = &it->first;
        if (node) byNode[node] = found;
      }
      visits.push_back(found);
      Owner& owner = *found;
      if (!node || owner.node != node) {
        for (const auto& [key, value] : attrs.entries()) {
          if (!wanted(key)) continue;
          auto known = std::find_if(owner.rows.begin(), owner.rows.end(), [&key = key](const auto& r) { return r.first == key; });
          if (known == owner.rows.end()) owner.rows.emplace_back(key, 0);
        }
      }
      owner.node = node;
    });
  // Functions sorted once by name, then each one's few keys: cheaper than
  // sorting every (function, key) pair by two long strings.
  std::vector<std::pair<const std::string*, Owner*>> byName;
  byName.reserve(owners.size());
  size_t total = 0;
  for (auto& [function, owner] : owners) {
    if (owner.rows.empty()) continue;
    byName.emplace_back(&function, &owner);
    total += owner.rows.size();
  }
  std::sort(byName.begin(), byName.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
  // Every text the rows show is stored once (a deque keeps the views valid
  // as it grows); all cells are one allocation, row after row.
  struct Storage {
    std::deque<std::string> texts;
    std::vector<AttrTimeline::Cell> cells;
  };
  auto storage = std::make_shared<Storage>();
  storage->cells.resize(total * columns);
  std::map<std::string, std::string_view, std::less<>> keyTexts;
  std::vector<AttrTimeline::Row> rows(total);
  size_t next = 0;
  for (auto& [function, owner] : byName) {
    std::string_view functionText = storage->texts.emplace_back(*function);
    std::sort(owner->rows.begin(), owner->rows.end());
    for (auto& [key, index] : owner->rows) {
      index = next++;
      auto known = keyTexts.find(key);
      if (known == keyTexts.end()) known = keyTexts.emplace(key, storage->texts.emplace_back(key)).first;
      rows[index] = AttrTimeline::Row{functionText, known->second, {}};
    }
  }
  AttrTimeline::Cell* cells = storage->cells.data();
  auto cell = [&](size_t row, size_t c) -> AttrTimeline::Cell& { return cells[row * columns + c]; };
  for (auto& [function, owner] : owners) {
    owner.node = nullptr;
    owner.column = static_cast<size_t>(-1);
  }
  size_t visit = 0;
  for (size_t c = 0; c < columns; ++c)
    forEachFunction(c, [&](const std::string&, const void* node, const AttrDict& attrs) {
      Owner& owner = *visits[visit++];
      if (node && owner.node == node && c > 0 && owner.column == c - 1) {
        for (const auto& [key, i] : owner.rows) cell(i, c) = cell(i, c - 1);
      } else {
        for (const auto& [key, value] : attrs.entries()) {
          if (!wanted(key)) continue;
          for (const auto& [k, i] : owner.rows)
            if (k == key) {
              cell(i, c) = AttrTimeline::Cell{storage->texts.emplace_back(cellText(value)), true, false};
              break;
            }
        }
      }
      owner.node = node;
      owner.column = c;
    });
  table.rows.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    bool any = false;
    for (size_t c = 1; c < columns; ++c) {
      AttrTimeline::Cell& now = cell(i, c);
      const AttrTimeline::Cell& before = cell(i, c - 1);
      now.changed = now.present != before.present || now.value != before.value;
      any = any || now.changed;
    }
    if (query.changedOnly && !any) continue;
    if (columns > 0) rows[i].cells = std::span<const AttrTimeline::Cell>(&cell(i, 0), columns);
    table.rows.push_back(rows[i]);
  }
  table.storage = std::move(storage);
  return table;
}

Provenance Workbench::provenance(const std::string& key) const {
  Provenance result;
  result.query = key;
  if (const ConfigKeyInfo* info = ConfigRegistry::global().find(key)) {
    result.registered = true;
    result.registeredDefault = info->defaultValue.toString();
  }
  if (const AttrValue* v = ctx_->explicitConfig().find(key)) result.explicitValue = v->toString();
  if (!trace_) return result;
  auto collect = [&](auto matches) {
    std::set<std::string> keys;
    for (const TraceEvent& ev : trace_->events())
      for (const ConfigRead& read : ev.configReads)
        if (matches(read.key)) {
          result.entries.push_back(ProvenanceEntry{ev.id, ev.pass, ev.depth, read});
          keys.insert(read.key);
        }
    result.keys.assign(keys.begin(), keys.end());
  };
  collect([&](const std::string& k) { return k == key; });
  if (result.entries.empty()) {
    // Users say "link_params" for "relay.FuseOps.link_params" and "executor.link-params".
    std::string wanted = normalizeKey(key);
    collect([&](const std::string& k) { return normalizeKey(k).find(wanted) != std::string::npos; });
  }
  if (result.keys.empty() && result.registered) result.keys.push_back(key);
  // Conflicts about the same setting: "relay.FuseOps.link_params" and "executor.link-params" are both link_params.
  std::set<std::string> settings{normalizeKey(key.substr(key.rfind('.') + 1))};
  for (const std::string& k : result.keys) settings.insert(normalizeKey(k.substr(k.rfind('.') + 1)));
  for (ProvenanceConflict& c : provenanceConflicts())
    if (settings.count(normalizeKey(c.key.substr(c.key.rfind('.') + 1)))) result.conflicts.push_back(std::move(c));
  return result;
}

}  // namespace passlab
