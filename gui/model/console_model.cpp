#include "gui/model/console_model.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace passlab::gui {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string commonPrefix(const std::vector<std::string>& words) {
  if (words.empty()) return {};
  std::string prefix = words.front();
  for (const std::string& w : words) {
    size_t n = 0;
    while (n < prefix.size() && n < w.size() && prefix[n] == w[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

}  // namespace

ConsoleModel::ConsoleModel(CommandInterpreter& interpreter, std::vector<Command> extra)
    : interpreter_(interpreter), extra_(std::move(extra)) {}

const Command* ConsoleModel::findExtra(std::string_view name) const {
  for (const Command& c : extra_)
    if (c.name == name || std::find(c.aliases.begin(), c.aliases.end(), name) != c.aliases.end()) return &c;
  return nullptr;
}

CommandResult ConsoleModel::dispatch(std::string_view line) {
  line = trim(line);
  size_t space = line.find_first_of(" \t");
  std::string name(line.substr(0, space));
  const Command* extra = findExtra(name);
  // The interpreter's own commands win, so the console never changes what a REPL command means.
  if (!extra || interpreter_.find(name)) return interpreter_.runLine(line);
  CommandResult result;
  CommandArgs args(space == std::string_view::npos ? std::string_view() : line.substr(space + 1));
  CommandContext ctx{interpreter_.workbench(), interpreter_, interpreter_.style()};
  try {
    extra->run(ctx, args, result);
  } catch (const DiagnosticError& e) {
    result.fail(e.renderAll());
  } catch (const std::exception& e) {
    result.fail(e.what());
  }
  return result;
}

CommandResult ConsoleModel::execute(const std::string& line) {
  std::string_view trimmed = trim(line);
  if (trimmed.empty()) return {};
  log(ConsoleLine::Kind::Echo, std::string(CommandInterpreter::kPrompt) + std::string(trimmed));
  if (trimmed.front() == '#') return {};
  CommandResult result = dispatch(trimmed);
  for (const CommandResult::Chunk& chunk : result.chunks)
    log(chunk.error ? ConsoleLine::Kind::Error : ConsoleLine::Kind::Output, chunk.text);
  return result;
}

CommandResult ConsoleModel::submit(const std::string& line) {
  std::string_view trimmed = trim(line);
  if (!trimmed.empty() && (history_.empty() || history_.back() != trimmed)) history_.emplace_back(trimmed);
  historyPos_ = history_.size();
  draft_.clear();
  return execute(line);
}

void ConsoleModel::log(ConsoleLine::Kind kind, std::string_view text) {
  // One ConsoleLine per text line, so the panel can clip by line.
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    lines_.push_back(ConsoleLine{kind, std::string(text.substr(pos, end - pos))});
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  while (lines_.size() > kMaxLines) lines_.pop_front();
  ++revision_;
}

void ConsoleModel::clear() {
  lines_.clear();
  ++revision_;
}

std::string ConsoleModel::historyPrevious(const std::string& current) {
  if (history_.empty()) return current;
  if (historyPos_ >= history_.size()) {
    draft_ = current;
    historyPos_ = history_.size();
  }
  if (historyPos_ > 0) --historyPos_;
  return history_[historyPos_];
}

std::string ConsoleModel::historyNext() {
  if (historyPos_ >= history_.size()) return draft_;
  ++historyPos_;
  return historyPos_ == history_.size() ? draft_ : history_[historyPos_];
}

CompletionEdit ConsoleModel::complete(const std::string& line, size_t cursor) const {
  cursor = std::min(cursor, line.size());
  Completion c;
  std::string_view upTo = std::string_view(line).substr(0, cursor);
  size_t wordStart = upTo.find_last_of(" \t");
  wordStart = wordStart == std::string_view::npos ? 0 : wordStart + 1;
  std::string prefix(upTo.substr(wordStart));
  CommandArgs before(upTo.substr(0, wordStart));
  const Command* extra = before.empty() ? nullptr : findExtra(before[0]);
  if (extra && !interpreter_.find(before[0])) {
    // Complete the extra command's arguments from its syntax, as the interpreter does for its own.
    std::vector<std::string> words(before.words().begin() + 1, before.words().end());
    std::set<std::string> found;
    for (const SyntaxItem& slot : slotsAt(*extra, words))
      for (std::string& cand : interpreter_.candidates(slot, prefix)) found.insert(std::move(cand));
    c.start = wordStart;
    c.candidates.assign(found.begin(), found.end());
  } else {
    c = interpreter_.complete(line, cursor);
    if (before.empty()) {
      std::set<std::string> found(c.candidates.begin(), c.candidates.end());
      for (const Command& e : extra_)
        if (e.name.rfind(prefix, 0) == 0) found.insert(e.name);
      c.candidates.assign(found.begin(), found.end());
    }
  }
  CompletionEdit edit;
  edit.line = line;
  edit.cursor = cursor;
  if (c.candidates.empty()) return edit;
  // A unique word is finished with a space, except a directory, which the user continues.
  const std::string& only = c.candidates.front();
  std::string replacement = c.candidates.size() > 1 ? commonPrefix(c.candidates)
                            : !only.empty() && only.back() == '/' ? only
                                                                  : only + " ";
  // Never shorten what was typed (a common prefix can be shorter than a typed path).
  if (replacement.size() < cursor - c.start) replacement = line.substr(c.start, cursor - c.start);
  edit.line = line.substr(0, c.start) + replacement + line.substr(cursor);
  edit.cursor = c.start + replacement.size();
  if (c.candidates.size() > 1) edit.candidates = c.candidates;
  return edit;
}

}  // namespace passlab::gui
