// Workbench: loading, pipeline, configuration, navigation and breakpoints.
// Queries live in workbench_queries.cpp, exports and reproducers in workbench_export.cpp.
#include "core/ir/diagnostic_fold.h"
#include "core/workbench/workbench.h"

#include "core/workbench/reproducer.h"

#include <algorithm>
#include <cstdlib>

#include "core/analysis/type_infer.h"
#include "core/pass/instruments.h"
#include "core/text/load_text.h"
#include "core/pass/target.h"
#include "core/pass/util.h"
#include "core/text/parser.h"
#include "core/workbench/value_text.h"

namespace passlab {

Workbench::Workbench(std::shared_ptr<const PassRegistry> registry) : registry_(std::move(registry)) {
  if (!registry_) throw WorkbenchError("the workbench needs a pass registry");
  ctx_ = PassContext::create("root");
  ctx_->setRemarksEnabled(remarks_);
}

Workbench::~Workbench() = default;

// ---- Loading ------------------------------------------------------------------

void Workbench::load(const std::string& path, LoadOptions options) {
  std::vector<Diagnostic> notes;
  LoadedText loaded = loadModuleTextFile(path, &notes);
  loadModule(std::move(loaded.module), path, options, loaded.origin);
  loadNotes_ = std::move(notes);
}

void Workbench::loadText(std::string text, std::string name, LoadOptions options) {
  std::vector<Diagnostic> notes;
  LoadedText loaded = loadModuleText(std::move(text), name, &notes);
  loadModule(std::move(loaded.module), std::move(name), options, loaded.origin);
  loadNotes_ = std::move(notes);
}

void Workbench::loadModule(IRModule mod, std::string name, LoadOptions options, TextOrigin origin) {
  if (!mod) throw WorkbenchError("cannot load an empty module");
  // Type-check before touching any state, so a bad file leaves the session as it was.
  if (options.typeCheck) mod = inferTypes(mod);
  initial_ = std::move(mod);
  constantNumbers_ = std::make_shared<ConstantNumbering>();  // a new input: its constants number from 0
  sourceName_ = std::move(name);
  loadOptions_ = options;
  loadNotes_.clear();
  origin_ = origin;
  resetTrace(initial_);
  numberLoadedConstants();
}

void Workbench::loadReproducer(const Reproducer& repro) {
  // Validate everything on a scratch context first, so a bad reproducer changes nothing.
  auto ctx = PassContext::create("root");
  repro.settings.applyTo(*ctx);
  PassPtr pipeline = parsePipeline(repro.pipeline, *registry_, "<reproducer pipeline>");
  const std::string name = !repro.moduleName.empty() ? repro.moduleName : !repro.source.empty() ? repro.source : "<reproducer>";
  LoadedText loaded = loadModuleText(repro.moduleText, name);
  IRModule mod = std::move(loaded.module);
  LoadOptions options{repro.typeCheck};
  if (options.typeCheck) mod = inferTypes(mod);
  ctx->setRemarksEnabled(remarks_);
  ctx_ = std::move(ctx);
  verifyEach_ = repro.settings.verifyEach;
  pipeline_ = pipeline->subPasses();
  initial_ = std::move(mod);
  constantNumbers_ = std::make_shared<ConstantNumbering>();  // a new input: its constants number from 0
  sourceName_ = name;
  loadOptions_ = options;
  origin_ = loaded.origin;
  resetTrace(initial_);
  numberLoadedConstants();
}

void Workbench::setPrintSyntax(std::optional<TextSyntax> syntax) {
  printSyntax_ = syntax;
  printCache_.clear();
}

PrintOptions Workbench::printOptions() const {
  PrintOptions options;
  options.syntax = printSyntax();
  options.spelling = origin_.spelling;
  options.constants = constantStyle_;
  options.numbering = constantNumbers_.get();
  return options;
}

PrintOptions Workbench::fileOptions() const {
  PrintOptions options = printOptions();
  options.numbering = nullptr;
  // Relay text gets its #[metadata] section, TVMScript TVM's metadata
  // statement (show_meta=True): either way the file keeps the weights.
  options.metadataSection = true;
  return options;
}

void Workbench::requireLoaded() const {
  if (!trace_) throw WorkbenchError("no module loaded");
}

void Workbench::installInstruments() {
  auto& instruments = ctx_->instruments();
  instruments.clear();
  if (!trace_) return;
  instruments = faceInstruments_;
  instruments.push_back(std::make_shared<TraceInstrument>(trace_));
  // After the recorder, which opens the event these annotate (batch mode installs the same).
  for (PassInstrumentPtr& check : defaultCheckInstruments()) instruments.push_back(std::move(check));
  numericInstrument_.reset();
  if (numericCheck_) {
    numericInstrument_ = std::make_shared<NumericCheckInstrument>(trace_, *numericCheck_);
    instruments.push_back(numericInstrument_);
  }
  // Well-formedness only: type errors already have their own reporting path.
  if (verifyEach_) instruments.push_back(std::make_shared<VerifyInstrument>(true, false));
}

void Workbench::numberLoadedConstants() {
  // The loaded module's constants take their numbers in print order, so they
  // are 0, 1, ... down the text whatever the user looks at first; the print is
  // the one `show` would make (it stays in the print cache).
  if (constantStyle_ == ConstantStyle::Ref) moduleText(0, Side::After);
}

void Workbench::resetTrace(IRModule initial) {
  trace_ = std::make_shared<Trace>(initial);
  builds_ = std::make_shared<BuildLog>();
  installInstruments();
  current_ = std::move(initial);
  nextPass_ = 0;
  passEvent_.clear();
  halted_ = false;
  cursor_ = 0;
  ++generation_;
  printCache_.clear();
  changes_.clear();
  // A new start: branches recorded another input or pipeline.
  branches_.clear();
  activeBranch_ = 0;
  editRecords_.clear();
}

// ---- Pipeline -----------------------------------------------------------------

void Workbench::setPipeline(std::string_view spec) {
  PassPtr pipeline = parsePipeline(spec, *registry_);
  pipeline_ = pipeline->subPasses();
  if (trace_) resetTrace(initial_);
}

std::string Workbench::pipelineSpec() const {
  std::string out;
  for (size_t i = 0; i < pipeline_.size(); ++i) out += (i ? "," : "") + pipelineText(*pipeline_[i]);
  return out;
}

int Workbench::eventOfPass(size_t index) const { return index < passEvent_.size() ? passEvent_[index] : -1; }

void Workbench::restart() {
  requireLoaded();
  resetTrace(initial_);
}

// ---- Configuration ------------------------------------------------------------

int Workbench::lastKeptEvent() const {
  refreshTimeline();
  // The last top-level event that completed at or before the cursor survives; a
  // failed one does not, so that the next move retries it under the new settings.
  for (int pos = positionOf(cursor_); pos >= 0; --pos) {
    const TraceEvent& ev = trace_->event(timeline_[static_cast<size_t>(pos)]);
    if (ev.parent != -1 || builds_->isCodegen(ev.id)) continue;
    if (ev.status == EventStatus::Failed) continue;
    return ev.id;
  }
  return 0;
}

size_t Workbench::passesBefore(int keep) const {
  // Edit events take no pipeline slot: count the passes recorded up to `keep`.
  size_t passes = 0;
  for (size_t i = 0; i < passEvent_.size(); ++i)
    if (passEvent_[i] >= 0 && passEvent_[i] <= keep) passes = i + 1;
  return passes;
}

int Workbench::discardFuture() {
  if (!trace_) return 0;
  const int keep = lastKeptEvent();
  // Event ids are assigned in pre-order, so everything after `keep`'s subtree is later.
  int lastKept = keep;
  for (int id = keep; !trace_->event(id).children.empty();) id = lastKept = trace_->event(id).children.back();
  size_t firstRemoved = static_cast<size_t>(lastKept) + 1;
  int discarded = static_cast<int>(trace_->events().size() - firstRemoved);
  if (discarded > 0) {
    trace_->truncate(static_cast<int>(firstRemoved));
    builds_->truncate(static_cast<int>(firstRemoved));
    changes_.clear();  // its entries hold discarded snapshots alive
  }
  size_t keepPasses = passesBefore(keep);
  passEvent_.resize(keepPasses);
  std::erase_if(editRecords_, [&](const EditRecord& e) { return e.event > lastKept; });
  nextPass_ = keepPasses;
  halted_ = false;
  current_ = trace_->event(keep).after;
  cursor_ = keep;
  ++generation_;
  return std::max(discarded, 0);
}

int Workbench::setConfig(const std::string& key, const AttrValue& value) {
  ctx_->setConfig(key, value);
  return discardFuture();
}

int Workbench::setConfigText(const std::string& key, const std::string& text) {
  const ConfigKeyInfo* info = ConfigRegistry::global().find(key);
  // An unknown key: let the registry produce its message (it names the key and suggests one).
  if (!info) ConfigRegistry::global().validate(key, AttrValue::string(text));
  if (!info) throw WorkbenchError("unknown config key '" + key + "'");
  AttrValue value;
  try {
    value = parseAttrValueAs(text, info->kind);
  } catch (const std::invalid_argument& e) {
    throw WorkbenchError("config key '" + key + "': " + e.what());
  }
  return setConfig(key, value);
}

namespace {

// The checks of each run setting, shared by its own setter and setRunSettings.
void checkOptLevel(int level) {
  if (level < 0 || level > 4) throw WorkbenchError("opt_level must be between 0 and 4, got " + std::to_string(level));
}

void checkTarget(const std::string& target) {
  if (!target.empty()) parseKnownTarget(target);  // a typo would otherwise silently mean "no such device"
}

void checkPassNames(const PassRegistry& registry, const std::set<std::string>& passes, const char* setting) {
  for (const std::string& p : passes)
    if (!registry.find(p)) throw WorkbenchError("unknown pass '" + p + "' in " + setting);
}

}  // namespace

int Workbench::setOptLevel(int level) {
  checkOptLevel(level);
  ctx_->optLevel = level;
  return discardFuture();
}

int Workbench::setTarget(std::string target) {
  checkTarget(target);
  ctx_->target = std::move(target);
  return discardFuture();
}

int Workbench::setDisabledPasses(std::set<std::string> passes) {
  checkPassNames(*registry_, passes, "disabled_pass");
  ctx_->disabledPasses = std::move(passes);
  return discardFuture();
}

int Workbench::setRequiredPasses(std::set<std::string> passes) {
  checkPassNames(*registry_, passes, "required_pass");
  ctx_->requiredPasses = std::move(passes);
  return discardFuture();
}

RunSettings Workbench::runSettings() const {
  RunSettings settings = RunSettings::of(*ctx_);
  settings.verifyEach = verifyEach_;
  return settings;
}

int Workbench::setRunSettings(const RunSettings& settings) {
  // Validate on a scratch context first: a bad key or target changes nothing.
  checkTarget(settings.target);
  checkOptLevel(settings.optLevel);
  checkPassNames(*registry_, settings.disabledPasses, "disabled_pass");
  checkPassNames(*registry_, settings.requiredPasses, "required_pass");
  auto scratch = PassContext::create("root");
  settings.applyTo(*scratch);
  // The context keeps its identity (its id is in the trace) unless a config
  // key must go, which only a fresh context can forget.
  bool dropsKeys = false;
  for (const auto& [key, value] : ctx_->explicitConfig().entries())
    dropsKeys = dropsKeys || !scratch->explicitConfig().find(key);
  if (dropsKeys) {
    scratch->instruments() = std::move(ctx_->instruments());
    scratch->setRemarksEnabled(remarks_);
    ctx_ = std::move(scratch);
  } else {
    settings.applyTo(*ctx_);
  }
  verifyEach_ = settings.verifyEach;
  installInstruments();
  return discardFuture();
}

void Workbench::addInstrument(PassInstrumentPtr instrument) {
  faceInstruments_.push_back(std::move(instrument));
  installInstruments();
}

void Workbench::setModuleAttr(const std::string& attr, const std::string& field, const AttrValue& value) {
  requireLoaded();
  AttrDict attrs = initial_->attrs;
  if (field.empty()) {
    attrs.set(attr, value);
  } else {
    const AttrValue* old = attrs.find(attr);
    if (old && old->kind() != AttrValue::Kind::Dict)
      throw WorkbenchError("module attribute '" + attr + "' is " + old->toString() + ", not a dictionary");
    AttrDict dict = old ? old->asDict() : AttrDict{};
    dict.set(field, value);
    attrs.set(attr, AttrValue::dict(std::move(dict)));
  }
  initial_ = withModuleAttrs(initial_, std::move(attrs));
  resetTrace(initial_);
}

// ---- Timeline -----------------------------------------------------------------

void Workbench::refreshTimeline() const {
  if (!trace_) {
    timeline_.clear();
    positions_.clear();
    return;
  }
  const auto& events = trace_->events();
  if (timelineEvents_ == events.size() && timelineGeneration_ == generation_) return;
  timeline_.clear();
  timeline_.reserve(events.size());
  // Builds are recorded whenever the user asks, so their ids say nothing about
  // where they belong: each follows the event whose module it compiled.
  std::unordered_map<int, std::vector<int>> buildsAfter;
  for (int build : builds_->builds()) buildsAfter[builds_->builtFrom(build)].push_back(build);
  // Iterative post-order over each top-level tree: (event, next child index).
  std::vector<std::pair<int, size_t>> stack;
  for (const TraceEvent& root : events) {
    if (root.parent != -1 || builds_->isCodegen(root.id)) continue;
    stack.emplace_back(root.id, 0);
    while (!stack.empty()) {
      auto& [id, childIndex] = stack.back();
      const TraceEvent& ev = events[static_cast<size_t>(id)];
      if (childIndex < ev.children.size()) {
        int child = ev.children[childIndex++];
        stack.emplace_back(child, 0);
      } else {
        const int done = id;
        timeline_.push_back(done);
        stack.pop_back();
        if (buildsAfter.empty() || builds_->isCodegen(done)) continue;
        auto it = buildsAfter.find(done);
        if (it == buildsAfter.end()) continue;
        for (int build : it->second) {
          for (int stage : events[static_cast<size_t>(build)].children) timeline_.push_back(stage);
          timeline_.push_back(build);
        }
      }
    }
  }
  positions_.assign(events.size(), -1);
  for (size_t i = 0; i < timeline_.size(); ++i) positions_[static_cast<size_t>(timeline_[i])] = static_cast<int>(i);
  timelineEvents_ = events.size();
  timelineGeneration_ = generation_;
}

const std::vector<int>& Workbench::timeline() const {
  refreshTimeline();
  return timeline_;
}

int Workbench::positionOf(int id) const {
  refreshTimeline();
  return id >= 0 && static_cast<size_t>(id) < positions_.size() ? positions_[static_cast<size_t>(id)] : 0;
}

// ---- Running ------------------------------------------------------------------

int Workbench::runNextPass(MoveResult& result) {
  const Pass& pass = *pipeline_[nextPass_];
  const int firstNew = static_cast<int>(trace_->events().size());
  PassProgress progress{nextPass_, pipeline_.size(), pipelineText(pass), false, -1};
  if (progress_) progress_(progress);
  std::string internalError;
  try {
    current_ = runPass(pass, current_, *ctx_);
  } catch (const DiagnosticError& failure) {
    // PassFailure (or any located error): the TraceInstrument recorded the event.
    halted_ = true;
    attachFailureDiagnostics(firstNew, failure.diagnostics());
  } catch (const std::exception& e) {
    halted_ = true;
    internalError = std::string("internal error: ") + e.what();
  }
  ++nextPass_;
  int id = static_cast<int>(trace_->events().size()) > firstNew ? firstNew : -1;
  if (halted_ && id < 0) {
    // The pass failed before any instrument saw it; the failure must still be an event.
    id = trace_->open(-1, pass.info().name, "", *ctx_, current_);
    TraceEvent& ev = trace_->mutableEvent(id);
    ev.after = ev.before;
    ev.status = EventStatus::Failed;
    ev.failure = internalError.empty() ? "the pass failed before it started" : internalError;
  } else if (!internalError.empty()) {
    TraceEvent& ev = trace_->mutableEvent(id);
    if (ev.status != EventStatus::Failed) {
      ev.status = EventStatus::Failed;
      ev.after = ev.before;
      ev.failure = internalError;
    }
    // The recorder's stack of open events is stale after an exception it did not see.
    installInstruments();
  }
  passEvent_.push_back(id);
  if (progress_) {
    progress.finished = true;
    progress.event = id;
    progress_(progress);
  }
  if (id >= 0) {
    result.executed.push_back(id);
  } else if (auto reason = passDisabledReason(pass, current_, *ctx_)) {
    result.notes.push_back(pass.info().name + " did not run: " + *reason);
  } else {
    result.notes.push_back(pass.info().name + " did not run");
  }
  return id;
}

void Workbench::attachFailureDiagnostics(int firstNew, const std::vector<Diagnostic>& errors) {
  // The recorder keeps a failure as rendered text; the diagnostics themselves
  // (rule ids, functions, spans) are what breakpoints, reproducers and the faces
  // need, so they are attached to every event that failed with exactly these errors.
  std::string rendered = renderFolded(errors);
  for (int id = firstNew; id < static_cast<int>(trace_->events().size()); ++id) {
    TraceEvent& ev = trace_->mutableEvent(id);
    if (ev.status != EventStatus::Failed || ev.failure != rendered) continue;
    for (const Diagnostic& d : errors) {
      bool present = false;
      for (const Diagnostic& have : ev.diagnostics) present = present || (have.message == d.message && have.rule == d.rule);
      if (!present) ev.diagnostics.push_back(d);
    }
  }
}

std::string Workbench::endMessage() const {
  if (pipeline_.empty()) return "no pipeline is set";
  if (halted_) {
    int failed = lastFailure();
    return "the pipeline stopped at the failure of " + (failed >= 0 ? trace_->event(failed).pass : std::string("a pass")) +
           (failed >= 0 ? " (#" + std::to_string(failed) + ")" : std::string());
  }
  refreshTimeline();
  return "end of the pipeline: all " + std::to_string(pipeline_.size()) + " passes have run (last event #" +
         std::to_string(timeline_.back()) + ")";
}

template <class Pred>
MoveResult Workbench::moveForward(int count, Pred isTarget) {
  requireLoaded();
  clearCancel();
  MoveResult result;
  result.from = cursor_;
  int remaining = count;
  size_t pos = static_cast<size_t>(positionOf(cursor_));
  bool stopped = false;
  while (!stopped) {
    refreshTimeline();
    if (pos + 1 >= timeline_.size()) {
      if (!canRunMore()) break;
      // Between passes is the only safe point to stop: a pass is never cut in half.
      if (cancel_.exchange(false, std::memory_order_relaxed)) {
        result.reason = StopReason::Interrupted;
        stopped = true;
        break;
      }
      if (std::optional<std::string> refusal = forcePhase_ ? std::nullopt : nextPassRefusal()) {
        // Stopping in front of the pass leaves the cursor where the user can inspect the phase.
        result.refusal = "refused: " + *refusal + "; `step --force` runs it anyway";
        result.notes.push_back(result.refusal);
        stopped = true;
        break;
      }
      runNextPass(result);
      continue;
    }
    int id = timeline_[++pos];
    bool target = isTarget(id);
    std::vector<int> hits = breakpointsHitBy(id);
    bool failed = trace_->event(id).status == EventStatus::Failed;
    if (target || !hits.empty() || failed) {
      result.visited.push_back(id);
      cursor_ = id;
    }
    if (!hits.empty()) {
      result.reason = StopReason::Breakpoint;
      result.breakpoints = hits;
      for (Breakpoint& bp : breakpoints_)
        if (std::find(hits.begin(), hits.end(), bp.id) != hits.end()) ++bp.hits;
      stopped = true;
    } else if (failed) {
      result.reason = StopReason::Failure;
      stopped = true;
    } else if (target && --remaining == 0) {
      result.reason = StopReason::Reached;
      stopped = true;
    }
  }
  if (!stopped) {
    if (result.visited.empty() && result.executed.empty() && result.notes.empty()) throw WorkbenchError(endMessage());
    result.reason = StopReason::EndOfTrace;
  }
  result.to = cursor_;
  return result;
}

MoveResult Workbench::step(int n) {
  if (n < 1) throw WorkbenchError("step count must be at least 1");
  return moveForward(n, [this](int id) { return trace_->event(id).parent == -1; });
}

MoveResult Workbench::next(int n) {
  if (n < 1) throw WorkbenchError("step count must be at least 1");
  // Each target is judged against the cursor as it is then, so `next 3` is three `next`s.
  return moveForward(n, [this](int id) { return trace_->event(id).depth <= trace_->event(cursor_).depth; });
}

MoveResult Workbench::stepIn(int n) {
  if (n < 1) throw WorkbenchError("step count must be at least 1");
  return moveForward(n, [](int) { return true; });
}

MoveResult Workbench::stepOut() {
  requireLoaded();
  const TraceEvent& here = trace_->event(cursor_);
  if (here.parent == -1)
    throw WorkbenchError("#" + std::to_string(cursor_) + " " + here.pass + " is a top-level event: there is nothing to step out of");
  const int depth = here.depth;
  return moveForward(1, [this, depth](int id) { return trace_->event(id).depth < depth; });
}

MoveResult Workbench::back(int n) {
  requireLoaded();
  if (n < 1) throw WorkbenchError("step count must be at least 1");
  MoveResult result;
  result.from = cursor_;
  int pos = positionOf(cursor_);
  for (int remaining = n; remaining > 0; --remaining) {
    const int depth = trace_->event(cursor_).depth;
    int found = -1;
    for (int i = pos - 1; i >= 0; --i)
      if (trace_->event(timeline_[static_cast<size_t>(i)]).depth <= depth) {
        found = i;
        break;
      }
    if (found < 0) break;
    pos = found;
    cursor_ = timeline_[static_cast<size_t>(pos)];
    result.visited.push_back(cursor_);
  }
  if (result.visited.empty()) throw WorkbenchError("already at the first event (#0)");
  result.reason = static_cast<int>(result.visited.size()) == n ? StopReason::Reached : StopReason::EndOfTrace;
  result.to = cursor_;
  return result;
}

MoveResult Workbench::gotoEvent(int id) {
  requireLoaded();
  event(id);  // validates
  MoveResult result;
  result.from = cursor_;
  cursor_ = id;
  result.visited.push_back(id);
  result.to = id;
  return result;
}

MoveResult Workbench::run() {
  return moveForward(1 << 30, [this](int id) { return trace_->event(id).parent == -1; });
}

// ---- Breakpoints ----------------------------------------------------------------

int Workbench::addBreakpoint(BreakKind kind, std::string pattern) {
  if (kind == BreakKind::Function && !pattern.empty() && pattern[0] == '@') pattern.erase(0, 1);
  if (kind != BreakKind::Diagnostic && pattern.empty()) throw WorkbenchError("the breakpoint needs a name");
  if (kind == BreakKind::Remark && !findRemarkRule(pattern)) {
    std::vector<std::string> ids;
    for (const RemarkRuleInfo& r : allRemarkRules()) ids.emplace_back(r.id);
    std::string message = "unknown remark rule '" + pattern + "'";
    if (auto suggestion = pass_detail::closestName(pattern, ids)) message += "; did you mean '" + *suggestion + "'?";
    throw WorkbenchError(message);
  }
  if (kind == BreakKind::Pass && !registry_->find(pattern)) {
    // Reuse the registry's message, which carries a "did you mean" suggestion.
    try {
      registry_->create(pattern);
    } catch (const DiagnosticError& e) {
      throw WorkbenchError(e.diagnostics().front().message);
    }
    throw WorkbenchError("unknown pass '" + pattern + "'");
  }
  Breakpoint bp;
  if (kind == BreakKind::Numeric) {
    // "0.01", "rel 0.01", "abs 1e-3" or "1e-3 abs": normalized to "rel 0.01".
    std::string number, which = "rel";
    for (size_t i = 0; i < pattern.size();) {
      size_t end = pattern.find(' ', i);
      std::string word = pattern.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end == std::string::npos ? pattern.size() : end + 1;
      if (word.empty()) continue;
      if (word == "rel" || word == "abs") {
        which = word;
      } else if (number.empty()) {
        number = word;
      } else {
        throw WorkbenchError("a numeric breakpoint takes one threshold and optionally abs or rel, got '" + pattern + "'");
      }
    }
    char* end = nullptr;
    bp.threshold = number.empty() ? -1 : std::strtod(number.c_str(), &end);
    if (number.empty() || *end != '\0' || !(bp.threshold >= 0))
      throw WorkbenchError("a numeric breakpoint needs a non-negative error threshold such as 0.01, got '" + pattern + "'");
    bp.relativeError = which == "rel";
    pattern = which + " " + number;
  }
  bp.id = nextBreakpointId_++;
  bp.kind = kind;
  bp.pattern = std::move(pattern);
  breakpoints_.push_back(bp);
  return bp.id;
}

bool Workbench::removeBreakpoint(int id) {
  auto it = std::find_if(breakpoints_.begin(), breakpoints_.end(), [id](const Breakpoint& bp) { return bp.id == id; });
  if (it == breakpoints_.end()) return false;
  breakpoints_.erase(it);
  return true;
}

bool Workbench::enableBreakpoint(int id, bool enabled) {
  for (Breakpoint& bp : breakpoints_)
    if (bp.id == id) {
      bp.enabled = enabled;
      return true;
    }
  return false;
}

std::vector<int> Workbench::breakpointsHitBy(int id) const {
  std::vector<int> hits;
  if (!trace_ || id <= 0 || breakpoints_.empty()) return hits;
  const TraceEvent& ev = trace_->event(id);
  std::optional<std::vector<AttrChange>> attrChanges;  // computed only when an attr breakpoint asks
  for (const Breakpoint& bp : breakpoints_) {
    if (!bp.enabled) continue;
    bool hit = false;
    switch (bp.kind) {
      case BreakKind::Pass: hit = ev.pass == bp.pattern; break;
      case BreakKind::Function:
        hit = std::find(ev.changedFunctions.begin(), ev.changedFunctions.end(), bp.pattern) != ev.changedFunctions.end();
        break;
      case BreakKind::Attr:
        if (ev.before != ev.after) {
          if (!attrChanges) attrChanges = diffAttrs(ev.before, ev.after);
          for (const AttrChange& c : *attrChanges) hit = hit || c.key == bp.pattern;
        }
        break;
      case BreakKind::Diagnostic:
        for (const Diagnostic& d : ev.diagnostics) hit = hit || bp.pattern.empty() || d.rule == bp.pattern;
        if (bp.pattern.empty() && ev.status == EventStatus::Failed) hit = true;
        break;
      case BreakKind::Remark:
        for (const Remark& r : ev.remarks) hit = hit || r.ruleId() == bp.pattern;
        break;
      case BreakKind::Numeric:
        if (ev.numeric)
          hit = !ev.numeric->compared || (bp.relativeError ? ev.numeric->maxRelError : ev.numeric->maxAbsError) > bp.threshold;
        break;
    }
    if (hit) hits.push_back(bp.id);
  }
  return hits;
}

}  // namespace passlab
