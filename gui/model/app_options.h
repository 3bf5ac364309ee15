// passlab-gui's command line:
//   passlab-gui [FILE] [--input-shape NAME=D0,D1,...] [--no-check] [--pass-pipeline=SPEC]
//               [--script FILE] [--screenshot OUT.png]
//               [--frames N] [--size WxH] [--state-dir DIR] [--no-restore]
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace passlab::gui {

/// Parsed command line.
struct AppOptions {
  /// Model to load ("" = restore the saved session's).
  std::string modelPath;
  /// --input-shape NAME=D0,D1,... bindings for an ONNX model (as passlab takes them).
  std::vector<std::string> inputShapes;
  /// --no-check: load without type inference (as passlab's flag).
  bool noCheck = false;
  /// Pipeline text; set when --pass-pipeline was given (it may be empty to clear).
  std::optional<std::string> pipeline;
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
