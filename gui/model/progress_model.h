// What a long command is doing, for the progress bar the GUI draws while it
// runs (build, run, save report, reduce, numeric check, bisect, moves). The
// command runs on a worker thread (GuiSession::runLong) and reports through
// the workbench's progress listener and the interpreter's status line; the UI
// thread reads a snapshot each frame. No ImGui in here.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace passlab::gui {

/// One frame's view of the running command.
struct ProgressSnapshot {
  /// A command is running (the bar is shown).
  bool busy = false;
  /// The command as the user gave it ("build", "[Run]").
  std::string command;
  /// Its latest status line ("" before the first).
  std::string text;
  /// Steps done and their total (total 0: no known end, the bar sweeps).
  size_t done = 0, total = 0;
  /// Since the command started.
  double seconds = 0;
  /// Cancel was pressed: the command stops at its next check.
  bool cancelling = false;
  /// Status lines received (a screenshot waits for the first).
  size_t updates = 0;
};

/// Thread-safe: updates come from the command's thread, the frame reads from the UI's.
class ProgressModel {
 public:
  /// A command starts.
  void begin(std::string command);
  /// A status line from the command (any thread).
  void update(std::string text, size_t done, size_t total);
  /// Cancel was pressed (the caller also asks the workbench to stop).
  void markCancelling();
  /// The command returned.
  void end();
  ProgressSnapshot snapshot() const;

  /// `gui screenshot-progress FILE`: the next frame that shows the bar with a
  /// status line is written to FILE (for tests and documentation).
  void requestScreenshot(std::string path);
  /// The pending request, consumed ("" when none or the bar has no status line yet).
  std::string takeScreenshotRequest();

 private:
  mutable std::mutex mutex_;
  ProgressSnapshot state_;
  std::chrono::steady_clock::time_point started_;
  std::string screenshot_;
};

}  // namespace passlab::gui
