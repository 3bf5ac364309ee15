#include "core/pass/pass.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>

#include "core/pass/target.h"
#include "core/pass/util.h"

namespace passlab {

using pass_detail::closestName;
using pass_detail::coerceToKind;
using pass_detail::kindName;

std::string_view configSourceName(ConfigSource s) {
  switch (s) {
    case ConfigSource::PassContext: return "PassContext";
    case ConfigSource::PassOption: return "pass option";
    case ConfigSource::ModuleAttr: return "module attribute";
    case ConfigSource::Target: return "target";
    case ConfigSource::Default: return "default";
    case ConfigSource::Annotation: return "IR annotation";
  }
  return "?";
}

static Diagnostic configDiagnostic(std::string message) {
  Diagnostic d;
  d.message = std::move(message);
  d.rule = "config";
  return d;
}

// ---- ConfigRegistry ----------------------------------------------------------

ConfigRegistry& ConfigRegistry::global() {
  static ConfigRegistry registry;
  return registry;
}

void ConfigRegistry::add(ConfigKeyInfo info) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = keys_.find(info.key);
  if (it != keys_.end()) {
    // Several registries (one per test, one per face) register the same passes;
    // only a conflicting kind is a programming error.
    if (it->second.kind != info.kind)
      throw std::invalid_argument("config key '" + info.key + "' registered twice with different kinds (" +
                                  std::string(kindName(it->second.kind)) + " and " + std::string(kindName(info.kind)) + ")");
    return;
  }
  std::string key = info.key;
  keys_.emplace(std::move(key), std::move(info));
}

const ConfigKeyInfo* ConfigRegistry::find(std::string_view key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = keys_.find(key);
  return it == keys_.end() ? nullptr : &it->second;
}

std::vector<const ConfigKeyInfo*> ConfigRegistry::all() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<const ConfigKeyInfo*> out;
  for (const auto& [key, info] : keys_) out.push_back(&info);
  return out;
}

AttrValue ConfigRegistry::validate(std::string_view key, const AttrValue& value) const {
  const ConfigKeyInfo* info = find(key);
  if (!info) {
    std::vector<std::string> names;
    for (const ConfigKeyInfo* k : all()) names.push_back(k->key);
    std::string message = "unknown config key '" + std::string(key) + "'";
    if (auto suggestion = closestName(key, names)) message += "; did you mean '" + *suggestion + "'?";
    throw DiagnosticError(configDiagnostic(std::move(message)));
  }
  std::optional<AttrValue> coerced = coerceToKind(value, info->kind);
  if (!coerced)
    throw DiagnosticError(configDiagnostic("config key '" + info->key + "' expects " + std::string(kindName(info->kind)) + ", got " +
                                           std::string(kindName(value.kind())) + " " + value.toString()));
  if (coerced->kind() == AttrValue::Kind::Int && (coerced->asInt() < info->minInt || coerced->asInt() > info->maxInt))
    throw DiagnosticError(configDiagnostic("config key '" + info->key + "' must be from " + std::to_string(info->minInt) + " to " +
                                           std::to_string(info->maxInt) + ", got " + std::to_string(coerced->asInt())));
  return *coerced;
}

// ---- PassContext -------------------------------------------------------------

static int nextContextId() {
  static std::atomic<int> counter{0};
  return ++counter;
}

std::shared_ptr<PassContext> PassContext::create(std::string name) {
  std::shared_ptr<PassContext> ctx(new PassContext());
  ctx->id_ = nextContextId();
  ctx->name_ = std::move(name);
  return ctx;
}

std::shared_ptr<PassContext> PassContext::makeChild(std::string name, bool inheritSettings) {
  std::shared_ptr<PassContext> child(new PassContext());
  child->id_ = nextContextId();
  child->name_ = std::move(name);
  child->depth_ = depth_ + 1;
  child->parent_ = weak_from_this();
  child->instruments_ = instruments_;  // shared: nested passes show up in the same trace
  child->remarks_ = remarks_;          // nested passes explain themselves when their caller does
  if (inheritSettings) {
    child->optLevel = optLevel;
    child->config_ = config_;
    child->requiredPasses = requiredPasses;
    child->disabledPasses = disabledPasses;
    child->target = target;
  } else {
    child->optLevel = 3;
  }
  return child;
}

