// Provenance checks: a pass in a nested context that decided on a value taken
// from the module while its own context says otherwise. The historical example
// (shared/seeds/000): FoldConstant evaluates in a clean CPU context, yet the
// nested FuseOps took link-params=1 from the module's executor attribute.
#pragma once

#include <string>
#include <vector>

#include "core/ir/attrs.h"
#include "core/pass/pass.h"

namespace passlab {

/// Rule id of the diagnostic reported for a conflict.
inline constexpr const char* kProvenanceLeakRule = "provenance.module-attr-leak";

/// The settings of the context a pass ran in.
struct ContextSettings {
  std::string name;
  /// 0 for a root context; nested contexts were opened by a pass with makeChild.
  int depth = 0;
  std::string target;
  AttrDict config;
};

/// One read that contradicts the reading pass's own context.
struct ProvenanceConflict {
  /// The event of the pass (filled by the workbench; -1 when unknown).
  int event = -1;
  std::string pass;
  std::string contextName;
  std::string contextTarget;
  /// The read: key ("executor.link-params"), value, where it came from.
  std::string key;
  AttrValue value;
  ConfigSource source = ConfigSource::ModuleAttr;
  /// What the context itself says, and why ("relay.FuseOps.link_params is not set there and ...").
  AttrValue contextValue;
  std::string contextSource;
  /// One sentence for the user.
  std::string message;
};

/// The conflicts among `reads` (one pass run) for a pass that ran in `context`:
/// in a nested context (depth > 0), a read of a module attribute `A.F` (or
/// `F`) whose value differs from what the context says about `F` — its
/// explicit config key ending in F (`-` and `_` equal), else its target's
/// `-F` option, else the registered default of a config key ending in F. A
/// module attribute the context has no opinion on is not a conflict; nor is
/// any read in a root context, where the module attributes describe the build.
std::vector<ProvenanceConflict> findProvenanceConflicts(const std::vector<ConfigRead>& reads, const ContextSettings& context);

/// Reports every conflict of a pass run as a warning diagnostic with rule
/// kProvenanceLeakRule, attached (by the trace recorder) to the pass's event,
/// so `break diag provenance.module-attr-leak` stops there.
class ProvenanceCheckInstrument final : public PassInstrument {
 public:
  std::string name() const override { return "provenance"; }
  /// Starts collecting the reads of a pass run (nested runs collect their own).
  void enterPass(const Pass& pass, const IRModule& mod, PassContext& ctx) override;
  void exitPass(const Pass& pass, PassContext& ctx) override;
  /// Checks the run's reads against its context and reports each conflict.
  void afterPass(const Pass& pass, const IRModule& before, const IRModule& after, PassContext& ctx) override;
  /// Collects a read for the innermost pass being run.
  void onConfigRead(const ConfigRead& read) override;

 private:
  // Reads of each pass being run, innermost last.
  std::vector<std::vector<ConfigRead>> open_;
};

/// The checking instruments every face installs by default, in order, right
/// after its trace recorder (when it has one): the REPL's workbench and batch
/// mode call this one function, so a check added here runs in both.
std::vector<PassInstrumentPtr> defaultCheckInstruments();

}  // namespace passlab
