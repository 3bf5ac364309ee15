// `passlab-gui --script FILE`: REPL command lines (plus `gui ...` lines) run
// through the session's console, one line per frame, so a script drives the
// real GUI the way a user would and every step is drawn. `gui wait N` lets N
// frames pass. Like `passlab --script`, it stops at the first failing line.
#pragma once

#include <string>
#include <vector>

#include "gui/model/gui_session.h"

namespace passlab::gui {

/// Runs a script against a GuiSession, a line at a time.
class ScriptRunner {
 public:
  /// A runner over `text`; `name` appears in messages ("demo.plc:3: ...").
  ScriptRunner(const std::string& text, std::string name);
  /// Reads a script file; an unreadable file gives a runner that has failed.
  static ScriptRunner fromFile(const std::string& path);

  /// Called once per frame: runs the next command line unless a `gui wait` is
  /// pending. Returns true while there is more to do.
  bool tick(GuiSession& session);
  /// Runs every remaining line now, ignoring waits (for tests and benchmarks).
  void runAll(GuiSession& session);

  bool finished() const { return next_ >= lines_.size() || failed_; }
  bool failed() const { return failed_; }
  /// Why the script stopped ("" while fine).
  const std::string& message() const { return message_; }
  /// Lines run so far.
  size_t linesRun() const { return run_; }

 private:
  struct Line {
    int number;
    std::string text;
  };
  std::vector<Line> lines_;
  std::string name_;
  size_t next_ = 0;
  size_t run_ = 0;
  bool failed_ = false;
  std::string message_;
};

}  // namespace passlab::gui