void PassContext::setConfig(const std::string& key, const AttrValue& value) {
  config_.set(key, ConfigRegistry::global().validate(key, value));
}

void PassContext::record(ConfigRead read) {
  read.contextId = id_;
  read.contextName = name_;
  reads_.push_back(read);
  for (const PassInstrumentPtr& instrument : *instruments_) instrument->onConfigRead(read);
}

static const ConfigKeyInfo& registeredKey(const std::string& key, const std::string& pass) {
  const ConfigKeyInfo* info = ConfigRegistry::global().find(key);
  if (!info)
    throw DiagnosticError(configDiagnostic("pass '" + pass + "' read config key '" + key +
                                           "', which is not registered (register it with the pass)"));
  return *info;
}

AttrValue PassContext::config(const std::string& key, const std::string& pass) {
  const ConfigKeyInfo& info = registeredKey(key, pass);
  if (const AttrValue* v = config_.find(key)) {
    record({key, *v, ConfigSource::PassContext, 0, "", pass});
    return *v;
  }
  record({key, info.defaultValue, ConfigSource::Default, 0, "", pass});
  return info.defaultValue;
}

std::optional<AttrValue> PassContext::configIfSet(const std::string& key, const std::string& pass) {
  registeredKey(key, pass);
  if (const AttrValue* v = config_.find(key)) {
    record({key, *v, ConfigSource::PassContext, 0, "", pass});
    return *v;
  }
  record({key, AttrValue::none(), ConfigSource::Default, 0, "", pass});
  return std::nullopt;
}

std::optional<AttrValue> PassContext::moduleAttr(const IRModule& mod, const std::string& attr, const std::string& field,
                                                 const std::string& pass) {
  std::string key = field.empty() ? attr : attr + "." + field;
  const AttrValue* v = mod ? mod->attrs.find(attr) : nullptr;
  if (v && !field.empty()) v = v->kind() == AttrValue::Kind::Dict ? v->asDict().find(field) : nullptr;
  if (!v) {
    record({key, AttrValue::none(), ConfigSource::Default, 0, "", pass});
    return std::nullopt;
  }
  record({key, *v, ConfigSource::ModuleAttr, 0, "", pass});
  return *v;
}

std::optional<AttrValue> PassContext::targetAttr(const std::string& key, const std::string& pass) {
  std::string name = key;
  while (!name.empty() && name.front() == '-') name.erase(name.begin());
  std::string recordedKey = "target." + name;
  std::optional<AttrValue> value;
  if (!target.empty()) value = targetOption(parseTarget(target), name);
  if (!value) {
    record({recordedKey, AttrValue::none(), ConfigSource::Default, 0, "", pass});
    return std::nullopt;
  }
  record({recordedKey, *value, ConfigSource::Target, 0, "", pass});
  return value;
}

void PassContext::recordOption(const std::string& key, const AttrValue& value, const std::string& pass) {
  record({key, value, ConfigSource::PassOption, 0, "", pass});
}

void PassContext::recordDecision(const std::string& key, const AttrValue& value, const std::string& pass) {
  record({key, value, ConfigSource::Annotation, 0, "", pass});
}

void PassContext::remark(Remark r) {
  r.contextId = id_;
  r.contextName = name_;
  PassInstrument* keeper = nullptr;
  for (const PassInstrumentPtr& instrument : *instruments_) {
    if (!keeper && instrument->keepsRemarks()) keeper = instrument.get();
    else instrument->onRemark(r);
  }
  if (keeper) keeper->takeRemark(std::move(r));
}

void PassContext::notifySkip(const FunctionSkip& skip) {
  for (const PassInstrumentPtr& instrument : *instruments_) instrument->onFunctionSkipped(skip);
}

void PassContext::notifyDiagnostic(const Diagnostic& d) {
  for (const PassInstrumentPtr& instrument : *instruments_) instrument->onDiagnostic(d, *this);
}

// ---- Running passes ----------------------------------------------------------

