// Workbench queries: IR at an event, diffs, attribute timeline, config provenance.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/text/printer.h"
#include "core/workbench/workbench.h"

namespace passlab {
namespace {

/// How many printed texts to keep: a face typically flips between before/after
/// of a few events, and big modules take long to print.
constexpr size_t kPrintCacheSize = 8;

std::string stripAt(const std::string& name) { return !name.empty() && name[0] == '@' ? name.substr(1) : name; }

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
  std::string text = fn.empty() ? printModule(mod) : printFunction(mod, fn);
  printCache_.insert(printCache_.begin(), PrintCacheEntry{mod, fn, text});
  if (printCache_.size() > kPrintCacheSize) printCache_.pop_back();
  return text;
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
  return unifiedDiff(textA, textB, label(a, sideA), label(b, sideB));
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
    if (query.nested || trace_->event(id).parent == -1) table.events.push_back(id);
  const size_t columns = table.events.size();
  const std::string onlyFunction = stripAt(query.function);
  std::map<std::pair<std::string, std::string>, AttrTimeline::Row> rows;
  auto cell = [&](const std::string& function, const std::string& key) -> AttrTimeline::Row& {
    auto [it, added] = rows.try_emplace({function, key});
    if (added) {
      it->second.function = function;
      it->second.key = key;
      it->second.values.assign(columns, "");
      it->second.present.assign(columns, false);
      it->second.changed.assign(columns, false);
    }
    return it->second;
  };
  for (size_t c = 0; c < columns; ++c) {
    const IRModule& mod = trace_->event(table.events[c]).after;
    auto record = [&](const std::string& function, const AttrDict& attrs) {
      if (!onlyFunction.empty() && function != onlyFunction) return;
      for (const auto& [key, value] : attrs.entries()) {
        if (!query.key.empty() && key != query.key) continue;
        AttrTimeline::Row& row = cell(function, key);
        row.values[c] = value.toString();
        row.present[c] = true;
      }
    };
    record("<module>", mod->attrs);
    for (const auto& [name, fn] : mod->functions) record(name, functionAttrs(fn));
  }
  for (auto& [key, row] : rows) {
    bool any = false;
    for (size_t c = 1; c < columns; ++c) {
      row.changed[c] = row.present[c] != row.present[c - 1] || row.values[c] != row.values[c - 1];
      any = any || row.changed[c];
    }
    if (!query.changedOnly || any) table.rows.push_back(std::move(row));
  }
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
  return result;
}

}  // namespace passlab
