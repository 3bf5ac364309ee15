// The panels of passlab-gui, one per file (gui/panels/*_panel.cpp). Each keeps
// only widget state (text being typed, which rows are collapsed); what it shows
// comes from the session's view models.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "gui/panels/panel_common.h"

namespace passlab::gui {

/// The progress bar of the running command with its Cancel button, alone in
/// the frame, over `background` (the main window's last frame as a texture,
/// bottom-up; null: none) of `backgroundSize` pixels (progress_panel.cpp).
void drawProgressOverlay(GuiSession& session, ImTextureID background, ImVec2 backgroundSize);

/// One graph canvas in one frame (defined in graph_panel.cpp).
struct GraphCanvas;

/// Trace tree: every event, nested passes indented and collapsible, status
/// icons, timing bars, the pending pipeline passes; click to go to an event;
/// breakpoints listed and edited below the tree.
class TracePanel : public Panel {
 public:
  void draw(GuiSession& session) override;

 private:
  void drawTree(GuiSession& session);
  void drawBreakpoints(GuiSession& session);
  std::set<int> collapsed_;
  int newBreakKind_ = 0;
  std::string newBreakPattern_;
};

/// IR before/after side by side: aligned diff, syntax highlighting, watched
/// attributes with change markers, function filter, search (Ctrl+F), go to line.
class IrViewPanel : public Panel {
 public:
  void draw(GuiSession& session) override;
  /// The first visible row in the last frame drawn.
  int topRow() const { return topRow_; }

 private:
  void drawHeader(GuiSession& session);
  void drawToolbar(GuiSession& session);
  void drawBody(GuiSession& session);
  /// Edit mode: the after side of the cursor's event (or the filtered function)
  /// as editable text; Apply runs `edit --from` (parse, type-check, an `edit`
  /// event, a branch when a future was recorded), Cancel drops the text. An
  /// error keeps the text and shows the diagnostics under it.
  void beginEdit(GuiSession& session);
  void drawEditor(GuiSession& session);
  /// A constant reference under the mouse: underlined, `show const N` as a
  /// tooltip, a click runs it in the console. Returns true when one is hovered.
  bool hoverConstant(GuiSession& session, std::string_view line, float textX, float y, float charW, float lineH);
  /// The last constant tooltip and what it was made for (describing a large
  /// constant scans it, so not every frame).
  std::string constTip_;
  uint64_t constTipGeneration_ = 0;
  int32_t constTipNumber_ = -1;
  bool constTipScript_ = false;
  bool editing_ = false;
  int editEvent_ = -1;
  std::string editFunction_;
  std::string editText_;
  std::string editError_;
  std::string searchInput_;
  /// The view's search when last seen, to notice searches set by commands.
  std::string lastSearch_;
  std::string gotoInput_;
  bool gotoBefore_ = false;
  /// Top visible row last frame (for "next change" from the current position).
  int topRow_ = 0;
};

/// Diagnostics, failures and function skips of the selected event; click to
/// scroll the IR view to the place and highlight it.
class DiagnosticsPanel : public Panel {
 public:
  void draw(GuiSession& session) override;
  /// " (N)": the diagnostics of the selected event.
  std::string badge(GuiSession& session) override;
};

/// Remarks of the selected event and its nested passes (why each pass did, or
/// did not, rewrite each node): counts by rule, filters by kind, rule and text,
/// and the list; a click shows the remark's node in the IR view and the graph.
class RemarksPanel : public Panel {
 public:
  void draw(GuiSession& session) override;
  /// " (N)": the remarks shown.
  std::string badge(GuiSession& session) override;

 private:
  /// The counts line, the kind boxes, the pass and rule combos and the text filter.
  void drawFilters(GuiSession& session, RemarksModel& model);
  /// The shown remarks, one row each; a click jumps to the remark's node.
  void drawList(GuiSession& session, const RemarksModel& model);
  /// The text filter as typed (ViewState::remarkFilter holds what applies).
  std::string text_;
};

/// Functions × events grid of attribute values, changed cells marked.
class AttrTimelinePanel : public Panel {
 public:
  void draw(GuiSession& session) override;
};

/// Config reads of the selected event with source and context, conflicts flagged.
class ConfigPanel : public Panel {
 public:
  void draw(GuiSession& session) override;
};

/// Per-event numeric error plot (empty state until the workbench records it).
class NumericsPanel : public Panel {
 public:
  void draw(GuiSession& session) override;
};

/// Generated code per PrimFunc (empty state until code generation exists).
class CodegenPanel : public Panel {
 public:
  void draw(GuiSession& session) override;

 private:
  void drawStage(const CodegenModel& model, size_t stage);
  /// The function whose code is shown ("" = the whole module), kept across tabs.
  std::string function_;
  /// The stage event last opened from the selection, so a new selection re-opens its tab once.
  int openedStageEvent_ = -1;
};

/// The dataflow graph of a function before | after the selected event, coloured
/// by what the event changed: boxes for fused functions, Compiler regions and
/// linear chains (click a label strip to collapse, a collapsed box to expand),
/// pan (drag), zoom (wheel), fit (F), a minimap, search, follow mode; a click selects a node, lights
/// its partner on the other side and shows its line in the IR view, and a
/// line clicked in the IR view selects its node.
class GraphPanel : public Panel {
 public:
  void draw(GuiSession& session) override;

 private:
  void drawToolbar(GuiSession& session, GraphViewModel& model);
  /// One side: input, then frames, edges, boxes, the minimap and the tooltip.
  void drawCanvas(GuiSession& session, GraphViewModel& model, Side side, float width, float height);
  /// Pan (drag), zoom (wheel), fit (F, Home), the minimap, hover and clicks.
  void handleInput(GuiSession& session, GraphViewModel& model, GraphCanvas& canvas);
  /// A click: a collapsed box opens, a node is selected (and its line shown), a label strip collapses its box.
  void clickAt(GuiSession& session, GraphViewModel& model, const GraphCanvas& canvas);
  /// Centres on a selection made elsewhere (IR view, search, a remark) when it is off screen.
  void revealSelection(GraphViewModel& model, GraphCanvas& canvas);
  std::string search_;
  std::string searched_;
  /// The IR view's highlighted line when last seen, to notice new selections there.
  std::optional<IrLocation> lastHighlight_;
  bool revealSelection_ = false;
  bool dragged_ = false;
  /// The side whose minimap the mouse is dragging in.
  std::optional<Side> minimapDrag_;
};

/// The REPL inside the GUI: scrollback, input with history and TAB completion.
class ConsolePanel : public Panel {
 public:
  void draw(GuiSession& session) override;
  /// The input line (for tests).
  std::string& input() { return input_; }

 private:
  std::string input_;
  uint64_t seenRevision_ = 0;
  bool focusInput_ = false;
};

}  // namespace passlab::gui
