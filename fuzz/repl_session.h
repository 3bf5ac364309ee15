// Random REPL sessions built from the commands' own syntax data, for the
// command-line fuzzer (fuzz/repl_fuzzer.cpp) and its fixed-seed run in the
// suite (tests/cli/test_repl_session_fuzz.cpp).
//
// A line is one of a command's syntax forms with its slots filled: literals
// from the form, placeholders from the interpreter's completions (real pass
// names, functions, events, keys) or, one time in four, from a list of
// hostile words (huge and negative numbers, unterminated quotes, absent
// functions, control bytes). The choices come from a caller's source of
// numbers, so libFuzzer's bytes steer them and a seeded generator replays them.
#pragma once

#include <cstdint>
#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "repl/command.h"
#include "repl/interpreter.h"

namespace passlab::fuzz {

/// Returns a number in [0, bound) (bound >= 1).
using Chooser = std::function<uint32_t(uint32_t bound)>;

/// Words no real completion offers: each has broken a command somewhere.
inline const std::vector<std::string>& hostileWords() {
  static const std::vector<std::string> words{
      "0", "-1", "2147483648", "99999999999", "-9223372036854775808", "1e309", "nan", "\"", "\"unterminated", "''",
      "@", "@nosuch", "%", "%99999", "#", "#-1", "#999999", "--", "--frob", "=", "a=b=c", "{", "}", "(", ")", "[", "]",
      ",", ",,", "InferType{", "FuseOps{fuse_opt_level=9}", "g(g(g(", "\x01", "\xc3", "\xff\xfe", "données", "..", "/",
      "/dev/null", "/dev/zero", ".", "nosuch.relay", "x.py", "-o", "--all", "--seed", "--repeat", "1G", "0x10"};
  return words;
}

/// Commands a session leaves out: they leave the session, wait for an
/// editor, or search for minutes (reduce, bisect: covered by their own
/// tests). `source` and `reproduce` would read the session's own files.
inline const std::set<std::string>& excludedCommands() {
  static const std::set<std::string> names{"quit", "exit", "edit", "reduce", "bisect", "source", "reproduce"};
  return names;
}

/// Appends words for `form` (the part of a syntax form after the command
/// name) to `line`. Bracketed groups (`[--seed <n>]`, nested ones too) are
/// taken or left whole; each word is a slot as parseSyntax reads it.
inline void fillForm(const CommandInterpreter& interpreter, const Chooser& choose, std::string_view form, std::string& line) {
  auto word = [&](const std::string& w) { line += " " + w; };
  auto hostile = [&] { word(hostileWords()[choose(static_cast<uint32_t>(hostileWords().size()))]); };
  size_t i = 0;
  while (i < form.size()) {
    if (form[i] == ' ') {
      ++i;
      continue;
    }
    size_t end = i;
    if (form[i] == '[') {
      // The matching bracket closes the group.
      int depth = 0;
      for (; end < form.size(); ++end) {
        if (form[end] == '[') ++depth;
        else if (form[end] == ']' && --depth == 0) break;
      }
      std::string_view inner = form.substr(i + 1, std::min(end, form.size()) - i - 1);
      bool repeat = end + 3 < form.size() && form.substr(end + 1, 3) == "...";
      if (choose(2) == 0)
        for (uint32_t times = repeat ? 1 + choose(3) : 1; times > 0; --times) fillForm(interpreter, choose, inner, line);
      i = end + 1 + (repeat ? 3 : 0);
      continue;
    }
    while (end < form.size() && form[end] != ' ') ++end;
    std::vector<SyntaxItem> slots = parseSyntax(form.substr(i, end - i));
    i = end;
    for (const SyntaxItem& slot : slots) {
      for (uint32_t times = slot.repeat ? 1 + choose(3) : 1; times > 0; --times) {
        if (slot.kind == CompletionKind::Literal && !slot.words.empty()) {
          word(slot.words[choose(static_cast<uint32_t>(slot.words.size()))]);
          continue;
        }
        std::vector<std::string> options = interpreter.candidates(slot, "");
        if (options.empty() && slot.kind == CompletionKind::None)
          options = {"1", "2", "3", "10", "0.5"};  // free text is mostly a count, a seed or a threshold
        if (options.empty() || choose(4) == 0) hostile();
        else word(options[choose(static_cast<uint32_t>(options.size()))]);  // completions carry their prefix
      }
    }
  }
}

/// One random command line over `interpreter`'s commands.
inline std::string randomCommandLine(const CommandInterpreter& interpreter, const Chooser& choose) {
  std::vector<const Command*> usable;
  for (const Command& c : interpreter.commands())
    if (!excludedCommands().count(c.name)) usable.push_back(&c);
  const Command& command = *usable[choose(static_cast<uint32_t>(usable.size()))];
  std::string line = command.name;
  auto word = [&](const std::string& w) { line += " " + w; };
  auto hostile = [&] { word(hostileWords()[choose(static_cast<uint32_t>(hostileWords().size()))]); };
  if (command.syntax.empty() || choose(16) == 0) {
    for (uint32_t n = choose(4); n > 0; --n) hostile();
    return line;
  }
  const std::string& form = command.syntax[choose(static_cast<uint32_t>(command.syntax.size()))];
  size_t space = form.find(' ');
  if (space != std::string::npos) fillForm(interpreter, choose, std::string_view(form).substr(space + 1), line);
  if (choose(8) == 0) hostile();
  return line;
}

}  // namespace passlab::fuzz
