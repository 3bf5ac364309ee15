// The main window: menu bar, toolbar with the debugger moves and the pipeline
// editor, the current position, the trace tree | IR view split, the tabbed
// bottom area (diagnostics, remarks, attributes, config, numerics, codegen,
// graph, console) and
// the status bar; debugger keys; the open-file dialog; and the imgui.ini
// section that remembers the layout and which panels are open.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gui/model/gui_session.h"
#include "gui/panels/panels.h"

namespace passlab::gui {

/// Key codes as ImGui 1.86's GLFW backend stores them in io.KeysDown (GLFW's own codes).
namespace keys {
inline constexpr int kF5 = 294;
inline constexpr int kF10 = 299;
inline constexpr int kF11 = 300;
inline constexpr int kBackspace = 259;
inline constexpr int kLeft = 263;
inline constexpr int kF = 70;
}  // namespace keys

/// The action bound to a key press (F10 step over, F11 step in, Shift+F11 step
/// out, F5 run, Backspace or Alt+Left back), or nullopt. `typing` is true while
/// a text field has the keyboard: Backspace and Alt+Left then edit text.
std::optional<Action> actionForKey(int key, bool shift, bool ctrl, bool alt, bool typing);

/// passlab-gui's window content.
class MainWindow {
 public:
  /// A window over `session` (which must outlive it).
  explicit MainWindow(GuiSession& session);
  /// Draws one frame's UI; call between ImGui::NewFrame and ImGui::Render.
  void draw();
  /// Handles the debugger keys for this frame (called by draw()).
  void handleKeys();
  /// The console panel (tests type into it).
  ConsolePanel& consolePanel() { return console_; }
  /// The IR view's first visible row in the last frame (benchmarks and tests check scrolling).
  int irTopRow() const { return ir_.topRow(); }
  /// Opens the file dialog on the next frame.
  void openFileDialog() { openDialogRequested_ = true; }

  /// Registers the [Passlab][Layout] section of imgui.ini for `view` (splitter
  /// fractions, open panels, front tab) on the current ImGui context. Call
  /// before the first NewFrame (which reads the ini file).
  static void installSettingsHandler(ViewState& view);

 private:
  void drawMenuBar();
  void drawToolbar();
  /// The Relay / TVMScript toggle of the print syntax.
  void drawSyntaxToggle();
  void drawBottomTabs();
  void drawStatusBar();
  void drawOpenDialog();
  void drawSaveReportDialog();

  /// One bottom tab: its panel, made by makeTabPanel (the console's is console_).
  struct Tab {
    PanelId id;
    int place = 0;
    Panel* panel = nullptr;
  };

  GuiSession& session_;
  TracePanel trace_;
  IrViewPanel ir_;
  ConsolePanel console_;
  /// The panels of the tabs gui/model/panels.def lists, and the tabs in their order.
  std::vector<std::unique_ptr<Panel>> tabPanels_;
  std::vector<Tab> tabs_;
  std::string pipelineInput_;
  uint64_t pipelineSeenGeneration_ = 0;
  bool pipelineActive_ = false;
  bool openDialogRequested_ = false;
  std::string openPath_;
  std::string browseDir_;
  bool reportDialogRequested_ = false;
  std::string reportPath_;
};

/// passlab's dark style on the current context.
void applyStyle();
/// Loads a monospace UI font (DejaVu Sans Mono when installed, else ImGui's
/// built-in font) at `pixels`; returns the font's file or "built-in".
std::string loadFonts(float pixels);

}  // namespace passlab::gui
