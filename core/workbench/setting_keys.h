// The session settings by name: `set KEY VALUE`, `set` with no argument, the
// reproducer's setting lines, completion and help all read this one table.
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

namespace passlab {

/// A session setting (besides the registered PassContext config keys and the
/// module attributes `set executor.link-params` and friends change).
enum class SettingKey : uint8_t {
  OptLevel,        ///< the context's opt_level
  Target,          ///< the context's target string
  DisabledPass,    ///< passes never run
  RequiredPass,    ///< passes run whatever their opt_level
  Syntax,          ///< the syntax IR is printed in
  PrintConstants,  ///< large constants inline or by reference
  Threads,         ///< threads of host code's parallel loops
  InterpMaxBytes,  ///< the memory budget of one interpreter evaluation
  NumericCheck,    ///< compare @main after every pass
};

/// The name of each setting, indexed by its value.
inline constexpr std::string_view kSettingKeyNames[] = {"opt_level", "target",           "disabled_pass",
                                                         "required_pass", "syntax",       "print-constants",
                                                         "threads",   "interp-max-bytes", "numeric-check"};
static_assert(std::size(kSettingKeyNames) == static_cast<size_t>(SettingKey::NumericCheck) + 1, "a SettingKey without a name");

/// The name of `key` (kSettingKeyNames).
constexpr std::string_view settingKeyName(SettingKey key) { return kSettingKeyNames[static_cast<size_t>(key)]; }

/// The setting named `name`, or nullopt (a config key or a module attribute).
constexpr std::optional<SettingKey> settingKeyFromName(std::string_view name) {
  for (size_t i = 0; i < std::size(kSettingKeyNames); ++i)
    if (kSettingKeyNames[i] == name) return static_cast<SettingKey>(i);
  return std::nullopt;
}

/// Module-attribute fields `set` changes that completion offers besides the
/// settings (any `executor.`, `runtime.` or `module.` key is accepted).
inline constexpr std::string_view kModuleAttrSettingExamples[] = {"executor.link-params", "executor.kind", "runtime.kind"};

}  // namespace passlab
