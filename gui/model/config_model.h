// View model of the config panel: every configuration read of the selected
// event and of the passes nested in it, with value, source and context, and
// conflicting reads flagged — the same setting (link_params read from the
// PassContext in one context and from the module's executor in a nested one)
// seen with different values. This is seed 000 made visible.
#pragma once

#include <string>
#include <vector>

#include "core/workbench/workbench.h"
#include "gui/model/palette.h"

namespace passlab::gui {

/// One config read.
struct ConfigRow {
  /// The event of the reading pass.
  int event = 0;
  /// Nesting depth of the reading event relative to the selected one (0 = itself).
  int depth = 0;
  /// The pass that read it.
  std::string pass;
  /// The key as read ("relay.FuseOps.link_params", "executor.link-params").
  std::string key;
  /// The value obtained, printed.
  std::string value;
  /// "PassContext", "pass option", "module attribute", "target", "default".
  std::string source;
  /// Name of the PassContext the read happened in.
  std::string context;
  /// The setting the key belongs to ("link_params" for both
  /// relay.FuseOps.link_params and executor.link-params).
  std::string setting;
  /// Another read of the same setting in this view got a different value.
  bool conflict = false;
  /// Colour of the source column.
  ColourRole colour = ColourRole::Text;
};

/// A setting read with different values, summarised for the panel's banner.
struct ConfigConflict {
  /// The setting (see ConfigRow::setting).
  std::string setting;
  /// "0 (PassContext in root, FuseOps #4) vs 1 (module attribute in FoldConstant.eval, FuseOps #7)".
  std::string summary;
};

/// The config panel's content.
struct ConfigModel {
  /// Reads in event pre-order, each event's reads in the order made.
  std::vector<ConfigRow> rows;
  /// One per setting read with different values.
  std::vector<ConfigConflict> conflicts;
  /// The root context's settings: "opt_level 2 · target llvm · disabled: ... · config: k=v".
  std::string settings;
};

/// The setting a key names: its last dotted component, lower-cased, '-' as '_'.
std::string settingOf(const std::string& key);

/// The reads of event `id` and its nested events (all events when `id` is -1).
ConfigModel buildConfigModel(const Workbench& wb, int id);

}  // namespace passlab::gui
