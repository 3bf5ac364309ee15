#include "repl/command.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace passlab {

// ---- CommandResult --------------------------------------------------------------

void CommandResult::out(std::string_view text) {
  if (text.empty()) return;
  if (chunks.empty() || chunks.back().error) chunks.push_back({false, ""});
  chunks.back().text += text;
}

void CommandResult::err(std::string_view text) {
  if (text.empty()) return;
  if (chunks.empty() || !chunks.back().error) chunks.push_back({true, ""});
  chunks.back().text += text;
}

void CommandResult::fail(std::string_view message) {
  std::string text(message);
  // Rendered diagnostics already start with "file:line:col: error:" or "error:".
  bool prefixed = text.find("error: ") != std::string::npos && text.find("error: ") < text.find('\n');
  err((prefixed ? "" : "error: ") + text + (text.empty() || text.back() != '\n' ? "\n" : ""));
  status = CommandStatus::Error;
}

void CommandResult::append(const CommandResult& other) {
  for (const Chunk& c : other.chunks) c.error ? err(c.text) : out(c.text);
  if (other.status == CommandStatus::Error) status = CommandStatus::Error;
}

std::string CommandResult::output() const {
  std::string s;
  for (const Chunk& c : chunks)
    if (!c.error) s += c.text;
  return s;
}

std::string CommandResult::error() const {
  std::string s;
  for (const Chunk& c : chunks)
    if (c.error) s += c.text;
  return s;
}

// ---- CommandArgs ------------------------------------------------------------------

CommandArgs::CommandArgs(std::string_view line) : line_(line) {
  size_t i = 0;
  while (i < line_.size()) {
    while (i < line_.size() && std::isspace(static_cast<unsigned char>(line_[i]))) ++i;
    if (i >= line_.size()) break;
    starts_.push_back(i);
    std::string word;
    bool quoted = false;
    while (i < line_.size() && (quoted || !std::isspace(static_cast<unsigned char>(line_[i])))) {
      char c = line_[i++];
      if (c == '"') {
        quoted = !quoted;
      } else if (c == '\\' && quoted && i < line_.size()) {
        word += line_[i++];
      } else {
        word += c;
      }
    }
    words_.push_back(std::move(word));
  }
}

