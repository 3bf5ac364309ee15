#include "repl/paste.h"

#include <array>

namespace passlab {

namespace {

constexpr std::array<std::string_view, 8> kModuleStarts = {"#[version", "def @",         "# from tvm.script", "from tvm.script import",
                                                           "import tvm", "@I.ir_module", "@R.function",       "@T.prim_func"};

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

}  // namespace

bool ModulePaste::startsModuleText(std::string_view line) {
  size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) return false;
  line.remove_prefix(start);
  for (std::string_view prefix : kModuleStarts)
    if (line.substr(0, prefix.size()) == prefix) return true;
  return false;
}

ModulePaste::Feed ModulePaste::feed(std::string_view line, const std::function<bool(std::string_view)>& isCommand) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (active_ && !blank(line) && line.front() != ' ' && line.front() != '\t' && depth_ <= 0 && !startsModuleText(line)) {
    std::string_view word = line.substr(0, line.find_first_of(" \t"));
    if (isCommand && isCommand(word)) return Feed::DoneNotTaken;
  }
  active_ = true;
  if (blank(line)) {
    const bool end = lastBlank_;
    lastBlank_ = true;
    text_ += '\n';
    return end ? Feed::Done : Feed::Continue;
  }
  lastBlank_ = false;
  // Brackets outside strings and comments (`//` in Relay text, `#` in TVMScript
  // outside `#[`): a line inside an open bracket is never taken for a command.
  bool inString = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
    else if (c == '#' && (i + 1 >= line.size() || line[i + 1] != '[')) break;
    else if (c == '{' || c == '[' || c == '(') ++depth_;
    else if (c == '}' || c == ']' || c == ')') depth_ -= 1;
  }
  text_.append(line);
  text_ += '\n';
  return Feed::Continue;
}

std::string ModulePaste::take() {
  std::string out = std::move(text_);
  text_.clear();
  active_ = false;
  depth_ = 0;
  lastBlank_ = false;
  return out;
}

}  // namespace passlab
