#include "core/workbench/run_settings.h"

#include <sstream>
#include <stdexcept>

#include "core/workbench/value_text.h"

namespace passlab {
namespace {

std::string trimmed(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  size_t e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string joinSet(const std::set<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::set<std::string> splitSet(const std::string& text) {
  std::set<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!trimmed(item).empty()) items.insert(trimmed(item));
  return items;
}

}  // namespace

RunSettings RunSettings::of(const PassContext& ctx) {
  RunSettings s;
  s.optLevel = ctx.optLevel;
  s.target = ctx.target;
  for (const auto& [key, value] : ctx.explicitConfig().entries()) s.config.emplace_back(key, value);
  s.disabledPasses = ctx.disabledPasses;
  s.requiredPasses = ctx.requiredPasses;
  return s;
}

void RunSettings::applyTo(PassContext& ctx) const {
  ctx.optLevel = optLevel;
  ctx.target = target;
  ctx.disabledPasses = disabledPasses;
  ctx.requiredPasses = requiredPasses;
  for (const auto& [key, value] : config) ctx.setConfig(key, value);
}

std::string RunSettings::lines() const {
  std::string out;
  auto line = [&](const std::string& key, const std::string& value) { out += key + ": " + value + "\n"; };
  line("opt_level", std::to_string(optLevel));
  if (!target.empty()) line("target", target);
  if (!disabledPasses.empty()) line("disabled_pass", joinSet(disabledPasses));
  if (!requiredPasses.empty()) line("required_pass", joinSet(requiredPasses));
  for (const auto& [key, value] : config) line("config", key + " = " + value.toString());
  if (verifyEach) line("verify_each", "on");
  return out;
}

bool RunSettings::readLine(const std::string& key, const std::string& value) {
  if (key == "opt_level") {
    try {
      size_t used = 0;
      optLevel = std::stoi(value, &used);
      if (used != value.size()) throw std::invalid_argument(value);
    } catch (const std::exception&) {
      throw std::invalid_argument("opt_level must be an integer, got '" + value + "'");
    }
  } else if (key == "target") {
    target = value;
  } else if (key == "disabled_pass") {
    disabledPasses = splitSet(value);
  } else if (key == "required_pass") {
    requiredPasses = splitSet(value);
  } else if (key == "config") {
    size_t eq = value.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("expected 'config: KEY = VALUE', got 'config: " + value + "'");
    config.emplace_back(trimmed(value.substr(0, eq)), parseAttrValueText(trimmed(value.substr(eq + 1))));
  } else if (key == "verify_each") {
    if (value != "on" && value != "off") throw std::invalid_argument("verify_each must be 'on' or 'off', got '" + value + "'");
    verifyEach = value == "on";
  } else {
    return false;
  }
  return true;
}

bool RunSettings::operator==(const RunSettings& other) const {
  if (config.size() != other.config.size()) return false;
  for (size_t i = 0; i < config.size(); ++i)
    if (config[i].first != other.config[i].first || !(config[i].second == other.config[i].second)) return false;
  return optLevel == other.optLevel && target == other.target && disabledPasses == other.disabledPasses &&
         requiredPasses == other.requiredPasses && verifyEach == other.verifyEach;
}

}  // namespace passlab
