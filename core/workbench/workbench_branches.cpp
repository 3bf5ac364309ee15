// Workbench: edit and continue, and the branches an edit forks.
#include <algorithm>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/text/load_text.h"
#include "core/text/metadata.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "core/trace/diff.h"
#include "core/trace/change_summary.h"
#include "core/workbench/workbench.h"
#include "core/support/strings.h"

namespace passlab {

namespace {

int lastInSubtree(const Trace& trace, int id) {
  while (!trace.event(id).children.empty()) id = trace.event(id).children.back();
  return id;
}

/// Parses an edited TVMScript function (a lone `@R.function` / `@T.prim_func`)
/// inside a module frame holding the module's other functions, so its `cls.g`
/// calls resolve. The frame's two lines replace nothing of the edit: every
/// diagnostic in the edited lines is moved back to the edit's own line and
/// column (it is indented one level in the frame).
IRModule parseTvmScriptEdit(const std::string& text, const std::string& fn, const IRModule& base, const std::string& name,
                            const PrintOptions& options) {
  constexpr uint32_t kFrameLines = 2, kIndent = 4;
  auto indented = [](const std::string& body) {
    std::string out;
    size_t at = 0;
    while (at < body.size()) {
      size_t end = body.find('\n', at);
      std::string_view line(body.data() + at, (end == std::string::npos ? body.size() : end) - at);
      if (!line.empty()) out.append(kIndent, ' ');
      out.append(line);
      out += '\n';
      at = end == std::string::npos ? body.size() : end + 1;
    }
    return out;
  };
  std::string frame = "@I.ir_module\nclass Module:\n" + indented(text);
  PrintOptions script = options;
  script.syntax = TextSyntax::TVMScript;
  for (const auto& [other, f] : base->functions)
    if (other != fn) frame += "\n" + indented(printFunction(base, other, script));
  try {
    return loadModuleText(frame, name).module;
  } catch (const DiagnosticError& e) {
    const auto editedLines = static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n') + 1);
    auto source = std::make_shared<const SourceFile>(name, text);
    std::vector<Diagnostic> own;
    for (Diagnostic d : e.diagnostics()) {
      if (d.span.line <= kFrameLines || d.span.line > kFrameLines + editedLines) continue;
      d.span.file = source;
      d.span.line -= kFrameLines;
      d.span.column = d.span.column > kIndent ? d.span.column - kIndent : 1;
      if (d.span.endLine) d.span.endLine = std::min(d.span.endLine - kFrameLines, editedLines);
      d.span.endColumn = d.span.endColumn > kIndent ? d.span.endColumn - kIndent : 1;
      own.push_back(std::move(d));
    }
    if (own.empty()) throw;
    throw DiagnosticError(std::move(own));
  }
}

}  // namespace

void Workbench::saveBranch(Branch& b) const {
  b.trace = trace_;
  b.builds = builds_;
  b.current = current_;
  b.nextPass = nextPass_;
  b.passEvent = passEvent_;
  b.halted = halted_;
  b.cursor = cursor_;
  b.edits = editRecords_;
}

void Workbench::restoreBranch(const Branch& b) {
  trace_ = b.trace;
  builds_ = b.builds;
  current_ = b.current;
  nextPass_ = b.nextPass;
  passEvent_ = b.passEvent;
  halted_ = b.halted;
  cursor_ = b.cursor;
  editRecords_ = b.edits;
  ++generation_;
  // The recorder must append to this branch's trace from now on.
  installInstruments();
}

const Workbench::Branch& Workbench::branchState(int branch) const {
  if (branch < 0 || static_cast<size_t>(branch) >= std::max<size_t>(1, branches_.size()))
    throw WorkbenchError("no branch b" + std::to_string(branch) + " (`branches` lists them)");
  if (branch == activeBranch_ || branches_.empty()) {
    // The active branch's slot is stale; a snapshot of the live state stands in.
    static thread_local Branch live;
    saveBranch(live);
    live.info = branches_.empty() ? BranchInfo{} : branches_[static_cast<size_t>(branch)].info;
    return live;
  }
  return branches_[static_cast<size_t>(branch)];
}

/// `text` (an edit of printed IR) with the session's numbered constants as its
/// #[metadata] section, so `meta[relay.Constant][N]` as `show` printed it loads
/// with its real data rather than as a placeholder. Text with a section of its
/// own, or without references, is left alone. A number kept free for a
/// placeholder of `base` gets that placeholder's data.
std::string Workbench::withSessionConstants(const std::string& text, const IRModule& base) const {
  if (text.find("meta[relay.Constant][") == std::string::npos || findMetadataSection(text) != std::string::npos) return text;
  std::vector<NDArray> arrays = constantNumbers_->arrays();
  if (arrays.empty()) return text;
  std::map<int32_t, NDArray> placeholders;
  for (const auto& [n, f] : base->functions)
    if (as<FunctionNode>(f))
      postOrderVisit(f, [&](const Expr& e) {
        if (const auto* c = as<ConstantNode>(e); c && c->data.isPlaceholder()) placeholders.emplace(c->data.placeholderIndex(), c->data);
      });
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (arrays[i].defined()) continue;
    auto it = placeholders.find(static_cast<int32_t>(i));
    arrays[i] = it != placeholders.end() ? it->second : NDArray::scalar(DataType(DTypeCode::Float32), 0);
  }
  std::string out = text;
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out + "#[metadata]\n" + encodeTvmMetadata(arrays);
}

