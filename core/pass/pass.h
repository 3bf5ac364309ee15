// Passes, pass contexts with recorded configuration reads, and instruments.
//
// Model: MLIR's pass manager and TVM's PassContext. A pass is a pure function
// IRModule -> IRModule; everything around it (printing, timing, verification,
// snapshots, provenance) is an instrument. Every input a pass decides on is read
// through PassContext accessors that record (key, value, source, context).
#pragma once

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/attrs.h"
#include "core/ir/diagnostic.h"
#include "core/ir/module.h"
#include "core/pass/remark.h"

namespace passlab {

class PassContext;
class Pass;
/// Passes are immutable once built and shared.
using PassPtr = std::shared_ptr<const Pass>;

/// The phase a module is in (module attribute `phase`; seed 002). Only
/// LambdaLifting (Ingestion -> Optimization), LegalizeOps (-> Lowering) and
/// VMBuiltinLower (-> Build) move it; the well-formed checker enforces what each adds.
enum class Phase : uint8_t { Ingestion = 0, Optimization = 1, Lowering = 2, Build = 3 };

/// One row of kPhaseNames.
struct PhaseName {
  Phase phase;
  std::string_view name;
};
/// Every phase in order with its name ("ingestion", ...): the one table the
/// docs, the pass manager and the checks read.
inline constexpr PhaseName kPhaseNames[] = {{Phase::Ingestion, "ingestion"},
                                            {Phase::Optimization, "optimization"},
                                            {Phase::Lowering, "lowering"},
                                            {Phase::Build, "build"}};
/// The name of `phase` from kPhaseNames.
std::string_view phaseName(Phase phase);
/// The module attribute's value of `phase` (0..3).
constexpr int64_t phaseNumber(Phase phase) { return static_cast<int64_t>(phase); }

/// Static description of a pass.
struct PassInfo {
  /// Registry name, e.g. "FoldConstant".
  std::string name;
  /// Runs only when the context's opt_level is at least this (unless required).
  int optLevel = 0;
  /// Passes that must have run before (documentation and docs/passes.md).
  std::vector<std::string> required;
  /// Module phases the pass accepts; empty means any. runPass reports a run in another phase.
  std::vector<Phase> acceptedPhases;
  /// Phase the module is in after the pass, when the pass moves it (nullopt: unchanged).
  std::optional<Phase> phaseAfter;
  /// One line: what the pass does.
  std::string description;
  /// What it guarantees after running (docs/passes.md).
  std::string guarantees;
};

/// Where a configuration value came from.
/// Annotation: a decision a pass took from the IR itself (an on_device, a
/// parameter's virtual_device, a function's target), as PlanDevices records
/// where each value lives and why.
enum class ConfigSource : uint8_t { PassContext, PassOption, ModuleAttr, Target, Default, Annotation };
/// "PassContext", "pass option", "module attribute", "target", "default", "IR annotation".
std::string_view configSourceName(ConfigSource s);

/// One recorded read of an input a pass decided on.
struct ConfigRead {
  /// The key as the pass asked for it ("relay.FuseOps.link_params", "executor.link-params", ...).
  std::string key;
  /// The value obtained (None when absent and no default).
  AttrValue value;
  ConfigSource source = ConfigSource::Default;
  /// Id and name of the context the read happened in (nested contexts differ).
  int contextId = 0;
  std::string contextName;
  /// The pass that read it.
  std::string pass;
};

/// When the body of a pass ran (steady_clock, nanoseconds), as measured by runPass
/// around Pass::run alone, so that instruments' own hooks never count as pass time.
struct PassTiming {
  int64_t startNs = 0;
  int64_t endNs = 0;
  /// Duration in milliseconds.
  double ms() const { return static_cast<double>(endNs - startNs) / 1e6; }
};

/// Why a function-level pass left a function alone.
struct FunctionSkip {
  std::string pass;
  std::string function;
  std::string reason;
};

/// A registered, typed configuration key (TVM's PassContext config).
struct ConfigKeyInfo {
  std::string key;
  AttrValue::Kind kind = AttrValue::Kind::Bool;
  AttrValue defaultValue;
  std::string description;
  /// The accepted range of an Int key (inclusive); values outside are errors naming it.
  int64_t minInt = std::numeric_limits<int64_t>::min();
  int64_t maxInt = std::numeric_limits<int64_t>::max();
};

/// All registered config keys. Keys are registered once, by the passes that
/// read them, before any context uses them.
class ConfigRegistry {
 public:
  /// The process-wide registry.
  static ConfigRegistry& global();
  /// Registers a key (re-registering the same key with the same kind is a no-op).
  void add(ConfigKeyInfo info);
  /// The key's description, or null.
  const ConfigKeyInfo* find(std::string_view key) const;
  /// All keys, sorted by name.
  std::vector<const ConfigKeyInfo*> all() const;
  /// Checks a value for `key`: unknown key or wrong kind throws DiagnosticError
  /// naming the key (and the kind expected). Returns the value coerced (int→float, int→bool).
  AttrValue validate(std::string_view key, const AttrValue& value) const;

