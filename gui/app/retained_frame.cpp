#include "gui/app/retained_frame.h"

#include <GL/gl.h>
#include <GLFW/glfw3.h>

// GLFW's X11 accessors (glfw3native.h would pull in Xrandr's headers, which
// Debian ships apart): the display, and the window's GLX drawable (an XID).
extern "C" {
void* glfwGetX11Display(void);
unsigned long glfwGetGLXWindow(GLFWwindow* window);
}

#include <algorithm>
#include <chrono>
#include <thread>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace passlab::gui {
namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

uint64_t bits(float a, float b) {
  uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return static_cast<uint64_t>(x) | static_cast<uint64_t>(y) << 32;
}

PixelRect outwards(float x0, float y0, float x1, float y1) {
  if (x1 <= x0 || y1 <= y0) return {};
  return PixelRect{static_cast<int>(std::floor(x0)), static_cast<int>(std::floor(y0)), static_cast<int>(std::ceil(x1)),
                   static_cast<int>(std::ceil(y1))};
}

/// The damage tracker's view of one draw command.
DrawItem itemOf(const ImDrawList& list, const ImDrawCmd& cmd) {
  DrawItem item;
  item.list = list._OwnerName ? list._OwnerName : "";
  const ImVec4 clip = cmd.ClipRect;
  uint64_t h = mix(bits(clip.x, clip.y), bits(clip.z, clip.w));
  if (cmd.UserCallback) {
    // fillOpaqueRect's clear: its pixels are its clip rectangle.
    h = mix(h, reinterpret_cast<uintptr_t>(cmd.UserCallback));
    item.head = mix(h, reinterpret_cast<uintptr_t>(cmd.UserCallbackData));
    item.triangles.push_back(0);
    item.rects.push_back(outwards(clip.x, clip.y, clip.z, clip.w));
    return item;
  }
  item.head = mix(h, reinterpret_cast<uintptr_t>(cmd.TextureId));
  item.triangles.reserve(cmd.ElemCount / 3);
  item.rects.reserve(cmd.ElemCount / 3);
  const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
  const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
  for (unsigned i = 0; i + 2 < cmd.ElemCount; i += 3) {
    uint64_t t = 0;
    float x0 = clip.z, y0 = clip.w, x1 = clip.x, y1 = clip.y;
    for (unsigned k = 0; k < 3; ++k) {
      const ImDrawVert& v = vtx[idx[i + k]];
      t = mix(mix(mix(t, bits(v.pos.x, v.pos.y)), bits(v.uv.x, v.uv.y)), v.col);
      x0 = std::min(x0, v.pos.x), y0 = std::min(y0, v.pos.y), x1 = std::max(x1, v.pos.x), y1 = std::max(y1, v.pos.y);
    }
    item.triangles.push_back(t);
    item.rects.push_back(outwards(std::max(x0, clip.x), std::max(y0, clip.y), std::min(x1, clip.z), std::min(y1, clip.w)));
  }
  return item;
}

/// The scissor ImGui's OpenGL3 backend sets for `clip` (it truncates), as a
/// top-down pixel rectangle of a framebuffer `fbh` pixels high.
PixelRect scissorOf(const ImVec4& clip, int fbh) {
  const int x = static_cast<int>(clip.x), w = static_cast<int>(clip.z - clip.x);
  const int gy = static_cast<int>(static_cast<float>(fbh) - clip.w), h = static_cast<int>(clip.w - clip.y);
  return PixelRect{x, fbh - (gy + h), x + w, fbh - gy};
}

}  // namespace

bool RetainedFrame::init(GLFWwindow* window) {
  window_ = window;
  copySubBuffer_ = nullptr;
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const std::string name = renderer ? renderer : "";
  const bool software = name.find("llvmpipe") != std::string::npos || name.find("softpipe") != std::string::npos ||
                        name.find("swrast") != std::string::npos;
  if (!software || std::getenv("PASSLAB_GUI_FULL_REDRAW") || !glfwExtensionSupported("GLX_MESA_copy_sub_buffer")) return false;
  copySubBuffer_ = reinterpret_cast<void (*)(void*, unsigned long, int, int, int, int)>(glfwGetProcAddress("glXCopySubBufferMESA"));
  display_ = glfwGetX11Display();
  drawable_ = glfwGetGLXWindow(window);
  if (!display_ || !drawable_) copySubBuffer_ = nullptr;
  damage_.invalidate();
  return retained();
}