int Workbench::edit(const std::string& text, const std::string& function, const std::string& name) {
  requireLoaded();
  const TraceEvent& at = trace_->event(cursor_);
  if (builds_->isCodegen(cursor_)) throw WorkbenchError("#" + std::to_string(cursor_) + " is a build: `back` to the pass whose module it built, then edit");
  if (at.parent != -1)
    throw WorkbenchError("#" + std::to_string(cursor_) + " " + at.pass + " is nested in #" + std::to_string(at.parent) +
                         ": edit at a top-level event (`finish` gets there)");
  const int keep = lastKeptEvent();
  const IRModule base = trace_->event(keep).after;
  const std::string fn = stripAt(function);
  // Parse and type-check everything before any state changes.
  IRModule edited;
  if (!fn.empty() && !base->lookup(fn)) throw WorkbenchError("no function @" + fn + " in the module of #" + std::to_string(keep));
  if (fn.empty()) {
    // Relay text takes the session's numbered constants as its section, so
    // `meta[relay.Constant][N]` as `show` printed it loads with its data.
    const bool relay = detectTextSyntax(text, name) == TextSyntax::Relay;
    edited = loadModuleText(relay ? withSessionConstants(text, base) : text, name).module;
  } else if (detectTextSyntax(text, name) == TextSyntax::TVMScript) {
    // A lone `@R.function` / `@T.prim_func`; its calls of the module's other
    // functions name them through `cls.`, so it is read among them.
    IRModule part = parseTvmScriptEdit(text, fn, base, name, printOptions());
    Expr replacement = part->lookup(fn);
    const size_t defined = part->functions.size() - (base->functions.size() - 1);
    if (!replacement || defined != 1)
      throw WorkbenchError(name + ": expected exactly one definition, of " + fn + " (found " + std::to_string(defined) +
                           (defined == 1 ? " function" : " functions") + (replacement ? "" : ", none named " + fn) + ")");
    edited = withFunction(base, fn, replacement);
  } else {
    // The other functions follow the edited text, so calls to them resolve and
    // the edited lines keep their own line numbers in diagnostics.
    std::string context = text;
    if (!context.empty() && context.back() != '\n') context += '\n';
    PrintOptions quiet;
    quiet.versionHeader = false;
    quiet.typeComments = false;
    // Inline: a reference here would have no data to load from.
    quiet.constants = ConstantStyle::Inline;
    for (const auto& [other, f] : base->functions)
      if (other != fn) context += printFunction(base, other, quiet) + "\n";
    IRModule part;
    try {
      part = parseModule(withSessionConstants(context, base), name);
    } catch (const DiagnosticError& e) {
      // Errors in the appended functions only echo one in the edited text
      // (a definition that did not parse leaves its callers dangling).
      const auto editedLines = static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n') + 1);
      std::vector<Diagnostic> own;
      for (const Diagnostic& d : e.diagnostics())
        if (d.span.line <= editedLines) own.push_back(d);
      if (own.empty() || own.size() == e.diagnostics().size()) throw;
      throw DiagnosticError(std::move(own));
    }
    Expr replacement = part->lookup(fn);
    const size_t defined = part->functions.size() - (base->functions.size() - 1);
    if (!replacement || defined != 1)
      throw WorkbenchError(name + ": expected exactly one definition, of @" + fn + " (found " + std::to_string(defined) +
                           (defined == 1 ? " function" : " functions") + (replacement ? "" : ", none named @" + fn) + ")");
    edited = withFunction(base, fn, replacement);
  }
  edited = inferTypes(edited);  // always: an edit must not smuggle in a type error

  const int lastKept = lastInSubtree(*trace_, keep);
  const bool future = trace_->events().size() > static_cast<size_t>(lastKept) + 1;
  const size_t passes = passesBefore(keep);
  int newBranch = -1;
  if (future) {
    // The recorded future stays on this branch; the edit starts a new one that
    // shares every event up to `keep`.
    if (branches_.empty()) {
      Branch original;
      original.info.id = 0;
      original.info.description = "load " + sourceName_;
      branches_.push_back(std::move(original));
    }
    saveBranch(branches_[static_cast<size_t>(activeBranch_)]);
    auto copy = std::make_shared<Trace>(*trace_);
    copy->truncate(lastKept + 1);
    auto buildsCopy = std::make_shared<BuildLog>(*builds_);
    buildsCopy->truncate(lastKept + 1);
    Branch b;
    b.info.id = static_cast<int>(branches_.size());
    b.info.parent = activeBranch_;
    b.info.forkEvent = keep;
    branches_.push_back(std::move(b));
    newBranch = static_cast<int>(branches_.size()) - 1;
    activeBranch_ = newBranch;
    trace_ = std::move(copy);
    builds_ = std::move(buildsCopy);
    installInstruments();
  }
  passEvent_.resize(passes);
  nextPass_ = passes;
  halted_ = false;
  std::erase_if(editRecords_, [&](const EditRecord& e) { return e.event > lastKept; });

  const int id = trace_->open(-1, "edit", fn.empty() ? "" : "function=\"" + fn + "\"", *ctx_, base);
  TraceEvent& ev = trace_->mutableEvent(id);
  ev.after = edited;
  for (const auto& [n, f] : base->functions) {
    Expr now = edited->lookup(n);
    if (now != f) ev.changedFunctions.push_back(n);
  }
  for (const auto& [n, f] : edited->functions)
    if (!base->lookup(n)) ev.changedFunctions.push_back(n);
  std::sort(ev.changedFunctions.begin(), ev.changedFunctions.end());
  ev.moduleAttrsChanged = base->attrs != edited->attrs;
  ev.status = ev.changedFunctions.empty() && !ev.moduleAttrsChanged ? EventStatus::Unchanged : EventStatus::Changed;
  if (numericInstrument_) numericInstrument_->annotate(id);
  current_ = edited;
  cursor_ = id;
  ++generation_;
  const TraceEvent& kept = trace_->event(keep);
  EditRecord record{id, keep, fn, name, printModule(edited, fileOptions())};
  editRecords_.push_back(record);
  if (newBranch >= 0) {
    BranchInfo& info = branches_[static_cast<size_t>(newBranch)].info;
    info.editEvent = id;
    info.description = "edit " + (fn.empty() ? std::string("of the module") : "@" + fn) + " after #" + std::to_string(keep) + " " + kept.pass;
  }
  return id;
}

