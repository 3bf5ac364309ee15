// passlab-gui's command line:
//   passlab-gui [FILE] [passlab's shared options: --input-shape, --no-check,
//               --pass-pipeline, --opt-level, --target, --config, --disabled-pass,
//               --required-pass, --syntax, --print-constants]
//               [--script FILE] [--screenshot OUT.png]
//               [--frames N] [--size WxH] [--state-dir DIR] [--no-restore]
// The shared options are passlab's own table (repl/session_options.h), parsed
// the same way, so a command line that loads a model in passlab loads it here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "repl/session_options.h"

namespace passlab::gui {

/// Parsed command line.
struct AppOptions {
  /// Model to load ("" = restore the saved session's).
  std::string modelPath;
  /// The options shared with passlab: load (--input-shape, --no-check), the
  /// pipeline (set when --pass-pipeline was given, even empty to clear), run
  /// settings, print syntax and constants.
  SessionOptions session;
  /// REPL/gui commands to run, one per frame.
  std::string scriptPath;
  /// Write the framebuffer here after the frames, then exit.
  std::string screenshotPath;
  /// Frames to draw before the screenshot / exit (-1: run until closed, or
  /// until the script is done when only a screenshot is asked for).
  int frames = -1;
  /// Window size in pixels.
  int width = 1600;
  int height = 1000;
  /// Where session.json and imgui.ini live ("" = SessionStore::defaultDirectory()).
  std::string stateDir;
  /// Start fresh: do not restore the saved session (it is still saved).
  bool noRestore = false;
  /// Wait for the display's refresh between frames.
  bool vsync = true;
  /// --help was asked for.
  bool help = false;
};

/// The usage text.
std::string appUsage();

/// Parses argv (without argv[0]); nullopt with `error` set on bad input.
std::optional<AppOptions> parseAppOptions(const std::vector<std::string>& args, std::string* error);

}  // namespace passlab::gui
