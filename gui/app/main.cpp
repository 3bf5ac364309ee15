// passlab-gui: command-line entry point; the work is in GuiApp.
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gui/app/app.h"
#include "gui/model/app_options.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  auto options = passlab::gui::parseAppOptions(args, &error);
  if (!options) {
    std::fprintf(stderr, "passlab-gui: error: %s\n%s", error.c_str(), passlab::gui::appUsage().c_str());
    return 2;
  }
  if (options->help) {
    std::fputs(passlab::gui::appUsage().c_str(), stdout);
    return 0;
  }
  passlab::gui::GuiApp app(*options);
  // Test hook for screenshots under Xvfb (no pointer there): PASSLAB_GUI_MOUSE="X,Y"
  // parks the mouse at window pixel (X, Y) every frame, e.g. over a constant
  // reference to show its tooltip; "X,Y,F" also clicks the left button there at frame F.
  float mouseX = 0, mouseY = 0;
  int clickFrame = -1;
  if (const char* mouse = std::getenv("PASSLAB_GUI_MOUSE");
      mouse && std::sscanf(mouse, "%f,%f,%d", &mouseX, &mouseY, &clickFrame) >= 2)
    app.beforeNewFrame = [mouseX, mouseY, clickFrame, frame = 0]() mutable {
      ImGuiIO& io = ImGui::GetIO();
      io.MousePos = ImVec2(mouseX, mouseY);
      io.MouseDown[0] = frame++ == clickFrame;
    };
  return app.run();
}
