// The names of the severities (core/ir/diagnostic.h's Severity): the one table
// the renderer, trace JSON, the report and the faces read. Beside diagnostic.h
// rather than in it only because nearly every file includes that header.
#pragma once

#include <iterator>
#include <optional>
#include <string_view>

#include "core/ir/diagnostic.h"

namespace passlab {

/// The name of each severity, indexed by its value.
inline constexpr std::string_view kSeverityNames[] = {"note", "warning", "error"};
static_assert(std::size(kSeverityNames) == static_cast<size_t>(Severity::Error) + 1, "a Severity without a name");

/// "note", "warning" or "error" (kSeverityNames).
std::string_view severityName(Severity severity);

/// The severity kSeverityNames spells `name`, or nullopt.
std::optional<Severity> severityFromName(std::string_view name);

}  // namespace passlab
