#include "repl/interpreter.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/ir/diagnostic.h"
#include "repl/format.h"
#include "core/ir/file_io.h"
#include "core/support/strings.h"
#include "core/workbench/setting_keys.h"

namespace passlab {
namespace {

constexpr int kMaxSourceDepth = 16;

/// Edit distance counting a swap of neighbours as one edit ("stpe" is one from
/// "step"), since transposed letters are the commonest typo at a prompt.
size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::vector<std::string> fileCandidates(std::string_view prefix) {
  namespace fs = std::filesystem;
  std::string p(prefix);
  size_t slash = p.rfind('/');
  std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : p.substr(0, slash));
  std::string base = slash == std::string::npos ? p : p.substr(slash + 1);
  std::string lead = slash == std::string::npos ? "" : p.substr(0, slash + 1);
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind(base, 0) != 0) continue;
    if (name[0] == '.' && (base.empty() || base[0] != '.')) continue;  // hidden files only when asked for
    std::error_code dirEc;
    out.push_back(lead + name + (it->is_directory(dirEc) ? "/" : ""));
  }
  return out;
}

}  // namespace

std::vector<std::string> settingKeys() {
  std::vector<std::string> keys(std::begin(kSettingKeyNames), std::end(kSettingKeyNames));
  keys.insert(keys.end(), std::begin(kModuleAttrSettingExamples), std::end(kModuleAttrSettingExamples));
  return keys;
}

CommandInterpreter::CommandInterpreter(Workbench& workbench, Style style)
    : workbench_(workbench), style_(style), commands_(builtinCommands()) {}

const Command* CommandInterpreter::find(std::string_view nameOrAlias) const {
  for (const Command& c : commands_) {
    if (c.name == nameOrAlias) return &c;
    if (std::find(c.aliases.begin(), c.aliases.end(), nameOrAlias) != c.aliases.end()) return &c;
  }
  return nullptr;
}

/// The flags (`--word`) a command's syntax forms mention: the only ones it accepts.
static std::vector<std::string> declaredFlags(const Command& command) {
  std::vector<std::string> flags;
  for (const std::string& form : command.syntax) {
    std::string word;
    for (size_t i = 0; i <= form.size(); ++i) {
      char c = i < form.size() ? form[i] : ' ';
      if (c == ' ' || c == '[' || c == ']' || c == '|') {
        if (word.rfind("--", 0) == 0 && std::find(flags.begin(), flags.end(), word) == flags.end()) flags.push_back(word);
        word.clear();
      } else {
        word += c;
      }
    }
  }
  return flags;
}

/// An error for the first `--word` argument the command does not declare, or nullopt.
/// Checked here, for every command, so a misspelt flag is never silently ignored.
static std::optional<std::string> unknownFlagMessage(const Command& command, const CommandArgs& args) {
  std::vector<std::string> flags = declaredFlags(command);
  for (const std::string& w : args.words()) {
    if (w.size() < 3 || w.rfind("--", 0) != 0 || !std::isalpha(static_cast<unsigned char>(w[2]))) continue;
    std::string flag = w.substr(0, w.find('='));
    if (std::find(flags.begin(), flags.end(), flag) != flags.end()) continue;
    std::string known;
    for (const std::string& f : flags) known += (known.empty() ? "" : ", ") + f;
    return "unknown flag '" + flag + "' for `" + command.name + "`" +
           (known.empty() ? std::string("; it takes no flags") : "; it takes " + known);
  }
  return std::nullopt;
}

CommandResult CommandInterpreter::runLine(std::string_view rawLine) {
  CommandResult result;
  std::string_view line = trim(rawLine);
  if (line.empty() || line.front() == '#') return result;
  size_t space = line.find_first_of(" \t");
  std::string name(line.substr(0, space));
  std::string_view rest = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
  const Command* command = find(name);
  if (!command) {
    std::string best;
    size_t bestDistance = 3;
    for (const Command& c : commands_) {
      size_t d = editDistance(name, c.name);
      if (d < bestDistance) bestDistance = d, best = c.name;
    }
    result.fail("unknown command '" + name + "'" + (best.empty() ? "" : "; did you mean '" + best + "'?") + " (`help` lists commands)");
    return result;
  }
  CommandArgs args(rest);
  if (std::optional<std::string> unknown = unknownFlagMessage(*command, args)) {
    result.fail(*unknown);
    return result;
  }
  CommandContext ctx{workbench_, *this, style_};
  try {
    command->run(ctx, args, result);
  } catch (const DiagnosticError& e) {
    result.fail(e.renderAll());
  } catch (const WorkbenchError& e) {
    result.fail(e.what());
  } catch (const std::exception& e) {
    result.fail(std::string("internal error: ") + e.what());
  }
  return result;
}