std::vector<BranchInfo> Workbench::branches() const {
  requireLoaded();
  std::vector<BranchInfo> out;
  const size_t count = std::max<size_t>(1, branches_.size());
  for (size_t i = 0; i < count; ++i) {
    const Branch& b = branchState(static_cast<int>(i));
    BranchInfo info = b.info;
    info.id = static_cast<int>(i);
    if (info.description.empty()) info.description = "load " + sourceName_;
    info.events = static_cast<int>(b.trace->events().size());
    info.cursor = b.cursor;
    info.passesRun = b.nextPass;
    info.active = static_cast<int>(i) == activeBranch_;
    out.push_back(std::move(info));
  }
  return out;
}

MoveResult Workbench::gotoBranch(int branch, int id) {
  requireLoaded();
  const Branch& target = branchState(branch);  // validates the branch
  const int to = id < 0 ? target.cursor : id;
  const int count = static_cast<int>(target.trace->events().size());
  if (to < 0 || to >= count)
    throw WorkbenchError("no event #" + std::to_string(to) + " on branch b" + std::to_string(branch) + " (events are #0 to #" +
                         std::to_string(count - 1) + ")");
  if (branch == activeBranch_) return gotoEvent(to);
  const int from = cursor_;
  saveBranch(branches_[static_cast<size_t>(activeBranch_)]);
  restoreBranch(branches_[static_cast<size_t>(branch)]);
  activeBranch_ = branch;
  MoveResult result = gotoEvent(to);
  result.from = from;
  result.notes.push_back("on branch b" + std::to_string(branch) + " (" + branches_[static_cast<size_t>(branch)].info.description + ")");
  return result;
}

