#include "core/ir/diagnostic_fold.h"
#include "core/pass/instruments.h"

#include <cstdio>
#include <ostream>

#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/pass/registry.h"
#include "core/trace/diff.h"

namespace passlab {

// ---- PrintInstrument ---------------------------------------------------------

PrintInstrument::PrintInstrument(PrintInstrumentOptions options, Sink sink) : options_(std::move(options)), sink_(std::move(sink)) {}

PrintInstrument::PrintInstrument(PrintInstrumentOptions options, std::string& out)
    : PrintInstrument(std::move(options), [&out](std::string_view text) { out.append(text); }) {}

PrintInstrument::PrintInstrument(PrintInstrumentOptions options, std::ostream& out)
    : PrintInstrument(std::move(options), [&out](std::string_view text) { out << text; }) {}

// The dump headers are comments of the print syntax, so a dump stays readable
// as the syntax it prints (LLVM's `// -----//` form; `# -----//` in TVMScript).
std::string PrintInstrument::dumpMark() const { return options_.text.syntax == TextSyntax::TVMScript ? "# " : "// "; }

bool PrintInstrument::wanted(PassContext& ctx) const { return options_.includeNested || ctx.depth() == 0; }

static std::string passLabel(const Pass& pass, const PassContext& ctx) {
  std::string label = pass.info().name;
  if (!pass.options().empty()) label += "{" + optionsText(pass.options()) + "}";
  if (ctx.depth() > 0) label += " (in " + ctx.name() + ")";
  return label;
}

const std::string& PrintInstrument::textOf(const IRModule& mod) {
  for (int i = 0; i < 2; ++i)
    if (cachedModule_[i] == mod) return cachedText_[i];
  std::string text;
  if (options_.functions.empty()) {
    text = printModule(mod, options_.text);
  } else {
    for (const std::string& name : options_.functions) {
      if (!mod->lookup(name)) continue;
      text += printFunction(mod, name, options_.text);
      if (!text.empty() && text.back() != '\n') text += '\n';
    }
  }
  int slot = cacheNext_;
  cacheNext_ = 1 - cacheNext_;
  cachedModule_[slot] = mod;
  cachedText_[slot] = std::move(text);
  return cachedText_[slot];
}

bool PrintInstrument::printedPartChanged(const IRModule& before, const IRModule& after) const {
  if (before == after) return false;
  if (options_.functions.empty()) {
    if (before->attrs != after->attrs || before->functions.size() != after->functions.size()) return true;
    for (auto b = before->functions.begin(), a = after->functions.begin(); b != before->functions.end(); ++b, ++a)
      if (b->first != a->first || b->second != a->second) return true;
    return false;
  }
  for (const std::string& name : options_.functions)
    if (before->lookup(name) != after->lookup(name)) return true;
  return false;
}

void PrintInstrument::emit(const std::string& header, const std::string& body) {
  std::string out = dumpMark() + "-----// IR Dump " + header + " //----- //\n" + body;
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += '\n';
  sink_(out);
}

void PrintInstrument::beforePass(const Pass& pass, const IRModule& mod, PassContext& ctx) {
  if (!wanted(ctx)) return;
  if (options_.printChanged && !options_.changeLine && !printedStart_) {
    printedStart_ = true;
    emit("At Start", textOf(mod));
  }
  if (options_.printBeforeAll || options_.printBefore.count(pass.info().name))
    emit("Before " + passLabel(pass, ctx), textOf(mod));
}

void PrintInstrument::afterPass(const Pass& pass, const IRModule& before, const IRModule& after, PassContext& ctx) {
  if (!wanted(ctx)) return;
  const std::string label = passLabel(pass, ctx);
  if (options_.printAfterAll || options_.printAfter.count(pass.info().name)) emit("After " + label, textOf(after));
  if (!options_.printChanged) return;
  if (options_.changeLine) {
    sink_(label + ": " + (printedPartChanged(before, after) ? options_.changeLine(before, after) : "no change") + "\n");
    return;
  }
  if (!printedPartChanged(before, after)) {
    sink_(dumpMark() + "-----// IR Dump After " + label + " omitted because no change //----- //\n\n");
    return;
  }
  if (options_.changedAsDiff) {
    if (options_.diffText) {
      emit("After " + label + " (diff)", options_.diffText(before, after, "before " + pass.info().name, "after " + pass.info().name));
    } else {
      // Copy: textOf(after) may evict the cache slot holding `before`.
      std::string beforeText = textOf(before);
      const std::string& afterText = textOf(after);
      emit("After " + label + " (diff)", unifiedDiff(beforeText, afterText, "before " + pass.info().name, "after " + pass.info().name));
    }
  } else {
    emit("After " + label + " (changed)", textOf(after));
  }
}

void PrintInstrument::onPassSkipped(const Pass& pass, const IRModule& /*mod*/, PassContext& ctx, const std::string& reason) {
  if (!wanted(ctx)) return;
  if (!(options_.printAfterAll || options_.printChanged || options_.printBeforeAll || options_.printAfter.count(pass.info().name) ||
        options_.printBefore.count(pass.info().name)))
    return;
  // One line, as the trace records it: silence would look like the pass never existed.
  sink_(dumpMark() + "-----// IR Dump " + passLabel(pass, ctx) + " skipped: " + reason + " //----- //\n\n");
}

void PrintInstrument::afterFailure(const Pass& pass, const IRModule& /*before*/, const std::vector<Diagnostic>& errors,
                                   PassContext& ctx) {
  if (!wanted(ctx)) return;
  if (!(options_.printAfterAll || options_.printChanged || options_.printAfter.count(pass.info().name))) return;
  std::string body = renderFolded(errors) + "\n";
  emit("After " + passLabel(pass, ctx) + " Failed", body);
}

// ---- TimingInstrument --------------------------------------------------------

struct TimingInstrument::Node {
  std::string name;
  double ms = 0;
  int count = 0;
  std::vector<std::unique_ptr<Node>> children;

