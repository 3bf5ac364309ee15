#include "gui/model/config_model.h"

#include <cctype>
#include <map>
#include <set>

namespace passlab::gui {

std::string settingOf(const std::string& key) {
  size_t dot = key.rfind('.');
  std::string leaf = dot == std::string::npos ? key : key.substr(dot + 1);
  for (char& c : leaf) c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return leaf;
}

namespace {

ColourRole sourceColour(ConfigSource s) {
  switch (s) {
    case ConfigSource::PassContext: return ColourRole::GlobalName;
    case ConfigSource::PassOption: return ColourRole::OpName;
    case ConfigSource::ModuleAttr: return ColourRole::TypeName;
    case ConfigSource::Target: return ColourRole::Keyword;
    case ConfigSource::Default: return ColourRole::TextDim;
    case ConfigSource::Annotation: return ColourRole::Keyword;
  }
  return ColourRole::Text;
}

std::string describeSettings(const PassContext& ctx) {
  std::string out = "opt_level " + std::to_string(ctx.optLevel);
  out += " | target " + (ctx.target.empty() ? std::string("(none)") : ctx.target);
  auto list = [](const std::set<std::string>& s) {
    std::string r;
    for (const std::string& p : s) r += (r.empty() ? "" : ",") + p;
    return r;
  };
  if (!ctx.disabledPasses.empty()) out += " | disabled: " + list(ctx.disabledPasses);
  if (!ctx.requiredPasses.empty()) out += " | required: " + list(ctx.requiredPasses);
  for (const auto& [key, value] : ctx.explicitConfig().entries()) out += " | " + key + "=" + value.toString();
  return out;
}

/// Values compared for conflicts: a bool and the int of the same truth are the
/// same answer (relay.FuseOps.link_params is a bool, executor's link-params an int).
std::string comparable(const std::string& value) {
  if (value == "True" || value == "true") return "1";
  if (value == "False" || value == "false") return "0";
  return value;
}

}  // namespace

ConfigModel buildConfigModel(const Workbench& wb, int id) {
  ConfigModel model;
  model.settings = describeSettings(wb.context());
  if (!wb.loaded()) return model;
  std::vector<std::pair<int, int>> events;  // (event, relative depth), pre-order
  if (id < 0) {
    for (const TraceEvent& ev : wb.trace().events()) events.emplace_back(ev.id, ev.depth);
  } else {
    std::vector<std::pair<int, int>> stack = {{id, 0}};
    while (!stack.empty()) {
      auto [e, depth] = stack.back();
      stack.pop_back();
      events.emplace_back(e, depth);
      const auto& children = wb.event(e).children;
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.emplace_back(*it, depth + 1);
    }
  }
  for (auto [e, depth] : events) {
    const TraceEvent& ev = wb.event(e);
    for (const ConfigRead& read : ev.configReads) {
      ConfigRow row;
      row.event = e;
      row.depth = depth;
      row.pass = read.pass.empty() ? ev.pass : read.pass;
      row.key = read.key;
      row.value = read.value.toString();
      row.source = std::string(configSourceName(read.source));
      row.context = read.contextName;
      row.setting = settingOf(read.key);
      row.colour = sourceColour(read.source);
      model.rows.push_back(std::move(row));
    }
  }
  // A setting is in conflict when its reads disagree. Absent values (None from a
  // module attribute that is not there) do not count: "not set here" is not a
  // different answer.
  std::map<std::string, std::set<std::string>> values;
  for (const ConfigRow& row : model.rows)
    if (row.value != "None") values[row.setting].insert(comparable(row.value));
  for (ConfigRow& row : model.rows) row.conflict = values[row.setting].size() > 1 && row.value != "None";
  std::set<std::string> reported;
  for (const ConfigRow& row : model.rows) {
    if (!row.conflict || !reported.insert(row.setting).second) continue;
    ConfigConflict c;
    c.setting = row.setting;
    for (const ConfigRow& other : model.rows) {
      if (other.setting != row.setting || !other.conflict) continue;
      c.summary += (c.summary.empty() ? "" : " vs ") + other.value + " (" + other.source + " " + other.key + " in " +
                   other.context + ", " + other.pass + " #" + std::to_string(other.event) + ")";
    }
    model.conflicts.push_back(std::move(c));
  }
  return model;
}

}  // namespace passlab::gui
