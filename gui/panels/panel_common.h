// Small ImGui helpers shared by the panels: palette conversion, splitters,
// empty-state text. Panels draw; they never compute what to draw (that is the
// view models' job) and never call the workbench to change it except through
// GuiSession.
#pragma once

#include <imgui.h>

#include <memory>
#include <string>
#include <string_view>

#include "gui/model/gui_session.h"
#include "gui/model/palette.h"

namespace passlab::gui {

/// A palette colour as ImGui's packed colour.
inline ImU32 imColour(ColourRole role) {
  Rgba c = colourOf(role);
  return IM_COL32(c.r, c.g, c.b, c.a);
}
/// A palette colour as ImGui's float colour.
inline ImVec4 imColourVec(ColourRole role) {
  Rgba c = colourOf(role);
  return ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, c.a / 255.f);
}

/// Text in a palette colour.
void textColoured(ColourRole role, std::string_view text);

/// A draggable bar between two areas. `size` is the first area's size along
/// the split, clamped so both areas keep at least `minSize`; returns true while
/// dragged. Vertical means a vertical bar (splitting left from right).
bool splitter(const char* id, bool vertical, float total, float* size, float minSize, float thickness = 5.f);

/// Centered, wrapped, dimmed text for a panel with nothing to show.
void emptyState(std::string_view message);

/// A "(?)" that shows `text` on hover.
void helpMarker(const char* text);

/// Width in pixels of one character of the current (monospace) font.
float charWidth();

/// Fills the rectangle [a, b) of `dl`, clipped to its current clip rectangle,
/// with the opaque `colour`. With the app's renderer this is a scissored clear
/// of the framebuffer rather than two shaded triangles: a software rasteriser
/// (Mesa llvmpipe under Xvfb) clears memory many times faster than it runs the
/// fragment shader over the same pixels, and a graph canvas is half the window.
/// Without one (headless tests) it is an ordinary filled rectangle.
void fillOpaqueRect(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour);
/// Installs the draw callback fillOpaqueRect records (gui/app: it clears the
/// command's clip rectangle to the colour packed in its UserCallbackData);
/// null goes back to filled rectangles.
void setOpaqueFillCallback(ImDrawCallback callback);

/// Every panel of the main window draws through one of these.
class Panel {
 public:
  virtual ~Panel() = default;
  /// Draws the panel's content into the current window/child.
  virtual void draw(GuiSession& session) = 0;
  /// What the panel's tab title adds to its title, e.g. " (3)" for three
  /// diagnostics ("" = nothing).
  virtual std::string badge(GuiSession& /*session*/) { return ""; }
};

/// Makes the bottom tab panel `id`: each tab panel's file defines its own
/// (gui/model/panels.def lists them), and the main window makes its tabs with them.
template <PanelId id>
std::unique_ptr<Panel> makeTabPanel();
#define PASSLAB_PANEL(id, key, title)
#define PASSLAB_TAB_PANEL(id, key, title, tab) \
  template <>                                   \
  std::unique_ptr<Panel> makeTabPanel<PanelId::id>();
#include "gui/model/panels.def"

}  // namespace passlab::gui