std::string CommandArgs::rest(size_t i) const {
  if (i >= starts_.size()) return "";
  std::string s = line_.substr(starts_[i]);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

bool CommandArgs::takeFlag(std::string_view flag) {
  for (size_t i = 0; i < words_.size(); ++i)
    if (words_[i] == flag) {
      words_.erase(words_.begin() + static_cast<long>(i));
      starts_.erase(starts_.begin() + static_cast<long>(i));
      return true;
    }
  return false;
}

std::string CommandArgs::takeFunction() {
  for (size_t i = 0; i < words_.size(); ++i)
    if (words_[i].size() > 1 && words_[i][0] == '@') {
      std::string name = words_[i].substr(1);
      words_.erase(words_.begin() + static_cast<long>(i));
      starts_.erase(starts_.begin() + static_cast<long>(i));
      return name;
    }
  return "";
}

// ---- Syntax -----------------------------------------------------------------------

CompletionKind placeholderKind(std::string_view name) {
  if (name == "command") return CompletionKind::Command;
  if (name == "pass") return CompletionKind::PassName;
  if (name == "spec") return CompletionKind::Pipeline;
  if (name == "function") return CompletionKind::FunctionName;
  if (name == "key") return CompletionKind::ConfigKey;
  if (name == "file" || name == "dir") return CompletionKind::FilePath;
  if (name == "event") return CompletionKind::EventId;
  if (name == "attr") return CompletionKind::AttrKey;
  if (name == "rule") return CompletionKind::DiagRule;
  if (name == "breakpoint") return CompletionKind::BreakpointId;
  return CompletionKind::None;
}

std::vector<SyntaxItem> parseSyntax(std::string_view form) {
  std::vector<SyntaxItem> items;
  size_t i = 0;
  while (i < form.size()) {
    while (i < form.size() && form[i] == ' ') ++i;
    if (i >= form.size()) break;
    size_t end = form.find(' ', i);
    if (end == std::string_view::npos) end = form.size();
    std::string_view tok = form.substr(i, end - i);
    i = end;
    SyntaxItem item;
    if (tok.size() >= 2 && tok.front() == '[' && tok.back() == ']') {
      item.optional = true;
      tok = tok.substr(1, tok.size() - 2);
    }
    if (tok.size() > 3 && tok.substr(tok.size() - 3) == "...") {
      item.repeat = true;
      tok.remove_suffix(3);
    }
    if (!tok.empty() && tok.front() == '@') {
      item.prefix = "@";
      tok.remove_prefix(1);
    }
    if (tok.size() >= 2 && tok.front() == '<' && tok.back() == '>') {
      std::string name(tok.substr(1, tok.size() - 2));
      item.kind = placeholderKind(name);
      item.words = {name};
    } else {
      item.kind = CompletionKind::Literal;
      size_t start = 0;
      while (start <= tok.size()) {
        size_t bar = tok.find('|', start);
        if (bar == std::string_view::npos) bar = tok.size();
        item.words.emplace_back(tok.substr(start, bar - start));
        start = bar + 1;
      }
    }
    items.push_back(std::move(item));
  }
  return items;
}

namespace {

bool itemAccepts(const SyntaxItem& item, const std::string& word) {
  if (item.kind == CompletionKind::Literal) return std::find(item.words.begin(), item.words.end(), word) != item.words.end();
  if (!item.prefix.empty()) return word.rfind(item.prefix, 0) == 0;
  // A free-text slot never swallows an option: `--flag` belongs to a literal slot.
  return word.rfind("--", 0) != 0;
}

void collect(const std::vector<SyntaxItem>& items, size_t i, const std::vector<std::string>& words, size_t w,
             std::vector<SyntaxItem>& out) {
  if (i >= items.size()) return;
  if (w == words.size()) {
    out.push_back(items[i]);
    if (items[i].optional || items[i].repeat) collect(items, i + 1, words, w, out);
    return;
  }
  if (itemAccepts(items[i], words[w])) collect(items, items[i].repeat ? i : i + 1, words, w + 1, out);
  if (items[i].optional) collect(items, i + 1, words, w, out);
}

}  // namespace

std::vector<SyntaxItem> slotsAt(const Command& command, const std::vector<std::string>& before) {
  std::vector<SyntaxItem> out;
  for (const std::string& form : command.syntax) {
    std::string_view body = form;
    size_t space = body.find(' ');
    body = space == std::string_view::npos ? std::string_view() : body.substr(space + 1);
    collect(parseSyntax(body), 0, before, 0, out);
  }
  return out;
}

std::vector<Command> builtinCommands() {
  std::vector<Command> commands;
  addSessionCommands(commands);
  addNavigationCommands(commands);
  addViewCommands(commands);
  addCheckCommands(commands);
  addCodegenCommands(commands);
  addVerifyCommands(commands);
  addExpectCommands(commands);
  addReduceCommands(commands);
  addEditCommands(commands);
  addRemarkCommands(commands);
  // Help lists commands in the order of a session: load, run, look, export, leave.
  static const std::vector<std::string> kOrder = {
      "load", "reproduce", "pipeline", "passes", "step",  "next",  "stepin", "finish", "back",   "goto",
      "run",  "restart",   "break",    "delete", "enable", "disable", "show", "info",   "where",  "trace",
      "diff", "attrs",     "why",      "remarks", "why-not", "numeric", "bisect", "reduce", "edit", "branches", "build", "verify", "expect", "config", "set",   "save",  "source", "help",   "quit",
      "changes", "profile"};
  // A command kOrder does not name sits right after the one its family
  // registered before it (the stable sort keeps them in that order), so a new
  // command needs only its own file: its family's add*Commands places it.
  std::vector<std::ptrdiff_t> ranks(commands.size());
  for (size_t i = 0; i < commands.size(); ++i) {
    auto it = std::find(kOrder.begin(), kOrder.end(), commands[i].name);
    ranks[i] = it != kOrder.end() ? it - kOrder.begin() : i > 0 ? ranks[i - 1] : 0;
  }
  std::vector<size_t> order(commands.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ranks[a] < ranks[b]; });
  std::vector<Command> sorted;
  sorted.reserve(commands.size());
  for (size_t i : order) sorted.push_back(std::move(commands[i]));
  return sorted;
}

}  // namespace passlab