 private:
  // A node-based map keeps the pointers handed out by find() stable while keys are added.
  std::map<std::string, ConfigKeyInfo, std::less<>> keys_;
  mutable std::mutex mutex_;
};

/// Hooks around every pass run. Default implementations do nothing.
/// Instruments must not change the module; they observe.
///
/// Order of hooks for one runPass call (see runPass):
///   enterPass (every instrument, in order)
///   [onPassSkipped — when the context's opt_level/disabled list or a shouldRun says no]
///   shouldRun, beforePass (in order) — pass body — afterPass or afterFailure (in reverse order)
///   exitPass (every instrument, in reverse order)
/// Notifications (onConfigRead, onFunctionSkipped, onDiagnostic) can arrive at any
/// point between enterPass and exitPass, including from other instruments' hooks.
class PassInstrument {
 public:
  virtual ~PassInstrument() = default;
  /// Name for listings ("print", "timing", "verify", "trace").
  virtual std::string name() const = 0;
  /// First hook of every pass run, before any other instrument's hook: recorders open
  /// their entry here so that whatever other instruments report lands inside it.
  virtual void enterPass(const Pass& /*pass*/, const IRModule& /*mod*/, PassContext& /*ctx*/) {}
  /// Last hook of every pass run (run, skipped or failed), after every other hook.
  virtual void exitPass(const Pass& /*pass*/, PassContext& /*ctx*/) {}
  /// The pass was not run; `reason` says why ("opt_level 3 > 2", "disabled", ...).
  virtual void onPassSkipped(const Pass& /*pass*/, const IRModule& /*mod*/, PassContext& /*ctx*/,
                             const std::string& /*reason*/) {}
  /// Returning false skips the pass (recorded by the caller as not run).
  virtual bool shouldRun(const Pass& /*pass*/, const IRModule& /*mod*/, PassContext& /*ctx*/) { return true; }
  /// Before the pass body.
  virtual void beforePass(const Pass& /*pass*/, const IRModule& /*mod*/, PassContext& /*ctx*/) {}
  /// After a successful run; `before` and `after` share unchanged structure.
  virtual void afterPass(const Pass& /*pass*/, const IRModule& /*before*/, const IRModule& /*after*/, PassContext& /*ctx*/) {}
  /// After the pass threw; the module stays `before`.
  virtual void afterFailure(const Pass& /*pass*/, const IRModule& /*before*/, const std::vector<Diagnostic>& /*errors*/,
                            PassContext& /*ctx*/) {}
  /// A pass read a configuration input.
  virtual void onConfigRead(const ConfigRead& /*read*/) {}
  /// A function-level pass skipped a function.
  virtual void onFunctionSkipped(const FunctionSkip& /*skip*/) {}
  /// A pass (or an instrument such as the verifier) reported a diagnostic.
  virtual void onDiagnostic(const Diagnostic& /*diagnostic*/, PassContext& /*ctx*/) {}
  /// A pass emitted a remark (only while the context's remarks are enabled).
  virtual void onRemark(const Remark& /*remark*/) {}
  /// Whether this instrument keeps remarks (the trace does). The context hands
  /// the first such instrument the remark itself through takeRemark, so no
  /// copy of its node list and message is made per remark; every other
  /// instrument sees it through onRemark.
  virtual bool keepsRemarks() const { return false; }
  /// Takes a remark (only called when keepsRemarks()).
  virtual void takeRemark(Remark&& remark) { onRemark(remark); }
};
using PassInstrumentPtr = std::shared_ptr<PassInstrument>;

/// The configuration a pipeline runs under. Contexts form a tree: a pass that
/// runs a nested pipeline opens a child with `makeChild` — explicit, never a
/// hidden global. A child shares its parent's instruments (so nested passes
/// appear in the trace) but starts from a clean configuration unless asked.
class PassContext : public std::enable_shared_from_this<PassContext> {
 public:
  /// A root context.
  static std::shared_ptr<PassContext> create(std::string name = "root");
  /// A child context named `name` (e.g. "FoldConstant.eval"): same instruments;
  /// config, required/disabled passes and target start empty; opt_level 3.
  /// With `inheritSettings`, the child starts from a copy of this context's
  /// opt_level, config, required/disabled passes and target instead.
  std::shared_ptr<PassContext> makeChild(std::string name, bool inheritSettings = false);

