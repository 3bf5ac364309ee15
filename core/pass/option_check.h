// Validation of pass options shared by PassRegistry::create and the pipeline parser
// (not part of the public API).
#pragma once

#include <string>
#include <string_view>

#include "core/pass/registry.h"

namespace passlab::pass_detail {

/// Result of checking one `key=value` against a pass's option schema.
struct OptionCheck {
  enum class Status : uint8_t { Ok, UnknownKey, BadValue };
  Status status = Status::Ok;
  /// Error text naming the option and the pass (empty when Ok).
  std::string message;
  /// The value coerced to the option's kind (when Ok).
  AttrValue value;
};

/// Checks `key=value` for `registration`.
OptionCheck checkOption(const PassRegistration& registration, const std::string& key, const AttrValue& value);

/// Every option of the schema in order: the given value, else the default.
AttrDict completeOptions(const PassRegistration& registration, const AttrDict& given);

/// "unknown pass 'Foo'; did you mean 'FooBar'?" (the suggestion only when one is close).
std::string unknownPassMessage(std::string_view name, const PassRegistry& registry);

}  // namespace passlab::pass_detail
