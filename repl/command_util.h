// Argument helpers shared by the command definitions (repl/commands_*.cpp).
#pragma once

#include <charconv>
#include <limits>
#include <string>

#include "core/workbench/workbench.h"
#include "repl/command.h"
#include "repl/interpreter.h"

namespace passlab::command_util {

/// Parses a positive count ("3"); WorkbenchError names the bad text.
inline int parseCount(const std::string& text) {
  int n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 1)
    throw WorkbenchError("expected a count from 1 to " + std::to_string(std::numeric_limits<int>::max()) + ", got '" + text + "'");
  return n;
}

/// Parses an event id ("5" or "#5").
inline int parseEventId(const std::string& text) {
  std::string digits = !text.empty() && text[0] == '#' ? text.substr(1) : text;
  int n = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || n < 0)
    throw WorkbenchError("expected an event id such as 3 or #3, got '" + text + "'");
  return n;
}

/// True for a branch reference: `b1` or `b1:5` (branch 1, event 5).
inline bool isBranchRef(const std::string& text) {
  return text.size() >= 2 && text[0] == 'b' && text[1] >= '0' && text[1] <= '9';
}

/// Parses `b1` (event -1: the branch's own cursor) or `b1:5` / `b1:#5`.
inline std::pair<int, int> parseBranchRef(const std::string& text) {
  size_t colon = text.find(':');
  std::string digits = text.substr(1, colon == std::string::npos ? std::string::npos : colon - 1);
  int branch = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), branch);
  if (!isBranchRef(text) || ec != std::errc() || end != digits.data() + digits.size())
    throw WorkbenchError("expected a branch such as b1 or b1:5, got '" + text + "'");
  return {branch, colon == std::string::npos ? -1 : parseEventId(text.substr(colon + 1))};
}

/// The usage error for `command`: "usage: FORM" for each form.
inline std::string usage(const Command& command) {
  std::string out = "usage:";
  for (const std::string& form : command.syntax) out += (command.syntax.size() > 1 ? "\n  " : " ") + form;
  return out;
}

/// Fails `result` with the usage of the command named `name` when `args` has
/// more than `max` words; returns whether it failed.
inline bool tooMany(CommandContext& ctx, const CommandArgs& args, size_t max, const char* name, CommandResult& result) {
  if (args.size() <= max) return false;
  const Command* command = ctx.interpreter.find(name);
  result.fail("unexpected argument '" + args[max] + "'; " + (command ? usage(*command) : std::string()));
  return true;
}

}  // namespace passlab::command_util