  // ---- Settings ----
  int optLevel = 2;
  std::set<std::string> requiredPasses;
  std::set<std::string> disabledPasses;
  /// Sets a config key, validated against the registry (DiagnosticError names the key).
  void setConfig(const std::string& key, const AttrValue& value);
  /// Explicitly set config (without defaults).
  const AttrDict& explicitConfig() const { return config_; }
  /// Target string in TVM's style ("llvm", "hexagon -mcpu=hexagonv68 ...", or "" for none).
  std::string target;
  /// Instruments, in order (shared with children).
  std::vector<PassInstrumentPtr>& instruments() { return *instruments_; }
  /// Parent context, or null at the root.
  std::shared_ptr<PassContext> parent() const { return parent_.lock(); }
  /// Unique id within the process and a readable name.
  int id() const { return id_; }
  const std::string& name() const { return name_; }
  /// Nesting depth (root 0).
  int depth() const { return depth_; }

  // ---- Recorded reads (call from passes only) ----
  /// Value of a registered config key: explicit setting, else the registered default.
  /// Recorded with source PassContext or Default.
  AttrValue config(const std::string& key, const std::string& pass);
  /// Value of a config key only when set explicitly (recorded either way).
  std::optional<AttrValue> configIfSet(const std::string& key, const std::string& pass);
  /// A module attribute, optionally a field of a dict attribute
  /// (`moduleAttr(mod, "executor", "link-params")`). Recorded with source ModuleAttr
  /// (or Default with None when absent).
  std::optional<AttrValue> moduleAttr(const IRModule& mod, const std::string& attr, const std::string& field,
                                      const std::string& pass);
  /// A `-key=value` or `-key` option of the target string (`-mcpu`, `-link-params`;
  /// the leading '-' is optional; "kind" is the target kind). Values are typed as
  /// parseTarget does (core/pass/target.h). Recorded under key "target.<name>" with
  /// source Target, or Default with None when absent (or no target is set). A
  /// malformed target string is a DiagnosticError.
  std::optional<AttrValue> targetAttr(const std::string& key, const std::string& pass);
  /// Records a pass option read (source PassOption).
  void recordOption(const std::string& key, const AttrValue& value, const std::string& pass);
  /// Records a decision taken from the IR (source Annotation): `key` names what
  /// was decided ("device.@main.%a"), `value` the outcome and its reason.
  void recordDecision(const std::string& key, const AttrValue& value, const std::string& pass);
  /// Every read recorded in this context (not its children), in order.
  const std::vector<ConfigRead>& reads() const { return reads_; }

  // ---- Notifications to instruments ----
  /// Tells every instrument that a function-level pass skipped a function.
  void notifySkip(const FunctionSkip& skip);
  /// Tells every instrument about a diagnostic (a warning of a pass, a verifier finding).
  void notifyDiagnostic(const Diagnostic& d);

  // ---- Remarks (core/pass/remark.h) ----
  /// Whether passes should explain themselves. Off (the default) costs a pass
  /// one test of this flag per place it would remark; children inherit it.
  bool remarksEnabled() const { return remarks_; }
  void setRemarksEnabled(bool on) { remarks_ = on; }
  /// Records a remark: stamps this context on it and hands it to every
  /// instrument (the trace keeps it on the innermost running event). Passes
  /// build remarks only under `if (ctx.remarksEnabled())`.
  void remark(Remark r);

  /// The body timing of the pass whose afterPass/afterFailure hooks are running
  /// in this context (set by runPass just before those hooks).
  const PassTiming& lastPassTiming() const { return lastTiming_; }

 private:
  friend IRModule runPass(const Pass& pass, const IRModule& mod, PassContext& ctx);

  PassContext() = default;
  void record(ConfigRead read);

  AttrDict config_;
  std::vector<ConfigRead> reads_;
  PassTiming lastTiming_;
  bool remarks_ = false;
  std::shared_ptr<std::vector<PassInstrumentPtr>> instruments_ = std::make_shared<std::vector<PassInstrumentPtr>>();
  std::weak_ptr<PassContext> parent_;
  int id_ = 0;
  int depth_ = 0;
  std::string name_;
};
using PassContextPtr = std::shared_ptr<PassContext>;

/// A pass failed. The module it was given is unchanged; diagnostics say why.
class PassFailure : public DiagnosticError {
 public:
  PassFailure(std::string pass, std::vector<Diagnostic> diagnostics)
      : DiagnosticError(std::move(diagnostics)), pass_(std::move(pass)) {}
  const std::string& pass() const { return pass_; }

