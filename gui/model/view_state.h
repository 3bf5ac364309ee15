// The state every panel shares, as in Tracy: which event is shown, the function
// filter and search of the IR view, pending scroll requests, which panels are
// open, and the layout fractions. Plain data: panels read and write it, the
// session (gui_session.h) keeps it consistent with the workbench.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gui/model/attr_timeline_model.h"
#include "gui/model/diagnostics_model.h"
#include "gui/model/remarks_model.h"
#include "gui/model/trace_model.h"

namespace passlab::gui {

/// The panels of the main window (gui/model/panels.def).
enum class PanelId : uint8_t {
#define PASSLAB_PANEL(id, key, title) id,
#include "gui/model/panels.def"
  Count
};
inline constexpr size_t kPanelCount = static_cast<size_t>(PanelId::Count);

/// Short name used by `gui panel NAME` and imgui.ini: trace, ir, diagnostics,
/// attrs, config, numerics, codegen, console, graph, remarks.
std::string_view panelKey(PanelId id);
/// Title shown on the panel's tab or header.
const char* panelTitle(PanelId id);
/// The panel whose key is `key`, or nullopt.
std::optional<PanelId> panelFromKey(std::string_view key);
/// Every panel key, in order (for completion and help).
std::vector<std::string> panelKeys();

/// A request for the IR view to bring a row into view (consumed when drawn).
struct IrScrollRequest {
  /// Visible row index of the IR diff model.
  int row = 0;
  /// Put the row near the top third rather than just into view.
  bool center = true;
};

/// What the panels share.
struct ViewState {
  /// The event the panels show (kept equal to the workbench cursor).
  int selectedEvent = 0;
  /// IR view: only this global function ("" = whole module).
  std::string functionFilter;
  /// IR view search.
  std::string search;
  bool searchCaseSensitive = false;
  /// Visible rows matching `search`, and the current one (-1 = none).
  std::vector<uint32_t> searchHits;
  int searchIndex = -1;
  /// The search box should take keyboard focus (Ctrl+F).
  bool focusSearch = false;
  /// Pending scroll of the IR view.
  std::optional<IrScrollRequest> irScroll;
  /// Lines to highlight in the IR view (a clicked diagnostic).
  std::optional<IrLocation> highlight;
  /// The IR view should open its editor (`gui edit`; consumed when drawn).
  bool beginEdit = false;
  /// The trace panel should scroll its cursor row into view.
  bool traceScrollToCursor = true;
  /// Which panels are open.
  std::array<bool, kPanelCount> open = [] {
    std::array<bool, kPanelCount> all{};
    all.fill(true);
    return all;
  }();
  /// The bottom tab to bring to front on the next frame (consumed when drawn).
  std::optional<PanelId> focusTab;
  /// The bottom tab in front.
  PanelId activeTab = PanelId::Diagnostics;
  TraceFilter traceFilter;
  AttrTimelineOptions attrOptions;
  /// Graph panel: the function drawn ("" = the IR view's filter, else @main or
  /// the first function the event changed).
  std::string graphFunction;
  /// Remarks panel and IR gutter: which remarks are shown.
  RemarkFilter remarkFilter;
  /// Remarks panel: the remark last clicked (index into the model's rows; -1 = none).
  int selectedRemark = -1;
  /// Config panel: include the reads of every event, not only the selected one.
  bool configAllEvents = false;
  /// Layout: width of the left column and height of the bottom area, as
  /// fractions of the window (persisted in imgui.ini).
  float leftFraction = 0.27f;
  float bottomFraction = 0.32f;
  /// A script's `gui wait N`: frames still to wait before its next line.
  int waitFrames = 0;

  /// Opens panel `id` and, for a bottom panel, brings its tab to the front.
  void showPanel(PanelId id);
};

}  // namespace passlab::gui
