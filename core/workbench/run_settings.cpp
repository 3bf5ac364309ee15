#include "core/workbench/run_settings.h"

#include <sstream>
#include <stdexcept>

#include "core/support/strings.h"
#include "core/workbench/setting_keys.h"
#include "core/workbench/value_text.h"

namespace passlab {
namespace {

std::string joinSet(const std::set<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::string name(SettingKey key) { return std::string(settingKeyName(key)); }

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
  line(name(SettingKey::OptLevel), std::to_string(optLevel));
  if (!target.empty()) line(name(SettingKey::Target), target);
  if (!disabledPasses.empty()) line(name(SettingKey::DisabledPass), joinSet(disabledPasses));
  if (!requiredPasses.empty()) line(name(SettingKey::RequiredPass), joinSet(requiredPasses));
  for (const auto& [key, value] : config) line("config", key + " = " + value.toString());
  if (verifyEach) line("verify_each", "on");
  return out;
}

bool RunSettings::readLine(const std::string& key, const std::string& value) {
  if (key == settingKeyName(SettingKey::OptLevel)) {
    try {
      size_t used = 0;
      optLevel = std::stoi(value, &used);
      if (used != value.size()) throw std::invalid_argument(value);
    } catch (const std::exception&) {
      throw std::invalid_argument("opt_level must be an integer, got '" + value + "'");
    }
  } else if (key == settingKeyName(SettingKey::Target)) {
    target = value;
  } else if (key == settingKeyName(SettingKey::DisabledPass)) {
    disabledPasses = splitSet(value);
  } else if (key == settingKeyName(SettingKey::RequiredPass)) {
    requiredPasses = splitSet(value);
  } else if (key == "config") {
    size_t eq = value.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("expected 'config: KEY = VALUE', got 'config: " + value + "'");
    config.emplace_back(std::string(trim(value.substr(0, eq))), parseAttrValueText(trim(value.substr(eq + 1))));
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
