// The settings a pipeline run reads besides its module and its pipeline: opt
// level, target, explicit config, disabled and required passes, verify-each.
// The REPL's `set`, batch mode's flags, a reproducer's header and a reducer's
// job all hold this one value, and it reaches a PassContext in one place
// (applyTo), so a new setting is added here once instead of being copied field
// by field through every face.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/attrs.h"
#include "core/pass/pass.h"

namespace passlab {

/// What a run is configured with (see the file comment).
struct RunSettings {
  /// PassContext::optLevel.
  int optLevel = 2;
  /// The target text ("" for none).
  std::string target;
  /// Explicit config of the root context, in the order it was set.
  std::vector<std::pair<std::string, AttrValue>> config;
  std::set<std::string> disabledPasses;
  std::set<std::string> requiredPasses;
  /// The well-formed checker runs around every pass (VerifyInstrument).
  bool verifyEach = false;

  /// The settings `ctx` holds (verifyEach is an instrument, not a context field: false).
  static RunSettings of(const PassContext& ctx);
  /// Writes opt level, target, config and pass lists into `ctx`, replacing
  /// what it had; config keys are validated as PassContext::setConfig does.
  void applyTo(PassContext& ctx) const;

  /// The `key: value` lines of the text form (the reproducer header's): opt_level
  /// always, the rest only when set, so a default run writes one line.
  std::string lines() const;
  /// Reads one `key: value` line of the text form. False when `key` is not a
  /// run setting (the caller's own keys); WorkbenchError-style messages are
  /// thrown as std::invalid_argument for a bad value.
  bool readLine(const std::string& key, const std::string& value);

  bool operator==(const RunSettings& other) const;
};

}  // namespace passlab