namespace {

std::optional<std::string> disabledReason(const PassInfo& info, int optLevel, const PassContext& ctx) {
  if (ctx.requiredPasses.count(info.name)) return std::nullopt;
  if (ctx.disabledPasses.count(info.name)) return "disabled in context '" + ctx.name() + "'";
  if (optLevel > ctx.optLevel)
    return "opt_level " + std::to_string(optLevel) + " > context opt_level " + std::to_string(ctx.optLevel);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> passDisabledReason(const PassInfo& info, const PassContext& ctx) {
  return disabledReason(info, info.optLevel, ctx);
}

std::optional<std::string> passDisabledReason(const Pass& pass, const IRModule& mod, const PassContext& ctx) {
  return disabledReason(pass.info(), pass.optLevelOn(mod), ctx);
}

namespace {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Calls exitPass on every instrument in reverse order when the run ends, however it ends.
class ExitHooks {
 public:
  ExitHooks(const std::vector<PassInstrumentPtr>& instruments, const Pass& pass, PassContext& ctx)
      : instruments_(instruments), pass_(pass), ctx_(ctx) {}
  ~ExitHooks() {
    for (auto it = instruments_.rbegin(); it != instruments_.rend(); ++it) {
      try {
        (*it)->exitPass(pass_, ctx_);
      } catch (...) {
        // An observer failing while the stack unwinds must not terminate the process.
      }
    }
  }
  ExitHooks(const ExitHooks&) = delete;
  ExitHooks& operator=(const ExitHooks&) = delete;

 private:
  const std::vector<PassInstrumentPtr>& instruments_;
  const Pass& pass_;
  PassContext& ctx_;
};

void checkPhase(const PassInfo& info, const IRModule& mod, PassContext& ctx) {
  std::optional<std::string> refusal = passPhaseRefusal(info, mod);
  if (!refusal) return;
  Diagnostic d;
  // An error, yet the pass still runs: refusing is the caller's decision (the
  // workbench refuses unless forced), and the trace must show what it did.
  d.severity = Severity::Error;
  d.rule = "phase.out-of-phase";
  d.message = *refusal;
  ctx.notifyDiagnostic(d);
}

void reportFailure(const std::vector<PassInstrumentPtr>& instruments, const Pass& pass, const IRModule& mod,
                   const std::vector<Diagnostic>& errors, PassContext& ctx) {
  for (auto it = instruments.rbegin(); it != instruments.rend(); ++it) (*it)->afterFailure(pass, mod, errors, ctx);
}

}  // namespace

std::string_view phaseName(Phase phase) {
  for (const PhaseName& row : kPhaseNames)
    if (row.phase == phase) return row.name;
  return "?";
}

std::optional<std::string> passPhaseRefusal(const PassInfo& info, const IRModule& mod) {
  if (info.acceptedPhases.empty() || !mod) return std::nullopt;
  int64_t phase = mod->phase();
  for (Phase p : info.acceptedPhases)
    if (phaseNumber(p) == phase) return std::nullopt;
  std::string accepted;
  for (Phase p : info.acceptedPhases) accepted += (accepted.empty() ? "" : ", ") + std::to_string(phaseNumber(p));
  return "pass '" + info.name + "' accepts phase " + accepted + " but the module is in phase " + std::to_string(phase);
}

IRModule runPass(const Pass& pass, const IRModule& mod, PassContext& ctx) {
  if (!mod) throw std::invalid_argument("runPass: null module given to pass '" + pass.info().name + "'");
  const PassInfo& info = pass.info();
  // A copy: an instrument added while this pass runs sees only later passes, so
  // every instrument gets matching enter/exit hooks.
  const std::vector<PassInstrumentPtr> instruments = ctx.instruments();
  for (const PassInstrumentPtr& instrument : instruments) instrument->enterPass(pass, mod, ctx);
  ExitHooks exitHooks(instruments, pass, ctx);

  if (std::optional<std::string> reason = passDisabledReason(pass, mod, ctx)) {
    for (const PassInstrumentPtr& instrument : instruments) instrument->onPassSkipped(pass, mod, ctx, *reason);
    return mod;
  }
  for (const PassInstrumentPtr& instrument : instruments) {
    if (!instrument->shouldRun(pass, mod, ctx)) {
      std::string reason = "instrument '" + instrument->name() + "' chose not to run it";
      for (const PassInstrumentPtr& other : instruments) other->onPassSkipped(pass, mod, ctx, reason);
      return mod;
    }
  }
  checkPhase(info, mod, ctx);
  for (const PassInstrumentPtr& instrument : instruments) instrument->beforePass(pass, mod, ctx);

  IRModule result;
  PassTiming timing;
  // Stamps the end of the body; nested runPass calls in the same context
  // overwrite lastTiming_, so it is set again right before this pass's hooks.
  auto bodyEnded = [&] {
    timing.endNs = nowNs();
    ctx.lastTiming_ = timing;
  };
  try {
    timing.startNs = nowNs();
    result = pass.run(mod, ctx);
    bodyEnded();
    if (!result) throw std::logic_error("pass '" + info.name + "' returned no module");
  } catch (const PassFailure& nested) {
    if (!timing.endNs) bodyEnded();
    reportFailure(instruments, pass, mod, nested.diagnostics(), ctx);
    throw;
  } catch (const DiagnosticError& error) {
    if (!timing.endNs) bodyEnded();
    reportFailure(instruments, pass, mod, error.diagnostics(), ctx);
    throw PassFailure(info.name, error.diagnostics());
  } catch (const std::exception& error) {
    if (!timing.endNs) bodyEnded();
    Diagnostic d;
    d.message = "pass '" + info.name + "' failed: " + error.what();
    d.rule = "pass.exception";
    std::vector<Diagnostic> errors{d};
    reportFailure(instruments, pass, mod, errors, ctx);
    throw PassFailure(info.name, errors);
  }
  for (auto it = instruments.rbegin(); it != instruments.rend(); ++it) (*it)->afterPass(pass, mod, result, ctx);
  return result;
}

// ---- ModulePass --------------------------------------------------------------

ModulePass::ModulePass(PassInfo info, Body body, AttrDict options) : info_(std::move(info)), body_(std::move(body)) {
  if (!body_) throw std::invalid_argument("ModulePass '" + info_.name + "' has no body");
  options_ = std::move(options);
}

// ---- FunctionPass ------------------------------------------------------------

std::optional<std::string> defaultFunctionSkipReason(const FunctionNode& fn) {
  if (const AttrValue* compiler = fn.attrs.find(fn_attr::kCompiler))
    return std::string(fn_attr::kCompiler) + "=" + compiler->toString() + ": external codegen function";
  if (fn.attrs.getInt(fn_attr::kSkipOptimization, 0) != 0)
    return std::string(fn_attr::kSkipOptimization) + "=" + fn.attrs.find(fn_attr::kSkipOptimization)->toString() +
           ": optimization disabled for this function";
  if (fn.attrs.getInt(fn_attr::kExtern, 0) != 0)
    return std::string(fn_attr::kExtern) + "=" + fn.attrs.find(fn_attr::kExtern)->toString() + ": extern function";
  return std::nullopt;
}

std::optional<std::string> FunctionPass::skipReason(const FunctionNode& fn) const { return defaultFunctionSkipReason(fn); }

IRModule FunctionPass::run(const IRModule& mod, PassContext& ctx) const {
  const std::string& passName = info().name;
  // Only the entries that changed are collected; the module is rebuilt only if there are any.
  std::vector<std::pair<std::string, Expr>> updates;
  for (const auto& [name, fn] : mod->functions) {
    const FunctionNode* node = as<FunctionNode>(fn);
    if (!node) continue;  // PrimFuncs are not graph-level functions
    if (std::optional<std::string> reason = skipReason(*node)) {
      ctx.notifySkip({passName, name, *reason});
      continue;
    }
    Function function = std::static_pointer_cast<const FunctionNode>(fn);
    Function result = runOnFunction(function, name, mod, ctx);
    if (!result) throw std::logic_error("pass '" + passName + "' returned no function for @" + name);
    if (result != function) updates.emplace_back(name, std::move(result));
  }
  IRModule out = mod;
  if (!updates.empty()) {
    std::map<std::string, Expr> functions = mod->functions;
    for (auto& [name, fn] : updates) functions[name] = std::move(fn);
    out = makeModule(std::move(functions), mod->attrs);
  }
  return finishModule(out, ctx);
}

// ---- Sequential --------------------------------------------------------------

Sequential::Sequential(std::string name, std::vector<PassPtr> passes) : passes_(std::move(passes)) {
  info_.name = std::move(name);
  info_.optLevel = 0;
  info_.description = "runs its passes in order";
}

IRModule Sequential::run(const IRModule& mod, PassContext& ctx) const {
  IRModule current = mod;
  for (const PassPtr& pass : passes_) current = runPass(*pass, current, ctx);
  return current;
}

}  // namespace passlab