CommandResult CommandInterpreter::loadPasted(std::string text) {
  CommandResult result;
  try {
    workbench_.loadText(std::move(text), "<paste>");
    result.out(formatLoaded(workbench_, "<paste>", true));
  } catch (const DiagnosticError& e) {
    result.fail(e.renderAll());
  } catch (const WorkbenchError& e) {
    result.fail(e.what());
  }
  return result;
}

CommandResult CommandInterpreter::runScript(const std::string& text, const std::string& name, bool keepGoing, const LineSink& sink) {
  CommandResult total;
  if (sourceDepth_ >= kMaxSourceDepth) {
    total.fail("scripts nested too deeply (" + std::to_string(kMaxSourceDepth) + " levels): is '" + name + "' sourcing itself?");
    return total;
  }
  ++sourceDepth_;
  std::stringstream in(text);
  int lineNo = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineNo;
    std::string_view trimmed = trim(line);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    CommandResult lineResult;
    lineResult.out(std::string(kPrompt) + std::string(trimmed) + "\n");
    CommandResult ran = runLine(trimmed);
    lineResult.append(ran);
    lineResult.status = ran.status;
    bool failed = lineResult.status == CommandStatus::Error;
    bool quit = lineResult.status == CommandStatus::Quit;
    if (failed && !keepGoing)
      lineResult.err(name + ":" + std::to_string(lineNo) + ": stopping at the first error (--keep-going runs on)\n");
    if (sink) sink(lineResult);
    total.append(lineResult);
    if (quit) {
      total.status = total.status == CommandStatus::Error ? CommandStatus::Error : CommandStatus::Quit;
      break;
    }
    if (failed && !keepGoing) break;
  }
  --sourceDepth_;
  return total;
}

CommandResult CommandInterpreter::runScriptFile(const std::string& path, bool keepGoing, const LineSink& sink) {
  if (std::optional<std::string> why = unreadableFileReason(path)) {
    CommandResult result;
    result.fail("cannot read script '" + path + "': " + *why);
    if (sink) sink(result);
    return result;
  }
  return runScript(readRegularFile(path), path, keepGoing, sink);
}

std::vector<std::string> CommandInterpreter::candidates(const SyntaxItem& slot, std::string_view prefix) const {
  std::vector<std::string> all;
  switch (slot.kind) {
    case CompletionKind::None: break;
    case CompletionKind::Literal: all = slot.words; break;
    case CompletionKind::Command:
      for (const Command& c : commands_) {
        all.push_back(c.name);
        all.insert(all.end(), c.aliases.begin(), c.aliases.end());
      }
      break;
    case CompletionKind::PassName:
      for (const PassRegistration* r : workbench_.registry().all()) all.push_back(r->info.name);
      break;
    case CompletionKind::Pipeline: {
      // Complete the pass being typed after the last ',' and keep what precedes it.
      size_t comma = prefix.rfind(',');
      std::string lead(comma == std::string_view::npos ? std::string_view() : prefix.substr(0, comma + 1));
      std::string_view tail = comma == std::string_view::npos ? prefix : prefix.substr(comma + 1);
      std::vector<std::string> out;
      for (const PassRegistration* r : workbench_.registry().all())
        if (r->info.name.rfind(tail, 0) == 0) out.push_back(lead + r->info.name);
      return out;
    }
    case CompletionKind::FunctionName:
      if (workbench_.loaded()) all = workbench_.functionNames(workbench_.cursor());
      break;
    case CompletionKind::ConfigKey:
      for (const ConfigKeyInfo* k : ConfigRegistry::global().all()) all.push_back(k->key);
      for (const std::string& k : settingKeys()) all.push_back(k);
      break;
    case CompletionKind::FilePath: return fileCandidates(prefix);
    case CompletionKind::EventId:
      if (workbench_.loaded())
        for (const TraceEvent& ev : workbench_.trace().events()) all.push_back(std::to_string(ev.id));
      break;
    case CompletionKind::AttrKey: all = workbench_.attributeKeys(); break;
    case CompletionKind::DiagRule: all = workbench_.diagnosticRules(); break;
    case CompletionKind::BreakpointId:
      for (const Breakpoint& bp : workbench_.breakpoints()) all.push_back(std::to_string(bp.id));
      break;
  }
  std::vector<std::string> out;
  for (std::string& c : all) {
    std::string word = slot.prefix + c;
    if (word.rfind(prefix, 0) == 0) out.push_back(std::move(word));
  }
  return out;
}