 private:
  std::string pass_;
};

/// A transformation of a module.
class Pass {
 public:
  virtual ~Pass() = default;
  /// Static description.
  virtual const PassInfo& info() const = 0;
  /// The options this instance was built with (from the pipeline text).
  const AttrDict& options() const { return options_; }
  /// Transforms `mod`. Must not modify its input (nodes are immutable anyway)
  /// and should return `mod` itself when nothing changed. May throw
  /// DiagnosticError; the pass manager turns that into a recorded failure.
  virtual IRModule run(const IRModule& mod, PassContext& ctx) const = 0;
  /// For pipelines: the sub-passes (empty for leaf passes).
  virtual std::vector<PassPtr> subPasses() const { return {}; }
  /// The opt level the pass needs on `mod`: info().optLevel, unless TVM
  /// registers the pass's forms at different levels (ConvertLayout: 3 on a
  /// Relay module, 0 in its Relax form).
  virtual int optLevelOn(const IRModule& /*mod*/) const { return info().optLevel; }

 protected:
  AttrDict options_;
};

/// A pass over the whole module given as a function (TVM's CreateModulePass).
/// Handy for passes whose body is a single call and for tests.
class ModulePass : public Pass {
 public:
  /// The transformation; same contract as Pass::run.
  using Body = std::function<IRModule(const IRModule&, PassContext&)>;
  /// A pass described by `info` running `body`, built with `options` (for pipelineText).
  ModulePass(PassInfo info, Body body, AttrDict options = {});
  const PassInfo& info() const override { return info_; }
  IRModule run(const IRModule& mod, PassContext& ctx) const override { return body_(mod, ctx); }

 private:
  PassInfo info_;
  Body body_;
};

/// A pass over graph-level functions. Functions carrying `Compiler`, a non-zero
/// `SkipOptimization` or a non-zero `Extern` are skipped (and the skip recorded
/// with its reason), as TVM's FunctionPass does.
class FunctionPass : public Pass {
 public:
  IRModule run(const IRModule& mod, PassContext& ctx) const final;
  /// Transforms one function; return `fn` itself when unchanged.
  virtual Function runOnFunction(const Function& fn, const std::string& name, const IRModule& mod, PassContext& ctx) const = 0;
  /// Why `fn` is skipped, or nullopt to run on it. Default: TVM's rule.
  virtual std::optional<std::string> skipReason(const FunctionNode& fn) const;

 protected:
  /// Called once after every function was transformed, with the updated module
  /// (the input module itself when no function changed). Module-level clean-up
  /// such as removing unused globals goes here. Default: returns `mod`.
  virtual IRModule finishModule(const IRModule& mod, PassContext& /*ctx*/) const { return mod; }
};

/// TVM's rule for leaving a function to someone else: a `Compiler` attribute
/// (external codegen), a non-zero `SkipOptimization` or a non-zero `Extern`.
/// Returns the reason ("Compiler=\"ccompiler\": external codegen function"), or nullopt.
std::optional<std::string> defaultFunctionSkipReason(const FunctionNode& fn);

/// Why `info` does not run under `ctx` (TVM's PassEnabled: a required pass always
/// runs; otherwise a disabled pass never does; otherwise it runs when its opt_level
/// is at most the context's), or nullopt when it runs.
std::optional<std::string> passDisabledReason(const PassInfo& info, const PassContext& ctx);
/// The same for `pass` about to run on `mod`, at the level Pass::optLevelOn gives.
std::optional<std::string> passDisabledReason(const Pass& pass, const IRModule& mod, const PassContext& ctx);

/// Runs `pass` on `mod` under `ctx` with every instrument hook: opt-level and
/// disabled/required checks, shouldRun, before, after or afterFailure. Returns the
/// new module, or `mod` when the pass did not run. A failure is rethrown as
/// PassFailure after the instruments saw it; the caller's module is untouched.
/// A PassFailure coming out of a nested pipeline is rethrown as it is, so it
/// names the innermost failing pass. When the pass declares accepted phases and
/// the module is in another one, an error diagnostic (rule "phase.out-of-phase")
/// naming the pass, the module's phase and the phases it accepts is reported to
/// the instruments and the pass still runs (callers such as the workbench refuse
/// out-of-phase passes beforehand; see passPhaseRefusal).
IRModule runPass(const Pass& pass, const IRModule& mod, PassContext& ctx);

/// Why `info` must not run on `mod` because of its phase ("pass 'FuseOps'
/// accepts phase 0 but the module is in phase 1"), or nullopt when it may.
std::optional<std::string> passPhaseRefusal(const PassInfo& info, const IRModule& mod);

/// A pipeline: runs its passes in order, each through runPass.
class Sequential : public Pass {
 public:
  /// A named pipeline of `passes`.
  Sequential(std::string name, std::vector<PassPtr> passes);
  const PassInfo& info() const override { return info_; }
  IRModule run(const IRModule& mod, PassContext& ctx) const override;
  std::vector<PassPtr> subPasses() const override { return passes_; }

 private:
  PassInfo info_;
  std::vector<PassPtr> passes_;
};

}  // namespace passlab