  Node* child(const std::string& childName) {
    for (auto& c : children)
      if (c->name == childName) return c.get();
    children.push_back(std::make_unique<Node>());
    children.back()->name = childName;
    return children.back().get();
  }
};

TimingInstrument::TimingInstrument() { reset(); }
TimingInstrument::~TimingInstrument() = default;

void TimingInstrument::reset() {
  root_ = std::make_unique<Node>();
  stack_.assign(1, root_.get());
}

void TimingInstrument::beforePass(const Pass& pass, const IRModule&, PassContext&) {
  stack_.push_back(stack_.back()->child(pass.info().name));
}

void TimingInstrument::finish(const PassContext& ctx) {
  // A reset() between before and after leaves nothing to close.
  if (stack_.size() < 2) return;
  Node* node = stack_.back();
  // The body time runPass measured: other instruments' hooks are not pass time.
  node->ms += ctx.lastPassTiming().ms();
  node->count += 1;
  stack_.pop_back();
}

void TimingInstrument::afterPass(const Pass&, const IRModule&, const IRModule&, PassContext& ctx) { finish(ctx); }
void TimingInstrument::afterFailure(const Pass&, const IRModule&, const std::vector<Diagnostic>&, PassContext& ctx) { finish(ctx); }

std::vector<TimingEntry> TimingInstrument::entries() const {
  std::vector<TimingEntry> out;
  // Depth-first with an explicit stack; children pushed in reverse to keep their order.
  std::vector<std::pair<const Node*, int>> work;
  for (auto it = root_->children.rbegin(); it != root_->children.rend(); ++it) work.emplace_back(it->get(), 0);
  while (!work.empty()) {
    auto [node, depth] = work.back();
    work.pop_back();
    out.push_back({node->name, depth, node->ms, node->count});
    for (auto it = node->children.rbegin(); it != node->children.rend(); ++it) work.emplace_back(it->get(), depth + 1);
  }
  return out;
}

double TimingInstrument::totalMs() const {
  double total = 0;
  for (const auto& c : root_->children) total += c->ms;
  return total;
}

std::string TimingInstrument::report() const {
  const std::string rule = "===" + std::string(73, '-') + "===\n";
  double total = totalMs();
  char line[256];
  std::string out = rule;
  const std::string title = "... Pass execution timing report ...";
  out += std::string((79 - title.size()) / 2, ' ') + title + "\n";
  out += rule;
  std::snprintf(line, sizeof line, "  Total Execution Time: %.4f seconds\n\n", total / 1000.0);
  out += line;
  out += "  ----Wall Time----  ----Name----\n";
  for (const TimingEntry& e : entries()) {
    double percent = total > 0 ? 100.0 * e.ms / total : 0.0;
    std::string name = std::string(2 * static_cast<size_t>(e.depth), ' ') + e.name;
    if (e.count > 1) name += " (" + std::to_string(e.count) + " runs)";
    std::snprintf(line, sizeof line, "    %.4f (%5.1f%%)  %s\n", e.ms / 1000.0, percent, name.c_str());
    out += line;
  }
  std::snprintf(line, sizeof line, "    %.4f (100.0%%)  Total\n", total / 1000.0);
  out += line;
  return out;
}

// ---- VerifyInstrument --------------------------------------------------------

VerifyInstrument::VerifyInstrument(bool wellFormed, bool types) : wellFormed_(wellFormed), types_(types) {}

void VerifyInstrument::verify(const IRModule& mod, const std::string& where, PassContext& ctx) {
  if (mod == lastVerified_) return;
  lastVerified_ = mod;
  std::vector<Diagnostic> found;
  if (wellFormed_) found = checkWellFormed(mod);
  if (types_) {
    std::vector<Diagnostic> typeErrors = checkTypes(mod);
    found.insert(found.end(), typeErrors.begin(), typeErrors.end());
  }
  for (Diagnostic& d : found) {
    d.message = where + ": " + d.message;
    ++violations_;
    ctx.notifyDiagnostic(d);
  }
}

void VerifyInstrument::beforePass(const Pass& pass, const IRModule& mod, PassContext& ctx) {
  verify(mod, "verify before " + pass.info().name, ctx);
}

void VerifyInstrument::afterPass(const Pass& pass, const IRModule& /*before*/, const IRModule& after, PassContext& ctx) {
  verify(after, "verify after " + pass.info().name, ctx);
}

}  // namespace passlab