void RetainedFrame::render(ImDrawData* dd, int fbw, int fbh, ImVec4 clear, void (*renderAll)(ImDrawData*)) {
  const bool plain = dd->DisplayPos.x == 0 && dd->DisplayPos.y == 0 && dd->FramebufferScale.x == 1 && dd->FramebufferScale.y == 1;
  height_ = fbh;
  glViewport(0, 0, fbw, fbh);
  glClearColor(clear.x, clear.y, clear.z, clear.w);
  if (!retained() || !plain || fbw <= 0 || fbh <= 0) {
    glClear(GL_COLOR_BUFFER_BIT);
    renderAll(dd);
    redrawn_ = static_cast<long long>(fbw) * fbh;
    shown_.assign(1, PixelRect{0, 0, fbw, fbh});
    damage_.invalidate();
    return;
  }
  std::vector<DrawItem> items;
  for (int l = 0; l < dd->CmdListsCount; ++l)
    for (const ImDrawCmd& cmd : dd->CmdLists[l]->CmdBuffer) items.push_back(itemOf(*dd->CmdLists[l], cmd));
  shown_ = damage_.update(std::move(items), PixelRect{0, 0, fbw, fbh});
  redrawn_ = 0;
  if (shown_.empty()) return;
  glEnable(GL_SCISSOR_TEST);
  for (const PixelRect& r : shown_) {
    glScissor(r.x0, fbh - r.y1, r.x1 - r.x0, r.y1 - r.y0);
    glClear(GL_COLOR_BUFFER_BIT);
    redrawn_ += r.area();
  }
  // Every command again, each limited to the part of its own scissor inside
  // the damaged rectangle: the pixels there come out as a whole redraw's.
  std::vector<ImVec4> clips;
  for (int l = 0; l < dd->CmdListsCount; ++l)
    for (const ImDrawCmd& cmd : dd->CmdLists[l]->CmdBuffer) clips.push_back(cmd.ClipRect);
  for (const PixelRect& r : shown_) {
    size_t k = 0;
    for (int l = 0; l < dd->CmdListsCount; ++l)
      for (ImDrawCmd& cmd : dd->CmdLists[l]->CmdBuffer) {
        PixelRect s = intersect(scissorOf(clips[k++], fbh), r);
        cmd.ClipRect = ImVec4(static_cast<float>(s.x0), static_cast<float>(s.y0), static_cast<float>(s.x1), static_cast<float>(s.y1));
      }
    renderAll(dd);
  }
  size_t k = 0;
  for (int l = 0; l < dd->CmdListsCount; ++l)
    for (ImDrawCmd& cmd : dd->CmdLists[l]->CmdBuffer) cmd.ClipRect = clips[k++];
  glDisable(GL_SCISSOR_TEST);
}

void RetainedFrame::present(bool vsync) {
  if (!retained()) {
    glfwSwapBuffers(window_);
    return;
  }
  using Clock = std::chrono::steady_clock;
  if (vsync) {
    const auto due = Clock::time_point(std::chrono::nanoseconds(lastPresentNs_)) + std::chrono::microseconds(16667);
    if (Clock::now() < due) std::this_thread::sleep_until(due);
  }
  lastPresentNs_ = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
  // The back buffer is never swapped, so it keeps the whole picture; the
  // window gets the parts that changed (GL rows run bottom-up).
  for (const PixelRect& r : shown_) copySubBuffer_(display_, drawable_, r.x0, height_ - r.y1, r.x1 - r.x0, r.y1 - r.y0);
  shown_.clear();
}

}  // namespace passlab::gui