Completion CommandInterpreter::complete(std::string_view line, size_t cursor) const {
  Completion completion;
  std::string_view upTo = line.substr(0, std::min(cursor, line.size()));
  size_t wordStart = upTo.find_last_of(" \t");
  wordStart = wordStart == std::string_view::npos ? 0 : wordStart + 1;
  completion.start = wordStart;
  std::string_view prefix = upTo.substr(wordStart);
  CommandArgs before(upTo.substr(0, wordStart));
  std::set<std::string> found;
  if (before.empty()) {
    SyntaxItem slot;
    slot.kind = CompletionKind::Command;
    for (std::string& c : candidates(slot, prefix)) found.insert(std::move(c));
  } else if (const Command* command = find(before[0])) {
    std::vector<std::string> words(before.words().begin() + 1, before.words().end());
    for (const SyntaxItem& slot : slotsAt(*command, words)) {
      if (slot.kind == CompletionKind::Pipeline) completion.appendSpace = false;
      for (std::string& c : candidates(slot, prefix)) found.insert(std::move(c));
    }
  }
  completion.candidates.assign(found.begin(), found.end());
  if (completion.candidates.size() == 1 && completion.candidates[0].back() == '/') completion.appendSpace = false;
  return completion;
}

std::string CommandInterpreter::helpIndex() const {
  size_t width = 0;
  for (const Command& c : commands_) width = std::max(width, c.name.size());
  std::string out = "commands (`help CMD` for details):\n";
  for (const Command& c : commands_) {
    out += "  " + style_.bold(c.name) + std::string(width - c.name.size() + 2, ' ') + c.summary;
    if (!c.aliases.empty()) {
      out += " (alias";
      for (const std::string& a : c.aliases) out += " " + a;
      out += ")";
    }
    out += "\n";
  }
  return out;
}

std::string CommandInterpreter::helpFor(const Command& c) const {
  std::string out = "usage:\n";
  for (const std::string& form : c.syntax) out += "  " + form + "\n";
  if (!c.aliases.empty()) {
    out += "aliases:";
    for (const std::string& a : c.aliases) out += " " + a;
    out += "\n";
  }
  out += "\n" + c.summary + "\n";
  if (!c.help.empty()) out += "\n" + c.help + (c.help.back() == '\n' ? "" : "\n");
  return out;
}

std::string CommandInterpreter::commandsMarkdown() const {
  std::string out =
      "# passlab commands\n\n"
      "<!-- Generated by `passlab --help-commands-markdown` from the command objects in repl/; "
      "edit those, then regenerate. A test checks this file is up to date. -->\n\n"
      "Every command runs the same way at the `(passlab)` prompt, in a `source` script, "
      "under `passlab --script FILE` and in the GUI console. Syntax: `<name>` is an argument, "
      "`[...]` is optional, `a|b` is a choice, `@<function>` is a global function written with `@`.\n\n";
  for (const Command& c : commands_) out += "- [`" + c.name + "`](#" + c.name + ") — " + c.summary + "\n";
  for (const Command& c : commands_) {
    out += "\n## " + c.name + "\n\n```\n";
    for (const std::string& form : c.syntax) out += form + "\n";
    out += "```\n\n";
    if (!c.aliases.empty()) {
      out += "Aliases:";
      for (const std::string& a : c.aliases) out += " `" + a + "`";
      out += "\n\n";
    }
    out += c.summary + "\n";
    if (!c.help.empty()) out += "\n" + c.help + (c.help.back() == '\n' ? "" : "\n");
  }
  return out;
}

}  // namespace passlab