int Workbench::correspondingEvent(int branch, int id) const {
  event(id);  // validates
  const Branch& other = branchState(branch);
  const Trace& there = *other.trace;
  // Shared history: the same event (same snapshot) on both branches.
  if (static_cast<size_t>(id) < there.events().size() && there.event(id).after == trace_->event(id).after &&
      there.event(id).pass == trace_->event(id).pass)
    return id;
  int top = id;
  while (trace_->event(top).parent != -1) top = trace_->event(top).parent;
  for (size_t i = 0; i < passEvent_.size(); ++i)
    if (passEvent_[i] == top) return i < other.passEvent.size() ? other.passEvent[i] : -1;
  return -1;
}

const IRModule& Workbench::branchModule(int branch, int id) const {
  const Trace& t = branch == activeBranch_ ? *trace_ : *branchState(branch).trace;
  if (id < 0 || static_cast<size_t>(id) >= t.events().size())
    throw WorkbenchError("no event #" + std::to_string(id) + " on branch b" + std::to_string(branch));
  return t.event(id).after;
}

std::string Workbench::diffBranch(int branch, int id, const std::string& function, bool aligned) const {
  requireLoaded();
  const TraceEvent& here = event(id);
  const int other = correspondingEvent(branch, id);
  if (other < 0)
    throw WorkbenchError("#" + std::to_string(id) + " " + here.pass + " has no counterpart on branch b" + std::to_string(branch) +
                         " (that pass has not run there: `goto b" + std::to_string(branch) + ":N` and step to record it)");
  const std::string fn = stripAt(function);
  const IRModule& a = branchModule(branch, other);
  const IRModule& b = here.after;
  const PrintOptions options = printOptions();
  auto text = [&](const IRModule& m) {
    return fn.empty() ? printModule(m, options) : m->lookup(fn) ? printFunction(m, fn, options) : std::string();
  };
  const std::string otherPass = branchState(branch).trace->event(other).pass;
  auto label = [&](int br, int ev, const std::string& pass) {
    return "b" + std::to_string(br) + " #" + std::to_string(ev) + " " + pass + (fn.empty() ? "" : " @" + fn);
  };
  if (!fn.empty() && !a->lookup(fn) && !b->lookup(fn))
    throw WorkbenchError("no function @" + fn + " on either branch at " + here.pass);
  const std::string oldName = label(branch, other, otherPass), newName = label(activeBranch_, id, here.pass);
  if (aligned) return passlab::alignedDiff(*changes_.edits(a, b), oldName, newName, fn, 3, options);
  return unifiedDiff(text(a), text(b), oldName, newName);
}

const std::vector<EditRecord>& Workbench::editRecords() const { return editRecords_; }

}  // namespace passlab
