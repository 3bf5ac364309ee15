// The window's picture kept between frames, for software rasterisers: each
// frame redraws only the rectangles whose draw commands changed
// (gui/model/frame_damage.h) into a back buffer that is never swapped, and
// copies just those rectangles to the window (GLX_MESA_copy_sub_buffer). With
// Mesa's llvmpipe (Xvfb, machines without a GPU) most of a frame's cost is
// shading pixels, and while the user pans a graph or scrolls a list most of
// the window is what it was. With a GPU, or without the extension, every
// frame is drawn whole and swapped (vsync, no tearing).
#pragma once

#include <imgui.h>

#include <vector>

#include "gui/model/frame_damage.h"

struct GLFWwindow;

namespace passlab::gui {

/// The retained picture of one GLFW window (its context current on this thread).
class RetainedFrame {
 public:
  /// Decides the mode for `window`: retained when the renderer is a software
  /// rasteriser and GLX_MESA_copy_sub_buffer is there. Returns that choice.
  bool init(GLFWwindow* window);
  /// True when frames are drawn retained.
  bool retained() const { return copySubBuffer_ != nullptr; }
  /// Draws `drawData` (after ImGui::Render) into the back buffer, `fbw` ×
  /// `fbh` pixels: where it changed (retained), or whole over `clear`.
  /// `renderAll` is ImGui_ImplOpenGL3_RenderDrawData.
  void render(ImDrawData* drawData, int fbw, int fbh, ImVec4 clear, void (*renderAll)(ImDrawData*));
  /// Shows the frame: copies the redrawn rectangles to the window, or swaps.
  /// Retained frames are not paced by the swap (vsync): with `vsync` they are
  /// shown no more often than 60 times a second, so a cheap frame does not
  /// turn into hundreds a second of a core while the user drags.
  void present(bool vsync);
  /// The next frame is drawn and shown whole (the window was exposed, or the
  /// back buffer was used for something else, such as the progress bar's frames).
  void invalidate() { damage_.invalidate(); }
  /// Pixels the last render() redrew.
  long long lastRedrawnPixels() const { return redrawn_; }

 private:
  GLFWwindow* window_ = nullptr;
  void (*copySubBuffer_)(void*, unsigned long, int, int, int, int) = nullptr;
  void* display_ = nullptr;
  unsigned long drawable_ = 0;
  FrameDamage damage_;
  std::vector<PixelRect> shown_;
  int height_ = 0;
  long long redrawn_ = 0;
  /// When the last retained frame was shown (steady clock, nanoseconds).
  long long lastPresentNs_ = 0;
};

}  // namespace passlab::gui
