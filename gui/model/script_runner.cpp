#include "gui/model/script_runner.h"
#include "core/ir/file_io.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace passlab::gui {

ScriptRunner::ScriptRunner(const std::string& text, std::string name) : name_(std::move(name)) {
  std::stringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#') continue;
    size_t e = line.find_last_not_of(" \t\r");
    lines_.push_back(Line{number, line.substr(b, e - b + 1)});
  }
}

ScriptRunner ScriptRunner::fromFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::optional<std::string> why = unreadableFileReason(path);
  if (!in || why) {
    ScriptRunner r("", path);
    r.failed_ = true;
    r.message_ = "cannot read script '" + path + "'" + (why ? ": " + *why : "");
    return r;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  return ScriptRunner(buf.str(), path);
}

bool ScriptRunner::tick(GuiSession& session) {
  if (finished()) return false;
  if (session.view().waitFrames > 0) {
    --session.view().waitFrames;
    return true;
  }
  const Line& line = lines_[next_++];
  ++run_;
  CommandResult result = session.runCommand(line.text, /*userTyped=*/false);
  if (!result.ok()) {
    failed_ = true;
    std::string error = result.error();
    while (!error.empty() && error.back() == '\n') error.pop_back();
    message_ = name_ + ":" + std::to_string(line.number) + ": " + error;
  }
  return !finished();
}

void ScriptRunner::runAll(GuiSession& session) {
  while (!finished()) {
    session.view().waitFrames = 0;
    tick(session);
  }
  session.view().waitFrames = 0;
}

}  // namespace passlab::gui
