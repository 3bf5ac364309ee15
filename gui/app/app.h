// The desktop application: a GLFW window with an OpenGL 3 context, ImGui's
// GLFW and OpenGL3 backends (both inside Debian's libimgui.a), the frame loop,
// the start-up restore of the saved session, scripts, and PNG screenshots read
// back from the framebuffer.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "gui/model/app_options.h"
#include "gui/model/gui_session.h"
#include "gui/app/retained_frame.h"
#include "gui/model/script_runner.h"
#include "gui/panels/main_window.h"

struct GLFWwindow;

namespace passlab::gui {

/// One passlab-gui window.
class GuiApp {
 public:
  /// An application configured by `options` (nothing opened yet).
  explicit GuiApp(AppOptions options);
  ~GuiApp();
  GuiApp(const GuiApp&) = delete;
  GuiApp& operator=(const GuiApp&) = delete;

  /// Opens the window, sets up ImGui, restores the session and loads what the
  /// command line names. False with `error` when there is no display or GL.
  bool init(std::string* error);
  /// Draws one frame (script line, input, UI, render, screenshot requests, swap).
  void frame();
  /// True once the window was closed, `quit` ran, or the frames/screenshot are done.
  bool done() const;
  /// init, frames until done, shutdown; the process exit status.
  int run();
  /// Releases ImGui and the window (also done by the destructor).
  void shutdown();

  /// Writes the current back buffer (after rendering) to `path` as PNG.
  bool writeScreenshot(const std::string& path, std::string* error);

  GuiSession& session() { return *session_; }
  MainWindow& window() { return *window_; }
  /// Notes user input (GLFW callbacks), so an idle window can stop redrawing.
  void noteInput() { lastInputFrame_ = frames_; }
  /// The next frame draws and shows the whole window (it was exposed).
  void invalidatePicture() { retained_.invalidate(); }
  /// Frames drawn so far.
  int frameCount() const { return frames_; }
  /// Where the last frame's time went (wall clock, milliseconds).
  struct FrameTiming {
    /// Script line, input, NewFrame, every panel, Render: the CPU side of the UI.
    double uiMs = 0;
    /// The same span in CPU time of the UI thread: what the UI costs, without
    /// the waits for a core on a loaded machine that the wall clock includes.
    double uiCpuMs = 0;
    /// OpenGL draw calls and the buffer swap (rasterisation with a software renderer).
    double renderMs = 0;
  };
  const FrameTiming& lastFrameTiming() const { return timing_; }
  /// Window pixels the last frame drew again (the rest was kept from the frame before).
  long long lastRedrawnPixels() const { return retained_.lastRedrawnPixels(); }
  /// Called after the backends read input and before ImGui::NewFrame, so a
  /// benchmark can inject keys, mouse position and wheel.
  std::function<void()> beforeNewFrame;

 private:
  void restoreAtStart();
  /// One frame while a long command runs on its worker thread: input, the
  /// progress bar over the last frame, render, a pending progress screenshot
  /// (GuiSession::setBusyPump). At most about 30 a second.
  void busyFrame();
  /// True when nothing can change without input: no script running, no
  /// screenshot or frame count pending, and a few frames since the last input
  /// (ImGui needs them to settle hover and focus). Then run() sleeps until an
  /// event instead of redrawing the same frame, sparing a machine that is busy compiling.
  bool idle() const;

  AppOptions options_;
  std::unique_ptr<GuiSession> session_;
  std::unique_ptr<MainWindow> window_;
  std::optional<ScriptRunner> script_;
  GLFWwindow* glfw_ = nullptr;
  bool imguiReady_ = false;
  bool fontFilterSet_ = false;
  std::string iniPath_;
  int frames_ = 0;
  int lastInputFrame_ = 0;
  FrameTiming timing_;
  /// The window's picture between frames; each frame redraws what changed.
  RetainedFrame retained_;
  /// The last frame before the running command, as a texture (0: none yet).
  unsigned busyTexture_ = 0;
  int busyTextureW_ = 0, busyTextureH_ = 0;
  /// Busy frames drawn for the running command (0: none yet).
  int busyFrames_ = 0;
  /// The ImGui context of the busy frames: a command can start inside the
  /// main context's frame (a button, the console), which a second NewFrame
  /// there would break. Made at the first long command.
  struct ImGuiContext* busyContext_ = nullptr;
  /// The frame at which the script finished (-1 while running).
  int scriptDoneFrame_ = -1;
  bool finished_ = false;
  int exitStatus_ = 0;
};

}  // namespace passlab::gui
