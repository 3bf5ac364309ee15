// Frame-to-frame damage: which parts of the window a frame must redraw. The
// app renders each frame into an offscreen colour buffer that keeps the last
// frame; only the rectangles whose drawing changed are cleared and drawn again,
// and the buffer is copied to the window. While a graph canvas pans, that is
// the canvas and the status line's frame time, not the trace, the IR view and
// the toolbar, which a software rasteriser (Mesa llvmpipe) would otherwise shade
// again every frame. No ImGui in here: the app turns ImGui's draw commands into
// DrawItems (gui/app/app.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace passlab::gui {

/// A rectangle of window pixels, [x0, x1) × [y0, y1), top-down.
struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  /// True when it holds no pixel.
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  /// Its pixels (0 when empty).
  long long area() const { return empty() ? 0 : static_cast<long long>(x1 - x0) * (y1 - y0); }
  friend bool operator==(const PixelRect&, const PixelRect&) = default;
};

/// The smallest rectangle holding both (an empty one holds nothing).
PixelRect unite(const PixelRect& a, const PixelRect& b);
/// The part both hold (empty when none).
PixelRect intersect(const PixelRect& a, const PixelRect& b);

/// One draw command of a frame: the draw list it belongs to, a hash of what
/// applies to all of it (clip rectangle, texture), and its triangles, each as
/// a hash of its vertices (position, texture coordinates, colour) and the
/// pixels it can touch (its bounding box within the clip rectangle, rounded
/// outwards). A command without triangles (a callback) is one "triangle"
/// covering what it draws.
struct DrawItem {
  /// The draw list (window) by name; items of one list are consecutive, in drawing order.
  std::string list;
  /// What applies to the whole command (clip rectangle, texture, callback).
  uint64_t head = 0;
  /// Per triangle: a hash of its three vertices, and its pixels.
  std::vector<uint64_t> triangles;
  std::vector<PixelRect> rects;
};

/// Compares each frame's draw items with the last frame's and says what to redraw.
class FrameDamage {
 public:
  /// At most this many rectangles come back; more are merged (least added area first).
  static constexpr size_t kMaxRects = 3;
  /// The rectangles of `window` to redraw for a frame drawn as `items`: the
  /// old and new pixels of every command that appeared or went away, and of
  /// the triangles that changed in the others (between their longest common
  /// head and tail, so a status line's new text at the end of the main
  /// window's command is not the whole window). A list whose number of
  /// commands changed is redrawn whole, and a
  /// change in the order of the lists, the window's size, or invalidate()
  /// redraws the whole window. Empty when nothing changed.
  std::vector<PixelRect> update(std::vector<DrawItem> items, const PixelRect& window);
  /// The next update redraws the whole window (a new buffer, a lost picture).
  void invalidate() { valid_ = false; }

 private:
  std::vector<DrawItem> last_;
  PixelRect window_;
  bool valid_ = false;
};

}  // namespace passlab::gui
